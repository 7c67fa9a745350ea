// Issue 33's noise sentinel, calibrated and acted on (gate.busy). Two parts, side by side in one run:
// 1. Calibration: what "other processes" reads on a quiet machine and with a CPU hog on one core, for
//    a service that leaves the cores mostly idle (5 ms delay) and one that saturates both (no delay):
//    an update run and a gate run quiet, then a gate run with the hog on throughout. Printed: the
//    distribution of othersPct per trial, and the gate's verdicts.
// 2. Acting: a 24-row config (3 scenarios × 2 phases × p50, p90, p99, rps) on the 5 ms service, gate
//    mode against a baseline recorded quiet, under the noise injector (a one-core hog switched on and
//    off at random every 2–8 s); variants run round-robin in a random order each round, so the
//    injector falls on all alike: A/A without gate.busy, A/A with it, +50% without, +50% with. Then the
//    hog on throughout: A/A and +50%, each with and without gate.busy. Printed per variant: false
//    alarms (A/A) or caught (+50%), inconclusive runs, repeats spent, busy trials still judged, wall
//    time; every alarm with the rows that raised it.
// Usage: node bench/sentinel.mjs [rounds, default 4] [parts, comma list of calibrate,act; default both]
// Traffic stays inside containers this script starts. Every loop is bounded by the rounds.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuHog, git, median, noiseInjector, printMachine, ROOT, sutCompose, table } from './lib.mjs';

const rounds = Math.max(1, Number(process.argv[2] ?? 4));
const parts = (process.argv[3] ?? 'calibrate,act').split(',');
const CLI = join(ROOT, 'dist/cli.js');
const BASE_DELAY_US = 5000;

const compose = (delayUs) => sutCompose({ DELAY: `${delayUs}us` });

const config = (busy) => `version: 1
sut:
  compose: docker-compose.yml
  build: true
  ready: [{ url: http://api:8080/health }]
runner: { image: perf-gate/node:local }
${busy ? 'gate: { busy: {} }\n' : ''}defaults:
  warmup: 500ms
  trials: 5
  thresholds:
    p50: { regress: 10%, floor: 200us }
    p90: { regress: 15%, floor: 500us }
    p99: { regress: 25%, floor: 1ms }
    rps: { regress: 10% }
scenarios:
${[1, 2, 3]
  .map(
    (i) => `  - name: s${i}
    request: { url: http://api:8080/work?s=${i} }
    phases:
      - { name: c8, connections: 8, duration: 1s }
      - { name: c64, connections: 64, duration: 1s }`,
  )
  .join('\n')}
`;

/** A repository with the service at `delayUs` committed on main, its baseline recorded by `update`. */
async function repo(delayUs) {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-sentinel-'));
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'bench@example.com']);
  git(dir, ['config', 'user.name', 'perf-gate bench']);
  writeFileSync(join(dir, 'docker-compose.yml'), compose(delayUs));
  writeFileSync(join(dir, 'perf-gate.yml'), config(false));
  writeFileSync(join(dir, 'busy.yml'), config(true));
  // the run's own files go to .out, outside what the commits hold
  writeFileSync(join(dir, '.gitignore'), '.out/\n');
  git(dir, ['add', '.']);
  git(dir, ['commit', '-q', '-m', 'base']);
  return dir;
}

/** Head: the same service (a commit that changes nothing measured) or one at `delayUs`. */
function setHead(dir, delayUs) {
  git(dir, ['checkout', '-q', '--detach', 'main']);
  writeFileSync(join(dir, 'docker-compose.yml'), compose(delayUs));
  writeFileSync(join(dir, 'README.md'), `v${Date.now()}\n`);
  git(dir, ['add', 'docker-compose.yml', 'README.md']);
  git(dir, ['commit', '-q', '-m', 'head']);
}

function cli(dir, file, args) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        CLI,
        'run',
        '--config',
        join(dir, file),
        '--out',
        join(dir, '.out'),
        '--baseline-dir',
        join(dir, 'baselines'),
        ...args,
      ],
      {
        cwd: dir,
        env: { ...process.env, GITHUB_WORKSPACE: dir, GITHUB_EVENT_NAME: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const started = Date.now();
    child.on('close', (code) => resolve({ code, stderr, seconds: (Date.now() - started) / 1000 }));
  });
}

/** A run's verdict, the rows behind it, its machine readings and what gate.busy did. */
function verdictOf(dir) {
  const results = JSON.parse(readFileSync(join(dir, '.out', 'perf-gate-results.json'), 'utf8'));
  const phases = results.scenarios.flatMap((s) => s.phases.map((p) => ({ ...p, scenario: s.name })));
  const trials = phases.flatMap((p) => p.trials);
  const row = (c) =>
    `${c.scenario}/${c.phase} ${c.metric} ${c.result} ${c.delta === null ? '' : `${(c.delta * 100).toFixed(1)}%`}` +
    `${c.pValue !== undefined ? ` p=${c.pValue}` : ''}`;
  return {
    regression: results.comparisons.some((c) => c.result === 'regression'),
    inconclusive: results.comparisons.some((c) => c.result === 'inconclusive'),
    rows: results.comparisons.filter((c) => c.result === 'regression' || c.result === 'inconclusive').map(row),
    others: [...trials, ...phases.flatMap((p) => p.discarded ?? [])]
      .map((t) => t.machine?.othersPct)
      .filter((v) => v !== undefined),
    repeated: results.busy?.repeated ?? 0,
    busyKept: trials.filter((t) => t.busy).length,
  };
}

function distribution(values) {
  const v = [...values].sort((a, b) => a - b);
  if (v.length === 0) return 'no readings';
  const q = (f) => v[Math.min(v.length - 1, Math.floor(f * v.length))];
  return `n ${v.length}: min ${v[0]}, median ${q(0.5)}, p90 ${q(0.9)}, max ${v.at(-1)}`;
}

async function run(dir, file, mode) {
  const r = await cli(dir, file, ['--mode', mode]);
  if (r.code !== 0 && r.code !== 1) return { error: r.stderr.split('\n').find(Boolean) ?? `exit ${r.code}`, ...r };
  return { ...verdictOf(dir), seconds: r.seconds, code: r.code };
}

const verdict = (x) =>
  x.error ? `ERROR ${x.error}` : x.regression ? 'regression' : x.inconclusive ? 'inconclusive' : 'pass';

printMachine();

if (parts.includes('calibrate')) {
  const out = [];
  for (const delay of [BASE_DELAY_US, 0]) {
    const dir = await repo(delay);
    try {
      const label = delay ? `${delay / 1000} ms delay` : 'no delay (saturates both cores)';
      const update = await run(dir, 'perf-gate.yml', 'update');
      out.push([label, 'update, quiet', distribution(update.others ?? []), verdict(update)]);
      git(dir, ['add', 'baselines']);
      git(dir, ['commit', '-q', '-m', 'baseline']);
      const quiet = await run(dir, 'perf-gate.yml', 'gate');
      out.push([label, 'gate, quiet', distribution(quiet.others ?? []), verdict(quiet)]);
      const stop = cpuHog();
      const busy = await run(dir, 'perf-gate.yml', 'gate').finally(stop);
      out.push([label, 'gate, one-core hog throughout', distribution(busy.others ?? []), verdict(busy)]);
      for (const [what, x] of [
        ['quiet', quiet],
        ['hog', busy],
      ])
        if (x.rows?.length) process.stderr.write(`[sentinel] ${label} ${what}: ${x.rows.join('; ')}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log('\nCalibration: other processes per trial, % of one core\n');
  table(['service', 'run', 'other processes', 'verdict'], out);
}

if (parts.includes('act')) {
  const dir = await repo(BASE_DELAY_US);
  const variants = [
    { id: 'A/A', pct: 0, file: 'perf-gate.yml' },
    { id: 'A/A gate.busy', pct: 0, file: 'busy.yml' },
    { id: '+50%', pct: 50, file: 'perf-gate.yml' },
    { id: '+50% gate.busy', pct: 50, file: 'busy.yml' },
  ].map((v) => ({ ...v, injector: [], hog: [] }));
  try {
    const update = await run(dir, 'perf-gate.yml', 'update');
    if (update.error) throw new Error(`baseline run failed: ${update.error}`);
    git(dir, ['add', 'baselines']);
    git(dir, ['commit', '-q', '-m', 'baseline']);
    const once = async (v, where) => {
      setHead(dir, Math.round(BASE_DELAY_US * (1 + v.pct / 100)));
      const x = await run(dir, v.file, 'gate');
      v[where].push(x);
      process.stderr.write(
        `[sentinel] ${where} ${v.id} ${v[where].length}: ${verdict(x)}${x.rows?.length ? ` — ${x.rows.join('; ')}` : ''} (${x.seconds.toFixed(0)} s; ${x.repeated ?? 0} repeated, ${x.busyKept ?? 0} busy kept)\n`,
      );
    };
    const stopNoise = noiseInjector();
    try {
      for (let r = 0; r < rounds; r++) {
        for (const v of [...variants].sort(() => Math.random() - 0.5)) await once(v, 'injector');
      }
    } finally {
      stopNoise();
    }
    const stop = cpuHog();
    try {
      for (const v of variants) await once(v, 'hog');
    } finally {
      stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cells = variants.flatMap((v) =>
    ['injector', 'hog'].map((where) => {
      const list = v[where];
      const ok = list.filter((x) => !x.error);
      const flagged = ok.filter((x) => x.regression).length;
      return [
        v.id,
        where === 'injector' ? 'hog on and off' : 'hog throughout',
        `${flagged} of ${ok.length}${v.pct === 0 ? ' false alarms' : ' caught'}`,
        String(ok.filter((x) => !x.regression && x.inconclusive).length),
        ok.length ? `median ${median(ok.map((x) => x.repeated))}, max ${Math.max(...ok.map((x) => x.repeated))}` : '—',
        ok.length ? `median ${median(ok.map((x) => x.busyKept))}, max ${Math.max(...ok.map((x) => x.busyKept))}` : '—',
        list.length ? `${median(list.map((x) => x.seconds)).toFixed(0)} s` : '—',
        String(list.length - ok.length),
      ];
    }),
  );
  console.log(`\nActing (gate.busy), 24 rows, gate mode, ${rounds} rounds under the injector\n`);
  table(
    ['variant', 'machine', 'result', 'inconclusive runs', 'repeats a run', 'busy trials judged', 'wall time', 'errors'],
    cells,
  );
}

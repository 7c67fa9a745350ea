// Issue 9's verdict-quality table: how often each mode raises a false alarm on unchanged code and how
// often it catches a slower service, on this machine, with a noise injector that switches a CPU hog on
// and off between and during runs (a busy shared runner).
//   gate: head gated against a baseline committed once at the start (a separate, earlier run)
//   ab:   head against base in the same run (--mode ab), ABBA pairs
// Both at default settings: built-in bands, alpha 0.05, 6 trials (gate) / 6 pairs (ab), 1 s phases.
// Variants: A/A, and the service's delay +5%, +10%, +20% (5 ms base delay; Go's sleep overshoots by
// about 1 ms here, so the measured Δ is printed beside the nominal one).
// Usage: node bench/verdict-quality.mjs [runs per variant and mode] [variants, comma list] [modes: gate,ab]
// Traffic stays inside containers this script starts. Every loop is bounded by the run count.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, printMachine, ROOT, table } from './lib.mjs';

const runs = Number(process.argv[2] ?? 20);
const variants = (process.argv[3] ?? 'aa,5,10,20').split(',');
const modes = (process.argv[4] ?? 'gate,ab').split(',');
const BASE_DELAY_US = 5000;
const CLI = join(ROOT, 'dist/cli.js');

const compose = (delayUs) => `services:
  api:
    build: ${join(ROOT, 'fixtures/sut')}
    environment:
      DELAY: ${delayUs}us
    healthcheck:
      test: ['CMD', '/sut', '-health', 'http://127.0.0.1:8080/health']
      interval: 1s
      retries: 30
`;
const CONFIG = `version: 1
sut:
  compose: docker-compose.yml
  build: true
  ready: [{ url: http://api:8080/health }]
runner: { image: perf-gate/node:local }
ab: { pairs: 6 }
defaults:
  warmup: 500ms
  trials: 6
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    phases:
      - { name: c4, connections: 4, duration: 1s }
`;

function git(dir, args) {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A repository with the base service committed on main (the variant is committed on top by setHead). */
function repo() {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-vq-'));
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'bench@example.com']);
  git(dir, ['config', 'user.name', 'perf-gate bench']);
  writeFileSync(join(dir, 'docker-compose.yml'), compose(BASE_DELAY_US));
  writeFileSync(join(dir, 'perf-gate.yml'), CONFIG);
  writeFileSync(join(dir, 'README.md'), 'v1\n');
  git(dir, ['add', '.']);
  git(dir, ['commit', '-q', '-m', 'base']);
  return dir;
}

function setHead(dir, headDelayUs) {
  git(dir, ['checkout', '-q', '--detach', 'main']);
  if (headDelayUs === BASE_DELAY_US) writeFileSync(join(dir, 'README.md'), `v${Date.now()}\n`);
  else writeFileSync(join(dir, 'docker-compose.yml'), compose(headDelayUs));
  git(dir, ['commit', '-q', '-am', 'head']);
}

function cli(dir, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'run', '--config', join(dir, 'perf-gate.yml'), '--out', dir, ...args], {
      cwd: dir,
      env: { ...process.env, GITHUB_WORKSPACE: dir, GITHUB_EVENT_NAME: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const started = Date.now();
    child.on('close', (code) => resolve({ code, stderr, seconds: (Date.now() - started) / 1000 }));
  });
}

/** A CPU hog (one core busy), switched on and off at random every 2–8 s until stopped. */
function noise() {
  let hog;
  let timer;
  let stopped = false;
  const toggle = () => {
    if (stopped) return;
    if (hog) {
      hog.kill('SIGKILL');
      hog = undefined;
    } else if (Math.random() < 0.5) {
      hog = spawn(process.execPath, ['-e', 'const end = Date.now() + 60000; while (Date.now() < end);'], {
        stdio: 'ignore',
      });
    }
    timer = setTimeout(toggle, 2000 + Math.random() * 6000);
  };
  toggle();
  return () => {
    stopped = true;
    clearTimeout(timer);
    hog?.kill('SIGKILL');
  };
}

function verdictOf(dir) {
  const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8'));
  const p50 = results.comparisons.find((c) => c.metric === 'p50');
  const flagged = results.comparisons.filter((c) => c.result === 'regression');
  return {
    regression: flagged.length > 0,
    metrics: flagged.map((c) => `${c.metric} ${c.delta === null ? '' : `${(c.delta * 100).toFixed(1)}%`}`),
    p50Delta: p50?.delta ?? null,
  };
}

printMachine();
const stopNoise = noise();
const rows = [];
try {
  for (const v of variants) {
    const pct = v === 'aa' ? 0 : Number(v);
    const headDelay = Math.round(BASE_DELAY_US * (1 + pct / 100));
    const dir = repo();
    try {
      // the committed baseline: recorded once, by an earlier run of the base commit
      const update = await cli(dir, ['--mode', 'update']);
      if (update.code !== 0) throw new Error(`baseline run failed: ${update.stderr}`);
      git(dir, ['add', 'baselines']);
      git(dir, ['commit', '-q', '-m', 'baseline']);
      setHead(dir, headDelay);
      const tally = { gate: [], ab: [] };
      for (let i = 0; i < runs; i++) {
        for (const mode of modes) {
          const r = await cli(dir, mode === 'ab' ? ['--mode', 'ab', '--base', 'main'] : ['--mode', 'gate']);
          if (r.code !== 0 && r.code !== 1) {
            tally[mode].push({ error: r.stderr.split('\n').find(Boolean) ?? `exit ${r.code}`, seconds: r.seconds });
            continue;
          }
          tally[mode].push({ ...verdictOf(dir), seconds: r.seconds });
        }
        process.stderr.write(`[verdict-quality] ${v}: ${i + 1}/${runs}\n`);
      }
      for (const mode of modes) {
        const list = tally[mode];
        const ok = list.filter((x) => !x.error);
        const flagged = ok.filter((x) => x.regression).length;
        rows.push([
          v === 'aa' ? 'A/A (unchanged)' : `+${pct}% delay`,
          mode === 'gate' ? 'gate (committed baseline)' : 'ab (same run)',
          `${flagged} of ${ok.length}${v === 'aa' ? ' false alarms' : ' caught'}`,
          (() => {
            const d = ok.map((x) => x.p50Delta).filter((x) => x !== null);
            return d.length ? `${(median(d) * 100).toFixed(1)}%` : '—';
          })(),
          `${median(list.map((x) => x.seconds)).toFixed(0)} s`,
          String(list.length - ok.length),
          // which rows raised the verdicts, and by how much
          ok.flatMap((x) => x.metrics).join('; ') || '—',
        ]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  stopNoise();
}
console.log(`\n${runs} runs per variant and mode, noise injector on\n`);
table(
  [
    'variant',
    'mode',
    'regression verdicts',
    'median measured p50 Δ',
    'median wall time',
    'failed runs',
    'rows that regressed',
  ],
  rows,
);

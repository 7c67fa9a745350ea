// What each cookbook recipe costs in CI minutes, booting included, beside what `validate` says it
// measures. For each recipe (examples/<name>), in a scratch git repository of the recipe and the
// fixture it builds (two commits, the head changing only a README, as a pull request that touches
// no code): `validate` (its "measuring about" per mode), then, timed from the CLI's start to its exit,
// `run --mode update` (the first baselines, as the scheduled refresh records them), `run --mode gate`
// against them, and `run --mode ab --base HEAD~1`. The wall time is what a CI job spends in the step
// (boot, image builds, setup, warm-ups, trials, teardown), not counting the runner's own start-up.
//
//   node bench/recipe-minutes.mjs [recipe,...]      (default: every recipe)
//   PERF_GATE_RM_LOG=<file>  each run appended as a JSON line: commit (and whether the tree had
//                            changes), the config's hash, the seed, the machine readings, and where
//                            the time beyond validate's figure went: the trials each side ran, the
//                            extra ones confirmation ran, those gate.busy put aside, the longest
//                            silences between progress lines
//   PERF_GATE_RM_OUT=<dir>   each run's progress lines kept there, each prefixed with its second
//
// Needs the engine and the images of scripts/provision-images.sh. No assertion: a measurement.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { machine, printMachine, ROOT, table, ratio } from './lib.mjs';

const RECIPES = {
  'crud-api': { fixtures: [] },
  websocket: { fixtures: ['broker'] },
  grpc: { fixtures: ['grpc-search'] },
  'rate-sweep': { fixtures: [] },
};
const ENV = { API_PASSWORD: 'bench-pw', API_TOKEN: 'bench-token' };
const RUNNER_IMAGE = 'perf-gate/node:local';
const LOG = process.env.PERF_GATE_RM_LOG;
const OUT = process.env.PERF_GATE_RM_OUT;
const chosen = (process.argv[2] ?? Object.keys(RECIPES).join(',')).split(',');

const git = (dir, args) => {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};
const commit = git(ROOT, ['rev-parse', 'HEAD']);
const dirty = git(ROOT, ['status', '--porcelain', '--untracked-files=no']) !== '';

/** A scratch repository: the recipe under examples/<name>, the fixtures it builds under fixtures/. */
function repository(name) {
  const dir = mkdtempSync(join(tmpdir(), `perf-gate-rm-${name}-`));
  cpSync(join(ROOT, 'examples', name), join(dir, 'examples', name), { recursive: true });
  for (const f of RECIPES[name].fixtures)
    cpSync(join(ROOT, 'fixtures', f), join(dir, 'fixtures', f), { recursive: true });
  writeFileSync(join(dir, 'README.md'), 'a service\n');
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'bench@example.com']);
  git(dir, ['config', 'user.name', 'perf-gate bench']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'base']);
  writeFileSync(join(dir, 'README.md'), 'a service, documented\n');
  git(dir, ['commit', '-q', '-am', 'head']);
  return dir;
}

function cli(dir, args) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), ...args], {
      cwd: dir,
      env: { ...process.env, ...ENV, GITHUB_WORKSPACE: dir, CI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    // each complete line with the second it arrived at, for the silences between them
    const lines = [];
    let partial = '';
    const take = (d) => {
      out += d;
      const at = (performance.now() - t0) / 1000;
      const parts = (partial + d).split('\n');
      partial = parts.pop();
      for (const text of parts) lines.push({ at, text });
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => resolve({ code, out, lines, seconds: (performance.now() - t0) / 1000 }));
  });
}

const seconds = (n, unit) => Number(n) * (unit === 'min' ? 60 : 1);
/** validate's "measuring about …" for a mode's line, in seconds: every trial, and where every phase
 * stops at its early look (absent for a mode without one). */
function estimate(validateOut, mode) {
  const line = validateOut.split('\n').find((l) => l.trimStart().startsWith(`${mode}:`));
  const m = line?.match(/measuring about ([\d.]+) (s|min)(?: \(([\d.]+) (s|min) where every phase stops)?/);
  if (!m) return {};
  return { every: seconds(m[1], m[2]), ...(m[3] ? { early: seconds(m[3], m[4]) } : {}) };
}

/** Where a run's time went, from its results file: the trials each side kept, the extra ones
 * confirmation ran (beyond its first), those gate.busy put aside and ran again, the phases stopped
 * at their early look; absent where the run wrote none. */
function spentOf(outDir) {
  const file = join(outDir, 'perf-gate-results.json');
  if (!existsSync(file)) return {};
  const results = JSON.parse(readFileSync(file, 'utf8'));
  const sides = [['head', results.scenarios], ...(results.ab?.base ? [['base', results.ab.base]] : [])];
  const phases = sides.flatMap(([side, scenarios]) =>
    scenarios.flatMap((s) => s.phases.filter((p) => p.request === undefined).map((p) => ({ side, s, p }))),
  );
  return {
    trials: Object.fromEntries(phases.map(({ side, s, p }) => [`${side} ${s.name}/${p.name}`, p.trials.length])),
    extra: phases.reduce((a, { p }) => a + Math.max(0, p.trials.length - (p.confirm?.first ?? p.trials.length)), 0),
    putAside: results.busy?.repeated ?? 0,
    busyAllowance: results.busy?.repeats ?? null,
    judgedBusy: phases.flatMap(({ p }) => p.trials).filter((t) => t.busy === true).length,
    verdict: [...new Set(results.comparisons.map((c) => c.result))].sort(),
  };
}

/** The longest silences between progress lines (seconds, the line after each): where a wait hides. */
function silences(lines, n = 5) {
  const gaps = lines
    .slice(1)
    .map((l, i) => ({ gap: Math.round((l.at - lines[i].at) * 10) / 10, before: l.text.slice(0, 120) }));
  return gaps.sort((a, b) => b.gap - a.gap).slice(0, n);
}

printMachine();
const rows = [];
for (const name of chosen) {
  if (!RECIPES[name]) throw new Error(`unknown recipe ${name}: one of ${Object.keys(RECIPES).join(', ')}`);
  const dir = repository(name);
  const config = join('examples', name, 'perf-gate.yml');
  const hash = createHash('sha256')
    .update(readFileSync(join(dir, config)))
    .digest('hex')
    .slice(0, 16);
  const baselines = join(dir, 'baselines');
  try {
    const v = await cli(dir, ['validate', config, '--baseline-dir', baselines]);
    for (const [mode, extra] of [
      ['update', []],
      ['gate', []],
      ['ab', ['--base', 'HEAD~1']],
    ]) {
      const seed = Math.floor(Math.random() * 2 ** 31);
      const out = join(dir, `out-${mode}`);
      const load = loadavg()[0];
      const args = ['run', '--config', config, '--mode', mode, '--runner-image', RUNNER_IMAGE];
      args.push('--baseline-dir', baselines, '--out', out, '--seed', String(seed), ...extra);
      const r = await cli(dir, args);
      const est = estimate(v.out, mode);
      const said = est.early === undefined ? `${est.every ?? '?'} s` : `${est.every} s (${est.early} s early)`;
      const line = {
        recipe: name,
        mode,
        at: new Date().toISOString(),
        commit,
        dirty,
        config: hash,
        seed,
        exit: r.code,
        seconds: Math.round(r.seconds * 10) / 10,
        validateSeconds: est,
        stoppedEarly: (r.out.match(/the phase stops here/g) ?? []).length,
        ...spentOf(out),
        silences: silences(r.lines),
        machine: { cpu: machine().cpu, loadBefore: load, loadAfter: loadavg()[0] },
      };
      if (LOG) appendFileSync(LOG, `${JSON.stringify(line)}\n`);
      if (OUT)
        writeFileSync(
          join(OUT, `${name}-${mode}-${seed}.log`),
          r.lines.map((l) => `${l.at.toFixed(1).padStart(7)} ${l.text}`).join('\n') + '\n',
        );
      console.log(`[recipe-minutes] ${name} ${mode}: exit ${r.code}, ${line.seconds} s (validate: ${said} measuring)`);
      if (r.code !== 0 && r.code !== 1) console.log(r.out.split('\n').slice(-15).join('\n'));
      rows.push([name, mode, String(r.code), said, `${line.seconds} s`, ratio(r.seconds, est.every)]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log('');
table(['recipe', 'mode', 'exit', "validate's measuring", 'wall, booting included', 'wall ÷ every trial'], rows);

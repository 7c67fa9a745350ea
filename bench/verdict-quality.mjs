// Issue 19's verdict-quality table: false alarms on unchanged code and detection of a slower service,
// on this machine, with a noise injector that switches a CPU hog on and off between and during runs
// (a busy shared runner). Cells (runs each, at scale 1):
//   A/A, A/B mode (same run, random pair order)              60   target 0 false alarms
//   A/A, gate mode (a baseline recorded on this machine)      60   target 0 false alarms
//   +5% p50, A/B mode                                          20   target ≥ 19 caught
//   +50% p50, gate mode, `trials: 3` in the config            20   target 20 caught
// plus the A/B wall time against the gate's (same trials and phases; target ≤ 2.0×) and the extra
// trials confirmation spent on A/A runs (median and max). Built-in bands and alphas; 6 trials / 6 pairs,
// 1 s phases; the +50% cell 3 trials. Every regression and inconclusive row is printed with its values.
// The 5 ms base delay: Go's sleep overshoots by about 1 ms here, so the measured Δ is printed beside
// the nominal one.
// Issue 33's cells, at a real project's size: 6 scenarios × 2 phases (c8, c16) × 4 gated rows (p50, p90,
// p99, rps) = 48 rows, unchanged code, each row at its own alpha and with `gate.run-alpha: 0.01`:
//   A/A, 48 rows, gate mode                                   60   target 0 false alarms
//   A/A, 48 rows, gate mode, gate.run-alpha 0.01              60   target 0 false alarms
//   A/A, 48 rows, A/B mode                                    60   target 0 false alarms
//   A/A, 48 rows, A/B mode, gate.run-alpha 0.01               60   target 0 false alarms
// These are not in the default list (a 48-row run takes minutes): name them.
// Issue 33's wall time, `shape`: the real two-service stack's shape (2 scenarios × 2 phases, 2 s warm-up,
// 3 s measured, 5 trials, 6 pairs) on the test service, six variants run round-robin in a random order
// each round (3 rounds at scale 1), so drift and the injector fall on all of them alike:
//   gate, gate with `gate.early-look: 3`, A/B, A/B with early-look 3 (unchanged code), and +50% in gate
//   mode with and without the early look. Printed: median wall time of each and the ratios the issue
//   sets targets for (early A/A ≤ 0.6× fixed; A/B ≤ 1.3× gate; a confirmed regression no slower).
// `shape-warm`: the same shape with `warmup-later: settled` (later trials' warm-up from the first's):
//   gate (full warm-up, the reference), gate settled, gate settled + early look, A/B settled + early
//   look, +50% gate settled + early look.
// `def-shape`: the same shape at the defaults (the early look and the settled warm-up on since
//   2026-11-29): the fixed gate (early-look off, warmup-later full) as the reference, then gate and A/B
//   at the defaults, unchanged and +50%. With PERF_GATE_VQ_LOG every shape run is a line of it too.
// `def-shape-ab`: A/B's cost at the defaults: gate and A/B unchanged, A/B +50% (ratios to the gate).
// Issue 47's cells at the defaults (no `gate:` keys at all: the run's budget, the reach check's caps,
// interleaved confirmation, inconclusive failing): A/A at 4, 16 and 48 gated rows (1, 4 and 12 phases of
// p50, p90, p99 and rps), both modes, 60 runs each:
//   def4-gate, def4-ab, def16-gate, def16-ab, def48-gate, def48-ab      target 0 of 60, ≤ 1 inconclusive
// and its detection cells at the defaults, 16 rows (4 scenarios of one c8 phase each; the run's budget is
// shared by 4 gated phases, as in def16), the head's service worse in scenario s4 only (ODD_QUERY), 20 runs:
//   p99-16-gate, p99-16-ab   1.5% of s4's requests wait longer: p99 about +50%, p50 and rps unchanged;
//                            4 ms in gate mode (+44.5%, section zk), 5.5 ms in A/B (A/B at 4 ms: +28%,
//                            section zu; 6 ms: +36% in one busy run; 7.5 ms: +79% to +97% in three;
//                            10 ms: a median +92% in six, section zw)
//   5xx-16-gate, 5xx-16-ab   s4's requests answered 503 at random, about 0.3 a trial (a new error class)
//                            target ≥ 19 of 20 each; the watched row's Δ and the 503s a trial are logged
// Each line of PERF_GATE_VQ_LOG carries perf-gate's commit (and whether the tree had changes), the
// config's hash, the run's seed and its machine readings, so a figure can be recounted from the log,
// the time the run's final judgement took (`judgedMs`, the statistics of every row and its power) and
// the time its statistics took while the trials ran (`statsMs`: early looks, confirmation's looks).
// A cell in parts across sittings: PERF_GATE_VQ_LOG=<file> (runs appended, counted next time) and
// PERF_GATE_VQ_UNTIL=<ISO time> (no run starts after it).
// Usage: node bench/verdict-quality.mjs [scale, default 1] [cells, comma list of aa-ab,aa-gate,5-ab,50-gate3,
//        aa48-gate,aa48-gate-run,aa48-ab,aa48-ab-run,shape,shape-warm,def-shape,def-shape-ab,5-ab-burn,aa-ab-burn,
//        def4-gate,def4-ab,def16-gate,def16-ab,def48-gate,def48-ab,p99-16-gate,p99-16-ab,5xx-16-gate,5xx-16-ab,
//        prof16-gate,prof16-ab]
// Issue 52's cells: prof16-gate, prof16-ab, the def16 cells with sut.profile on the service (each run takes
// one more trial a phase and side, profiled, in no verdict): the same targets as def16.
// Traffic stays inside containers this script starts. Every loop is bounded by the run count.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, median, noiseInjector, printMachine, ROOT, sutCompose, table } from './lib.mjs';

const scale = Number(process.argv[2] ?? 1);
const CELLS = [
  { id: 'aa-ab', pct: 0, mode: 'ab', trials: 6, runs: 60, target: 'A/A: 0 of 60 false alarms' },
  { id: 'aa-gate', pct: 0, mode: 'gate', trials: 6, runs: 60, target: 'A/A: 0 of 60 false alarms' },
  { id: '5-ab', pct: 5, mode: 'ab', trials: 6, runs: 20, target: 'caught ≥ 19 of 20' },
  { id: '50-gate3', pct: 50, mode: 'gate', trials: 3, runs: 20, target: 'caught 20 of 20' },
];
const WIDE = [
  { id: 'aa48-gate', pct: 0, mode: 'gate', trials: 5, runs: 60, wide: true, target: '48 rows: 0 of 60' },
  {
    id: 'aa48-gate-run',
    pct: 0,
    mode: 'gate',
    trials: 5,
    runs: 60,
    wide: true,
    runAlpha: 0.01,
    target: '48 rows: 0 of 60',
  },
  { id: 'aa48-ab', pct: 0, mode: 'ab', trials: 6, runs: 60, wide: true, target: '48 rows: 0 of 60' },
  {
    id: 'aa48-ab-run',
    pct: 0,
    mode: 'ab',
    trials: 6,
    runs: 60,
    wide: true,
    runAlpha: 0.01,
    target: '48 rows: 0 of 60',
  },
];
// Issue 33's exact +5%: the service spins for its CPU time (BURN) instead of sleeping, 1 connection so
// nothing queues, p50 band 3%, A/B (the cells the issue names); not in the default list either.
const BURN = [
  { id: '5-ab-burn', pct: 5, mode: 'ab', trials: 6, runs: 20, burn: true, target: 'caught ≥ 19 of 20' },
  { id: 'aa-ab-burn', pct: 0, mode: 'ab', trials: 6, runs: 60, burn: true, target: 'A/A: 0 of 60 false alarms' },
];
// Issue 47's A/A cells at the defaults: `scenarios` × 2 phases (one phase for 4 rows) × 4 rows, no gate: keys
const DEFAULTS = [4, 16, 48].flatMap((rows) =>
  ['gate', 'ab'].map((mode) => ({
    id: `def${rows}-${mode}`,
    pct: 0,
    mode,
    trials: mode === 'ab' ? 6 : 5,
    runs: 60,
    rows,
    target: `${rows} rows at the defaults: 0 of 60, ≤ 1 inconclusive`,
  })),
);
// Issue 52's check that a profiled run judges as an unprofiled one does (the profiling trial is apart
// from the measured ones): the defaults' 16-row A/A cells with sut.profile on the service
const PROFILED = ['gate', 'ab'].map((mode) => ({
  id: `prof16-${mode}`,
  pct: 0,
  mode,
  trials: mode === 'ab' ? 6 : 5,
  runs: 60,
  rows: 16,
  profiled: true,
  target: '16 rows at the defaults, profiled: 0 of 60 as def16, ≤ 1 inconclusive',
}));
// the head's service in the detection cells: worse for s4's requests only (fixtures/sut: ODD_QUERY)
const TAIL = { ODD_QUERY: 's=4', TAIL_FRACTION: '0.015' };
/** the tail's delay by mode: what moves s4's p99 by about +50% as each mode measures it (the head's p99
 * is about the base's p33 plus the delay once that is past the base's own p99) */
const TAIL_DELAY = { gate: '4ms', ab: '5.5ms' };
// s4's c8 phase answers about 1,250 requests a second here (8 connections, 5 ms sleeping plus Go's overshoot)
const RARE_5XX = { ODD_QUERY: 's=4', ERROR_PROB: '0.00024' };
const ODD = ['gate', 'ab'].flatMap((mode) =>
  [
    {
      id: `p99-16-${mode}`,
      odd: { ...TAIL, TAIL_DELAY: TAIL_DELAY[mode] },
      watch: 'p99',
      target: 'p99 +50% in 1 phase of 4: caught ≥ 19 of 20',
    },
    { id: `5xx-16-${mode}`, odd: RARE_5XX, watch: 'p50', target: 'new 5xx at ~0.3 a trial: caught ≥ 19 of 20' },
  ].map((c) => ({ ...c, pct: 0, mode, trials: mode === 'ab' ? 6 : 5, runs: 20, rows: 16, spread: true })),
);
/** an A/A cell: nothing about the head differs */
const isAa = (cell) => cell.pct === 0 && !cell.odd;
const chosen = (process.argv[3] ?? CELLS.map((c) => c.id).join(',')).split(',');
const cells = [...CELLS, ...WIDE, ...BURN, ...DEFAULTS, ...ODD, ...PROFILED]
  .filter((c) => chosen.includes(c.id))
  .map((c) => ({
    ...c,
    runs: Math.max(1, Math.round(c.runs * scale)),
  }));
const BASE_DELAY_US = 5000;
/** the burn cells' base: 2 ms of spinning a request */
const BASE_BURN_US = 2000;
const baseUs = (cell = {}) => (cell.burn ? BASE_BURN_US : BASE_DELAY_US);
const CLI = join(ROOT, 'dist/cli.js');

const compose = (us, cell = {}, head = false) =>
  sutCompose({
    [cell.burn ? 'BURN' : 'DELAY']: `${us}us`,
    ...(head ? cell.odd : {}),
    // sut.profile's cells: the service serves Go's pprof on a port of its own
    ...(cell.profiled ? { PPROF: "':6060'" } : {}),
  });
/** The SUT, the runner and the A/B pairs: the same in every cell. */
const header = (trials) => `version: 1
sut:
  compose: docker-compose.yml
  build: true
  ready: [{ url: http://api:8080/health }]
runner: { image: perf-gate/node:local }
ab: { pairs: ${trials} }
`;

const config = (trials, cell = {}) =>
  cell.burn
    ? `${header(trials)}defaults:
  warmup: 500ms
  trials: ${trials}
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    thresholds:
      p50: { regress: 3% }
    phases:
      - { name: c1, connections: 1, duration: 1s }
`
    : cell.profiled
      ? config(trials, { ...cell, profiled: false }).replace(
          '  ready: [{ url: http://api:8080/health }]\n',
          '  ready: [{ url: http://api:8080/health }]\n  profile: { api: http://api:6060/debug/pprof/profile }\n',
        )
      : cell.shape
        ? shapeConfig(cell.early, cell.warm)
        : cell.wide
          ? wideConfig(trials, cell.runAlpha)
          : cell.rows
            ? defaultsConfig(trials, cell.rows, cell.spread)
            : `${header(trials)}defaults:
  warmup: 500ms
  trials: ${trials}
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    phases:
      - { name: c4, connections: 4, duration: 1s }
`;

/** The four banded rows of every phase of the wide and the defaults cells: p50, p90, p99 and rps. */
const FOUR_ROWS = `  thresholds:
    p50: { regress: 10%, floor: 200us }
    p90: { regress: 15%, floor: 500us }
    p99: { regress: 25%, floor: 1ms }
    rps: { regress: 10% }
`;

/** 6 scenarios × 2 phases × 4 gated rows: 48 rows (p99 has 1,000 samples a trial at c8 and up). */
const wideConfig = (trials, runAlpha) => `${header(trials)}${runAlpha ? `gate: { run-alpha: ${runAlpha} }` : ''}
defaults:
  warmup: 500ms
  trials: ${trials}
${FOUR_ROWS}scenarios:
${[1, 2, 3, 4, 5, 6]
  .map(
    (i) => `  - name: s${i}
    request: { url: http://api:8080/work?s=${i} }
    phases:
      - { name: c8, connections: 8, duration: 1s }
      - { name: c16, connections: 16, duration: 1s }`,
  )
  .join('\n')}
`;

/** Issue 47: `rows` gated rows (4: one phase; 16: 2 scenarios × 2 phases; 48: 6 × 2) of p50, p90, p99
 * and rps, and no `gate:` keys: what a config gets without reading the manual. */
const defaultsConfig = (trials, rows, spread = false) => {
  const phases = rows / 4;
  // spread: one c8 phase a scenario (a scenario's service can be made worse on its own)
  const scenarios = phases === 1 || spread ? phases : phases / 2;
  const names = phases === 1 || spread ? ['c8'] : ['c8', 'c16'];
  return `${header(trials)}defaults:
  warmup: 500ms
  trials: ${trials}
${FOUR_ROWS}scenarios:
${Array.from({ length: scenarios }, (_, k) => k + 1)
  .map(
    (i) => `  - name: s${i}
    request: { url: http://api:8080/work?s=${i} }
    phases:
${names.map((n) => `      - { name: ${n}, connections: ${n.slice(1)}, duration: 1s }`).join('\n')}`,
  )
  .join('\n')}
`;
};

/** The real two-service stack's shape: 2 scenarios × 2 phases, 2 s warm-up, 3 s measured, 5 trials (6
 * pairs), bands as the 48-row config's. `early` (3, off) and `warm` (full, settled) are written when
 * given; not given, the run gets the defaults. */
const shapeConfig = (early, warm) => `${header(6)}${early ? `gate: { early-look: ${early} }` : ''}
defaults:
  warmup: 2s${warm ? `\n  warmup-later: ${warm}` : ''}
  trials: 5
  thresholds:
    p50: { regress: 10%, floor: 200us }
    p99: { regress: 25%, floor: 1ms }
    rps: { regress: 10% }
scenarios:
${[1, 2]
  .map(
    (i) => `  - name: s${i}
    request: { url: http://api:8080/work?s=${i} }
    phases:
      - { name: c8, connections: 8, duration: 3s }
      - { name: c16, connections: 16, duration: 3s }`,
  )
  .join('\n')}
`;

// `gate` is every group's reference: fixed trials and the full warm-up (the defaults before 2026-11-29)
const FIXED = { early: 'off', warm: 'full' };
const SHAPE_GROUPS = {
  shape: [
    { id: 'gate', mode: 'gate', pct: 0, ...FIXED },
    { id: 'gate-early', mode: 'gate', pct: 0, early: 3, warm: 'full' },
    { id: 'ab', mode: 'ab', pct: 0, ...FIXED },
    { id: 'ab-early', mode: 'ab', pct: 0, early: 3, warm: 'full' },
    { id: 'gate+50', mode: 'gate', pct: 50, ...FIXED },
    { id: 'gate+50-early', mode: 'gate', pct: 50, early: 3, warm: 'full' },
  ],
  'shape-warm': [
    { id: 'gate', mode: 'gate', pct: 0, ...FIXED },
    { id: 'gate-settled', mode: 'gate', pct: 0, early: 'off', warm: 'settled' },
    { id: 'gate-early-settled', mode: 'gate', pct: 0, early: 3, warm: 'settled' },
    { id: 'ab-early-settled', mode: 'ab', pct: 0, early: 3, warm: 'settled' },
    { id: 'gate+50-early-settled', mode: 'gate', pct: 50, early: 3, warm: 'settled' },
  ],
  // issue 47: the same shape at the defaults (no gate: keys, no warmup-later), unchanged and +50%
  'def-shape': [
    { id: 'gate', mode: 'gate', pct: 0, ...FIXED },
    { id: 'gate-defaults', mode: 'gate', pct: 0 },
    { id: 'ab-defaults', mode: 'ab', pct: 0 },
    { id: 'gate+50-defaults', mode: 'gate', pct: 50 },
    { id: 'ab+50-defaults', mode: 'ab', pct: 50 },
  ],
  // A/B's cost at the defaults beside the gate's, without the fixed reference: unchanged and +50%
  'def-shape-ab': [
    { id: 'gate-defaults', mode: 'gate', pct: 0 },
    { id: 'ab-defaults', mode: 'ab', pct: 0 },
    { id: 'ab+50-defaults', mode: 'ab', pct: 50 },
  ],
};

/** A repository with the base service committed on main (the variant is committed on top by setHead). */
function repo(trials, cell) {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-vq-'));
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'bench@example.com']);
  git(dir, ['config', 'user.name', 'perf-gate bench']);
  writeFileSync(join(dir, 'docker-compose.yml'), compose(baseUs(cell), cell));
  writeFileSync(join(dir, 'perf-gate.yml'), config(trials, cell));
  writeFileSync(join(dir, 'README.md'), 'v1\n');
  git(dir, ['add', '.']);
  git(dir, ['commit', '-q', '-m', 'base']);
  return dir;
}

function setHead(dir, headUs, cell = {}) {
  git(dir, ['checkout', '-q', '--detach', 'main']);
  if (headUs === baseUs(cell) && !cell.odd) writeFileSync(join(dir, 'README.md'), `v${Date.now()}\n`);
  else writeFileSync(join(dir, 'docker-compose.yml'), compose(headUs, cell, true));
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

/** perf-gate's commit the bench runs (dist/ is built from it), and whether the tree had changes. */
const COMMIT = (() => {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !== '';
  return { commit: head, ...(dirty ? { dirty: true } : {}) };
})();

/** The config a cell's runs use, as a short hash of its text (the log names it, every line). */
const configHash = (dir) =>
  createHash('sha256')
    .update(readFileSync(join(dir, 'perf-gate.yml')))
    .digest('hex')
    .slice(0, 16);

/** Every trial's machine reading, both sides: other processes' median and max, steal's max (% of a core). */
function machineOf(results) {
  const read = [...results.scenarios, ...(results.ab?.base ?? [])]
    .flatMap((s) => s.phases.flatMap((p) => p.trials))
    .map((t) => t.machine)
    .filter(Boolean);
  if (read.length === 0) return null;
  const others = read.map((m) => m.othersPct).sort((a, b) => a - b);
  // the busiest slice of each window (read every 250 ms), where the run read them by slice
  const peaks = read.map((m) => m.peakPct).filter((v) => v !== undefined);
  return {
    trials: read.length,
    othersMedian: others[Math.floor(others.length / 2)],
    othersMax: others.at(-1),
    stealMax: Math.max(...read.map((m) => m.stealPct)),
    ...(peaks.length > 0 ? { peaked: peaks.length, peakMax: Math.max(...peaks) } : {}),
  };
}

/** The run's statistics time, from its progress lines: the final judgement's (`judged N rows in T ms`)
 * and the early looks' and confirmation's while the trials ran (`statistics during the trials took T
 * ms`); each absent before it was said. */
function judgingOf(stderr) {
  const m = /judged (\d+) rows? in (\d+) ms/.exec(stderr);
  const during = /statistics during the trials took (\d+) ms/.exec(stderr);
  return { ...(m ? { judgedMs: Number(m[2]) } : {}), ...(during ? { statsMs: Number(during[1]) } : {}) };
}

/** A run's verdict, the rows behind it, and the extra trials (pairs) confirmation ran. */
function verdictOf(dir, cell = {}) {
  const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8'));
  // the detection cells: s4's watched row and the 503s each of s4's (head) trials saw
  const s4 = results.scenarios.find((s) => s.name === 's4');
  const watched = cell.odd && results.comparisons.find((c) => c.scenario === 's4' && c.metric === cell.watch);
  const p50 = results.comparisons.find((c) => c.metric === 'p50');
  const row = (c) =>
    `${c.phase} ${c.metric} ${c.result} ${c.delta === null ? '' : `${(c.delta * 100).toFixed(1)}%`}` +
    `${c.pValue !== undefined ? ` p=${c.pValue}` : ''}${c.extraTrials ? ` +${c.extraTrials}` : ''}`;
  const phases = results.scenarios.flatMap((s) => s.phases);
  const extra = phases.reduce((a, p) => a + Math.max(0, p.trials.length - (p.confirm?.first ?? p.trials.length)), 0);
  return {
    regression: results.comparisons.some((c) => c.result === 'regression'),
    inconclusive: results.comparisons.some((c) => c.result === 'inconclusive'),
    rows: results.comparisons
      .filter((c) => c.result === 'regression' || c.result === 'inconclusive')
      .map((c) => `${results.scenarios.length > 1 ? `${c.scenario}/` : ''}${row(c)}`),
    invalid: results.comparisons.filter((c) => c.result === 'invalid').length,
    blind: results.comparisons.filter((c) => c.blind).length,
    gated: results.comparisons.length,
    // other processes' CPU during the trials (% of one core), where the run read /proc/stat
    othersMax: Math.max(
      0,
      ...[...results.scenarios, ...(results.ab?.base ?? [])].flatMap((s) =>
        s.phases.flatMap((p) => p.trials.map((t) => t.machine?.othersPct ?? 0)),
      ),
    ),
    busyTrials: [...results.scenarios, ...(results.ab?.base ?? [])]
      .flatMap((s) => s.phases.flatMap((p) => p.trials))
      .filter((t) => (t.machine?.othersPct ?? 0) >= 50).length,
    // gate.busy: trials (either side's in A/B) taken on a busy machine, put aside and run again (not among `trials`),
    // the allowance they came out of, and busy trials still judged because it was spent
    putAside: results.busy?.repeated ?? 0,
    allowance: results.busy?.repeats ?? null,
    judgedBusy: [...results.scenarios, ...(results.ab?.base ?? [])]
      .flatMap((s) => s.phases.flatMap((p) => p.trials))
      .filter((t) => t.busy === true).length,
    p50Delta: p50?.delta ?? null,
    ...(watched ? { watched: { metric: watched.metric, result: watched.result, delta: watched.delta } } : {}),
    ...(cell.odd && s4
      ? { s4Status503: s4.phases.flatMap((p) => p.trials.map((t) => t.statusCodes?.['503'] ?? 0)) }
      : {}),
    // what a figure is recounted from: the run's seed and its machine readings
    seed: results.interleaved?.seed ?? results.ab?.seed ?? null,
    machine: machineOf(results),
    extra,
    // sut.profile's cells: the profiles the run took (and how many said why there was none)
    ...(results.profiles
      ? { profiles: results.profiles.length, profileErrors: results.profiles.filter((p) => p.error).length }
      : {}),
    // phases (not mix entries) that stopped at their early look, of all phases
    stopped: phases.filter((p) => p.request === undefined && p.confirm?.stopped !== undefined).length,
    phases: phases.filter((p) => p.request === undefined).length,
  };
}

/** A shape group: every variant once a round, in a random order; returns the table's rows. */
async function shapeRounds(group, rounds) {
  const variants = SHAPE_GROUPS[group].map((v) => ({
    ...v,
    dir: repo(5, { shape: true, early: v.early, warm: v.warm }),
    list: [],
  }));
  try {
    // one baseline per warm-up setting (a baseline records its later trials' warm-up), recorded by an
    // earlier run of the base commit and committed in every gate variant's repo with that setting
    for (const warm of ['full', 'settled', undefined]) {
      const gates = variants.filter((v) => v.mode === 'gate' && v.warm === warm);
      const first = gates[0];
      if (!first) continue;
      const update = await cli(first.dir, ['--mode', 'update']);
      if (update.code !== 0) throw new Error(`baseline run failed: ${update.stderr}`);
      for (const v of gates) {
        if (v !== first) spawnSync('cp', ['-r', join(first.dir, 'baselines'), v.dir]);
        git(v.dir, ['add', 'baselines']);
        git(v.dir, ['commit', '-q', '-m', 'baseline']);
      }
    }
    for (const v of variants) setHead(v.dir, Math.round(BASE_DELAY_US * (1 + v.pct / 100)));
    for (let round = 1; round <= rounds; round++) {
      const order = [...variants].sort(() => Math.random() - 0.5);
      for (const v of order) {
        const r = await cli(v.dir, v.mode === 'ab' ? ['--mode', 'ab', '--base', 'main'] : ['--mode', 'gate']);
        const entry =
          r.code === 0 || r.code === 1
            ? { ...verdictOf(v.dir), seconds: r.seconds }
            : { error: r.stderr.split('\n').find(Boolean) ?? `exit ${r.code}`, seconds: r.seconds };
        v.list.push(entry);
        if (LOG) {
          const line = {
            cell: `${group}/${v.id}`,
            at: new Date().toISOString(),
            ...COMMIT,
            config: configHash(v.dir),
            ...entry,
          };
          appendFileSync(LOG, `${JSON.stringify(line)}\n`);
        }
        // what each early look found, and each phase's warm-up, as the run logged them
        for (const line of r.stderr.split('\n').filter((l) => /early look at|warm-up (settled|did not)/.test(l))) {
          process.stderr.write(`  ${line.replace(/^.*?\[perf-gate\] /, '')}\n`);
        }
        const fired = entry.error ?? (entry.rows.length ? entry.rows.join('; ') : '');
        process.stderr.write(
          `[verdict-quality] ${group} ${v.id} ${round}/${rounds}: ${entry.error ? 'ERROR' : entry.regression ? 'regression' : entry.inconclusive ? 'inconclusive' : 'pass'}${fired ? ` — ${fired}` : ''} (${r.seconds.toFixed(0)} s; ${entry.stopped ?? 0} of ${entry.phases ?? '?'} phases stopped early${entry.busyTrials ? `; ${entry.busyTrials} trials on a busy machine` : ''})\n`,
        );
      }
    }
  } finally {
    for (const v of variants) rmSync(v.dir, { recursive: true, force: true });
  }
  const med = (v) => median(v.list.map((x) => x.seconds));
  const byId = Object.fromEntries(variants.map((v) => [v.id, v]));
  // the ratio column's reference: the fixed gate, or the group's first variant without it
  const reference = byId.gate ?? variants[0];
  const rows = variants.map((v) => {
    const ok = v.list.filter((x) => !x.error);
    const flagged = ok.filter((x) => x.regression).length;
    return [
      v.id,
      `${flagged} of ${ok.length}${v.pct === 0 ? ' false alarms' : ' caught'}`,
      String(ok.filter((x) => !x.regression && x.inconclusive).length),
      `${ok.reduce((a, x) => a + x.stopped, 0)} of ${ok.reduce((a, x) => a + x.phases, 0)}`,
      `${median(ok.map((x) => x.blind))}`,
      `${med(v).toFixed(0)} s`,
      `${(med(v) / med(reference)).toFixed(2)}×`,
      String(v.list.length - ok.length),
      ok.flatMap((x) => (x.regression || x.inconclusive ? x.rows : [])).join('; ') || '—',
    ];
  });
  const ratio = (a, b) => (byId[a] && byId[b] ? `${(med(byId[a]) / med(byId[b])).toFixed(2)}×` : undefined);
  const said = (text, ...pairs) => {
    const figures = pairs.map(([a, b]) => ratio(a, b));
    return figures.includes(undefined) ? [] : [text(...figures)];
  };
  return {
    rows,
    ratios: [
      ...said((r) => `early A/A gate against fixed: ${r} (target ≤ 0.6×)`, ['gate-early', 'gate']),
      ...said((r) => `settled warm-up A/A gate against fixed: ${r}`, ['gate-settled', 'gate']),
      ...said(
        (r) => `early look and settled warm-up, A/A gate against fixed: ${r} (target ≤ 0.6×)`,
        ['gate-early-settled', 'gate'],
      ),
      ...said(
        (a, b) => `A/B against gate, fixed: ${a}; both with the early look: ${b} (target ≤ 1.3×)`,
        ['ab', 'gate'],
        ['ab-early', 'gate-early'],
      ),
      ...said(
        (r) => `A/B against gate, both with the early look and settled warm-up: ${r} (target ≤ 1.3×)`,
        ['ab-early-settled', 'gate-early-settled'],
      ),
      ...said((r) => `+50% confirmed, early against fixed: ${r} (target ≤ 1.0×)`, ['gate+50-early', 'gate+50']),
      ...said((r) => `defaults, A/A gate against fixed: ${r} (target ≤ 0.6×)`, ['gate-defaults', 'gate']),
      ...said((r) => `defaults, A/A: A/B against gate: ${r} (target ≤ 2.0×)`, ['ab-defaults', 'gate-defaults']),
      ...said(
        (a, b) => `defaults, +50%: gate against fixed A/A gate ${a}; A/B against the gate ${b}`,
        ['gate+50-defaults', 'gate'],
        ['ab+50-defaults', 'gate+50-defaults'],
      ),
      ...said((r) => `defaults: A/B +50% against the unchanged gate: ${r}`, ['ab+50-defaults', 'gate-defaults']),
    ],
  };
}

// A cell too long for one sitting: PERF_GATE_VQ_LOG=<file> appends every run of a cell as a JSON line
// and counts the lines already there toward the cell's runs (each invocation records its own baseline);
// PERF_GATE_VQ_UNTIL=<ISO time> starts no run after that time. The table is over every run in the log.
const LOG = process.env.PERF_GATE_VQ_LOG;
const UNTIL = process.env.PERF_GATE_VQ_UNTIL ? Date.parse(process.env.PERF_GATE_VQ_UNTIL) : Infinity;
const pastUntil = () => Date.now() >= UNTIL;
function earlier(id) {
  if (!LOG || !existsSync(LOG)) return [];
  return readFileSync(LOG, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((e) => e.cell === id);
}

printMachine();
const stopNoise = noiseInjector();
const rows = [];
const seconds = { gate: [], ab: [] };
const extraOnAa = [];
const notes = [];
const shape = [];
try {
  for (const cell of cells) {
    const headDelay = Math.round(baseUs(cell) * (1 + cell.pct / 100));
    const dir = repo(cell.trials, cell);
    try {
      // the committed baseline: recorded once, by an earlier run of the base commit
      const update = await cli(dir, ['--mode', 'update']);
      if (update.code !== 0) throw new Error(`baseline run failed: ${update.stderr}`);
      git(dir, ['add', 'baselines']);
      git(dir, ['commit', '-q', '-m', 'baseline']);
      setHead(dir, headDelay, cell);
      // runs an earlier invocation appended to PERF_GATE_VQ_LOG count toward this cell's
      const list = earlier(cell.id);
      if (list.length) process.stderr.write(`[verdict-quality] ${cell.id}: ${list.length} runs from ${LOG}\n`);
      if (isAa(cell)) extraOnAa.push(...list.filter((e) => !e.error).map((e) => e.extra));
      for (let i = list.length; i < cell.runs && !pastUntil(); i++) {
        const r = await cli(dir, cell.mode === 'ab' ? ['--mode', 'ab', '--base', 'main'] : ['--mode', 'gate']);
        const entry =
          r.code === 0 || r.code === 1
            ? { ...verdictOf(dir, cell), seconds: r.seconds, ...judgingOf(r.stderr) }
            : { error: r.stderr.split('\n').find(Boolean) ?? `exit ${r.code}`, seconds: r.seconds };
        list.push(entry);
        if (LOG) {
          const line = { cell: cell.id, at: new Date().toISOString(), ...COMMIT, config: configHash(dir), ...entry };
          appendFileSync(LOG, `${JSON.stringify(line)}\n`);
        }
        if (cell.trials === 6 && !cell.wide) seconds[cell.mode].push(r.seconds);
        if (isAa(cell) && !entry.error) extraOnAa.push(entry.extra);
        // every alarm the bench sees, with the rows that raised it
        const fired = entry.error ?? (entry.rows.length ? entry.rows.join('; ') : '');
        process.stderr.write(
          `[verdict-quality] ${cell.id} ${i + 1}/${cell.runs}: ${entry.error ? 'ERROR' : entry.regression ? 'regression' : entry.inconclusive ? 'inconclusive' : 'pass'}${fired ? ` — ${fired}` : ''} (${r.seconds.toFixed(0)} s${entry.busyTrials ? `; ${entry.busyTrials} trials on a busy machine, others up to ${entry.othersMax}%` : ''})\n`,
        );
      }
      if (list.length === 0) continue;
      const ok = list.filter((x) => !x.error);
      const flagged = ok.filter((x) => x.regression).length;
      const d = ok.map((x) => x.p50Delta).filter((x) => x !== null);
      rows.push([
        `${cell.odd ? `${cell.id}: s4 worse` : isAa(cell) ? 'A/A (unchanged)' : `+${cell.pct}% ${cell.burn ? 'CPU time (busy-wait)' : 'delay'}`}${cell.burn ? ', p50 band 3%, 1 connection' : ''}${cell.wide ? `, 48 rows${cell.runAlpha ? `, run-alpha ${cell.runAlpha}` : ''}` : ''}${cell.rows ? `, ${cell.rows} rows at the defaults` : ''}`,
        `${cell.mode === 'gate' ? 'gate (baseline)' : 'ab (same run)'}, ${cell.trials} ${cell.mode === 'ab' ? 'pairs' : 'trials'}`,
        `${flagged} of ${ok.length}${isAa(cell) ? ' false alarms' : ' caught'}`,
        String(ok.filter((x) => !x.regression && x.inconclusive).length),
        cell.target,
        d.length ? `${(median(d) * 100).toFixed(1)}%` : '—',
        `${median(list.map((x) => x.seconds)).toFixed(0)} s`,
        String(list.length - ok.length),
        ok.flatMap((x) => (x.regression ? x.rows : [])).join('; ') || '—',
      ]);
      if (cell.odd && ok.length) {
        const deltas = ok.map((x) => x.watched?.delta).filter((x) => typeof x === 'number');
        const counts = ok.flatMap((x) => x.s4Status503 ?? []);
        const results = ok.map((x) => x.watched?.result ?? 'absent');
        const tally = [...new Set(results)].map((k) => `${k} ${results.filter((r) => r === k).length}`);
        notes.push(
          `${cell.id}: s4 ${cell.watch} median Δ ${deltas.length ? `${(median(deltas) * 100).toFixed(1)}%` : '—'} (${tally.join(', ')}); s4's 503s a trial: mean ${counts.length ? (counts.reduce((a, c) => a + c, 0) / counts.length).toFixed(2) : '—'} over ${counts.length} trials, ${counts.filter((c) => c > 0).length} with any; runs with any: ${ok.filter((x) => (x.s4Status503 ?? []).some((c) => c > 0)).length} of ${ok.length}`,
        );
      }
      if ((cell.wide || cell.rows) && ok.length) {
        // (a figure an older log line does not carry is said to be missing, not taken as 0)
        const per = (k) => {
          const v = ok.map((x) => x[k]).filter((x) => x !== undefined);
          return v.length
            ? `median ${median(v)}, max ${Math.max(...v)}${v.length < ok.length ? ` (in ${v.length} of ${ok.length} runs)` : ''}`
            : 'not in the log';
        };
        notes.push(
          `${cell.id}: rows a run ${per('gated')}; invalid ${per('invalid')}; could not detect their band ${per('blind')}; extra trials ${per('extra')}; trials with other processes at 50% of a core or more ${per('busyTrials')}, the most ${per('othersMax')}; trials put aside by gate.busy and run again ${per('putAside')}; the judgement's time, ms ${per('judgedMs')}; the statistics' while the trials ran, ms ${per('statsMs')}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  for (const group of Object.keys(SHAPE_GROUPS).filter((g) => chosen.includes(g))) {
    shape.push({ group, ...(await shapeRounds(group, Math.max(1, Math.round(3 * scale)))) });
  }
} finally {
  stopNoise();
}
console.log(`\nscale ${scale}, noise injector on\n`);
for (const group of shape) {
  console.log(`\n${group.group}:`);
  table(
    [
      'shape variant',
      'regression verdicts',
      'inconclusive',
      'phases stopped early',
      'median rows blind',
      'median wall time',
      'against gate',
      'failed runs',
      'rows that regressed or stayed inconclusive',
    ],
    group.rows,
  );
  for (const r of group.ratios) console.log(r);
}
table(
  [
    'variant',
    'mode',
    'regression verdicts',
    'inconclusive',
    'target',
    'median measured p50 Δ',
    'median wall time',
    'failed runs',
    'rows that regressed',
  ],
  rows,
);
if (seconds.gate.length && seconds.ab.length) {
  console.log(
    `\nA/B wall time against the gate's (6 trials, 6 pairs, same phases): ${(median(seconds.ab) / median(seconds.gate)).toFixed(2)}× (medians ${median(seconds.ab).toFixed(1)} s / ${median(seconds.gate).toFixed(1)} s; target ≤ 2.0×)`,
  );
}
for (const n of notes) console.log(n);
if (extraOnAa.length) {
  const sorted = [...extraOnAa].sort((a, b) => a - b);
  console.log(
    `extra trials (pairs) confirmation ran on A/A runs: median ${median(sorted)}, max ${sorted.at(-1)}, runs with any ${sorted.filter((x) => x > 0).length} of ${sorted.length}`,
  );
}

// The history's level shifts (issue 51) on synthetic histories, through the product's own path
// (src/history/shifts.ts bundled on the spot, its defaults: E-divisive means, p ≤ 0.01 over 199
// shuffles, at least 5% of the level, 3 runs each side). One phase's p99 over 40 runs with noise of
// CV 5% (Gaussian, seeded), 20 seeds a cell:
//   step    +8% from run 20                 target: found at run 20 in ≥ 19 of 20 (no estimator can:
//           one that knows both levels places it at its run about half the time); also counted: a
//           shift's 95% range of runs (stats/change-points.ts shiftLocation) holds run 20
//   flat    no change                       target: no shift in ≥ 19 of 20
//   creep   +1% a run over runs 25–39       target: reported (a shift in 25–39) in ≥ 19 of 20
//   machine +30% from run 20, the machine changed there: target reported as the machine's in ≥ 19 of 20
//   drift-up    +30% from run 20 on the same CPU, the run's calibration (stats/calibration.ts) +30%
//               alike: target reported as the machine's in ≥ 19 of 20
//   drift-down  -30% (a faster day), the calibration -30% alike: the machine's in ≥ 19 of 20
//   code        +30% from run 20, the calibration flat: the code's in ≥ 19 of 20
// (each run's calibration has noise of its own, CV 5% as the metric's). Every seed's line is printed
// (its seed, what was found), then each cell's count, and the time per history.
// Usage: node bench/change-points.mjs [seeds, default 20]
import { performance } from 'node:perf_hooks';
import { git, importSource, median, printMachine, ROOT } from './lib.mjs';

const SEEDS = Number(process.argv[2] ?? 20);
const RUNS = 40;
const CV = 0.05;
const { historyShifts } = await importSource('src/history/shifts.ts');

/** A seeded Gaussian stream (LCG + Box–Muller). */
function gaussian(seed) {
  let s = seed >>> 0;
  const u = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

const CELLS = {
  step: {
    level: (i) => (i >= 20 ? 1.08 : 1),
    machine: () => 'A',
    ok: (s) => s.some((x) => x.index === 20),
    // how far off the shift found nearest to run 20 was, where one was found
    near: (s) => (s.length ? Math.min(...s.map((x) => Math.abs(x.index - 20))) : undefined),
    // whether a shift's 95% range of runs holds run 20
    held: (s) => s.some((x) => x.range[0] <= 20 && 20 <= x.range[1]),
  },
  flat: { level: () => 1, machine: () => 'A', ok: (s) => s.length === 0 },
  creep: {
    level: (i) => (i >= 25 ? 1.01 ** (i - 24) : 1),
    machine: () => 'A',
    ok: (s) => s.some((x) => x.index >= 25 && x.index <= 39),
  },
  machine: {
    level: (i) => (i >= 20 ? 1.3 : 1),
    machine: (i) => (i >= 20 ? 'B' : 'A'),
    ok: (s) => s.some((x) => x.index === 20 && x.cause === 'machine'),
  },
  'drift-up': {
    level: (i) => (i >= 20 ? 1.3 : 1),
    machine: () => 'A',
    calibration: (i) => (i >= 20 ? 1.3 : 1),
    ok: (s) => s.some((x) => x.index === 20 && x.cause === 'machine'),
  },
  'drift-down': {
    level: (i) => (i >= 20 ? 0.7 : 1),
    machine: () => 'A',
    calibration: (i) => (i >= 20 ? 0.7 : 1),
    ok: (s) => s.some((x) => x.index === 20 && x.cause === 'machine'),
  },
  code: {
    level: (i) => (i >= 20 ? 1.3 : 1),
    machine: () => 'A',
    calibration: () => 1,
    ok: (s) => s.some((x) => x.index === 20 && x.cause === 'code'),
  },
};

function history(cell, seed) {
  const noise = gaussian(seed);
  return Array.from({ length: RUNS }, (_, i) => ({
    schema: 'perf-gate/history@1',
    time: new Date(Date.UTC(2026, 10, 1) + i * 86_400_000).toISOString(),
    commit: `run${String(i).padStart(2, '0')}`,
    ref: 'refs/heads/main',
    runId: `r${i}`,
    mode: 'update',
    machine: {
      cpuModel: cell.machine(i),
      cores: 2,
      ...(cell.calibration ? { calibrationUs: Math.round(4000 * cell.calibration(i) * (1 + CV * noise())) } : {}),
    },
    phases: { 'api/c8': { rps: 1000, p50: 2000, p99: 5000 * cell.level(i) * (1 + CV * noise()), errors: 0 } },
  }));
}

printMachine();
const dirty =
  git(ROOT, ['status', '--porcelain', 'src/history', 'src/stats']) !== ''
    ? ' (src/history or src/stats changed since)'
    : '';
console.log(
  `perf-gate ${git(ROOT, ['rev-parse', '--short', 'HEAD'])}${dirty}; ${SEEDS} seeds a cell, ${RUNS} runs, CV ${CV * 100}%\n`,
);
const summary = [];
for (const [name, cell] of Object.entries(CELLS)) {
  let hits = 0;
  let held = 0;
  const ms = [];
  const off = [];
  for (let k = 0; k < SEEDS; k++) {
    const seed = 1000 * (Object.keys(CELLS).indexOf(name) + 1) + k;
    const entries = history(cell, seed);
    const t = performance.now();
    const shifts = historyShifts(entries).filter((s) => s.metric === 'p99');
    ms.push(performance.now() - t);
    const found = shifts.map((s) => ({
      index: Number(s.commit.slice(3)),
      range: s.range
        ? [Number(s.range.since.slice(3)) + 1, Number(s.range.until.slice(3))]
        : [Number(s.commit.slice(3)), Number(s.commit.slice(3))],
      change: s.change,
      p: s.pValue,
      cause: s.cause,
    }));
    const ok = cell.ok(found);
    if (ok) hits++;
    if (cell.held?.(found)) held++;
    if (cell.near) off.push(cell.near(found));
    console.log(
      `${name} seed ${seed}: ${ok ? 'hit ' : 'MISS'} ${found.map((f) => `run ${f.index} (runs ${f.range[0]}–${f.range[1]}) ${f.change >= 0 ? '+' : ''}${(f.change * 100).toFixed(1)}% p ${f.p} ${f.cause}`).join('; ') || 'no shift'}`,
    );
  }
  const within = (d) => off.filter((o) => o !== undefined && o <= d).length;
  const near = cell.near
    ? `found within 1 run: ${within(1)}, within 2: ${within(2)}, within 5: ${within(5)}, at all: ${within(Infinity)}; its 95% range held run 20: ${held}`
    : '';
  summary.push(`| ${name} | ${hits} of ${SEEDS} | ${near} | ${median(ms).toFixed(1)} ms |`);
}
console.log('\n| cell | as targeted | where the step was found | median time a history |\n| --- | --- | --- | --- |');
for (const line of summary) console.log(line);

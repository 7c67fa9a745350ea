// The statistics' cost, before and after, side by side in one run: `before` is src/ as it was at a git
// ref (default 3e46936: the exact Mann–Whitney test by a counting recurrence up to the tail's bound),
// `after` src/ as it is now (both bundled on the spot). Three tables:
//   1. one exact Mann–Whitney test (stats/mann-whitney.ts), by size, untied or tied, A/A or +3%;
//   2. the joint test of one phase's 4 rows (stats/joint.ts: each row's whole null distribution, then
//      the relabellings, enumerated or sampled);
//   3. the power search of a phase set's passing rows (compare/power.ts smallestConfirmable over each
//      row's own test, its current trials cycled up to the cap, as compare.ts calls it: from the normal
//      approximation where the version has one), 48 rows, each version's power.ts with its own test;
//      what is compared is each row's answer (the smallest change it confirms), not the p-values.
// Samples: latencies around 5 ms from a seeded generator, untied (continuous) or tied (rounded to 50 µs,
// as an HDR histogram's buckets and the power search's repeated trials tie them). Each time is the
// median of `repeats` samples (ms), printed with the largest (the first call of a size includes the
// JIT's warm-up), their ratio and the largest difference between the two versions' p-values.
// Usage: node bench/statistics.mjs [repeats, default 5] [before ref, default 3e46936]
//        PERF_GATE_STATS_SIZES=m:n:cap,…  the power search's sizes only (tables 1 and 2 as always)
import { performance } from 'node:perf_hooks';
import { git, importSource, importSourceAt, median, printMachine, ROOT } from './lib.mjs';

const repeats = Number(process.argv[2] ?? 5);
const beforeRef = process.argv[3] ?? '3e46936';
const versions = {
  before: {
    mw: await importSourceAt(beforeRef, 'src/stats/mann-whitney.ts'),
    joint: await importSourceAt(beforeRef, 'src/stats/joint.ts'),
    power: await importSourceAt(beforeRef, 'src/compare/power.ts'),
  },
  after: {
    mw: await importSource('src/stats/mann-whitney.ts'),
    joint: await importSource('src/stats/joint.ts'),
    power: await importSource('src/compare/power.ts'),
  },
};
const { power } = versions.after;
const confirm = await importSource('src/compare/confirm.ts');

// ---- samples ----
let seed = 20261129;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const sample = (n, shift, tied) =>
  Array.from({ length: n }, () => {
    const v = 5000 * shift * (1 + 0.1 * (rand() + rand() + rand() - 1.5));
    return tied ? Math.round(v / 50) * 50 : v;
  });

const time = (f) => {
  const t = performance.now();
  const p = f();
  return { ms: performance.now() - t, p };
};

/** Both versions on the same inputs, `repeats` times: before's median, after's median and largest,
 * and the largest difference of what they return (a p or a list of them). `part` (a list's first
 * `part` entries) is what before runs on where it is too slow for the whole list: its time is scaled
 * up by the list's length over `part`, and only those entries are compared. */
function sideBySide(make, run, part) {
  const b = [];
  const a = [];
  let diff = 0;
  for (let r = 0; r < repeats; r++) {
    const input = make();
    const tb = time(() => run(versions.before, part ? input.slice(0, part) : input));
    const ta = time(() => run(versions.after, input));
    b.push(part ? (tb.ms * input.length) / part : tb.ms);
    a.push(ta.ms);
    const pb = [tb.p].flat();
    const pa = [ta.p].flat();
    pb.forEach((p, i) => {
      // a power search's "none" (-1) must be the same on both sides
      diff = Math.max(diff, Math.abs(p - pa[i]));
    });
  }
  return { before: median(b), after: median(a), afterMax: Math.max(...a), diff };
}

const cells = (r) => [
  r.before.toFixed(2),
  `${r.after.toFixed(2)} (${r.afterMax.toFixed(1)})`,
  `${(r.before / r.after).toFixed(1)}×`,
  r.diff.toExponential(1),
];
const values = (tied) => (tied ? 'tied (50 µs)' : 'untied');

printMachine();
const dirty = git(ROOT, ['status', '--porcelain', 'src/stats', 'src/compare']) !== '' ? ' (src changed since)' : '';
console.log(
  `perf-gate ${git(ROOT, ['rev-parse', '--short', 'HEAD'])}${dirty} against ${beforeRef}; ${repeats} samples per cell, seed 20261129\n`,
);

// ---- 1. one test ----
console.log('One exact Mann–Whitney test (ms: median, largest after in brackets)\n');
console.log('| size | values | change | before ms | after ms (max) | before ÷ after | largest p difference |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [m, n] of [
  [5, 5],
  [12, 12],
  [24, 24],
  [60, 60],
  [100, 60],
  [100, 100],
]) {
  for (const tied of [false, true]) {
    for (const shift of [1, 1.03]) {
      const r = sideBySide(
        () => ({ x: sample(m, shift, tied), y: sample(n, 1, tied) }),
        (v, { x, y }) => v.mw.mannWhitneyGreater(x, y).pValue,
      );
      console.log(`| ${m} vs ${n} | ${values(tied)} | ${shift === 1 ? 'A/A' : '+3%'} | ${cells(r).join(' | ')} |`);
    }
  }
}

// ---- 2. the joint test of one phase's rows ----
console.log('\nThe joint test of one phase, 4 rows (each its own samples; ms)\n');
console.log('| size | values | before ms | after ms (max) | before ÷ after | largest p difference |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [m, n] of [
  [5, 5],
  [12, 12],
  [24, 24],
  [60, 60],
  [100, 100],
]) {
  for (const tied of [false, true]) {
    const r = sideBySide(
      () => Array.from({ length: 4 }, () => ({ x: sample(m, 1, tied), y: sample(n, 1, tied) })),
      (v, rows) => v.joint.jointMannWhitney(rows),
    );
    console.log(`| ${m} vs ${n} | ${values(tied)} | ${cells(r).join(' | ')} |`);
  }
}

// ---- 3. the power search ----
const ROWS = 48;
const ALPHA = 0.01 / ROWS;
const PART = 4;
console.log(
  `\nThe power search of ${ROWS} passing rows (each its own samples, A/A; alpha ${ALPHA}; ms for all ${ROWS}; before: its time on the first ${PART} rows × ${ROWS / PART})\n`,
);
console.log('| trials vs baseline | cap | values | before ms | after ms (max) | before ÷ after | largest difference |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
// the sizes a config allows at their largest: 100 trials against a baseline of 100, the cap at 100
// (PERF_GATE_STATS_SIZES=100:100:100,50:100:100 runs only those, as `m:n:cap`)
const SIZES = process.env.PERF_GATE_STATS_SIZES
  ? process.env.PERF_GATE_STATS_SIZES.split(',').map((t) => t.split(':').map(Number))
  : [
      [5, 5, 12],
      [12, 12, 24],
      [24, 24, 48],
      [60, 60, 100],
      [100, 100, 100],
    ];
for (const [m, n, cap] of SIZES) {
  for (const tied of [false, true]) {
    const looks = confirm.looksOf(m, cap);
    const r = sideBySide(
      () => Array.from({ length: ROWS }, () => ({ raw: sample(m, 1, tied), old: sample(n, 1, tied) })),
      (v, rows) =>
        rows.map(({ raw, old }) => {
          // (the level decided at is passed on: a version that reads it stops counting above it)
          const shifted = (d, k) => power.cyclic(raw, k).map((x) => power.worsened(x, d, 1));
          const pAt = (d, k, alpha) => v.mw.mannWhitneyGreater(shifted(d, k), old, alpha).pValue;
          // where the version has the normal approximation, the search starts from it (as compare.ts)
          const approx = v.mw.mannWhitneyApprox;
          const approxAt = approx && ((d, k) => approx(shifted(d, k), old));
          const spent = confirm.spendAlpha(ALPHA, looks, confirm.smallestMannWhitneyP(m, n));
          return v.power.smallestConfirmable({ looks, spent, trials: m, direction: 1, pAt, approxAt }) ?? -1;
        }),
      PART,
    );
    console.log(`| ${m} vs ${n} | ${cap} | ${values(tied)} | ${cells(r).join(' | ')} |`);
  }
}

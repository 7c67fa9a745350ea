// The exact Mann–Whitney test's cost, before and after, side by side in one run: `before` is the
// counting recurrence over every doubled rank sum (src/stats/mann-whitney.ts up to 2026-11-29, copied
// here unchanged), `after` the module as it is now (bundled from src/ on the spot): the Gaussian
// binomial up to the tail's bound without ties, the recurrence up to the tail's bound with them.
// Samples: latencies drawn from a seeded generator, untied (continuous) and tied (rounded to 50 µs,
// as an HDR histogram's buckets and the power search's repeated trials tie them). Printed per size:
// the median time of each (ms), their ratio, and the largest difference between their p-values.
// Usage: node bench/statistics.mjs [repeats, default 5]
import { performance } from 'node:perf_hooks';
import { git, importSource, median, printMachine, ROOT } from './lib.mjs';

const repeats = Number(process.argv[2] ?? 5);
const after = await importSource('src/stats/mann-whitney.ts');

// ---- before: the full recurrence, as it was ----
function beforeUpperTail(x, y, observed) {
  const n1 = x.length;
  const weights = after.doubledMidranks([...x, ...y]).sort((a, b) => a - b);
  const total = weights.length;
  const maxSum = weights.slice(total - n1).reduce((a, b) => a + b, 0);
  const counts = Array.from({ length: n1 + 1 }, () => new Float64Array(maxSum + 1));
  counts[0][0] = 1;
  let reach = 0;
  for (let i = 0; i < total; i++) {
    const w = weights[i];
    const hi = Math.min(reach, maxSum - w);
    reach += w;
    for (let k = Math.min(i + 1, n1); k >= 1; k--) {
      const from = counts[k - 1];
      const to = counts[k];
      for (let s = hi; s >= 0; s--) {
        const c = from[s];
        if (c !== 0) to[s + w] += c;
      }
    }
  }
  const last = counts[n1];
  const threshold = Math.round(2 * observed + n1 * (n1 + 1));
  let all = 0;
  let atLeast = 0;
  for (let s = 0; s < last.length; s++) {
    all += last[s];
    if (s >= threshold) atLeast += last[s];
  }
  return Math.min(1, atLeast / all);
}
const uOf = (x, y) => {
  let u = 0;
  for (const a of x) for (const b of y) u += a > b ? 1 : a === b ? 0.5 : 0;
  return u;
};

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

printMachine();
const dirty = git(ROOT, ['status', '--porcelain', 'src/stats']) !== '' ? ' (src/stats changed since)' : '';
console.log(
  `perf-gate ${git(ROOT, ['rev-parse', '--short', 'HEAD'])}${dirty}; ${repeats} samples per cell, seed 20261129\n`,
);
const rows = [];
for (const [m, n] of [
  [5, 5],
  [12, 12],
  [24, 24],
  [60, 60],
  [100, 100],
]) {
  for (const tied of [false, true]) {
    for (const shift of [1, 1.03]) {
      const b = [];
      const a = [];
      let diff = 0;
      for (let r = 0; r < repeats; r++) {
        const x = sample(m, shift, tied);
        const y = sample(n, 1, tied);
        const u = uOf(x, y);
        const tb = time(() => beforeUpperTail(x, y, u));
        const ta = time(() => after.mannWhitneyGreater(x, y).pValue);
        b.push(tb.ms);
        a.push(ta.ms);
        diff = Math.max(diff, Math.abs(tb.p - ta.p));
      }
      rows.push([
        `${m} vs ${n}`,
        tied ? 'tied (50 µs)' : 'untied',
        shift === 1 ? 'A/A' : '+3%',
        median(b).toFixed(2),
        median(a).toFixed(2),
        `${(median(b) / median(a)).toFixed(1)}×`,
        diff.toExponential(1),
      ]);
    }
  }
}
console.log('| size | values | change | before ms | after ms | before ÷ after | largest p difference |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);

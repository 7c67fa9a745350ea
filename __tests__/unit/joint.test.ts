// The rows of one phase tested together (stats/joint.ts): each row's p adjusted by the joint
// permutation distribution of the smallest p over the phase's rows. Checked against a naive count that
// runs the single tests (mannWhitneyGreater, signedRankGreater) on every relabelling.
import { describe, expect, it } from 'vitest';
import { EXACT_LIMIT, jointMannWhitney, jointSignedRank } from '../../src/stats/joint.js';
import { mannWhitneyGreater } from '../../src/stats/mann-whitney.js';
import { seededRandom } from '../../src/stats/random.js';
import { signedRankGreater } from '../../src/stats/wilcoxon.js';

/** Every k-subset of 0..n-1. */
function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  if (n < k) return [];
  return [...subsets(n - 1, k - 1).map((s) => [...s, n - 1]), ...subsets(n - 1, k)];
}

/** The minP adjustment counted naively: every relabelling, the single test on each row. */
function naiveMannWhitney(rows: Array<{ x: number[]; y: number[] }>): number[] {
  const k = rows[0]!.x.length;
  const n = k + rows[0]!.y.length;
  const observed = rows.map((r) => mannWhitneyGreater(r.x, r.y).pValue);
  const all = subsets(n, k);
  const mins = all.map((chosen) => {
    const set = new Set(chosen);
    return Math.min(
      ...rows.map((r) => {
        const pooled = [...r.x, ...r.y];
        return mannWhitneyGreater(
          pooled.filter((_, i) => set.has(i)),
          pooled.filter((_, i) => !set.has(i)),
        ).pValue;
      }),
    );
  });
  return observed.map((p) => mins.filter((m) => m <= p * (1 + 1e-9)).length / all.length);
}

function naiveSignedRank(rows: number[][]): number[] {
  const k = rows[0]!.length;
  const observed = rows.map((d) => signedRankGreater(d).pValue);
  const mins: number[] = [];
  for (let m = 0; m < 2 ** k; m++) {
    mins.push(Math.min(...rows.map((d) => signedRankGreater(d.map((v, i) => ((m >>> i) & 1 ? -v : v))).pValue)));
  }
  return observed.map((p) => mins.filter((x) => x <= p * (1 + 1e-9)).length / mins.length);
}

const p50 = { x: [1040, 1100, 1080, 1090, 1060], y: [1000, 1010, 1050, 990, 1020] };
const p99 = { x: [3000, 3300, 2900, 3100, 3050], y: [2950, 3000, 3010, 2980, 3020] };
// rps in the worse-is-larger direction: minus requests per second
const rps = { x: [-950, -900, -930, -910, -940], y: [-1000, -990, -960, -1010, -995] };

describe('jointMannWhitney', () => {
  it('one row: its own exact p', () => {
    expect(jointMannWhitney([p50])).toEqual([mannWhitneyGreater(p50.x, p50.y).pValue]);
  });

  it.each([
    ['100 v 100, no ties', 0],
    ['100 v 100, ties', 50],
    ['60 v 40, ties', 20],
  ] as const)(
    'one row at %s: the same p as the single test (its whole null table against the tail alone)',
    (_l, step) => {
      const random = seededRandom(step + 1);
      const draw = (n: number, shift: number) =>
        Array.from({ length: n }, () => {
          const v = 5000 * shift * (1 + 0.1 * (random() + random() + random() - 1.5));
          return step > 0 ? Math.round(v / step) * step : v;
        });
      for (const shift of [1, 1.01, 1.03]) {
        const [m, n] = step === 20 ? [60, 40] : [100, 100];
        const row = { x: draw(m, shift), y: draw(n, 1) };
        const single = mannWhitneyGreater(row.x, row.y).pValue;
        const [joint] = jointMannWhitney([row]);
        expect(Math.abs((joint as number) - single) / single, `shift ${shift}`).toBeLessThan(1e-9);
      }
    },
  );

  it('two rows that always agree cost nothing: the same p as one', () => {
    const [a, b] = jointMannWhitney([p50, { x: p50.x.map((v) => v * 2), y: p50.y.map((v) => v * 2) }]);
    expect(a).toBeCloseTo(mannWhitneyGreater(p50.x, p50.y).pValue, 12);
    expect(b).toBeCloseTo(a as number, 12);
  });

  it.each([
    ['p50, p99, rps', [p50, p99, rps]],
    ['p50 and p99', [p50, p99]],
    ['with ties', [p50, { x: [5, 5, 6, 7, 5], y: [5, 4, 5, 6, 5] }]],
    ['a row of zeros (unmeasured)', [p50, { x: [0, 0, 0, 0, 0], y: [0, 0, 0, 0, 0] }]],
    [
      '3 v 4 trials',
      [
        { x: [3, 9, 8], y: [1, 2, 7, 4] },
        { x: [30, 10, 80], y: [10, 20, 70, 40] },
      ],
    ],
  ])('%s: the naive count over every relabelling, and between p and r·p', (_label, rows) => {
    const got = jointMannWhitney(rows);
    const naive = naiveMannWhitney(rows);
    got.forEach((p, r) => {
      expect(p).toBeCloseTo(naive[r] as number, 12);
      const single = mannWhitneyGreater(rows[r]!.x, rows[r]!.y).pValue;
      expect(p).toBeGreaterThanOrEqual(single - 1e-12);
      expect(p).toBeLessThanOrEqual(Math.min(1, rows.length * single) + 1e-12);
    });
  });

  it('past the exact limit (12 v 12 trials: 2.7 million relabellings) a fixed-seed sample, never below p', () => {
    const random = seededRandom(3);
    const a = {
      x: Array.from({ length: 12 }, () => 1000 + random() * 100 + 30),
      y: Array.from({ length: 12 }, () => 1000 + random() * 100),
    };
    const b = { x: a.x.map((v) => v * 1.5), y: a.y.map((v) => v * 1.5) };
    const single = mannWhitneyGreater(a.x, a.y).pValue;
    const [pa, pb] = jointMannWhitney([a, b]);
    // identical rows: the sample estimates p itself, to within its sampling error (p is about 0.02 here)
    expect(pa).toBeGreaterThanOrEqual(single);
    expect(Math.abs((pa as number) - single)).toBeLessThan(
      4 * Math.sqrt((single * (1 - single)) / 20_000) + 1 / 20_000,
    );
    expect(pb).toBe(pa);
    expect(jointMannWhitney([a, b])).toEqual([pa, pb]);
    expect(EXACT_LIMIT).toBeLessThan(2_704_156);
  });

  it('keeps its level under no change: 3 correlated rows, 2,000 phases of 5 v 5 iid trials, alarms at 5%', () => {
    const random = seededRandom(11);
    let alarms = 0;
    const runs = 2000;
    for (let i = 0; i < runs; i++) {
      // p50, p99 and rps of one trial share the trial's state (a slow machine moves all three)
      const trial = () => {
        const slow = random();
        return [slow + random() * 0.5, slow + random() * 2, slow + random() * 0.2];
      };
      const cur = Array.from({ length: 5 }, trial);
      const old = Array.from({ length: 5 }, trial);
      const rows = [0, 1, 2].map((m) => ({ x: cur.map((t) => t[m] as number), y: old.map((t) => t[m] as number) }));
      if (Math.min(...jointMannWhitney(rows)) <= 0.05) alarms++;
    }
    // at most 5% of 2,000 plus three standard errors (about 1.5 points)
    expect(alarms / runs).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt((0.05 * 0.95) / runs));
    // and not a test that cannot fire: the rate is near its level
    expect(alarms / runs).toBeGreaterThan(0.02);
  });
});

describe('jointSignedRank', () => {
  const a = [30, 12, -5, 40, 22, 18];
  const b = [300, 100, -80, 350, 150, 200];
  const c = [-10, 25, 14, -3, 8, 19];

  it('one row: its own exact p', () => {
    expect(jointSignedRank([a])).toEqual([signedRankGreater(a).pValue]);
  });

  it.each([
    ['rows that agree on every sign', [a, b]],
    ['three rows', [a, b, c]],
    ['with a zero difference', [a, [0, 12, -5, 40, 22, 18]]],
    ['a row of zeros', [a, [0, 0, 0, 0, 0, 0]]],
  ])('%s: the naive count over every sign flip, and between p and r·p', (_label, rows) => {
    const got = jointSignedRank(rows);
    const naive = naiveSignedRank(rows);
    got.forEach((p, r) => {
      expect(p).toBeCloseTo(naive[r] as number, 12);
      const single = signedRankGreater(rows[r]!).pValue;
      expect(p).toBeGreaterThanOrEqual(single - 1e-12);
      expect(p).toBeLessThanOrEqual(Math.min(1, rows.length * single) + 1e-12);
    });
  });

  it('past the exact limit (15 pairs) a fixed-seed sample, never below p', () => {
    const d = Array.from({ length: 15 }, (_, i) => (i % 4 === 0 ? -1 : 1) * (i + 1));
    const [p, q] = jointSignedRank([d, d.map((v) => v * 3)]);
    const single = signedRankGreater(d).pValue;
    expect(p).toBeGreaterThanOrEqual(single);
    expect(Math.abs((p as number) - single)).toBeLessThan(4 * Math.sqrt((single * (1 - single)) / 20_000) + 1 / 20_000);
    expect(q).toBe(p);
  });
});

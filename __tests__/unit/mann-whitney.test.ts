import { describe, expect, it } from 'vitest';
import { doubledMidranks, mannWhitneyGreater, rankSumCounts, rankSumsAtMost } from '../../src/stats/mann-whitney.js';
import { seededRandom } from '../../src/stats/random.js';

const range = (from: number, to: number, step = 1): number[] => {
  const out: number[] = [];
  for (let v = from; v <= to; v += step) out.push(v);
  return out;
};

describe('mannWhitneyGreater: exact permutation distribution (small samples)', () => {
  // Without ties, U of two samples of 3 has 20 equally likely splits with counts
  // U = 0..9 → 1, 1, 2, 3, 3, 3, 3, 2, 1, 1, so P(U >= 9) = 1/20, P(U >= 8) = 2/20, P(U >= 7) = 4/20,
  // P(U >= 5) = 10/20, P(U >= 0) = 1.
  it.each<[string, number[], number[], number, number]>([
    ['3 vs 3 fully separated', [4, 5, 6], [1, 2, 3], 9, 1 / 20],
    ['3 vs 3, one pair swapped', [3, 5, 6], [1, 2, 4], 8, 2 / 20],
    ['3 vs 3, two pairs swapped', [2, 5, 6], [1, 3, 4], 7, 4 / 20],
    ['3 vs 3 interleaved', [1, 4, 6], [2, 3, 5], 5, 10 / 20],
    ['3 vs 3 reversed', [1, 2, 3], [4, 5, 6], 0, 1],
    ['4 vs 4 fully separated: 1/C(8,4)', [50, 60, 70, 80], [10, 20, 30, 40], 16, 1 / 70],
    ['4 vs 4 reversed', [10, 20, 30, 40], [50, 60, 70, 80], 0, 1],
    ['1 vs 1', [2], [1], 1, 1 / 2],
    ['2 vs 3 fully separated: 1/C(5,2)', [9, 8], [1, 2, 3], 6, 1 / 10],
    ['5 vs 5 fully separated: 1/C(10,5)', [6, 7, 8, 9, 10], [1, 2, 3, 4, 5], 25, 1 / 252],
  ])('%s → U %s, p %s', (_label, x, y, u, p) => {
    const r = mannWhitneyGreater(x, y);
    expect(r.method).toBe('exact');
    expect(r.u).toBe(u);
    expect(r.pValue).toBeCloseTo(p, 12);
  });

  it('3 vs 3 fully separated gives exactly 0.05 (so it passes a `p <= 0.05` test)', () => {
    expect(mannWhitneyGreater([1010, 1020, 1030], [1000, 1001, 1002]).pValue).toBeLessThanOrEqual(0.05);
  });

  // Ties, by enumeration. Pooled [1, 2, 2, 2, 3, 3] has midranks 1 → 1, 2 → 3, 3 → 5.5; for a
  // sample x of 3, U = R(x) - 3·4/2 = R(x) - 6. The 20 splits, by how many 1s / 2s / 3s x takes:
  //   (1,2,0) ×3 R=7   (1,1,1) ×6 R=9.5   (1,0,2) ×1 R=12
  //   (0,3,0) ×1 R=9   (0,2,1) ×6 R=11.5  (0,1,2) ×3 R=14
  // [1,2,2] vs [2,3,3]: R = 7, U = 1, every split has R >= 7 → p = 20/20 = 1.
  // [2,3,3] vs [1,2,2]: R = 14, U = 8, only the 3 splits (0,1,2) reach 14 → p = 3/20 = 0.15.
  it.each<[string, number[], number[], number, number]>([
    ['[1,2,2] vs [2,3,3]', [1, 2, 2], [2, 3, 3], 1, 1],
    ['[2,3,3] vs [1,2,2]', [2, 3, 3], [1, 2, 2], 8, 3 / 20],
    // all values equal: every split has U = 4.5
    ['all tied', [5, 5, 5], [5, 5, 5], 4.5, 1],
    // pooled [1, 2, 2] with x of 1: U(x=[2]) = 1.5 for the two splits that pick a 2, 0 otherwise → 2/3
    ['[2] vs [1,2]', [2], [1, 2], 1.5, 2 / 3],
  ])('ties: %s → U %s, p %s', (_label, x, y, u, p) => {
    const r = mannWhitneyGreater(x, y);
    expect(r.method).toBe('exact');
    expect(r.u).toBe(u);
    expect(r.pValue).toBeCloseTo(p, 12);
  });

  it('is invariant to the order of values within a sample', () => {
    expect(mannWhitneyGreater([6, 4, 5], [3, 1, 2])).toEqual(mannWhitneyGreater([4, 5, 6], [1, 2, 3]));
  });

  it('is one-sided: a clear shift the other way is not significant', () => {
    const up = mannWhitneyGreater([4, 5, 6], [1, 2, 3]);
    const down = mannWhitneyGreater([1, 2, 3], [4, 5, 6]);
    expect(up.pValue).toBeLessThanOrEqual(0.05);
    expect(down.pValue).toBe(1);
  });

  it('identical samples are far from significant', () => {
    expect(mannWhitneyGreater([1, 2, 3], [1, 2, 3]).pValue).toBeGreaterThanOrEqual(0.5);
    expect(mannWhitneyGreater([7, 7, 7, 7], [7, 7, 7, 7]).pValue).toBe(1);
  });

  it('10 vs 10 still uses the exact distribution', () => {
    const r = mannWhitneyGreater(range(11, 20), range(1, 10));
    expect(r.method).toBe('exact');
    expect(r.u).toBe(100);
    expect(r.pValue).toBeCloseTo(1 / 184_756, 12);
  });
});

describe('mannWhitneyGreater: empty inputs', () => {
  it.each<[string, number[], number[]]>([
    ['both empty', [], []],
    ['x empty', [], [1, 2, 3]],
    ['y empty', [1, 2, 3], []],
  ])('%s → p 1', (_label, x, y) => {
    expect(mannWhitneyGreater(x, y).pValue).toBe(1);
  });
});

/** The old enumeration of every split, kept as the reference the recurrence is checked against. */
function bruteForceP(x: readonly number[], y: readonly number[]): number {
  const pooled = [...x, ...y];
  const n = x.length;
  const u = (xs: number[], ys: number[]) => {
    let total = 0;
    for (const a of xs) for (const b of ys) total += a > b ? 1 : a === b ? 0.5 : 0;
    return total;
  };
  const observed = u([...x], [...y]);
  let atLeast = 0;
  let count = 0;
  const pick: number[] = [];
  const visit = (start: number) => {
    if (pick.length === n) {
      const chosen = new Set(pick);
      count++;
      if (
        u(
          pick.map((i) => pooled[i] as number),
          pooled.filter((_, i) => !chosen.has(i)),
        ) >=
        observed - 1e-9
      )
        atLeast++;
      return;
    }
    for (let i = start; i <= pooled.length - (n - pick.length); i++) {
      pick.push(i);
      visit(i + 1);
      pick.pop();
    }
  };
  visit(0);
  return atLeast / count;
}

describe('mannWhitneyGreater: the counting recurrence against a brute-force count of every split', () => {
  it('400 random tables from 1 vs 1 to 8 vs 8, with and without ties, agree to 1e-12', () => {
    const random = seededRandom(31);
    for (let t = 0; t < 400; t++) {
      const n1 = 1 + Math.floor(random() * 8);
      const n2 = 1 + Math.floor(random() * 8);
      // half the tables drawn from 4 values (many ties), half from a continuum
      const draw = t % 2 === 0 ? () => Math.floor(random() * 4) : () => random() * 10;
      const x = Array.from({ length: n1 }, () => draw() + (random() < 0.5 ? 1 : 0));
      const y = Array.from({ length: n2 }, draw);
      expect(mannWhitneyGreater(x, y).pValue, JSON.stringify({ x, y })).toBeCloseTo(bruteForceP(x, y), 12);
    }
  });

  it('11 vs 10 with ties, where the normal approximation took over before (C(21, 11) > 200,000)', () => {
    const x = [5, 5, 6, 6, 6, 7, 7, 8, 8, 9, 9];
    const y = [4, 5, 5, 5, 6, 6, 6, 7, 7, 7];
    const r = mannWhitneyGreater(x, y);
    expect(r.method).toBe('exact');
    expect(r.pValue).toBeCloseTo(bruteForceP(x, y), 12);
  });
});

describe('mannWhitneyGreater: exact at every size perf-gate reaches (scipy 1.17.1, method exact, as reference)', () => {
  // scipy.stats.mannwhitneyu(x, y, alternative='greater', method='exact'), tie-free samples
  const reference = [
    {
      x: [1.2012, 1.4987, 0.9259, 0.3094, 0.7453, 0.2084, 1.2601, 2.5402, 0.7078, 0.5795, 1.6898, 1.5569],
      y: [0.1054, -0.9305, -0.0293, 0.6953, -1.3442, -0.4576, -1.9012, -1.2895, -1.8417],
      u: 105.0,
      p: 2.3815194093831866e-5,
    },
    {
      x: [0.7649, -0.2674, 1.2713, 1.1568, 0.8131, -1.5168, 0.4613, 0.9515, 1.1133, -0.5301, 0.5222],
      y: [-0.9785, -0.8088, 1.0609, -0.8075, -0.0325, 0.8844, -0.5836, -0.1117, 0.1105, 0.0638],
      u: 79.0,
      p: 0.04930879234284807,
    },
    {
      x: [
        -0.6251, 0.6761, 1.9588, -0.9471, 1.4594, 0.7194, -0.0415, 2.6004, 1.3623, -0.5993, 0.6745, 1.1767, 0.4112,
        1.2829, 0.5335, 1.2672, 2.0385, -0.0757, 0.8031, 0.1367,
      ],
      y: [
        0.1273, -1.1872, -0.5793, -0.1962, 0.8988, 1.1452, -1.3235, -0.7946, 0.6469, -1.9924, -0.4632, -0.0973, 1.257,
        0.6894, -0.3272, -0.3686, -0.2502, 1.5235, -0.428, -0.3037,
      ],
      u: 295.0,
      p: 0.0047418035956025015,
    },
    {
      x: [
        0.6526, 0.1792, 0.1027, -0.8141, 0.2885, -0.1436, 1.4661, 0.9531, 0.2759, 0.9684, -0.0399, 1.3521, 0.2946,
        0.8834, -0.9909, 0.6467, -1.3882, -1.7353, -0.0045, -0.5999, 0.4641, 2.5448, -0.5317, -0.3239, 0.5054, 0.793,
        0.1236, 0.0941, 1.0025, 0.8199,
      ],
      y: [
        -1.0337, -0.0792, 0.0353, -1.0545, 0.2598, -0.858, 0.9721, 0.1927, 0.0893, -0.591, -0.1186, -1.9977, -1.1314,
        0.3628, -2.1286, 0.8466, -1.7461, 0.7567, -0.8455, 0.779, 0.131, -1.5368, 1.2491, 1.4417, -0.0658, -0.2739,
        -0.1599, -0.9752, 1.0986, -0.5429,
      ],
      u: 585.0,
      p: 0.023104923607143075,
    },
    {
      x: [
        0.4488, -0.2933, -0.1261, -0.7777, 1.7571, 0.3459, 1.4659, 0.5133, -0.1944, 0.1733, -0.0602, 0.508, 0.1247,
        0.2001, -0.8786, -0.3068, 2.1541, -0.1712, -0.5541, 0.8373, 1.9073, -0.954, 0.2915, -0.1321, -1.261, 1.2349,
        0.4766, 0.5714, -0.2523, 0.9548, -0.0393, 0.3571, -0.6083, -0.7161, 1.8355, -0.0071, 0.7917, 0.4662, 0.0589,
        -0.008,
      ],
      y: [
        0.6301, -0.3019, -0.1514, 0.0222, 1.1765, 0.6805, 0.3826, -0.5636, -1.382, 0.9495, 0.9664, -0.1407, 0.5419,
        0.7814, 0.8312, 0.9214, -0.4556, 1.515, -1.2466, 0.8617, 0.4939, 0.8736, 1.879, 1.4844, -1.1452,
      ],
      u: 417.0,
      p: 0.8688519634809817,
    },
  ];
  it.each(reference.map((r) => [`${r.x.length} vs ${r.y.length}`, r] as const))('%s', (_label, r) => {
    const got = mannWhitneyGreater(r.x, r.y);
    expect(got.method).toBe('exact');
    expect(got.u).toBe(r.u);
    expect(got.pValue).toBeCloseTo(r.p, 12);
  });

  const y = range(1, 30);
  it.each<[string, number[], number[], number, number]>([
    ['odds vs evens', range(1, 59, 2), range(2, 60, 2), 435, 0.5899652308338852],
    ['evens vs odds', range(2, 60, 2), range(1, 59, 2), 465, 0.4157502414362295],
    ['fully separated', range(31, 60), y, 900, 8.45561694607237e-18],
    ['reversed', y, range(31, 60), 0, 1],
  ])('30 vs 30, %s', (_label, x, yy, u, p) => {
    const r = mannWhitneyGreater(x, yy);
    expect(r.u).toBe(u);
    expect(r.pValue / p).toBeCloseTo(1, 9);
  });

  it('identical samples → p above one half; all values tied → p 1', () => {
    const same = mannWhitneyGreater(y, y);
    expect(same.u).toBe(450);
    expect(same.pValue).toBeGreaterThan(0.5);
    expect(mannWhitneyGreater(Array(30).fill(5), Array(30).fill(5)).pValue).toBe(1);
  });

  it('heavily tied but clearly shifted samples are significant', () => {
    const x = [...Array(15).fill(4), ...Array(15).fill(5)];
    const yy = [...Array(15).fill(1), ...Array(15).fill(2)];
    const r = mannWhitneyGreater(x, yy);
    expect(r.u).toBe(900);
    expect(r.pValue).toBeLessThan(1e-15);
  });

  it('the bound: 100 trials against 100 still runs exactly', () => {
    const r = mannWhitneyGreater(range(51, 150), range(1, 100));
    expect(r.method).toBe('exact');
    expect(r.pValue).toBeGreaterThan(0);
    expect(r.pValue).toBeLessThan(1e-20);
  });
});

/** Every n1-subset's doubled rank sum counted by the plain recurrence (every value taken or not, every
 * count and every sum visited, no bound): the reference the bounded counts are checked against. */
function plainCounts(weights: readonly number[], n1: number): number[] {
  const top = weights.reduce((a, b) => a + b, 0);
  const counts = Array.from({ length: n1 + 1 }, () => new Float64Array(top + 1));
  (counts[0] as Float64Array)[0] = 1;
  for (const w of weights) {
    for (let k = n1; k >= 1; k--) {
      const from = counts[k - 1] as Float64Array;
      const to = counts[k] as Float64Array;
      for (let s = top - w; s >= 0; s--) to[s + w] = (to[s + w] as number) + (from[s] as number);
    }
  }
  return [...(counts[n1] as Float64Array)];
}

/** Sorted doubled midranks of n values drawn from `levels` distinct values (few levels: many ties). */
function drawnWeights(random: () => number, n: number, levels: number): number[] {
  return doubledMidranks(Array.from({ length: n }, () => Math.floor(random() * levels))).sort((a, b) => a - b);
}

describe('the bounded counts against the plain recurrence', () => {
  // sizes up to 40 values (C(40, 20) ≈ 1.4e11, past where a brute force of every split can go), ties
  // from none to 3 levels; the network algorithm's count at every bound, and the windowed recurrence's
  // whole distribution
  const random = seededRandom(2026_11_30);
  const tables = Array.from({ length: 60 }, (_, t) => {
    const n = 2 + Math.floor(random() * 39);
    const n1 = 1 + Math.floor(random() * (n - 1));
    const levels = [3, 7, 20, 1000][t % 4] as number;
    return { n, n1, levels: `${levels} levels`, weights: drawnWeights(random, n, levels) };
  });
  // untied (the Gaussian binomial's path): every doubled rank 2, 4, …, 2n
  for (const [n, n1] of [
    [40, 17],
    [31, 15],
    [9, 1],
  ] as const)
    tables.push({ n, n1, levels: 'no ties', weights: Array.from({ length: n }, (_, i) => 2 * (i + 1)) });

  it.each(tables.map((t) => [`${t.n1} of ${t.n}, ${t.levels}`, t] as const))(
    '%s: the count at or below every bound, and every sum',
    (_label, { n1, weights }) => {
      const plain = plainCounts(weights, n1);
      const windowed = rankSumCounts(weights, n1);
      let cumulative = 0;
      for (let s = 0; s < plain.length; s++) {
        const want = plain[s] as number;
        cumulative += want;
        expect(windowed[s] ?? 0, `sum ${s}`).toBeCloseTo(want, 0);
        const got = rankSumsAtMost(weights, n1, s);
        // counts are doubles past 2^53: compared relatively
        expect(Math.abs(got - cumulative) / Math.max(1, cumulative), `at most ${s}`).toBeLessThan(1e-12);
      }
    },
  );

  it('a bound below every sum counts nothing; one at or above the largest counts every split', () => {
    const weights = [2, 4, 7, 7, 7, 12];
    expect(rankSumsAtMost(weights, 3, 12)).toBe(0);
    expect(rankSumsAtMost(weights, 3, 13)).toBe(3); // 2 + 4 + any of the three 7s
    expect(rankSumsAtMost(weights, 3, 26)).toBe(20);
    expect(rankSumsAtMost(weights, 3, -1)).toBe(0);
  });

  it("80 against 60 with ties: the p equals the plain recurrence's", () => {
    const r = seededRandom(7);
    for (const levels of [5, 40]) {
      const x = Array.from({ length: 80 }, () => Math.floor(r() * levels) + (r() < 0.3 ? 1 : 0));
      const y = Array.from({ length: 60 }, () => Math.floor(r() * levels));
      const weights = doubledMidranks([...x, ...y]);
      const observed = weights.slice(0, 80).reduce((a, b) => a + b, 0);
      const plain = plainCounts(
        [...weights].sort((a, b) => a - b),
        80,
      );
      let atLeast = 0;
      let all = 0;
      plain.forEach((c, s) => {
        all += c;
        if (s >= observed) atLeast += c;
      });
      const p = mannWhitneyGreater(x, y).pValue;
      expect(Math.abs(p - atLeast / all) / (atLeast / all)).toBeLessThan(1e-9);
    }
  });
});

describe('a decision at a level (the power search): exact at or below it, above it when the p is', () => {
  it('600 tied and untied tables from 5 to 100 values a side, at levels from 1e-6 to 0.4', () => {
    const random = seededRandom(48);
    let stopped = 0;
    for (let t = 0; t < 600; t++) {
      const n1 = 5 + Math.floor(random() * (t < 540 ? 30 : 96));
      const n2 = 5 + Math.floor(random() * (t < 540 ? 30 : 96));
      const shift = random() * 0.2;
      const levels = [3, 20, 200, 1e9][t % 4] as number;
      const draw = (s: number) => Math.floor((random() + s) * levels);
      const x = Array.from({ length: n1 }, () => draw(shift));
      const y = Array.from({ length: n2 }, () => draw(0));
      const p = mannWhitneyGreater(x, y).pValue;
      const limit = [1e-6, 1e-4, 0.002, 0.05, 0.4][t % 5] as number;
      const decided = mannWhitneyGreater(x, y, limit).pValue;
      const label = JSON.stringify({ n1, n2, levels, limit, p, decided });
      if (p <= limit) expect(Math.abs(decided - p) / Math.max(p, 1e-300), label).toBeLessThan(1e-9);
      else {
        expect(decided, label).toBeGreaterThan(limit);
        if (Math.abs(decided - p) > 1e-9 * p) stopped++;
      }
    }
    // the count did stop early somewhere (the test would pass with no stop at all otherwise)
    expect(stopped).toBeGreaterThan(20);
  });
});

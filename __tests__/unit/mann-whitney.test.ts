import { describe, expect, it } from 'vitest';
import { mannWhitneyGreater } from '../../src/stats/mann-whitney.js';

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

describe('mannWhitneyGreater: normal approximation (large samples)', () => {
  const y = range(1, 30);

  it.each<[string, number[], number[], number]>([
    ['fully separated', range(31, 60), y, 900],
    // x_i = i + 10 beats y_j for j <= i + 9: sum over i of min(30, i + 9) = 420 + 270 = 690,
    // plus half of the 20 ties x_i = y_(i+10)
    ['shifted by a third of the range', range(11, 40), y, 700],
  ])('30 vs 30, %s → p < 0.001', (_label, x, yy, u) => {
    const r = mannWhitneyGreater(x, yy);
    expect(r.method).toBe('normal');
    expect(r.u).toBe(u);
    expect(r.pValue).toBeLessThan(0.001);
    expect(r.pValue).toBeGreaterThanOrEqual(0);
  });

  // odds 1,3,…,59 vs evens 2,4,…,60: U = #{i > j} = 435; mean 450, sd = sqrt(900·61/12) = 67.64
  // z = (435 - 450 - 0.5) / 67.64 = -0.2292 → p = 1 - Φ(z) = 0.5906
  // reversed: U = 465, z = 0.2144 → p = 0.4151
  it.each<[string, number[], number[], number, number]>([
    ['odds vs evens', range(1, 59, 2), range(2, 60, 2), 435, 0.5906],
    ['evens vs odds', range(2, 60, 2), range(1, 59, 2), 465, 0.4151],
  ])('30 vs 30 from the same distribution (%s) → p > 0.3', (_label, x, yy, u, p) => {
    const r = mannWhitneyGreater(x, yy);
    expect(r.method).toBe('normal');
    expect(r.u).toBe(u);
    expect(r.pValue).toBeGreaterThan(0.3);
    expect(r.pValue).toBeCloseTo(p, 3);
  });

  it('30 vs 30 reversed shift → p close to 1', () => {
    const r = mannWhitneyGreater(y, range(31, 60));
    expect(r.method).toBe('normal');
    expect(r.u).toBe(0);
    expect(r.pValue).toBeGreaterThan(0.999);
    expect(r.pValue).toBeLessThanOrEqual(1);
  });

  it('identical samples → p about one half; all values tied → p 1', () => {
    const same = mannWhitneyGreater(y, y);
    expect(same.method).toBe('normal');
    expect(same.u).toBe(450);
    expect(same.pValue).toBeGreaterThan(0.3);
    const tied = mannWhitneyGreater(Array(30).fill(5), Array(30).fill(5));
    expect(tied.method).toBe('normal');
    expect(tied.pValue).toBe(1);
  });

  it('ties are corrected for: heavily tied but clearly shifted samples stay significant', () => {
    // x: 30 values from {4, 5}, y: 30 values from {1, 2}
    const x = [...Array(15).fill(4), ...Array(15).fill(5)];
    const yy = [...Array(15).fill(1), ...Array(15).fill(2)];
    const r = mannWhitneyGreater(x, yy);
    expect(r.method).toBe('normal');
    expect(r.u).toBe(900);
    expect(r.pValue).toBeLessThan(0.001);
  });
});

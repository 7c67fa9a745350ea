import { describe, expect, it } from 'vitest';
import { median, medianInterval, signedRankGreater } from '../../src/stats/wilcoxon.js';

/** P(W+ >= observed) by enumerating all 2^n sign assignments: the definition the DP must match. */
function bruteForce(d: number[]): number {
  const nz = d.filter((x) => x !== 0);
  const abs = nz.map(Math.abs);
  const ranks = abs.map((a) => {
    const less = abs.filter((b) => b < a).length;
    const equal = abs.filter((b) => b === a).length;
    return less + (equal + 1) / 2;
  });
  const observed = nz.reduce((s, x, i) => s + (x > 0 ? (ranks[i] as number) : 0), 0);
  let atLeast = 0;
  const total = 2 ** nz.length;
  for (let mask = 0; mask < total; mask++) {
    let w = 0;
    for (let i = 0; i < nz.length; i++) if (mask & (1 << i)) w += ranks[i] as number;
    if (w >= observed - 1e-9) atLeast++;
  }
  return nz.length ? atLeast / total : 1;
}

describe('signedRankGreater: exact one-sided Wilcoxon signed-rank test', () => {
  it.each<[string, number[], number, number]>([
    ['6 pairs all worse: the smallest p, 1/64', [1, 2, 3, 4, 5, 6], 21, 1 / 64],
    ['5 pairs all worse: 1/32', [0.1, 0.2, 0.3, 0.4, 0.5], 15, 1 / 32],
    ['4 pairs all worse: 1/16, above 0.05', [3, 1, 4, 2], 10, 1 / 16],
    ['the largest difference better: W- = 6, 14 of 64 subsets', [1, 2, 3, 4, 5, -6], 15, 14 / 64],
    ['the smallest difference better', [-1, 2, 3, 4, 5, 6], 20, 2 / 64],
    ['all better: p = 1', [-1, -2, -3], 0, 1],
    ['zeros are dropped', [0, 0, 1, 2, 3], 6, 1 / 8],
    ['every difference zero: no evidence, p = 1', [0, 0, 0], 0, 1],
    ['ties share their average rank: 4 ties of rank 2.5', [1, 1, 1, -1], 7.5, 5 / 16],
  ])('%s', (_label, d, wPlus, p) => {
    const r = signedRankGreater(d);
    expect(r.wPlus).toBe(wPlus);
    expect(r.pValue).toBeCloseTo(p, 12);
  });

  it('matches a brute-force enumeration on many random samples with ties and zeros', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(rand() * 11);
      const d = Array.from({ length: n }, () => Math.round((rand() - 0.4) * 8));
      expect(signedRankGreater(d).pValue).toBeCloseTo(bruteForce(d), 10);
    }
  });

  it('stays finite and exact in shape for a large n', () => {
    const d = Array.from({ length: 200 }, (_, i) => i + 1);
    const r = signedRankGreater(d);
    expect(r.pValue).toBeGreaterThan(0);
    expect(r.pValue).toBeLessThan(1e-50);
    expect(signedRankGreater(d.map((x, i) => (i % 2 ? x : -x))).pValue).toBeGreaterThan(0.3);
  });
});

describe('median', () => {
  it.each<[number[], number]>([
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[5], 5],
  ])('median(%j) = %s', (v, m) => expect(median(v)).toBe(m));
  it('is NaN for no values', () => expect(median([])).toBeNaN());
});

describe('medianInterval: order-statistic confidence interval', () => {
  it.each<[string, number[], number, number, number]>([
    ['5 values: the full range, 93.75%', [5, 1, 4, 2, 3], 1, 5, 1 - 2 / 32],
    ['6 values: the full range, 96.9%', [6, 1, 5, 2, 4, 3], 1, 6, 1 - 2 / 64],
    ['10 values: x(2)..x(9), 97.9%', [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 2, 9, 1 - (2 * 11) / 1024],
    ['one value', [7], 7, 7, 0],
  ])('%s', (_label, values, low, high, confidence) => {
    const ci = medianInterval(values);
    expect([ci.low, ci.high]).toEqual([low, high]);
    expect(ci.confidence).toBeCloseTo(confidence, 12);
  });

  it('a lower level narrows the interval', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    const wide = medianInterval(values, 0.99);
    const narrow = medianInterval(values, 0.8);
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
    expect(narrow.confidence).toBeGreaterThanOrEqual(0.8);
    expect(wide.confidence).toBeGreaterThanOrEqual(0.99);
  });
});

// The normal approximations the power search starts from (stats/normal.ts, mannWhitneyApprox,
// signedRankApprox): never a verdict's p, but they must be the approximations they say they are.
// Expected values: scipy 1.17.1 — norm.sf(z); mannwhitneyu(x, y, alternative='greater',
// method='asymptotic', use_continuity=True); wilcoxon(d, alternative='greater', method='approx',
// correction=True, zero_method='wilcox').
import { describe, expect, it } from 'vitest';
import { mannWhitneyApprox } from '../../src/stats/mann-whitney.js';
import { normalUpper } from '../../src/stats/normal.js';
import { signedRankApprox } from '../../src/stats/wilcoxon.js';

const relative = (got: number, want: number) => Math.abs(got - want) / want;

describe('normalUpper against scipy norm.sf (relative error under 2e-7)', () => {
  it.each<[number, number]>([
    [-2, 0.9772498680518208],
    [0, 0.5],
    [1, 0.15865525393145707],
    [1.96, 0.024997895148220435],
    [3, 0.0013498980316300933],
    [4.5, 3.3976731247300535e-6],
    [6, 9.865876450376946e-10],
    [8, 6.22096057427174e-16],
  ])('P(Z ≥ %d)', (z, want) => expect(relative(normalUpper(z), want)).toBeLessThan(2e-7));
});

describe('mannWhitneyApprox against scipy (asymptotic, continuity and tie corrections)', () => {
  it.each<[string, number[], number[], number]>([
    ['interleaved', [1000, 1020, 1040, 1010, 1030], [1010, 1000, 1040, 1030, 1020], 0.5422350133116141],
    ['apart', [5, 6, 7, 8, 9, 10], [1, 2, 3, 4], 0.007107019434541023],
    ['ties across the sides', [1, 1, 2, 2, 3, 3, 4], [1, 2, 2, 3, 5, 5], 0.7901840263236569],
    ['nearly all tied', [3, 3, 3], [3, 3, 3, 4], 0.8758934605050381],
    ['12 v 5', [10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32], [9, 11, 13, 15, 17], 0.01991630962237072],
  ])('%s', (_label, x, y, want) => expect(relative(mannWhitneyApprox(x, y), want)).toBeLessThan(1e-6));

  it.each<[string, number[], number[], number]>([
    ['every value equal: nothing beyond the mean', [2, 2], [2, 2, 2], 1],
    ['an empty side', [], [1, 2], 1],
  ])('%s', (_label, x, y, want) => expect(mannWhitneyApprox(x, y)).toBe(want));
});

describe('signedRankApprox against scipy (approx, zeros dropped, continuity and tie corrections)', () => {
  it.each<[string, number[], number]>([
    ['mixed signs, tied magnitudes', [10, -30, 10, -10, 20, -20], 0.7024617521880256],
    ['all positive', [1, 2, 3, 4, 5, 6, 7, 8], 0.007133093350723462],
    ['a zero dropped', [1, -1, 2, -2, 2, 3, 0, 4], 0.08620755130569058],
    ['mostly negative', [-5, -4, -3, 1], 0.9498258767688547],
    ['one magnitude', [2, 2, 2, -2, 2, 2, 2, 2, 2, 2, -2, 2], 0.011756661392001634],
  ])('%s', (_label, d, want) => expect(relative(signedRankApprox(d), want)).toBeLessThan(1e-6));

  it('only zeros: 1', () => expect(signedRankApprox([0, 0])).toBe(1));
});

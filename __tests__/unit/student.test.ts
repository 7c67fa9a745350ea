// Student's t (src/stats/student.ts) against scipy 1.17: stats.t.ppf and stats.t.cdf, printed by
// python3 -c "from scipy import stats; print(stats.t.ppf(p, df))" for each row.
import { describe, expect, it } from 'vitest';
import { logGamma, studentCdf, studentQuantile } from '../../src/stats/student.js';

describe('studentQuantile', () => {
  it.each<[number, number, number]>([
    [1, 0.9, 3.0776835371752544],
    [1, 0.95, 6.313751514675037],
    [1, 0.99, 31.820515953773935],
    [1.5, 0.9, 2.1963984175655376],
    [1.5, 0.95, 3.70518082009675],
    [1.5, 0.99, 11.197316179568393],
    [2, 0.95, 2.9199855803537242],
    [2, 0.99, 6.9645567342832715],
    [3, 0.95, 2.3533634348018233],
    [4, 0.9, 1.533206274058944],
    [5.7, 0.95, 1.9616506932476796],
    [8, 0.99, 2.896459447709622],
    [11, 0.95, 1.7958848187040433],
    [30, 0.9, 1.3104150253913955],
    [100, 0.95, 1.6602343260853392],
    [100, 0.99, 2.3642173662384813],
  ])('df %d, p %d: scipy says %d', (df, p, expected) => {
    expect(studentQuantile(p, df)).toBeCloseTo(expected, 8);
    // symmetric
    expect(studentQuantile(1 - p, df)).toBeCloseTo(-expected, 8);
  });

  it('is 0 at the median and NaN outside (0, 1) or without degrees of freedom', () => {
    expect(studentQuantile(0.5, 3)).toBe(0);
    expect(studentQuantile(0, 3)).toBeNaN();
    expect(studentQuantile(1, 3)).toBeNaN();
    expect(studentQuantile(0.9, 0)).toBeNaN();
  });
});

describe('studentCdf', () => {
  it.each<[number, number, number]>([
    [-2.5, 3, 0.04385332350403278],
    [0.3, 1, 0.5927735790777423],
    [1.7, 6.2, 0.930780031880994],
    [4, 2, 0.9714045207910317],
    [-0.8, 40, 0.21421825821467275],
  ])('t %d, df %d: scipy says %d', (t, df, expected) => {
    expect(studentCdf(t, df)).toBeCloseTo(expected, 10);
  });
});

describe('logGamma', () => {
  it.each<[number, number]>([
    [1, 0],
    [2, 0],
    [0.5, Math.log(Math.sqrt(Math.PI))],
    [5, Math.log(24)],
    [10.5, Math.log(1133278.3889487854)],
  ])('ln Γ(%d)', (x, expected) => {
    expect(logGamma(x)).toBeCloseTo(expected, 10);
  });
});

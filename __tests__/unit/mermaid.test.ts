// Every chart's y-axis starts at zero and ends at a round number above the largest value (issue 21:
// a baseline bar was a sliver, and ±3% of noise filled a trend chart's whole height).
import { describe, expect, it } from 'vitest';
import { roundUp, yAxis } from '../../src/report/mermaid.js';

describe('roundUp', () => {
  it.each<[number, number]>([
    [0, 1],
    [-3, 1],
    [Number.NaN, 1],
    [0.7, 1],
    [1, 1],
    [1.1, 2],
    [2.2, 2.5],
    [3, 5],
    [5.5, 10],
    [11, 20],
    [240, 250],
    [5000, 5000],
    [0.013, 0.02],
  ])('%d → %d', (v, top) => {
    expect(roundUp(v)).toBeCloseTo(top, 12);
  });
});

describe('yAxis', () => {
  it('from zero to a round number at least 10% above the largest value', () => {
    expect(yAxis('ms', [3.1, 4.8, 2])).toBe('  y-axis "ms" 0 --> 10');
    // 1000 req/s ± 3%: the axis still starts at zero, so the noise stays 3% of the height
    expect(yAxis('req/s', [970, 1000, 1030])).toBe('  y-axis "req/s" 0 --> 2000');
    expect(yAxis('ms', [])).toBe('  y-axis "ms" 0 --> 1');
    expect(yAxis('ms', [Number.NaN, 4])).toBe('  y-axis "ms" 0 --> 5');
  });
});

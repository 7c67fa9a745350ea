import { describe, expect, it } from 'vitest';
import { findKnee, type SweepPoint } from '../../src/compare/knee.js';

const curve = (pairs: Array<[number, number]>): SweepPoint[] =>
  pairs.map(([rps, p99], i) => ({ level: 2 ** i, rps, p99 }));

describe('findKnee', () => {
  it.each<[string, Array<[number, number]>, number | undefined]>([
    [
      'linear growth: no knee',
      [
        [100, 5],
        [200, 5],
        [400, 6],
        [800, 7],
      ],
      undefined,
    ],
    [
      'flat throughput, rising p99',
      [
        [100, 5],
        [200, 5],
        [210, 9],
        [212, 20],
      ],
      1,
    ],
    [
      'flat from the start',
      [
        [100, 5],
        [105, 8],
      ],
      0,
    ],
    [
      'throughput flat but p99 not growing: not a knee',
      [
        [100, 5],
        [104, 5],
        [300, 5],
      ],
      undefined,
    ],
    [
      'growth of exactly 10% is still growth',
      [
        [100, 5],
        [110, 6],
        [111, 9],
      ],
      1,
    ],
    [
      'throughput falling while p99 grows',
      [
        [500, 5],
        [450, 9],
      ],
      0,
    ],
    [
      'zero throughput then zero',
      [
        [0, 5],
        [0, 9],
      ],
      0,
    ],
    ['a single level', [[100, 5]], undefined],
    ['empty', [], undefined],
  ])('%s', (_name, pairs, expected) => {
    expect(findKnee(curve(pairs))).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { latencyBuckets, renderBuckets } from '../../src/report/distribution.js';
import { createHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';

function encoded(values: Array<[number, number]>): string {
  const h = createHistogram();
  for (const [us, n] of values) for (let i = 0; i < n; i++) recordUs(h, us);
  const e = encodeHistogram(h);
  h.destroy();
  return e;
}

describe('latencyBuckets', () => {
  it('empty or missing histograms have no buckets', () => {
    expect(latencyBuckets('')).toEqual([]);
    expect(latencyBuckets(encoded([]))).toEqual([]);
  });

  it('every response lands in exactly one bucket, log-spaced from the fastest to the slowest', () => {
    const b = latencyBuckets(
      encoded([
        [100, 10],
        [1000, 50],
        [10_000, 30],
        [100_000, 10],
      ]),
      4,
    );
    expect(b.reduce((a, x) => a + x.count, 0)).toBe(100);
    expect(b.map((x) => x.upToUs)).toEqual([562, 3163, 17_787, expect.any(Number)]);
    expect(b.at(-1)!.upToUs).toBeGreaterThanOrEqual(100_000);
    // edges at min × (max/min)^(i/4): 100 µs ≤ 562 µs, 1 ms ≤ 3.16 ms, 10 ms ≤ 17.8 ms, 100 ms last
    expect(b.map((x) => x.count)).toEqual([10, 50, 30, 10]);
  });

  it('one value only: one bucket with everything', () => {
    expect(latencyBuckets(encoded([[500, 7]]))).toEqual([{ upToUs: expect.any(Number), count: 7 }]);
  });
});

describe('renderBuckets', () => {
  it('bars scaled to the largest bucket, with share and count', () => {
    const text = renderBuckets([
      { upToUs: 250, count: 10 },
      { upToUs: 1000, count: 30 },
      { upToUs: 4000, count: 0 },
    ]);
    expect(text.split('\n')).toEqual([
      `≤ 250µs    ${'█'.repeat(10).padEnd(30)}  25.0%  10`,
      `≤ 1ms      ${'█'.repeat(30)}  75.0%  30`,
      `≤ 4ms      ${''.padEnd(30)}   0.0%  0`,
    ]);
  });

  it('nothing recorded', () => expect(renderBuckets([])).toBe('(no responses)'));
});

import type { Histogram } from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import {
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  HIGHEST_TRACKABLE_US,
  type LatencySummary,
  mergeHistograms,
  recordUs,
  summarize,
} from '../../src/runner-kit/histogram.js';

function histogramOf(values: readonly number[]): Histogram {
  const h = createHistogram();
  for (const v of values) recordUs(h, v);
  return h;
}

function summaryOf(values: readonly number[]): LatencySummary {
  const h = histogramOf(values);
  const s = summarize(h);
  h.destroy();
  return s;
}

function encodedOf(values: readonly number[]): string {
  const h = histogramOf(values);
  const e = encodeHistogram(h);
  h.destroy();
  return e;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const repeat = (value: number, n: number): number[] => Array.from({ length: n }, () => value);

/** HDR with 3 significant digits: a value is reported within 0.1% of what was recorded. */
function expectWithinPrecision(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.max(1, expected / 1000));
}

/** Equal summaries; `max` may move to the top of its HDR bucket once a histogram went through encoding. */
function expectSameSummary(actual: LatencySummary, expected: LatencySummary): void {
  const { max: actualMax, ...restActual } = actual;
  const { max: expectedMax, ...restExpected } = expected;
  expect(restActual).toEqual(restExpected);
  expectWithinPrecision(actualMax, expectedMax);
}

describe('summarize', () => {
  it('is all zeros for an empty histogram', () => {
    const h = createHistogram();
    expect(summarize(h)).toEqual({
      count: 0,
      min: 0,
      mean: 0,
      p10: 0,
      p25: 0,
      p50: 0,
      p75: 0,
      p90: 0,
      p95: 0,
      p99: 0,
      'p99.9': 0,
      max: 0,
    });
    h.destroy();
  });

  it('reports exact percentiles of 1..1000 µs (values below 2048 are exact at 3 digits)', () => {
    expect(summaryOf(range(1, 1000))).toEqual({
      count: 1000,
      min: 1,
      mean: 500.5,
      p10: 100,
      p25: 250,
      p50: 500,
      p75: 750,
      p90: 900,
      p95: 950,
      p99: 990,
      'p99.9': 999,
      max: 1000,
    });
  });

  it.each<[string, number[], Partial<LatencySummary>]>([
    ['a single value', [812], { count: 1, min: 812, p50: 812, p99: 812, max: 812, mean: 812 }],
    ['two values', [100, 300], { count: 2, min: 100, p50: 100, p90: 300, max: 300, mean: 200 }],
    [
      'a tail',
      [...repeat(1000, 990), ...repeat(50_000, 10)],
      { count: 1000, min: 1000, p50: 1000, p99: 1000, 'p99.9': 50_000, max: 50_000 },
    ],
    [
      'milliseconds to seconds',
      [...repeat(2000, 50), ...repeat(20_000, 40), ...repeat(2_000_000, 10)],
      { count: 100, min: 2000, p50: 2000, p90: 20_000, p95: 2_000_000, max: 2_000_000 },
    ],
  ])('%s', (_label, values, expected) => {
    const s = summaryOf(values);
    for (const [key, value] of Object.entries(expected)) {
      if (key === 'count') expect(s.count).toBe(value);
      else expectWithinPrecision(s[key as Exclude<keyof LatencySummary, 'percentiles'>], value as number);
    }
  });

  it('keeps percentiles of a wide range within 3 significant digits', () => {
    const values = range(1, 100_000).map((i) => i * 10); // 10 µs .. 1 s
    const s = summaryOf(values);
    expect(s.count).toBe(100_000);
    expectWithinPrecision(s.p50, 500_000);
    expectWithinPrecision(s.p90, 900_000);
    expectWithinPrecision(s.p99, 990_000);
    expectWithinPrecision(s['p99.9'], 999_000);
    expectWithinPrecision(s.max, 1_000_000);
    expectWithinPrecision(s.mean, 500_005);
  });
});

describe('recordUs', () => {
  it.each([
    [0, 1],
    [0.2, 1],
    [0.9, 1],
    [1, 1],
    [1.4, 1],
    [1.6, 2],
    [812.5, 813],
  ])('%d µs is recorded as %d µs', (value, recorded) => {
    const s = summaryOf([value]);
    expect(s.count).toBe(1);
    expect(s.min).toBe(recorded);
    expect(s.max).toBe(recorded);
  });

  it('values past the trackable range count as the top of the range', () => {
    const s = summaryOf([HIGHEST_TRACKABLE_US * 10]);
    expect(s.count).toBe(1);
    expectWithinPrecision(s.max, HIGHEST_TRACKABLE_US);
  });

  it('tracks at least 60 s', () => {
    const s = summaryOf([60_000_000]);
    expectWithinPrecision(s.max, 60_000_000);
  });
});

describe('encode/decode', () => {
  it.each<[string, number[]]>([
    ['empty', []],
    ['one value', [42]],
    ['1..1000', range(1, 1000)],
    ['a wide spread', [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]],
  ])('round-trips %s', (_label, values) => {
    const original = histogramOf(values);
    const encoded = encodeHistogram(original);
    expect(typeof encoded).toBe('string');
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const decoded = decodeHistogram(encoded);
    expect(decoded.totalCount).toBe(values.length);
    expectSameSummary(summarize(decoded), summarize(original));
    // a second round trip is lossless
    const again = decodeHistogram(encodeHistogram(decoded));
    expect(summarize(again)).toEqual(summarize(decoded));
    again.destroy();
    original.destroy();
    decoded.destroy();
  });

  it('a decoded histogram can take values past the range of the original', () => {
    const decoded = decodeHistogram(encodedOf([10]));
    recordUs(decoded, 300_000_000);
    expect(decoded.totalCount).toBe(2);
    expectWithinPrecision(summarize(decoded).max, 300_000_000);
    decoded.destroy();
  });
});

describe('mergeHistograms', () => {
  it('of nothing is empty', () => {
    const h = mergeHistograms([]);
    expect(summarize(h).count).toBe(0);
    h.destroy();
  });

  it.each<[string, number[][]]>([
    ['one histogram', [range(1, 100)]],
    ['two disjoint ranges', [range(1, 500), range(501, 1000)]],
    ['three trials of different sizes', [repeat(200, 10), range(100, 5000), [1, 2, 3, 1_000_000]]],
    ['an empty trial among others', [[], range(10, 20), repeat(7, 3)]],
  ])('equals recording everything into one histogram: %s', (_label, trials) => {
    const merged = mergeHistograms(trials.map(encodedOf));
    const all = histogramOf(trials.flat());
    expectSameSummary(summarize(merged), summarize(all));
    const allDecoded = decodeHistogram(encodeHistogram(all));
    expect(summarize(merged)).toEqual(summarize(allDecoded));
    expect(merged.totalCount).toBe(trials.flat().length);
    merged.destroy();
    all.destroy();
    allDecoded.destroy();
  });

  it('merges histograms, never averages percentiles', () => {
    // trial A: 1000 fast responses; trial B: 1000 slow ones
    const a = repeat(100, 1000);
    const b = repeat(10_000, 1000);
    const pa = summaryOf(a).p99;
    const pb = summaryOf(b).p99;
    const averaged = (pa + pb) / 2;
    const merged = mergeHistograms([encodedOf(a), encodedOf(b)]);
    const s = summarize(merged);
    merged.destroy();
    expectWithinPrecision(s.p99, 10_000);
    expect(s.p50).toBe(100);
    expect(s.count).toBe(2000);
    expect(Math.abs(s.p99 - averaged)).toBeGreaterThan(4000);
  });

  it('weights trials by their counts, unlike an average of percentiles', () => {
    // a short slow trial must not drag the p50 of a long fast one halfway
    const fast = repeat(1000, 9000);
    const slow = repeat(5000, 1000);
    const merged = mergeHistograms([encodedOf(fast), encodedOf(slow)]);
    const s = summarize(merged);
    merged.destroy();
    expect(s.p50).toBe(1000);
    expect(s.p90).toBe(1000);
    expectWithinPrecision(s.p95, 5000);
    expectWithinPrecision(s.mean, 1400);
  });
});

// Latency over time within a trial (issue 51): the log buckets, the windows that double, the merge
// of threads, and the percentiles read from them, held to HdrHistogram's on the same values.
import { describe, expect, it } from 'vitest';
import { createHistogram, recordUs } from '../../src/runner-kit/histogram.js';
import {
  bucketRange,
  bucketValue,
  FIRST_WINDOW_MS,
  latencyBucket,
  mergeTimelines,
  summarizeTimeline,
  TIMELINE_BUCKETS,
  TIMELINE_WINDOWS,
  TimelineRecorder,
  type TimelineTally,
  windowPercentile,
} from '../../src/runner-kit/timeline.js';
import { trialMeasurementSchema } from '../../src/runner-kit/validate.js';
import { seededRandom } from '../../src/stats/random.js';

describe('the buckets', () => {
  it.each<[number, number, [number, number]]>([
    [0, 1, [1, 1]],
    [1, 1, [1, 1]],
    [15, 15, [15, 15]],
    [16, 16, [16, 17]],
    [17, 16, [16, 17]],
    [31, 23, [30, 31]],
    [32, 24, [32, 35]],
    [1000, 63, [960, 1023]],
    [1024, 64, [1024, 1151]],
    [2 ** 31 - 1, TIMELINE_BUCKETS - 1, [15 * 2 ** 27, 2 ** 31 - 1]],
    [1e12, TIMELINE_BUCKETS - 1, [15 * 2 ** 27, 2 ** 31 - 1]],
  ])('%d µs is in bucket %d, %j', (us, bucket, range) => {
    expect(latencyBucket(us)).toBe(bucket);
    expect(bucketRange(bucket)).toEqual(range);
  });

  it('every value lies in its bucket, the buckets follow each other, each middle within 1/16 of its values', () => {
    let last = 0;
    for (let v = 1; v < 2 ** 31; v = v < 70_000 ? v + 1 : Math.ceil(v * 1.0007)) {
      const b = latencyBucket(v);
      const [lo, hi] = bucketRange(b);
      expect(lo <= v && v <= hi, `${v} in ${b} [${lo}, ${hi}]`).toBe(true);
      expect(b === last || b === last + 1, `${v}: ${last} → ${b}`).toBe(true);
      expect(Math.abs(bucketValue(b) - v) <= v / 16).toBe(true);
      last = b;
    }
    expect(last).toBe(TIMELINE_BUCKETS - 1);
  });
});

describe('a window’s percentiles against HdrHistogram’s', () => {
  it.each([
    ['uniform 200–5,000 µs', (r: () => number) => 200 + 4800 * r()],
    ['a 5 ms service with a 1% tail at 40 ms', (r: () => number) => (r() < 0.01 ? 40_000 : 5000) + 300 * r()],
    [
      'log-normal around 800 µs',
      (r: () => number) => 800 * Math.exp(0.6 * Math.sqrt(-2 * Math.log(r() || 1e-9)) * Math.cos(2 * Math.PI * r())),
    ],
    ['one value', () => 1234],
  ])('%s: p50 and p99 within 1/16 of the HDR figure', (_name, draw) => {
    for (const seed of [1, 2, 3]) {
      const r = seededRandom(seed);
      const t = new TimelineRecorder();
      const h = createHistogram();
      for (let i = 0; i < 5000; i++) {
        const us = Math.max(1, Math.round(draw(r)));
        t.record(50, us);
        recordUs(h, us);
      }
      const pairs = t.tally().windows[0] as number[];
      for (const p of [50, 99]) {
        const hdr = h.getValueAtPercentile(p);
        expect(
          Math.abs(windowPercentile(pairs, p) - hdr),
          `p${p}: ${windowPercentile(pairs, p)} vs ${hdr}`,
        ).toBeLessThanOrEqual(hdr / 16 + 1);
      }
      h.destroy();
    }
  });

  it('an empty window reads 0', () => {
    expect(windowPercentile([], 50)).toBe(0);
    expect(summarizeTimeline({ windowMs: 100, windows: [[], [16, 2]] })).toEqual({
      windowMs: 100,
      count: [0, 2],
      p50: [0, 17],
      p99: [0, 17],
    });
  });
});

describe('windows over a trial', () => {
  it('start at 100 ms, double when the trial outgrows 60, and keep every count', () => {
    const t = new TimelineRecorder();
    // a 20 s trial, a response every 10 ms whose latency is its second in ms
    for (let ms = 0; ms < 20_000; ms += 10) t.record(ms, 1000 * (1 + Math.floor(ms / 1000)));
    const tally = t.tally();
    // 20 s in at most 60 windows: 100 → 200 → 400 ms
    expect(tally.windowMs).toBe(400);
    expect(tally.windows).toHaveLength(50);
    const s = summarizeTimeline(tally);
    expect(s.count.reduce((a, b) => a + b, 0)).toBe(2000);
    expect(s.count.every((c) => c === 40)).toBe(true);
    // the first second's windows read 1 ms, the last's 20 ms (each within 1/16)
    expect(Math.abs((s.p50[0] as number) - 1000)).toBeLessThanOrEqual(1000 / 16);
    expect(Math.abs((s.p99[49] as number) - 20_000)).toBeLessThanOrEqual(20_000 / 16);
  });

  it('a short trial keeps 100 ms windows; a response before the window opened counts in the first', () => {
    const t = new TimelineRecorder();
    t.record(-3, 500);
    t.record(250, 600);
    expect(t.tally()).toEqual({
      windowMs: FIRST_WINDOW_MS,
      windows: [[latencyBucket(500), 1], [], [latencyBucket(600), 1]],
    });
  });

  it('threads merge at the longest window, window by window; none: undefined', () => {
    const a: TimelineTally = { windowMs: 100, windows: [[10, 1], [11, 2], [10, 3], [], [12, 1]] };
    const b: TimelineTally = {
      windowMs: 200,
      windows: [
        [10, 5],
        [13, 1],
      ],
    };
    expect(mergeTimelines([a, undefined, b])).toEqual({
      windowMs: 200,
      windows: [
        [10, 6, 11, 2],
        [10, 3, 13, 1],
        [12, 1],
      ],
    });
    expect(mergeTimelines([undefined])).toBeUndefined();
    expect(mergeTimelines([])).toBeUndefined();
  });

  it('a merge never has more than 60 windows', () => {
    const long: TimelineTally = { windowMs: 100, windows: Array.from({ length: 70 }, () => [20, 1]) };
    const merged = mergeTimelines([long]) as TimelineTally;
    expect(merged.windowMs).toBe(200);
    expect(merged.windows).toHaveLength(35);
    expect(merged.windows.length).toBeLessThanOrEqual(TIMELINE_WINDOWS);
  });
});

describe('the runner event carries it, checked', () => {
  const measurement = (timeline: unknown) => ({
    trial: 1,
    durationMs: 1000,
    sent: 1,
    responses: 1,
    successes: 1,
    failures: 0,
    statusCodes: { '200': 1 },
    errors: {},
    rps: 1,
    bytesPerSec: 1,
    latency: { count: 1, min: 1, mean: 1, p50: 1, p90: 1, p95: 1, p99: 1, 'p99.9': 1, max: 1 },
    connectionCloses: 0,
    generator: { cpuPct: 1, eventLoopDelayP99Us: 1, eventLoopDelayMaxUs: 1 },
    timeline,
  });

  it.each<[string, unknown, boolean]>([
    ['a timeline', { windowMs: 100, count: [1], p50: [5], p99: [9] }, true],
    ['none', undefined, true],
    ['lengths that differ', { windowMs: 100, count: [1, 2], p50: [5], p99: [9] }, false],
    [
      'more than 60 windows',
      { windowMs: 100, count: Array(61).fill(0), p50: Array(61).fill(0), p99: Array(61).fill(0) },
      false,
    ],
    ['a negative figure', { windowMs: 100, count: [1], p50: [-5], p99: [9] }, false],
  ])('%s', (_name, timeline, ok) => {
    expect(trialMeasurementSchema.safeParse(measurement(timeline)).success).toBe(ok);
  });
});

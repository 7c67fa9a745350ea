import { describe, expect, it, vi } from 'vitest';
import { combineRequestTallies, combineTallies, type EngineTally } from '../../runner/src/tally.js';
import type { OpenLoopCounts } from '../../src/runner-kit/measurement.js';
import { createHistogram, decodeHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';
import { latencyBucket } from '../../src/runner-kit/timeline.js';
import { Recorder } from '../../runner/src/recorder.js';

const repeat = (value: number, n: number): number[] => Array.from({ length: n }, () => value);

/** An instance's tally whose histogram holds the given success latencies (µs). */
function tally(latencies: readonly number[], over: Partial<EngineTally> = {}): EngineTally {
  const h = createHistogram();
  for (const v of latencies) recordUs(h, v);
  const histogram = encodeHistogram(h);
  h.destroy();
  return {
    elapsedMs: 10_000,
    sent: latencies.length,
    responses: latencies.length,
    successes: latencies.length,
    failures: 0,
    bytes: 0,
    connectionCloses: 0,
    statusCodes: latencies.length ? { '200': latencies.length } : {},
    errors: {},
    histogram,
    loopDelayP99Us: 0,
    loopDelayMaxUs: 0,
    loopUtilization: 0.1,
    ...over,
  };
}

const generator = { cpuUs: 1_000_000, wallMs: 10_000, threads: 1, cores: 2 };

/** HDR at 3 significant digits: a value reads back within 0.1% */
function expectNear(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(expected * 0.001 + 1);
}

describe('combineTallies: counts', () => {
  it('sums counts, status codes and errors over instances', () => {
    const a = tally(repeat(1000, 8), {
      sent: 12,
      responses: 10,
      successes: 8,
      failures: 2,
      bytes: 5000,
      connectionCloses: 1,
      statusCodes: { '200': 8, '503': 2 },
      errors: { timeout: 2 },
    });
    const b = tally(repeat(2000, 5), {
      sent: 7,
      responses: 6,
      successes: 5,
      failures: 1,
      bytes: 3000,
      connectionCloses: 2,
      statusCodes: { '200': 5, '404': 1 },
      errors: { ECONNRESET: 1, timeout: 1 },
    });
    const { measurement: m } = combineTallies(3, [a, b], generator);
    expect(m).toMatchObject({
      trial: 3,
      sent: 19,
      responses: 16,
      successes: 13,
      failures: 3,
      connectionCloses: 3,
      statusCodes: { '200': 13, '503': 2, '404': 1 },
      errors: { timeout: 3, ECONNRESET: 1 },
    });
    expect(m.latency.count).toBe(13);
  });

  it('does not modify the tallies it combines', () => {
    const a = tally([1000], { statusCodes: { '200': 1 }, errors: { timeout: 1 } });
    const b = tally([1000], { statusCodes: { '200': 1 }, errors: { timeout: 4 } });
    combineTallies(1, [a, b], generator);
    expect(a.statusCodes).toEqual({ '200': 1 });
    expect(a.errors).toEqual({ timeout: 1 });
  });
});

describe('combineTallies: duration and rates', () => {
  it.each<[string, number[], number[], { durationMs: number; rps: number; bytesPerSec: number }]>([
    ['one instance', [10_000], [500], { durationMs: 10_000, rps: 50, bytesPerSec: 5000 }],
    [
      'the longest window, not the sum',
      [9_000, 10_000, 8_000],
      [100, 200, 300],
      { durationMs: 10_000, rps: 60, bytesPerSec: 6000 },
    ],
    ['rps rounded to 2 decimals', [3_000], [100], { durationMs: 3_000, rps: 33.33, bytesPerSec: 3333 }],
    [
      'a fractional window, rounded to µs',
      [2_520.1234],
      [250],
      { durationMs: 2_520.123, rps: 99.2, bytesPerSec: 9_920 },
    ],
    ['no time measured: rates 0', [0, 0], [5, 5], { durationMs: 0, rps: 0, bytesPerSec: 0 }],
  ])('%s', (_label, windows, responses, expected) => {
    const tallies = windows.map((elapsedMs, i) => {
      const n = responses[i] as number;
      return tally(repeat(1000, n), { elapsedMs, bytes: n * 100 });
    });
    const { measurement: m } = combineTallies(1, tallies, generator);
    expect({ durationMs: m.durationMs, rps: m.rps, bytesPerSec: m.bytesPerSec }).toEqual(expected);
  });

  it('counts every response in rps, failures included', () => {
    const t = tally(repeat(1000, 40), { responses: 50, failures: 10, statusCodes: { '200': 40, '500': 10 } });
    expect(combineTallies(1, [t], generator).measurement.rps).toBe(5);
  });

  it('an open loop: rps counts the responses within the window, summed over instances; the rest count everywhere else', () => {
    // a saturated service: 2 instances, 10 s, 1,000 answers each, 600 and 650 of them within the window
    const parts = [600, 650].map((answeredInWindow) =>
      tally(repeat(1000, 1000), { elapsedMs: 10_000, bytes: 100_000, answeredInWindow }),
    );
    const { measurement: m } = combineTallies(1, parts, generator);
    expect([m.rps, m.responses, m.successes, m.bytesPerSec]).toEqual([125, 2000, 2000, 20_000]);
    // none within the window: a rate of 0, not of the backlog answered after it
    expect(combineTallies(1, [tally(repeat(1000, 5), { answeredInWindow: 0 })], generator).measurement.rps).toBe(0);
  });
});

describe('combineTallies: latency', () => {
  it('takes percentiles from the merged histogram, never averaging the instances', () => {
    // one fast instance, one slow: the average of their p50s would be ~50 ms
    const { measurement: m, histogram } = combineTallies(1, [tally(repeat(1000, 99)), tally([100_000])], generator);
    expect(m.latency.count).toBe(100);
    expect(m.latency.min).toBe(1000);
    expect(m.latency.p50).toBe(1000);
    expect(m.latency.p90).toBe(1000);
    expect(m.latency.p99).toBe(1000);
    expectNear(m.latency.max, 100_000);
    expectNear(m.latency['p99.9'], 100_000);
    expectNear(m.latency.mean, (99 * 1000 + 100_000) / 100);

    // the returned histogram is the merged one
    const h = decodeHistogram(histogram);
    expect(h.totalCount).toBe(100);
    expectNear(h.maxValue, 100_000);
    expect(h.getValueAtPercentile(50)).toBe(1000);
    h.destroy();
  });

  it.each<[string, number[][], { count: number; p50: number; max: number }]>([
    ['three instances', [repeat(500, 10), repeat(1500, 10), repeat(2500, 10)], { count: 30, p50: 1500, max: 2500 }],
    ['an instance with no successes', [repeat(2000, 4), []], { count: 4, p50: 2000, max: 2000 }],
    ['slow majority', [repeat(10_000, 60), repeat(100, 40)], { count: 100, p50: 10_000, max: 10_000 }],
  ])('%s', (_label, latencies, expected) => {
    const { measurement: m } = combineTallies(
      1,
      latencies.map((l) => tally(l)),
      generator,
    );
    expect(m.latency.count).toBe(expected.count);
    expectNear(m.latency.p50, expected.p50);
    expectNear(m.latency.max, expected.max);
  });

  it('is all zeros without successes', () => {
    const { measurement: m } = combineTallies(1, [tally([]), tally([])], generator);
    expect(m.latency).toEqual({
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
    expect(decodeHistogram(combineTallies(1, [], generator).histogram).totalCount).toBe(0);
  });
});

describe('combineTallies: generator', () => {
  it('takes the worst instance’s loop delay, not the sum', () => {
    const tallies = [
      tally([1000], { loopDelayP99Us: 2000, loopDelayMaxUs: 90_000 }),
      tally([1000], { loopDelayP99Us: 30_000, loopDelayMaxUs: 40_000 }),
      tally([1000], { loopDelayP99Us: 500, loopDelayMaxUs: 1000 }),
    ];
    const { generator: g } = combineTallies(1, tallies, { ...generator, threads: 3 }).measurement;
    expect(g.eventLoopDelayP99Us).toBe(30_000);
    expect(g.eventLoopDelayMaxUs).toBe(90_000);
  });

  it('reports the busiest thread’s event-loop utilisation in %, not the mean', () => {
    const tallies = [tally([1000], { loopUtilization: 0.2 }), tally([1000], { loopUtilization: 0.956 })];
    const { generator: g } = combineTallies(1, tallies, { ...generator, threads: 2 }).measurement;
    expect(g.busyPct).toBe(95.6);
  });

  it.each<[string, { cpuUs: number; wallMs: number }, number]>([
    ['one core busy for the whole trial', { cpuUs: 10_000_000, wallMs: 10_000 }, 100],
    ['a tenth of a core', { cpuUs: 1_000_000, wallMs: 10_000 }, 10],
    ['two cores', { cpuUs: 20_000_000, wallMs: 10_000 }, 200],
    ['rounded to 2 decimals', { cpuUs: 1_000_000, wallMs: 3_000 }, 33.33],
    ['no wall time', { cpuUs: 5_000, wallMs: 0 }, 0],
  ])('cpuPct: %s', (_label, cpu, pct) => {
    const { measurement: m } = combineTallies(1, [tally([1000])], { ...generator, ...cpu });
    expect(m.generator.cpuPct).toBe(pct);
  });

  it('carries threads and cores', () => {
    const { measurement: m } = combineTallies(1, [tally([1000]), tally([1000])], {
      cpuUs: 0,
      wallMs: 1000,
      threads: 2,
      cores: 8,
    });
    expect(m.generator.threads).toBe(2);
    expect(m.generator.cores).toBe(8);
  });
});

describe('combineTallies: open-loop counts', () => {
  const counts = (c: Partial<OpenLoopCounts>): OpenLoopCounts => ({
    scheduled: 0,
    late: 0,
    lateService: 0,
    lateGenerator: 0,
    unfinished: 0,
    maxSendDelayUs: 0,
    delayUs: { service: 0, timer: 0, generator: 0 },
    ...c,
  });

  it('are summed over instances, the largest send delay kept', () => {
    const tallies = [
      tally([1000], {
        open: counts({
          scheduled: 100,
          late: 5,
          lateService: 2,
          lateGenerator: 3,
          unfinished: 1,
          maxSendDelayUs: 30_000,
          delayUs: { service: 10, timer: 20, generator: 30 },
        }),
      }),
      tally([1000], {
        open: counts({
          scheduled: 99,
          late: 1,
          lateGenerator: 1,
          unfinished: 3,
          maxSendDelayUs: 12_000,
          delayUs: { service: 1, timer: 2, generator: 3 },
        }),
      }),
    ];
    expect(combineTallies(1, tallies, generator).measurement.open).toEqual({
      scheduled: 199,
      late: 6,
      lateService: 2,
      lateGenerator: 4,
      unfinished: 4,
      maxSendDelayUs: 30_000,
      delayUs: { service: 11, timer: 22, generator: 33 },
    });
  });

  it('count the instances that have them', () => {
    const tallies = [tally([1000], { open: counts({ scheduled: 10, late: 2 }) }), tally([1000])];
    expect(combineTallies(1, tallies, generator).measurement.open).toEqual(counts({ scheduled: 10, late: 2 }));
  });

  it('are absent when no tally has them (closed loop)', () => {
    const { measurement: m } = combineTallies(1, [tally([1000]), tally([1000])], generator);
    expect(m.open).toBeUndefined();
    expect('open' in m).toBe(false);
  });
});

describe('combineTallies and combineRequestTallies: failed checks and expected statuses', () => {
  it('sums checks and unites expected statuses over instances; an entry keeps only its own', () => {
    const entry = (over: Partial<EngineTally>) => {
      const {
        elapsedMs: _e,
        connectionCloses: _c,
        loopDelayP99Us: _p,
        loopDelayMaxUs: _m,
        loopUtilization: _u,
        ...t
      } = tally(repeat(1000, 10), over);
      return t;
    };
    const a = tally(repeat(1000, 20), {
      failures: 5,
      checks: { 'expect-json': 5 },
      expectedStatuses: ['404'],
      requests: [entry({ failures: 5, checks: { 'expect-json': 5 } }), entry({ expectedStatuses: ['404'] })],
    });
    const b = tally(repeat(1000, 20), {
      failures: 2,
      checks: { 'expect-json': 1, 'expect-status': 1 },
      expectedStatuses: ['401'],
      requests: [
        entry({ failures: 2, checks: { 'expect-json': 1, 'expect-status': 1 } }),
        entry({ expectedStatuses: ['401'] }),
      ],
    });
    const { measurement } = combineTallies(1, [a, b], generator);
    expect(measurement.checks).toEqual({ 'expect-json': 6, 'expect-status': 1 });
    expect(measurement.expectedStatuses).toEqual(['401', '404']);
    const [first, second] = combineRequestTallies(1, ['graphql', 'missing'], [a, b], generator);
    expect(first?.measurement.checks).toEqual({ 'expect-json': 6, 'expect-status': 1 });
    expect(first?.measurement.expectedStatuses).toBeUndefined();
    // the phase's checks are not the second entry's
    expect(second?.measurement.checks).toBeUndefined();
    expect(second?.measurement.expectedStatuses).toEqual(['401', '404']);
  });
});

describe('combineTallies: latency over time (issue 51)', () => {
  it("the threads' timelines merged into the trial's; a mix entry has none; no timeline, none", () => {
    const a = tally(repeat(1000, 3), {
      timeline: {
        windowMs: 100,
        windows: [
          [latencyBucket(1000), 2],
          [latencyBucket(1000), 1],
        ],
      },
    });
    const b = tally(repeat(3000, 2), { timeline: { windowMs: 200, windows: [[latencyBucket(3000), 2]] } });
    // (an entry's own counts have no timeline: RequestCounts keeps none)
    const { timeline: _own, ...entry } = a;
    const { measurement } = combineTallies(
      1,
      [
        { ...a, requests: [entry] },
        { ...b, requests: [{ ...b }] },
      ],
      generator,
    );
    expect(measurement.timeline).toEqual({
      windowMs: 200,
      count: [5],
      // ranks 3 of 5 and 5 of 5: 1,000 µs's bucket (960–1,023) and 3,000 µs's (2,816–3,071), their middles
      p50: [992],
      p99: [2944],
    });
    const [mixed] = combineRequestTallies(1, ['only'], [{ ...a, requests: [entry] }], generator);
    expect(mixed?.measurement.timeline).toBeUndefined();
    expect(combineTallies(1, [tally(repeat(1000, 3))], generator).measurement.timeline).toBeUndefined();
  });

  it('the recorder puts each success in the window of when it came; none after the rate window closed', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const r = new Recorder();
      r.response(200, 10, 700);
      vi.advanceTimersByTime(250);
      r.response(200, 10, 900);
      r.ok(0, 1100);
      vi.advanceTimersByTime(100);
      r.endWindow();
      // an answer to a request written in the window: counted, but not on the timeline
      r.response(200, 10, 5000);
      const t = r.tally();
      expect(t.successes).toBe(4);
      expect(t.timeline).toEqual({
        windowMs: 100,
        windows: [[latencyBucket(700), 1], [], [latencyBucket(900), 1, latencyBucket(1100), 1]],
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('the recorder counts successes by when they came, not failures or what came after the window', () => {
    const r = new Recorder();
    r.response(200, 10, 700);
    r.response(500, 10, 900);
    r.ok(0, 800);
    r.error('timeout');
    r.stop();
    r.response(200, 10, 5000);
    const t = r.tally();
    expect(t.timeline?.windowMs).toBe(100);
    expect(t.timeline?.windows).toEqual([[latencyBucket(700), 1, latencyBucket(800), 1]]);
  });
});

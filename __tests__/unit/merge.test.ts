import { describe, expect, it } from 'vitest';
import { generatorCpuPerResponse, mergeTrials } from '../../src/results/merge.js';
import type { TrialSummary } from '../../src/results/types.js';
import {
  createHistogram,
  decodeHistogram,
  encodeHistogram,
  type LatencySummary,
  recordUs,
  summarize,
} from '../../src/runner-kit/histogram.js';
import { usage } from './fixtures.js';

/** A trial whose latency summary and histogram come from the given success latencies (µs). */
function trial(
  latencies: readonly number[],
  over: Partial<TrialSummary> = {},
): { summary: TrialSummary; histogram: string } {
  const h = createHistogram();
  for (const v of latencies) recordUs(h, v);
  const latency = summarize(h);
  const histogram = encodeHistogram(h);
  h.destroy();
  const summary: TrialSummary = {
    trial: 1,
    durationMs: 10_000,
    sent: latencies.length,
    responses: latencies.length,
    successes: latencies.length,
    failures: 0,
    statusCodes: latencies.length ? { '200': latencies.length } : {},
    errors: {},
    rps: latencies.length / 10,
    bytesPerSec: 0,
    latency,
    connectionCloses: 0,
    generator: { cpuPct: 10, eventLoopDelayP99Us: 100, eventLoopDelayMaxUs: 200 },
    resources: {},
    ...over,
  };
  return { summary, histogram };
}

const repeat = (value: number, n: number): number[] => Array.from({ length: n }, () => value);

function merge(trials: ReturnType<typeof trial>[]) {
  return mergeTrials(
    trials.map((t) => t.summary),
    trials.map((t) => t.histogram),
  );
}

describe('mergeTrials', () => {
  it('open loop: rps over the trials counts each one’s responses within its window, not its backlog', () => {
    const open = {
      scheduled: 4000,
      late: 0,
      lateService: 3000,
      lateGenerator: 0,
      unfinished: 0,
      maxSendDelayUs: 0,
      delayUs: { service: 0, timer: 0, generator: 0 },
    };
    // 400/s offered for 10 s to a service that answers about 250 within the window, the rest after it
    const m = merge([trial(repeat(1000, 4000), { rps: 250, open }), trial(repeat(1000, 4000), { rps: 240, open })]);
    expect([m.responses, m.rps]).toEqual([8000, 245]);
    // a closed loop counts every response, as before
    expect(merge([trial(repeat(1000, 4000), { rps: 250 })]).rps).toBe(400);
  });

  it('of zero trials is empty and finite', () => {
    const m = mergeTrials([], []);
    expect(m).toMatchObject({
      trials: 0,
      durationMs: 0,
      sent: 0,
      responses: 0,
      successes: 0,
      failures: 0,
      statusCodes: {},
      errors: {},
      errorRate: 0,
      rps: 0,
      bytesPerSec: 0,
      connectionCloses: 0,
      resources: {},
    });
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
    expect(typeof m.histogram).toBe('string');
    expect(summarize(decodeHistogram(m.histogram)).count).toBe(0);
  });

  it('sums counts and merges status codes and error kinds', () => {
    const a = trial(repeat(1000, 90), {
      durationMs: 10_000,
      sent: 100,
      responses: 95,
      successes: 90,
      failures: 5,
      statusCodes: { '200': 90, '500': 5 },
      errors: { ECONNRESET: 3, timeout: 2 },
      connectionCloses: 1,
    });
    const b = trial(repeat(2000, 100), {
      durationMs: 20_000,
      sent: 110,
      responses: 104,
      successes: 100,
      failures: 4,
      statusCodes: { '200': 100, '503': 3, '500': 1 },
      errors: { ECONNRESET: 6 },
      connectionCloses: 2,
    });
    const m = merge([a, b]);
    expect(m).toMatchObject({
      trials: 2,
      durationMs: 30_000,
      sent: 210,
      responses: 199,
      successes: 190,
      failures: 9,
      statusCodes: { '200': 190, '500': 6, '503': 3 },
      errors: { ECONNRESET: 9, timeout: 2 },
      connectionCloses: 3,
    });
  });

  it.each<[string, Partial<TrialSummary>[], number]>([
    [
      'equal durations',
      [
        { responses: 1000, durationMs: 10_000 },
        { responses: 3000, durationMs: 10_000 },
      ],
      200,
    ],
    // total responses / total seconds, not the mean of the per-trial rates (100 and 300 → 200)
    [
      'unequal durations',
      [
        { responses: 1000, durationMs: 10_000 },
        { responses: 9000, durationMs: 30_000 },
      ],
      250,
    ],
    ['rounded to two decimals', [{ responses: 10, durationMs: 3000 }], 3.33],
    ['zero duration', [{ responses: 10, durationMs: 0 }], 0],
  ])('rps = total responses / total seconds: %s', (_label, overs, rps) => {
    const m = merge(overs.map((o) => trial([], { ...o, rps: 12_345 })));
    expect(m.rps).toBe(rps);
  });

  it('bytes per second over the total measured time', () => {
    const m = merge([
      trial([], { bytesPerSec: 1000, durationMs: 10_000 }),
      trial([], { bytesPerSec: 4000, durationMs: 30_000 }),
    ]);
    // (1000 × 10 + 4000 × 30) / 40
    expect(m.bytesPerSec).toBe(3250);
  });

  it.each<[string, Partial<TrialSummary>[], number]>([
    ['no failures', [{ responses: 100, failures: 0, errors: {} }], 0],
    ['failed responses', [{ responses: 100, failures: 5, errors: {} }], 0.05],
    ['socket errors count as attempts', [{ responses: 90, failures: 0, errors: { ECONNRESET: 10 } }], 0.1],
    [
      'across trials',
      [
        { responses: 100, failures: 10, errors: {} },
        { responses: 250, failures: 0, errors: { timeout: 50 } },
      ],
      60 / 400,
    ],
    ['nothing at all', [{ responses: 0, failures: 0, errors: {} }], 0],
    ['only socket errors', [{ responses: 0, failures: 0, errors: { ECONNREFUSED: 7 } }], 1],
  ])('errorRate: %s', (_label, overs, rate) => {
    expect(merge(overs.map((o) => trial([], o))).errorRate).toBeCloseTo(rate, 12);
  });

  it('latency comes from the merged histogram, not averaged percentiles', () => {
    const a = trial(repeat(100, 1000));
    const b = trial(repeat(10_000, 1000));
    const averagedP99 = (a.summary.latency.p99 + b.summary.latency.p99) / 2;
    const m = merge([a, b]);
    expect(m.latency.count).toBe(2000);
    expect(m.latency.p50).toBe(100);
    expect(Math.abs(m.latency.p99 - 10_000)).toBeLessThanOrEqual(10);
    expect(Math.abs(m.latency.p99 - averagedP99)).toBeGreaterThan(4000);
  });

  it('latency equals the summary of one histogram holding every trial', () => {
    const values = [
      [120, 130, 140, 5000],
      [90, 95, 20_000, 110],
      [300, 310, 320],
    ];
    const all = createHistogram();
    for (const v of values.flat()) recordUs(all, v);
    const expected: LatencySummary = summarize(decodeHistogram(encodeHistogram(all)));
    all.destroy();
    const m = merge(values.map((v) => trial(v)));
    expect(m.latency).toEqual(expected);
    // the merged histogram is stored and decodes to the same summary
    expect(summarize(decodeHistogram(m.histogram))).toEqual(expected);
  });

  it('combines resources per service, sorted by name, across trials that may lack a service', () => {
    const a = trial([], {
      resources: {
        db: usage({ cpuMeanPct: 10, cpuPeakPct: 20, memoryPeakBytes: 100, rxBytes: 1, txBytes: 2, samples: 2 }),
        api: usage({ cpuMeanPct: 50, cpuPeakPct: 90, memoryPeakBytes: 300, rxBytes: 10, txBytes: 20, samples: 1 }),
      },
    });
    const b = trial([], {
      resources: {
        api: usage({ cpuMeanPct: 20, cpuPeakPct: 60, memoryPeakBytes: 400, rxBytes: 5, txBytes: 5, samples: 2 }),
      },
    });
    const m = merge([a, b]);
    expect(Object.keys(m.resources)).toEqual(['api', 'db']);
    expect(m.resources.api).toEqual(
      usage({ cpuMeanPct: 30, cpuPeakPct: 90, memoryPeakBytes: 400, rxBytes: 15, txBytes: 25, samples: 3 }),
    );
    expect(m.resources.db).toEqual(
      usage({ cpuMeanPct: 10, cpuPeakPct: 20, memoryPeakBytes: 100, rxBytes: 1, txBytes: 2, samples: 2 }),
    );
  });

  it('does not modify its input', () => {
    const a = trial([100], { statusCodes: { '200': 1 }, errors: { timeout: 1 } });
    const b = trial([200], { statusCodes: { '200': 1 }, errors: { timeout: 2 } });
    merge([a, b]);
    expect(a.summary.statusCodes).toEqual({ '200': 1 });
    expect(a.summary.errors).toEqual({ timeout: 1 });
    expect(b.summary.errors).toEqual({ timeout: 2 });
  });
});

describe("generatorCpuPerResponse: the runner's CPU per response over a phase's trials", () => {
  type Part = Parameters<typeof generatorCpuPerResponse>[0][number];
  const t = (cpuPct: number, durationMs: number, responses: number): Part => ({
    generator: { cpuPct, eventLoopDelayP99Us: 0, eventLoopDelayMaxUs: 0 },
    durationMs,
    responses,
  });
  it.each<[string, Part[], number | undefined]>([
    ['one trial: 50% of a core for 1 s over 10,000 responses', [t(50, 1000, 10_000)], 50],
    ['a whole core for 2 s over 1,000 responses', [t(100, 2000, 1000)], 2000],
    // summed before dividing: not the mean of 50 and 10
    ['two trials, their CPU and responses summed', [t(50, 1000, 10_000), t(10, 1000, 10_000)], 30],
    ['unequal trials weigh by their CPU time and responses', [t(100, 3000, 1000), t(100, 1000, 3000)], 1000],
    ['more than one core (workers)', [t(180, 1000, 9000)], 200],
    ['rounded to 0.01 µs', [t(1, 1000, 3)], 3333.33],
    ['no responses: nothing to divide by', [t(50, 1000, 0)], undefined],
    ['no trials', [], undefined],
    // a replicas' merged trial keeps the busiest replica's CPU, and every replica's responses
    [
      'trials of runner replicas: not said',
      [{ ...t(50, 1000, 10_000), replicas: { count: 3, startSkewMs: 0 } }],
      undefined,
    ],
  ])('%s', (_label, trials, expected) => {
    expect(generatorCpuPerResponse(trials)).toBe(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { createHistogram, decodeHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';
import type { TrialMeasurement } from '../../src/runner-kit/measurement.js';
import {
  MEASURE_GAP_MS,
  mergeMeasurements,
  mergeReplicaTrials,
  replicaIndex,
  replicaStageStarts,
  type ReplicaTrial,
} from '../../src/runner-kit/replicas.js';

const repeat = (value: number, n: number): number[] => Array.from({ length: n }, () => value);

function histogramOf(latencies: readonly number[]): string {
  const h = createHistogram();
  for (const v of latencies) recordUs(h, v);
  const out = encodeHistogram(h);
  h.destroy();
  return out;
}

function measurement(latencies: readonly number[], over: Partial<TrialMeasurement> = {}): TrialMeasurement {
  return {
    trial: 2,
    durationMs: 1000,
    sent: latencies.length,
    responses: latencies.length,
    successes: latencies.length,
    failures: 0,
    statusCodes: { '200': latencies.length },
    errors: {},
    rps: latencies.length,
    bytesPerSec: latencies.length * 100,
    latency: { count: 0, min: 0, mean: 0, p10: 0, p25: 0, p50: 0, p75: 0, p90: 0, p95: 0, p99: 0, 'p99.9': 0, max: 0 },
    connectionCloses: 0,
    generator: { cpuPct: 30, eventLoopDelayP99Us: 100, eventLoopDelayMaxUs: 200, busyPct: 20, threads: 1, cores: 1 },
    ...over,
  };
}

function trial(latencies: readonly number[], over: Partial<TrialMeasurement> = {}): ReplicaTrial {
  return { measurement: measurement(latencies, over), histogram: histogramOf(latencies) };
}

describe('replicaIndex', () => {
  it.each<[string, Record<string, string>, number, number | string]>([
    ['an index given by hand', { PERF_GATE_REPLICA: '2' }, 3, 2],
    ['index 0', { PERF_GATE_REPLICA: '0' }, 3, 0],
    ['a swarm slot counts from 1', { PERF_GATE_SWARM_SLOT: '1' }, 3, 0],
    ['the last swarm slot', { PERF_GATE_SWARM_SLOT: '3' }, 3, 2],
    [
      'swarm slot 0 is none of them',
      { PERF_GATE_SWARM_SLOT: '0' },
      3,
      'PERF_GATE_SWARM_SLOT 0 is not a replica of 0..2 (counted from 1)',
    ],
    [
      'swarm slot past the count',
      { PERF_GATE_SWARM_SLOT: '4' },
      3,
      'PERF_GATE_SWARM_SLOT 4 is not a replica of 0..2 (counted from 1)',
    ],
    [
      'a node id where a slot should be (a global service) is refused',
      { PERF_GATE_SWARM_SLOT: 'ygeen8xms3q7hwlmlxl68otd3' },
      3,
      'PERF_GATE_SWARM_SLOT ygeen8xms3q7hwlmlxl68otd3 is not a replica of 0..2',
    ],
    ['an index that is not a number', { PERF_GATE_REPLICA: 'x' }, 3, 'PERF_GATE_REPLICA x is not a replica of 0..2'],
    ['a Kubernetes Indexed Job', { JOB_COMPLETION_INDEX: '1' }, 2, 1],
    ['PERF_GATE_REPLICA wins', { PERF_GATE_REPLICA: '1', JOB_COMPLETION_INDEX: '0' }, 2, 1],
    ['blank falls through', { PERF_GATE_REPLICA: ' ', JOB_COMPLETION_INDEX: '1' }, 2, 1],
    ['none', {}, 2, 'PERF_GATE_REPLICA, PERF_GATE_SWARM_SLOT and JOB_COMPLETION_INDEX are all unset'],
    ['out of range', { PERF_GATE_REPLICA: '3' }, 3, 'PERF_GATE_REPLICA 3 is not a replica of 0..2'],
    [
      'a non-number Kubernetes index',
      { JOB_COMPLETION_INDEX: 'x' },
      3,
      'JOB_COMPLETION_INDEX x is not a replica of 0..2',
    ],
    ['a negative index', { JOB_COMPLETION_INDEX: '-1' }, 3, 'JOB_COMPLETION_INDEX -1 is not a replica of 0..2'],
  ])('%s', (_label, env, count, expected) => {
    if (typeof expected === 'number') expect(replicaIndex(env, count)).toBe(expected);
    else expect(() => replicaIndex(env, count)).toThrow(expected);
  });
});

describe('replicaStageStarts', () => {
  it.each<[number, { warmup: number; measure: number }]>([
    [0, { warmup: 5000, measure: 5000 }],
    [2000, { warmup: 5000, measure: 7000 + MEASURE_GAP_MS }],
  ])('warm-up %i ms', (warmupMs, expected) => {
    expect(replicaStageStarts({ startAtEpochMs: 5000 }, warmupMs)).toEqual(expected);
  });
});

describe('mergeMeasurements', () => {
  it('merges histograms exactly: the merged p99 is the slow replica’s tail, not an average of p99s', () => {
    // replica 0: 990 fast; replica 1: 10 slow. Averaging p99s would say ~25 ms; the whole says 1 ms..50 ms
    const fast = repeat(1000, 990);
    const slow = repeat(50_000, 10);
    const { measurement: m, histogram } = mergeMeasurements(
      [measurement(fast), measurement(slow)],
      [histogramOf(fast), histogramOf(slow)],
    );
    const h = decodeHistogram(histogram);
    // one generator recording every latency, through the same encoding
    const whole = decodeHistogram(histogramOf([...fast, ...slow]));
    expect(h.totalCount).toBe(1000);
    expect(m.latency.count).toBe(1000);
    expect(m.latency.p50).toBe(whole.getValueAtPercentile(50));
    expect(m.latency.p99).toBe(whole.getValueAtPercentile(99));
    expect(m.latency['p99.9']).toBe(whole.getValueAtPercentile(99.9));
    expect(m.latency.max).toBe(whole.maxValue);
    h.destroy();
    whole.destroy();
  });

  it('sums counts and classes, rates over the longest window, the busiest replica’s generator', () => {
    const a = measurement(repeat(1000, 100), {
      durationMs: 1000,
      rps: 100,
      failures: 3,
      statusCodes: { '200': 100, '503': 3 },
      errors: { timeout: 1 },
      checks: { 'expect-body': 2 },
      expectedStatuses: ['404'],
      connectionCloses: 1,
      bytesPerSec: 10_000,
      generator: { cpuPct: 80, eventLoopDelayP99Us: 900, eventLoopDelayMaxUs: 1000, busyPct: 70, threads: 2, cores: 1 },
      open: {
        scheduled: 100,
        late: 1,
        lateService: 1,
        lateGenerator: 0,
        unfinished: 0,
        maxSendDelayUs: 7000,
        delayUs: { service: 10, timer: 20, generator: 30 },
      },
    });
    const b = measurement(repeat(2000, 100), {
      durationMs: 1250,
      rps: 80,
      errors: { timeout: 2, ECONNRESET: 1 },
      expectedStatuses: ['410'],
      bytesPerSec: 8000,
      generator: { cpuPct: 40, eventLoopDelayP99Us: 100, eventLoopDelayMaxUs: 5000, busyPct: 30, threads: 1, cores: 1 },
      open: {
        scheduled: 100,
        late: 2,
        lateService: 0,
        lateGenerator: 2,
        unfinished: 1,
        maxSendDelayUs: 9000,
        delayUs: { service: 1, timer: 2, generator: 3 },
      },
    });
    const { measurement: m } = mergeMeasurements(
      [a, b],
      [histogramOf(repeat(1000, 100)), histogramOf(repeat(2000, 100))],
    );
    expect(m).toMatchObject({
      trial: 2,
      durationMs: 1250,
      sent: 200,
      responses: 200,
      successes: 200,
      failures: 3,
      statusCodes: { '200': 200, '503': 3 },
      errors: { timeout: 3, ECONNRESET: 1 },
      checks: { 'expect-body': 2 },
      expectedStatuses: ['404', '410'],
      rps: 160,
      // 10,000 B over 1 s + 8,000 B/s over 1.25 s = 20,000 B over 1.25 s
      bytesPerSec: 16_000,
      connectionCloses: 1,
      // the busiest replica's CPU, with its own threads and cores (a's: 2 threads on 1 core)
      generator: { cpuPct: 80, eventLoopDelayP99Us: 900, eventLoopDelayMaxUs: 5000, busyPct: 70, threads: 2, cores: 1 },
      open: {
        scheduled: 200,
        late: 3,
        lateService: 1,
        lateGenerator: 2,
        unfinished: 1,
        maxSendDelayUs: 9000,
        delayUs: { service: 11, timer: 22, generator: 33 },
      },
    });
    expect(m.delivery).toBeUndefined();
  });

  it('open loop: the rate counts each replica’s responses within its window, not its backlog answered after it', () => {
    const open = {
      scheduled: 1000,
      late: 0,
      lateService: 0,
      lateGenerator: 0,
      unfinished: 0,
      maxSendDelayUs: 0,
      delayUs: { service: 0, timer: 0, generator: 0 },
    };
    // each replica offered 100/s for 10 s, and its service answered 60/s within the window
    const parts = [0, 1].map(() => measurement(repeat(1000, 1000), { durationMs: 10_000, rps: 60, open }));
    const { measurement: m } = mergeMeasurements(parts, [
      histogramOf(repeat(1000, 1000)),
      histogramOf(repeat(1000, 1000)),
    ]);
    expect([m.responses, m.rps]).toEqual([2000, 120]);
  });

  it('an idle replica (no responses) adds nothing but its window', () => {
    const { measurement: m } = mergeMeasurements(
      [measurement(repeat(1000, 10)), measurement([], { durationMs: 1000 })],
      [histogramOf(repeat(1000, 10)), histogramOf([])],
    );
    expect(m.responses).toBe(10);
    expect(m.latency.count).toBe(10);
  });

  it('refuses nothing to merge', () => {
    expect(() => mergeMeasurements([], [])).toThrow('no replica measurements');
  });
});

describe('mergeReplicaTrials', () => {
  it('records the replicas and the spread of their measured-stage starts', () => {
    const out = mergeReplicaTrials([trial([1000]), trial([2000]), trial([3000])], [100.5, 112.25, 104]);
    expect(out.measurement.replicas).toEqual({ count: 3, startSkewMs: 11.75 });
    expect(out.measurement.responses).toBe(3);
  });

  it('merges each mix entry by name across replicas', () => {
    const withMix = (fast: number, slow: number): ReplicaTrial => ({
      ...trial([...repeat(1000, fast), ...repeat(9000, slow)]),
      requests: [
        { name: 'fast', ...trial(repeat(1000, fast)) },
        { name: 'slow', ...trial(repeat(9000, slow)) },
      ],
    });
    const out = mergeReplicaTrials([withMix(30, 10), withMix(31, 9)], [0, 0]);
    expect(out.requests?.map((r) => [r.name, r.measurement.responses, r.measurement.latency.p50])).toEqual([
      ['fast', 61, 1000],
      ['slow', 19, 9007],
    ]);
    expect(out.measurement.responses).toBe(80);
  });

  it('a replica without a mix entry is an error, never a silent gap', () => {
    const a: ReplicaTrial = { ...trial([1000]), requests: [{ name: 'fast', ...trial([1000]) }] };
    const b: ReplicaTrial = { ...trial([1000]), requests: [{ name: 'other', ...trial([1000]) }] };
    expect(() => mergeReplicaTrials([a, b], [0, 0])).toThrow('no counts for mix entry fast');
  });
});

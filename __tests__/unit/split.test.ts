import { describe, expect, it } from 'vitest';
import { type EngineJob, type Limit, share, splitStage, type StageSpec } from '../../runner/src/split.js';
import type { ClosedPhase, OpenPhase } from '../../src/runner-kit/plan.js';

const load: StageSpec['target'] = {
  kind: 'http',
  request: { url: 'http://sut:8080/search?q=a', method: 'GET', headers: { accept: '*/*' } },
};

function closed(connections: number, o: Partial<ClosedPhase> = {}): ClosedPhase {
  return { kind: 'closed', name: `c${connections}`, connections, durationMs: 10_000, ...o };
}

function open(rate: number, maxInFlight: number, o: Partial<OpenPhase> = {}): OpenPhase {
  return { kind: 'open', name: `r${rate}`, rate, durationMs: 10_000, maxInFlight, ...o };
}

function split(phase: ClosedPhase | OpenPhase, workers: number, limit?: Limit): EngineJob[] {
  return splitStage({
    target: load,
    phase,
    limit:
      limit ??
      (phase.kind === 'closed' && phase.requests !== undefined
        ? { requests: phase.requests }
        : { durationMs: phase.durationMs as number }),
    timeoutMs: 5000,
    workers,
    startAtEpochMs: 1_700_000_000_123.5,
  });
}

function closedJobs(jobs: EngineJob[]) {
  return jobs.map((j) => {
    if (j.kind !== 'closed') throw new Error(`expected a closed job, got ${j.kind}`);
    const { connections } = j;
    if (typeof connections !== 'number') throw new Error('expected a fixed connection count');
    return { ...j, connections };
  });
}

function openJobs(jobs: EngineJob[]) {
  return jobs.map((j) => {
    if (j.kind !== 'open') throw new Error(`expected an open job, got ${j.kind}`);
    return j;
  });
}

const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('share', () => {
  it.each<[number, number, number[]]>([
    [10, 1, [10]],
    [10, 2, [5, 5]],
    [10, 3, [4, 3, 3]],
    [10, 4, [3, 3, 2, 2]],
    [3, 5, [1, 1, 1, 0, 0]],
    [0, 3, [0, 0, 0]],
    [7, 7, [1, 1, 1, 1, 1, 1, 1]],
    [101, 4, [26, 25, 25, 25]],
  ])('%i split %i ways is %j', (t, n, parts) => {
    expect(Array.from({ length: n }, (_, k) => share(t, n, k))).toEqual(parts);
  });

  it('always sums to the total and differs by at most 1, larger shares first', () => {
    for (let t = 0; t <= 60; t++) {
      for (let n = 1; n <= 12; n++) {
        const parts = Array.from({ length: n }, (_, k) => share(t, n, k));
        expect(total(parts)).toBe(t);
        expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
        expect([...parts].sort((a, b) => b - a)).toEqual(parts);
      }
    }
  });
});

describe('splitStage: closed phases', () => {
  it.each<[string, ClosedPhase, number, number[], number[] | undefined]>([
    ['one worker keeps everything', closed(10), 1, [10], undefined],
    ['connections shared over workers', closed(10), 4, [3, 3, 2, 2], undefined],
    ['workers 4 with connections 2: two instances, never one with 0 connections', closed(2), 4, [1, 1], undefined],
    ['connections 1: one instance', closed(1), 8, [1], undefined],
    [
      'requests 3 with connections 10: three instances of one request each',
      closed(10, { durationMs: undefined, requests: 3 }),
      4,
      [4, 3, 3],
      [1, 1, 1],
    ],
    [
      'requests 1000 over 3 workers',
      closed(10, { durationMs: undefined, requests: 1000 }),
      3,
      [4, 3, 3],
      [334, 333, 333],
    ],
    [
      'requests 5 with connections 2 on 4 workers',
      closed(2, { durationMs: undefined, requests: 5 }),
      4,
      [1, 1],
      [3, 2],
    ],
    ['workers 0 still runs one instance', closed(10), 0, [10], undefined],
  ])('%s', (_label, phase, workers, connections, requests) => {
    const jobs = closedJobs(split(phase, workers));
    expect(jobs.map((j) => j.connections)).toEqual(connections);
    expect(total(jobs.map((j) => j.connections))).toBe(phase.connections);
    for (const j of jobs) {
      expect(j.connections).toBeGreaterThan(0);
      expect(j.target).toBe(load);
      expect(j.timeoutMs).toBe(5000);
    }
    if (requests) {
      expect(jobs.map((j) => ('requests' in j.limit ? j.limit.requests : undefined))).toEqual(requests);
      expect(total(requests)).toBe(phase.requests);
    } else {
      for (const j of jobs) expect(j.limit).toEqual({ durationMs: phase.durationMs });
    }
  });

  it('never creates an instance with 0 connections or 0 requests', () => {
    for (let workers = 1; workers <= 8; workers++) {
      for (let connections = 1; connections <= 12; connections++) {
        for (const requests of [1, 2, 3, 5, 17, 100]) {
          const phase = closed(connections, { durationMs: undefined, requests });
          const jobs = closedJobs(split(phase, workers));
          expect(jobs.length).toBe(Math.min(workers, connections, requests));
          const reqs = jobs.map((j) => ('requests' in j.limit ? j.limit.requests : 0));
          expect(Math.min(...jobs.map((j) => j.connections))).toBeGreaterThan(0);
          expect(Math.min(...reqs)).toBeGreaterThan(0);
          expect(total(jobs.map((j) => j.connections))).toBe(connections);
          expect(total(reqs)).toBe(requests);
        }
      }
    }
  });

  it('copies a duration limit (the warm-up’s) to every instance, even for a request-count phase', () => {
    const phase = closed(6, { durationMs: undefined, requests: 2 });
    const jobs = closedJobs(split(phase, 3, { durationMs: 2500 }));
    // the warm-up is bounded by time: the request count does not limit the instances
    expect(jobs.map((j) => j.connections)).toEqual([2, 2, 2]);
    for (const j of jobs) expect(j.limit).toEqual({ durationMs: 2500 });
  });
});

describe('splitStage: open phases', () => {
  it.each<[string, OpenPhase, number, { n: number; connections: number[] }]>([
    ['one worker', open(200, 100), 1, { n: 1, connections: [100] }],
    ['connections default to max-in-flight, shared out', open(200, 1000), 2, { n: 2, connections: [500, 500] }],
    ['uneven shares: the first instances get one more', open(200, 10), 4, { n: 4, connections: [3, 3, 2, 2] }],
    [
      'explicit connections below max-in-flight bound the requests in flight',
      open(200, 100, { connections: 6 }),
      4,
      { n: 4, connections: [2, 2, 1, 1] },
    ],
    [
      'explicit connections above max-in-flight: max-in-flight bounds',
      open(200, 4, { connections: 6 }),
      2,
      { n: 2, connections: [2, 2] },
    ],
    ['workers never exceed max-in-flight', open(200, 2), 8, { n: 2, connections: [1, 1] }],
    ['max-in-flight 1: one instance', open(50, 1), 4, { n: 1, connections: [1] }],
    ['nor connections', open(200, 100, { connections: 3 }), 8, { n: 3, connections: [1, 1, 1] }],
    ['workers 0 still runs one instance', open(200, 10), 0, { n: 1, connections: [10] }],
  ])('%s', (_label, phase, workers, expected) => {
    const jobs = openJobs(split(phase, workers));
    expect(jobs).toHaveLength(expected.n);
    expect(jobs.map((j) => j.stride)).toEqual(Array.from({ length: expected.n }, () => expected.n));
    expect(jobs.map((j) => j.offset)).toEqual(Array.from({ length: expected.n }, (_, k) => k));
    expect(jobs.map((j) => j.connections)).toEqual(expected.connections);
    expect(total(jobs.map((j) => j.connections))).toBe(Math.min(phase.maxInFlight, phase.connections ?? Infinity));
    for (const j of jobs) {
      // every instance keeps the whole phase's rate: the stride thins it
      expect(j.rate).toBe(phase.rate);
      expect(j.durationMs).toBe(phase.durationMs);
      expect(j.startAtEpochMs).toBe(1_700_000_000_123.5);
      expect(j.connections).toBeGreaterThan(0);
      expect(j.target).toBe(load);
      expect(j.timeoutMs).toBe(5000);
    }
  });

  it('never has more instances than max-in-flight, or any with 0 connections', () => {
    for (let workers = 1; workers <= 8; workers++) {
      for (let maxInFlight = 1; maxInFlight <= 10; maxInFlight++) {
        for (const connections of [undefined, 1, 2, 5, 20]) {
          const jobs = openJobs(split(open(100, maxInFlight, { connections }), workers));
          expect(jobs.length).toBe(Math.min(workers, maxInFlight, connections ?? maxInFlight));
          expect(Math.min(...jobs.map((j) => j.connections))).toBeGreaterThan(0);
        }
      }
    }
  });

  it('uses the warm-up’s duration when the limit gives one', () => {
    const jobs = openJobs(split(open(300, 30), 3, { durationMs: 2000 }));
    expect(jobs.map((j) => j.durationMs)).toEqual([2000, 2000, 2000]);
  });

  it('uses the phase’s duration when the limit has none', () => {
    const jobs = openJobs(split(open(300, 30, { durationMs: 7000 }), 2, { requests: 5 }));
    expect(jobs.map((j) => j.durationMs)).toEqual([7000, 7000]);
  });
});

describe('splitStage: runner replicas share one split of the whole', () => {
  /** every replica's jobs for a stage, replica by replica */
  function byReplica(phase: ClosedPhase | OpenPhase, workers: number, count: number, limit?: Limit): EngineJob[][] {
    return Array.from({ length: count }, (_, index) =>
      splitStage({
        target: load,
        phase,
        limit:
          limit ??
          (phase.kind === 'closed' && phase.requests !== undefined
            ? { requests: phase.requests }
            : { durationMs: phase.durationMs as number }),
        timeoutMs: 5000,
        workers,
        startAtEpochMs: 1_700_000_000_123.5,
        replica: { index, count },
      }),
    );
  }

  it.each<[string, ClosedPhase, number, number, number[][]]>([
    ['2 replicas, 1 worker: connections halved', closed(10), 1, 2, [[5], [5]]],
    ['3 replicas, 1 worker: the first replicas get one more', closed(10), 1, 3, [[4], [3], [3]]],
    [
      '2 replicas × 2 workers: instance g in replica g mod 2',
      closed(10),
      2,
      2,
      [
        [3, 2],
        [3, 2],
      ],
    ],
    ['2 replicas × 2 workers, 3 connections', closed(3), 2, 2, [[1, 1], [1]]],
    ['replicas 1 is the split it always was', closed(10), 4, 1, [[3, 3, 2, 2]]],
  ])('closed: %s', (_label, phase, workers, count, expected) => {
    const parts = byReplica(phase, workers, count).map((jobs) => closedJobs(jobs).map((j) => j.connections));
    expect(parts).toEqual(expected);
    expect(total(parts.flat())).toBe(phase.connections);
  });

  it('closed with a request count: the replicas’ counts sum to it, none gets 0', () => {
    for (let count = 1; count <= 4; count++) {
      for (let workers = 1; workers <= 3; workers++) {
        for (const requests of [4, 5, 17, 1000]) {
          const phase = closed(8, { durationMs: undefined, requests });
          const jobs = byReplica(phase, workers, count).flat();
          const reqs = closedJobs(jobs).map((j) => ('requests' in j.limit ? j.limit.requests : 0));
          expect(total(reqs)).toBe(requests);
          expect(Math.min(...reqs)).toBeGreaterThan(0);
        }
      }
    }
  });

  it('open: the replicas interleave one schedule (strides and offsets cover 0..n-1 once), in-flight bound shared', () => {
    for (let count = 1; count <= 4; count++) {
      for (let workers = 1; workers <= 3; workers++) {
        const phase = open(1000, 100);
        const parts = byReplica(phase, workers, count).map(openJobs);
        const jobs = parts.flat();
        const n = count * workers;
        expect(jobs.map((j) => j.stride)).toEqual(jobs.map(() => n));
        expect(jobs.map((j) => j.offset).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, g) => g));
        expect(total(jobs.map((j) => j.connections))).toBe(100);
        for (const [index, own] of parts.entries()) {
          for (const j of own) expect(j.offset % count).toBe(index);
          expect(own).toHaveLength(workers);
        }
        for (const j of jobs) expect(j.startAtEpochMs).toBe(1_700_000_000_123.5);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import { stackOverride, unconverged, type StackService } from '../../src/docker/stack.js';
import { type JobSpec, LogTail, type SwarmClient, type SwarmNode, type SwarmTask } from '../../src/docker/swarm.js';
import { SwarmRunner } from '../../src/session/swarm-runner.js';
import type { ComposeModel } from '../../src/docker/compose.js';
import { createHistogram, decodeHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';
import type { TrialMeasurement } from '../../src/runner-kit/measurement.js';
import type { RequestTrial, RunnerEvent } from '../../src/runner-kit/plan.js';
import {
  judgeTasks,
  placementProblem,
  replicaName,
  replicaTrial,
  type ReplicaOutput,
  type TasksVerdict,
} from '../../src/session/replica-tasks.js';

// ---------------------------------------------------------------------------------------------
// swarm nodes and tasks

function node(id: string, hostname: string, state = 'ready', availability = 'active'): SwarmNode {
  return { id, hostname, state, availability };
}

const W1 = node('node1aaaaaaaaaaaaaaaaaaaa', 'worker-1');
const W2 = node('node2bbbbbbbbbbbbbbbbbbbb', 'worker-2');
const W3_DOWN = node('node3cccccccccccccccccccc', 'worker-3', 'down');
const NODES = [W1, W2, W3_DOWN];
const BY_ID = new Map(NODES.map((n) => [n.id, n]));

/**
 * The task of replica `slot` (swarm slot `slot + 1`: a replicated service counts from 1), id
 * `task<slot>abcdefghijklmnop`, first 12 chars `task<slot>abcdefg`.
 */
function task(slot: number | undefined, state: string, over: Partial<SwarmTask> = {}): SwarmTask {
  const t: SwarmTask = {
    id: `task${slot ?? 'x'}abcdefghijklmnop`,
    serviceId: 'svc0123456789',
    state,
    desiredState: state === 'complete' ? 'complete' : 'running',
    ...over,
  };
  if (slot !== undefined) t.slot = slot + 1;
  return t;
}

describe('replicaName', () => {
  it.each<[string, SwarmTask, string]>([
    [
      'slot, short task id and the node’s hostname',
      task(1, 'running', { nodeId: W2.id }),
      'runner replica 1 (task task1abcdefg on node worker-2)',
    ],
    [
      'swarm slot 1 is replica 0, not ?',
      task(0, 'running', { nodeId: W1.id }),
      'runner replica 0 (task task0abcdefg on node worker-1)',
    ],
    ['no slot', task(undefined, 'pending'), 'runner replica ? (task taskxabcdefg)'],
    ['not on a node yet', task(2, 'pending'), 'runner replica 2 (task task2abcdefg)'],
    [
      'a node not in the list: its id, 12 chars',
      task(1, 'running', { nodeId: 'ghostnode1234567890' }),
      'runner replica 1 (task task1abcdefg on node ghostnode123)',
    ],
    [
      'a short task id is kept whole',
      { id: 'abc', serviceId: 's', state: 'new', desiredState: 'running', slot: 3 },
      'runner replica 2 (task abc)',
    ],
  ])('%s', (_label, t, expected) => {
    expect(replicaName(t, BY_ID)).toBe(expected);
  });
});

describe('judgeTasks', () => {
  const START = 1_000_000;
  const GRACE = 5_000;
  const BEFORE = START + 1_000;
  const LATE = START + GRACE + 1_400; // 6.4 s after the start: "6s"

  const done0 = task(0, 'complete', { nodeId: W1.id, exitCode: 0 });
  const done1 = task(1, 'complete', { nodeId: W2.id, exitCode: 0 });
  const run0 = task(0, 'running', { nodeId: W1.id });
  const run1 = task(1, 'running', { nodeId: W2.id });

  it.each<[string, SwarmTask[], number, number, TasksVerdict]>([
    ['every replica complete', [done0, done1], 2, BEFORE, { state: 'complete', tasks: [done0, done1] }],
    ['every replica complete, past the grace', [done0, done1], 2, LATE, { state: 'complete', tasks: [done0, done1] }],
    [
      'a complete task on a node that went down since is no failure',
      [done0, task(1, 'complete', { nodeId: W3_DOWN.id })],
      2,
      LATE,
      { state: 'complete', tasks: [done0, task(1, 'complete', { nodeId: W3_DOWN.id })] },
    ],
    [
      'failed, with swarm’s error text',
      [done0, task(1, 'failed', { nodeId: W2.id, error: 'task: non-zero exit (3)', exitCode: 3 })],
      2,
      BEFORE,
      {
        state: 'failed',
        task: task(1, 'failed', { nodeId: W2.id, error: 'task: non-zero exit (3)', exitCode: 3 }),
        why: 'runner replica 1 (task task1abcdefg on node worker-2) failed: task: non-zero exit (3)',
      },
    ],
    [
      'failed, with an exit code only',
      [run0, task(1, 'failed', { nodeId: W2.id, exitCode: 137 })],
      2,
      BEFORE,
      {
        state: 'failed',
        task: task(1, 'failed', { nodeId: W2.id, exitCode: 137 }),
        why: 'runner replica 1 (task task1abcdefg on node worker-2) failed: exit code 137',
      },
    ],
    [
      'failed with exit code 0 still says exit code 0',
      [task(0, 'failed', { nodeId: W1.id, exitCode: 0 })],
      1,
      BEFORE,
      {
        state: 'failed',
        task: task(0, 'failed', { nodeId: W1.id, exitCode: 0 }),
        why: 'runner replica 0 (task task0abcdefg on node worker-1) failed: exit code 0',
      },
    ],
    [
      'rejected, with nothing more: the state',
      [task(0, 'rejected'), run1],
      2,
      BEFORE,
      {
        state: 'failed',
        task: task(0, 'rejected'),
        why: 'runner replica 0 (task task0abcdefg) rejected: rejected',
      },
    ],
    [
      'shut down on its node',
      [run0, task(1, 'shutdown', { nodeId: W2.id })],
      2,
      BEFORE,
      {
        state: 'failed',
        task: task(1, 'shutdown', { nodeId: W2.id }),
        why: 'runner replica 1 (task task1abcdefg on node worker-2) shutdown: shutdown',
      },
    ],
    [
      'orphaned',
      [task(0, 'orphaned', { nodeId: W1.id })],
      1,
      BEFORE,
      {
        state: 'failed',
        task: task(0, 'orphaned', { nodeId: W1.id }),
        why: 'runner replica 0 (task task0abcdefg on node worker-1) orphaned: orphaned',
      },
    ],
    [
      'running on a node that is down',
      [done0, task(1, 'running', { nodeId: W3_DOWN.id })],
      2,
      BEFORE,
      {
        state: 'failed',
        task: task(1, 'running', { nodeId: W3_DOWN.id }),
        why: 'runner replica 1 (task task1abcdefg on node worker-3): its node is down (the replica died with it)',
      },
    ],
    [
      'running on a node no longer in the swarm',
      [done0, task(1, 'running', { nodeId: 'ghostnode1234567890' })],
      2,
      BEFORE,
      {
        state: 'failed',
        task: task(1, 'running', { nodeId: 'ghostnode1234567890' }),
        why: 'runner replica 1 (task task1abcdefg on node ghostnode123): its node is gone (the replica died with it)',
      },
    ],
    [
      'assigned to a node that is down',
      [task(0, 'assigned', { nodeId: W3_DOWN.id })],
      1,
      BEFORE,
      {
        state: 'failed',
        task: task(0, 'assigned', { nodeId: W3_DOWN.id }),
        why: 'runner replica 0 (task task0abcdefg on node worker-3): its node is down (the replica died with it)',
      },
    ],
    [
      'a failure is found before a dead node, whatever the order',
      [task(0, 'running', { nodeId: W3_DOWN.id }), task(1, 'failed', { nodeId: W2.id, error: 'boom' })],
      2,
      BEFORE,
      {
        state: 'failed',
        task: task(1, 'failed', { nodeId: W2.id, error: 'boom' }),
        why: 'runner replica 1 (task task1abcdefg on node worker-2) failed: boom',
      },
    ],
    [
      'still pending past the grace: missing, with swarm’s error',
      [run0, task(1, 'pending', { error: 'no suitable node (max replicas per node limit exceed)' })],
      2,
      LATE,
      {
        state: 'failed',
        task: task(1, 'pending', { error: 'no suitable node (max replicas per node limit exceed)' }),
        why: 'runner replica 1 (task task1abcdefg) missing: still pending 6s after the common start (no suitable node (max replicas per node limit exceed))',
      },
    ],
    [
      'still preparing past the grace, no error',
      [task(0, 'preparing', { nodeId: W1.id }), run1],
      2,
      START + 20_000,
      {
        state: 'failed',
        task: task(0, 'preparing', { nodeId: W1.id }),
        why: 'runner replica 0 (task task0abcdefg on node worker-1) missing: still preparing 20s after the common start',
      },
    ],
    [
      'fewer tasks than replicas past the grace',
      [run0],
      3,
      LATE,
      { state: 'failed', why: 'runner replicas missing: 2 of 3 never got a task' },
    ],
    ['pending before the grace: waiting', [task(0, 'pending'), task(1, 'pending')], 2, BEFORE, { state: 'waiting' }],
    ['no task yet, before the grace: waiting', [], 2, BEFORE, { state: 'waiting' }],
    [
      'one running, one starting: running',
      [run0, task(1, 'starting', { nodeId: W2.id })],
      2,
      BEFORE,
      { state: 'running' },
    ],
    ['one complete, one running: running', [done0, run1], 2, LATE, { state: 'running' }],
    ['fewer tasks than replicas before the grace: running', [run0], 2, BEFORE, { state: 'running' }],
    [
      'pending exactly at the end of the grace is not yet late',
      [task(0, 'pending')],
      1,
      START + GRACE,
      { state: 'waiting' },
    ],
    [
      'pending 1 ms after the grace is late',
      [task(0, 'pending')],
      1,
      START + GRACE + 1,
      {
        state: 'failed',
        task: task(0, 'pending'),
        why: 'runner replica 0 (task task0abcdefg) missing: still pending 5s after the common start',
      },
    ],
  ])('%s', (_label, tasks, replicas, now, expected) => {
    const verdict = judgeTasks(tasks, NODES, replicas, now, START, GRACE);
    expect(verdict).toStrictEqual(expected);
  });

  it('reports the failed task object itself', () => {
    const bad = task(1, 'failed', { nodeId: W2.id, error: 'x' });
    const verdict = judgeTasks([run0, bad], NODES, 2, BEFORE, START, GRACE);
    expect(verdict.state === 'failed' && verdict.task).toBe(bad);
  });
});

describe('placementProblem', () => {
  const ready = (id: string) => node(id, id);
  it.each<[string, SwarmNode[], number, number | undefined, string | undefined]>([
    ['no nodes at all', [], 2, undefined, 'the swarm has no ready, active node to run runner replicas on'],
    [
      'drained, paused and down nodes are not usable',
      [node('a', 'a', 'ready', 'drain'), node('b', 'b', 'ready', 'pause'), node('c', 'c', 'down', 'active')],
      1,
      undefined,
      'the swarm has no ready, active node to run runner replicas on',
    ],
    [
      'one usable node, max-per-node 1, 2 replicas',
      [ready('a'), node('b', 'b', 'ready', 'drain')],
      2,
      1,
      "runner.placement.max-per-node: 1 on each of the swarm's 1 ready, active node holds 1 runner replicas, not runner.replicas 2",
    ],
    [
      'drained/paused/down nodes do not count toward max-per-node',
      [
        ready('a'),
        ready('b'),
        node('c', 'c', 'ready', 'drain'),
        node('d', 'd', 'ready', 'pause'),
        node('e', 'e', 'down'),
      ],
      5,
      2,
      "runner.placement.max-per-node: 2 on each of the swarm's 2 ready, active nodes holds 4 runner replicas, not runner.replicas 5",
    ],
    ['exactly enough', [ready('a'), ready('b')], 4, 2, undefined],
    ['more than enough', [ready('a'), ready('b'), ready('c')], 4, 2, undefined],
    ['no max-per-node: any number of replicas fits', [ready('a')], 64, undefined, undefined],
  ])('%s', (_label, nodes, replicas, maxPerNode, expected) => {
    expect(placementProblem(nodes, replicas, maxPerNode)).toBe(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// replicaTrial: real histograms and runner events

function histogramOf(latencies: readonly number[]): string {
  const h = createHistogram();
  for (const v of latencies) recordUs(h, v);
  const out = encodeHistogram(h);
  h.destroy();
  return out;
}

function measurement(latencies: readonly number[], over: Partial<TrialMeasurement> = {}): TrialMeasurement {
  return {
    trial: 1,
    durationMs: 1000,
    sent: latencies.length,
    responses: latencies.length,
    successes: latencies.length,
    failures: 0,
    statusCodes: { '200': latencies.length },
    errors: {},
    rps: latencies.length,
    bytesPerSec: 0,
    latency: { count: 0, min: 0, mean: 0, p10: 0, p25: 0, p50: 0, p75: 0, p90: 0, p95: 0, p99: 0, 'p99.9': 0, max: 0 },
    connectionCloses: 0,
    generator: { cpuPct: 10, eventLoopDelayP99Us: 100, eventLoopDelayMaxUs: 200, threads: 1, cores: 1 },
    ...over,
  };
}

function entry(name: string, latencies: readonly number[]): RequestTrial {
  return { name, measurement: measurement(latencies), histogram: histogramOf(latencies) };
}

interface ReplicaSpec {
  index: number;
  latencies: number[];
  measureAt?: number;
  requests?: RequestTrial[];
  over?: Partial<TrialMeasurement>;
}

function replicaEvents({ index, latencies, measureAt = 5_000, requests, over }: ReplicaSpec): RunnerEvent[] {
  const at = { scenario: 'api', phase: 'steady', trial: 1, trials: 1 };
  return [
    { t: 'hello', node: 'v22.0.0', replica: index, host: `host-${index}` },
    { t: 'ready' },
    { t: 'stage', ...at, stage: 'warmup', atEpochMs: measureAt - 1000 - index * 100 },
    { t: 'stage', ...at, stage: 'measure', atEpochMs: measureAt },
    {
      t: 'trial',
      scenario: 'api',
      phase: 'steady',
      measurement: measurement(latencies, over),
      histogram: histogramOf(latencies),
      ...(requests ? { requests } : {}),
    },
    { t: 'done' },
  ];
}

const T0 = task(0, 'complete', { nodeId: W1.id });
const T1 = task(1, 'complete', { nodeId: W2.id });
const NAME1 = 'runner replica 1 (task task1abcdefg on node worker-2)';

function out(t: SwarmTask, events: RunnerEvent[]): ReplicaOutput {
  return { task: t, events };
}

describe('replicaTrial: the replicas’ outputs as one trial', () => {
  const r0 = (): ReplicaOutput =>
    out(
      T0,
      replicaEvents({
        index: 0,
        latencies: [1000, 1000, 1000],
        measureAt: 1_700_000_000_010,
        over: { statusCodes: { '200': 2, '503': 1 }, successes: 2, failures: 1 },
        requests: [entry('list', [1000, 1000]), entry('get', [1000])],
      }),
    );
  const r1 = (): ReplicaOutput =>
    out(
      T1,
      replicaEvents({
        index: 1,
        latencies: [2000, 2000],
        measureAt: 1_700_000_000_013.5,
        over: { durationMs: 1250 },
        // its entries in another order: matched by name, merged in replica 0's order
        requests: [entry('get', [2000]), entry('list', [2000])],
      }),
    );

  it.each<[string, () => ReplicaOutput[]]>([
    ['in index order', () => [r0(), r1()]],
    ['given in reverse order', () => [r1(), r0()]],
  ])('merges two replicas %s', (_label, outputs) => {
    const { trial, scenario, phase } = replicaTrial(outputs(), NODES, 2);
    expect(scenario).toBe('api');
    expect(phase).toBe('steady');
    const m = trial.measurement;
    expect({
      sent: m.sent,
      responses: m.responses,
      successes: m.successes,
      failures: m.failures,
      statusCodes: m.statusCodes,
      durationMs: m.durationMs,
      rps: m.rps,
      replicas: m.replicas,
    }).toStrictEqual({
      sent: 5,
      responses: 5,
      successes: 4,
      failures: 1,
      statusCodes: { '200': 4, '503': 1 },
      durationMs: 1250,
      rps: 4,
      replicas: { count: 2, startSkewMs: 3.5 },
    });
    expect({ count: m.latency.count, min: m.latency.min, max: m.latency.max }).toStrictEqual({
      count: 5,
      min: 1000,
      max: 2000,
    });
    const h = decodeHistogram(trial.histogram);
    try {
      expect(h.totalCount).toBe(5);
      expect(h.minNonZeroValue).toBe(1000);
      expect(h.maxValue).toBe(2000);
    } finally {
      h.destroy();
    }
    expect(
      trial.requests?.map((r) => ({
        name: r.name,
        responses: r.measurement.responses,
        count: r.measurement.latency.count,
        max: r.measurement.latency.max,
      })),
    ).toStrictEqual([
      { name: 'list', responses: 3, count: 3, max: 2000 },
      { name: 'get', responses: 2, count: 2, max: 2000 },
    ]);
  });

  it('one replica: start skew 0, its own counts', () => {
    const { trial } = replicaTrial([out(T0, replicaEvents({ index: 0, latencies: [500, 700] }))], NODES, 1);
    expect(trial.measurement.replicas).toStrictEqual({ count: 1, startSkewMs: 0 });
    expect(trial.measurement.responses).toBe(2);
    expect(trial.measurement.latency.count).toBe(2);
    expect(trial.requests).toBeUndefined();
  });

  it('the start skew is the spread of the measure stages, not the warm-ups', () => {
    const three = [
      out(T0, replicaEvents({ index: 0, latencies: [1000], measureAt: 10_000 })),
      out(T1, replicaEvents({ index: 1, latencies: [1000], measureAt: 10_002.25 })),
      out(task(2, 'complete', { nodeId: W1.id }), replicaEvents({ index: 2, latencies: [1000], measureAt: 9_999 })),
    ];
    expect(replicaTrial(three, NODES, 3).trial.measurement.replicas).toStrictEqual({ count: 3, startSkewMs: 3.25 });
  });

  const good0 = () => out(T0, replicaEvents({ index: 0, latencies: [1000] }));
  const good1 = () => out(T1, replicaEvents({ index: 1, latencies: [1000] }));
  const without = (events: RunnerEvent[], t: RunnerEvent['t']) => events.filter((e) => e.t !== t);

  it.each<[string, () => ReplicaOutput[], number, string]>([
    [
      'a fatal event',
      () => [
        good0(),
        out(T1, [
          { t: 'hello', node: 'v22', replica: 1 },
          { t: 'fatal', message: 'late by 120 ms' },
        ]),
      ],
      2,
      `${NAME1} failed: late by 120 ms`,
    ],
    [
      'a fatal event wins over a trial it also reported',
      () => [good0(), out(T1, [...replicaEvents({ index: 1, latencies: [1] }), { t: 'fatal', message: 'boom' }])],
      2,
      `${NAME1} failed: boom`,
    ],
    [
      'the SUT never ready',
      () => [
        good0(),
        out(T1, [
          { t: 'hello', node: 'v22', replica: 1 },
          { t: 'not-ready', url: 'http://sut:8080/health', error: 'ECONNREFUSED', timeoutMs: 30_000 },
        ]),
      ],
      2,
      `${NAME1}: SUT never ready: http://sut:8080/health (last: ECONNREFUSED)`,
    ],
    [
      'no hello',
      () => [good0(), out(T1, without(replicaEvents({ index: 1, latencies: [1] }), 'hello'))],
      2,
      `${NAME1} did not say which replica it is`,
    ],
    [
      'a hello without a replica index',
      () => [
        good0(),
        out(T1, [{ t: 'hello', node: 'v22' }, ...without(replicaEvents({ index: 1, latencies: [1] }), 'hello')]),
      ],
      2,
      `${NAME1} did not say which replica it is`,
    ],
    [
      'an index equal to the count',
      () => [good0(), out(T1, replicaEvents({ index: 2, latencies: [1] }))],
      2,
      `${NAME1} did not say which replica it is`,
    ],
    [
      'two replicas claim index 0: the second is named',
      () => [good0(), out(T1, replicaEvents({ index: 0, latencies: [1] }))],
      2,
      `${NAME1} took replica 0's share, which another replica ran too`,
    ],
    [
      'no trial event',
      () => [good0(), out(T1, without(replicaEvents({ index: 1, latencies: [1] }), 'trial'))],
      2,
      `${NAME1} ended without reporting its trial`,
    ],
    [
      'a trial but no done',
      () => [good0(), out(T1, without(replicaEvents({ index: 1, latencies: [1] }), 'done'))],
      2,
      `${NAME1} ended without reporting its trial`,
    ],
    [
      'no measured stage: the start skew cannot be known',
      () => [good0(), out(T1, without(replicaEvents({ index: 1, latencies: [1] }), 'stage'))],
      2,
      `${NAME1} did not say when its measured stage started`,
    ],
    ['replica 1 missing', () => [good0()], 2, 'runner replica 1 reported nothing'],
    ['replica 0 missing', () => [good1()], 2, 'runner replica 0 reported nothing'],
    ['no outputs at all', () => [], 2, 'runner replica 0 reported nothing'],
  ])('throws naming the replica: %s', (_label, outputs, count, message) => {
    expect(() => replicaTrial(outputs(), NODES, count)).toThrow(new Error(message));
  });
});

// ---------------------------------------------------------------------------------------------
// stack.ts

describe('stackOverride', () => {
  const labels = { 'perf-gate.run-id': 'r1', 'perf-gate.managed': 'true' };
  it.each<[string, ComposeModel, Record<string, unknown>]>([
    [
      'services labelled under deploy.labels; own networks labelled, external ones not',
      {
        services: { api: { image: 'api:1' }, db: { image: 'postgres:16' } },
        networks: { backend: {}, default: null, shared: { external: true } },
      },
      {
        version: '3.8',
        services: { api: { deploy: { labels } }, db: { deploy: { labels } } },
        networks: { backend: { labels }, default: { labels } },
      },
    ],
    [
      'no networks in the model: no networks key',
      { services: { api: {} } },
      { version: '3.8', services: { api: { deploy: { labels } } } },
    ],
    [
      'only external networks: no networks key',
      { services: { api: {} }, networks: { outside: { external: true } } },
      { version: '3.8', services: { api: { deploy: { labels } } } },
    ],
    ['an empty networks map: no networks key', { services: {}, networks: {} }, { version: '3.8', services: {} }],
  ])('%s', (_label, model, expected) => {
    expect(stackOverride(model, labels)).toStrictEqual(expected);
  });
});

describe('unconverged', () => {
  it.each<[string, StackService[], string[]]>([
    ['all running', [{ name: 'api', running: 2, desired: 2 }], []],
    ['more running than desired (an update)', [{ name: 'api', running: 3, desired: 2 }], []],
    ['none', [], []],
    [
      'short of desired, with and without an error; desired 0',
      [
        { name: 'api', running: 1, desired: 2, error: 'no suitable node (insufficient resources on 1 node)' },
        { name: 'db', running: 1, desired: 1 },
        { name: 'cache', running: 0, desired: 1 },
        { name: 'idle', running: 0, desired: 0 },
      ],
      [
        'service api: 1/2 tasks running (no suitable node (insufficient resources on 1 node))',
        'service cache: 0/1 tasks running',
        'service idle: 0/0 tasks running',
      ],
    ],
  ])('%s', (_label, services, expected) => {
    expect(unconverged(services)).toStrictEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// swarm.ts: LogTail

function frame(stream: number, text: string | Buffer): Buffer {
  const body = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

describe('LogTail: a task log read as it streams, bounded', () => {
  /** feeds `body` cut into pieces of `step` bytes */
  function fed(maxBytes: number, body: Buffer, step = body.length): LogTail {
    const t = new LogTail(maxBytes);
    for (let at = 0; at < body.length; at += step) t.feed(body.subarray(at, at + step));
    return t;
  }

  it('splits the streams into lines, however the body is cut', () => {
    const body = Buffer.concat([frame(1, 'a\nb'), frame(2, 'oops\n'), frame(1, 'c\n'), frame(1, 'd')]);
    for (let step = 1; step <= body.length; step++) {
      expect(fed(1000, body, step).result()).toEqual({ stdout: ['a', 'bc', 'd'], stderr: ['oops'] });
    }
  });

  it('keeps the last lines within the bound: the trial, written last, survives a flood before it', () => {
    const flood = Array.from({ length: 1000 }, (_, i) => `noise ${i}`).join('\n');
    const body = Buffer.concat([
      frame(1, `${flood}\n`),
      frame(1, '@@perf-gate {"t":"trial"}\n@@perf-gate {"t":"done"}\n'),
    ]);
    const { stdout } = fed(100, body, 7).result();
    expect(stdout.slice(-2)).toEqual(['@@perf-gate {"t":"trial"}', '@@perf-gate {"t":"done"}']);
    expect(stdout.join('').length).toBeLessThanOrEqual(100);
  });

  const euro = Buffer.from('€', 'utf8'); // 3 bytes
  it.each<[string, Buffer, { stdout: string[]; stderr: string[]; error?: string }]>([
    ['an empty body', Buffer.alloc(0), { stdout: [], stderr: [] }],
    [
      'stdout and stderr frames interleaved',
      Buffer.concat([frame(1, 'a\n'), frame(2, 'E1\n'), frame(1, 'b\n'), frame(2, 'E2\n'), frame(1, 'c')]),
      { stdout: ['a', 'b', 'c'], stderr: ['E1', 'E2'] },
    ],
    [
      'a last header shorter than 8 bytes',
      Buffer.concat([frame(1, 'x\n'), frame(2, 'y\n'), Buffer.from([2, 0, 0, 0, 0])]),
      { stdout: ['x'], stderr: ['y'], error: 'the log ended inside a frame' },
    ],
    [
      'only a partial header',
      Buffer.from([1, 0, 0]),
      { stdout: [], stderr: [], error: 'the log ended inside a frame' },
    ],
    ['an empty frame', Buffer.concat([frame(1, ''), frame(2, 'z')]), { stdout: [], stderr: ['z'] }],
    [
      'a character split across two frames of one stream is whole',
      Buffer.concat([
        frame(1, euro.subarray(0, 1)),
        frame(2, 'e'),
        frame(1, Buffer.concat([euro.subarray(1), Buffer.from('\n')])),
      ]),
      { stdout: ['€'], stderr: ['e'] },
    ],
  ])('%s', (_label, body, expected) => {
    for (let step = 1; step <= Math.max(1, body.length); step++) {
      expect(fed(1000, body, step).result()).toStrictEqual(expected);
    }
  });

  it('reports the engine’s own complaint (stream 3), a frame cut off, and a read cut short', () => {
    expect(fed(100, Buffer.concat([frame(1, 'a\n'), frame(3, 'incomplete log stream\n')])).result()).toEqual({
      stdout: ['a'],
      stderr: [],
      error: 'incomplete log stream',
    });
    expect(fed(100, frame(1, 'abcdef').subarray(0, 10)).result().error).toBe('the log ended inside a frame');
    expect(fed(100, frame(1, 'a\n')).result('reading it took more than 30s')).toEqual({
      stdout: ['a'],
      stderr: [],
      error: 'reading it took more than 30s',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// SwarmRunner against a fake swarm: what a trial creates, hands on and removes, on success and failure

class FakeSwarm implements SwarmClient {
  calls: string[] = [];
  polls = 0;
  constructor(
    private readonly script: {
      /** the tasks on each poll (the last repeats) */
      tasks: SwarmTask[][];
      logs: Record<string, RunnerEvent[]>;
      createJobFails?: boolean;
    },
  ) {}
  manager = () => Promise.resolve({ nodeId: W1.id, clockOffsetMs: 0 });
  createConfig = (name: string) => {
    this.calls.push(`config ${name}`);
    return Promise.resolve(`id-${name}`);
  };
  createJob = (spec: JobSpec) => {
    this.calls.push(`service ${spec.name} ×${spec.replicas} env ${spec.env.join(' ')}`);
    if (this.script.createJobFails) return Promise.reject(new Error('docker swarm: creating service: no such network'));
    return Promise.resolve('svc1');
  };
  tasks = () => {
    const list = this.script.tasks[Math.min(this.polls, this.script.tasks.length - 1)] ?? [];
    this.polls++;
    return Promise.resolve(list);
  };
  nodes = () => Promise.resolve([W1, W2]);
  taskLogs = (taskId: string) =>
    Promise.resolve({
      stdout: (this.script.logs[taskId] ?? []).map((e) => `@@perf-gate ${JSON.stringify(e)}`),
      stderr: [],
    });
  removeService = (id: string) => {
    this.calls.push(`rm service ${id}`);
    return Promise.resolve();
  };
  removeConfig = (id: string) => {
    this.calls.push(`rm config ${id}`);
    return Promise.resolve();
  };
  sweep = () => Promise.resolve([]);
}

function runnerOn(swarm: FakeSwarm, events: RunnerEvent[]) {
  return SwarmRunner.start(
    {
      swarm,
      runId: 'r1',
      labels: { 'dev.perf-gate.run-id': 'r1' },
      networks: ['perfgate-r1_default'],
      image: 'node:22-slim',
      replicas: 2,
      script: 'x',
      plan: { version: 1, progressIntervalMs: 1000, requestTimeoutMs: 1000, ready: [], scenarios: [] },
      prefix: '',
      leadMs: 0,
      graceMs: 60_000,
      pollMs: 1,
      deadlineMs: () => 60_000,
      crashed: () => Promise.resolve(undefined),
      now: () => 1_000,
      log: () => {},
    },
    (e) => events.push(e),
  );
}

const TRIAL = { scenario: 'api', phase: 'steady', trial: 1, trials: 1 };

describe('SwarmRunner: one service per trial', () => {
  it('creates the script once, a plan and a service per trial, hands on one merged trial, removes both', async () => {
    const swarm = new FakeSwarm({
      tasks: [
        [task(0, 'running', { nodeId: W1.id }), task(1, 'running', { nodeId: W2.id })],
        [T0, T1],
      ],
      logs: {
        [T0.id]: replicaEvents({ index: 0, latencies: [1000, 1000] }),
        [T1.id]: replicaEvents({ index: 1, latencies: [3000] }),
      },
    });
    const events: RunnerEvent[] = [];
    const runner = await runnerOn(swarm, events);
    await runner.trial(TRIAL);
    await runner.end();
    expect(swarm.calls).toEqual([
      'config perfgate-r1-runner-script',
      'config perfgate-r1-plan-1',
      'service perfgate-r1-runner-1 ×2 env NODE_ENV=production PERF_GATE_REPLICA= JOB_COMPLETION_INDEX= PERF_GATE_SWARM_SLOT={{.Task.Slot}}',
      'rm service svc1',
      'rm config id-perfgate-r1-plan-1',
      'rm config id-perfgate-r1-runner-script',
    ]);
    const trial = events.find((e): e is Extract<RunnerEvent, { t: 'trial' }> => e.t === 'trial');
    expect(trial?.measurement.responses).toBe(3);
    expect(trial?.measurement.replicas).toEqual({ count: 2, startSkewMs: 0 });
    expect(events.map((e) => e.t)).toEqual(['ready', 'stage', 'trial']);
  });

  it('a failed replica fails the trial naming it; the service and plan are removed; the next trial is refused', async () => {
    const swarm = new FakeSwarm({
      tasks: [[T0, task(1, 'failed', { nodeId: W2.id, error: 'task: non-zero exit (137)', exitCode: 137 })]],
      logs: {},
    });
    const runner = await runnerOn(swarm, []);
    await expect(runner.trial(TRIAL)).rejects.toThrow(
      'runner replica 1 (task task1abcdefg on node worker-2) failed: task: non-zero exit (137)',
    );
    expect(swarm.calls.slice(-2)).toEqual(['rm service svc1', 'rm config id-perfgate-r1-plan-1']);
    await expect(runner.trial(TRIAL)).rejects.toThrow('non-zero exit (137)');
    await runner.end();
    expect(swarm.calls.at(-1)).toBe('rm config id-perfgate-r1-runner-script');
  });

  it('a service that cannot be created: its plan config is removed all the same', async () => {
    const swarm = new FakeSwarm({ tasks: [[]], logs: {}, createJobFails: true });
    const runner = await runnerOn(swarm, []);
    await expect(runner.trial(TRIAL)).rejects.toThrow('no such network');
    expect(swarm.calls.slice(-1)).toEqual(['rm config id-perfgate-r1-plan-1']);
    await runner.cleanup();
    expect(swarm.calls.at(-1)).toBe('rm config id-perfgate-r1-runner-script');
  });
});

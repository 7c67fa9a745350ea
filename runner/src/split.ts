// Pure: one stage of a phase (a warm-up or a measured run) split over the engine instances of every
// runner: runner.workers threads in each of runner.replicas replicas (one replica unless the load is
// distributed). Connections, request counts and max-in-flight are shared out as evenly as whole
// numbers allow over all instances; an open-loop rate is interleaved (instance g of n owns sends g,
// g+n, ...), so together the instances keep one evenly spaced schedule. Instance g runs in replica
// g mod replicas, so a replica's share never differs from another's by more than one instance's.
import { openLoopLimits, type Phase, type PlanTarget } from '../../src/runner-kit/plan.js';
import type { Ramp } from '../../src/runner-kit/ramp.js';
import type { ConnectionRamp } from './closed-loop.js';

export type Limit = { durationMs: number } | { requests: number };

/** One engine instance's part of a stage, on the scenario's target (the engine its kind names). */
export type EngineJob<T extends PlanTarget = PlanTarget> =
  | {
      kind: 'closed';
      target: T;
      /** a fixed count, or this instance's share of a ramp (`stages`) */
      connections: number | ConnectionRamp;
      limit: Limit;
      timeoutMs: number;
      /** requests each connection keeps in flight (1: no pipelining) */
      pipelining?: number;
      /** HTTP/2: requests each connection keeps in flight as streams (1: one) */
      streams?: number;
      /** this instance is k of n (its data rows) */
      stride: number;
      offset: number;
    }
  | {
      kind: 'open';
      target: T;
      rate: number;
      /** `stages`: the rate follows this ramp (rate is its peak) */
      ramp?: Ramp;
      durationMs: number;
      stride: number;
      offset: number;
      /** this instance's bound on requests in flight (without streams, also its connections) */
      connections: number;
      /** HTTP/2: requests per connection as streams, and this instance's connections at most */
      streams?: { perConnection: number; connections: number };
      /** when the schedule starts, ms since the epoch (performance.timeOrigin + now), same for all */
      startAtEpochMs: number;
      timeoutMs: number;
    };

/** Instance k's share of `total` split n ways (the first total % n instances get one more). */
export function share(total: number, n: number, k: number): number {
  return Math.floor(total / n) + (k < total % n ? 1 : 0);
}

export interface StageSpec<T extends PlanTarget = PlanTarget> {
  target: T;
  phase: Phase;
  /** the stage's limit: the warm-up's or the phase's duration, or the phase's request count */
  limit: Limit;
  timeoutMs: number;
  workers: number;
  startAtEpochMs: number;
  /** this runner's place among the replicas sharing the load (absent: the only runner) */
  replica?: ReplicaSlot;
}

/** A runner replica: its index (0-based) among `count` replicas. */
export interface ReplicaSlot {
  index: number;
  count: number;
}

/** The instances (of `n` over all replicas) this replica runs: g ≡ index (mod count). */
function ownInstances(n: number, replica: ReplicaSlot | undefined): number[] {
  const { index, count } = replica ?? { index: 0, count: 1 };
  const out: number[] = [];
  for (let g = index; g < n; g += count) out.push(g);
  return out;
}

export function splitStage<T extends PlanTarget>(spec: StageSpec<T>): EngineJob<T>[] {
  const { phase, target, timeoutMs, limit } = spec;
  const instances = spec.workers * (spec.replica?.count ?? 1);
  const jobs: EngineJob<T>[] = [];
  if (phase.kind === 'closed') {
    const n = Math.max(1, Math.min(instances, phase.connections, 'requests' in limit ? limit.requests : Infinity));
    for (const k of ownInstances(n, spec.replica)) {
      const part: Limit = 'requests' in limit ? { requests: share(limit.requests, n, k) } : limit;
      const connections = phase.ramp ? { ramp: phase.ramp, stride: n, offset: k } : share(phase.connections, n, k);
      jobs.push({
        kind: 'closed',
        target,
        connections,
        limit: part,
        timeoutMs,
        stride: n,
        offset: k,
        ...(phase.pipelining ? { pipelining: phase.pipelining } : {}),
        ...(phase.streams ? { streams: phase.streams } : {}),
      });
    }
    return jobs;
  }
  if (phase.kind === 'ws') throw new Error('WebSocket phases run in one engine (runner/src/ws.ts)');
  const durationMs = 'durationMs' in limit ? limit.durationMs : phase.durationMs;
  const { inFlight, connections } = openLoopLimits(phase);
  const n = Math.max(1, Math.min(instances, inFlight));
  for (const k of ownInstances(n, spec.replica)) {
    jobs.push({
      kind: 'open',
      target,
      rate: phase.rate,
      ...(phase.ramp ? { ramp: phase.ramp } : {}),
      durationMs,
      stride: n,
      offset: k,
      connections: share(inFlight, n, k),
      ...(phase.streams
        ? { streams: { perConnection: phase.streams, connections: Math.max(1, share(connections, n, k)) } }
        : {}),
      startAtEpochMs: spec.startAtEpochMs,
      timeoutMs,
    });
  }
  return jobs;
}

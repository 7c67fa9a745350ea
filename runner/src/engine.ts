// One engine instance running one job, in whatever thread it is called from: HTTP on the socket
// engine, or gRPC calls when the scenario is a gRPC one.
import { type ConnectionRamp, runClosed } from './closed-loop.js';
import { runGrpcClosed, runGrpcOpen } from './grpc.js';
import { runOpen } from './open-loop.js';
import type { ScheduleOptions } from './schedule.js';
import type { EngineJob } from './split.js';
import type { EngineTally } from './tally.js';

export interface EngineRun {
  /** responses so far, for progress */
  responses(): number;
  done: Promise<EngineTally>;
}

/** An open-loop job's schedule on this thread's clock. */
function scheduleOf(job: Extract<EngineJob, { kind: 'open' }>): ScheduleOptions {
  return {
    // the epoch is shared by all threads; each thread's performance clock has its own origin
    startAt: job.startAtEpochMs - performance.timeOrigin,
    rate: job.rate,
    ramp: job.ramp,
    durationMs: job.durationMs,
    stride: job.stride,
    offset: job.offset,
  };
}

/** gRPC closed loops have no ramp (the config refuses connection stages in a gRPC scenario). */
function fixed(connections: number | ConnectionRamp): number {
  if (typeof connections !== 'number') throw new Error('a gRPC closed loop cannot ramp its channels');
  return connections;
}

export function startEngine(job: EngineJob): EngineRun {
  const g = job.load.grpc;
  const run = g
    ? job.kind === 'closed'
      ? runGrpcClosed(g, fixed(job.connections), job.limit)
      : runGrpcOpen({ grpc: g, schedule: scheduleOf(job), inFlight: job.connections, timeoutMs: g.deadlineMs })
    : job.kind === 'closed'
      ? runClosed(job.load, job.connections, job.limit, job.timeoutMs, job.pipelining)
      : runOpen({ load: job.load, schedule: scheduleOf(job), connections: job.connections, timeoutMs: job.timeoutMs });
  return { responses: () => run.recorder.responses, done: run.done };
}

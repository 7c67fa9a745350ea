// One engine instance running one job, in whatever thread it is called from: HTTP on the socket
// engine, or gRPC calls when the scenario is a gRPC one.
import { runClosed } from './closed-loop.js';
import { runGrpcClosed, runGrpcOpen } from './grpc.js';
import { runOpen } from './open-loop.js';
import type { EngineJob } from './split.js';
import type { EngineTally } from './tally.js';

export interface EngineRun {
  /** responses so far, for progress */
  responses(): number;
  done: Promise<EngineTally>;
}

export function startEngine(job: EngineJob): EngineRun {
  const g = job.load.grpc;
  if (g) {
    const run =
      job.kind === 'closed'
        ? runGrpcClosed(g, job.connections, job.limit)
        : runGrpcOpen({
            grpc: g,
            schedule: {
              startAt: job.startAtEpochMs - performance.timeOrigin,
              rate: job.rate,
              durationMs: job.durationMs,
              stride: job.stride,
              offset: job.offset,
            },
            inFlight: job.connections,
            timeoutMs: g.deadlineMs,
          });
    return { responses: () => run.recorder.responses, done: run.done };
  }
  if (job.kind === 'closed') {
    const run = runClosed(job.load, job.connections, job.limit, job.timeoutMs);
    return { responses: () => run.recorder.responses, done: run.done };
  }
  const run = runOpen({
    load: job.load,
    schedule: {
      // the epoch is shared by all threads; each thread's performance clock has its own origin
      startAt: job.startAtEpochMs - performance.timeOrigin,
      rate: job.rate,
      durationMs: job.durationMs,
      stride: job.stride,
      offset: job.offset,
    },
    connections: job.connections,
    timeoutMs: job.timeoutMs,
  });
  return { responses: () => run.recorder.responses, done: run.done };
}

// gRPC unary calls (runner/src/grpc.ts) on the HTTP/2 client, in closed or open loop like HTTP requests.
import type { PlanGrpcTarget } from '../../../src/runner-kit/plan.js';
import type { ConnectionRamp } from '../closed-loop.js';
import { runGrpcClosed, runGrpcOpen } from '../grpc.js';
import { type Engine, pooledStage, scheduleOf } from './engine.js';

/** gRPC closed loops have no ramp (the config refuses connection stages in a gRPC scenario). */
function fixed(connections: number | ConnectionRamp): number {
  if (typeof connections !== 'number') throw new Error('a gRPC closed loop cannot ramp its channels');
  return connections;
}

export const grpcEngine: Engine<PlanGrpcTarget> = {
  stage: pooledStage,
  run(job) {
    const g = job.target.grpc;
    const run =
      job.kind === 'closed'
        ? runGrpcClosed(g, fixed(job.connections), job.limit, job.timeoutMs)
        : runGrpcOpen({ grpc: g, schedule: scheduleOf(job), inFlight: job.connections, timeoutMs: g.deadlineMs });
    return { responses: () => run.recorder.responses, done: run.done };
  },
  entries: () => [],
};

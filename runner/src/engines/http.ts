// HTTP requests on the socket engine (HTTP/1.1, or HTTP/2 with `http: 2`): one request or a mix, in closed or open loop.
import { ITERATION_ENTRY, type PlanHttp } from '../../../src/runner-kit/plan.js';
import { runClosed } from '../closed-loop.js';
import { runOpen } from '../open-loop.js';
import { type Engine, pooledStage, scheduleOf } from './engine.js';

export const httpEngine: Engine<PlanHttp> = {
  stage: pooledStage,
  run(job) {
    const run =
      job.kind === 'closed'
        ? runClosed(job.target, job.connections, job.limit, job.timeoutMs, job.pipelining ?? job.streams ?? 1, {
            offset: job.offset,
            stride: job.stride,
          })
        : runOpen({
            load: job.target,
            schedule: scheduleOf(job),
            connections: job.connections,
            streams: job.streams,
            timeoutMs: job.timeoutMs,
            instance: { offset: job.offset, stride: job.stride },
          });
    return { responses: () => run.recorder.responses, done: run.done };
  },
  entries: (target) =>
    target.mix ? [...target.mix.map((e) => e.name), ...(target.flow ? [ITERATION_ENTRY] : [])] : [],
};

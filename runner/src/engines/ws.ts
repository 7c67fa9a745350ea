// WebSocket peers (runner/src/ws.ts): a phase runs in one engine, on the runner's main thread.
import { type PlanWs, wsEntries } from '../../../src/runner-kit/plan.js';
import { runWs, type WsJob } from '../ws.js';
import type { Engine } from './engine.js';

export const wsEngine: Engine<PlanWs> = {
  stage(target, phase, ctx) {
    if (phase.kind !== 'ws') throw new Error(`phase ${phase.name}: a WebSocket scenario runs WebSocket phases only`);
    // peers push to one another: split over replicas, a push would cross runners (the host refuses it too)
    if ((ctx.replica?.count ?? 1) > 1) throw new Error('WebSocket scenarios run on one runner, not on replicas');
    const { limit } = ctx;
    const warmup = 'durationMs' in limit ? limit.durationMs : undefined;
    const job: WsJob = { ws: target.websocket, phase, timeoutMs: ctx.timeoutMs };
    // a warm-up: the phase's shape, sending for the warm-up's time, with a short drain
    if (warmup !== undefined)
      Object.assign(job, { sendForMs: warmup, drainMs: Math.min(target.websocket.drainMs, 1000) });
    const run = runWs(job);
    return { responses: run.responses, done: run.done.then((t) => [t]) };
  },
  run() {
    throw new Error('WebSocket phases run in one engine (runner/src/ws.ts)');
  },
  entries: (target, phase) => (phase.kind === 'ws' ? [...wsEntries(target.websocket.push)] : []),
};

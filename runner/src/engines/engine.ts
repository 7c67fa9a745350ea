// What every protocol's engine module gives the runner (runner/src/engine.ts holds them in one map,
// keyed by the target's kind), and the pieces the pooled engines share.
import type { Phase, PlanTarget } from '../../../src/runner-kit/plan.js';
import type { ScheduleOptions } from '../schedule.js';
import { type EngineJob, type Limit, type ReplicaSlot, splitStage } from '../split.js';
import type { EngineTally } from '../tally.js';
import type { StageRun } from '../workers.js';

/** One engine instance running one job. */
export interface EngineRun {
  /** responses so far, for progress */
  responses(): number;
  done: Promise<EngineTally>;
}

/** Where one stage (a warm-up or a measured run) of a phase runs. */
export interface StageContext {
  /** the stage's limit: the warm-up's or the phase's duration, or the phase's request count */
  limit: Limit;
  /** the scenario's request timeout, ms */
  timeoutMs: number;
  /** engine instances (runner.workers) */
  workers: number;
  /** when an open-loop schedule starts, ms since the epoch */
  startAtEpochMs: number;
  /** this runner's place among the replicas sharing the load (absent: the only runner) */
  replica?: ReplicaSlot;
  /** runs a stage's jobs: one in this thread, or each in a worker thread */
  runJobs(jobs: EngineJob[]): StageRun;
}

export interface Engine<T extends PlanTarget> {
  /** starts one stage of `phase` against `target` */
  stage(target: T, phase: Phase, ctx: StageContext): StageRun;
  /** runs one job of a stage split over engine instances, in whatever thread it is called from */
  run(job: EngineJob<T>): EngineRun;
  /** the results beside the phase's own, each measured on its own: a mix's entries, WebSocket push and connect */
  entries(target: T, phase: Phase): string[];
}

/** A stage of closed- and open-loop phases, split over the engine instances (runner.workers). */
export function pooledStage(target: PlanTarget, phase: Phase, ctx: StageContext): StageRun {
  if (phase.kind === 'ws') throw new Error(`phase ${phase.name}: a WebSocket phase needs the scenario's websocket`);
  const { limit, timeoutMs, workers, startAtEpochMs, replica } = ctx;
  return ctx.runJobs(
    splitStage({ target, phase, limit, timeoutMs, workers, startAtEpochMs, ...(replica ? { replica } : {}) }),
  );
}

/** An open-loop job's schedule on this thread's clock. */
export function scheduleOf(job: Extract<EngineJob, { kind: 'open' }>): ScheduleOptions {
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

// perf-gate runner: runs inside the runner container on the SUT network. Reads the plan file given
// as its argument, waits for the ready probes, runs every phase (warm-up discarded, then the measured
// run, `trials` times) and reports events as marked JSON lines on stdout.
import { readFileSync } from 'node:fs';
import type { PlanScenario, RunnerPlan, Stage } from '../../src/plan.js';
import { type ClosedRun, runClosed } from './closed-loop.js';
import { emit } from './emit.js';
import { waitReady } from './ready.js';

async function withProgress(
  plan: RunnerPlan,
  where: { scenario: string; phase: string; trial: number; stage: Stage },
  run: ClosedRun,
): Promise<void> {
  let last = { at: performance.now(), responses: 0 };
  const timer = setInterval(() => {
    const now = performance.now();
    const responses = run.recorder.responses;
    const rps = ((responses - last.responses) * 1000) / Math.max(1, now - last.at);
    last = { at: now, responses };
    emit({ t: 'progress', ...where, elapsedMs: Math.round(run.recorder.elapsedMs()), responses, rps: Math.round(rps) });
  }, plan.progressIntervalMs);
  try {
    await run.done;
  } finally {
    clearInterval(timer);
  }
}

async function runScenario(plan: RunnerPlan, s: PlanScenario): Promise<void> {
  for (const phase of s.phases) {
    if (phase.kind !== 'closed') {
      throw new Error(`phase ${s.name}/${phase.name}: open-loop (rate) phases are not implemented in this runner yet`);
    }
    for (let trial = 1; trial <= s.trials; trial++) {
      const base = { scenario: s.name, phase: phase.name, trial, trials: s.trials };
      if (s.warmupMs > 0) {
        emit({ t: 'stage', ...base, stage: 'warmup', totalMs: s.warmupMs });
        const warm = runClosed(s.request, phase, { durationMs: s.warmupMs }, plan.requestTimeoutMs);
        await withProgress(plan, { ...base, stage: 'warmup' }, warm);
      }
      const limit =
        phase.requests !== undefined ? { requests: phase.requests } : { durationMs: phase.durationMs as number };
      const run = runClosed(s.request, phase, limit, plan.requestTimeoutMs);
      const stage: { totalMs?: number; totalRequests?: number } = {};
      if (run.totalMs !== undefined) stage.totalMs = run.totalMs;
      if (run.totalRequests !== undefined) stage.totalRequests = run.totalRequests;
      emit({ t: 'stage', ...base, stage: 'measure', ...stage });
      await withProgress(plan, { ...base, stage: 'measure' }, run);
      const { measurement, histogram } = run.recorder.measurement(trial);
      emit({ t: 'trial', scenario: s.name, phase: phase.name, measurement, histogram });
    }
  }
}

async function main(): Promise<void> {
  const planFile = process.argv[2];
  if (!planFile) throw new Error('usage: runner.mjs PLAN.json');
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as RunnerPlan;
  if (plan.version !== 1) throw new Error(`unsupported plan version ${String(plan.version)}`);
  emit({ t: 'hello', node: process.version });
  for (const probe of plan.ready) {
    const error = await waitReady(probe.url, probe.timeoutMs);
    if (error !== undefined) {
      emit({ t: 'not-ready', url: probe.url, error, timeoutMs: probe.timeoutMs });
      return;
    }
  }
  emit({ t: 'ready' });
  for (const s of plan.scenarios) await runScenario(plan, s);
  emit({ t: 'done' });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    emit({ t: 'fatal', message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  },
);

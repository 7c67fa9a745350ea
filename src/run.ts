// `perf-gate run`: plan → SUT session → collect → gate → render → publish. Gate, update and sweep
// runs boot one SUT; A/B runs (ab.ts) boot two and share every step but the session and the gate.
import { runLabels } from './docker/labels.js';
import { machineInfo } from './provenance.js';
import { baselineOf, baselinePath, stableStringify, writeFileAtomic } from './results/files.js';
import { gateResults } from './compare/gate.js';
import { RESULTS_SCHEMA, type ResultsFile } from './results/types.js';
import { planRun, type RunPlan } from './run-plan.js';
import {
  debugLog,
  eventSink,
  newRunId,
  provenanceOf,
  publishFiles,
  type RunDeps,
  sessionSpec,
  type RunOptions,
  type RunOutcome,
} from './run-steps.js';
import { runAb } from './ab.js';
import { TrialCollector } from './session/collect.js';
import { withSessions } from './session/with-sessions.js';

export type { RunMode } from './run-plan.js';
export { sweepScenarios } from './run-plan.js';
export { defaultRunnerScript, newRunId, type RunDeps, type RunOptions, type RunOutcome } from './run-steps.js';
export { RUNNER_RESOURCE_KEY } from './session/sut-session.js';

export async function runPerfGate(opts: RunOptions, deps: RunDeps): Promise<RunOutcome> {
  if (opts.mode === 'ab') {
    return runAb(opts, deps);
  }
  const startedAt = new Date().toISOString();
  const { progress } = deps;
  const p: RunPlan = planRun(opts, (l) => progress.line(l), deps);
  const { config, scenarios } = p;
  if (p.unswept.length) {
    progress.line(
      `[perf-gate] warning: no sweep ladder (scenarios[].sweep) in ${p.unswept.join(', ')}: ${scenarios.length ? 'left out of the sweep' : 'nothing to sweep'}`,
    );
  }
  if (opts.mode === 'sweep' && scenarios.length === 0) return nothingToSweep(opts, p, startedAt);
  const engine = await deps.docker.version();
  const runId = opts.runId ?? newRunId();
  const labels = runLabels(runId);
  const collector = new TrialCollector(config.runner.cpus);
  const spec = sessionSpec(
    deps,
    { runId, labels, healthTimeoutS: opts.healthTimeoutS },
    config.sut,
    config.dir,
    collector,
  );
  progress.line(`[perf-gate] run ${runId}: starting the SUT (compose project ${spec.compose.project})`);
  const images = await withSessions(
    runId,
    [spec],
    { docker: deps.docker, onSignal: deps.onSignal, log: debugLog(progress) },
    async ([session]) => {
      try {
        await session!.run(
          { image: p.image, cpus: config.runner.cpus, script: deps.runnerScript(), plan: p.plan },
          eventSink(collector, progress),
        );
      } finally {
        progress.finish();
      }
      return session!.imageDigests();
    },
  );

  const provenance = await provenanceOf(deps, config.dir, startedAt, engine, p.image, images);
  const scenarioResults = collector.results(scenarios, p.hashes);
  const measured: ResultsFile = {
    schema: RESULTS_SCHEMA,
    runId,
    mode: opts.mode,
    config: opts.configFile,
    startedAt,
    finishedAt: new Date().toISOString(),
    provenance,
    scenarios: scenarioResults,
    comparisons: [],
  };
  const thresholds = new Map(scenarios.map((s) => [s.name, s.thresholds]));
  // a sweep explores; it is never compared and never fails. An update compares with the previous
  // baselines for information only: its verdict is pass and it counts no regressions.
  const gated =
    opts.mode === 'sweep'
      ? { results: measured, verdict: 'pass' as const, regressions: 0 }
      : gateResults(measured, p.baselines, (name) => thresholds.get(name));
  const { results } = gated;
  const { verdict, regressions } = opts.mode === 'update' ? { verdict: 'pass' as const, regressions: 0 } : gated;
  const files = publishFiles(results, opts);
  const baselinesUpdated: string[] = [];
  if (opts.mode === 'update') {
    for (const r of scenarioResults) {
      const path = baselinePath(opts.baselineDir, r.name);
      writeFileAtomic(path, stableStringify(baselineOf(r, provenance)));
      baselinesUpdated.push(path);
    }
  }
  return { results, ...files, verdict, regressions, baselinesUpdated };
}

/** A sweep never fails (SPEC §1): with no ladder anywhere it writes a report that says so and passes,
 * without booting anything. */
function nothingToSweep(opts: RunOptions, p: RunPlan, startedAt: string): RunOutcome {
  const results: ResultsFile = {
    schema: RESULTS_SCHEMA,
    runId: opts.runId ?? newRunId(),
    mode: 'sweep',
    config: opts.configFile,
    startedAt,
    finishedAt: new Date().toISOString(),
    provenance: {
      time: startedAt,
      commit: null,
      ref: null,
      runner: machineInfo(),
      docker: { version: null, apiVersion: null },
      runnerImage: p.image,
      sut: { images: {} },
    },
    scenarios: [],
    comparisons: [],
    unswept: p.unswept,
  };
  return {
    results,
    ...publishFiles(results, opts),
    verdict: 'pass',
    regressions: 0,
    baselinesUpdated: [],
  };
}

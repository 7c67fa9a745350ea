// `perf-gate run`, every mode: plan → SUT session(s) → measure → gate → render → publish. Gate, update
// and sweep runs boot one SUT; A/B runs boot two (head, and base from a git worktree). Measuring is
// the only step that differs (session/measure.ts); each side keeps one long-lived runner that takes
// trials on command.
import { baseNotes, baseSut, type BaseTree, checkoutBase } from './base.js';
import { compareAbScenario } from '../compare/ab.js';
import { gates, runVerdict } from '../compare/compare.js';
import { gateResults } from '../compare/gate.js';
import { confirmationReach } from '../compare/reach.js';
import type { Config } from '../config/types.js';
import { onSwarm } from '../config/distributed.js';
import { cannotBootTwice } from '../docker/compose.js';
import { projectName, runLabels } from '../docker/labels.js';
import { environmentError, usageError } from '../common/errors.js';
import { unansweredPhase } from '../results/unanswered.js';
import { machineInfo } from './provenance.js';
import { baselineOf, baselinePath, stableStringify } from '../results/files.js';
import {
  RESULTS_SCHEMA,
  type AbInfo,
  type Comparison,
  type ResultsFile,
  type ScenarioResult,
} from '../results/types.js';
import { planRun, type RunPlan } from './plan.js';
import {
  debugLog,
  eventSink,
  newRunId,
  provenanceOf,
  publishFiles,
  type RunDeps,
  writeOrFail,
  sessionSpec,
  type RunOptions,
  type RunOutcome,
} from './steps.js';
import { gatedPercentiles, TrialCollector } from '../session/collect.js';
import { type AbOrders, type MeasureContext, measureAb, measureOne } from '../session/measure.js';
import type { RunnerHandle, Side } from '../session/sut-session.js';
import type { ImageDigests } from '../docker/clients.js';
import { withSessions } from '../session/with-sessions.js';
import { newSeed } from '../stats/random.js';
import { relative } from 'node:path';

export type { RunMode } from './plan.js';
export { sweepScenarios } from './plan.js';
export { defaultRunnerScript, newRunId, type RunDeps, type RunOptions, type RunOutcome } from './steps.js';
export { RUNNER_RESOURCE_KEY } from '../session/sut-session.js';

/** The base side of an A/B run: its tree (removed at the end, whatever happens) and its SUT. */
interface BaseSide {
  tree: BaseTree;
  sut: Config['sut'];
  dir: string;
  notes: string[];
}

/** One SUT to boot and measure: the only one, or A/B's base or head. */
interface MeasuredSide {
  side: Side | undefined;
  sut: Config['sut'];
  /** a service already running instead of the compose SUT (never in A/B) */
  target?: Config['target'];
  dir: string;
  /** an A/B side's tree (its compose project is kept apart from the other side's) */
  root?: string;
  collector: TrialCollector;
}

/** What measuring leaves besides the collected trials: each side's SUT images, and A/B's orders. */
interface Measured {
  images: Record<Side, ImageDigests>;
  /** what each side's side-by-side boot changed (A/B) */
  neutralised: Record<Side, string[]>;
  ab?: AbOrders;
}

/** The largest plan a swarm config carries (Docker's limit is 500 KB), leaving room for the trial. */
const MAX_SWARM_PLAN_BYTES = 480 * 1024;

/** The whole run, for every mode. */
export async function run(opts: RunOptions, deps: RunDeps): Promise<RunOutcome> {
  const startedAt = new Date(deps.now()).toISOString();
  const { progress } = deps;
  if (opts.mode === 'ab' && !opts.baseRef) {
    throw usageError('--mode ab needs --base REF (the commit, branch or tag to compare against)');
  }
  const p: RunPlan = planRun(opts, (l) => progress.line(l), deps);
  const { config, scenarios } = p;
  if (p.unswept.length) {
    progress.line(
      `[perf-gate] warning: no sweep ladder (scenarios[].sweep) in ${p.unswept.join(', ')}: ${scenarios.length ? 'left out of the sweep' : 'nothing to sweep'}`,
    );
  }
  if (opts.mode === 'sweep' && scenarios.length === 0) return nothingToSweep(opts, p, startedAt, deps);
  const pairs = opts.pairs ?? config.ab.pairs;
  if (opts.mode === 'gate' || opts.mode === 'ab') {
    const reach = confirmationReach({ ...config, scenarios }, opts.mode, pairs);
    if (reach.problems.length > 0) {
      throw usageError(
        `${opts.configFile}: the gate could never fail on a change`,
        reach.problems.map((l) => `  ${l}`),
      );
    }
  }
  if (onSwarm(config)) {
    // the plan goes into a swarm config, which holds at most 500 KB: refuse before anything boots
    const size = Buffer.byteLength(JSON.stringify(p.plan));
    if (size > MAX_SWARM_PLAN_BYTES) {
      throw usageError(
        `${opts.configFile}: the runner plan is ${Math.round(size / 1024)} KiB; on a swarm it travels as a config of at most ${MAX_SWARM_PLAN_BYTES / 1024} KiB (bodies files are the usual cause)`,
      );
    }
  }
  const engine = await deps.docker.version();
  // the runner image is checked (pulled if it can be) before any SUT boots, not after
  await deps.docker.ensureImage(p.image);
  const runId = opts.runId ?? newRunId();
  const base = opts.mode === 'ab' ? await openBase(opts, p, deps) : undefined;
  if (base && !onSwarm(config)) {
    // the head's compose files, read as compose reads them, before anything boots: a stack that cannot
    // boot twice is refused (exit 2), or with mode auto gated against baselines instead
    // both sides' compose files: a base that cannot boot twice (a pull request that removes the
    // host networking, say) falls back or is refused as the head's would be
    const blockers = await Promise.all([
      sideBlockers(deps, `${projectName(runId)}-head`, config.sut, config.dir, base.tree.repoRoot),
      sideBlockers(deps, `${projectName(runId)}-base`, base.sut, base.dir, base.tree.dir),
    ])
      .then(([head, baseSide]) => [...head, ...baseSide.filter((b) => !head.includes(b)).map((b) => `base: ${b}`)])
      .catch(async (err: unknown) => {
        await base.tree.remove();
        throw err;
      });
    if (blockers.length > 0) {
      await base.tree.remove();
      const line = cannotBootTwice(
        config.sut.composeFiles.map((f) => relative(config.dir, f) || f),
        blockers,
      );
      if (!opts.abFallback) throw usageError(line);
      progress.line(
        `[perf-gate] ${line.replace(/; gate against baselines instead.*$/, '')}: gating against baselines/`,
      );
      const { baseRef: _, abFallback: __, ...rest } = opts;
      return run({ ...rest, mode: 'gate', runId }, deps);
    }
  }
  try {
    const side = (which: Side | undefined, sut: Config['sut'], dir: string, root?: string): MeasuredSide => ({
      side: which,
      sut,
      dir,
      ...(root !== undefined ? { root } : {}),
      collector: new TrialCollector(config.runner.cpus, gatedPercentiles(scenarios)),
    });
    const sides = base
      ? [side('base', base.sut, base.dir, base.tree.dir), side('head', config.sut, config.dir, base.tree.repoRoot)]
      : [{ ...side(undefined, config.sut, config.dir), ...(config.target ? { target: config.target } : {}) }];
    const measured = await measure(opts, deps, p, { runId, sides, base, pairs });
    // each side's results, merged once: base first in A/B, head (or the only side) last
    const sideResults = sides.map((s) => s.collector.results(scenarios, p.hashes));
    // a sweep explores (a level past saturation may answer nothing); every other mode needs answers
    if (opts.mode !== 'sweep') {
      for (const [i, s] of sides.entries()) {
        const none = unansweredPhase(sideResults[i] as ScenarioResult[], scenarios, s.side ? `${s.side}: ` : '');
        if (none) throw environmentError(none);
      }
    }
    const provenance = await provenanceOf(deps, config.dir, startedAt, engine, p.image, measured.images.head);
    const results: ResultsFile = {
      schema: RESULTS_SCHEMA,
      runId,
      mode: opts.mode,
      config: opts.configFile,
      startedAt,
      finishedAt: new Date(deps.now()).toISOString(),
      provenance,
      scenarios: sideResults.at(-1) as ScenarioResult[],
      comparisons: [],
    };
    const gated = base
      ? abResults(opts, p, results, { base, results: sideResults[0] as ScenarioResult[], measured, pairs })
      : gate(opts, p, results);
    const files = publishFiles(gated, opts, deps.files);
    const baselinesUpdated: string[] = [];
    if (opts.mode === 'update') {
      for (const r of results.scenarios) {
        const path = baselinePath(opts.baselineDir, r.name);
        writeOrFail(deps.files, path, stableStringify(baselineOf(r, provenance)));
        baselinesUpdated.push(path);
      }
    }
    const { verdict, regressions } = runVerdict(opts.mode, gated.comparisons);
    return { results: gated, ...files, verdict, regressions, baselinesUpdated };
  } finally {
    await base?.tree.remove();
  }
}

/** What keeps one side's compose project from booting beside a second copy (nothing is started). */
async function sideBlockers(
  deps: RunDeps,
  project: string,
  sut: Config['sut'],
  dir: string,
  root: string,
): Promise<string[]> {
  const check = deps.compose({
    project,
    files: sut.composeFiles,
    cwd: dir,
    env: sut.env,
    labels: {},
    sideBySide: { root },
  });
  return check.collisions ? (await check.collisions()).blockers : [];
}

/** Checks out the base ref and finds the SUT it boots. */
async function openBase(opts: RunOptions, p: RunPlan, deps: RunDeps): Promise<BaseSide> {
  const tree = await checkoutBase(deps.exec, p.config.dir, opts.baseRef as string);
  try {
    const base = baseSut(p.config, tree, (l) => deps.progress.line(l));
    const notes = baseNotes(p, base.config);
    for (const n of notes) deps.progress.line(`[perf-gate] note: ${n}`);
    return { tree, sut: base.sut, dir: base.dir, notes };
  } catch (err) {
    await tree.remove();
    throw err;
  }
}

/** Boots every side, starts one runner per side, measures, and tears all of it down. */
async function measure(
  opts: RunOptions,
  deps: RunDeps,
  p: RunPlan,
  run: { runId: string; sides: MeasuredSide[]; base: BaseSide | undefined; pairs: number },
): Promise<Measured> {
  const { progress } = deps;
  const { config } = p;
  const labels = runLabels(run.runId);
  const specs = run.sides.map((s) =>
    sessionSpec(
      deps,
      { runId: run.runId, labels, healthTimeoutS: opts.healthTimeoutS },
      s.sut,
      s.dir,
      s.collector,
      s.side,
      s.target,
      onSwarm(config)
        ? {
            replicas: config.runner.replicas,
            startLeadMs: config.runner.startLeadMs,
            ...(config.runner.placement ? { placement: config.runner.placement } : {}),
          }
        : undefined,
      s.root,
    ),
  );
  progress.line(
    run.base
      ? `[perf-gate] run ${run.runId}: A/B, head against base ${run.base.tree.commit.slice(0, 12)} (${opts.baseRef}), ${run.pairs} pairs in random order`
      : config.target
        ? `[perf-gate] run ${run.runId}: target ${config.target.url} (nothing to boot; the runner joins network ${config.target.network})`
        : `[perf-gate] run ${run.runId}: starting the SUT (compose project ${specs[0]?.compose.project})`,
  );
  const tree = run.base?.tree;
  return withSessions(
    run.runId,
    specs,
    {
      docker: deps.docker,
      // a signal exits the process after the teardown: the worktree goes with the containers
      onSignal: (teardown) =>
        deps.onSignal(async () => {
          await teardown();
          await tree?.remove();
        }),
      log: debugLog(progress),
      ...(onSwarm(config) && deps.swarm
        ? { sweepSwarm: (id: string) => (deps.swarm as NonNullable<RunDeps['swarm']>).client.sweep(id) }
        : {}),
    },
    async (sessions) => {
      const script = deps.runnerScript();
      const handles: RunnerHandle[] = [];
      try {
        // both sides' runners come up together: each waits for its own SUT's ready probes. Every start
        // is waited for before a failure is thrown, so the teardown never races a runner still starting
        const started = await Promise.allSettled(
          sessions.map((session, i) =>
            session.startRunner(
              { image: p.image, cpus: config.runner.cpus, script, plan: p.plan },
              eventSink(
                run.sides[i]?.collector as TrialCollector,
                progress,
                run.sides[i]?.side ? `${run.sides[i]?.side}: ` : '',
              ),
            ),
          ),
        );
        for (const r of started) if (r.status === 'fulfilled') handles.push(r.value);
        const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
        const ctx: MeasureContext = {
          scenarios: p.scenarios,
          hashes: p.hashes,
          confirm: config.gate.confirm,
          extend: gates(opts.mode),
          log: (l) => progress.line(l),
          now: deps.now,
        };
        const sideOf = (i: number) => ({
          runner: handles[i] as RunnerHandle,
          collector: (run.sides[i] as MeasuredSide).collector,
        });
        const ab = run.base
          ? await measureAb(ctx, { base: sideOf(0), head: sideOf(1) }, run.pairs, opts.seed ?? newSeed())
          : await measureOne(ctx, sideOf(0), p.baselines).then(() => undefined);
        for (const h of handles) await h.end();
        const digests = await Promise.all(sessions.map((s) => s.imageDigests()));
        const images = { head: digests.at(-1) ?? {}, base: run.base ? (digests[0] ?? {}) : {} };
        const changed = specs.map((s) => s.compose.neutralised?.() ?? []);
        const neutralised = { head: changed.at(-1) ?? [], base: run.base ? (changed[0] ?? []) : [] };
        return ab ? { images, neutralised, ab } : { images, neutralised };
      } finally {
        progress.finish();
      }
    },
  );
}

/** Compares with the baselines (gate; update for information), or not at all (sweep). */
function gate(opts: RunOptions, p: RunPlan, results: ResultsFile): ResultsFile {
  if (opts.mode === 'sweep') return results;
  const thresholds = new Map(p.scenarios.map((s) => [s.name, s.thresholds]));
  return gateResults(results, p.baselines, (name) => thresholds.get(name)).results;
}

/** A/B: head compared with base pair by pair; the base side's results, seed and orders kept. */
function abResults(
  opts: RunOptions,
  p: RunPlan,
  results: ResultsFile,
  ab: { base: BaseSide; results: ScenarioResult[]; measured: Measured; pairs: number },
): ResultsFile {
  const base = ab.results;
  const comparisons: Comparison[] = results.scenarios.flatMap((h, i) =>
    compareAbScenario(h, base[i] as ScenarioResult, p.scenarios[i]?.thresholds ?? {}),
  );
  const orders = ab.measured.ab as AbOrders;
  const info: AbInfo = {
    baseRef: opts.baseRef as string,
    baseCommit: ab.base.tree.commit,
    headCommit: results.provenance.commit,
    pairs: ab.pairs,
    order: 'random',
    seed: orders.seed,
    orders: orders.orders,
    baseImages: ab.measured.images.base,
    base,
    notes: ab.base.notes,
  };
  const { head: headChanges, base: baseChanges } = ab.measured.neutralised;
  if (headChanges.length > 0 || baseChanges.length > 0) info.sideBySide = { head: headChanges, base: baseChanges };
  return {
    ...results,
    scenarios: results.scenarios.map((h, i) => ({
      ...h,
      baselineLatency: Object.fromEntries((base[i] as ScenarioResult).phases.map((ph) => [ph.name, ph.merged.latency])),
    })),
    comparisons,
    ab: info,
  };
}

/** A sweep never fails (SPEC §1): with no ladder anywhere it writes a report that says so and passes,
 * without booting anything. */
function nothingToSweep(opts: RunOptions, p: RunPlan, startedAt: string, deps: RunDeps): RunOutcome {
  const results: ResultsFile = {
    schema: RESULTS_SCHEMA,
    runId: opts.runId ?? newRunId(),
    mode: 'sweep',
    config: opts.configFile,
    startedAt,
    finishedAt: new Date(deps.now()).toISOString(),
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
    ...publishFiles(results, opts, deps.files),
    verdict: 'pass',
    regressions: 0,
    baselinesUpdated: [],
  };
}

/** @deprecated the old name of `run` */
export const runPerfGate = run;

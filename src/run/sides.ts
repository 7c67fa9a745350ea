// The sides of a run (issue 32): the one SUT, or A/B's base and head. Each side's session spec (a
// compose project, a swarm stack, or a target with nothing to boot), the base commit's tree and what
// keeps it from booting beside head, and the measuring: every side booted, one runner each, the
// mode's measure driving their trials, all of it torn down.
import { relative } from 'node:path';
import { usageError } from '../common/errors.js';
import { cannotBootTwice } from '../docker/compose.js';
import { projectName, runLabels } from '../docker/labels.js';
import type { ComposeClient, ImageDigests } from '../docker/clients.js';
import { onSwarm } from '../config/distributed.js';
import type { Config } from '../config-parts/types.js';
import type { Mode } from '../modes/index.js';
import type { MeasureRecord } from '../modes/mode.js';
import { type MeasureContext, type PerfSampler, profileTrials } from '../session/measure.js';
import { perfEngineFailure, perfHelperOutcome } from '../docker/perf-helper.js';
import { PROFILE_GRACE_MS, PROFILE_MAX_BYTES } from '../runner-kit/profile.js';
import { gatedPercentiles, TrialCollector } from '../session/collect.js';
import { runWaits, waitQuiet } from '../session/quiet.js';
import type { RunnerHandle, Side, SutSessionOptions } from '../session/sut-session.js';
import { SwarmSession } from '../session/swarm-session.js';
import { type Session, type SessionSpec, withSessions } from '../session/with-sessions.js';
import type { StatsSample } from '../stats/resources.js';
import { SLICE_MS } from '../stats/machine.js';
import { busyRepeats, plannedTrials } from '../compare/busy.js';
import { baseNotes, baseSut, type BaseTree, checkoutBase } from './base.js';
import type { RunDeps, RunOptions } from './contract.js';
import type { RunPlan } from './plan.js';
import type { Progress } from './progress.js';
import type { RunnerEvent } from '../runner-kit/plan.js';
import type { AbInfo, ResultsFile } from '../results/types.js';

/** The base side of an A/B run: its tree (removed at the end, whatever happens) and its SUT. */
export interface BaseSide {
  tree: BaseTree;
  sut: Config['sut'];
  dir: string;
  notes: string[];
  /** scenarios the base commit's config does not have (new in head): its endpoints may not exist there */
  fresh: ReadonlySet<string>;
}

/** One SUT to boot and measure: the only one, or A/B's base or head. */
export interface MeasuredSide {
  side: Side | undefined;
  sut: Config['sut'];
  /** a service already running instead of the compose SUT (never in A/B) */
  target?: Config['target'];
  dir: string;
  /** an A/B side's tree (its compose project is kept apart from the other side's) */
  root?: string;
  collector: TrialCollector;
}

/** What measuring drew and spent (MeasureRecord), with each side's images and what its boot changed. */
export interface Measured extends MeasureRecord {
  images: Record<Side, ImageDigests>;
  /** what each side's side-by-side boot changed (A/B) */
  neutralised: Record<Side, string[]>;
}

/** What keeps one side's compose project from booting beside a second copy (nothing is started). */
export async function sideBlockers(
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
export async function openBase(opts: RunOptions, p: RunPlan, deps: RunDeps): Promise<BaseSide> {
  const tree = await checkoutBase(deps.exec, p.config.dir, opts.baseRef as string, deps.files);
  try {
    const base = baseSut(p.config, tree, (l) => deps.progress.line(l), deps.files);
    const notes = baseNotes(p, base.config, deps.files);
    for (const n of notes) deps.progress.line(`[perf-gate] note: ${n}`);
    const had = new Set(base.config?.scenarios.map((s) => s.name) ?? p.scenarios.map((s) => s.name));
    const fresh = new Set(p.scenarios.filter((s) => !had.has(s.name)).map((s) => s.name));
    return { tree, sut: base.sut, dir: base.dir, notes, fresh };
  } catch (err) {
    await tree.remove();
    throw err;
  }
}

/** Boots every side, starts one runner per side, measures, and tears all of it down. */
export async function measure(
  opts: RunOptions,
  deps: RunDeps,
  p: RunPlan,
  mode: Mode,
  run: { runId: string; sides: MeasuredSide[]; base: BaseSide | undefined; pairs: number; seed: number },
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
      log: debugLog(progress, deps.env),
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
                deps.now,
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
          extend: mode.gates,
          ...(config.gate.earlyLook !== undefined ? { earlyLook: config.gate.earlyLook } : {}),
          ...(config.gate.busy
            ? {
                busy: {
                  repeats: busyRepeats(config.gate.busy, plannedTrials(p.scenarios, run.base ? run.pairs : undefined)),
                  used: 0,
                  // the default allowance follows the trials the run takes, confirmation's too
                  ...(config.gate.busy.repeats === undefined ? { grows: true as const } : {}),
                },
              }
            : {}),
          log: (l) => progress.line(l),
          now: deps.now,
          statistics: { ms: 0 },
        };
        // a trial put aside runs again once the machine reads quiet (gate.busy), where it can be read
        const machine = deps.machine;
        const sentinel = config.gate.busy;
        if (machine && sentinel) {
          const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
          const own = run.sides[0]?.collector.ownContainers();
          ctx.quiet = runWaits((maxMs) =>
            waitQuiet({ read: machine, sleep, now: deps.now }, sentinel.othersPct, sentinel.stealOnly, own, maxMs),
          );
        }
        const measured = run.sides.map((s, i) => ({
          runner: handles[i] as RunnerHandle,
          collector: s.collector,
          perf: perfSampler(deps.docker, sessions[i] as Session, labels),
        }));
        // the machine read through each measured window, so a hog that took part of one shows (gate.busy)
        const ticks = deps.machine
          ? setInterval(() => {
              for (const s of run.sides) s.collector.tick(deps.now());
            }, SLICE_MS)
          : undefined;
        let record: Awaited<ReturnType<typeof mode.measure>>;
        try {
          record = await mode.measure(ctx, measured, { baselines: p.baselines, pairs: run.pairs, seed: run.seed });
          // sut.profile: the profiles come from trials of their own, after every measured one (an
          // update keeps them beside the baselines, for the gate runs after it to diff against)
          if (mode.gates || mode.records) await profileTrials(ctx, measured, config.sut.profile);
        } finally {
          clearInterval(ticks);
        }
        // statistics bounded: what the early looks and confirmation's looks took, said
        if (mode.gates) progress.line(`[perf-gate] statistics during the trials took ${ctx.statistics?.ms ?? 0} ms`);
        for (const h of handles) await h.end();
        const digests = await Promise.all(sessions.map((s) => s.imageDigests()));
        const images = { head: digests.at(-1) ?? {}, base: run.base ? (digests[0] ?? {}) : {} };
        const changed = specs.map((s) => s.compose.neutralised?.() ?? []);
        const neutralised = { head: changed.at(-1) ?? [], base: run.base ? (changed[0] ?? []) : [] };
        const busy =
          config.gate.busy && ctx.busy
            ? {
                othersPct: config.gate.busy.othersPct,
                ...(config.gate.busy.stealOnly ? { stealOnly: true as const } : {}),
                repeats: ctx.busy.repeats,
                repeated: ctx.busy.used,
              }
            : undefined;
        return { images, neutralised, ...record, ...(busy ? { busy } : {}) };
      } finally {
        progress.finish();
      }
    },
  );
}

/** sut.profile's perf on one side: the helper beside the service's running container, labelled with the
 * run (its sweep removes one a failure left), its output bounded as a fetched profile's. */
function perfSampler(docker: RunDeps['docker'], session: Session, labels: Record<string, string>): PerfSampler {
  return async (service, image, windowMs, started) => {
    const containerId = session.containerOf(service);
    if (containerId === undefined)
      return { error: `sut.profile.${service}: perf: the service has no running container` };
    try {
      const timeoutMs = windowMs + PROFILE_GRACE_MS;
      const exit = await docker.runPerfHelper(
        { image, containerId, windowMs, labels },
        PROFILE_MAX_BYTES,
        timeoutMs,
        started,
      );
      return perfHelperOutcome(service, exit, PROFILE_MAX_BYTES, timeoutMs);
    } catch (err) {
      // the engine's failure: said with the profile, never the run's
      return { error: perfEngineFailure(service, (err as Error).message) };
    }
  };
}

/** Passes runner events to the collector and the progress display. */
export function eventSink(
  collector: TrialCollector,
  progress: Progress,
  prefix = '',
  now: () => number = Date.now,
): (e: RunnerEvent) => void {
  return (e) => {
    if (e.t === 'ready') progress.line(`[perf-gate] ${prefix}SUT ready; load phases start`);
    else if (e.t === 'setup') progress.line(`[perf-gate] ${prefix}${setupLine(e)}`);
    else if (e.t === 'warning') progress.line(`[perf-gate] ${prefix}warning: ${e.message}`);
    collector.onEvent(e, now());
    progress.onEvent(e);
  };
}

/** What the setup did, in one line: each step's status and time, and the names (never the values) it extracted. */
export function setupLine(e: Extract<RunnerEvent, { t: 'setup' }>): string {
  const steps = e.steps.map((s) => `${s.name} (HTTP ${s.status}, ${s.elapsedMs} ms)`).join(', ');
  const values = e.values.length > 0 ? `; values ${e.values.join(', ')}` : '';
  return `setup: ${steps}${values}`;
}

/** The runner's own lines, shown when PERF_GATE_DEBUG is set. */
export function debugLog(progress: Progress, env: NodeJS.ProcessEnv): (line: string) => void {
  return (line) => {
    if (env.PERF_GATE_DEBUG) progress.line(`[runner] ${line}`);
  };
}

/** A side on a swarm: its runner replicas and where they go (Config.runner's). */
export interface SwarmPlacement {
  replicas: number;
  placement?: { constraints: string[]; maxPerNode?: number };
  startLeadMs: number;
}

/** What `withSessions` needs to boot one SUT: its compose project, session options and a collector
 * for its resource samples. `side` is set in A/B runs (project `perfgate-<run>-<side>`). */
export function sessionSpec(
  deps: Pick<RunDeps, 'compose' | 'swarm' | 'progress' | 'now'>,
  run: { runId: string; labels: Record<string, string>; healthTimeoutS?: number | undefined },
  sut: Config['sut'],
  dir: string,
  collector: TrialCollector,
  side?: Side,
  target?: Config['target'],
  onSwarm?: SwarmPlacement,
  /** an A/B side's tree: the compose project boots beside the other side's (./docker/side-by-side.ts) */
  root?: string,
): SessionSpec {
  const opts: SutSessionOptions = {
    runId: run.runId,
    labels: run.labels,
    services: sut.services,
    build: sut.build,
    healthTimeoutS: run.healthTimeoutS ?? 120,
  };
  if (side) opts.side = side;
  const sample = (key: string, s: StatsSample, container?: string) => collector.sample(key, s, container);
  if (onSwarm) return swarmSpec(deps, opts, { sut, dir, sample, onSwarm, target });
  if (target) {
    opts.external = { network: target.network };
    return { opts, compose: nothingToBoot(projectName(run.runId)), sample };
  }
  return {
    opts,
    compose: deps.compose({
      project: side ? `${projectName(run.runId)}-${side}` : projectName(run.runId),
      files: sut.composeFiles,
      cwd: dir,
      env: sut.env,
      labels: run.labels,
      ...(side && root !== undefined ? { sideBySide: { root } } : {}),
    }),
    sample,
  };
}

/** A side on a swarm: the compose files as a stack (or a target on an overlay network), runners as replicated jobs. */
function swarmSpec(
  deps: Pick<RunDeps, 'swarm' | 'progress' | 'now'>,
  opts: SutSessionOptions,
  side: {
    sut: Config['sut'];
    dir: string;
    sample: SessionSpec['sample'];
    onSwarm: SwarmPlacement;
    target: Config['target'] | undefined;
  },
): SessionSpec {
  const swarm = deps.swarm;
  // a bug of the entry point that built the deps (exit 1), not the user's environment
  if (!swarm) throw new Error('runner replicas and swarm stacks need a Docker Swarm client, and none is bound');
  const project = opts.side ? `${projectName(opts.runId)}-${opts.side}` : projectName(opts.runId);
  const stack = side.target
    ? { ...nothingToBoot(project), services: () => Promise.resolve([]), networks: () => Promise.resolve([]) }
    : swarm.stack({ project, files: side.sut.composeFiles, cwd: side.dir, env: side.sut.env, labels: opts.labels });
  return {
    opts,
    compose: stack,
    sample: side.sample,
    open: () =>
      SwarmSession.open(
        {
          runId: opts.runId,
          labels: opts.labels,
          ...(opts.side ? { side: opts.side } : {}),
          healthTimeoutS: opts.healthTimeoutS,
          ...(side.target ? { external: { network: side.target.network } } : {}),
          replicas: side.onSwarm.replicas,
          leadMs: side.onSwarm.startLeadMs,
          ...(side.onSwarm.placement ? { placement: side.onSwarm.placement } : {}),
        },
        { swarm: swarm.client, stack, log: (l) => deps.progress.line(`[perf-gate] ${l}`), now: deps.now },
      ),
  };
}

/** A target's stand-in for compose: nothing to validate, boot, log or take down. */
function nothingToBoot(project: string): ComposeClient {
  return {
    project,
    prepare: () => Promise.resolve({ services: {} }),
    up: () => Promise.resolve(undefined),
    logs: () => Promise.resolve([]),
    down: () => Promise.resolve(),
  };
}

/** The sides step: the base commit's tree opened where the mode boots one beside head, refused when the
 * two cannot boot side by side (or, with abFallback, the options of the mode it falls back to). */
export async function openSides(
  opts: RunOptions,
  p: RunPlan,
  mode: Mode,
  runId: string,
  deps: RunDeps,
): Promise<{ base: BaseSide | undefined } | { fallback: RunOptions }> {
  if (!mode.base) return { base: undefined };
  const base = await openBase(opts, p, deps);
  const blocked = await cannotBootBoth(deps, p.config, base, runId);
  if (!blocked) return { base };
  if (!opts.abFallback) throw usageError(blocked);
  deps.progress.line(
    `[perf-gate] ${blocked.replace(/; gate against baselines instead.*$/, '')}: gating against baselines/`,
  );
  const { baseRef: _, abFallback: __, ...rest } = opts;
  return { fallback: { ...rest, mode: mode.base.fallback, runId } };
}

/**
 * Both sides' compose files, read as compose reads them, before anything boots: what keeps them from
 * booting side by side (a pull request that removes the host networking, say, blocks the base), in
 * one line, or undefined. The base tree is removed when it is refused or the check fails.
 */
async function cannotBootBoth(
  deps: RunDeps,
  config: Config,
  base: BaseSide,
  runId: string,
): Promise<string | undefined> {
  if (onSwarm(config)) return undefined;
  const blockers = await Promise.all([
    sideBlockers(deps, `${projectName(runId)}-head`, config.sut, config.dir, base.tree.repoRoot),
    sideBlockers(deps, `${projectName(runId)}-base`, base.sut, base.dir, base.tree.dir),
  ])
    .then(([head, baseSide]) => [...head, ...baseSide.filter((b) => !head.includes(b)).map((b) => `base: ${b}`)])
    .catch(async (err: unknown) => {
      await base.tree.remove();
      throw err;
    });
  if (blockers.length === 0) return undefined;
  await base.tree.remove();
  return cannotBootTwice(
    config.sut.composeFiles.map((f) => relative(config.dir, f) || f),
    blockers,
  );
}

/** The sides measured: base then head, or the only one (a target's, when the config gives one). */
export function measuredSides(p: RunPlan, base: BaseSide | undefined, machine?: RunDeps['machine']): MeasuredSide[] {
  const { config, scenarios } = p;
  // the run's own containers, both sides': the side not under load is the run's, not the machine's noise
  const ours = new Set<string>();
  const side = (which: Side | undefined, sut: Config['sut'], dir: string, root?: string): MeasuredSide => ({
    side: which,
    sut,
    dir,
    ...(root !== undefined ? { root } : {}),
    collector: new TrialCollector(config.runner.cpus, gatedPercentiles(scenarios), machine, config.gate.busy, ours),
  });
  return base
    ? [side('base', base.sut, base.dir, base.tree.dir), side('head', config.sut, config.dir, base.tree.repoRoot)]
    : [{ ...side(undefined, config.sut, config.dir), ...(config.target ? { target: config.target } : {}) }];
}

/** What an A/B run knows of its two sides beside their results: refs, commits, orders, images, changes. */
export function abInfo(
  opts: RunOptions,
  base: BaseSide,
  measured: Measured,
  results: ResultsFile,
  pairs: number,
): Omit<AbInfo, 'base'> {
  const orders = measured.ab;
  const info: Omit<AbInfo, 'base'> = {
    baseRef: opts.baseRef as string,
    baseCommit: base.tree.commit,
    headCommit: results.provenance.commit,
    pairs,
    order: 'random',
    ...(orders ? { seed: orders.seed, orders: orders.orders } : {}),
    baseImages: measured.images.base,
    notes: base.notes,
  };
  const { head, base: baseChanges } = measured.neutralised;
  if (head.length > 0 || baseChanges.length > 0) info.sideBySide = { head, base: baseChanges };
  return info;
}

// What every kind of run shares: its options and dependencies, and the steps around the measuring
// (events to the collector and progress, provenance, writing the results and the report).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ComposeOptions } from '../docker/compose.js';
import type { ComposeClient, DockerClient, ImageDigests } from '../docker/clients.js';
import { environmentError } from '../common/errors.js';
import type { Exec } from '../common/exec.js';
import type { RunnerEvent } from './runner-plan.js';
import type { Progress } from './progress.js';
import { gitInfo, machineInfo } from './provenance.js';
import { stableStringify, writeFileAtomic } from '../results/files.js';
import type { OverallVerdict } from '../compare/compare.js';
import { renderMarkdown } from '../report/markdown.js';
import type { Provenance, ResultsFile } from '../results/types.js';
import type { RunMode } from './plan.js';
import type { TrialCollector } from '../session/collect.js';
import type { Config } from '../config/types.js';
import { projectName } from '../docker/labels.js';
import { readHistoryFile } from '../history/file.js';
import { appendHistory, historyEntry, parseHistory, renderTrend } from '../history/history.js';
import { renderCsv } from '../report/csv.js';
import { renderJunit } from '../report/junit.js';
import type { Side, SutSessionOptions } from '../session/sut-session.js';
import type { SessionSpec } from '../session/with-sessions.js';
import { SwarmSession } from '../session/swarm-session.js';
import type { SwarmClient } from '../docker/swarm.js';
import type { StackClient } from '../docker/stack.js';
import type { StatsSample } from '../stats/resources.js';

export interface RunOptions {
  configFile: string;
  mode: RunMode;
  scenarios: string[];
  baselineDir: string;
  outDir: string;
  runnerImage?: string;
  /** a run id chosen by the caller (the Action saves it for its post step); random otherwise */
  runId?: string;
  /** distinguishes reports of matrix legs / several configs */
  reportId?: string;
  /** how long compose may take to report services healthy, s */
  healthTimeoutS?: number;
  /** A/B mode: the git ref whose tree is the base side */
  baseRef?: string;
  /** A/B chosen by mode auto (gate.against: base-ref): a SUT that cannot boot twice side by side falls
   * back to the gate against baselines, with one line that says why, instead of failing the run */
  abFallback?: boolean;
  /** A/B mode: interleaved pairs (overrides the config's ab.pairs) */
  pairs?: number;
  /** A/B mode: the seed of the pair orders (random when absent; the results file records it) */
  seed?: number;
  /** also write the results as JUnit XML to this path (relative to the working directory) */
  junit?: string;
  /** also write the results as CSV to this path */
  csv?: string;
  /** a trend history (JSON lines): its charts go into the report; update runs append to it */
  history?: string;
}

export interface RunDeps {
  docker: DockerClient;
  compose: (opts: ComposeOptions) => ComposeClient;
  exec: Exec;
  progress: Progress;
  /** registers teardown for SIGINT/SIGTERM; returns an unregister function */
  onSignal: (teardown: () => Promise<void>) => () => void;
  /** the script that runs in the runner container (dist/runner.mjs) */
  runnerScript: () => string;
  /** where `${NAME}` in requests is looked up (perf-gate's own environment) */
  env: NodeJS.ProcessEnv;
  /** each value taken from `env` for a request (the Action masks it in the log) */
  maskSecret: (value: string) => void;
  /** the files a run writes, and the history it reads */
  files: RunFiles;
  /** wall clock, ms since the epoch */
  now: () => number;
  /** the Docker Swarm the engine manages (runner.replicas, sut.orchestrator: swarm) */
  swarm?: { client: SwarmClient; stack: (opts: ComposeOptions) => StackClient };
}

/** A side on a swarm: its runner replicas and where they go (Config.runner's). */
export interface SwarmPlacement {
  replicas: number;
  placement?: { constraints: string[]; maxPerNode?: number };
  startLeadMs: number;
}

/** The files a run writes (results, report, baselines, JUnit/CSV, history) and the history it reads. */
export interface RunFiles {
  /** a file's text; undefined when it does not exist */
  read(path: string): string | undefined;
  /** writes the whole file atomically */
  write(path: string, text: string): void;
}

/** The real file system. */
export const realFiles: RunFiles = {
  read: readHistoryFile,
  write: writeFileAtomic,
};

/** Writes through `files`; a failure is the environment's (exit 3), with one line naming the path. */
export function writeOrFail(files: RunFiles, path: string, text: string): void {
  try {
    files.write(path, text);
  } catch (err) {
    throw environmentError(`cannot write ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
}

export interface RunOutcome {
  results: ResultsFile;
  resultsPath: string;
  reportPath: string;
  /** JUnit XML and CSV files written on request (--junit, --csv), absolute */
  extraPaths: string[];
  report: string;
  verdict: OverallVerdict;
  regressions: number;
  baselinesUpdated: string[];
}

export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

/** Passes runner events to the collector and the progress display. */
export function eventSink(collector: TrialCollector, progress: Progress, prefix = ''): (e: RunnerEvent) => void {
  return (e) => {
    if (e.t === 'ready') progress.line(`[perf-gate] ${prefix}SUT ready; load phases start`);
    else if (e.t === 'warning') progress.line(`[perf-gate] ${prefix}warning: ${e.message}`);
    collector.onEvent(e, Date.now());
    progress.onEvent(e);
  };
}

export function debugLog(progress: Progress): (line: string) => void {
  return (line) => {
    if (process.env.PERF_GATE_DEBUG) progress.line(`[runner] ${line}`);
  };
}

export async function provenanceOf(
  deps: Pick<RunDeps, 'exec' | 'env'>,
  dir: string,
  startedAt: string,
  engine: { version: string; apiVersion: string },
  image: string,
  images: ImageDigests,
): Promise<Provenance> {
  const git = await gitInfo(deps.exec, dir, deps.env);
  return {
    time: startedAt,
    commit: git.commit,
    ref: git.ref,
    runner: machineInfo(),
    docker: { version: engine.version, apiVersion: engine.apiVersion },
    runnerImage: image,
    sut: { images },
  };
}

/** Writes the results file, the report and the JUnit/CSV files asked for; returns their paths. */
export function publishFiles(
  results: ResultsFile,
  opts: Pick<RunOptions, 'outDir' | 'reportId' | 'junit' | 'csv' | 'history'>,
  files: RunFiles,
): { resultsPath: string; reportPath: string; report: string; extraPaths: string[] } {
  const resultsPath = resolve(opts.outDir, 'perf-gate-results.json');
  writeOrFail(files, resultsPath, stableStringify(results));
  // a history file that does not exist yet is an empty history
  const history = opts.history ? (files.read(opts.history) ?? '') : undefined;
  const entry = historyEntry(results);
  const trend =
    history !== undefined && results.mode !== 'sweep' ? renderTrend(parseHistory(history).entries, entry) : '';
  const report = renderMarkdown(results, { reportId: opts.reportId ?? '', trend });
  const reportPath = resolve(opts.outDir, 'perf-gate-report.md');
  writeOrFail(files, reportPath, report);
  const extraPaths: string[] = [];
  for (const [path, render] of [
    [opts.junit, renderJunit],
    [opts.csv, renderCsv],
  ] as const) {
    if (!path) continue;
    writeOrFail(files, resolve(path), render(results));
    extraPaths.push(resolve(path));
  }
  // the default branch's record: update runs (scheduled or on push) append their summary
  if (opts.history && results.mode === 'update' && results.scenarios.length > 0) {
    writeOrFail(files, resolve(opts.history), appendHistory(history ?? '', entry));
    extraPaths.push(resolve(opts.history));
  }
  return { resultsPath, reportPath, report, extraPaths };
}

export function defaultRunnerScript(): string {
  const here = dirname(new URL(import.meta.url).pathname);
  for (const candidate of [join(here, 'runner.mjs'), join(here, '..', 'dist', 'runner.mjs')]) {
    try {
      return readFileSync(candidate, 'utf8');
    } catch {
      // try the next place
    }
  }
  throw environmentError('runner script dist/runner.mjs not found (run `npm run build`)');
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
  const sample = (key: string, s: StatsSample) => collector.sample(key, s);
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

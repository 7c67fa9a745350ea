// `perf-gate run`: boot the SUT, run the runner container on its network, sample resources,
// collect trials, write the results file (and baselines in update mode), tear everything down.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type Docker from 'dockerode';
import { loadConfig } from './config/load.js';
import { ratePhaseName } from './config/normalize.js';
import { type Config, DEFAULT_MAX_IN_FLIGHT, type Phase, type Scenario } from './config/types.js';
import { ComposeProject } from './docker/compose.js';
import {
  engineVersion,
  imageDigests,
  projectContainers,
  projectNetworks,
  type SutContainer,
  streamStats,
  sweepRun,
} from './docker/engine.js';
import { projectName, runLabels } from './docker/labels.js';
import { startRunner } from './docker/runner-container.js';
import { environmentError, UserError, usageError } from './errors.js';
import { type Exec, lastLine } from './exec.js';
import { buildPlan, parseBodiesJsonl, type RunnerEvent } from './plan.js';
import type { Progress } from './progress.js';
import { gitInfo, machineInfo } from './provenance.js';
import { baselineOf, baselinePath, scenarioHash, stableStringify, writeFileAtomic } from './results/files.js';
import { phaseFlags } from './results/flags.js';
import { mergeTrials } from './results/merge.js';
import { readBaseline } from './results/read.js';
import { gateResults } from './compare/gate.js';
import type { OverallVerdict } from './compare/compare.js';
import { renderMarkdown } from './report/markdown.js';
import {
  type BaselineFile,
  type PhaseResult,
  type Provenance,
  RESULTS_SCHEMA,
  type ResourceUsage,
  type ResultsFile,
  type ScenarioResult,
  type TrialSummary,
} from './results/types.js';
import { type StatsSample, usageInWindow } from './stats/resources.js';

export type RunMode = 'gate' | 'update' | 'sweep';

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
}

export interface RunDeps {
  docker: Docker;
  exec: Exec;
  progress: Progress;
  /** registers teardown for SIGINT/SIGTERM; returns an unregister function */
  onSignal: (teardown: () => Promise<void>) => () => void;
  /** the script that runs in the runner container (dist/runner.mjs) */
  runnerScript: () => string;
}

export interface RunOutcome {
  results: ResultsFile;
  resultsPath: string;
  reportPath: string;
  report: string;
  verdict: OverallVerdict;
  regressions: number;
  baselinesUpdated: string[];
}

export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

export const RUNNER_RESOURCE_KEY = 'perf-gate-runner';

function selectScenarios(config: Config, names: string[]): Scenario[] {
  if (names.length === 0) return config.scenarios;
  const known = new Set(config.scenarios.map((s) => s.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) {
    throw usageError(`--scenario ${unknown.join(', ')}: no such scenario (known: ${[...known].join(', ')})`);
  }
  return config.scenarios.filter((s) => names.includes(s.name));
}

/** Sweep mode: each scenario's ladder becomes its phases, one trial per level; scenarios without
 * a ladder are left out. */
export function sweepScenarios(scenarios: Scenario[]): Scenario[] {
  const out: Scenario[] = [];
  for (const s of scenarios) {
    if (!s.sweep) continue;
    const { sweep } = s;
    out.push({
      ...s,
      warmupMs: sweep.warmupMs,
      trials: 1,
      phases: sweep.levels.map((level): Phase => {
        if (sweep.kind === 'closed') {
          return { kind: 'closed', name: `c${level}`, connections: level, durationMs: sweep.durationMs };
        }
        return {
          kind: 'open',
          name: ratePhaseName(level),
          rate: level,
          durationMs: sweep.durationMs,
          maxInFlight: DEFAULT_MAX_IN_FLIGHT,
        };
      }),
    });
  }
  if (out.length === 0) throw usageError('--mode sweep: no selected scenario has a sweep ladder (scenarios[].sweep)');
  return out;
}

/** Collects trial events into phase results, with SUT resources sampled over each measured window. */
class TrialCollector {
  constructor(private readonly runnerCpus: number | undefined) {}

  private readonly trials = new Map<string, { summaries: TrialSummary[]; histograms: string[] }>();
  private windowStart = 0;
  readonly samples = new Map<string, StatsSample[]>();

  sample(key: string, s: StatsSample): void {
    const list = this.samples.get(key) ?? [];
    this.samples.set(key, list);
    list.push(s);
  }

  onEvent(e: RunnerEvent, now: number): void {
    if (e.t === 'stage' && e.stage === 'measure') this.windowStart = now;
    if (e.t !== 'trial') return;
    const resources: Record<string, ResourceUsage> = {};
    for (const [key, list] of [...this.samples.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      resources[key] = usageInWindow(list, this.windowStart, now);
    }
    const id = `${e.scenario}\u0000${e.phase}`;
    const entry = this.trials.get(id) ?? { summaries: [], histograms: [] };
    this.trials.set(id, entry);
    entry.summaries.push({ ...e.measurement, resources });
    entry.histograms.push(e.histogram);
  }

  phases(s: Scenario): PhaseResult[] {
    return s.phases.map((p) => {
      const entry = this.trials.get(`${s.name}\u0000${p.name}`) ?? { summaries: [], histograms: [] };
      const merged = mergeTrials(entry.summaries, entry.histograms);
      const params: PhaseResult['params'] =
        p.kind === 'closed'
          ? { connections: p.connections, durationMs: p.durationMs, requests: p.requests }
          : { rate: p.rate, durationMs: p.durationMs, maxInFlight: p.maxInFlight, connections: p.connections };
      const flags = phaseFlags({ kind: p.kind, params }, entry.summaries, this.runnerCpus);
      return { name: p.name, kind: p.kind, params, warmupMs: s.warmupMs, trials: entry.summaries, merged, flags };
    });
  }
}

export async function runPerfGate(opts: RunOptions, deps: RunDeps): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const config = loadConfig(opts.configFile);
  const selected = selectScenarios(config, opts.scenarios);
  const scenarios = opts.mode === 'sweep' ? sweepScenarios(selected) : selected;
  const bodies = new Map<string, string[]>();
  const readBodies = (file: string): string[] => {
    let list = bodies.get(file);
    if (!list) {
      try {
        list = parseBodiesJsonl(readFileSync(file, 'utf8'), file);
      } catch (err) {
        throw usageError(`bodies file ${(err as Error).message}`);
      }
      bodies.set(file, list);
    }
    return list;
  };
  const plan = buildPlan(scenarios, config.sut.ready, readBodies, config.runner.workers);
  const hashes = new Map(
    scenarios.map((s) => [
      s.name,
      scenarioHash(s, s.request.bodiesFile ? readBodies(s.request.bodiesFile) : undefined),
    ]),
  );
  // read before anything starts: a corrupt baseline is a usage error in gate mode; update mode
  // replaces it anyway (and compares with nothing)
  const baselines = new Map<string, BaselineFile | undefined>();
  for (const s of opts.mode === 'sweep' ? [] : scenarios) {
    const path = baselinePath(opts.baselineDir, s.name);
    try {
      baselines.set(s.name, readBaseline(path));
    } catch (err) {
      if (opts.mode !== 'update') throw err;
      deps.progress.line(`[perf-gate] warning: ${(err as Error).message}; it will be replaced`);
    }
  }
  const image = opts.runnerImage || config.runner.image;

  const { docker, progress } = deps;
  const engine = await engineVersion(docker);
  const runId = opts.runId ?? newRunId();
  const labels = runLabels(runId);
  const compose = new ComposeProject(deps.exec, {
    project: projectName(runId),
    files: config.sut.composeFiles,
    cwd: config.dir,
    env: config.sut.env,
    labels,
  });
  const stopStats: Array<() => void> = [];
  let runnerId: string | undefined;
  let tornDown: Promise<void> | undefined;
  const teardown = (): Promise<void> => {
    tornDown ??= (async () => {
      for (const stop of stopStats) stop();
      if (runnerId)
        await docker
          .getContainer(runnerId)
          .remove({ force: true, v: true })
          .catch(() => {});
      await compose.down().catch(() => {});
      await sweepRun(docker, runId);
    })();
    return tornDown;
  };
  const unregister = deps.onSignal(teardown);
  const sutLogs = async (): Promise<string[]> => (await compose.logs(20).catch(() => [])).map((l) => `  ${l}`);

  try {
    progress.line(`[perf-gate] run ${runId}: starting the SUT (compose project ${compose.opts.project})`);
    await compose.prepare();
    const upError = await compose.up(config.sut.services, config.sut.build, opts.healthTimeoutS ?? 120);
    if (upError !== undefined) {
      throw environmentError(`SUT failed to start or become healthy: ${lastLine(upError)}`, await sutLogs());
    }
    const containers = (await projectContainers(docker, compose.opts.project)).filter((c) => c.state === 'running');
    const networks = await projectNetworks(docker, compose.opts.project);
    const collector = new TrialCollector(config.runner.cpus);
    for (const c of containers) {
      const s = await streamStats(docker, c.id, (sample) => collector.sample(c.service, sample));
      stopStats.push(s.stop);
    }

    const crashed = watchContainers(docker, compose.opts.project, containers);
    stopStats.push(crashed.stop);

    let notReady: Extract<RunnerEvent, { t: 'not-ready' }> | undefined;
    let fatal: string | undefined;
    let done = false;
    const runner = await startRunner(
      docker,
      { image, runId, labels, networks, cpus: config.runner.cpus, script: deps.runnerScript(), plan },
      (e) => {
        if (e.t === 'not-ready') notReady = e;
        else if (e.t === 'fatal') fatal = e.message;
        else if (e.t === 'done') done = true;
        else if (e.t === 'ready') progress.line('[perf-gate] SUT ready; load phases start');
        else if (e.t === 'warning') progress.line(`[perf-gate] warning: ${e.message}`);
        collector.onEvent(e, Date.now());
        progress.onEvent(e);
      },
      (line) => {
        if (process.env.PERF_GATE_DEBUG) progress.line(`[runner] ${line}`);
      },
    );
    runnerId = runner.containerId;
    const runnerStats = await streamStats(docker, runner.containerId, (s) => collector.sample(RUNNER_RESOURCE_KEY, s));
    stopStats.push(runnerStats.stop);

    const outcome = await Promise.race([
      runner.exited.then((code) => ({ kind: 'exited' as const, code })),
      crashed.promise.then((c) => ({ kind: 'crashed' as const, container: c })),
    ]);
    progress.finish();
    if (outcome.kind === 'crashed') {
      throw environmentError(
        `SUT crashed: service ${outcome.container.service} stopped (${outcome.container.state}) during the run`,
        await sutLogs(),
      );
    }
    if (notReady) {
      throw environmentError(
        `SUT never ready: ${notReady.url} did not answer 2xx/3xx within ${notReady.timeoutMs / 1000}s (last: ${notReady.error})`,
        await sutLogs(),
      );
    }
    if (fatal !== undefined)
      throw environmentError(
        `runner failed: ${fatal}`,
        runner.stderrTail().map((l) => `  ${l}`),
      );
    if (!done || outcome.code !== 0) {
      const crash = await crashed.check();
      if (crash) {
        throw environmentError(
          `SUT crashed: service ${crash.service} stopped (${crash.state}) during the run`,
          await sutLogs(),
        );
      }
      throw environmentError(
        `runner died (exit code ${outcome.code}) before finishing`,
        runner.stderrTail().map((l) => `  ${l}`),
      );
    }

    const git = await gitInfo(deps.exec, config.dir);
    const provenance: Provenance = {
      time: startedAt,
      commit: git.commit,
      ref: git.ref,
      runner: machineInfo(),
      docker: { version: engine.version, apiVersion: engine.apiVersion },
      runnerImage: image,
      sut: { images: await imageDigests(docker, containers) },
    };
    const scenarioResults: ScenarioResult[] = scenarios.map((s) => ({
      name: s.name,
      scenarioHash: hashes.get(s.name) as string,
      phases: collector.phases(s),
      thresholds: s.thresholds,
    }));
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
    // a sweep explores; it is never compared and never fails
    const { results, verdict, regressions } =
      opts.mode === 'sweep'
        ? { results: measured, verdict: 'pass' as const, regressions: 0 }
        : gateResults(measured, baselines, (name) => thresholds.get(name));
    const resultsPath = resolve(opts.outDir, 'perf-gate-results.json');
    writeFileAtomic(resultsPath, stableStringify(results));
    const report = renderMarkdown(results, { reportId: opts.reportId ?? '' });
    const reportPath = resolve(opts.outDir, 'perf-gate-report.md');
    writeFileAtomic(reportPath, report);
    const baselinesUpdated: string[] = [];
    if (opts.mode === 'update') {
      for (const r of scenarioResults) {
        const path = baselinePath(opts.baselineDir, r.name);
        writeFileAtomic(path, stableStringify(baselineOf(r, provenance)));
        baselinesUpdated.push(path);
      }
    }
    return { results, resultsPath, reportPath, report, verdict, regressions, baselinesUpdated };
  } catch (err) {
    progress.finish();
    if (err instanceof UserError) throw err;
    throw environmentError(`docker: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    await teardown();
    unregister();
  }
}

/** Polls the SUT containers that were running after `up`; resolves when one of them stops. */
function watchContainers(docker: Docker, project: string, running: SutContainer[]) {
  const ids = new Set(running.map((c) => c.id));
  let timer: NodeJS.Timeout | undefined;
  const check = async (): Promise<SutContainer | undefined> => {
    const now = await projectContainers(docker, project).catch(() => undefined);
    if (!now) return undefined;
    const byId = new Map(now.map((c) => [c.id, c]));
    for (const id of ids) {
      const c = byId.get(id);
      if (c?.state !== 'running')
        return c ?? { ...(running.find((r) => r.id === id) as SutContainer), state: 'removed' };
    }
    return undefined;
  };
  const promise = new Promise<SutContainer>((resolvePromise) => {
    const tick = async () => {
      const c = await check();
      if (c) resolvePromise(c);
      else timer = setTimeout(tick, 1000);
    };
    timer = setTimeout(tick, 1000);
  });
  return { promise, check, stop: () => clearTimeout(timer) };
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

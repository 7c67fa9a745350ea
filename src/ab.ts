// `perf-gate run --mode ab --base REF`: head (the workspace) against base (REF's tree, checked out as
// a git worktree) in the same run. Both SUTs boot once, each its own compose project; trials run
// one side at a time in ABBA order; the verdict is paired (compare/ab.ts). Scenarios and thresholds
// come from the head's config. Everything is torn down and the worktree removed, whatever happens.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { abOrder, compareAbScenario } from './compare/ab.js';
import { overallVerdict } from './compare/compare.js';
import type { Config } from './config/types.js';
import { loadConfig } from './config/load.js';
import { projectName, runLabels } from './docker/labels.js';
import { environmentError, usageError } from './errors.js';
import type { Exec } from './exec.js';
import { lastLine } from './exec.js';
import type { RunnerPlan } from './plan.js';
import { hashesOf, bodiesReader, planRun } from './run-plan.js';
import {
  debugLog,
  eventSink,
  newRunId,
  provenanceOf,
  publishFiles,
  type RunDeps,
  type RunOptions,
  type RunOutcome,
} from './run-steps.js';
import { RESULTS_SCHEMA, type ResultsFile, type ScenarioResult } from './results/types.js';
import { TrialCollector } from './session/collect.js';
import type { Side } from './session/sut-session.js';
import { withSessions } from './session/with-sessions.js';

/** A base tree checked out beside the workspace. */
export interface BaseTree {
  ref: string;
  commit: string;
  /** the repository root of the workspace */
  repoRoot: string;
  /** where the base tree is checked out */
  dir: string;
  remove: () => Promise<void>;
}

async function git(exec: Exec, cwd: string, args: string[]) {
  return exec('git', args, { cwd, timeoutMs: 120_000 });
}

/** Resolves REF to a commit (fetching it when the clone is shallow or lacks it) and checks it out as a
 * detached worktree in a temporary directory. A ref that cannot be resolved is the user's mistake (2). */
export async function checkoutBase(exec: Exec, cwd: string, ref: string): Promise<BaseTree> {
  const top = await git(exec, cwd, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) throw usageError(`--base ${ref}: ${cwd} is not inside a git repository`);
  const repoRoot = top.stdout.trim();
  const verify = () => git(exec, repoRoot, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  let sha = await verify();
  if (sha.code !== 0 && !ref.startsWith('-')) {
    // the Action's checkout is shallow: fetch the base commit
    await git(exec, repoRoot, ['fetch', '--no-tags', '--depth=1', 'origin', ref]);
    sha = await verify();
    if (sha.code !== 0) {
      const fetched = await git(exec, repoRoot, ['rev-parse', '--verify', '--quiet', 'FETCH_HEAD^{commit}']);
      if (fetched.code === 0 && /^[0-9a-f]{40}$/.test(ref)) sha = fetched;
    }
  }
  if (sha.code !== 0) throw usageError(`--base ${ref}: no such commit in this repository (nor could it be fetched)`);
  const commit = sha.stdout.trim();
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-base-'));
  const added = await git(exec, repoRoot, ['worktree', 'add', '--detach', '--force', dir, commit]);
  if (added.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw environmentError(`base: git worktree add ${commit.slice(0, 12)} failed: ${lastLine(added.stderr)}`);
  }
  return {
    ref,
    commit,
    repoRoot,
    dir,
    remove: async () => {
      await git(exec, repoRoot, ['worktree', 'remove', '--force', dir]);
      rmSync(dir, { recursive: true, force: true });
      await git(exec, repoRoot, ['worktree', 'prune']);
    },
  };
}

/** The base side's SUT: the base tree's own config when it has one that loads, else the head's
 * `sut` section with its paths moved into the base tree. */
export function baseSut(
  head: Config,
  tree: Pick<BaseTree, 'repoRoot' | 'dir'>,
  warn: (line: string) => void,
): { sut: Config['sut']; dir: string; config: Config | undefined } {
  const into = (path: string) => join(tree.dir, relative(tree.repoRoot, path));
  const baseConfigFile = into(head.file);
  if (existsSync(baseConfigFile)) {
    try {
      const config = loadConfig(baseConfigFile, tree.dir);
      return { sut: config.sut, dir: config.dir, config };
    } catch (err) {
      warn(
        `[perf-gate] warning: base: ${(err as Error).message.split('\n')[0]}; using the head's sut section on the base tree`,
      );
    }
  }
  const composeFiles = head.sut.composeFiles.map(into);
  const missing = composeFiles.find((f) => !existsSync(f));
  if (missing) {
    throw environmentError(`base: compose file ${relative(tree.dir, missing)} is not in the base tree`);
  }
  return { sut: { ...head.sut, composeFiles }, dir: into(head.dir), config: undefined };
}

/** One trial of every scenario: what each runner launch of an A/B run does. */
function oneTrial(plan: RunnerPlan): RunnerPlan {
  return { ...plan, scenarios: plan.scenarios.map((s) => ({ ...s, trials: 1 })) };
}

export async function runAb(opts: RunOptions, deps: RunDeps): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const { progress } = deps;
  if (!opts.baseRef) throw usageError('--mode ab needs --base REF (the commit, branch or tag to compare against)');
  const p = planRun(opts, (l) => progress.line(l));
  const { config, scenarios } = p;
  const pairs = opts.pairs ?? config.ab.pairs;
  const engine = await deps.docker.version();
  const runId = opts.runId ?? newRunId();
  const labels = runLabels(runId);
  const tree = await checkoutBase(deps.exec, config.dir, opts.baseRef);
  try {
    const base = baseSut(config, tree, (l) => progress.line(l));
    const warnings: string[] = [];
    if (base.config) {
      const baseHashes = hashesOf(
        base.config.scenarios.filter((s) => p.hashes.has(s.name)),
        bodiesReader(),
      );
      for (const s of scenarios) {
        const h = baseHashes.get(s.name);
        if (h === undefined) warnings.push(`scenario ${s.name} is new in head; both sides run the head's definition`);
        else if (h !== p.hashes.get(s.name)) {
          warnings.push(`scenario ${s.name} is defined differently on base; both sides run the head's definition`);
        }
      }
    }
    for (const w of warnings) progress.line(`[perf-gate] note: ${w}`);
    const collectors: Record<Side, TrialCollector> = {
      base: new TrialCollector(config.runner.cpus),
      head: new TrialCollector(config.runner.cpus),
    };
    const side = (s: Side, sut: Config['sut'], dir: string) => ({
      opts: {
        runId,
        labels,
        side: s,
        services: sut.services,
        build: sut.build,
        healthTimeoutS: opts.healthTimeoutS ?? 120,
      },
      compose: deps.compose({
        project: `${projectName(runId)}-${s}`,
        files: sut.composeFiles,
        cwd: dir,
        env: sut.env,
        labels,
      }),
      sample: (key: string, sample: Parameters<TrialCollector['sample']>[1]) => collectors[s].sample(key, sample),
    });
    progress.line(
      `[perf-gate] run ${runId}: A/B, head against base ${tree.commit.slice(0, 12)} (${opts.baseRef}), ${pairs} interleaved pairs`,
    );
    const images = await withSessions(
      runId,
      [side('base', base.sut, base.dir), side('head', config.sut, config.dir)],
      { docker: deps.docker, onSignal: deps.onSignal, log: debugLog(progress) },
      async ([baseSession, headSession]) => {
        const sessions = { base: baseSession!, head: headSession! };
        const plan = oneTrial(p.plan);
        const script = deps.runnerScript();
        try {
          for (const [i, step] of abOrder(pairs).entries()) {
            progress.line(`[perf-gate] pair ${step.pair + 1}/${pairs}: ${step.side} (${i + 1}/${pairs * 2})`);
            await sessions[step.side].run(
              { image: p.image, cpus: config.runner.cpus, script, plan },
              eventSink(collectors[step.side], progress, `${step.side}: `),
            );
          }
        } finally {
          progress.finish();
        }
        return { head: await sessions.head.imageDigests(), base: await sessions.base.imageDigests() };
      },
    );

    const provenance = await provenanceOf(deps, config.dir, startedAt, engine, p.image, images.head);
    const resultsOf = (s: Side): ScenarioResult[] =>
      scenarios.map((sc) => ({
        name: sc.name,
        scenarioHash: p.hashes.get(sc.name) as string,
        phases: collectors[s].phases(sc),
        thresholds: sc.thresholds,
      }));
    const head = resultsOf('head');
    const baseResults = resultsOf('base');
    const comparisons = head.flatMap((h, i) =>
      compareAbScenario(h, baseResults[i] as ScenarioResult, scenarios[i]?.thresholds ?? {}),
    );
    const results: ResultsFile = {
      schema: RESULTS_SCHEMA,
      runId,
      mode: 'ab',
      config: opts.configFile,
      startedAt,
      finishedAt: new Date().toISOString(),
      provenance,
      scenarios: head.map((h, i) => ({
        ...h,
        baselineLatency: Object.fromEntries(
          (baseResults[i] as ScenarioResult).phases.map((ph) => [ph.name, ph.merged.latency]),
        ),
      })),
      comparisons,
      ab: {
        baseRef: opts.baseRef,
        baseCommit: tree.commit,
        headCommit: provenance.commit,
        pairs,
        order: 'ABBA',
        baseImages: images.base,
        base: baseResults,
        notes: warnings,
      },
    };
    const verdict = overallVerdict(comparisons);
    const files = publishFiles(results, opts.outDir, opts.reportId ?? '');
    return {
      results,
      ...files,
      verdict,
      regressions: comparisons.filter((c) => c.result === 'regression').length,
      baselinesUpdated: [],
    };
  } finally {
    await tree.remove();
  }
}

// `perf-gate run --mode ab --base REF`: head (the workspace) against base (REF's tree, checked out as
// a git worktree) in the same run. Both SUTs boot once, each its own compose project; trials run
// one side at a time in ABBA order; the verdict is paired (compare/ab.ts). Scenarios and thresholds
// come from the head's config. Everything is torn down and the worktree removed, whatever happens.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { abOrder, compareAbScenario } from './compare/ab.js';
import { overallVerdict } from './compare/compare.js';
import type { Config } from './config/types.js';
import { loadConfig } from './config/load.js';
import { runLabels } from './docker/labels.js';
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
  sessionSpec,
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

/** where a fetched base commit is kept while the run needs it (removed with the worktree) */
export const BASE_FETCH_REF = 'refs/perf-gate/base';

/**
 * Resolves REF to a commit and checks it out as a detached worktree in a temporary directory. A REF
 * the clone lacks (the Action's checkout is shallow) is fetched from `origin` into BASE_FETCH_REF
 * (`origin/main` fetches the remote's `main`); a failed fetch is never papered over with whatever
 * FETCH_HEAD held. A REF that cannot be resolved is the user's mistake (exit 2); git missing or a
 * worktree that cannot be made is the environment's (exit 3).
 */
export async function checkoutBase(exec: Exec, cwd: string, ref: string): Promise<BaseTree> {
  const top = await git(exec, cwd, ['rev-parse', '--show-toplevel']);
  if (top.code === 127) throw environmentError(`--base ${ref}: git is not installed (${lastLine(top.stderr)})`);
  if (top.code !== 0) throw usageError(`--base ${ref}: ${cwd} is not inside a git repository`);
  if (ref.startsWith('-') || /\s/.test(ref)) throw usageError(`--base ${JSON.stringify(ref)}: not a git ref`);
  const repoRoot = top.stdout.trim();
  const resolve = (name: string) => git(exec, repoRoot, ['rev-parse', '--verify', '--quiet', `${name}^{commit}`]);
  let sha = await resolve(ref);
  let fetched = false;
  if (sha.code !== 0) {
    const remoteName = ref.replace(/^origin\//, '');
    const fetch = await git(exec, repoRoot, [
      'fetch',
      '--no-tags',
      '--depth=1',
      'origin',
      `+${remoteName}:${BASE_FETCH_REF}`,
    ]);
    if (fetch.code !== 0) {
      throw usageError(
        `--base ${ref}: no such commit in this repository, and fetching it from origin failed (${lastLine(fetch.stderr) || `exit ${fetch.code}`})`,
      );
    }
    fetched = true;
    sha = await resolve(BASE_FETCH_REF);
  }
  const commit = sha.stdout.trim();
  if (sha.code !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) {
    throw usageError(`--base ${ref}: no such commit in this repository`);
  }
  // a commit id asked for must be the commit checked out
  if (/^[0-9a-f]{7,64}$/.test(ref) && !commit.startsWith(ref)) {
    throw usageError(`--base ${ref}: resolved to ${commit}, not the commit asked for`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-base-'));
  const added = await git(exec, repoRoot, ['worktree', 'add', '--detach', '--force', dir, commit]);
  if (added.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw environmentError(`base: git worktree add ${commit.slice(0, 12)} failed: ${lastLine(added.stderr)}`);
  }
  let removed: Promise<void> | undefined;
  return {
    ref,
    commit,
    repoRoot,
    dir,
    // never throws: a leftover worktree must not replace the run's verdict or error
    remove: () =>
      (removed ??= (async () => {
        await git(exec, repoRoot, ['worktree', 'remove', '--force', dir]).catch(() => undefined);
        try {
          rmSync(dir, { recursive: true, force: true });
        } catch {
          // files a container created as root: the temp dir stays, the worktree entry goes
        }
        await git(exec, repoRoot, ['worktree', 'prune']).catch(() => undefined);
        if (fetched) await git(exec, repoRoot, ['update-ref', '-d', BASE_FETCH_REF]).catch(() => undefined);
      })()),
  };
}

/** The base side's SUT: the base tree's own config when it has one that loads, else the head's
 * `sut` section with its paths moved into the base tree. */
export function baseSut(
  head: Config,
  tree: Pick<BaseTree, 'repoRoot' | 'dir' | 'ref'>,
  warn: (line: string) => void,
): { sut: Config['sut']; dir: string; config: Config | undefined } {
  // both sides resolved: a symlinked workspace or /var → /private/var must not lead outside the tree
  const root = realpathSync(tree.repoRoot);
  const into = (path: string) => join(tree.dir, relative(root, existsSync(path) ? realpathSync(path) : path));
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
    throw usageError(`base: compose file ${relative(tree.dir, missing)} is not in the base tree (at ${tree.ref})`);
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
  const p = planRun(opts, (l) => progress.line(l), deps);
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
      // only a note: a base bodies file that does not read is "defined differently", not an error
      const readBase = bodiesReader();
      const baseHashes = new Map<string, string>();
      for (const s of base.config.scenarios.filter((x) => p.hashes.has(x.name))) {
        try {
          baseHashes.set(s.name, hashesOf([s], readBase).get(s.name) as string);
        } catch {
          baseHashes.set(s.name, 'unreadable');
        }
      }
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
    const run = { runId, labels, healthTimeoutS: opts.healthTimeoutS };
    progress.line(
      `[perf-gate] run ${runId}: A/B, head against base ${tree.commit.slice(0, 12)} (${opts.baseRef}), ${pairs} interleaved pairs`,
    );
    const images = await withSessions(
      runId,
      [
        sessionSpec(deps, run, base.sut, base.dir, collectors.base, 'base'),
        sessionSpec(deps, run, config.sut, config.dir, collectors.head, 'head'),
      ],
      {
        docker: deps.docker,
        // a signal exits the process after the teardown: the worktree goes with the containers
        onSignal: (teardown) =>
          deps.onSignal(async () => {
            await teardown();
            await tree.remove();
          }),
        log: debugLog(progress),
      },
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
    const head = collectors.head.results(scenarios, p.hashes);
    const baseResults = collectors.base.results(scenarios, p.hashes);
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
    const files = publishFiles(results, opts);
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

// A/B runs' base side: REF's tree checked out as a git worktree beside the workspace, the SUT it
// boots, and what differs from head. Scenarios and thresholds come from the head's config; the
// measuring is session/measure.ts, the verdict compare/ab.ts, the pipeline run.ts.
import { join, relative } from 'node:path';
import type { Config, Scenario } from '../config-parts/types.js';
import { loadConfig } from '../config/load.js';
import { environmentError, usageError } from '../common/errors.js';
import type { Exec } from '../common/exec.js';
import type { ReadFs } from '../common/read-fs.js';
import { lastLine } from '../common/exec.js';
import type { RunFiles } from './contract.js';
import { hashesOf, bodiesReader } from './plan.js';

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
export async function checkoutBase(
  exec: Exec,
  cwd: string,
  ref: string,
  files: Pick<RunFiles, 'makeTempDir' | 'removeDir'>,
): Promise<BaseTree> {
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
  const dir = files.makeTempDir('perf-gate-base-');
  const added = await git(exec, repoRoot, ['worktree', 'add', '--detach', '--force', dir, commit]);
  if (added.code !== 0) {
    files.removeDir(dir);
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
          files.removeDir(dir);
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
  fs: ReadFs,
): { sut: Config['sut']; dir: string; config: Config | undefined } {
  // both sides resolved: a symlinked workspace or /var → /private/var must not lead outside the tree
  const root = fs.realpath(tree.repoRoot);
  const into = (path: string) => join(tree.dir, relative(root, fs.exists(path) ? fs.realpath(path) : path));
  const baseConfigFile = into(head.file);
  if (fs.exists(baseConfigFile)) {
    try {
      const config = loadConfig(baseConfigFile, tree.dir, fs);
      return { sut: config.sut, dir: config.dir, config };
    } catch (err) {
      warn(
        `[perf-gate] warning: base: ${(err as Error).message.split('\n')[0]}; using the head's sut section on the base tree`,
      );
    }
  }
  const composeFiles = head.sut.composeFiles.map(into);
  const missing = composeFiles.find((f) => !fs.exists(f));
  if (missing) {
    throw usageError(`base: compose file ${relative(tree.dir, missing)} is not in the base tree (at ${tree.ref})`);
  }
  return { sut: { ...head.sut, composeFiles }, dir: into(head.dir), config: undefined };
}

/**
 * Notes for the report: scenarios new in head, or defined differently on base (both sides run the
 * head's definition). Only notes: a base bodies file that does not read is "defined differently".
 */
export function baseNotes(
  head: { scenarios: Scenario[]; hashes: ReadonlyMap<string, string> },
  base: Config | undefined,
  fs: ReadFs,
): string[] {
  if (!base) return [];
  const readBase = bodiesReader(fs);
  const baseHashes = new Map<string, string>();
  for (const s of base.scenarios.filter((x) => head.hashes.has(x.name))) {
    try {
      baseHashes.set(s.name, hashesOf([s], readBase).get(s.name) as string);
    } catch {
      baseHashes.set(s.name, 'unreadable');
    }
  }
  const notes: string[] = [];
  for (const s of head.scenarios) {
    const h = baseHashes.get(s.name);
    if (h === undefined) notes.push(`scenario ${s.name} is new in head; both sides run the head's definition`);
    else if (h !== head.hashes.get(s.name)) {
      notes.push(`scenario ${s.name} is defined differently on base; both sides run the head's definition`);
    }
  }
  return notes;
}

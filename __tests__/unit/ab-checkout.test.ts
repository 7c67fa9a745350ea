import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { failure } from './fixtures.js';
import { BASE_FETCH_REF, checkoutBase } from '../../src/run/base.js';
import { realFiles } from '../../src/run/real-files.js';
import { EXIT_ENVIRONMENT, EXIT_USAGE } from '../../src/common/errors.js';
import type { Exec, ExecResult } from '../../src/common/exec.js';

const SHA = 'a'.repeat(40);
const OTHER = 'b'.repeat(40);

/** A git that answers from a table: `rev-parse --verify` of the refs it knows, and scripted results
 * for fetch and worktree; every call is recorded. */
function fakeGit(opts: {
  refs?: Record<string, string>;
  fetch?: ExecResult;
  fetchedSha?: string;
  worktree?: ExecResult;
  top?: ExecResult;
}) {
  const calls: string[][] = [];
  const refs = { ...(opts.refs ?? {}) };
  const ok = (stdout = ''): ExecResult => ({ code: 0, stdout, stderr: '' });
  const exec: Exec = async (_cmd, args) => {
    calls.push(args);
    const [sub] = args;
    if (sub === 'rev-parse' && args[1] === '--show-toplevel') return opts.top ?? ok('/repo\n');
    if (sub === 'rev-parse') {
      const name = (args[3] as string).replace(/\^\{commit\}$/, '');
      const sha = refs[name];
      return sha ? ok(`${sha}\n`) : { code: 1, stdout: '', stderr: '' };
    }
    if (sub === 'fetch') {
      const result = opts.fetch ?? ok();
      if (result.code === 0) refs[BASE_FETCH_REF] = opts.fetchedSha ?? SHA;
      return result;
    }
    if (sub === 'worktree' && args[1] === 'add') return opts.worktree ?? ok();
    return ok();
  };
  return { exec, calls };
}

describe('checkoutBase', () => {
  it('a ref the clone has: no fetch; the worktree is added at its commit and removed afterwards', async () => {
    const git = fakeGit({ refs: { 'HEAD~1': SHA } });
    const tree = await checkoutBase(git.exec, '/repo/sub', 'HEAD~1', realFiles);
    expect(tree.commit).toBe(SHA);
    expect(git.calls.some((c) => c[0] === 'fetch')).toBe(false);
    expect(git.calls).toContainEqual(['worktree', 'add', '--detach', '--force', tree.dir, SHA]);
    expect(existsSync(tree.dir)).toBe(true);
    await tree.remove();
    await tree.remove();
    expect(existsSync(tree.dir)).toBe(false);
    expect(git.calls.filter((c) => c[0] === 'worktree' && c[1] === 'remove')).toHaveLength(1);
    expect(git.calls).toContainEqual(['worktree', 'prune']);
    expect(git.calls.some((c) => c[0] === 'update-ref')).toBe(false);
  });

  it.each<[string, string]>([
    ['origin/main', '+main:refs/perf-gate/base'],
    ['main', '+main:refs/perf-gate/base'],
    [SHA, `+${SHA}:refs/perf-gate/base`],
  ])(
    '%s missing in a shallow clone: fetched from origin into its own ref, which goes with the worktree',
    async (ref, refspec) => {
      const git = fakeGit({});
      const tree = await checkoutBase(git.exec, '/repo', ref, realFiles);
      expect(git.calls).toContainEqual(['fetch', '--no-tags', '--depth=1', 'origin', refspec]);
      expect(tree.commit).toBe(SHA);
      await tree.remove();
      expect(git.calls).toContainEqual(['update-ref', '-d', BASE_FETCH_REF]);
    },
  );

  it('a failed fetch is exit 2 with its reason, and nothing is checked out', async () => {
    const git = fakeGit({
      fetch: { code: 128, stdout: '', stderr: "fatal: couldn't find remote ref nope\n" },
    });
    const err = await failure(checkoutBase(git.exec, '/repo', 'nope', realFiles));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.message).toBe(
      "--base nope: no such commit in this repository, and fetching it from origin failed (fatal: couldn't find remote ref nope)",
    );
    expect(git.calls.some((c) => c[0] === 'worktree')).toBe(false);
  });

  it('a commit id that resolves to another commit is refused, never compared', async () => {
    const git = fakeGit({ fetchedSha: OTHER });
    const err = await failure(checkoutBase(git.exec, '/repo', SHA.slice(0, 12), realFiles));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.message).toMatch(/resolved to b{40}, not the commit asked for/);
  });

  it.each<[string, ExecResult, number, RegExp]>([
    ['git missing', { code: 127, stdout: '', stderr: 'spawn git ENOENT' }, EXIT_ENVIRONMENT, /git is not installed/],
    [
      'not a repository',
      { code: 128, stdout: '', stderr: 'fatal: not a git repository' },
      EXIT_USAGE,
      /is not inside a git repository/,
    ],
  ])('%s', async (_label, top, code, message) => {
    const err = await failure(checkoutBase(fakeGit({ top }).exec, '/somewhere', 'main', realFiles));
    expect(err.exitCode).toBe(code);
    expect(err.message).toMatch(message);
  });

  it('an option-looking ref is not passed to git', async () => {
    const git = fakeGit({});
    const err = await failure(checkoutBase(git.exec, '/repo', '--upload-pack=evil', realFiles));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(git.calls.some((c) => c[0] === 'fetch')).toBe(false);
  });

  it('a worktree that cannot be added is exit 3, naming the base, and its temp dir is gone', async () => {
    const git = fakeGit({
      refs: { main: SHA },
      worktree: { code: 128, stdout: '', stderr: 'fatal: disk full' },
    });
    const err = await failure(checkoutBase(git.exec, '/repo', 'main', realFiles));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe(`base: git worktree add ${SHA.slice(0, 12)} failed: fatal: disk full`);
    const dir = git.calls.find((c) => c[0] === 'worktree')?.[4] as string;
    expect(existsSync(dir)).toBe(false);
  });

  it('remove never throws, even when git does', async () => {
    const git = fakeGit({ refs: { main: SHA } });
    const tree = await checkoutBase(git.exec, '/repo', 'main', realFiles);
    const broken: Exec = async () => {
      throw new Error('git vanished');
    };
    const failing = await checkoutBase(
      async (cmd, args, o) =>
        args[0] === 'worktree' && args[1] !== 'add' ? broken(cmd, args, o) : git.exec(cmd, args, o),
      '/repo',
      'main',
      realFiles,
    );
    await expect(failing.remove()).resolves.toBeUndefined();
    await tree.remove();
  });
});

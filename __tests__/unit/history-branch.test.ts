// The trend history on a branch of its own (src/action/history-branch.ts), on real git repositories in
// a temporary directory: an origin (bare) and clones of it, as a workflow's checkout is. Read before
// the branch exists, appended without force, every other file of the branch kept, and a race between
// two refreshes: the second's push is refused, so it reads again and appends to what is there.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  appendBranchHistory,
  branchProblem,
  fileProblem,
  type Git,
  HISTORY_ATTEMPTS,
  readBranchHistory,
} from '../../src/action/history-branch.js';
import { UserError } from '../../src/common/errors.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** git run in `dir`, as the Action's binding runs it in the workspace. */
const gitIn =
  (dir: string): Git =>
  (args, opts) => {
    const r = spawnSync('git', [...args], {
      cwd: dir,
      encoding: 'utf8',
      input: opts?.input,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', ...opts?.env },
    });
    return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
  };

const must = (git: Git, ...args: string[]) => {
  const r = git(args);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** An origin with one commit on main, and `n` clones of it (each a workflow's checkout). */
function origin(n: number): { origin: string; clones: Git[]; show: (ref: string) => string } {
  const root = mkdtempSync(join(tmpdir(), 'perf-gate-history-branch-'));
  dirs.push(root);
  const bare = join(root, 'origin.git');
  must(gitIn(root), 'init', '-q', '--bare', '-b', 'main', bare);
  const seed = join(root, 'seed');
  must(gitIn(root), 'clone', '-q', bare, seed);
  const s = gitIn(seed);
  must(s, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'base');
  must(s, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
  const clones = Array.from({ length: n }, (_, i) => {
    const dir = join(root, `clone${i}`);
    must(gitIn(root), 'clone', '-q', '--depth=1', `file://${bare}`, dir);
    return gitIn(dir);
  });
  return { origin: bare, clones, show: (ref) => must(gitIn(bare), 'show', ref) };
}

const line = (n: number) => `{"run":${n}}\n`;
const add = (n: number) => (text: string) => text + line(n);

describe('the history on a branch of its own', () => {
  it('no branch yet: an empty history; the first append makes the branch with the file alone', () => {
    const { clones, show } = origin(1);
    const git = clones[0] as Git;
    expect(readBranchHistory(git, 'perf-history', 'perf-history.jsonl')).toEqual({ text: '', parent: null });
    const first = appendBranchHistory(git, 'perf-history', 'perf-history.jsonl', add(1), 'perf-gate: run 1');
    expect(first.attempts).toBe(1);
    expect(show('perf-history:perf-history.jsonl')).toBe(line(1).trim());
    expect(show('perf-history').split('\n')[0]).toMatch(/^commit [0-9a-f]{40}$/);
    // the second reads the first's and appends to it
    appendBranchHistory(git, 'perf-history', 'perf-history.jsonl', add(2), 'perf-gate: run 2');
    expect(readBranchHistory(git, 'perf-history', 'perf-history.jsonl').text).toBe(line(1) + line(2));
    expect(show('perf-history:perf-history.jsonl')).toBe((line(1) + line(2)).trim());
  });

  it('every other file of the branch is kept (a Pages site beside the history), a file in a folder too', () => {
    const { clones, show } = origin(1);
    const git = clones[0] as Git;
    must(git, 'checkout', '-q', '--orphan', 'gh-pages');
    must(git, 'rm', '-rfq', '--ignore-unmatch', '.');
    spawnSync('sh', ['-c', 'echo "<h1>site</h1>" > index.html'], { cwd: join(dirsOf(git)) });
    must(git, 'add', 'index.html');
    must(git, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '-m', 'site');
    must(git, 'push', '-q', 'origin', 'gh-pages');
    must(git, 'checkout', '-q', 'main');
    appendBranchHistory(git, 'gh-pages', 'data/perf-history.jsonl', add(1), 'perf-gate: run 1');
    expect(show('gh-pages:index.html')).toBe('<h1>site</h1>');
    expect(show('gh-pages:data/perf-history.jsonl')).toBe(line(1).trim());
    // the checkout's own branch, index and files are as they were
    expect(must(git, 'status', '--porcelain')).toBe('');
    expect(must(git, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
  });

  it('two refreshes racing: the second push is refused, read again and appended again; both entries kept', () => {
    const { clones, show } = origin(2);
    const [a, b] = clones as [Git, Git];
    appendBranchHistory(a, 'perf-history', 'h.jsonl', add(0), 'run 0');
    // a reads the branch; before its push, b appends and pushes
    let raced = false;
    const racing: Git = (args, opts) => {
      if (args[0] === 'push' && !raced) {
        raced = true;
        appendBranchHistory(b, 'perf-history', 'h.jsonl', add(2), 'run 2');
      }
      return a(args, opts);
    };
    const r = appendBranchHistory(racing, 'perf-history', 'h.jsonl', add(1), 'run 1');
    expect(r.attempts).toBe(2);
    expect(show('perf-history:h.jsonl')).toBe((line(0) + line(2) + line(1)).trim());
  });

  it('the files beside the history (the trend page) are made from the history as appended, again after a race', () => {
    const { clones, show } = origin(2);
    const [a, b] = clones as [Git, Git];
    const page = (history: string) => ({
      'site/page.html': `<p>${history.split('\n').filter(Boolean).length} runs</p>`,
    });
    appendBranchHistory(a, 'gh-pages', 'h.jsonl', add(0), 'run 0', page);
    expect(show('gh-pages:site/page.html')).toBe('<p>1 runs</p>');
    let raced = false;
    const racing: Git = (args, opts) => {
      if (args[0] === 'push' && !raced) {
        raced = true;
        appendBranchHistory(b, 'gh-pages', 'h.jsonl', add(2), 'run 2', page);
      }
      return a(args, opts);
    };
    expect(appendBranchHistory(racing, 'gh-pages', 'h.jsonl', add(1), 'run 1', page).attempts).toBe(2);
    // the page of all three runs, not of the two the refused attempt saw
    expect(show('gh-pages:site/page.html')).toBe('<p>3 runs</p>');
    expect(show('gh-pages:h.jsonl')).toBe((line(0) + line(2) + line(1)).trim());
  });

  it(`a branch that keeps moving: ${HISTORY_ATTEMPTS} attempts, then an environment error naming the branch`, () => {
    const { clones } = origin(2);
    const [a, b] = clones as [Git, Git];
    let n = 10;
    const always: Git = (args, opts) => {
      if (args[0] === 'push') appendBranchHistory(b, 'perf-history', 'h.jsonl', add(n++), 'other');
      return a(args, opts);
    };
    const err = (() => {
      try {
        appendBranchHistory(always, 'perf-history', 'h.jsonl', add(1), 'run 1');
      } catch (e) {
        return e as UserError;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(UserError);
    expect(err?.exitCode).toBe(3);
    expect(err?.message).toMatch(/^history-branch perf-history: the history could not be pushed: /);
    expect(n).toBe(10 + HISTORY_ATTEMPTS);
  });

  it('a push refused for any other reason (no write access) is not tried again', () => {
    const { clones } = origin(1);
    const git = clones[0] as Git;
    let pushes = 0;
    const denied: Git = (args, opts) => {
      if (args[0] !== 'push') return git(args, opts);
      pushes++;
      return { code: 128, stdout: '', stderr: 'remote: Permission to o/r.git denied to github-actions[bot].' };
    };
    expect(() => appendBranchHistory(denied, 'perf-history', 'h.jsonl', add(1), 'run 1')).toThrow(
      /could not be pushed: remote: Permission to o\/r\.git denied/,
    );
    expect(pushes).toBe(1);
  });

  it('a hook or a protected branch refusing the push ([remote rejected]) is final, its reason said', () => {
    const { clones } = origin(1);
    const git = clones[0] as Git;
    let pushes = 0;
    const hooked: Git = (args, opts) => {
      if (args[0] !== 'push') return git(args, opts);
      pushes++;
      return {
        code: 1,
        stdout:
          'To /origin.git\n!\tabc:refs/heads/perf-history\t[remote rejected] (protected branch hook declined)\nDone\n',
        stderr: 'remote: error: GH006: Protected branch update failed.\nerror: failed to push some refs\n',
      };
    };
    expect(() => appendBranchHistory(hooked, 'perf-history', 'h.jsonl', add(1), 'run 1')).toThrow(
      /could not be pushed: \[remote rejected\] \(protected branch hook declined\): error: GH006: Protected branch update failed\.$/,
    );
    expect(pushes).toBe(1);
  });

  it('run from a folder of the checkout: the same commit (the private index is found from anywhere)', () => {
    const { clones, show } = origin(1);
    const git = clones[0] as Git;
    const top = dirsOf(git);
    spawnSync('mkdir', ['-p', join(top, 'sub', 'dir')]);
    const inSub = gitIn(join(top, 'sub', 'dir'));
    appendBranchHistory(inSub, 'perf-history', 'h.jsonl', add(1), 'run 1');
    appendBranchHistory(inSub, 'perf-history', 'h.jsonl', add(2), 'run 2');
    expect(show('perf-history:h.jsonl')).toBe((line(1) + line(2)).trim());
    expect(must(git, 'status', '--porcelain')).toBe('');
  });

  it('a history file on the branch that cannot be read is an error, never an empty history', () => {
    const { clones } = origin(1);
    const git = clones[0] as Git;
    appendBranchHistory(git, 'perf-history', 'h.jsonl', add(1), 'run 1');
    const broken: Git = (args, opts) =>
      args[0] === 'cat-file' && args[1] === 'blob'
        ? { code: 1, stdout: '', stderr: 'fatal: ENOBUFS' }
        : git(args, opts);
    expect(() => readBranchHistory(broken, 'perf-history', 'h.jsonl')).toThrow(/h\.jsonl not read: fatal: ENOBUFS/);
  });

  it('no remote to fetch from: an environment error, not an empty history', () => {
    const root = mkdtempSync(join(tmpdir(), 'perf-gate-history-branch-'));
    dirs.push(root);
    const git = gitIn(root);
    must(git, 'init', '-q');
    expect(() => readBranchHistory(git, 'perf-history', 'h.jsonl')).toThrow(
      /^history-branch perf-history: git fetch failed/,
    );
  });

  it.each<[string, boolean]>([
    ['perf-history', true],
    ['gh-pages', true],
    ['data/perf', true],
    ['--upload-pack=evil', false],
    ['a..b', false],
    ['refs/heads/x:y', false],
    ['x.lock', false],
    ['a b', false],
    ['/abs', false],
    ['', false],
  ])('branch %j: %s', (branch, ok) => {
    expect(branchProblem(branch) === undefined).toBe(ok);
  });

  it.each<[string, boolean]>([
    ['perf-history.jsonl', true],
    ['data/perf-history.jsonl', true],
    ['../x', false],
    ['/etc/passwd', false],
    ['a/./b', false],
    ['a//b', false],
  ])('file %j: %s', (file, ok) => {
    expect(fileProblem(file) === undefined).toBe(ok);
  });
});

/** The directory a test's git runs in (read back from git itself). */
function dirsOf(git: Git): string {
  return must(git, 'rev-parse', '--show-toplevel');
}

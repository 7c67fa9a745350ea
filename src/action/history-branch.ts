// The trend history kept on a branch of its own (input `history-branch`), as github-action-benchmark
// keeps gh-pages: read from the branch before a run (no branch yet: an empty history), and appended by
// an update run with a commit on top of the branch's, pushed without force. Two refreshes racing: the
// second's push is refused, so it reads the branch again, appends its entry to what is there now and
// pushes again, a bounded number of times. Only the history file and its trend page change: every
// other file on the branch (a Pages site, say) is kept. No working tree is touched: the commit is made with git's
// plumbing and a private index file.
import { environmentError } from '../common/errors.js';

/** git in the workspace: its exit code and output (`input` on its stdin, `env` added to its environment). */
export type Git = (
  args: readonly string[],
  opts?: { input?: string; env?: Readonly<Record<string, string>> },
) => { code: number; stdout: string; stderr: string };

/** The ref the branch is fetched into (perf-gate's own, so no other ref of the checkout moves). */
export const HISTORY_REF = 'refs/perf-gate/history';
/** How many times an append is tried when the branch moved under it. */
export const HISTORY_ATTEMPTS = 3;
/** Who the history's commits are by. */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'github-actions[bot]',
  GIT_AUTHOR_EMAIL: '41898282+github-actions[bot]@users.noreply.github.com',
  GIT_COMMITTER_NAME: 'github-actions[bot]',
  GIT_COMMITTER_EMAIL: '41898282+github-actions[bot]@users.noreply.github.com',
};

/** A branch name git takes and nothing else: no option, no ref expression. */
export function branchProblem(branch: string): string | undefined {
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(branch) || branch.startsWith('-') || branch.startsWith('/'))
    return 'must be a branch name (letters, digits, ., _, / and -, not starting with - or /)';
  if (branch.includes('..') || branch.endsWith('/') || branch.endsWith('.lock') || branch.includes('//'))
    return 'must be a branch name git accepts';
  return undefined;
}

/** A path in the branch's tree: relative, no `.` or `..` part. */
export function fileProblem(file: string): string | undefined {
  const parts = file.split('/');
  if (file === '' || file.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..'))
    return 'must be a relative path in the branch (no . or .. part)';
  return undefined;
}

const oneLine = (text: string) => text.trim().split('\n').slice(-1)[0]?.slice(0, 300) ?? '';
/** What the remote said (its `remote:` lines), after a refusal's reason. */
const remoteSaid = (stderr: string) => {
  const lines = stderr
    .split('\n')
    .filter((l) => l.startsWith('remote:'))
    .map((l) => l.slice(7).trim())
    .filter(Boolean);
  return lines.length > 0 ? `: ${lines.join(' ').slice(0, 300)}` : '';
};

/** The branch's history file as it is on `origin` now, and the commit it is at (null: no branch yet). */
export function readBranchHistory(git: Git, branch: string, file: string): { text: string; parent: string | null } {
  const fetched = git(['fetch', '--no-tags', '--depth=1', 'origin', `+refs/heads/${branch}:${HISTORY_REF}`]);
  if (fetched.code !== 0) {
    // a branch that does not exist yet is an empty history; anything else (no remote, no access) is not
    if (/couldn't find remote ref|could not find remote ref/i.test(fetched.stderr)) return { text: '', parent: null };
    throw environmentError(`history-branch ${branch}: git fetch failed: ${oneLine(fetched.stderr)}`);
  }
  const parent = git(['rev-parse', '--verify', `${HISTORY_REF}^{commit}`]);
  if (parent.code !== 0) throw environmentError(`history-branch ${branch}: ${oneLine(parent.stderr)}`);
  // a branch without the file is an empty history; a file that is there but cannot be read is no
  // empty history (the next append would replace the whole of it)
  if (git(['cat-file', '-e', `${HISTORY_REF}:${file}`]).code !== 0) return { text: '', parent: parent.stdout.trim() };
  const shown = git(['cat-file', 'blob', `${HISTORY_REF}:${file}`]);
  if (shown.code !== 0) throw environmentError(`history-branch ${branch}: ${file} not read: ${oneLine(shown.stderr)}`);
  return { text: shown.stdout, parent: parent.stdout.trim() };
}

/** A commit of `parent`'s tree with each file holding its text (a new branch: those files alone). */
function commitOf(git: Git, parent: string | null, files: Record<string, string>, message: string): string {
  const must = (r: ReturnType<Git>, what: string) => {
    if (r.code !== 0) throw environmentError(`history-branch: git ${what} failed: ${oneLine(r.stderr)}`);
    return r.stdout.trim();
  };
  const blobs = Object.entries(files).map(
    ([file, text]) => [file, must(git(['hash-object', '-w', '--stdin'], { input: text }), 'hash-object')] as const,
  );
  const index = must(
    git(['rev-parse', '--path-format=absolute', '--git-path', 'perf-gate-history.index']),
    'rev-parse',
  );
  // a private index in .git (read-tree fills it afresh each time): the checkout's own is never touched
  const env = { GIT_INDEX_FILE: index };
  must(git(parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env }), 'read-tree');
  for (const [file, blob] of blobs)
    must(git(['update-index', '--add', '--cacheinfo', `100644,${blob},${file}`], { env }), 'update-index');
  const tree = must(git(['write-tree'], { env }), 'write-tree');
  const args = ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message];
  return must(git(args, { env: IDENTITY }), 'commit-tree');
}

/**
 * Appends to the branch's history: `append` is given the file as it is on the branch and returns it
 * with this run's entry; `beside` (the trend page) is given the appended history and returns other
 * files to write in the same commit. Pushed as a commit on top of the branch, without force. Refused
 * (the branch moved since it was read): read again and append again, up to HISTORY_ATTEMPTS times.
 * Returns the commit pushed and the attempts it took.
 */
export function appendBranchHistory(
  git: Git,
  branch: string,
  file: string,
  append: (text: string) => string,
  message: string,
  beside: (history: string) => Record<string, string> = () => ({}),
): { commit: string; attempts: number } {
  let last = '';
  for (let attempt = 1; attempt <= HISTORY_ATTEMPTS; attempt++) {
    const { text, parent } = readBranchHistory(git, branch, file);
    const appended = append(text);
    const commit = commitOf(git, parent, { ...beside(appended), [file]: appended }, message);
    const pushed = git(['push', '--porcelain', 'origin', `${commit}:refs/heads/${branch}`]);
    if (pushed.code === 0) return { commit, attempts: attempt };
    // --porcelain says each ref's fate on a line of its own: `!<TAB>from:to<TAB>[rejected] (why)`
    const refused = /^!\t[^\t]*\t(.*)$/m.exec(pushed.stdout)?.[1];
    last = refused ? `${refused.slice(0, 300)}${remoteSaid(pushed.stderr)}` : oneLine(pushed.stderr || pushed.stdout);
    // only a branch that moved is tried again; a refusal of any other kind (no write access, a
    // protected branch, a hook: `[remote rejected]`) is final
    if (!refused || !/^\[rejected\] \((fetch first|non-fast-forward|stale info)\)/.test(refused)) break;
  }
  throw environmentError(`history-branch ${branch}: the history could not be pushed: ${last}`);
}

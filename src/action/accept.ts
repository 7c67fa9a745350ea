// The Action's half of accepting a regression on purpose (compare/accept.ts): the pull request's
// comments read through the API, each `/perf-gate accept ROWS: REASON` line kept only when its author
// has write access to the repository, asked of the API (the comment's own text proves nothing). Bots'
// comments (perf-gate's own sticky one among them) are not read. Never throws: an API that fails is a
// warning, and the gate then judges without acceptances.
import { acceptanceLines, type Acceptance } from '../compare/accept.js';
import type { CommentLog } from './comment.js';
import type { GitHubApi, Permission } from './github.js';

/** The permissions that may accept a regression: those that can merge the pull request anyway. */
const MAY_ACCEPT: ReadonlySet<Permission> = new Set<Permission>(['admin', 'write']);

/** The most comment lines read as commands (a comment is anyone's text). */
export const MAX_ACCEPT_LINES = 50;

/**
 * The acceptances of pull request `pr`, the newest comment's first (a later acceptance of a row is the
 * one it carries), from authors with write access only; each line refused is a warning.
 */
export async function commentAcceptances(
  api: Pick<GitHubApi, 'listComments' | 'permission'>,
  pr: number,
  log: CommentLog,
): Promise<Acceptance[]> {
  let comments;
  try {
    comments = await api.listComments(pr);
  } catch (err) {
    log.warning(`perf-gate: could not read #${pr}'s comments for /perf-gate accept: ${(err as Error).message}`);
    return [];
  }
  const asked = comments
    .filter((c) => c.user && c.user.type !== 'Bot')
    .flatMap((c) => acceptanceLines(c.body, (c.user as { login: string }).login))
    .slice(-MAX_ACCEPT_LINES);
  const permissions = new Map<string, Permission | undefined>();
  const out: Acceptance[] = [];
  for (const a of asked.reverse()) {
    if ('problem' in a) {
      log.warning(`perf-gate: /perf-gate accept ${a.problem}`);
      continue;
    }
    if (!permissions.has(a.by)) permissions.set(a.by, await permissionOf(api, a.by, log));
    const permission = permissions.get(a.by);
    if (permission && MAY_ACCEPT.has(permission)) out.push(a);
    else
      log.warning(
        `perf-gate: /perf-gate accept ${a.rows} by ${a.by} not taken: ${permission ? `${a.by} has ${permission} access to the repository, not write` : `${a.by}'s access could not be read`}`,
      );
  }
  return out;
}

async function permissionOf(
  api: Pick<GitHubApi, 'permission'>,
  login: string,
  log: CommentLog,
): Promise<Permission | undefined> {
  try {
    return await api.permission(login);
  } catch (err) {
    log.warning(`perf-gate: could not read ${login}'s access to the repository: ${(err as Error).message}`);
    return undefined;
  }
}

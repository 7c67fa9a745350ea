// The Action's half of accepting a regression on purpose (compare/accept.ts): the pull request's
// comments read through the API, each `/perf-gate accept ROWS: REASON` line kept only when its author
// has write access to the repository, asked of the API (the comment's own text proves nothing; only a
// member's or collaborator's is asked about, the API's author_association says who is one). Bots'
// comments and perf-gate's own report (whoever posted it) are not read. Comments are read newest
// first, and an author's access is asked before any of their lines count, so lines from people
// without write access cannot crowd a writer's out. Never throws: an API that fails is a warning, and
// the gate then judges without acceptances.
import { acceptanceLines, type Acceptance } from '../compare/accept.js';
import { REPORT_MARKER_START } from '../report/markdown.js';
import type { CommentLog } from './comment.js';
import type { GitHubApi, IssueComment, LabelAdder, Permission } from './github.js';

/** The permissions that may accept a regression: those that can merge the pull request anyway. */
const MAY_ACCEPT: ReadonlySet<Permission> = new Set<Permission>(['admin', 'write']);

/** The comment authors whose access is asked: the others (CONTRIBUTOR, NONE, ...) cannot have write
 * access, so they are refused without a call (and cannot spend the calls a writer's comment needs). */
const ASSOCIATED: ReadonlySet<string> = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

/** The most acceptances kept, the most authors asked about, the most warnings written (a pull
 * request's comments are anyone's text). */
export const MAX_ACCEPTANCES = 50;
export const MAX_AUTHORS = 20;
export const MAX_WARNINGS = 10;

/** The label that accepts every failing row of a pull request, when someone with write access added it. */
export const ACCEPT_LABEL = 'perf-gate: accept';

/**
 * The acceptances of pull request `pr`: its comments' (the newest first: a later acceptance of a row is
 * the one it carries), then the label's (every failing row), each from someone with write access
 * only, never a bot; one refused is a warning. The label is asked of the API each time, not read from
 * the event: a re-run replays the event as it was, labels and all.
 */
export async function pullRequestAcceptances(
  api: Pick<GitHubApi, 'listComments' | 'permission' | 'labelledBy'>,
  pr: number,
  log: CommentLog,
): Promise<Acceptance[]> {
  const fromComments = await commentAcceptances(api, pr, log);
  let adder: LabelAdder | undefined;
  try {
    adder = await api.labelledBy(pr, ACCEPT_LABEL);
  } catch (err) {
    log.warning(`perf-gate: could not read who labelled #${pr} "${ACCEPT_LABEL}": ${(err as Error).message}`);
    return fromComments;
  }
  if (adder === undefined) return fromComments;
  const by = adder.login;
  if (adder.bot) {
    log.warning(
      `perf-gate: the label "${ACCEPT_LABEL}" not taken: ${by} added it, and a bot cannot accept a regression`,
    );
    return fromComments;
  }
  const permission = await permissionOf(api, by, log);
  if (!permission || !MAY_ACCEPT.has(permission)) {
    log.warning(
      `perf-gate: the label "${ACCEPT_LABEL}" not taken: ${by} added it${permission ? ` and has ${permission} access to the repository, not write` : `, whose access could not be read`}`,
    );
    return fromComments;
  }
  return [...fromComments, { rows: '*', reason: `the label "${ACCEPT_LABEL}"`, by }];
}

/** The `/perf-gate accept` lines of pull request `pr`'s comments, from authors with write access. */
export async function commentAcceptances(
  api: Pick<GitHubApi, 'listComments' | 'permission'>,
  pr: number,
  log: CommentLog,
): Promise<Acceptance[]> {
  let comments: IssueComment[];
  try {
    comments = await api.listComments(pr);
  } catch (err) {
    log.warning(`perf-gate: could not read #${pr}'s comments for /perf-gate accept: ${(err as Error).message}`);
    return [];
  }
  const warnings: string[] = [];
  const permissions = new Map<string, Permission | undefined>();
  const out: Acceptance[] = [];
  for (const c of [...comments].reverse()) {
    const login = c.user?.login;
    if (!login || c.user?.type === 'Bot' || c.body.includes(REPORT_MARKER_START)) continue;
    const lines = acceptanceLines(c.body, login).reverse();
    if (lines.length === 0) continue;
    if (c.association !== undefined && !ASSOCIATED.has(c.association)) {
      warnings.push(
        `perf-gate: /perf-gate accept by ${login} not taken: not a member or collaborator of the repository (${c.association})`,
      );
      continue;
    }
    if (!permissions.has(login)) {
      if (permissions.size >= MAX_AUTHORS) {
        warnings.push(`perf-gate: /perf-gate accept from more than ${MAX_AUTHORS} people: older comments not read`);
        break;
      }
      permissions.set(login, await permissionOf(api, login, log));
    }
    const permission = permissions.get(login);
    if (!permission || !MAY_ACCEPT.has(permission)) {
      warnings.push(
        `perf-gate: /perf-gate accept by ${login} not taken: ${permission ? `${login} has ${permission} access to the repository, not write` : `${login}'s access could not be read`}`,
      );
      continue;
    }
    for (const a of lines) {
      if ('problem' in a) warnings.push(`perf-gate: /perf-gate accept ${a.problem}`);
      else if (out.length < MAX_ACCEPTANCES) out.push(a);
    }
  }
  for (const w of warnings.slice(0, MAX_WARNINGS)) log.warning(w);
  if (warnings.length > MAX_WARNINGS)
    log.warning(`perf-gate: and ${warnings.length - MAX_WARNINGS} more /perf-gate accept lines not taken`);
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

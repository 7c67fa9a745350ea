// The GitHub API as the Action uses it: the octokit stack @actions/github is made of (core, REST
// endpoint methods, pagination) plus the retry plugin (5xx, backoff) and the throttling plugin
// (primary and secondary rate limits), fetching through @actions/http-client's proxy dispatcher
// (HTTPS_PROXY/NO_PROXY are honoured). Not @actions/github itself: importing it parses the event
// file at module load and throws on a malformed one, before perf-gate can warn about it.
// GITHUB_API_URL makes it work with GitHub Enterprise Server and with a local stand-in in tests.
// Nothing here fails a gate: callers turn errors into warnings.
import { HttpClient } from '@actions/http-client';
import { Octokit as OctokitCore } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { fetch as undiciFetch } from 'undici';

export interface IssueComment {
  id: number;
  body: string;
  user: { login: string; type?: string } | null;
  /** the author's relation to the repository as the API says it (OWNER, MEMBER, COLLABORATOR,
   * CONTRIBUTOR, NONE, ...) */
  association?: string;
}

export class GitHubError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface PullRequestInfo {
  number: number;
  state: string;
  headSha: string;
  /** owner/name of the head repository (a fork's own name for fork PRs); null when it was deleted */
  headRepo: string | null;
}

export type CommitState = 'success' | 'failure' | 'error' | 'pending';

/** Who added a label: a login, and whether the account is a bot (an App, a workflow's token). */
export interface LabelAdder {
  login: string;
  bot: boolean;
}

/** A user's access to the repository, as the API's collaborator permission says it (maintain reads
 * as write, triage as read). */
export type Permission = 'admin' | 'write' | 'read' | 'none';

export interface GitHubApi {
  /** the token's own login (GraphQL `viewer`, which answers for App installation tokens and
   * GITHUB_TOKEN too), or undefined when nothing can tell */
  viewerLogin(): Promise<string | undefined>;
  listComments(issue: number): Promise<IssueComment[]>;
  createComment(issue: number, body: string): Promise<IssueComment>;
  updateComment(id: number, body: string): Promise<IssueComment>;
  getPull(pr: number): Promise<PullRequestInfo>;
  setStatus(sha: string, state: CommitState, context: string, description: string, targetUrl?: string): Promise<void>;
  /** `login`'s access to the repository */
  permission(login: string): Promise<Permission>;
  /** who last added `label` to issue (pull request) `issue`, when it is on it now (and whether that
   * account is a bot); undefined when it is not (never added, or removed since) */
  labelledBy(issue: number, label: string): Promise<LabelAdder | undefined>;
}

/** Kept for callers that only comment. */
export type CommentsApi = Pick<GitHubApi, 'viewerLogin' | 'listComments' | 'createComment' | 'updateComment'>;

export interface ApiOptions {
  baseUrl: string;
  token: string;
  /** owner/name */
  repo: string;
  /** rate limits and retries are reported here, never thrown */
  warn: (message: string) => void;
  /** retries of a 5xx answer (default 3) */
  retries?: number;
  /** the unit of the backoff and of Retry-After, ms (default 1000; tests make it small) */
  backoffMs?: number;
  /** the longest rate-limit wait perf-gate accepts before giving up with a warning, s (default 60) */
  maxRateLimitWaitS?: number;
  /** the proxy requests go through (HTTPS_PROXY and friends), named in connection errors */
  proxy?: string;
}

const Octokit = OctokitCore.plugin(restEndpointMethods, paginateRest, retry, throttling);

const CONNECTION = /ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH|socket|fetch failed|proxy/i;

/** A proxy URL without its credentials. */
export function redactProxy(proxy: string): string {
  try {
    const u = new URL(proxy);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'the configured proxy';
  }
}

function asGitHubError(err: unknown, what: string, proxy: string | undefined): never {
  const e = err as { status?: number; message?: string };
  const status = typeof e.status === 'number' ? e.status : 0;
  const message = (e.message ?? String(err)).split('\n')[0] ?? '';
  // octokit reports a failed connection as a 500 whose message is the socket error
  const through = proxy && CONNECTION.test(message) ? ` (through the proxy ${redactProxy(proxy)})` : '';
  throw new GitHubError(status, `${what}: ${status ? `${status} ` : ''}${message}${through}`);
}

/** Who added `label` last, from an issue's events in order, when it is still on; else undefined. */
export function labelState(
  events: ReadonlyArray<{ event: string; label?: string | undefined; actor?: LabelAdder | undefined }>,
  label: string,
): LabelAdder | undefined {
  let by: LabelAdder | undefined;
  for (const e of events) {
    if (e.label !== label) continue;
    if (e.event === 'labeled') by = e.actor;
    else if (e.event === 'unlabeled') by = undefined;
  }
  return by;
}

export function githubApi(opts: ApiOptions): GitHubApi {
  const [owner = '', repo = ''] = opts.repo.split('/');
  const base = opts.backoffMs ?? 1000;
  const maxWait = opts.maxRateLimitWaitS ?? 60;
  const onLimit =
    (kind: string) =>
    (retryAfter: number, options: { method?: string; url?: string }, _octokit: unknown, retryCount: number) => {
      const what = `${options.method ?? ''} ${options.url ?? ''}`.trim();
      if (retryCount < 2 && retryAfter <= maxWait) {
        opts.warn(`perf-gate: GitHub ${kind} rate limit on ${what}; retrying in ${retryAfter}s`);
        return true;
      }
      opts.warn(`perf-gate: GitHub ${kind} rate limit on ${what}; giving up`);
      return false;
    };
  const baseUrl = opts.baseUrl.replace(/\/$/, '');
  // undefined without a proxy (or with NO_PROXY matching): undici's default connection
  const dispatcher = new HttpClient('perf-gate').getAgentDispatcher(baseUrl);
  const octokit = new Octokit({
    auth: `token ${opts.token}`,
    baseUrl,
    userAgent: 'perf-gate',
    request: {
      fetch: (url: string, init: Parameters<typeof undiciFetch>[1]) =>
        undiciFetch(url, { ...init, ...(dispatcher ? { dispatcher } : {}) }),
    },
    retry: { retries: opts.retries ?? 3, retryAfterBaseValue: base },
    throttle: {
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
      retryAfterBaseValue: base,
      fallbackSecondaryRateRetryAfter: 60,
    },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  return {
    async viewerLogin() {
      try {
        const r = await octokit.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
        if (r.viewer?.login) return r.viewer.login;
      } catch {
        // GraphQL unavailable to this token or server: try REST, which answers for PATs
      }
      try {
        return (await octokit.rest.users.getAuthenticated()).data.login;
      } catch {
        return undefined;
      }
    },
    async listComments(issue) {
      try {
        const all = await octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: issue,
          per_page: 100,
        });
        return all.map((c) => ({
          id: c.id,
          body: c.body ?? '',
          user: c.user ? { login: c.user.login, type: c.user.type } : null,
          association: c.author_association,
        }));
      } catch (err) {
        asGitHubError(err, `listing the comments of #${issue}`, opts.proxy);
      }
    },
    async createComment(issue, body) {
      try {
        const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body });
        return { id: data.id, body: data.body ?? '', user: data.user ? { login: data.user.login } : null };
      } catch (err) {
        asGitHubError(err, `commenting on #${issue}`, opts.proxy);
      }
    },
    async updateComment(id, body) {
      try {
        const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body });
        return { id: data.id, body: data.body ?? '', user: data.user ? { login: data.user.login } : null };
      } catch (err) {
        asGitHubError(err, `updating comment ${id}`, opts.proxy);
      }
    },
    async getPull(pr) {
      try {
        const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pr });
        return {
          number: data.number,
          state: data.state,
          headSha: data.head.sha,
          headRepo: data.head.repo?.full_name ?? null,
        };
      } catch (err) {
        asGitHubError(err, `reading pull request #${pr}`, opts.proxy);
      }
    },
    async labelledBy(issue, label) {
      try {
        const events = await octokit.paginate(octokit.rest.issues.listEvents, {
          owner,
          repo,
          issue_number: issue,
          per_page: 100,
        });
        return labelState(
          events.map((e) => ({
            event: e.event,
            label: (e as { label?: { name?: string } }).label?.name,
            actor: e.actor ? { login: e.actor.login, bot: e.actor.type === 'Bot' } : undefined,
          })),
          label,
        );
      } catch (err) {
        asGitHubError(err, `reading the events of #${issue}`, opts.proxy);
      }
    },
    async permission(login) {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
        const p = data.permission;
        return p === 'admin' || p === 'write' || p === 'read' ? p : 'none';
      } catch (err) {
        // (not a collaborator of a private repository, or no such user)
        if ((err as { status?: number }).status === 404) return 'none';
        asGitHubError(err, `reading ${login}'s access`, opts.proxy);
      }
    },
    async setStatus(sha, state, context, description, targetUrl) {
      try {
        await octokit.rest.repos.createCommitStatus({
          owner,
          repo,
          sha,
          state,
          context,
          description: description.slice(0, 140),
          ...(targetUrl ? { target_url: targetUrl } : {}),
        });
      } catch (err) {
        asGitHubError(err, `setting the commit status of ${sha.slice(0, 12)}`, opts.proxy);
      }
    },
  };
}

/** The login GITHUB_TOKEN comments as, when nothing can tell who the token is. */
export const ACTIONS_BOT = 'github-actions[bot]';

/** GraphQL names bots without the `[bot]` REST gives them ("github-actions" vs "github-actions[bot]"). */
export function sameLogin(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\[bot\]$/, '');
  return norm(a) === norm(b);
}

export type UpsertResult =
  | { action: 'created'; id: number }
  | { action: 'updated'; id: number }
  | { action: 'unchanged'; id: number }
  | { action: 'none'; id: null };

/** Our comment on the issue: written by the token's own user and carrying the marker. One lookup
 * (who am I, then all pages of comments) serves both finding and upserting. */
export async function findOwnComment(
  api: CommentsApi,
  issue: number,
  marker: string,
): Promise<IssueComment | undefined> {
  const me = (await api.viewerLogin()) ?? ACTIONS_BOT;
  return (await api.listComments(issue)).find((c) => c.user && sameLogin(c.user.login, me) && c.body.includes(marker));
}

/** One comment per PR and marker: update ours in place, write nothing when the body is unchanged, and
 * never touch comments by anyone else. `create: false` only refreshes an existing comment (the
 * `on-regression` mode on a run without a regression: an earlier regression report must not stay). */
export async function upsertComment(
  api: CommentsApi,
  issue: number,
  marker: string,
  body: string,
  create = true,
): Promise<UpsertResult> {
  const mine = await findOwnComment(api, issue, marker);
  if (!mine)
    return create ? { action: 'created', id: (await api.createComment(issue, body)).id } : { action: 'none', id: null };
  if (mine.body === body) return { action: 'unchanged', id: mine.id };
  await api.updateComment(mine.id, body);
  return { action: 'updated', id: mine.id };
}

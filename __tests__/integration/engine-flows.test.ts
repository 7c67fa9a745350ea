// What a request is made of, on the HTTP/1.1 engine against servers on 127.0.0.1 (no Docker): data rows
// and template functions, flows of steps with extracted values, script hooks, and what review of them
// found (issue 34). Every run is bounded; assertions are about what was sent and counted.
import { describe, expect, it } from 'vitest';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import { runClosed } from '../../runner/src/closed-loop.js';
import { runOpen } from '../../runner/src/open-loop.js';
import { loadHook } from '../../runner/src/hook.js';
import { serve, closeServersAfterEach, p } from './engine-harness.js';

closeServersAfterEach();

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

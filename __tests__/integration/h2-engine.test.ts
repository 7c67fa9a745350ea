// The HTTP/2 client of the socket engine (runner/src/h2/) against servers on 127.0.0.1: Node's own
// HTTP/2 server (nghttp2) for h2c and h2 over TLS, and a raw frame server for the faults a real
// server rarely shows on demand (GOAWAY mid-phase, a send window that never opens, a preface
// answered with HTTP/1.1). Every loop is bounded by a request count or a short duration.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import {
  constants as h2,
  createSecureServer,
  createServer as createH2Server,
  type Http2Server,
  type Http2SecureServer,
  type ServerHttp2Stream,
  type IncomingHttpHeaders,
} from 'node:http2';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import type { PlanHttp, PlanRequest } from '../../src/runner-kit/plan.js';
import { runClosed } from '../../runner/src/closed-loop.js';
import { runOpen } from '../../runner/src/open-loop.js';
import { runGrpcClosed } from '../../runner/src/grpc.js';
import { FLAG, FRAME, FrameReader, frame, settingsFrame, SETTING, goawayFrame } from '../../runner/src/h2/frames.js';
import { encodeHeaderBlock } from '../../runner/src/h2/hpack.js';

/** A self-signed certificate for 127.0.0.1, made once with openssl. */
function certificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-h2-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
}

interface Seen {
  requests: number;
  /** most streams open at once on one session */
  maxConcurrent: number;
  /** sessions (connections) opened */
  sessions: number;
  bodies: number[];
  headers: IncomingHttpHeaders[];
}

type Handler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, seen: Seen) => void;

const answer: Handler = (stream) => {
  stream.respond({ ':status': 200, 'content-type': 'application/json' });
  stream.end('{"ok":true}');
};

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** Node's HTTP/2 server, h2c or TLS, counting what it sees; `handler` answers each stream. */
async function nodeServer(
  opts: { tls?: { key: Buffer; cert: Buffer }; maxStreams?: number; handler?: Handler } = {},
): Promise<{ url: string; seen: Seen }> {
  const seen: Seen = { requests: 0, maxConcurrent: 0, sessions: 0, bodies: [], headers: [] };
  const settings = opts.maxStreams ? { maxConcurrentStreams: opts.maxStreams } : {};
  const server: Http2Server | Http2SecureServer = opts.tls
    ? createSecureServer({ ...opts.tls, settings })
    : createH2Server({ settings });
  server.on('session', (session) => {
    seen.sessions++;
    let open = 0;
    session.on('stream', (stream) => {
      open++;
      seen.maxConcurrent = Math.max(seen.maxConcurrent, open);
      stream.on('close', () => open--);
    });
  });
  server.on('stream', (stream, headers) => {
    // a stream the test resets, or the client cancels, ends with an error event: expected here
    stream.on('error', () => undefined);
    seen.requests++;
    seen.headers.push(headers);
    let body = 0;
    stream.on('data', (d: Buffer) => (body += d.length));
    stream.on('end', () => {
      seen.bodies.push(body);
      (opts.handler ?? answer)(stream, headers, seen);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({ close: () => server.close() });
  const { port } = server.address() as AddressInfo;
  return { url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`, seen };
}

function h2Load(url: string, request: Partial<PlanRequest> = {}): Pick<PlanHttp, 'request' | 'http'> {
  return { http: 2, request: { url, method: 'GET', headers: {}, ...request } };
}

describe('HTTP/2 closed loop against Node’s HTTP/2 server', () => {
  let tls: { key: Buffer; cert: Buffer };
  beforeAll(() => {
    tls = certificate();
  });

  it('h2c with prior knowledge: streams per connection in flight, every request answered', async () => {
    // each answer waits 5 ms: 4 streams on each of 2 connections are in flight together
    const { url, seen } = await nodeServer({ handler: (s) => setTimeout(() => answer(s, {}, seen), 5) });
    const t = await runClosed(h2Load(`${url}/x?y=1`), 2, { requests: 400 }, 2000, 4).done;
    expect(t).toMatchObject({ sent: 400, responses: 400, successes: 400, failures: 0, statusCodes: { '200': 400 } });
    expect(t.errors).toEqual({});
    expect(seen.requests).toBe(400);
    expect(seen.sessions).toBe(2);
    expect(seen.maxConcurrent).toBe(4);
    expect(seen.headers[0]).toMatchObject({ ':method': 'GET', ':path': '/x?y=1', ':scheme': 'http' });
    expect(decodeHistogram(t.histogram).totalCount).toBe(400);
  });

  it('h2 over TLS (ALPN h2): a duration phase, requests answered, none left over', async () => {
    const { url, seen } = await nodeServer({ tls });
    const t = await runClosed(h2Load(url), 2, { durationMs: 300 }, 2000, 8).done;
    expect(t.responses).toBeGreaterThan(50);
    expect(t.failures).toBe(0);
    expect(t.errors).toEqual({});
    expect(seen.sessions).toBe(2);
    expect(seen.headers[0]?.[':scheme']).toBe('https');
  });

  it('the server’s concurrency limit holds requests back here; all are answered', async () => {
    const { url, seen } = await nodeServer({
      maxStreams: 2,
      handler: (s) => setTimeout(() => answer(s, {}, seen), 3),
    });
    const t = await runClosed(h2Load(url), 1, { requests: 60 }, 2000, 8).done;
    expect(t).toMatchObject({ responses: 60, successes: 60 });
    expect(seen.maxConcurrent).toBe(2);
  });

  it('bodies larger than the send window go out as the server opens it', async () => {
    const body = 'x'.repeat(200_000);
    const { url, seen } = await nodeServer();
    const t = await runClosed(h2Load(url, { method: 'POST', body }), 1, { requests: 6 }, 5000, 3).done;
    expect(t).toMatchObject({ responses: 6, successes: 6 });
    expect(seen.bodies).toEqual(Array(6).fill(200_000));
    expect(seen.headers[0]?.['content-length']).toBe('200000');
  });

  it('the user’s headers are sent lower-cased; Host becomes :authority; connection headers are dropped', async () => {
    const { url, seen } = await nodeServer();
    const headers = { 'X-Tenant': 'a', Host: 'example.test', Connection: 'keep-alive', Accept: 'application/json' };
    await runClosed(h2Load(url, { headers }), 1, { requests: 2 }, 2000, 1).done;
    expect(seen.headers[0]).toMatchObject({
      'x-tenant': 'a',
      ':authority': 'example.test',
      accept: 'application/json',
    });
    expect(seen.headers[0]).not.toHaveProperty('connection');
  });

  it('response checks read HTTP/2 headers and bodies', async () => {
    let n = 0;
    const { url } = await nodeServer({
      handler: (s) => {
        const bad = n++ % 4 === 0;
        s.respond({ ':status': 200, 'x-kind': bad ? 'error' : 'fine' });
        s.end(JSON.stringify({ data: bad ? null : { id: 1 } }));
      },
    });
    const expectJson = { json: [{ path: '$.data.id', equals: 1 }] };
    const t = await runClosed(h2Load(url, { expect: expectJson }), 2, { requests: 40 }, 2000, 2).done;
    expect(t.successes).toBe(30);
    expect(t.checks).toEqual({ 'expect-json': 10 });
    const h = await runClosed(h2Load(url, { expect: { headers: { 'x-kind': 'fine' } } }), 1, { requests: 8 }, 2000, 1)
      .done;
    expect(h.checks).toEqual({ 'expect-header': 2 });
  });

  it('a reset stream is one failed request (rst-<code>); the connection goes on', async () => {
    let n = 0;
    const { url, seen } = await nodeServer({
      handler: (s) => (n++ % 5 === 4 ? s.close(h2.NGHTTP2_REFUSED_STREAM) : answer(s, {}, seen)),
    });
    const t = await runClosed(h2Load(url), 1, { requests: 50 }, 2000, 2).done;
    expect(t.successes).toBe(40);
    expect(t.errors).toEqual({ 'rst-refused-stream': 10 });
    expect(seen.sessions).toBe(1);
  });

  it('a request the server never answers times out alone (RST_STREAM CANCEL); the others finish', async () => {
    let n = 0;
    const { url, seen } = await nodeServer({ handler: (s) => (n++ === 3 ? undefined : answer(s, {}, seen)) });
    const t = await runClosed(h2Load(url), 1, { requests: 20 }, 200, 2).done;
    expect(t.errors).toEqual({ timeout: 1 });
    expect(t.successes).toBe(19);
    expect(seen.sessions).toBe(1);
  });

  it('open loop over HTTP/2: the rate kept on few connections, every send answered', async () => {
    const { url, seen } = await nodeServer({ handler: (s) => setTimeout(() => answer(s, {}, seen), 2) });
    const t = await runOpen({
      load: h2Load(url),
      schedule: { startAt: performance.now() + 20, rate: 400, durationMs: 1000, stride: 1, offset: 0 },
      connections: 16,
      streams: { perConnection: 8, connections: 2 },
      timeoutMs: 2000,
    }).done;
    expect(t.open).toMatchObject({ scheduled: 400, unfinished: 0 });
    expect(t.statusCodes).toEqual({ '200': 400 });
    expect(seen.sessions).toBeLessThanOrEqual(2);
  });
});

describe('gRPC over TLS (grpcs://) on the HTTP/2 client', () => {
  let tls: { key: Buffer; cert: Buffer };
  beforeAll(() => {
    tls = certificate();
  });

  it('verifies the server’s certificate, as gRPC clients do: a self-signed one fails every connect', async () => {
    const { url, seen } = await nodeServer({ tls });
    const port = new URL(url).port;
    const t = await runGrpcClosed(
      {
        url: `grpcs://127.0.0.1:${port}`,
        service: 's.S',
        method: 'M',
        path: '/s.S/M',
        messages: [''],
        metadata: {},
        channels: 1,
        deadlineMs: 2000,
      },
      1,
      { requests: 3 },
    ).done;
    expect(t.successes).toBe(0);
    expect(Object.keys(t.errors)).toEqual(['DEPTH_ZERO_SELF_SIGNED_CERT']);
    expect(seen.requests).toBe(0);
  });
});

/** A server that is not HTTP/2: TLS offering only http/1.1, or TCP answering the preface with HTTP/1.1. */
describe('servers that refuse HTTP/2', () => {
  let tls: { key: Buffer; cert: Buffer };
  beforeAll(() => {
    tls = certificate();
  });
  const closers: Array<() => void> = [];
  afterAll(() => closers.forEach((c) => c()));

  it('ALPN picks http/1.1: every connect fails naming what was negotiated', async () => {
    const server: TlsServer = createTlsServer({ ...tls, ALPNProtocols: ['http/1.1'] }, (s) => s.on('error', () => {}));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const { port } = server.address() as AddressInfo;
    const t = await runClosed(h2Load(`https://127.0.0.1:${port}`), 2, { requests: 4 }, 2000, 1).done;
    expect(t.successes).toBe(0);
    // a TLS server that knows no h2 either refuses the handshake or settles on http/1.1
    const kinds = Object.keys(t.errors);
    expect(kinds.length).toBeGreaterThan(0);
    expect(
      kinds.every((k) => k === 'alpn-http/1.1' || /ALPN|alpn|ERR_SSL/.test(k)),
      kinds.join(),
    ).toBe(true);
  });

  it('a preface answered with HTTP/1.1: h2-preface', async () => {
    const server: NetServer = createNetServer((s) => {
      s.on('error', () => {});
      s.once('data', () => s.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const { port } = server.address() as AddressInfo;
    const t = await runClosed(h2Load(`http://127.0.0.1:${port}`), 2, { requests: 4 }, 2000, 1).done;
    expect(t.errors).toEqual({ 'h2-preface': 4 });
  });
});

/**
 * A raw HTTP/2 server: SETTINGS from `settings`, each request answered (200, END_STREAM on the
 * HEADERS) unless `onRequest` says otherwise. Enough framing for the faults below.
 */
async function rawServer(opts: {
  settings?: Array<[number, number]>;
  onRequest?: (ctx: { socket: Socket; stream: number; count: number }) => boolean;
}): Promise<{ url: string; connections: () => number; requests: () => number }> {
  const sockets = new Set<Socket>();
  let count = 0;
  let connections = 0;
  const ok = encodeHeaderBlock([[':status', '200']]);
  const server = createNetServer((socket) => {
    sockets.add(socket);
    connections++;
    socket.on('error', () => {});
    socket.write(settingsFrame(opts.settings ?? []));
    let preface = false;
    let pending = Buffer.alloc(0);
    const reader = new FrameReader(1 << 20);
    socket.on('data', (d: Buffer) => {
      let chunk = d;
      if (!preface) {
        pending = Buffer.concat([pending, d]);
        if (pending.length < 24) return;
        preface = true;
        chunk = pending.subarray(24);
      }
      reader.push(chunk, 0, chunk.length, {
        onFrame: (type, flags, stream) => {
          if (type === FRAME.SETTINGS && !(flags & FLAG.ACK)) socket.write(frame(FRAME.SETTINGS, FLAG.ACK, 0));
          if (type !== FRAME.HEADERS) return;
          count++;
          if (opts.onRequest?.({ socket, stream, count })) return;
          socket.write(frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, stream, ok));
        },
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections, requests: () => count };
}

describe('HTTP/2 faults', () => {
  /**
   * A server whose first connection answers its 10th request with GOAWAY naming stream 13 (the 7th)
   * as the last processed, with `code`: streams 15–19 (the 8th–10th, in flight with 4 streams)
   * were never processed; stream 13 is still answered.
   */
  async function goawayServer(code: number) {
    const held: Array<{ socket: Socket; stream: number }> = [];
    return rawServer({
      onRequest: ({ socket, stream, count }) => {
        if (count > 6 && count < 10) {
          held.push({ socket, stream });
          return true;
        }
        if (count === 10) {
          socket.write(goawayFrame(13, code));
          const h = held.find((x) => x.stream === 13);
          if (h)
            h.socket.write(
              frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, 13, encodeHeaderBlock([[':status', '200']])),
            );
          return true;
        }
        return false;
      },
    });
  }

  it('a GOAWAY with an error code mid-phase: requests above its last stream id fail as goaway, a new connection carries on', async () => {
    const srv = await goawayServer(2);
    const t = await runClosed(h2Load(srv.url), 1, { requests: 40 }, 2000, 4).done;
    expect(t.errors).toEqual({ goaway: 3 });
    expect(t.successes).toBe(37);
    expect(srv.connections()).toBe(2);
  });

  it('a graceful GOAWAY (NO_ERROR, a server’s request limit): the unprocessed requests go again, none lost', async () => {
    const srv = await goawayServer(0);
    const t = await runClosed(h2Load(srv.url), 1, { requests: 40 }, 2000, 4).done;
    expect(t.errors).toEqual({});
    expect(t).toMatchObject({ sent: 40, successes: 40 });
    // the server saw the three again on the second connection
    expect(srv.requests()).toBe(43);
    expect(srv.connections()).toBe(2);
  });

  it('a graceful GOAWAY in an open loop: the unprocessed sends go again, every scheduled send answered', async () => {
    const srv = await goawayServer(0);
    const t = await runOpen({
      load: h2Load(srv.url),
      schedule: { startAt: performance.now() + 20, rate: 200, durationMs: 500, stride: 1, offset: 0 },
      connections: 4,
      streams: { perConnection: 4, connections: 1 },
      timeoutMs: 2000,
    }).done;
    expect(t.errors).toEqual({});
    expect(t.open).toMatchObject({ scheduled: 100, unfinished: 0 });
    expect(t.successes).toBe(100);
  });

  it('a graceful GOAWAY while the connection has free streams: later sends take another connection, none lost', async () => {
    // at 100/s with 4 streams a connection mostly has 1 in flight and 3 free slots when the GOAWAY comes
    const srv = await rawServer({
      onRequest: ({ socket, stream, count }) => {
        if (count === 10) socket.write(goawayFrame(stream, 0));
        return false;
      },
    });
    const t = await runOpen({
      load: h2Load(srv.url),
      schedule: { startAt: performance.now() + 20, rate: 100, durationMs: 400, stride: 1, offset: 0 },
      connections: 4,
      streams: { perConnection: 4, connections: 1 },
      timeoutMs: 2000,
    }).done;
    expect(t.errors).toEqual({});
    expect(t.open).toMatchObject({ scheduled: 40, unfinished: 0 });
    expect(t.successes).toBe(40);
    expect(srv.connections()).toBe(2);
  });

  it('a hostile server: an endless header block of empty CONTINUATION frames ends the connection, bounded', async () => {
    const srv = await rawServer({
      onRequest: ({ socket, stream }) => {
        // HEADERS without END_HEADERS, then 40,000 empty CONTINUATION frames (360 kB of frame headers)
        socket.write(frame(FRAME.HEADERS, 0, stream, encodeHeaderBlock([[':status', '200']])));
        socket.write(Buffer.concat(Array.from({ length: 40_000 }, () => frame(FRAME.CONTINUATION, 0, stream))));
        return true;
      },
    });
    const t = await runClosed(h2Load(srv.url), 1, { requests: 1 }, 2000, 1).done;
    expect(t.errors).toEqual({ 'h2-protocol-error': 1 });
  });

  it('a hostile server: a PADDED frame too short for its pad length is a protocol error, not a NaN', async () => {
    const srv = await rawServer({
      onRequest: ({ socket, stream }) => {
        socket.write(frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.PADDED, stream));
        return true;
      },
    });
    const t = await runClosed(h2Load(srv.url), 1, { requests: 1 }, 2000, 1).done;
    expect(t.errors).toEqual({ 'h2-protocol-error': 1 });
    expect(t.bytes).toBe(0);
  });

  it('a send window that never opens: the phase ends on time, the stuck requests counted', async () => {
    // the server allows no request body at all (initial window 0), never sends WINDOW_UPDATE, and
    // answers only once a body has come (never)
    const srv = await rawServer({ settings: [[SETTING.INITIAL_WINDOW_SIZE, 0]], onRequest: () => true });
    const started = performance.now();
    const t = await runClosed(h2Load(srv.url, { method: 'POST', body: 'hello' }), 1, { durationMs: 200 }, 300, 4).done;
    const took = performance.now() - started;
    expect(t.successes).toBe(0);
    expect(t.errors.timeout).toBe(4);
    expect(t.sent).toBe(4);
    // the window (200 ms), one timeout (300 ms) and the sweeper's tick, not a hang
    expect(took).toBeLessThan(2000);
  });
});

// The gRPC engine against the grpc-search fixture on 127.0.0.1 (no Docker): closed and open loops, results
// by status. Every run is bounded.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer as createH2Server } from 'node:http2';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type PlanGrpc } from '../../src/runner-kit/plan.js';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import { waitReady } from '../../runner/src/ready.js';
import { runGrpcClosed, runGrpcOpen } from '../../runner/src/grpc.js';
import { encodeGrpcCalls, loadProto } from '../../src/config-parts/proto.js';
import { ROOT } from './helpers.js';

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

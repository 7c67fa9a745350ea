// The HTTP/1.1 load engines against real servers on 127.0.0.1 (no Docker): open and closed loops, stalls,
// the in-flight bound, a server that goes away mid-phase, keep-alive closes, odd and hostile servers,
// ramps, pipelining, ready probes, a request mix, response checks and a request's own timeout.
// Every run is bounded (seconds, not minutes); assertions are about what was counted, and latency
// bounds the servers force (a request that arrives during a stall must wait), never about speed.
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';
import { tcpProbeAddress } from '../../src/runner-kit/plan.js';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import { runClosed } from '../../runner/src/closed-loop.js';
import { runOpen } from '../../runner/src/open-loop.js';
import { waitReady } from '../../runner/src/ready.js';
import { serve, closeServersAfterEach, request, open, p, errorCount } from './engine-harness.js';

closeServersAfterEach();

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

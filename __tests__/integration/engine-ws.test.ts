// The WebSocket engine against a broker on 127.0.0.1 (no Docker): peers × messages phases, ack, push
// and delivery, and a script hook's signed hellos and encrypted messages (issue 34). Every run is bounded.
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type PlanWebSocket, type WsPhase } from '../../src/runner-kit/plan.js';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import { runWs } from '../../runner/src/ws.js';
import { loadHook } from '../../runner/src/hook.js';
import { WebSocket, WebSocketServer } from 'ws';
import type { EngineTally } from '../../runner/src/tally.js';

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

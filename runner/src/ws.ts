// WebSocket phases (the broker case): `peers` sockets; each peer sends `messages` messages rendered
// from the template, each to a random other peer, and the replies are matched by the message's id:
// the **ack** is the first message on the sender's own socket that contains it, the **push** the
// first message on any other peer's socket that contains it (`push: all`, a broadcast: the first on
// each other peer's socket, every one a delivery; `push: none`, an echo server: no push at all).
// Ack and push latency run from the send. At a fixed per-peer rate the sends follow each peer's
// open-loop schedule (schedule.ts) and are never held back by the server (a peer does not wait for
// acks), so the open-loop rule gives: latency from the actual send; the timer's granularity and
// the generator's lateness counted apart (`open`), never charged to the server. Connect time is a
// third histogram. Results: the ack as the phase's responses and latency, push and connect as
// entries (phases `name.push`, `name.connect` on the host; connect alone with `push: none`),
// delivery = deliveries within the drain / deliveries due. A peer the server closes counts as an
// error by close code; a connect the server refuses as `upgrade-<status>` (or the socket error's code).
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { addOpenCounts, type OpenLoopCounts } from '../../src/runner-kit/measurement.js';
import { type PlanWebSocket, type WsPhase, type WsPush, wsEntries } from '../../src/runner-kit/plan.js';
import { compileTemplate, idsIn, messageId, render } from '../../src/runner-kit/ws-template.js';
import { HookCalls, HookError, hookOf } from './hook.js';
import { errorKindOf } from './transport.js';
import { IdleWatch } from './open-loop.js';
import { Recorder } from './recorder.js';
import { OpenSchedule } from './schedule.js';
import type { EngineTally } from './tally.js';

export { WS_ENTRIES } from '../../src/runner-kit/plan.js';
/** how long a stage's end waits for its sockets' closing handshakes before it cuts them */
const CLOSE_WAIT_MS = 1000;

export interface WsJob {
  ws: PlanWebSocket;
  phase: WsPhase;
  /** connect timeout, and how long a peer waits for an ack before it sends the next message, ms */
  timeoutMs: number;
  /** a warm-up: stop sending after this long (messages not sent are not counted) */
  sendForMs?: number;
  /** the drain after the last send; the plan's unless a warm-up shortens it */
  drainMs?: number;
}

export interface WsRun {
  responses(): number;
  done: Promise<EngineTally>;
}

interface Sent {
  sender: number;
  /** when it was sent (performance.now(), ms) */
  at: number;
  acked: boolean;
  /** deliveries to other peers so far, and due (1 with push: one; the other open peers with all; 0 with none) */
  delivered: number;
  due: number;
  /** push: all: the peers it reached */
  reached?: Set<number>;
}

class Peer {
  socket: WebSocket | undefined;
  open = false;
  /** the server closed it, or it never connected: it sends nothing more */
  gone = false;
  /** it will send nothing more (all sent, the warm-up over, or gone) and waits for no ack */
  done = false;
  next = 0;
  /** at a fixed rate: its open-loop schedule */
  schedule: OpenSchedule | undefined;
  /** closed-loop: the message waiting for its ack, and since when */
  waiting: number | undefined;
  waitingSince = 0;
  timer: NodeJS.Timeout | undefined;
  /** the script hook's own object for this peer (its keys, say) */
  readonly state: Record<string, unknown> = {};
  constructor(readonly index: number) {}
}

class WsEngine {
  private readonly pushMode: WsPush;
  /** the entries' indices in the recorder (-1: no push entry) */
  private readonly PUSH: number;
  private readonly CONNECT: number;
  readonly recorder: Recorder;
  private readonly watch = new IdleWatch();
  private readonly peers: Peer[];
  private readonly sent = new Map<string, Sent>();
  private readonly nonce = randomBytes(4).toString('hex');
  private readonly url;
  private readonly message;
  private readonly hello;
  /** the scenario's script hook: hello messages, the hello's answer, each message's text */
  private readonly hook: HookCalls | undefined;
  private readonly started = performance.now();
  private sendingSince = 0;
  private finished = false;
  private acked = 0;
  /** peers connected and not closed since: a broadcast's recipients, counted as they come and go */
  private openPeers = 0;
  /** deliveries to other peers made, and due */
  private delivered = 0;
  private due = 0;
  private connecting: number;
  private drainTimer: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly refusals: Record<string, number> = {};
  private resolveDone: (t: EngineTally) => void = () => undefined;
  private rejectDone: (err: Error) => void = () => undefined;
  readonly done = new Promise<EngineTally>((resolve, reject) => {
    this.resolveDone = resolve;
    this.rejectDone = reject;
  });

  constructor(private readonly job: WsJob) {
    this.pushMode = job.ws.push ?? 'one';
    const entries = wsEntries(this.pushMode);
    this.PUSH = entries.indexOf('push');
    this.CONNECT = entries.indexOf('connect');
    this.recorder = new Recorder(entries.length);
    this.url = compileTemplate(job.ws.url);
    this.message = compileTemplate(job.ws.message);
    this.hello = job.ws.hello.map(compileTemplate);
    this.hook = job.ws.hook ? new HookCalls(hookOf(job.ws.hook.source)) : undefined;
    this.peers = Array.from({ length: job.phase.peers }, (_, i) => new Peer(i));
    this.connecting = this.peers.length;
    for (const p of this.peers) this.connect(p);
  }

  private values(p: Peer, n: number, id: string): { id: string; peer: number; other: number; n: number } {
    const count = this.peers.length;
    // a random other peer: uniform over the others
    let other = Math.floor(Math.random() * (count - 1));
    if (other >= p.index) other++;
    return { id, peer: p.index, other: count > 1 ? other : p.index, n };
  }

  private connect(p: Peer): void {
    const url = render(this.url, { id: '', peer: p.index, other: p.index, n: 0 });
    const at = performance.now();
    const socket = new WebSocket(url, {
      headers: this.job.ws.headers,
      handshakeTimeout: this.job.timeoutMs,
      perMessageDeflate: false,
      rejectUnauthorized: false, // a test broker's self-signed certificate is not an error
    });
    p.socket = socket;
    const connectFailed = (kind: string): void => {
      if (p.open || p.gone) return;
      p.gone = true;
      p.done = true;
      this.refusals[kind] = (this.refusals[kind] ?? 0) + 1;
      this.recorder.error(kind);
      this.recorder.sub(this.CONNECT).error(kind);
      this.connected();
    };
    socket.on('unexpected-response', (req, res) => {
      res.resume();
      req.destroy();
      connectFailed(`upgrade-${res.statusCode ?? 'error'}`);
    });
    socket.on('error', (err) => connectFailed(errorKindOf(err)));
    const ready = (): void => {
      clearTimeout(p.timer);
      p.open = true;
      this.openPeers++;
      this.recorder.sub(this.CONNECT).ok(0, (performance.now() - at) * 1000);
      this.connected();
    };
    socket.on('open', () => {
      if (p.gone) return;
      let hellos: string[];
      try {
        hellos = this.hook?.hook.hello ? this.hook.hello(p) : this.hello.map((h) => render(h, this.values(p, 0, '')));
      } catch (err) {
        if (!(err instanceof HookError)) throw err;
        connectFailed('hook-error');
        socket.terminate();
        return;
      }
      for (const h of hellos) socket.send(h);
      if (!this.job.ws.helloReply) {
        ready();
        return;
      }
      // the peer counts as connected once the server answered its hello (it has registered it)
      socket.once('message', (data: Buffer) => {
        if (p.gone) return;
        if (this.hook?.hook.reply) {
          try {
            this.hook.reply(p, data.toString('utf8'));
          } catch (err) {
            if (!(err instanceof HookError)) throw err;
            clearTimeout(p.timer);
            connectFailed('hook-error');
            socket.terminate();
            return;
          }
        }
        ready();
      });
      p.timer = setTimeout(() => {
        connectFailed('no-hello-reply');
        socket.terminate();
      }, this.job.timeoutMs);
    });
    socket.on('message', (data, isBinary) => p.open && this.onMessage(p, data as Buffer, isBinary));
    socket.on('close', (code) => {
      if (p.gone || this.finished) return;
      if (!p.open) {
        // closed before it counted as connected (while it waited for the answer to its hello)
        clearTimeout(p.timer);
        connectFailed(`close-${code}`);
        return;
      }
      // the server (or the network) ended a peer mid-phase
      p.gone = true;
      p.done = true;
      p.open = false;
      this.openPeers--;
      clearTimeout(p.timer);
      this.recorder.error(`close-${code}`);
      this.maybeDrain();
    });
  }

  /** Every peer connected or failed: the peers start sending together, so pushes have recipients. */
  private connected(): void {
    this.recorder.sub(this.CONNECT).sent++;
    if (--this.connecting > 0) return;
    const open = this.peers.filter((p) => p.open);
    if (open.length === 0) {
      const why = Object.entries(this.refusals)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ');
      // rejected first: the finish below then only closes up
      this.rejectDone(new Error(`${this.job.ws.url}: no peer could connect (${why})`));
      this.finish();
      return;
    }
    this.sendingSince = performance.now();
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(100, this.job.timeoutMs / 4)));
    for (const p of open) {
      if (this.job.phase.rate) this.schedule(p);
      else this.sendNext(p, performance.now());
    }
    this.maybeDrain();
  }

  private stopSending(now: number): boolean {
    return this.job.sendForMs !== undefined && now - this.sendingSince >= this.job.sendForMs;
  }

  /** Deliveries a message sent now is due: one other peer, every other open one, or none. */
  private dueFor(p: Peer): number {
    if (this.pushMode === 'none') return 0;
    if (this.pushMode === 'one') return 1;
    // every other connected peer (the sender, sending, is one of them)
    return this.openPeers - (p.open ? 1 : 0);
  }

  /** Sends peer p's next message; false when its hook failed it (`hook-error`: counted, not sent). */
  private sendOne(p: Peer, sendAt: number): boolean {
    const n = p.next++;
    const id = messageId(this.nonce, p.index, n);
    let text = render(this.message, this.values(p, n, id));
    let at = sendAt;
    if (this.hook?.hook.message) {
      try {
        text = this.hook.message(p, text);
        // the hook's time (sealing a message, say) is the generator's: latency runs from here
        at = performance.now();
      } catch (err) {
        if (!(err instanceof HookError)) throw err;
        this.recorder.sentOne(-1);
        this.recorder.error('hook-error');
        return false;
      }
    }
    const due = this.dueFor(p);
    const s: Sent = { sender: p.index, at, acked: false, delivered: 0, due };
    if (this.pushMode === 'all') s.reached = new Set();
    this.sent.set(id, s);
    this.due += due;
    this.recorder.sentOne(-1);
    if (this.PUSH >= 0) this.recorder.sub(this.PUSH).sent += due;
    (p.socket as WebSocket).send(text);
    return true;
  }

  /** Closed loop: the next message once the last one is acked (or its ack timed out). */
  private sendNext(p: Peer, now: number): void {
    p.waiting = undefined;
    if (p.gone || p.next >= this.job.phase.messages || this.stopSending(now)) {
      p.done = true;
      this.maybeDrain();
      return;
    }
    p.waiting = p.next;
    p.waitingSince = now;
    // a message its hook failed gets no ack to wait for: the next goes (on the next turn of the loop)
    if (!this.sendOne(p, now)) {
      p.waiting = undefined;
      setImmediate(() => !this.finished && this.sendNext(p, performance.now()));
    }
  }

  /**
   * Open loop: message n due at the peer's start + n / rate, whatever happened to the ones before; each
   * goes when its timer fires (all those due, when the generator fell behind), its latency from
   * that moment, and the delay split by the schedule's rule (never the server's: nothing holds a
   * send back). A warm-up sends what falls in its time.
   */
  private schedule(p: Peer): void {
    const rate = this.job.phase.rate as number;
    const messages =
      this.job.sendForMs === undefined
        ? this.job.phase.messages
        : Math.min(this.job.phase.messages, Math.ceil((this.job.sendForMs * rate) / 1000 - 1e-9));
    const schedule = new OpenSchedule({
      // the peers' schedules interleave (peer i a fraction i / peers of an interval later), so the
      // phase's sends are evenly spaced, as an open loop's are, not a burst of every peer at once
      startAt: this.sendingSince + (p.index / this.peers.length) * (1000 / rate),
      rate,
      durationMs: (messages * 1000) / rate,
      stride: 1,
      offset: 0,
    });
    p.schedule = schedule;
    const take = (): boolean => !p.gone;
    const send = (): void => {
      // a message its hook failed is counted (hook-error); the schedule goes on
      this.sendOne(p, performance.now());
    };
    const tick = (): void => {
      const now = performance.now();
      this.watch.observe(now);
      schedule.pump(now, this.watch.at, take, send);
      const next = schedule.nextAt();
      if (p.gone || next === undefined) {
        p.done = true;
        this.maybeDrain();
        return;
      }
      p.timer = setTimeout(tick, Math.max(0, next - performance.now()));
    };
    tick();
  }

  private onMessage(p: Peer, data: Buffer, isBinary: boolean): void {
    if (this.finished) return;
    const now = performance.now();
    this.watch.observe(now);
    const text = isBinary ? data.toString('latin1') : data.toString();
    for (const [sender, n] of idsIn(text, this.nonce)) {
      const s = this.sent.get(messageId(this.nonce, sender, n));
      if (!s) continue;
      const latencyUs = (now - s.at) * 1000;
      if (p.index === s.sender) {
        if (s.acked) continue;
        s.acked = true;
        this.acked++;
        this.recorder.ok(data.length, latencyUs);
        if (!this.job.phase.rate && p.waiting === n) this.sendNext(p, now);
      } else if (s.reached ? !s.reached.has(p.index) : s.delivered < s.due) {
        // push: one, the first other peer to get it; push: all, each other peer once
        s.reached?.add(p.index);
        s.delivered++;
        this.delivered++;
        this.recorder.sub(this.PUSH).ok(data.length, latencyUs);
      }
    }
    this.maybeDrain();
  }

  /** Closed loop: a message whose ack does not come within the timeout lets its peer go on. */
  private sweep(): void {
    const now = performance.now();
    if (this.job.phase.rate) return;
    for (const p of this.peers) {
      if (p.waiting !== undefined && now - p.waitingSince > this.job.timeoutMs) this.sendNext(p, now);
    }
  }

  private sendingDone(): boolean {
    return this.connecting === 0 && this.peers.every((p) => p.done);
  }

  private allAnswered(): boolean {
    return this.acked === this.sent.size && this.delivered >= this.due;
  }

  /** Once every peer is done sending: finish when every message is acked and pushed, or at the drain's end. */
  private maybeDrain(): void {
    if (this.finished || !this.sendingDone()) return;
    if (this.allAnswered()) {
      this.finish();
      return;
    }
    this.drainTimer ??= setTimeout(() => this.finish(), this.job.drainMs ?? this.job.ws.drainMs);
  }

  private finish(): void {
    if (this.finished) return;
    this.recorder.stop('last-event');
    this.finished = true;
    clearTimeout(this.drainTimer);
    clearInterval(this.sweeper);
    const { acked, delivered, due } = this;
    const sent = this.sent.size;
    const rec = this.recorder;
    if (sent > acked) rec.errors['no-ack'] = sent - acked;
    if (this.PUSH >= 0 && due > delivered) rec.sub(this.PUSH).errors['no-push'] = due - delivered;
    const closed: Array<Promise<void>> = [];
    for (const p of this.peers) {
      clearTimeout(p.timer);
      const socket = p.socket;
      if (!socket) continue;
      socket.removeAllListeners('close');
      socket.on('error', () => undefined);
      if (socket.readyState === WebSocket.CLOSED) continue;
      closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
      if (p.open) socket.close(1000);
      else socket.terminate();
    }
    const tally = rec.tally();
    if (this.hook) tally.hook = this.hook.stats();
    tally.elapsedMs = Math.max(0, rec.elapsedMs() - (this.sendingSince > 0 ? this.sendingSince - this.started : 0));
    // deliveries due and made (with push: one, messages sent and pushed); none with push: none
    if (this.PUSH >= 0) tally.delivery = { sent: due, delivered };
    let open: OpenLoopCounts | undefined;
    for (const p of this.peers) if (p.schedule) open = addOpenCounts(open, p.schedule.counts(0));
    if (open) tally.open = open;
    // the next stage reconnects the same peer numbers: a server that forgets peer N when its socket
    // closes must see these closes first (waited for at most CLOSE_WAIT_MS, then cut)
    const cut = setTimeout(() => {
      for (const p of this.peers) p.socket?.terminate();
    }, CLOSE_WAIT_MS);
    void Promise.all(closed).then(() => {
      clearTimeout(cut);
      this.resolveDone(tally);
    });
  }
}

export function runWs(job: WsJob): WsRun {
  const engine = new WsEngine(job);
  return { responses: () => engine.recorder.responses, done: engine.done };
}

// Closed-loop phases on perf-gate's socket engine (connection.ts): `connections` keep-alive
// connections, each writing its next request as soon as the previous response is in. Latency runs
// from the write of the request to the last byte of the response, in microseconds. A connection the
// server closes (or that fails) is replaced at once; the reconnect is not part of any latency.
// When a duration phase's window ends, no new request is written, and the requests in flight get
// their answer or their request timeout (as an open loop's do): every request written is counted,
// answered or failed, so a service that accepts and never answers shows as timeouts, not as nothing.
// The window (rps's denominator) is the phase's duration.
// (autocannon ran these phases before; its latency histogram is whole milliseconds and it mis-times
// servers that close keep-alive connections, so the same engine as the open loop runs both.)
import { performance } from 'node:perf_hooks';
import { type Instance, type Load, makeTarget, openConnection } from './connection.js';
import { UnsendableRequest } from './http1.js';
import {
  type ConnectionOwner,
  type EngineConnection,
  type JudgedResponse,
  sweepTimeouts,
  type Target,
} from './transport.js';
import { levelAt, type Ramp } from '../../src/runner-kit/ramp.js';
import { Recorder } from './recorder.js';
import { type Limit, share } from './split.js';
import type { EngineTally } from './tally.js';

/**
 * `stages`: the phase's connections follow a ramp; instance `offset` of `stride` keeps its share of
 * the level (rounded) at each moment. Connections are added at once and retired as their response
 * comes in (a closed loop's connections are always busy), so none is cut off mid-request.
 */
export interface ConnectionRamp {
  ramp: Ramp;
  stride: number;
  offset: number;
}

/** How often a ramping closed loop re-reads its level, ms (Node timers fire on whole ms). */
export const RAMP_TICK_MS = 10;

/** Connections instance `offset` of `stride` keeps `tMs` into the ramp. */
export function rampConnections(r: ConnectionRamp, tMs: number): number {
  return share(Math.round(levelAt(r.ramp, tMs)), r.stride, r.offset);
}

export interface ClosedRun {
  recorder: Recorder;
  done: Promise<EngineTally>;
}

class ClosedEngine implements ConnectionOwner {
  readonly recorder: Recorder;
  private readonly target: Target;
  private readonly all = new Set<EngineConnection>();
  /**
   * With pipelining: the mix entries of requests written behind a response that announced a close
   * (`Connection: close`), which the server never read. They go out again first, on whichever
   * connection writes next, counted as sent once.
   */
  private readonly resend: number[] = [];
  /** connections a ramp's falling level retires, still answering what they have in flight */
  private readonly retiring = new Set<EngineConnection>();
  private readonly limit: number;
  /** requests written, and failed connects, against a request-count limit */
  private started = 0;
  private settled = 0;
  private stopped = false;
  /** the window is over: nothing new is written; the requests in flight finish or time out */
  private closing = false;
  private deadline: NodeJS.Timeout | undefined;
  private readonly sweeper: NodeJS.Timeout;
  /** the connections wanted now (a fixed count, or the ramp's level) */
  private wanted: number;
  private readonly startedAt = performance.now();
  private rampTicker: NodeJS.Timeout | undefined;
  private resolveDone: (t: EngineTally) => void = () => undefined;
  readonly done = new Promise<EngineTally>((resolve) => (this.resolveDone = resolve));

  /** requests in flight on all connections together (counted only under a cap) */
  private inFlight = 0;

  constructor(
    target: Target,
    connections: number | ConnectionRamp,
    private readonly byCount: boolean,
    limit: Limit,
    /** requests each connection keeps in flight (autocannon's pipelining, HTTP/2 streams; 1: one) */
    private readonly depth: number,
    /** requests in flight on all connections together at most (gRPC: calls over fewer channels) */
    private readonly cap = Infinity,
  ) {
    this.target = target;
    this.recorder = new Recorder(this.target.mixSize);
    this.limit = 'requests' in limit ? limit.requests : Infinity;
    this.sweeper = sweepTimeouts(this.all, this.target);
    // the measured window closes at the deadline; responses after it are not counted
    if ('durationMs' in limit)
      this.deadline = setTimeout(() => this.closeWindow(this.target.longestTimeoutMs), limit.durationMs);
    const now = performance.now();
    if (typeof connections !== 'number') {
      const ramp = connections;
      this.wanted = rampConnections(ramp, 0);
      this.rampTicker = setInterval(
        () => this.follow(rampConnections(ramp, performance.now() - this.startedAt)),
        RAMP_TICK_MS,
      );
    } else this.wanted = connections;
    const n = Math.min(this.wanted, this.limit);
    if (n <= 0 && typeof connections === 'number') this.stop();
    for (let i = 0; i < n; i++) this.open(now);
  }

  /** A ramp's new level: connections are added now; extra ones retire as their responses come in. */
  private follow(wanted: number): void {
    this.wanted = wanted;
    if (this.stopped || this.closing) return;
    // connections still retiring are kept first, then new ones open
    for (const c of this.retiring) {
      if (this.all.size - this.retiring.size >= wanted) break;
      this.retiring.delete(c);
    }
    const now = performance.now();
    for (let i = this.all.size - this.retiring.size; i < wanted; i++) this.open(now);
  }

  /**
   * More connections than the level wants: this one writes nothing more and closes once nothing of
   * it is in flight (with pipelining, after its queue drains; no event: it is ours to close).
   * True when it retires.
   */
  private retire(c: EngineConnection): boolean {
    // a flow's connection retires once its iteration is over, not between its steps
    if (this.target.flow?.midIteration(c)) return false;
    if (!this.retiring.has(c)) {
      if (this.all.size - this.retiring.size <= this.wanted) return false;
      this.retiring.add(c);
    }
    if (c.inFlight) return true;
    this.retiring.delete(c);
    this.all.delete(c);
    c.dispose();
    return true;
  }

  private open(now: number): void {
    this.all.add(openConnection(this.target, this, now, this.depth));
  }

  private next(c: EngineConnection): void {
    if (this.stopped || this.closing) return;
    const again = this.resend.pop();
    if (again !== undefined) {
      c.send(this.target.again(again), performance.now(), again);
      return;
    }
    if (this.started >= this.limit || this.inFlight >= this.cap) return;
    this.started++;
    if (this.cap !== Infinity) this.inFlight++;
    const flow = this.target.flow;
    let request: Buffer;
    try {
      // built before the clock is read: a hook's or a template's time is the generator's
      request = flow ? flow.next(c, performance.now()).request : this.target.next();
    } catch (err) {
      if (!(err instanceof UnsendableRequest)) throw err;
      // it cannot be sent (a hook threw, a header value would break the request): it fails as its
      // kind, a flow's iteration with it, and the connection tries the next on the next turn
      const entry = flow ? flow.entry : this.target.current;
      this.recorder.sentOne(entry);
      if (flow?.startedIteration) this.recorder.entrySent(flow.iteration);
      this.recorder.error(err.kind, flow ? entry : -1);
      if (flow) this.stepSettled(c, false, performance.now());
      this.settle();
      setImmediate(() => this.refill(c));
      return;
    }
    const now = performance.now();
    if (flow) {
      flow.startAt(c, now);
      this.target.head = flow.head;
      this.recorder.sentOne(flow.entry);
      if (flow.startedIteration) this.recorder.entrySent(flow.iteration);
      c.send(request, now, flow.entry);
      return;
    }
    this.recorder.sentOne(this.target.current);
    c.send(request, now, this.target.current);
  }

  /** A flow's step settled on `c`: the iteration's outcome, when it ended, on its entry. */
  private stepSettled(c: EngineConnection, ok: boolean, at: number): void {
    const flow = this.target.flow;
    const end = flow?.settled(c, ok, at);
    if (!flow || !end) return;
    this.recorder.iterationEnded(flow.iteration, end);
  }

  /** Keeps `depth` requests in flight on it: one without pipelining, back to back with it. */
  private fill(c: EngineConnection): void {
    for (let k = c.pending; k < this.depth; k++) this.next(c);
  }

  onOpen(c: EngineConnection): void {
    if (!this.closing && this.retire(c)) return;
    this.fill(c);
  }

  onResponse(c: EngineConnection, r: JudgedResponse, at: number): void {
    if (this.stopped) return;
    this.recorder.response(r.status, r.bytes, (at - c.tag) * 1000, c.req, r.ok, r.check);
    this.stepSettled(c, r.ok, at);
    this.settle();
    this.refill(c);
  }

  onFailed(c: EngineConnection, kind: string): void {
    if (this.stopped) return;
    this.recorder.error(kind, c.req);
    this.stepSettled(c, false, performance.now());
    this.settle();
    this.refill(c);
  }

  onRetry(c: EngineConnection): void {
    if (this.stopped) return;
    // never processed: it goes out again first, on whichever connection writes next
    this.resend.push(c.req);
    this.refill(c);
  }

  /** A request of `c` is settled: the next goes out (on it, or under a cap on any with room). */
  private refill(c: EngineConnection): void {
    if (this.stopped) return;
    if (this.closing) this.drained();
    else if (c.usable && !this.retire(c)) this.fill(c);
    if (this.cap !== Infinity && !this.closing) for (const o of this.all) if (o.connected && o.usable) this.fill(o);
  }

  onClose(c: EngineConnection, kind: string | undefined, byServer: boolean): void {
    this.all.delete(c);
    this.retiring.delete(c);
    if (this.stopped) return;
    // a connect that fails after the window would never have written a request
    if (this.closing && !c.connected) return this.drained();
    if (byServer) this.recorder.connectionCloses++;
    // an announced close: what was written behind it goes out again (the server never read it)
    if (kind === undefined && c.connected) this.resend.push(...c.pendingRequests());
    if (kind !== undefined) {
      if (c.connected) {
        // every request in flight on it failed (with pipelining, those queued behind too)
        const lost = c.pendingRequests();
        for (const req of lost.length > 0 ? lost : [c.req]) {
          if (this.stopped) return;
          this.recorder.error(kind, req);
          this.stepSettled(c, false, performance.now());
          this.settle();
        }
      } else {
        this.recorder.error(kind, -1);
        // a failed connect uses up a request of a counted phase, so a dead server cannot hang it
        this.started++;
        this.settle(false);
      }
    }
    // an announced close between a flow's steps cuts its iteration off
    if (kind === undefined && this.target.flow?.abandon(c))
      this.recorder.entryOutcome(this.target.flow.iteration, undefined, 'closed-mid-iteration');
    if (this.closing) return this.drained();
    if (this.stopped || this.all.size - this.retiring.size >= this.wanted) return;
    if (this.started >= this.limit && this.resend.length === 0) return;
    // replace it; after a failed connect, on the next turn of the loop rather than in a tight loop
    if (c.connected) this.open(performance.now());
    else setImmediate(() => !this.stopped && !this.closing && this.open(performance.now()));
  }

  /** A request settled (answered or failed); `sent`: false for a failed connect, which sent none. */
  private settle(sent = true): void {
    this.settled++;
    if (sent && this.cap !== Infinity) this.inFlight--;
    if (this.byCount && this.settled >= this.limit) this.stop();
  }

  /** The duration is over: the window closes now; the stage ends once nothing is in flight. */
  private closeWindow(timeoutMs: number): void {
    this.closing = true;
    this.recorder.endWindow();
    // the sweeper times out what the service never answers; this is a backstop a little after it
    this.deadline = setTimeout(() => this.stop(), timeoutMs + 1000);
    this.drained();
  }

  private drained(): void {
    for (const c of this.all) if (c.connected && c.inFlight) return;
    this.stop();
  }

  private stop(): void {
    if (this.stopped) return;
    // a request still in flight now was not answered in time (the sweeper missed it): unfinished
    if (this.closing) {
      for (const c of this.all)
        if (c.connected) for (const req of c.pendingRequests()) this.recorder.error('unfinished', req);
      // written once, never read by the server, not sent again before the window closed
      for (const req of this.resend.splice(0)) this.recorder.error('unfinished', req);
    }
    // a flow's iterations still under way (the window closed, or the request count ran out between
    // their steps): unfinished, on the iteration's results
    const flow = this.target.flow;
    if (flow) for (let k = flow.open; k > 0; k--) this.recorder.entryOutcome(flow.iteration, undefined, 'unfinished');
    this.recorder.stop(this.byCount ? 'last-event' : 'now');
    this.stopped = true;
    clearTimeout(this.deadline);
    clearInterval(this.sweeper);
    clearInterval(this.rampTicker);
    for (const c of this.all) c.dispose();
    this.all.clear();
    const tally = this.recorder.tally();
    if (this.target.hook) tally.hook = this.target.hook.stats();
    this.resolveDone(tally);
  }
}

/** Starts one closed-loop run: a fixed duration, or a fixed number of responses; fixed or ramping connections. */
export function runClosed(
  load: Load,
  connections: number | ConnectionRamp,
  limit: Limit,
  timeoutMs: number,
  depth = 1,
  instance?: Instance,
): ClosedRun {
  return runClosedOn(makeTarget(load, timeoutMs, instance), connections, limit, depth);
}

/**
 * A closed loop on a target made already (gRPC's calls): `depth` requests in flight per connection,
 * `cap` on all of them together.
 */
export function runClosedOn(
  target: Target,
  connections: number | ConnectionRamp,
  limit: Limit,
  depth = 1,
  cap = Infinity,
): ClosedRun {
  const engine = new ClosedEngine(target, connections, !('durationMs' in limit), limit, depth, cap);
  return { recorder: engine.recorder, done: engine.done };
}

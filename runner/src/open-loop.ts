// Open-loop phases: sends at a fixed arrival rate on perf-gate's socket engine (connection.ts), one
// request in flight per connection. The schedule is kept whatever the SUT does; a send's latency
// runs from the moment it is written less the part of its delay the service caused (every
// connection busy with an unanswered request), so a stalling SUT cannot hide behind a generator
// that waits for it (no coordinated omission), while the generator's own lateness and its timer's
// granularity are counted apart and never charged to the service (schedule.ts has the rule).
// Connections open on demand up to the cap, a few at a time, so a slow service gets more of them
// without a connect storm.
import { performance } from 'node:perf_hooks';
import { addCounts } from '../../src/runner-kit/measurement.js';
import {
  type ConnectionOwner,
  type EngineConnection,
  type JudgedResponse,
  sweepTimeouts,
  type Target,
} from './transport.js';
import { type Instance, type Load, makeTarget, openConnection } from './connection.js';
import { UnsendableRequest } from './http1.js';
import { park, unpark } from './parking.js';
import { Recorder } from './recorder.js';
import { OpenSchedule, type ScheduleOptions } from './schedule.js';
import type { EngineTally } from './tally.js';

export interface OpenRun {
  recorder: Recorder;
  done: Promise<EngineTally>;
}

export interface OpenJob {
  /** what to send: an HTTP load, or a target made already (gRPC's calls) */
  load: Load | Target;
  schedule: ScheduleOptions;
  /** this instance's bound on requests in flight (one per connection: also the connections it may open) */
  connections: number;
  /** HTTP/2 (and gRPC): requests per connection as streams, and the connections it may open */
  streams?: { perConnection: number; connections: number } | undefined;
  /** per-request timeout, ms; also how long requests may finish after the window (grace) */
  timeoutMs: number;
  /** which instance of the stage this is (its data rows) */
  instance?: Instance;
}

/** connects under way at once: growth on demand without a connect storm */
export const MAX_CONNECTING = 8;

/**
 * Connections opened before the schedule starts (in the lead time before it): enough for 10 ms of
 * this instance's arrivals, at least two, at most the cap. More open on demand.
 */
export function initialConnections(rate: number, stride: number, cap: number): number {
  return Math.max(1, Math.min(cap, Math.ceil(rate / stride / 100) + 1));
}

/** How far ahead of its first send a stage is set up: time to open the initial connections. */
export const START_LEAD_MS = 50;

/** The generator's last idle moment, observed at the start of each engine callback. */
export class IdleWatch {
  private total = performance.nodeTiming.idleTime;
  at = performance.now();

  observe(now: number): void {
    const total = performance.nodeTiming.idleTime;
    if (total !== this.total) {
      this.total = total;
      this.at = now;
    }
  }
}

class OpenEngine implements ConnectionOwner {
  readonly recorder: Recorder;
  private readonly target: Target;
  private readonly schedule: OpenSchedule;
  /** free request slots: a connection once per request it can take now (HTTP/2: per free stream) */
  private readonly idle: EngineConnection[] = [];
  private readonly all = new Set<EngineConnection>();
  /** requests each connection takes at once, the connections at most, and requests in flight */
  private readonly perConnection: number;
  private readonly maxConnections: number;
  private inFlight = 0;
  /** requests the server never processed (a graceful GOAWAY), to send again: their mix entry and accountable start */
  private readonly retries: Array<{ req: number; tag: number }> = [];
  private readonly watch = new IdleWatch();
  private connecting = 0;
  /** sends settled: answered, failed, or dropped because their connection could not open */
  private settled = 0;
  private finished = false;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private readonly sweeper: NodeJS.Timeout;
  private readonly graceTimer: NodeJS.Timeout;
  private taken: EngineConnection | undefined;
  private resolveDone: (t: EngineTally) => void = () => undefined;
  readonly done = new Promise<EngineTally>((resolve) => (this.resolveDone = resolve));
  private readonly take = (): boolean => this.takeConnection();
  private readonly send = (serviceMs: number): void => this.sendOne(serviceMs);

  constructor(private readonly job: OpenJob) {
    this.target = 'wire' in job.load ? job.load : makeTarget(job.load, job.timeoutMs, job.instance);
    this.perConnection = job.streams?.perConnection ?? 1;
    this.maxConnections = job.streams?.connections ?? job.connections;
    this.recorder = new Recorder(this.target.mixSize);
    this.schedule = new OpenSchedule(job.schedule);
    const now = performance.now();
    const startRate = job.schedule.ramp?.from ?? job.schedule.rate;
    const initial = initialConnections(startRate, job.schedule.stride, this.maxConnections);
    // the previous stage's idle connections first (a warm-up's, grown to what the rate needs)
    for (const c of unpark(this.target, now, this.maxConnections, this)) {
      this.all.add(c);
      this.free(c);
    }
    for (let i = this.all.size; i < initial && this.schedule.total > 0; i++) this.open(now);
    this.sweeper = sweepTimeouts(this.all, this.target);
    // the schedule ends at the window's end; requests may finish within one timeout after it
    this.graceTimer = setTimeout(
      () => this.finish(),
      Math.max(0, this.schedule.windowEnd + this.target.longestTimeoutMs - performance.now()),
    );
    if (this.schedule.total === 0) this.finish();
    // sends already due go out on the connections taken from the lot (none may open to wake it)
    else this.pump(now);
  }

  private open(now: number): void {
    this.connecting++;
    this.all.add(openConnection(this.target, this, now, this.perConnection));
  }

  /** A connection's free slots go into `idle`: one per request it can take now. */
  private free(c: EngineConnection): void {
    for (let k = c.pending; k < this.perConnection; k++) this.idle.push(c);
  }

  private takeConnection(): boolean {
    if (this.inFlight >= this.job.connections) return false;
    let c = this.idle.pop();
    // a connection that stopped taking requests (HTTP/2: a GOAWAY came) keeps no free slot
    while (c && !c.usable) c = this.idle.pop();
    if (c) {
      this.taken = c;
      return true;
    }
    // every connection is busy: open another if the cap allows, a few at a time
    const now = performance.now();
    const more = Math.min(
      this.maxConnections - this.all.size,
      MAX_CONNECTING - this.connecting,
      Math.ceil((this.schedule.waiting(now) + this.retries.length) / this.perConnection) - this.connecting,
    );
    for (let i = 0; i < more; i++) this.open(now);
    return false;
  }

  private sendOne(serviceMs: number): void {
    const c = this.taken as EngineConnection;
    this.inFlight++;
    const flow = this.target.flow;
    // a hook's or a template's time building it is the generator's, never the service's: the clock
    // is read once it is built
    const start = performance.now() - serviceMs;
    let request: Buffer;
    try {
      // a scheduled send starts an iteration: it holds the connection until its last step is answered
      request = flow ? flow.next(c, start).request : this.target.next();
    } catch (err) {
      if (!(err instanceof UnsendableRequest)) throw err;
      // it cannot be sent (a hook threw, a header value would break the request): counted as its
      // kind (a flow's iteration with it); the connection stays free
      const entry = flow ? flow.entry : this.target.current;
      this.inFlight--;
      this.recorder.sentOne(entry);
      this.recorder.error(err.kind, flow ? entry : -1);
      if (flow) {
        this.recorder.entrySent(flow.iteration);
        const end = flow.settled(c, false, performance.now());
        if (end) this.recorder.iterationEnded(flow.iteration, end);
      }
      this.idle.push(c);
      this.settle();
      return;
    }
    const now = performance.now();
    // the latency runs from the write less what the service caused: the build is not in it
    const tag = now - serviceMs;
    if (flow) {
      flow.startAt(c, tag);
      this.target.head = flow.head;
      this.recorder.sentOne(flow.entry);
      this.recorder.entrySent(flow.iteration);
      c.send(request, now, flow.entry, tag);
      return;
    }
    this.recorder.sentOne(this.target.current);
    c.send(request, now, this.target.current, tag);
  }

  private pump(now: number): void {
    if (this.finished) return;
    // requests to send again go first, keeping their accountable start (the wait counts)
    while (this.retries.length > 0 && this.takeConnection()) {
      const r = this.retries.shift() as { req: number; tag: number };
      this.inFlight++;
      (this.taken as EngineConnection).send(this.target.again(r.req < 0 ? 0 : r.req), performance.now(), r.req, r.tag);
    }
    if (this.retries.length > 0) return;
    this.schedule.pump(now, this.watch.at, this.take, this.send);
    this.arm(now);
  }

  /** Wakes for the next send not yet due; sends due but held wait for a connection instead. */
  private arm(now: number): void {
    const next = this.schedule.nextAt();
    if (next === undefined || next <= now || next === this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(this.onTimer, next - now);
  }

  private readonly onTimer = (): void => {
    this.timerAt = Infinity;
    this.timer = undefined;
    const now = performance.now();
    this.watch.observe(now);
    this.pump(now);
  };

  onOpen(c: EngineConnection): void {
    const now = performance.now();
    this.watch.observe(now);
    this.connecting--;
    this.free(c);
    this.pump(now);
  }

  onResponse(c: EngineConnection, r: JudgedResponse, at: number): void {
    this.watch.observe(at);
    if (!this.finished) {
      this.recorder.response(r.status, r.bytes, (at - c.tag) * 1000, c.req, r.ok, r.check);
      if (at <= this.schedule.windowEnd) this.recorder.answeredWithin(c.req);
    }
    if (this.target.flow && this.nextStep(c, r.ok, at)) return;
    this.release(c, at);
  }

  onFailed(c: EngineConnection, kind: string): void {
    const now = performance.now();
    this.watch.observe(now);
    if (!this.finished) this.recorder.error(kind, c.req);
    if (this.target.flow) this.nextStep(c, false, now);
    this.release(c, now);
  }

  /**
   * A flow's step on `c` settled: its iteration's next step goes out on `c` at once, counted from its
   * own write (true), or the iteration ended and is counted (false: `c` is released).
   */
  private nextStep(c: EngineConnection, ok: boolean, at: number): boolean {
    const flow = this.target.flow as NonNullable<Target['flow']>;
    const end = flow.settled(c, ok, at);
    if (end) {
      if (!this.finished) this.recorder.iterationEnded(flow.iteration, end);
      return false;
    }
    if (this.finished || !c.usable) {
      // the window is over, or the server closes the connection: the iteration stops here
      flow.abandon(c);
      if (!this.finished) this.recorder.entryOutcome(flow.iteration, undefined, 'closed-mid-iteration');
      return false;
    }
    let request: Buffer;
    try {
      request = flow.next(c, at).request;
    } catch (err) {
      if (!(err instanceof UnsendableRequest)) throw err;
      // the next step cannot be sent (a header value from an extracted value would break it)
      this.recorder.sentOne(flow.entry);
      this.recorder.error(err.kind, flow.entry);
      const end = flow.settled(c, false, performance.now());
      if (end) this.recorder.iterationEnded(flow.iteration, end);
      return false;
    }
    const now = performance.now();
    this.target.head = flow.head;
    this.recorder.sentOne(flow.entry);
    c.send(request, now, flow.entry, now);
    return true;
  }

  /** A request of `c` is settled: its slot is free again (unless `c` takes no more), and due sends go. */
  private release(c: EngineConnection, now: number): void {
    this.inFlight--;
    this.settle();
    if (c.usable) this.idle.push(c);
    this.pump(now);
  }

  onRetry(c: EngineConnection): void {
    this.inFlight--;
    this.retries.push({ req: c.req, tag: c.tag });
    this.pump(performance.now());
  }

  onClose(c: EngineConnection, kind: string | undefined, byServer: boolean): void {
    const now = performance.now();
    this.watch.observe(now);
    this.all.delete(c);
    if (!c.connected) this.connecting--;
    else {
      // its free slots go
      for (let i = this.idle.indexOf(c); i !== -1; i = this.idle.indexOf(c)) this.idle.splice(i, 1);
    }
    // what was in flight on it is settled below (failed), or was never read: either way no longer in flight
    if (c.connected) this.inFlight -= c.pending;
    if (!this.finished) {
      if (byServer) this.recorder.connectionCloses++;
      if (kind !== undefined) {
        if (c.connected) {
          // the requests in flight failed (a flow's: its iteration too)
          for (const req of c.pendingRequests()) {
            this.recorder.error(kind, req);
            if (this.target.flow) this.nextStep(c, false, now);
            this.settle();
          }
        } else if (this.schedule.drop(now)) {
          // the connect failed: the send waiting for it fails with that error
          this.recorder.error(kind);
          this.settle();
        }
      }
    }
    this.pump(now);
  }

  private settle(): void {
    this.settled++;
    if (!this.finished && this.settled === this.schedule.total) this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.timer);
    clearTimeout(this.graceTimer);
    clearInterval(this.sweeper);
    const s = this.schedule;
    const tally = this.recorder.tally();
    if (this.target.hook) tally.hook = this.target.hook.stats();
    // the measured window is the schedule's; its rate counts the responses within it (answeredInWindow):
    // a saturated service answers its backlog in the grace period after it, and counting those would
    // credit it with the offered rate; a service that keeps up leaves only its last requests in flight
    tally.elapsedMs = this.job.schedule.durationMs;
    tally.answeredInWindow ??= 0;
    for (const entry of tally.requests ?? []) entry.answeredInWindow ??= 0;
    // requests the schedule called for that got no answer in time: aborted, or never sent
    const unfinished = s.total - this.settled;
    const flow = this.target.flow;
    if (flow) {
      // a flow's schedule is of iterations: those not ended are its iteration results' unfinished;
      // the steps in flight are requests, each its step's and the phase's
      const it = tally.requests?.[flow.iteration];
      if (it && unfinished > 0) addCounts(it.errors, { unfinished });
      for (const c of this.all) {
        if (!c.connected) continue;
        for (const req of c.pendingRequests()) {
          addCounts(tally.errors, { unfinished: 1 });
          const step = tally.requests?.[req];
          if (step) addCounts(step.errors, { unfinished: 1 });
        }
      }
    } else if (unfinished > 0) addCounts(tally.errors, { unfinished });
    tally.open = s.counts(unfinished);
    // idle connections wait for the next stage; those still busy are closed
    const idle = [...this.all].filter((c) => c.connected && c.usable && !c.inFlight);
    for (const c of this.all) if (!idle.includes(c)) c.dispose();
    park(this.target, idle, performance.now());
    this.all.clear();
    this.idle.length = 0;
    this.resolveDone(tally);
  }
}

export function runOpen(job: OpenJob): OpenRun {
  const engine = new OpenEngine(job);
  return { recorder: engine.recorder, done: engine.done };
}

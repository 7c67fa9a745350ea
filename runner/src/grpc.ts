// gRPC phases: unary calls of one method on @grpc/grpc-js, over `channels` HTTP/2 connections.
// Closed loop: `connections` calls in flight, each followed by the next as soon as it completes.
// Open loop: calls at a fixed rate on the same schedule as HTTP (schedule.ts): a call that finds
// every slot busy waits, and that wait counts in its latency (no coordinated omission); the
// generator's own lateness does not. Latency runs from the call's start (or its accountable start)
// to its completion, in µs. Results by gRPC status name: OK is a success, any other status (a
// DEADLINE_EXCEEDED, UNAVAILABLE, ...) a failure of that class. Messages are serialised once and
// responses are not decoded (their size is counted).
import * as grpc from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';
import type { PlanGrpc } from '../../src/protocol/plan.js';
import { IdleWatch } from './open-loop.js';
import { Recorder } from './recorder.js';
import { OpenSchedule, type ScheduleOptions } from './schedule.js';
import type { Limit } from './split.js';
import type { EngineTally } from './tally.js';

export interface GrpcRun {
  recorder: Recorder;
  done: Promise<EngineTally>;
}

/** Calls of one stage still in flight: cancelled when the stage ends, so none spills into the next. */
class InFlight {
  private readonly calls = new Set<grpc.ClientUnaryCall>();
  start(calls: Calls, done: (status: string, bytes: number) => void): void {
    // a callback may come before makeUnaryRequest returns (an immediate failure): then nothing is kept
    const held: { call?: grpc.ClientUnaryCall; settled?: boolean } = {};
    held.call = calls.call((status, bytes) => {
      held.settled = true;
      if (held.call) this.calls.delete(held.call);
      done(status, bytes);
    });
    if (!held.settled) this.calls.add(held.call);
  }
  get size(): number {
    return this.calls.size;
  }
  cancel(): void {
    const calls = [...this.calls];
    this.calls.clear();
    for (const c of calls) c.cancel();
  }
}

/** Status names by code (0 → OK, 14 → UNAVAILABLE, ...). */
const STATUS_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(grpc.status)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => [v as number, k]),
);

/** What every call of a job needs, made once: the clients, the method's path, the serialised messages. */
class Calls {
  private readonly clients: grpc.Client[];
  private readonly path: string;
  private readonly messages: Buffer[];
  private readonly metadata: grpc.Metadata;
  private next = 0;
  private nextClient = 0;

  constructor(private readonly g: PlanGrpc) {
    const def = fromJSON(g.descriptor as Parameters<typeof fromJSON>[0], { keepCase: true, defaults: true });
    const service = def[g.service] as grpc.ServiceDefinition | undefined;
    const method = service?.[g.method];
    if (!method) throw new Error(`${g.service}/${g.method}: not in the proto the plan carries`);
    this.path = method.path;
    this.messages = g.messages.map((m) => method.requestSerialize(m));
    this.metadata = new grpc.Metadata();
    for (const [k, v] of Object.entries(g.metadata)) this.metadata.set(k, v);
    const url = new URL(g.url);
    const target = url.host;
    const creds = url.protocol === 'grpcs:' ? grpc.credentials.createSsl() : grpc.credentials.createInsecure();
    // a local subchannel pool per client: `channels` clients are `channels` HTTP/2 connections
    this.clients = Array.from(
      { length: g.channels },
      () => new grpc.Client(target, creds, { 'grpc.use_local_subchannel_pool': 1 }),
    );
  }

  /** Starts one call; `done` gets its status name and the response's size. */
  call(done: (status: string, bytes: number) => void): grpc.ClientUnaryCall {
    const message = this.messages[this.next++ % this.messages.length] as Buffer;
    const client = this.clients[this.nextClient++ % this.clients.length] as grpc.Client;
    return client.makeUnaryRequest<Buffer, Buffer>(
      this.path,
      (b) => b,
      (b) => b,
      message,
      this.metadata,
      { deadline: Date.now() + this.g.deadlineMs },
      (err, res) => {
        if (err) done(STATUS_NAMES[err.code] ?? `status-${err.code}`, 0);
        else done('OK', res?.length ?? 0);
      },
    );
  }

  close(): void {
    for (const c of this.clients) c.close();
  }
}

/**
 * The clients of a scenario, kept from one stage to the next on this thread (a warm-up's connected
 * channels serve the measured run; a stage does not start by connecting). Replaced when another
 * scenario's calls come; the runner's exit closes the last.
 */
let kept: { key: string; calls: Calls } | undefined;

function callsFor(g: PlanGrpc): Calls {
  const key = JSON.stringify([g.url, g.service, g.method, g.channels, g.metadata, g.deadlineMs, g.messages]);
  if (kept?.key !== key) {
    kept?.calls.close();
    kept = { key, calls: new Calls(g) };
  }
  return kept.calls;
}

/** Closes the kept clients (tests; the runner's exit does it otherwise). */
export function closeGrpcClients(): void {
  kept?.calls.close();
  kept = undefined;
}

/** Closed loop: `connections` calls in flight for a duration or a number of calls. */
export function runGrpcClosed(g: PlanGrpc, connections: number, limit: Limit): GrpcRun {
  const recorder = new Recorder();
  const calls = callsFor(g);
  const inFlight = new InFlight();
  const max = 'requests' in limit ? limit.requests : Infinity;
  let started = 0;
  let settled = 0;
  let stopped = false;
  // the window is over: no new call; those in flight complete or meet their deadline (closed-loop.ts)
  let closing = false;
  let deadline: NodeJS.Timeout | undefined;
  let resolve: (t: EngineTally) => void = () => undefined;
  const done = new Promise<EngineTally>((r) => (resolve = r));
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    // a call still in flight now outlived its deadline (the backstop below): unfinished
    if (closing) for (let i = 0; i < inFlight.size; i++) recorder.error('unfinished');
    recorder.stop('durationMs' in limit ? 'now' : 'last-event');
    clearTimeout(deadline);
    inFlight.cancel();
    resolve(recorder.tally());
  };
  const closeWindow = (): void => {
    closing = true;
    recorder.endWindow();
    deadline = setTimeout(stop, g.deadlineMs + 1000);
    if (inFlight.size === 0) stop();
  };
  const next = (): void => {
    if (stopped || closing || started >= max) return;
    started++;
    recorder.sentOne(-1);
    const at = performance.now();
    inFlight.start(calls, (status, bytes) => {
      if (stopped) return;
      recorder.response(status, bytes, (performance.now() - at) * 1000);
      settled++;
      if (settled >= max || (closing && inFlight.size === 0)) stop();
      else next();
    });
  };
  if ('durationMs' in limit) deadline = setTimeout(closeWindow, limit.durationMs);
  for (let i = 0; i < Math.min(connections, max); i++) next();
  return { recorder, done };
}

export interface GrpcOpenJob {
  grpc: PlanGrpc;
  schedule: ScheduleOptions;
  /** calls in flight at most (this instance's share of max-in-flight) */
  inFlight: number;
  /** how long calls may complete after the window (grace), ms */
  timeoutMs: number;
}

/** Open loop: calls at the schedule's rate, at most `inFlight` at once; the rest wait for a slot. */
export function runGrpcOpen(job: GrpcOpenJob): GrpcRun {
  const recorder = new Recorder();
  const calls = callsFor(job.grpc);
  const pending = new InFlight();
  const schedule = new OpenSchedule(job.schedule);
  const watch = new IdleWatch();
  let inFlight = 0;
  let settled = 0;
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let resolve: (t: EngineTally) => void = () => undefined;
  const done = new Promise<EngineTally>((r) => (resolve = r));

  const finish = (): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    clearTimeout(grace);
    pending.cancel();
    const tally = recorder.tally();
    tally.elapsedMs = job.schedule.durationMs;
    const unfinished = schedule.total - settled;
    if (unfinished > 0) tally.errors.unfinished = (tally.errors.unfinished ?? 0) + unfinished;
    tally.open = schedule.counts(unfinished);
    resolve(tally);
  };
  const take = (): boolean => inFlight < job.inFlight;
  const send = (serviceMs: number): void => {
    inFlight++;
    recorder.sentOne(-1);
    const at = performance.now() - serviceMs;
    pending.start(calls, (status, bytes) => {
      inFlight--;
      const now = performance.now();
      watch.observe(now);
      if (finished) return;
      recorder.response(status, bytes, (now - at) * 1000);
      settled++;
      if (settled === schedule.total) finish();
      else pump(now);
    });
  };
  const arm = (now: number): void => {
    const next = schedule.nextAt();
    if (next === undefined || next <= now || next === timerAt) return;
    clearTimeout(timer);
    timerAt = next;
    timer = setTimeout(onTimer, next - now);
  };
  const pump = (now: number): void => {
    if (finished) return;
    schedule.pump(now, watch.at, take, send);
    arm(now);
  };
  const onTimer = (): void => {
    timerAt = Infinity;
    const now = performance.now();
    watch.observe(now);
    pump(now);
  };
  const grace = setTimeout(finish, Math.max(0, schedule.windowEnd + job.timeoutMs - performance.now()));
  // pump, not just arm: setting up the clients may have taken the lead time and more
  if (schedule.total === 0) finish();
  else pump(performance.now());
  return { recorder, done };
}

// Per-run accounting shared by the load engines: success latency in µs into an HDR histogram,
// failures by status code, socket errors by kind, and this thread's event-loop delay.
import type { IterationEnd } from './flow.js';
import { monitorEventLoopDelay, performance as perf } from 'node:perf_hooks';
import { isSuccess } from '../../src/runner-kit/expect.js';
import { createHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';
import { TimelineRecorder } from '../../src/runner-kit/timeline.js';
import type { EngineTally, RequestTally } from './tally.js';

/** One mix entry's counts within a run (the recorder's own include them). */
export class RequestCounts {
  readonly histogram = createHistogram();
  sent = 0;
  responses = 0;
  successes = 0;
  failures = 0;
  bytes = 0;
  readonly statusCodes: Record<string, number> = {};
  readonly errors: Record<string, number> = {};
  /** responses that failed a check of the request's `expect`, by check */
  readonly checks: Record<string, number> = {};
  /** statuses outside 2xx/3xx that were successes because the request's checks list them */
  readonly expected = new Set<string>();
  /** an open loop's responses that came within its window (what its rate counts); undefined: all */
  answeredInWindow: number | undefined;

  /** A response; `ok` is whether it is a success (by default its status), `check` the check it failed. */
  count(status: number | string, bytes: number, latencyUs: number, ok = isSuccess(status), check?: string): void {
    this.responses++;
    this.bytes += bytes;
    const key = String(status);
    this.statusCodes[key] = (this.statusCodes[key] ?? 0) + 1;
    if (ok) {
      this.successes++;
      if (!isSuccess(status)) this.expected.add(key);
      recordUs(this.histogram, latencyUs);
    } else {
      this.failures++;
      if (check !== undefined) this.checks[check] = (this.checks[check] ?? 0) + 1;
    }
  }

  error(kind: string): void {
    this.errors[kind] = (this.errors[kind] ?? 0) + 1;
  }

  /** An outcome that is not an HTTP response (a WebSocket ack, push or connect): a success with its latency. */
  ok(bytes: number, latencyUs: number): void {
    this.responses++;
    this.successes++;
    this.bytes += bytes;
    recordUs(this.histogram, latencyUs);
  }

  tally(): RequestTally {
    const t: RequestTally = {
      sent: this.sent,
      responses: this.responses,
      successes: this.successes,
      failures: this.failures,
      bytes: this.bytes,
      statusCodes: this.statusCodes,
      errors: this.errors,
      histogram: encodeHistogram(this.histogram),
    };
    if (Object.keys(this.checks).length > 0) t.checks = this.checks;
    if (this.expected.size > 0) t.expectedStatuses = [...this.expected].sort();
    if (this.answeredInWindow !== undefined) t.answeredInWindow = this.answeredInWindow;
    this.histogram.destroy();
    return t;
  }
}

/** A run's counts (the phase's own, every mix entry included), its window and this thread's loop. */
export class Recorder extends RequestCounts {
  connectionCloses = 0;
  private readonly startedAt = performance.now();
  private readonly loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  private readonly utilizationAtStart = perf.eventLoopUtilization();
  private endedAt: number | undefined;
  /** where the measured window closed when outcomes are still counted after it (endWindow) */
  private windowEndAt: number | undefined;
  private lastEventAt: number | undefined;

  /** per mix entry (empty without a mix) */
  private readonly mix: RequestCounts[];
  /** the phase's success latency by the time it came */
  private readonly timeline = new TimelineRecorder();

  constructor(mixSize = 0) {
    super();
    this.loop.enable();
    this.mix = Array.from({ length: mixSize }, () => new RequestCounts());
  }

  /** Counts an outcome inside the measured window (false after it), noting when it came. */
  private inWindow(): boolean {
    if (this.endedAt !== undefined) return false;
    this.lastEventAt = performance.now();
    return true;
  }

  /** A request written; `req` is its mix entry (-1 without a mix). */
  sentOne(req: number): void {
    this.sent++;
    const m = this.mix[req];
    if (m) m.sent++;
  }

  /** A response to a request of mix entry `req` (-1 without a mix); `ok`/`check` as in RequestCounts. */
  response(
    status: number | string,
    bytes: number,
    latencyUs: number,
    req = -1,
    ok = isSuccess(status),
    check?: string,
  ): void {
    if (!this.inWindow()) return;
    this.mix[req]?.count(status, bytes, latencyUs, ok, check);
    this.count(status, bytes, latencyUs, ok, check);
    if (ok) this.onTimeline(latencyUs);
  }

  /** A success on the timeline, at its time in the measured window (not one answered after the
   * window closed: those count everywhere else) */
  private onTimeline(latencyUs: number): void {
    if (this.windowEndAt === undefined)
      this.timeline.record((this.lastEventAt ?? this.startedAt) - this.startedAt, latencyUs);
  }

  /** An outcome counted on one entry only, not the phase's own (a flow's iteration): begun. */
  entrySent(req: number): void {
    const m = this.mix[req];
    if (m) m.sent++;
  }

  /** A flow's iteration ended: a success taking `latencyUs` (undefined: it failed, as `kind`). */
  entryOutcome(req: number, latencyUs: number | undefined, kind: string): void {
    const m = this.mix[req];
    if (!m || !this.inWindow()) return;
    if (latencyUs !== undefined) m.ok(0, latencyUs);
    else m.error(kind);
  }

  /** A flow's iteration ended (`end`, from Flow.settled): counted on its entry `req`. */
  iterationEnded(req: number, end: IterationEnd): void {
    this.entryOutcome(req, end.ok ? end.latencyUs : undefined, end.ok ? '' : end.kind);
  }

  /** The counts of one mix entry (or one WebSocket outcome: push, connect), kept apart from the run's own. */
  sub(req: number): RequestCounts {
    const m = this.mix[req];
    if (!m) throw new Error(`no counts for entry ${req}`);
    return m;
  }

  /** A success that is not an HTTP response (a WebSocket ack), with its latency. */
  override ok(bytes: number, latencyUs: number): void {
    if (!this.inWindow()) return;
    super.ok(bytes, latencyUs);
    this.onTimeline(latencyUs);
  }

  /** A failed request (`req` its mix entry), or a failed connect (`req` -1: no entry chosen yet). */
  override error(kind: string, req = -1): void {
    if (!this.inWindow()) return;
    this.mix[req]?.error(kind);
    super.error(kind);
  }

  /** Stops counting: the measured window ends now, or at the last response (fixed request counts). */
  stop(end: 'now' | 'last-event' = 'now'): void {
    if (this.endedAt === undefined)
      this.endedAt = end === 'last-event' ? (this.lastEventAt ?? performance.now()) : performance.now();
    this.loop.disable();
  }

  /** An open loop's response that came within its window (its phase's and its mix entry's rate count
   * it; those after the window count in everything else). */
  answeredWithin(req = -1): void {
    this.answeredInWindow = (this.answeredInWindow ?? 0) + 1;
    const entry = this.mix[req];
    if (entry) entry.answeredInWindow = (entry.answeredInWindow ?? 0) + 1;
  }

  /** The window closes now, for the elapsed time; requests already written are still counted. */
  endWindow(): void {
    this.windowEndAt ??= performance.now();
  }

  elapsedMs(): number {
    return (this.windowEndAt ?? this.endedAt ?? performance.now()) - this.startedAt;
  }

  /** This instance's counts, for the trial merge. */
  override tally(): EngineTally {
    this.stop();
    const t: EngineTally = {
      ...super.tally(),
      elapsedMs: this.elapsedMs(),
      connectionCloses: this.connectionCloses,
      loopDelayP99Us: lagUs(this.loop.percentile(99)),
      loopDelayMaxUs: lagUs(this.loop.max),
      loopUtilization: perf.eventLoopUtilization(this.utilizationAtStart).utilization,
      timeline: this.timeline.tally(),
    };
    if (this.mix.length > 0) t.requests = this.mix.map((m) => m.tally());
    return t;
  }
}

// the histogram holds whole timer intervals (resolution + lag), in ns; report the lag
const LOOP_RESOLUTION_MS = 10;
function lagUs(intervalNs: number): number {
  return Number.isFinite(intervalNs) ? Math.max(0, Math.round(intervalNs / 1000 - LOOP_RESOLUTION_MS * 1000)) : 0;
}

/** Error kind for accounting: the socket error code, `timeout`, or `error`. */
export function errorKind(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (UNDICI_KINDS[code]) return UNDICI_KINDS[code];
  // undici wraps socket failures; the cause carries the system code (ECONNRESET, EPIPE, ...)
  if (code === 'UND_ERR_SOCKET') return typeof e.cause?.code === 'string' ? e.cause.code : 'socket-closed';
  if (code !== '') return code;
  if (typeof e?.message === 'string' && /timed out/i.test(e.message)) return 'timeout';
  return 'error';
}

const UNDICI_KINDS: Record<string, string> = {
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  UND_ERR_ABORTED: 'aborted',
};

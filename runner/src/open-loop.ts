// Open-loop phases: sends at a fixed arrival rate on undici's Pool, each latency measured from the
// send's *scheduled* time to the last byte of the response, so a stalling SUT cannot hide behind a
// generator that waits for it (no coordinated omission). The schedule is kept whatever the SUT does;
// sends held back by max-in-flight still count from their scheduled time.
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import type { PlanScenario } from '../../src/plan.js';
import { errorKind, Recorder } from './recorder.js';
import { OpenSchedule, type ScheduleOptions } from './schedule.js';
import type { EngineTally } from './tally.js';

export interface OpenRun {
  recorder: Recorder;
  done: Promise<EngineTally>;
}

export interface OpenJob {
  request: PlanScenario['request'];
  schedule: ScheduleOptions;
  /** sockets to the SUT (see openLoopLimits) */
  connections: number;
  /** per-request timeout, ms; also how long requests may finish after the window (grace) */
  timeoutMs: number;
}

const SERVER_CLOSE_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** A `Connection` header asking to close the connection after this exchange. */
function isClose(name: string, value: string): boolean {
  return name.toLowerCase() === 'connection' && /close/i.test(value);
}

function closesConnection(raw: Buffer[] | string[] | null): boolean {
  if (!raw) return false;
  for (let i = 0; i + 1 < raw.length; i += 2) if (isClose(String(raw[i]), String(raw[i + 1]))) return true;
  return false;
}

function headerBytes(raw: Buffer[] | string[] | null): number {
  if (!raw) return 0;
  let n = 0;
  for (const h of raw) n += h.length;
  // ": " and CRLF per header, plus the status line and the blank line
  return n + raw.length * 2 + 19;
}

export function runOpen(job: OpenJob): OpenRun {
  const { request } = job;
  const url = new URL(request.url);
  const recorder = new Recorder();
  const schedule = new OpenSchedule(job.schedule);
  const pool = new Pool(url.origin, {
    connections: job.connections,
    pipelining: 1,
    headersTimeout: job.timeoutMs,
    bodyTimeout: job.timeoutMs,
    connectTimeout: job.timeoutMs,
    // like autocannon (the closed loop): a test SUT's self-signed certificate is not an error
    connect: { rejectUnauthorized: false },
  });
  // the SUT closing connections: a response that announces `Connection: close` (counted in onHeaders;
  // undici then closes the socket itself), or a socket the other side ended or reset. undici's own
  // closes (its idle timeout, HEAD, our timeouts, our shutdown) are not the SUT's doing.
  pool.on('disconnect', (_origin, _targets, err) => {
    if (!finished && SERVER_CLOSE_CODES.has(String((err as { code?: unknown })?.code))) recorder.connectionCloses++;
  });
  const path = url.pathname + url.search;
  // undici sends `connection: close` with HEAD, and so does a user's own header: the server's
  // `Connection: close` is then an answer, not its own doing
  const weAskClose =
    request.method.toUpperCase() === 'HEAD' || Object.entries(request.headers).some(([k, v]) => isClose(k, v));
  const bodies = request.bodies;
  let bodyIndex = 0;
  let inFlight = 0;
  let completed = 0;
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  let resolveDone: (t: EngineTally) => void = () => undefined;
  const done = new Promise<EngineTally>((resolve) => {
    resolveDone = resolve;
  });

  const finish = (): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    clearTimeout(graceTimer);
    const tally = recorder.tally();
    // the measured window is the schedule's; responses in the grace period after it still count
    tally.elapsedMs = job.schedule.durationMs;
    // requests the schedule called for that got no answer in time: aborted, or never sent
    const unfinished = schedule.total - completed;
    if (unfinished > 0) tally.errors.unfinished = (tally.errors.unfinished ?? 0) + unfinished;
    tally.open = {
      scheduled: schedule.total,
      late: schedule.late,
      lateMaxInFlight: schedule.lateMaxInFlight,
      unfinished,
      maxSendDelayUs: Math.round(schedule.maxSendDelayMs * 1000),
    };
    const resolve = (): void => resolveDone(tally);
    pool.destroy().then(resolve, resolve);
  };

  const settle = (): void => {
    inFlight--;
    completed++;
    if (finished) return;
    if (completed === schedule.total) finish();
    else pump();
  };

  const send = (scheduledAt: number): void => {
    inFlight++;
    recorder.sent++;
    let status = 0;
    let bytes = 0;
    const opts: Dispatcher.DispatchOptions = { path, method: request.method as Dispatcher.HttpMethod };
    opts.headers = request.headers;
    if (bodies !== undefined) opts.body = bodies[bodyIndex++ % bodies.length] as string;
    else if (request.body !== undefined) opts.body = request.body;
    pool.dispatch(opts, {
      onConnect: () => undefined,
      onUpgrade: () => undefined,
      onHeaders: (statusCode, rawHeaders) => {
        status = statusCode;
        bytes += headerBytes(rawHeaders);
        if (!weAskClose && closesConnection(rawHeaders)) recorder.connectionCloses++;
        return true;
      },
      onData: (chunk) => {
        bytes += chunk.length;
        return true;
      },
      onComplete: () => {
        if (!finished) recorder.response(status, bytes, (performance.now() - scheduledAt) * 1000);
        settle();
      },
      onError: (err) => {
        if (!finished) recorder.error(errorKind(err));
        // undici may fail a dispatch synchronously (inside pump): settle after it, not within it
        queueMicrotask(settle);
      },
    });
  };

  const pump = (): void => {
    if (finished) return;
    schedule.pump(performance.now(), () => inFlight, send);
    if (timer === undefined) arm();
  };

  const arm = (): void => {
    const next = schedule.nextAt();
    // nothing left to schedule, or held back by max-in-flight: a completion pumps again
    if (next === undefined || (inFlight >= job.schedule.maxInFlight && next <= performance.now())) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        pump();
      },
      Math.max(0, next - performance.now()),
    );
  };

  // the schedule ends at the window's end; requests may finish within one timeout after it
  const graceTimer = setTimeout(finish, Math.max(0, schedule.windowEnd + job.timeoutMs - performance.now()));
  if (schedule.total === 0) finish();
  else arm();
  return { recorder, done };
}

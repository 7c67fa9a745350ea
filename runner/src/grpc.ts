// gRPC phases: unary calls of one method on the socket engine's HTTP/2 client (h2/connection.ts),
// over `channels` connections, in closed or open loop exactly as HTTP/2 requests are (closed-loop.ts,
// open-loop.ts): latency from the call's write (or its accountable start) to its trailers, in µs.
// Results by gRPC status name from the trailers (`grpc-status`; without one, from the HTTP status
// by gRPC's mapping): OK is a success, any other status a failure of that class; a call past its
// deadline is cancelled (RST_STREAM) and counted DEADLINE_EXCEEDED. The host serialised the
// messages; each is framed once here, and responses are not decoded (their size is counted).
import type { PlanGrpc } from '../../src/runner-kit/plan.js';
import { type ClosedRun, runClosedOn } from './closed-loop.js';
import { grpcStatusOf, grpcStatusOfReset } from './grpc-status.js';
import { endpointOf, type StreamOutcome, type StreamRules, type Target } from './transport.js';
import { grpcCallFrames } from './h2/request.js';
import { type OpenRun, runOpen } from './open-loop.js';
import type { ScheduleOptions } from './schedule.js';
import type { Limit } from './split.js';

export type GrpcRun = ClosedRun | OpenRun;

/** a call past its deadline: the status gRPC clients report for it */
const DEADLINE: StreamOutcome = { status: 'DEADLINE_EXCEEDED', ok: false };

/** HTTP/2 streams as gRPC calls: a call's status from its trailers, a reset a status too, as gRPC
 * clients report them (past its deadline, DEADLINE_EXCEEDED). */
export const GRPC_STREAMS: StreamRules = {
  name: 'grpc',
  timedOut: () => DEADLINE,
  reset: (code, late) => (late ? DEADLINE : { status: grpcStatusOfReset(code), ok: false }),
  complete: (s) => {
    const status = grpcStatusOf(s.grpcStatus, s.status);
    return { status, ok: status === 'OK' };
  },
};

/** The calls' target: one pre-framed call per message, rotated; `timeoutMs` bounds a connect. */
export function grpcTarget(g: PlanGrpc, timeoutMs = g.deadlineMs): Target {
  const endpoint = endpointOf(new URL(g.url), 'grpcs:');
  const calls = g.messages.map((m) =>
    grpcCallFrames({
      url: g.url,
      path: g.path,
      metadata: g.metadata,
      deadlineMs: g.deadlineMs,
      message: Buffer.from(m, 'base64'),
    }),
  );
  let i = 0;
  const next = (): Buffer => calls[i++ % calls.length] as Buffer;
  const t: Target = {
    wire: 'http2',
    streams: GRPC_STREAMS,
    ...endpoint,
    next,
    again: next,
    current: 0,
    mixSize: 0,
    head: false,
    asksClose: false,
    expects: [undefined],
    captures: [undefined],
    timeouts: [g.deadlineMs],
    longestTimeoutMs: g.deadlineMs,
    connectTimeoutMs: Math.max(timeoutMs, g.deadlineMs),
  };
  // grpcs:// verifies the server's certificate, as gRPC clients (and grpc-js before) do
  if (endpoint.tls) t.verifyTls = true;
  return t;
}

/** Calls over channels: the channels used (no more than calls) and the calls each carries at most. */
export function callsPerChannel(calls: number, channels: number): { channels: number; perChannel: number } {
  const used = Math.max(1, Math.min(channels, calls));
  return { channels: used, perChannel: Math.max(1, Math.ceil(calls / used)) };
}

/** Closed loop: `inFlight` calls in flight over the channels, for a duration or a number of calls. */
export function runGrpcClosed(g: PlanGrpc, inFlight: number, limit: Limit, timeoutMs?: number): GrpcRun {
  const { channels, perChannel } = callsPerChannel(inFlight, g.channels);
  return runClosedOn(grpcTarget(g, timeoutMs), channels, limit, perChannel, inFlight);
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
  const { channels, perChannel } = callsPerChannel(job.inFlight, job.grpc.channels);
  return runOpen({
    load: grpcTarget(job.grpc, job.timeoutMs),
    schedule: job.schedule,
    connections: job.inFlight,
    streams: { perConnection: perChannel, connections: channels },
    timeoutMs: job.timeoutMs,
  });
}

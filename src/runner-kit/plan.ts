// The runner↔host protocol, part 1: the plan the host hands to the runner container (phases, ready
// probes, requests) and the events the runner sends back on stdout. The runner imports nothing from
// the host but src/runner-kit/.
import type { PlanExpect } from './expect.js';
import type { TrialMeasurement } from './measurement.js';
import type { Ramp } from './ramp.js';
import type { ProfileRequest } from './profile.js';
import type { ExtractRule, PlanSetupStep } from './setup.js';

export interface ClosedPhase {
  kind: 'closed';
  name: string;
  /** the connections; with a ramp, its peak */
  connections: number;
  durationMs?: number;
  requests?: number;
  /** `stages`: the connections follow this ramp over durationMs (its stages' sum); no request count */
  ramp?: Ramp;
  /** requests each connection keeps in flight (HTTP/1.1 pipelining, autocannon's option); absent: 1 */
  pipelining?: number;
  /** HTTP/2: requests each connection keeps in flight as concurrent streams (h2load's -m); absent: 1 */
  streams?: number;
}
export interface OpenPhase {
  kind: 'open';
  name: string;
  /** the arrival rate, per second; with a ramp, its peak */
  rate: number;
  durationMs: number;
  maxInFlight: number;
  connections?: number;
  /** `stages`: the arrival rate follows this ramp over durationMs (its stages' sum) */
  ramp?: Ramp;
  /** HTTP/2: requests each connection may have in flight as concurrent streams; absent: 1 */
  streams?: number;
}
/**
 * A WebSocket phase: `peers` connections, each sending `messages` messages (each after the previous
 * one's ack, or at `rate` per second per peer), then waiting up to the drain for acks and pushes.
 */
export interface WsPhase {
  kind: 'ws';
  name: string;
  peers: number;
  messages: number;
  /** messages per second per peer (open loop, latency from the scheduled time); absent: each after the last ack */
  rate?: number;
}
export type Phase = ClosedPhase | OpenPhase | WsPhase;

export interface ReadyProbe {
  /**
   * http(s)://: ready when it answers 2xx/3xx; tcp://host:port: ready when it accepts a connection;
   * grpc(s)://host:port[/service]: ready when the gRPC health protocol answers SERVING
   */
  url: string;
  timeoutMs: number;
}

/** A tcp://host:port probe URL (host a name or a bracketed IPv6 address; no path, no user). */
export const TCP_PROBE_URL = /^tcp:\/\/(?:\[([0-9A-Fa-f:.]+)\]|([^\s/:@[\]]+)):(\d+)\/?$/;

/**
 * A gRPC health probe URL: grpc://host:port or grpcs://host:port, with the service to ask about as
 * its path (none: the server as a whole).
 */
export const GRPC_PROBE_URL = /^(grpcs?):\/\/(?:\[([0-9A-Fa-f:.]+)\]|([^\s/:@[\]]+)):(\d+)(?:\/([A-Za-z0-9_.]*))?$/;

/** What a grpc(s):// probe asks (grpc.health.v1.Health/Check), or undefined for any other URL. */
export function grpcProbeAddress(
  url: string,
): { host: string; port: number; tls: boolean; service: string } | undefined {
  const m = GRPC_PROBE_URL.exec(url);
  return m
    ? { host: (m[2] ?? m[3]) as string, port: Number(m[4]), tls: m[1] === 'grpcs', service: m[5] ?? '' }
    : undefined;
}

/** What a ready probe waits for, in words: "did not <this> within 60s". */
export function probeExpectation(url: string): string {
  if (tcpProbeAddress(url)) return 'accept a connection';
  if (grpcProbeAddress(url)) return 'answer SERVING to the gRPC health check';
  return 'answer 2xx/3xx';
}

/** The host and port of a tcp://host:port probe, or undefined for any other URL (an HTTP one). */
export function tcpProbeAddress(url: string): { host: string; port: number } | undefined {
  const m = TCP_PROBE_URL.exec(url);
  return m ? { host: (m[1] ?? m[2]) as string, port: Number(m[3]) } : undefined;
}

/**
 * An open-loop phase's connections and its bound on requests in flight (one request per connection;
 * over HTTP/2, `streams` per connection). Connections open on demand, a few at a time (no connect
 * storm), up to `connections`, which defaults to what `max-in-flight` needs.
 */
export function openLoopLimits(phase: {
  maxInFlight: number;
  connections?: number | undefined;
  streams?: number | undefined;
}): {
  connections: number;
  inFlight: number;
} {
  const streams = phase.streams ?? 1;
  const connections = phase.connections ?? Math.ceil(phase.maxInFlight / streams);
  return { connections, inFlight: Math.min(phase.maxInFlight, connections * streams) };
}

/**
 * An open-loop send this far behind its scheduled time, for the service's or the generator's part
 * of the delay, is counted `late` for that cause (runner/src/schedule.ts has the attribution rule).
 */
export const OPEN_LATE_MS = 5;

export interface PlanRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** bodies rotated request by request */
  bodies?: string[];
  /** what a response must be to count as a success (default: a 2xx/3xx status) */
  expect?: PlanExpect;
  /** this request's timeout, ms (the scenario's request-timeout when absent) */
  timeoutMs?: number;
}

/**
 * The requests of a scenario's load (its mix's entries, or its one request) and each one's timeout:
 * its own, or `defaultMs` (the scenario's request-timeout). The runner times requests out by these
 * and lets the requests in flight at a window's end take the longest; the host's trial deadline too.
 */
export function loadRequests(
  load: { request: PlanRequest; mix?: PlanMixEntry[] | undefined },
  defaultMs: number,
): Array<{ request: PlanRequest; timeoutMs: number }> {
  const requests = load.mix && load.mix.length > 0 ? load.mix.map((e) => e.request) : [load.request];
  return requests.map((request) => ({ request, timeoutMs: request.timeoutMs ?? defaultMs }));
}

/** One entry of a request mix: every entry shares the first one's origin (one connection pool). */
export interface PlanMixEntry {
  name: string;
  /** share of the phase's requests (weights are relative; 0 sends none) */
  weight: number;
  request: PlanRequest;
}

/** A WebSocket phase's outcomes beside the ack (the phase's own): results of their own, `phase.push` and `phase.connect`. */
export const WS_ENTRIES = ['push', 'connect'] as const;

/**
 * Who should get a WebSocket message besides its sender: `one` other peer (the first to get it is
 * its push), `all` other peers (a broadcast: each delivery counts), or `none` (an echo server:
 * only the ack is awaited).
 */
export type WsPush = 'one' | 'all' | 'none';

/** The entries a WebSocket scenario's phases have: no push without pushes. */
export function wsEntries(push: WsPush | undefined): ReadonlyArray<(typeof WS_ENTRIES)[number]> {
  return push === 'none' ? ['connect'] : WS_ENTRIES;
}

/** What the peers of a WebSocket scenario send (templates: see runner/src/ws-template.ts). */
export interface PlanWebSocket {
  /** ws:// or wss://; may hold {{peer}} */
  url: string;
  headers: Record<string, string>;
  /** sent once by each peer right after it connects (not measured) */
  hello: string[];
  /** a peer is connected once a message answers its hello (a server that registers peers asynchronously) */
  helloReply?: boolean;
  /** the measured message: {{id}} (required), {{peer}}, {{other}}, {{n}} */
  message: string;
  /** how long after its last send a peer's acks and pushes may still arrive, ms */
  drainMs: number;
  /** who else gets each message (absent: one other peer) */
  push?: WsPush;
  /** a script hook: an ES module's source, run in the engine (runner/src/hook.ts) */
  hook?: { file: string; source: string };
}

/** What the calls of a gRPC scenario are: one unary method, its messages rotated. */
export interface PlanGrpc {
  /** grpc://host:port or grpcs://host:port */
  url: string;
  /** full service name, package included */
  service: string;
  method: string;
  /** the method's HTTP/2 path, /package.Service/Method */
  path: string;
  /** request messages serialised by the host (protobuf, base64), rotated call by call: the runner reads no proto */
  messages: string[];
  metadata: Record<string, string>;
  channels: number;
  deadlineMs: number;
}

/** An HTTP scenario's load: its one request, or a request mix (driven by weight). */
export interface PlanHttp {
  kind: 'http';
  /** 2: HTTP/2 (h2 over TLS with ALPN for https://, h2c with prior knowledge for http://); absent: HTTP/1.1 */
  http?: 2;
  /** the one request; with a mix, the mix's first entry (its origin is every entry's) */
  request: PlanRequest;
  /** a request mix, driven by weight; results per entry as well as for the whole phase */
  mix?: PlanMixEntry[];
  /** rows for `{{ data.COLUMN }}` slots (./template.ts), one a request (a flow: one an iteration) */
  data?: PlanData;
  /** the mix's entries are a flow's steps, sent in order on one connection (runner/src/flow.ts) */
  flow?: PlanFlow;
  /** a script hook: an ES module's source, run in the engine threads (runner/src/hook.ts) */
  hook?: { file: string; source: string };
}

/** A flow: what each step (a `mix` entry, in order) extracts for the steps after it. */
export interface PlanFlow {
  extract: Array<Array<{ name: string; rule: ExtractRule }>>;
}

/** The entry a flow's iterations are counted under, after its steps. */
export const ITERATION_ENTRY = 'iteration';

/** A data file's rows as the runner gets them: each engine instance takes its own (./template.ts). */
export interface PlanData {
  columns: string[];
  rows: string[][];
  order: 'sequential' | 'random';
}

/** A WebSocket scenario: its phases are `ws` phases. */
export interface PlanWs {
  kind: 'ws';
  websocket: PlanWebSocket;
}

/** A gRPC scenario: its closed and open phases make unary calls instead of HTTP requests. */
export interface PlanGrpcTarget {
  kind: 'grpc';
  grpc: PlanGrpc;
}

/**
 * What a scenario loads, one protocol per kind. A new kind is added here, to PROTOCOL_KINDS
 * (./protocols.ts), and wherever the compiler then finds a switch over `kind` without it.
 */
export type PlanTarget = PlanHttp | PlanWs | PlanGrpcTarget;

export interface PlanScenario {
  name: string;
  /** what the scenario loads: HTTP requests, WebSocket peers or gRPC calls */
  target: PlanTarget;
  warmupMs: number;
  trials: number;
  /** this scenario's request timeout, ms (the plan's when absent) */
  requestTimeoutMs?: number;
  phases: Phase[];
}

export interface RunnerPlan {
  version: 1;
  progressIntervalMs: number;
  /** per-request timeout, ms, of scenarios that give none */
  requestTimeoutMs: number;
  /** engine instances (runner.workers); more than one run in worker threads */
  workers?: number;
  ready: ReadyProbe[];
  /** requests sent once, after the ready probes and before any load, whose extracted values fill the
   * `${name}` placeholders the host left in the scenarios (./setup.ts) */
  setup?: PlanSetupStep[];
  scenarios: PlanScenario[];
  /** one trial run by several runner replicas at once (runner.replicas); absent: the host sends commands */
  replicas?: ReplicaRun;
  /** `perf-gate init --probe`: ask each address what it speaks (one `survey` event each) before `ready` */
  survey?: SurveyAddress[];
}

/** An address `init --probe` asks: a compose service's container port. */
export interface SurveyAddress {
  host: string;
  port: number;
}

/** What one address answered (runner/src/survey.ts). Only status codes, kinds and paths travel: never
 * bodies or banners (the SUT's text). */
export interface SurveyFinding {
  host: string;
  port: number;
  /** http: an HTTP/1.x status line; grpc: a grpc-status over h2c; tcp: a connection and nothing either
   * understood (banner: the server spoke first); closed: no connection */
  kind: 'http' | 'grpc' | 'tcp' | 'closed';
  /** http: the status of GET / */
  status?: number;
  /** http: GET / was refused with the service's name as Host and answered with `localhost` (a dev server
   * or an allowed-hosts list): the Host header its requests need */
  hostHeader?: string;
  /** http: the usual health paths that answered, with their status */
  paths?: Array<{ path: string; status: number }>;
  /** http: an OpenAPI document found at `openapi`, and its GET operations that can be called as they are
   * (no parameters, or every required one with an example), as request paths */
  openapi?: string;
  gets?: string[];
  /** grpc: the health service's answer for the server ("SERVING", "NOT_SERVING", "UNIMPLEMENTED": none) */
  health?: string;
  banner?: boolean;
  /** closed: why no connection was made */
  error?: string;
}

/** A trial the host names: scenario, phase, and which trial of how many. */
export type TrialOrder = Omit<Extract<RunnerCommand, { c: 'trial' }>, 'c'>;

/**
 * One trial run by `count` runner replicas, each on its share of the load (src/runner-kit/replicas.ts).
 * A replica reads no commands: it waits for the ready probes, runs `trial` from `startAtEpochMs`,
 * reports it and exits.
 */
export interface ReplicaRun {
  count: number;
  trial: TrialOrder;
  /** when the trial's first stage starts, ms since the epoch, on every replica's own clock */
  startAtEpochMs: number;
}

/**
 * What the host tells a long-lived runner on its stdin, one JSON object per line. After `ready` the
 * runner runs one trial per `trial` command, in order, one at a time (a plan scenario's `trials` is
 * the host's to count); `end` (or EOF) closes it with `done`.
 */
export type RunnerCommand =
  | {
      c: 'trial';
      scenario: string;
      phase: string;
      trial: number;
      trials: number;
      /** this trial's warm-up, ms, when the host shortened it (`warmup-later: settled`); else the scenario's */
      warmupMs?: number;
      /** sut.profile: a profiling trial, the services' profiles taken over its measured window (each a
       * `profile` event before its `trial` event, which says `profiled`: not one of the phase's trials) */
      profile?: ProfileRequest[];
    }
  | { c: 'end' };

/** One command as the line the runner reads (a command is one JSON object on one line). */
export function commandLine(command: RunnerCommand): string {
  return `${JSON.stringify(command)}\n`;
}

/** Lines the runner writes to stdout start with this marker; anything else is passed through as log. */
export const EVENT_MARKER = '@@perf-gate ';

export type Stage = 'warmup' | 'measure';

/** A warm-up's throughput over time: responses per second in consecutive windows of `windowMs`. */
export interface WarmupWindows {
  windowMs: number;
  rps: number[];
}

/** The most windows a warm-up is cut into: longer warm-ups get longer windows. */
export const MAX_WARMUP_WINDOWS = 100;

/** The window a warm-up of `warmupMs` is sampled in: 200 ms with one engine, 400 ms with worker threads
 * (whose counts arrive every 200 ms: a window must span two), or longer so that there are at most
 * MAX_WARMUP_WINDOWS. */
export function warmupWindowMs(warmupMs: number, workers = 1): number {
  return Math.max(workers > 1 ? 400 : 200, Math.ceil(warmupMs / MAX_WARMUP_WINDOWS / 100) * 100);
}

/** One mix entry's share of a trial: its own counts and success-latency histogram. */
export interface RequestTrial {
  name: string;
  measurement: TrialMeasurement;
  histogram: string;
}

export type RunnerEvent =
  | {
      t: 'hello';
      node: string;
      /** a runner replica: its index (0-based), and where it runs */
      replica?: number;
      host?: string;
    }
  | { t: 'probe'; url: string; ok: boolean; status?: number; error?: string; elapsedMs: number }
  | { t: 'ready' }
  | { t: 'not-ready'; url: string; error: string; timeoutMs: number }
  /** the setup steps done (their status and time), and the names of the values they extracted: never the values */
  | { t: 'setup'; steps: Array<{ name: string; status: number; elapsedMs: number }>; values: string[] }
  /** a setup step failed: what it got, in words (its status, the start of its body) */
  | { t: 'setup-failed'; step: string; message: string }
  | {
      t: 'stage';
      scenario: string;
      phase: string;
      trial: number;
      trials: number;
      stage: Stage;
      totalMs?: number;
      totalRequests?: number;
      /** a runner replica: when this stage started, ms since the epoch by the replica's clock */
      atEpochMs?: number;
    }
  | {
      t: 'progress';
      scenario: string;
      phase: string;
      trial: number;
      stage: Stage;
      elapsedMs: number;
      responses: number;
      rps: number;
    }
  | {
      t: 'trial';
      scenario: string;
      phase: string;
      measurement: TrialMeasurement;
      histogram: string;
      /** a mix's entries, each measured on its own over the same window (the phase's counts include them) */
      requests?: RequestTrial[];
      /** the warm-up's responses per second in consecutive windows of `windowMs` (a last partial window
       * left out): how soon the phase settled (session/settle.ts) */
      warmup?: WarmupWindows;
      /** a profiling trial's: measured under a profiler, so never one of the phase's trials */
      profiled?: true;
    }
  /** one service's profile over a profiling trial's measured window: its bytes (base64, at most
   * PROFILE_MAX_BYTES), or why there are none */
  | { t: 'profile'; scenario: string; phase: string; service: string; data?: string; error?: string }
  | { t: 'warning'; message: string }
  | { t: 'survey'; finding: SurveyFinding }
  | { t: 'done' }
  | { t: 'fatal'; message: string };

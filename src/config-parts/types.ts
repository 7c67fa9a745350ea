// The validated, normalised configuration the rest of perf-gate works with. Units are resolved:
// durations in ms, latencies in µs, percentages as fractions, sizes in bytes; paths are absolute.
import type { PlanExpect } from '../runner-kit/expect.js';
import type { MetricName } from '../metrics/registry.js';
import type { ExtractRule } from '../runner-kit/setup.js';
import type { ProfileRequest } from '../runner-kit/profile.js';

/** sut.profile: one service's CPU profile, from its pprof endpoint (the runner fetches it: a
 * ProfileRequest) or from Linux perf in a helper container of `image` that joins the service's PID
 * namespace (the host starts it). */
export type SutProfile = ProfileRequest | { service: string; perf: { image: string } };

export interface Threshold {
  /** relative change as a fraction (0.1 = 10%) */
  regress?: number;
  /** absolute change, in the metric's unit */
  floor?: number;
  /** absolute upper limit, in the metric's unit (`below` and `max` are the same check) */
  limit?: number;
  /** absolute lower limit, for metrics that get worse downwards (rps, bytes-per-sec, delivery) */
  min?: number;
  alpha?: number;
  /** gate.bands: inform: the relative band (regress, floor) is information, never a verdict */
  inform?: boolean;
}
import type { Phase, ReadyProbe, WsPush } from '../runner-kit/plan.js';

export type Thresholds = Partial<Record<MetricName, Threshold>>;

export interface RequestSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** absolute path of a JSONL file, one body per line */
  bodiesFile?: string;
  /** what a response must be to count as a success (default: a 2xx/3xx status) */
  expect?: PlanExpect;
  /** this request's timeout, ms (default: the scenario's request-timeout) */
  timeoutMs?: number;
}

/** One entry of a request mix. */
export interface MixRequest {
  name: string;
  /** relative share of the phase's requests */
  weight: number;
  request: RequestSpec;
  /** gates on this entry alone: only the metrics given here are checked for it */
  thresholds: Thresholds;
}

/** A WebSocket scenario's peers: what they send, and how long replies may take to drain. */
export interface WsSpec {
  url: string;
  headers: Record<string, string>;
  hello: string[];
  /** a peer is connected once a message answers its hello */
  helloReply: boolean;
  message: string;
  drainMs: number;
  /** gates on the `push` and `connect` results (only the metrics given) */
  thresholds: { push: Thresholds; connect: Thresholds };
  /** who else gets each message: one other peer (absent), all of them, or none (an echo server) */
  push?: WsPush;
  /** a script hook: the module's absolute path, and its source once read (src/protocols/hook-source.ts) */
  hook?: { file: string; source?: string };
}

/** A gRPC scenario: unary calls of one method, in closed or open loop like HTTP requests. */
export interface GrpcSpec {
  /** grpc://host:port or grpcs://host:port */
  url: string;
  /** the URL as the config wrote it (a trailing slash kept): the scenario hash and messages name it */
  urlAsWritten: string;
  /** the proto path as written (for messages), and resolved */
  proto: string;
  protoFile: string;
  /** full service name, package included (vectordb.VectorDB) */
  service: string;
  method: string;
  /** the request message (JSON form), or one per line of `bodiesFile`, rotated */
  message?: Record<string, unknown>;
  bodiesFile?: string;
  metadata: Record<string, string>;
  /** channels (HTTP/2 connections) the calls are spread over */
  channels: number;
  /** per-call deadline, ms */
  deadlineMs: number;
  /** the parsed proto (protobufjs JSON), filled in when the config is loaded from disk */
  descriptor?: Record<string, unknown>;
}

export interface Sweep {
  kind: 'closed' | 'open';
  levels: number[];
  durationMs: number;
  warmupMs: number;
}

/** An HTTP scenario: one request, or a request mix. */
/** A scenario's data file: its rows feed `{{ data.COLUMN }}` in its requests, one row a request. */
export interface HttpData {
  /** absolute path */
  file: string;
  order: 'sequential' | 'random';
  /** read once the config is read (src/protocols/http/resolve.ts) */
  columns?: string[];
  rows?: string[][];
}

export interface HttpTarget {
  kind: 'http';
  /** rows for `{{ data.COLUMN }}` */
  data?: HttpData;
  /** a script hook: the module's absolute path, and its source once read (src/protocols/http/resolve.ts) */
  hook?: { file: string; source?: string };
  /** `mix` is a flow's steps, sent in order on one connection; what each extracts, and the gates of
   * its iterations' own results (empty: reported only) */
  flow?: { extract: Array<Array<{ name: string; rule: ExtractRule }>>; thresholds?: Thresholds };
  /** 2: HTTP/2 (h2 over TLS by ALPN, h2c with prior knowledge); absent: HTTP/1.1 */
  http?: 2;
  /** the one request; with a mix, the mix's first entry's (every entry shares its origin) */
  request: RequestSpec;
  /** a request mix, instead of one request */
  mix?: MixRequest[];
}

/** A WebSocket scenario: its phases are `ws` phases. */
export interface WsTarget {
  kind: 'ws';
  websocket: WsSpec;
}

/** A gRPC scenario: unary calls in its closed and open phases. */
export interface GrpcTarget {
  kind: 'grpc';
  grpc: GrpcSpec;
}

/**
 * What a scenario loads, one protocol per kind (the kinds of src/runner-kit/protocols.ts). Each kind's
 * normalising, planning and results live in its folder, src/protocols/<kind>/.
 */
export type ScenarioTarget = HttpTarget | WsTarget | GrpcTarget;

export interface Scenario {
  name: string;
  /** what it loads: HTTP requests, WebSocket peers or gRPC calls */
  target: ScenarioTarget;
  phases: Phase[];
  warmupMs: number;
  /** warmup-later: settled (the default): a closed-loop phase's later trials warm up for what its
   * first trial showed it needs (stats/settle.ts); absent (`warmup-later: full`): every trial for
   * `warmupMs` */
  warmupLater?: 'settled';
  /** accept-failing: update records baselines even where a step, entry or phase failed on nearly every
   * request (absent: such an update is refused, exit 3) */
  acceptFailing?: true;
  trials: number;
  /** a request (call, message) unanswered this long fails with error `timeout` (request-timeout) */
  requestTimeoutMs: number;
  thresholds: Thresholds;
  sweep?: Sweep;
  /** set by the run's plan from gate.run-alpha: the budget its rows share (compare/family.ts) */
  family?: Family;
  /** set by the run from the reach check: the confirmation cap of its phases (trials; pairs in A/B)
   * where it grew beyond gate.confirm.max-trials so that every row can reach its share */
  confirmCap?: number;
}

export interface Config {
  /** absolute path of the config file */
  file: string;
  /** directory paths in the config are relative to */
  dir: string;
  /** the compose SUT perf-gate boots; with `target`, empty (no compose files, nothing booted) */
  sut: {
    composeFiles: string[];
    services: string[];
    build: boolean;
    env: Record<string, string>;
    ready: ReadyProbe[];
    /** compose: `docker compose up` on the engine; swarm: deployed as a stack on the swarm it manages */
    orchestrator: 'compose' | 'swarm';
    /** sut.profile: each service profiled in one more trial per phase and side */
    profile: SutProfile[];
  };
  /** a service that is already running: nothing is booted, the runner joins `network` ('host' or a Docker network) */
  target?: { url: string; network: string };
  runner: {
    image: string;
    cpus?: number;
    workers: number;
    /** runner containers sharing the load, as one replicated job on a swarm (1: one runner) */
    replicas: number;
    /** where the replicas run: swarm placement constraints, and at most this many on a node */
    placement?: { constraints: string[]; maxPerNode?: number };
    /** on a swarm: how far ahead of a trial's creation its common start lies, ms */
    startLeadMs: number;
  };
  /** requests sent once per side before any load, their values used as `${name}` (./setup.ts) */
  setup?: SetupStep[];
  /** what `mode: auto` gates a pull request against */
  gate: {
    against: 'baselines' | 'base-ref';
    /** judge: relative bands fail the gate; inform: they are shown as information, never failing */
    bands: 'judge' | 'inform';
    /** confirmation by more trials: the cap on a phase's trials (pairs in A/B; 0 = off), and its time;
     * `grows` (max-trials not given): a scenario whose rows could not reach their share of the run's
     * budget at the cap gets the smallest cap that reaches, up to MAX_GROWN_CAP (compare/reach.ts) */
    confirm: { maxTrials: number; maxTimeMs: number; grows?: true };
    /** a run's false-alarm budget, split over its gated phases (DEFAULT_RUN_ALPHA when not given);
     * undefined (`run-alpha: off`): each row at its own alpha */
    runAlpha?: number;
    /** gate.early-look: a phase whose rows are all clearly inside their bands after this many trials
     * (pairs) stops there (compare/early.ts; DEFAULT_EARLY_LOOK when not given); undefined
     * (`early-look: off`): every phase runs all its trials */
    earlyLook?: number;
    /** gate.busy: a trial with other processes' CPU and steal at `othersPct` (% of one core) or more
     * is busy: repeated, up to `repeats` a run, and its rows cannot regress on a metric that scales;
     * undefined: machine readings are only reported */
    busy?: BusySettings;
  };
  ab: { pairs: number };
  /** history: the thresholds of the level shifts found over the trend history (history/shifts.ts) */
  history: ShiftSettings;
  scenarios: Scenario[];
}

/** `history:` as normalized: which level shifts of the trend history are reported */
export interface ShiftSettings {
  /** the smallest shift reported, relative to the level before it (0.05: 5%) */
  minShift: number;
  /** the most a shift's p may be (its permutation test's), 0.001 to 0.2 */
  alpha: number;
}

/** `history:` when not given: 5% is about a band's worth of creep, and noise between runs on a quiet
 * machine is smaller; p ≤ 0.01 over 199 shuffles (the smallest p is 0.005) */
export const DEFAULT_SHIFTS: ShiftSettings = { minShift: 0.05, alpha: 0.01 };

/** `gate.run-alpha`: the run's false-alarm budget, split evenly over its `members` gated phases */
export interface Family {
  alpha: number;
  members: number;
}

/** gate.busy as normalized */
export interface BusySettings {
  othersPct: number;
  /** a target's run (`target:`): the service runs beside perf-gate but not in a container the run
   * started, so its CPU cannot be told from another process's; only steal is judged (BUSY_STEAL_PCT) */
  stealOnly?: true;
  /** the run's allowance as given, in trials (either side's in A/B); undefined: twice the trials the
   * run plans (both sides' in A/B), at least
   * DEFAULT_BUSY_REPEATS (busyRepeats) */
  repeats?: number;
}

/** gate.busy's threshold when not given: on the test VM a CPU hog on one core read 74.4% or more,
 * quiet runs at most 10.5% (docs/benchmarks.md, section s) */
export const DEFAULT_BUSY_OTHERS_PCT = 50;
/** gate.busy's allowance when `repeats` is not given: twice the trials (both sides' in A/B) the run plans, at
 * least this many. 10 a run was enough at 4 rows and spent in 29 of 49 runs at 16 (docs/benchmarks.md,
 * zb); as many as planned was spent in every run once a hog over part of a window counted (zd) */
export const DEFAULT_BUSY_REPEATS = 10;

export const DEFAULT_RUNNER_IMAGE = 'node:22-slim';
export const DEFAULT_WARMUP_MS = 5000;
/** 5 a side: the smallest Mann–Whitney p is 1/252, so the gate's alpha 0.01 can be reached */
export const DEFAULT_TRIALS = 5;
/** request-timeout when not given: autocannon's 10 s */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_READY_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_IN_FLIGHT = 1000;
/** interleaved base/head pairs of an A/B run (6 pairs: the smallest one-sided p is 1/64) */
export const DEFAULT_AB_PAIRS = 6;
/** `gate.confirm.max-trials` when the config gives none: a 3-trial baseline can be confirmed at
 * alpha 0.01 (12 vs 3 trials: smallest p 1/455), and 6 A/B pairs can double. */
export const DEFAULT_CONFIRM_MAX_TRIALS = 12;
/** gate.run-alpha when not given: at most 1% of runs on unchanged code raise any band alarm */
export const DEFAULT_RUN_ALPHA = 0.01;
/** gate.early-look when not given: a phase of more trials (pairs) whose rows are all clearly inside
 * their bands after 3 stops there (3 of the default 5 trials, 3 of 6 pairs) */
export const DEFAULT_EARLY_LOOK = 3;
/** the most trials (pairs) a scenario's confirmation cap grows to when `gate.confirm.max-trials` is
 * not given: beyond it, a config whose rows cannot reach their share is refused */
export const MAX_GROWN_CAP = 24;
/** `gate.confirm.max-time`: the most wall time the extra trials of one phase may take, ms */
export const DEFAULT_CONFIRM_MAX_TIME_MS = 10 * 60_000;
export const DEFAULT_WS_DRAIN_MS = 5000;

/** What the placeholder story reads of a config: its setup steps and scenarios (all of a valid config's,
 * or those an invalid one could read; `at[k]` is then where `scenarios[k]` stands in the file, so that
 * a problem names the scenario the author wrote, not its place among those read). */
export type Checked = Pick<Config, 'setup' | 'scenarios'> & { at?: readonly number[] };

/** One setup step, normalised: its request as the scenarios' are, its rules in the order written. */
export interface SetupStep {
  name: string;
  request: RequestSpec;
  extract: Array<{ name: string; rule: ExtractRule }>;
}

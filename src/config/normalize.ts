// Pure: turns a schema-valid raw config into the normalised Config, collecting every semantic problem
// (phase shapes, unique names, threshold units) as `path: message` lines.
import { thresholdRules } from './k6-thresholds.js';
import { parseBytes, parseDurationMs, parseLatencyUs, parsePercent } from '../units.js';
import {
  BOUNDS,
  type FixedMetric,
  METRIC_UNITS,
  type MetricName,
  metricUnit,
  RESOURCE_METRICS,
  type RawConfig,
  type RawPhase,
  type RawThreshold,
  type RawThresholdsInput,
} from './schema.js';
import {
  type Config,
  DEFAULT_AB_PAIRS,
  DEFAULT_CONFIRM_MAX_TIME_MS,
  DEFAULT_CONFIRM_MAX_TRIALS,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_RUNNER_IMAGE,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_TRIALS,
  DEFAULT_WARMUP_MS,
  type MixRequest,
  type Phase,
  type RequestSpec,
  type Scenario,
  type Threshold,
  type Thresholds,
  DEFAULT_WS_DRAIN_MS,
  type GrpcSpec,
  type WsSpec,
} from './types.js';
import { compileTemplate, render } from '../protocol/ws-template.js';
import { type JsonCheck, parseJsonPath, type PlanExpect } from '../protocol/expect.js';
import { peakLevel, type Ramp, rampDurationMs } from '../protocol/ramp.js';

/** Resolves a path from the config; returns an absolute path or throws an Error with a message. */
export type PathResolver = (relative: string) => string;

type Unit = (typeof METRIC_UNITS)[FixedMetric];

function parseAbsolute(unit: Unit, value: string | number): number | undefined {
  if (typeof value === 'number') {
    if (value === 0) return 0;
    return unit === 'latency' || unit === 'percent' || unit === 'size' ? undefined : value;
  }
  switch (unit) {
    case 'latency':
      return parseLatencyUs(value);
    case 'percent':
      return parsePercent(value);
    case 'size':
      return parseBytes(value);
    default:
      return /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined;
  }
}

const UNIT_HINT: Record<Unit, string> = {
  latency: 'a latency like 200us, 1ms or 0.5s',
  rate: 'a number (per second)',
  count: 'a number',
  percent: 'a percentage like 0.1%',
  size: 'a size like 64MiB',
};

function normalizeThreshold(metric: MetricName, raw: RawThreshold, path: string, problems: string[]): Threshold {
  const unit = metricUnit(metric);
  const out: Threshold = {};
  if (raw.regress !== undefined) out.regress = parsePercent(raw.regress);
  if (raw.alpha !== undefined) out.alpha = raw.alpha;
  for (const key of ['floor', 'below', 'max', 'min'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    const fraction = parseAbsolute(unit, value);
    // CPU is measured in percent points (100 = one core)
    const parsed = metric === 'cpu' && fraction !== undefined ? fraction * 100 : fraction;
    if (parsed === undefined) {
      problems.push(`${path}.${key}: must be ${UNIT_HINT[unit]}`);
      continue;
    }
    if (key === 'floor') out.floor = parsed;
    else if (key === 'min') out.min = parsed;
    else out.limit = out.limit === undefined ? parsed : Math.min(out.limit, parsed);
  }
  if (metric === 'rps' || metric === 'bytes-per-sec' || metric === 'delivery') {
    if (raw.below !== undefined || raw.max !== undefined) {
      problems.push(
        `${path}: ${metric} gets worse downwards; an upper limit (below/max) makes no sense here (use min)`,
      );
    }
  } else if (raw.min !== undefined) {
    problems.push(`${path}.min: ${metric} gets worse upwards; give an upper limit (below or max) instead`);
  }
  return out;
}

/** Scenario thresholds override the defaults key by key; `below` and `max` are one limit, so a
 * scenario that gives either replaces the default's. Problems in the defaults are reported once,
 * under `defaults.thresholds`, by the caller. */
export function mergeThresholds(
  defaultsInput: RawThresholdsInput | undefined,
  ownInput: RawThresholdsInput | undefined,
  path: string,
  problems: string[],
): Thresholds {
  // k6 expressions read as rules; the defaults' problems are the caller's to report (checkThresholds)
  const defaults = thresholdRules(defaultsInput, 'defaults.thresholds', []);
  const own = thresholdRules(ownInput, path, problems);
  const out: Thresholds = {};
  const metrics = new Set([...Object.keys(defaults ?? {}), ...Object.keys(own ?? {})]) as Set<MetricName>;
  for (const metric of metrics) {
    const base: RawThreshold = { ...(defaults?.[metric] ?? {}) };
    const mine = own?.[metric];
    if (mine?.below !== undefined || mine?.max !== undefined) {
      delete base.below;
      delete base.max;
    }
    if (mine) normalizeThreshold(metric, mine, `${path}.${metric}`, problems);
    out[metric] = normalizeThreshold(metric, { ...base, ...(mine ?? {}) }, `${path}.${metric}`, []);
  }
  return out;
}

export function checkThresholds(input: RawThresholdsInput | undefined, path: string, problems: string[]): void {
  const raw = thresholdRules(input, path, problems);
  for (const [metric, t] of Object.entries(raw ?? {}) as Array<[MetricName, RawThreshold | undefined]>) {
    if (t) normalizeThreshold(metric, t, `${path}.${metric}`, problems);
  }
}

/** Connection-management headers the socket engine owns (it frames every request itself). */
const MANAGED_HEADERS = new Set(['keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length']);

/** RFC 9110 field-name characters (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return "not a valid header name (letters, digits and !#$%&'*+.^_`|~- only)";
  // a line break in a value would start a header (or a request) of the value's making
  if (/[\r\n\0]/.test(value)) return 'a header value cannot hold CR, LF or NUL';
  const lower = name.toLowerCase();
  if (MANAGED_HEADERS.has(lower)) return 'not allowed: perf-gate manages connections and framing itself';
  if (lower === 'connection' && !/^(close|keep-alive)$/i.test(value.trim())) {
    return 'only "close" or "keep-alive" is allowed';
  }
  return undefined;
}

/** The request asks the server to close the connection after its response. */
function asksClose(headers: Record<string, string>): boolean {
  return Object.entries(headers).some(([k, v]) => k.toLowerCase() === 'connection' && /^close$/i.test(v.trim()));
}

/** The name of an open-loop phase without one (also a rate sweep's steps): r500, r2_5. */
export function ratePhaseName(rate: number): string {
  return `r${String(rate).replace('.', '_')}`;
}

/** autocannon's `amount` is `requests` (one of them, not both). */
function withAmount(raw: RawPhase, path: string, problems: string[]): RawPhase {
  if (raw.amount === undefined) return raw;
  if (raw.requests !== undefined) {
    problems.push(`${path}.amount: give requests or amount (autocannon's name for it), not both`);
    return raw;
  }
  const { amount, ...rest } = raw;
  return { ...rest, requests: amount };
}

function normalizeWsPhase(input: RawPhase, path: string, problems: string[]): Phase | undefined {
  const raw = withAmount(input, path, problems);
  for (const key of ['connections', 'duration', 'requests', 'max-in-flight', 'stages', 'pipelining'] as const) {
    if (raw[key] !== undefined) problems.push(`${path}.${key}: not a WebSocket phase key (peers, messages, rate)`);
  }
  if (raw.peers === undefined || raw.messages === undefined) {
    problems.push(`${path}: a WebSocket phase needs peers and messages`);
    return undefined;
  }
  if (raw.peers < 2) problems.push(`${path}.peers: must be at least 2 (messages go to another peer)`);
  const phase: Phase = {
    kind: 'ws',
    name: raw.name ?? `p${raw.peers}-m${raw.messages}`,
    peers: raw.peers,
    messages: raw.messages,
  };
  if (raw.rate !== undefined) phase.rate = raw.rate;
  return phase;
}

/** The most a phase may last, stages added up (as a phase's duration). */
const MAX_PHASE_MS = 24 * 3_600_000;

/**
 * What a phase's `stages` ramp: each stage says `rate` (open loop) or `connections` (closed loop),
 * all the same one; k6's `target` is the phase's rate when the phase gives `rate` or
 * `max-in-flight`, else its connections when it gives `connections`.
 */
function rampKind(raw: RawPhase, stages: NonNullable<RawPhase['stages']>, path: string, problems: string[]) {
  const targetIs =
    raw.rate !== undefined || raw['max-in-flight'] !== undefined
      ? ('rate' as const)
      : raw.connections !== undefined
        ? ('connections' as const)
        : undefined;
  let kind: 'rate' | 'connections' | undefined;
  let ok = true;
  stages.forEach((st, i) => {
    const at = `${path}.stages[${i}]`;
    const given = (['rate', 'connections', 'target'] as const).filter((k) => st[k] !== undefined);
    if (given.length !== 1) {
      ok = false;
      problems.push(
        given.length === 0
          ? `${at}: give the level it ramps to: rate (open loop) or connections (closed loop)`
          : `${at}: give one of ${given.join(', ')}, not several`,
      );
      return;
    }
    const k = given[0] === 'target' ? targetIs : given[0];
    if (k === undefined) {
      ok = false;
      problems.push(
        `${at}.target: k6's target is ambiguous here: write rate (open loop) or connections (closed loop) in each stage, or give the phase a starting rate or connections`,
      );
      return;
    }
    const level = (st.target ?? st.connections) as number;
    if (k === 'connections' && !Number.isInteger(level)) {
      problems.push(`${at}.${given[0]}: connections must be a whole number`);
    } else if (k === 'connections' && level > BOUNDS.connections) {
      // k6's target is bounded like a rate by the schema; as connections it has theirs
      ok = false;
      problems.push(
        `${at}.${given[0]}: must be an integer from 0 to ${BOUNDS.connections.toLocaleString('en-US')} (connections)`,
      );
    }
    if (kind !== undefined && k !== kind) {
      ok = false;
      problems.push(`${at}.${given[0]}: every stage of a phase ramps the same thing (here ${kind}), not ${k}`);
    }
    kind ??= k;
  });
  return ok ? kind : undefined;
}

/** A phase with `stages`: an open loop whose rate ramps, or a closed loop whose connections do. */
function normalizeRampPhase(raw: RawPhase, path: string, problems: string[]): Phase | undefined {
  const stages = raw.stages ?? [];
  if (raw.duration !== undefined) {
    problems.push(`${path}.duration: not with stages (the phase lasts the stages' durations added up)`);
  }
  if (raw.requests !== undefined) problems.push(`${path}.requests: not with stages (a ramp runs for a time)`);
  const kind = rampKind(raw, stages, path, problems);
  if (kind === undefined) return undefined;
  if (kind === 'connections' && raw.rate !== undefined) {
    problems.push(
      `${path}.rate: not with stages that ramp connections (a closed loop has no rate; ramp rate: in each stage for an open loop)`,
    );
  }
  const ramp: Ramp = {
    from: (kind === 'rate' ? raw.rate : raw.connections) ?? 0,
    stages: stages.map((st) => ({
      durationMs: parseDurationMs(st.duration) ?? 0,
      to: st.target ?? (kind === 'rate' ? st.rate : st.connections) ?? 0,
    })),
  };
  const durationMs = rampDurationMs(ramp);
  if (durationMs > MAX_PHASE_MS) problems.push(`${path}.stages: last ${durationMs / 3_600_000} h in all, over 24h`);
  const peak = peakLevel(ramp);
  if (peak <= 0) {
    problems.push(`${path}.stages: the ${kind} never rises above 0, so the phase would send nothing`);
    return undefined;
  }
  if (kind === 'rate') {
    if (raw.pipelining !== undefined) {
      problems.push(
        `${path}.pipelining: closed loop only (an open loop sends on a free connection; raise max-in-flight instead)`,
      );
    }
    const phase: Phase = {
      kind: 'open',
      name: raw.name ?? `ramp-${ratePhaseName(peak)}`,
      rate: peak,
      durationMs,
      maxInFlight: raw['max-in-flight'] ?? DEFAULT_MAX_IN_FLIGHT,
      ramp,
    };
    if (raw.connections !== undefined) phase.connections = raw.connections;
    return phase;
  }
  if (raw['max-in-flight'] !== undefined) {
    problems.push(`${path}.max-in-flight: only allowed in an open-loop (rate) phase`);
  }
  const piped = raw.pipelining !== undefined && raw.pipelining > 1 ? `-p${raw.pipelining}` : '';
  const phase: Phase = {
    kind: 'closed',
    name: raw.name ?? `ramp-c${peak}${piped}`,
    connections: peak,
    durationMs,
    ramp,
  };
  if (raw.pipelining !== undefined && raw.pipelining > 1) phase.pipelining = raw.pipelining;
  return phase;
}

function normalizePhase(input: RawPhase, path: string, problems: string[]): Phase | undefined {
  const raw = withAmount(input, path, problems);
  for (const key of ['peers', 'messages'] as const) {
    if (raw[key] !== undefined) problems.push(`${path}.${key}: only in a WebSocket scenario (websocket:)`);
  }
  if (raw.stages !== undefined) return normalizeRampPhase(raw, path, problems);
  const durationMs = raw.duration !== undefined ? parseDurationMs(raw.duration) : undefined;
  if (durationMs === 0) problems.push(`${path}.duration: must be longer than 0`);
  if (raw.rate !== undefined) {
    if (raw.requests !== undefined) problems.push(`${path}.requests: not allowed in an open-loop (rate) phase`);
    if (raw.pipelining !== undefined) {
      problems.push(
        `${path}.pipelining: closed loop only (an open loop sends on a free connection; raise max-in-flight instead)`,
      );
    }
    if (durationMs === undefined) {
      problems.push(`${path}.duration: required in an open-loop (rate) phase`);
      return undefined;
    }
    const phase: Phase = {
      kind: 'open',
      name: raw.name ?? ratePhaseName(raw.rate),
      rate: raw.rate,
      durationMs,
      maxInFlight: raw['max-in-flight'] ?? DEFAULT_MAX_IN_FLIGHT,
    };
    if (raw.connections !== undefined) phase.connections = raw.connections;
    return phase;
  }
  if (raw['max-in-flight'] !== undefined) {
    problems.push(`${path}.max-in-flight: only allowed in an open-loop (rate) phase`);
  }
  if (raw.connections === undefined) {
    problems.push(`${path}: needs connections (closed loop) or rate (open loop)`);
    return undefined;
  }
  if ((durationMs === undefined) === (raw.requests === undefined)) {
    problems.push(`${path}: a closed-loop phase needs exactly one of duration or requests`);
    return undefined;
  }
  if (raw.requests !== undefined && raw.requests < raw.connections) {
    problems.push(`${path}.requests: must be at least connections (${raw.connections})`);
  }
  const phase: Phase = {
    kind: 'closed',
    name:
      raw.name ??
      (raw.requests !== undefined ? `c${raw.connections}-n${raw.requests}` : `c${raw.connections}`) +
        (raw.pipelining !== undefined && raw.pipelining > 1 ? `-p${raw.pipelining}` : ''),
    connections: raw.connections,
  };
  if (durationMs !== undefined) phase.durationMs = durationMs;
  if (raw.requests !== undefined) phase.requests = raw.requests;
  if (raw.pipelining !== undefined && raw.pipelining > 1) phase.pipelining = raw.pipelining;
  return phase;
}

type RawRequest = NonNullable<RawConfig['scenarios'][number]['request']>;
type RawMixEntry = NonNullable<RawConfig['scenarios'][number]['requests']>[number];

/** A request URL as the runner sends it: a path is under the target's base URL. */
type UrlResolver = (url: string, at: string) => string;

function normalizeRequest(
  raw: RawRequest,
  path: string,
  problems: string[],
  resolveAt: (path: string, relative: string) => string | undefined,
  urlOf: UrlResolver,
): RequestSpec {
  if (raw.body !== undefined && raw.bodies !== undefined) problems.push(`${path}: give body or bodies, not both`);
  const headers: Record<string, string> = { ...(raw.headers ?? {}) };
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerProblem(name, value);
    if (problem) problems.push(`${path}.headers.${name}: ${problem}`);
  }
  let body: string | undefined;
  if (typeof raw.body === 'string') body = raw.body;
  else if (raw.body !== undefined) {
    body = JSON.stringify(raw.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  const request: RequestSpec = {
    url: urlOf(raw.url, `${path}.url`),
    method: raw.method ?? (body !== undefined || raw.bodies !== undefined ? 'POST' : 'GET'),
    headers,
  };
  if (body !== undefined) request.body = body;
  if (raw.bodies !== undefined) {
    const abs = resolveAt(`${path}.bodies`, raw.bodies);
    if (abs) request.bodiesFile = abs;
  }
  if (raw.timeout !== undefined) request.timeoutMs = parseDurationMs(raw.timeout) as number;
  if (raw.expect !== undefined) {
    const checks = normalizeExpect(raw.expect, `${path}.expect`, problems);
    if (request.method === 'HEAD' && (checks.body || checks.json))
      problems.push(`${path}.expect: a HEAD response has no body to check (check status or headers)`);
    const encoding = Object.entries(headers).find(([k]) => k.toLowerCase() === 'accept-encoding')?.[1];
    if ((checks.body || checks.json) && encoding !== undefined && !/^\s*identity\s*$/i.test(encoding))
      problems.push(
        `${path}.expect: body and json checks read the body as sent; a compressed one (accept-encoding: ${encoding}) cannot be checked: drop the header or check status and headers only`,
      );
    if (Object.keys(checks).length > 0) request.expect = checks;
  }
  return request;
}

/** `expect` as the runner checks it: lists for status and body, lower-case header names, parsed JSON paths. */
function normalizeExpect(raw: NonNullable<RawRequest['expect']>, path: string, problems: string[]): PlanExpect {
  const out: PlanExpect = {};
  if (raw.status !== undefined) out.status = Array.isArray(raw.status) ? raw.status : [raw.status];
  if (raw.headers !== undefined && Object.keys(raw.headers).length > 0) {
    out.headers = {};
    for (const [name, text] of Object.entries(raw.headers)) {
      const key = name.trim().toLowerCase();
      if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(key)) problems.push(`${path}.headers.${name}: not a header name`);
      out.headers[key] = text;
    }
  }
  if (raw.body !== undefined) out.body = Array.isArray(raw.body) ? raw.body : [raw.body];
  if (raw.json !== undefined && Object.keys(raw.json).length > 0) {
    out.json = Object.entries(raw.json).map(([p, want]): JsonCheck => {
      if (!parseJsonPath(p))
        problems.push(
          `${path}.json.${p}: not a JSON path (like $.data.items[0].id, data.id or $['a.b']; no wildcards or ..)`,
        );
      if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
        const keys = Object.keys(want);
        const w = want as Record<string, unknown>;
        if (keys.length === 1 && keys[0] === 'exists') {
          if (typeof w.exists !== 'boolean') problems.push(`${path}.json.${p}.exists: must be true or false`);
          return { path: p, exists: w.exists === true };
        }
        if (keys.length === 1 && keys[0] === 'equals') return { path: p, equals: w.equals };
      }
      return { path: p, equals: want };
    });
  }
  return out;
}

/** scheme://host:port of an http(s) URL (the default port made explicit), or the URL when it does not parse */
function originOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return url;
  }
}

function normalizeMix(
  raw: RawMixEntry[],
  path: string,
  problems: string[],
  resolveAt: (path: string, relative: string) => string | undefined,
  urlOf: UrlResolver,
): MixRequest[] | undefined {
  const mix = raw.map((e, i): MixRequest => {
    const { name, weight, thresholds, ...request } = e;
    const at = `${path}[${i}]`;
    return {
      name,
      weight: weight ?? 1,
      request: normalizeRequest(request, at, problems, resolveAt, urlOf),
      thresholds: mergeThresholds(undefined, thresholds, `${at}.thresholds`, problems),
    };
  });
  for (const dup of duplicates(mix.map((e) => e.name))) {
    problems.push(`${path}: request name "${dup}" is used twice (it names the entry's results)`);
  }
  const total = mix.reduce((a, e) => a + e.weight, 0);
  if (!(total > 0)) problems.push(`${path}: the weights must sum to a positive number`);
  const first = mix[0] as MixRequest;
  mix.forEach((e, i) => {
    if (i > 0 && originOf(e.request.url) !== originOf(first.request.url)) {
      problems.push(
        `${path}[${i}].url: must have the origin of requests[0] (${originOf(first.request.url)}): a phase's mix shares one set of connections`,
      );
    }
  });
  return mix;
}

type RawGrpc = NonNullable<RawConfig['scenarios'][number]['grpc']>;

function normalizeGrpc(
  raw: RawGrpc,
  path: string,
  problems: string[],
  resolveAt: (path: string, relative: string) => string | undefined,
  /** the scenario's request-timeout: the deadline when none is given */
  requestTimeoutMs: number,
): GrpcSpec {
  if ((raw.message === undefined) === (raw.bodies === undefined)) {
    problems.push(`${path}: give message or bodies (one request message per line), exactly one`);
  }
  const out: GrpcSpec = {
    url: raw.url.replace(/\/$/, ''),
    proto: raw.proto,
    protoFile: resolveAt(`${path}.proto`, raw.proto) ?? raw.proto,
    service: raw.service,
    method: raw.method,
    metadata: Object.fromEntries(Object.entries(raw.metadata ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    channels: raw.channels ?? 1,
    deadlineMs: raw.deadline !== undefined ? (parseDurationMs(raw.deadline) as number) : requestTimeoutMs,
  };
  for (const [key, value] of Object.entries(out.metadata)) {
    if (!/^[0-9a-z_.-]+$/.test(key) || key.startsWith('grpc-')) {
      problems.push(`${path}.metadata.${key}: not a metadata key gRPC allows (lowercase [0-9a-z_.-], not grpc-*)`);
    } else if (key.endsWith('-bin')) {
      problems.push(`${path}.metadata.${key}: binary (-bin) metadata is not supported; give text values`);
    } else if (!/^[\x20-\x7e]*$/.test(value)) {
      problems.push(`${path}.metadata.${key}: the value must be printable ASCII (no newlines or control characters)`);
    }
  }
  const port = /^grpcs?:\/\/(\[[^\]]+\]|[^:/]+):(\d+)\/?$/.exec(raw.url)?.[2];
  if (port === undefined || Number(port) < 1 || Number(port) > 65535) {
    problems.push(`${path}.url: must name the port, 1 to 65535 (grpc://host:port)`);
  }
  if (raw.message !== undefined) out.message = raw.message;
  if (raw.bodies !== undefined) {
    const abs = resolveAt(`${path}.bodies`, raw.bodies);
    if (abs) out.bodiesFile = abs;
  }
  return out;
}

type RawWebSocket = NonNullable<RawConfig['scenarios'][number]['websocket']>;

/** A template as text: a string as written, an object or array as JSON. */
function templateText(t: RawWebSocket['message']): { text: string; json: boolean } {
  return typeof t === 'string' ? { text: t, json: false } : { text: JSON.stringify(t), json: true };
}

function normalizeWebSocket(raw: RawWebSocket, path: string, problems: string[]): WsSpec {
  const check = (text: string, json: boolean, at: string, needsId: boolean): void => {
    let compiled;
    try {
      compiled = compileTemplate(text);
    } catch (err) {
      problems.push(`${at}: ${(err as Error).message}`);
      return;
    }
    if (needsId && !compiled.uses.has('id')) {
      problems.push(`${at}: must contain {{id}} (acks and pushes are matched by it)`);
    }
    if (json) {
      try {
        JSON.parse(render(compiled, { id: 'pg-0-0-0', peer: 0, other: 1, n: 0 }));
      } catch (err) {
        problems.push(`${at}: not valid JSON once its placeholders are filled in (${(err as Error).message})`);
      }
    }
  };
  try {
    const url = compileTemplate(raw.url);
    const other = [...url.uses].find((u) => u !== 'peer');
    if (other) problems.push(`${path}.url: only {{peer}} can be used in the URL, not {{${other}}}`);
    else if (!URL.canParse(render(url, { id: '', peer: 0, other: 0, n: 0 }))) {
      problems.push(`${path}.url: not a valid URL`);
    }
  } catch (err) {
    problems.push(`${path}.url: ${(err as Error).message}`);
  }
  const headers: Record<string, string> = { ...(raw.headers ?? {}) };
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerProblem(name, value);
    if (problem) problems.push(`${path}.headers.${name}: ${problem}`);
  }
  const message = templateText(raw.message);
  check(message.text, message.json || raw.json === true, `${path}.message`, true);
  const hello = (raw.hello ?? []).map((h, i) => {
    const t = templateText(h);
    check(t.text, t.json || raw.json === true, `${path}.hello[${i}]`, false);
    return t.text;
  });
  if (raw['hello-reply'] && hello.length === 0) problems.push(`${path}.hello-reply: needs hello messages to answer`);
  const drainMs = raw.drain !== undefined ? (parseDurationMs(raw.drain) as number) : DEFAULT_WS_DRAIN_MS;
  return {
    url: raw.url,
    headers,
    hello,
    helloReply: raw['hello-reply'] ?? false,
    message: message.text,
    drainMs,
    thresholds: {
      push: mergeThresholds(undefined, raw.thresholds?.push, `${path}.thresholds.push`, problems),
      connect: mergeThresholds(undefined, raw.thresholds?.connect, `${path}.thresholds.connect`, problems),
    },
  };
}

function duplicates(names: string[]): string[] {
  return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
}

export interface NormalizeResult {
  config?: Config;
  problems: string[];
}

export function normalizeConfig(raw: RawConfig, file: string, dir: string, resolvePath: PathResolver): NormalizeResult {
  const problems: string[] = [];
  const resolveAt = (path: string, relative: string): string | undefined => {
    try {
      return resolvePath(relative);
    } catch (err) {
      problems.push(`${path}: ${(err as Error).message}`);
      return undefined;
    }
  };

  const sut = raw.sut;
  if (sut && raw.target !== undefined)
    problems.push('target: give sut (a compose SUT perf-gate boots) or target (a service already running), not both');
  if (!sut && raw.target === undefined)
    problems.push('sut: is required (the compose SUT to boot), or give target: the URL of a service already running');
  if (raw.target !== undefined && /[?#]/.test(raw.target))
    problems.push('target: a base URL without a query or fragment (request paths are joined to it)');
  if (raw.runner?.network !== undefined && raw.target === undefined)
    problems.push("runner.network: only with target (with sut the runner joins the compose project's networks)");
  if (raw.target !== undefined && raw.gate?.against === 'base-ref')
    problems.push(
      'gate.against: base-ref boots the base commit from compose; a target is one running service: gate against baselines',
    );
  const composeList = sut ? (Array.isArray(sut.compose) ? sut.compose : [sut.compose]) : [];
  const composeFiles = composeList
    .map((p, i) => resolveAt(Array.isArray(sut?.compose) ? `sut.compose[${i}]` : 'sut.compose', p))
    .filter((p): p is string => p !== undefined);
  /** a request URL that is a path is under the target's base URL */
  const resolveUrl = (url: string, at: string): string => {
    if (!url.startsWith('/')) return url;
    if (raw.target === undefined) {
      problems.push(
        `${at}: a path needs target (a running service’s base URL); with sut, give the whole URL (http://service:port${url})`,
      );
      return url;
    }
    return raw.target.replace(/\/+$/, '') + url;
  };

  checkThresholds(raw.defaults?.thresholds, 'defaults.thresholds', problems);
  const defaultWarmup = raw.defaults?.warmup !== undefined ? parseDurationMs(raw.defaults.warmup) : undefined;
  const scenarios: Scenario[] = [];
  raw.scenarios.forEach((s, si) => {
    const path = `scenarios[${si}]`;
    const phases: Phase[] = [];
    s.phases.forEach((p, pi) => {
      const phase = (s.websocket ? normalizeWsPhase : normalizePhase)(p, `${path}.phases[${pi}]`, problems);
      if (s.grpc && phase?.kind === 'closed' && phase.pipelining !== undefined) {
        problems.push(
          `${path}.phases[${pi}].pipelining: HTTP/1.1 only; a gRPC scenario's calls share its channels (raise connections for more calls in flight)`,
        );
      }
      if (s.grpc && phase?.kind === 'closed' && phase.ramp) {
        problems.push(
          `${path}.phases[${pi}].stages: a gRPC scenario cannot ramp its channels yet; ramp the rate instead (stages with rate:)`,
        );
      }
      if (phase) phases.push(phase);
    });
    for (const dup of duplicates(phases.map((p) => p.name))) {
      problems.push(`${path}.phases: phase name "${dup}" is used twice (give each phase a unique name)`);
    }
    let request: Scenario['request'] | undefined;
    let mix: MixRequest[] | undefined;
    let websocket: WsSpec | undefined;
    let grpc: GrpcSpec | undefined;
    // bounded by the schema (1ms to 10m); a gRPC call's deadline defaults to it
    const requestTimeoutMs =
      parseDurationMs(s['request-timeout'] ?? raw.defaults?.['request-timeout'] ?? '') ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const given = [s.request, s.requests, s.websocket, s.grpc].filter((x) => x !== undefined).length;
    if (given !== 1) {
      problems.push(
        `${path}: give exactly one of request (one request), requests (a mix), websocket (WebSocket peers) or grpc (gRPC calls)`,
      );
    } else if (s.grpc) {
      grpc = normalizeGrpc(s.grpc, `${path}.grpc`, problems, resolveAt, requestTimeoutMs);
      request = { url: s.grpc.url, method: 'POST', headers: grpc.metadata };
    } else if (s.websocket) {
      websocket = normalizeWebSocket(s.websocket, `${path}.websocket`, problems);
      request = { url: s.websocket.url, method: 'GET', headers: websocket.headers };
    } else if (s.request) {
      request = normalizeRequest(s.request, `${path}.request`, problems, resolveAt, resolveUrl);
    } else if (s.requests) {
      mix = normalizeMix(s.requests, `${path}.requests`, problems, resolveAt, resolveUrl);
      request = mix?.[0]?.request;
    }
    if (!request) return;
    const pipelined = phases.findIndex((p) => p.kind === 'closed' && p.pipelining !== undefined);
    if (pipelined >= 0 && [request, ...(mix ?? []).map((e) => e.request)].some((r) => asksClose(r.headers))) {
      problems.push(
        `${path}.phases[${pipelined}].pipelining: not with a Connection: close request (the server would drop the requests queued behind the first)`,
      );
    }
    const scenario: Scenario = {
      name: s.name,
      request,
      phases,
      warmupMs: (s.warmup !== undefined ? parseDurationMs(s.warmup) : defaultWarmup) ?? DEFAULT_WARMUP_MS,
      trials: s.trials ?? raw.defaults?.trials ?? DEFAULT_TRIALS,
      requestTimeoutMs,
      thresholds: mergeThresholds(raw.defaults?.thresholds, s.thresholds, `${path}.thresholds`, problems),
    };
    if (scenario.thresholds.delivery && !websocket) {
      const from = s.thresholds?.delivery ? '' : ' (given in defaults.thresholds)';
      problems.push(`${path}.thresholds.delivery: delivery is measured in WebSocket scenarios only${from}`);
    }
    // a target is nobody's container: SUT resources cannot be sampled
    for (const m of raw.target !== undefined ? RESOURCE_METRICS.filter((x) => scenario.thresholds[x]) : []) {
      const from =
        (s.thresholds as Record<string, unknown> | undefined)?.[m] !== undefined
          ? ''
          : ' (given in defaults.thresholds)';
      problems.push(
        `${path}.thresholds.${m}: ${m} is sampled from the compose SUT's containers; a target has none${from}`,
      );
    }
    if (mix) scenario.mix = mix;
    if (websocket) scenario.websocket = websocket;
    if (grpc) scenario.grpc = grpc;
    if (s.sweep) {
      const { connections, rate } = s.sweep;
      if (websocket)
        problems.push(`${path}.sweep: not available for a WebSocket scenario (give phases of several peer counts)`);
      else if ((connections === undefined) === (rate === undefined)) {
        problems.push(`${path}.sweep: give exactly one ladder, connections or rate`);
      } else {
        scenario.sweep = {
          kind: connections ? 'closed' : 'open',
          levels: (connections ?? rate) as number[],
          durationMs: parseDurationMs(s.sweep.duration) as number,
          warmupMs: s.sweep.warmup !== undefined ? (parseDurationMs(s.sweep.warmup) as number) : scenario.warmupMs,
        };
      }
    }
    scenarios.push(scenario);
  });
  for (const dup of duplicates(raw.scenarios.map((s) => s.name))) {
    problems.push(`scenarios: scenario name "${dup}" is used twice (it names the baseline file)`);
  }

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(sut?.env ?? {})) env[k] = String(v);

  // bounded by the schema: 1s to 24h (0 would keep a change from ever being confirmed)
  const maxTime = raw.gate?.confirm?.['max-time'];
  const maxTimeMs = maxTime !== undefined ? (parseDurationMs(maxTime) as number) : DEFAULT_CONFIRM_MAX_TIME_MS;
  if (problems.length > 0) return { problems };
  const runner: Config['runner'] = {
    image: raw.runner?.image ?? DEFAULT_RUNNER_IMAGE,
    workers: raw.runner?.workers ?? 1,
  };
  if (raw.runner?.cpus !== undefined) runner.cpus = raw.runner.cpus;
  return {
    problems,
    config: {
      file,
      dir,
      ...(raw.target !== undefined ? { target: { url: raw.target, network: raw.runner?.network ?? 'host' } } : {}),
      sut: {
        composeFiles,
        services: sut?.services ?? [],
        build: sut?.build ?? false,
        env,
        ready: (sut?.ready ?? []).map((r) => ({
          url: r.url,
          timeoutMs: r.timeout !== undefined ? (parseDurationMs(r.timeout) as number) : DEFAULT_READY_TIMEOUT_MS,
        })),
      },
      runner,
      gate: {
        against: raw.gate?.against ?? 'baselines',
        confirm: {
          maxTrials: raw.gate?.confirm?.['max-trials'] ?? DEFAULT_CONFIRM_MAX_TRIALS,
          maxTimeMs,
        },
      },
      ab: { pairs: raw.ab?.pairs ?? DEFAULT_AB_PAIRS },
      scenarios,
    },
  };
}

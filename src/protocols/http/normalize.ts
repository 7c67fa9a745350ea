// Pure: an HTTP scenario's request (or request mix) as the config writes it read into the normalised
// target: headers checked, bodies resolved, `expect` parsed, each problem a `path: message` line.
import type { z } from 'zod';
import { headerProblem } from '../../config-parts/headers.js';
import { requestAsksClose } from '../../runner-kit/connection-header.js';
import { duplicates, pipelinedPhase, streamsPhase } from '../../config-parts/phases.js';
import type { flowStep, mixEntry, request } from './schema.js';
import { mergeThresholds } from '../../config-parts/thresholds.js';
import type { HttpTarget, MixRequest, RequestSpec } from '../../config-parts/types.js';
import { type JsonCheck, parseJsonPath, type PlanExpect } from '../../runner-kit/expect.js';
import { ITERATION_ENTRY } from '../../runner-kit/plan.js';
import { type ExtractRule, ruleProblem } from '../../runner-kit/setup.js';
import { valuesUsed } from '../../runner-kit/template.js';
import { parseDurationMs } from '../../common/units.js';
import type { NormalizeContext } from '../protocol.js';
import type { RawScenario } from '../schema.js';

type RawRequest = z.infer<typeof request>;
type RawMixEntry = z.infer<typeof mixEntry>;
type RawFlowStep = z.infer<typeof flowStep>;

/** A request URL as the runner sends it: a path is under the target's base URL. */
type UrlResolver = NormalizeContext['resolveUrl'];

export function normalizeRequest(
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
    method:
      (raw.method?.toUpperCase() as Uppercase<NonNullable<typeof raw.method>> | undefined) ??
      (body !== undefined || raw.bodies !== undefined ? 'POST' : 'GET'),
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
        `${path}[${i}].url: must have the origin of ${path.split('.').pop()}[0] (${originOf(first.request.url)}): a phase's ${path.endsWith('.flow') ? 'flow' : 'mix'} shares one set of connections`,
      );
    }
  });
  return mix;
}

/**
 * A flow's steps as mix entries (sent in order, so weight 1 each) and what each extracts: names used
 * once, the iteration's own name kept for it, and no step using a value before a step extracted it.
 */
function normalizeFlow(
  raw: RawFlowStep[],
  path: string,
  ctx: NormalizeContext,
): { mix: MixRequest[]; flow: NonNullable<HttpTarget['flow']> } | undefined {
  const { problems } = ctx;
  raw.forEach((s, i) => {
    if (s.bodies !== undefined)
      problems.push(`${path}[${i}].bodies: a flow's step sends one body (give body; {{data.COLUMN}} varies it)`);
  });
  const steps = raw.map(({ extract: _extract, ...step }) => ({ ...step, weight: 1 }));
  const mix = normalizeMix(steps, path, problems, ctx.resolveAt, ctx.resolveUrl);
  if (!mix) return undefined;
  const extractedAt = new Map<string, number>();
  const extract = raw.map((s, i) =>
    Object.entries(s.extract ?? {}).map(([value, r]) => {
      const rule: ExtractRule = 'regex' in r ? { regex: r.regex, group: r.group ?? 1 } : r;
      const problem = ruleProblem(rule);
      if (problem) problems.push(`${path}[${i}].extract.${value}: ${problem}`);
      const first = extractedAt.get(value);
      if (first !== undefined)
        problems.push(`${path}[${i}].extract.${value}: ${value} is extracted by ${path}[${first}] too`);
      else extractedAt.set(value, i);
      return { name: value, rule };
    }),
  );
  const all = new Set(extractedAt.keys());
  mix.forEach((e, i) => {
    if (e.name === ITERATION_ENTRY)
      problems.push(
        `${path}[${i}].name: "${ITERATION_ENTRY}" names the flow's iteration results; call the step something else`,
      );
    for (const used of new Set(requestTexts(e.request).flatMap((t) => valuesUsed(t, all)))) {
      const at = extractedAt.get(used) as number;
      if (at >= i)
        problems.push(
          `${path}[${i}]: uses {{${used}}}, which ${at === i ? 'this step' : `a later step (${path}[${at}])`} extracts; a step sees only the values of the steps before it`,
        );
    }
  });
  ctx.phases.forEach((p, j) => {
    const where = `${path.replace(/\.flow$/, '')}.phases[${j}]`;
    if (p.kind === 'ws') return;
    if ((p.kind === 'closed' && (p.pipelining ?? 1) > 1) || (p.streams ?? 1) > 1)
      problems.push(`${where}: a flow's steps wait on one another: no pipelining or streams`);
  });
  return { mix, flow: { extract } };
}

/** A request's texts that may hold slots: its url, header values, body, and its checks' texts. */
export function requestTexts(r: RequestSpec): string[] {
  const json = (r.expect?.json ?? []).flatMap((c) => (typeof c.equals === 'string' ? [c.equals] : []));
  return [
    r.url,
    ...Object.values(r.headers),
    ...(r.body !== undefined ? [r.body] : []),
    ...(r.expect?.body ?? []),
    ...json,
  ];
}

/** The scenario's `request` (one request), `requests` (a mix) or `flow`; undefined when there is none. */
export function normalizeHttp(raw: RawScenario, path: string, ctx: NormalizeContext): HttpTarget | undefined {
  const { problems, resolveAt, resolveUrl } = ctx;
  let request: RequestSpec | undefined;
  let mix: MixRequest[] | undefined;
  let flow: HttpTarget['flow'];
  if (raw.request) {
    request = normalizeRequest(raw.request, `${path}.request`, problems, resolveAt, resolveUrl);
  } else if (raw.requests) {
    mix = normalizeMix(raw.requests, `${path}.requests`, problems, resolveAt, resolveUrl);
    request = mix?.[0]?.request;
  } else if (raw.flow) {
    const read = normalizeFlow(raw.flow, `${path}.flow`, ctx);
    mix = read?.mix;
    flow = read?.flow;
    request = mix?.[0]?.request;
  }
  if (!request) return undefined;
  const http2 = httpVersion(raw, path, problems) === 2;
  const pipelined = pipelinedPhase(ctx.phases);
  if (pipelined >= 0 && http2) {
    problems.push(
      `${path}.phases[${pipelined}].pipelining: HTTP/1.1 only; over HTTP/2 (request.http: 2) give streams: requests each connection keeps in flight`,
    );
  } else if (
    pipelined >= 0 &&
    [request, ...(mix ?? []).map((e) => e.request)].some((r) => requestAsksClose(r.headers))
  ) {
    problems.push(
      `${path}.phases[${pipelined}].pipelining: not with a Connection: close request (the server would drop the requests queued behind the first)`,
    );
  }
  const streams = streamsPhase(ctx.phases);
  if (streams >= 0 && !http2) {
    problems.push(
      `${path}.phases[${streams}].streams: HTTP/2 only: give the request http: 2 (over HTTP/1.1, pipelining keeps several requests in flight)`,
    );
  }
  const target: HttpTarget = mix ? { kind: 'http', request, mix } : { kind: 'http', request };
  if (flow) {
    const thresholds = raw.iteration?.thresholds;
    target.flow = thresholds
      ? { ...flow, thresholds: mergeThresholds(undefined, thresholds, `${path}.iteration.thresholds`, problems) }
      : flow;
  } else if (raw.iteration) problems.push(`${path}.iteration: only with flow (a flow's iterations)`);
  if (http2) target.http = 2;
  if (flow && http2) problems.push(`${path}.flow: HTTP/1.1 only for now (a flow over HTTP/2 is not built yet)`);
  if (raw.hook !== undefined) {
    if (mix) problems.push(`${path}.hook: one request only for now (not a mix or a flow)`);
    else if (http2) problems.push(`${path}.hook: HTTP/1.1 only for now`);
    const file = resolveAt(`${path}.hook`, raw.hook);
    if (file) target.hook = { file };
  }
  if (raw.data) {
    const file = resolveAt(`${path}.data.file`, raw.data.file);
    if (file) target.data = { file, order: raw.data.order ?? 'sequential' };
  }
  return target;
}

/**
 * The scenario's HTTP version: its request's `http`, or its mix's (one for every entry: they share
 * one set of connections). 1.1 when none says.
 */
function httpVersion(raw: RawScenario, path: string, problems: string[]): 1.1 | 2 {
  const key = raw.requests ? 'requests' : 'flow';
  const given = raw.request
    ? [{ at: `${path}.request.http`, http: raw.request.http }]
    : (raw.requests ?? raw.flow ?? []).map((e, i) => ({ at: `${path}.${key}[${i}].http`, http: e.http }));
  const versions = given.map((g) => ({ at: g.at, v: g.http === undefined ? undefined : Number(g.http) }));
  const first = versions.find((g) => g.v !== undefined);
  for (const g of versions) {
    if (g.v !== undefined && first && g.v !== first.v)
      problems.push(
        `${g.at}: every entry of a mix uses one HTTP version (they share one set of connections); ${first.at} says ${first.v}`,
      );
  }
  return first?.v === 2 ? 2 : 1.1;
}

// Pure: an HTTP scenario's request (or request mix) as the config writes it read into the normalised
// target: headers checked, bodies resolved, `expect` parsed, each problem a `path: message` line.
import { headerProblem } from '../../config/headers.js';
import { requestAsksClose } from '../../runner-kit/connection-header.js';
import { duplicates, pipelinedPhase, streamsPhase } from '../../config/phases.js';
import type { RawConfig } from '../../config/schema.js';
import { mergeThresholds } from '../../config/thresholds.js';
import type { HttpTarget, MixRequest, RequestSpec } from '../../config/types.js';
import { type JsonCheck, parseJsonPath, type PlanExpect } from '../../runner-kit/expect.js';
import { parseDurationMs } from '../../config/units.js';
import type { NormalizeContext, RawScenario } from '../protocol.js';

type RawRequest = NonNullable<RawConfig['scenarios'][number]['request']>;
type RawMixEntry = NonNullable<RawConfig['scenarios'][number]['requests']>[number];

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
        `${path}[${i}].url: must have the origin of requests[0] (${originOf(first.request.url)}): a phase's mix shares one set of connections`,
      );
    }
  });
  return mix;
}

/** The scenario's `request` (one request) or `requests` (a mix); undefined when there is none. */
export function normalizeHttp(raw: RawScenario, path: string, ctx: NormalizeContext): HttpTarget | undefined {
  const { problems, resolveAt, resolveUrl } = ctx;
  let request: RequestSpec | undefined;
  let mix: MixRequest[] | undefined;
  if (raw.request) {
    request = normalizeRequest(raw.request, `${path}.request`, problems, resolveAt, resolveUrl);
  } else if (raw.requests) {
    mix = normalizeMix(raw.requests, `${path}.requests`, problems, resolveAt, resolveUrl);
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
  if (http2) target.http = 2;
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
  const given = raw.request
    ? [{ at: `${path}.request.http`, http: raw.request.http }]
    : (raw.requests ?? []).map((e, i) => ({ at: `${path}.requests[${i}].http`, http: e.http }));
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

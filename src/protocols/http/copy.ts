// HTTP targets beyond the plan: their part of the scenario hash, the runner's copy with `${NAME}`
// filled in, and the longest a request may take.
import type { HttpTarget } from '../../config/types.js';
import { loadRequests, type PlanHttp, type PlanMixEntry, type PlanRequest } from '../../runner-kit/plan.js';
import { type Fill, fillRecord, hashedRequest } from '../shared.js';

export function hashHttp(
  target: HttpTarget,
  bodies: readonly string[] | undefined,
  readBodies: (file: string) => readonly string[],
): object {
  return {
    // HTTP/1.1 (absent) keeps the hash it always had; HTTP/2 is another measurement
    ...(target.http === 2 ? { http: 2 } : {}),
    request: hashedRequest(target.request, bodies),
    // thresholds are not part of what is measured; a mix's names and weights are
    mix: target.mix?.map((e) => ({
      name: e.name,
      weight: e.weight,
      request: hashedRequest(e.request, e.request.bodiesFile ? readBodies(e.request.bodiesFile) : undefined),
    })),
  };
}

function fillRequest(r: PlanRequest, fill: Fill, at: string): PlanRequest {
  const request: PlanRequest = {
    ...r,
    url: fill(r.url, `${at}.url`),
    headers: fillRecord(r.headers, fill, `${at}.headers`),
  };
  if (r.body !== undefined) request.body = fill(r.body, `${at}.body`);
  if (r.bodies !== undefined) request.bodies = r.bodies.map((b, j) => fill(b, `${at}.bodies[${j}]`));
  return request;
}

export function expandHttp(target: PlanHttp, fill: Fill, at: string): PlanHttp {
  if (!target.mix) return { ...target, request: fillRequest(target.request, fill, `${at}.request`) };
  const mix = target.mix.map((e, j) => ({ ...e, request: fillRequest(e.request, fill, `${at}.requests[${j}]`) }));
  return { ...target, mix, request: (mix[0] as PlanMixEntry).request };
}

/** The longest a request may take: the scenario's timeout, or a request's own when longer. */
export function longestHttpTimeoutMs(target: PlanHttp, defaultMs: number): number {
  return Math.max(defaultMs, ...loadRequests(target, defaultMs).map((r) => r.timeoutMs));
}

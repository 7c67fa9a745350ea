// An HTTP scenario's requests as the runner gets them: bodies files read.
import type { HttpTarget, RequestSpec } from '../../config/types.js';
import type { PlanHttp, PlanRequest } from '../../runner-kit/plan.js';

function planRequest(r: RequestSpec, readBodies: (file: string) => string[]): PlanRequest {
  const request: PlanRequest = { url: r.url, method: r.method, headers: r.headers };
  if (r.body !== undefined) request.body = r.body;
  if (r.bodiesFile !== undefined) request.bodies = readBodies(r.bodiesFile);
  if (r.expect !== undefined) request.expect = r.expect;
  if (r.timeoutMs !== undefined) request.timeoutMs = r.timeoutMs;
  return request;
}

export function planHttp(target: HttpTarget, readBodies: (file: string) => string[]): PlanHttp {
  const planned: PlanHttp = { kind: 'http', request: planRequest(target.request, readBodies) };
  if (target.http === 2) planned.http = 2;
  if (target.mix) {
    planned.mix = target.mix.map((e) => ({
      name: e.name,
      weight: e.weight,
      request: planRequest(e.request, readBodies),
    }));
  }
  return planned;
}

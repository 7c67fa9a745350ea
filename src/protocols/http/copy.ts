// HTTP targets beyond the plan: their part of the scenario hash, and the longest a request may take.
import type { HttpTarget } from '../../config-parts/types.js';
import { loadRequests, type PlanHttp } from '../../runner-kit/plan.js';
import { bodiesDigest, hashedRequest } from '../shared.js';

export function hashHttp(
  target: HttpTarget,
  bodies: readonly string[] | undefined,
  readBodies: (file: string) => readonly string[],
): object {
  return {
    // HTTP/1.1 (absent) keeps the hash it always had; HTTP/2 is another measurement
    ...(target.http === 2 ? { http: 2 } : {}),
    request: hashedRequest(target.request, bodies),
    // a data file by its content and order (absent: the hash it always had)
    ...(target.data
      ? {
          data: {
            order: target.data.order,
            rows: bodiesDigest([
              JSON.stringify(target.data.columns ?? []),
              ...(target.data.rows ?? []).map((r) => JSON.stringify(r)),
            ]),
          },
        }
      : {}),
    // a flow's extract rules (absent: the hash it always had)
    ...(target.flow ? { flow: { extract: target.flow.extract } } : {}),
    // a hook by its source (what it does), not its path
    ...(target.hook ? { hook: bodiesDigest([target.hook.source ?? '']) } : {}),
    // thresholds are not part of what is measured; a mix's names and weights are
    mix: target.mix?.map((e) => ({
      name: e.name,
      weight: e.weight,
      request: hashedRequest(e.request, e.request.bodiesFile ? readBodies(e.request.bodiesFile) : undefined),
    })),
  };
}

/** The longest a request may take: the scenario's timeout, or a request's own when longer. */
export function longestHttpTimeoutMs(target: PlanHttp, defaultMs: number): number {
  return Math.max(defaultMs, ...loadRequests(target, defaultMs).map((r) => r.timeoutMs));
}

// WebSocket targets beyond the plan: their part of the scenario hash, the runner's copy with
// `${NAME}` filled in.
import type { WsTarget } from '../../config/types.js';
import type { PlanWs } from '../../runner-kit/plan.js';
import { type Fill, fillRecord, hashedRequest } from '../shared.js';

/** Earlier versions gave WebSocket scenarios an HTTP `request` of their URL and headers, and hashed
 * it: it is hashed here as it was, so that their committed baselines do not turn stale. */
export function hashWs(target: WsTarget, bodies: readonly string[] | undefined): object {
  const w = target.websocket;
  return {
    request: hashedRequest({ url: w.url, method: 'GET', headers: w.headers }, bodies),
    websocket: { ...w, thresholds: undefined },
  };
}

export function expandWs(target: PlanWs, fill: Fill, at: string): PlanWs {
  const w = target.websocket;
  const where = `${at}.websocket`;
  return {
    ...target,
    websocket: {
      ...w,
      url: fill(w.url, `${where}.url`),
      headers: fillRecord(w.headers, fill, `${where}.headers`),
      hello: w.hello.map((h, j) => fill(h, `${where}.hello[${j}]`)),
      message: fill(w.message, `${where}.message`),
    },
  };
}

// WebSocket targets beyond the plan: their part of the scenario hash.
import type { WsTarget } from '../../config-parts/types.js';
import { bodiesDigest, hashedRequest } from '../shared.js';

/** Earlier versions gave WebSocket scenarios an HTTP `request` of their URL and headers, and hashed
 * it: it is hashed here as it was, so that their committed baselines do not turn stale. */
export function hashWs(target: WsTarget, bodies: readonly string[] | undefined): object {
  const w = target.websocket;
  return {
    request: hashedRequest({ url: w.url, method: 'GET', headers: w.headers }, bodies),
    // a hook by its source (what it does), not its path
    websocket: { ...w, thresholds: undefined, hook: w.hook ? bodiesDigest([w.hook.source ?? '']) : undefined },
  };
}

// What the protocol modules share beyond the config's own helpers: a request's form in the scenario
// hash.
import { createHash } from 'node:crypto';
import type { RequestSpec } from '../config-parts/types.js';

/** Bodies by content (a request's, or a gRPC scenario's messages): what the scenario hash keeps of them. */
export function bodiesDigest(bodies: readonly string[]): string {
  return createHash('sha256').update(bodies.join('\n')).digest('hex');
}

/** Why a scenario of a protocol without peers has no delivery to gate. */
export const NO_DELIVERY = 'delivery is measured in WebSocket scenarios only';

/** A hashed request: a request's bodies by content, not path; its timeout is not what is measured. */
export function hashedRequest(r: RequestSpec, rBodies: readonly string[] | undefined): object {
  // a request's timeout is not what is measured (as the scenario's request-timeout is not)
  const { bodiesFile: _path, timeoutMs: _timeout, ...request } = r;
  return {
    ...request,
    bodies: rBodies ? bodiesDigest(rBodies) : undefined,
  };
}

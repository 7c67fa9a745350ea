// gRPC targets beyond the plan: their part of the scenario hash, the runner's copy with `${NAME}`
// filled in, and the longest a call may take.
import type { GrpcTarget } from '../../config/types.js';
import type { PlanGrpcTarget } from '../../runner-kit/plan.js';
import { bodiesDigest, type Fill, fillRecord, hashedRequest } from '../shared.js';

/** Earlier versions gave gRPC scenarios an HTTP `request` of their URL (as written) and metadata, and
 * hashed it: it is hashed here as it was, so that their committed baselines do not turn stale. */
export function hashGrpc(
  target: GrpcTarget,
  bodies: readonly string[] | undefined,
  readBodies: (file: string) => readonly string[],
): object {
  const g = target.grpc;
  return {
    request: hashedRequest({ url: g.urlAsWritten, method: 'POST', headers: g.metadata }, bodies),
    // the proto by content (its parsed form), the messages by content, not by path
    grpc: {
      ...g,
      urlAsWritten: undefined,
      proto: undefined,
      protoFile: undefined,
      bodiesFile: undefined,
      bodies: g.bodiesFile ? bodiesDigest(readBodies(g.bodiesFile)) : undefined,
    },
  };
}

export function expandGrpc(target: PlanGrpcTarget, fill: Fill, at: string): PlanGrpcTarget {
  const g = target.grpc;
  const where = `${at}.grpc`;
  return {
    ...target,
    grpc: { ...g, url: fill(g.url, `${where}.url`), metadata: fillRecord(g.metadata, fill, `${where}.metadata`) },
  };
}

// gRPC targets beyond the plan: their part of the scenario hash.
import type { GrpcTarget } from '../../config-parts/types.js';
import { bodiesDigest, hashedRequest } from '../shared.js';

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

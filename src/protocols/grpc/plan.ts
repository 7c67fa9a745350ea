// A gRPC scenario's calls as the runner gets them: the parsed proto and the messages, never a path.
import type { GrpcTarget } from '../../config/types.js';
import type { PlanGrpcTarget } from '../../protocol/plan.js';

export function planGrpc(target: GrpcTarget, scenario: string, readBodies: (file: string) => string[]): PlanGrpcTarget {
  const g = target.grpc;
  if (!g.descriptor) throw new Error(`scenario ${scenario}: the proto ${g.proto} was not loaded`);
  return {
    kind: 'grpc',
    grpc: {
      url: g.url,
      descriptor: g.descriptor,
      service: g.service,
      method: g.method,
      messages:
        g.bodiesFile !== undefined ? readBodies(g.bodiesFile).map((b) => JSON.parse(b) as unknown) : [g.message],
      metadata: g.metadata,
      channels: g.channels,
      deadlineMs: g.deadlineMs,
    },
  };
}

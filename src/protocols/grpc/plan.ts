// A gRPC scenario's calls as the runner gets them: the method's path and its messages serialised
// (the runner needs no proto library), never a file path.
import type { GrpcTarget } from '../../config-parts/types.js';
import type { PlanGrpcTarget } from '../../runner-kit/plan.js';
import { encodeGrpcCalls } from '../../config-parts/proto.js';

export function planGrpc(target: GrpcTarget, scenario: string, readBodies: (file: string) => string[]): PlanGrpcTarget {
  const g = target.grpc;
  if (!g.descriptor) throw new Error(`scenario ${scenario}: the proto ${g.proto} was not loaded`);
  const messages =
    g.bodiesFile !== undefined ? readBodies(g.bodiesFile).map((b) => JSON.parse(b) as unknown) : [g.message];
  const calls = encodeGrpcCalls(g.descriptor, g.service, g.method, messages);
  return {
    kind: 'grpc',
    grpc: {
      url: g.url,
      service: g.service,
      method: g.method,
      path: calls.path,
      messages: calls.messages,
      metadata: g.metadata,
      channels: g.channels,
      deadlineMs: g.deadlineMs,
    },
  };
}

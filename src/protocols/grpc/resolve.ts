// gRPC scenarios beyond the config's text: each proto parsed (its imports inside the workspace), its
// service and method found, its messages checked against the request type; the parsed descriptor is
// kept on the target for the plan (the runner gets serialised messages and needs no proto library).
import { checkGrpcScenarios, type ProtoDescriptor, workspaceProtoReader } from '../../config-parts/proto.js';
import type { Scenario } from '../../config-parts/types.js';
import type { ResolveIo } from '../protocol.js';

export function resolveGrpc(scenarios: readonly Scenario[], io: ResolveIo): string[] {
  const descriptors = new Map<string, ProtoDescriptor>();
  const problems = checkGrpcScenarios(scenarios, workspaceProtoReader(io.resolveIn), io.readMessages, descriptors);
  for (const { target: t } of scenarios) {
    if (t.kind === 'grpc') t.grpc.descriptor = descriptors.get(t.grpc.protoFile);
  }
  return problems;
}

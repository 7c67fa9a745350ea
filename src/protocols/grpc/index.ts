// gRPC unary calls of one method, in closed or open loop like HTTP requests.
import type { GrpcTarget } from '../../config-parts/types.js';
import type { HostProtocol } from '../protocol.js';
import { NO_DELIVERY } from '../shared.js';
import { normalizeGrpcPhase, normalizeGrpcTarget } from './normalize.js';
import { hashGrpc } from './copy.js';
import { resolveGrpc } from './resolve.js';
import { planGrpc } from './plan.js';

export const grpc: HostProtocol<GrpcTarget> = {
  normalizePhase: normalizeGrpcPhase,
  normalize: normalizeGrpcTarget,
  resolve: resolveGrpc,
  plan: planGrpc,
  hash: hashGrpc,
  // a call may take its deadline
  longestTimeoutMs: (target, defaultMs) => Math.max(defaultMs, target.grpc.deadlineMs),
  entries: () => [],
  url: (target) => target.grpc.urlAsWritten,
  urlKey: () => 'grpc.url',
  // its messages are hashed by its own part of the hash
  bodiesFile: () => undefined,
  noDelivery: () => NO_DELIVERY,
  noSweep: undefined,
  noReplicas: undefined,
  keys: [{ key: 'grpc', loads: 'gRPC calls' }],
};

// HTTP/1.1 requests: one request or a weighted mix, in closed or open loop.
import { normalizePhase } from '../../config-parts/phases.js';
import type { HttpTarget } from '../../config-parts/types.js';
import type { HostProtocol } from '../protocol.js';
import { NO_DELIVERY } from '../shared.js';
import { normalizeHttp } from './normalize.js';
import { hashHttp, longestHttpTimeoutMs } from './copy.js';
import { ITERATION_ENTRY } from '../../runner-kit/plan.js';
import { planHttp } from './plan.js';
import { resolveHttp } from './resolve.js';

export const http: HostProtocol<HttpTarget> = {
  normalizePhase,
  normalize: normalizeHttp,
  resolve: resolveHttp,
  plan: (target, _scenario, readBodies) => planHttp(target, readBodies),
  hash: hashHttp,
  longestTimeoutMs: longestHttpTimeoutMs,
  entries: (target) => [
    ...(target.mix ?? []),
    ...(target.flow ? [{ name: ITERATION_ENTRY, thresholds: target.flow.thresholds ?? {} }] : []),
  ],
  url: (target) => target.request.url,
  urlKey: (target) => (target.flow ? 'flow[0].url' : target.mix ? 'requests[0].url' : 'request.url'),
  bodiesFile: (target) => target.request.bodiesFile,
  noDelivery: () => NO_DELIVERY,
  noSweep: undefined,
  noReplicas: undefined,
  keys: [
    { key: 'request', loads: 'one request' },
    { key: 'requests', loads: 'a mix' },
    { key: 'flow', loads: 'a flow of steps' },
  ],
};

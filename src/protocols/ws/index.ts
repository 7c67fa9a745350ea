// WebSocket peers: messages acked on the sender's socket and pushed to another peer's.
import { wsEntries } from '../../runner-kit/plan.js';
import type { WsTarget } from '../../config-parts/types.js';
import type { HostProtocol } from '../protocol.js';
import { normalizeWsPhase, normalizeWsTarget } from './normalize.js';
import { hashWs } from './copy.js';
import { planWs } from './plan.js';
import { resolveWs } from './normalize.js';

export const ws: HostProtocol<WsTarget> = {
  normalizePhase: normalizeWsPhase,
  normalize: normalizeWsTarget,
  resolve: resolveWs,
  plan: (target) => planWs(target),
  hash: (target, bodies) => hashWs(target, bodies),
  // a message's timeout is the scenario's
  longestTimeoutMs: (_target, defaultMs) => defaultMs,
  entries: (target) =>
    wsEntries(target.websocket.push).map((name) => ({ name, thresholds: target.websocket.thresholds[name] })),
  url: (target) => target.websocket.url,
  urlKey: () => 'websocket.url',
  bodiesFile: () => undefined,
  noDelivery: (target) =>
    target.websocket.push === 'none' ? 'nothing is delivered to other peers with websocket.push: none' : undefined,
  noSweep: 'not available for a WebSocket scenario (give phases of several peer counts)',
  noReplicas: {
    key: 'websocket',
    why: 'WebSocket peers push to one another and run on one runner',
    scenarios: 'WebSocket scenarios',
  },
  keys: [{ key: 'websocket', loads: 'WebSocket peers' }],
};

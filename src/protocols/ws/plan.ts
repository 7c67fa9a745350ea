// A WebSocket scenario's peers as the runner gets them: the templates, without the host's gates.
import { basename } from 'node:path';
import type { WsTarget } from '../../config-parts/types.js';
import type { PlanWs } from '../../runner-kit/plan.js';

export function planWs(target: WsTarget): PlanWs {
  const { thresholds: _gates, hook, ...websocket } = target.websocket;
  // a hook by its file's name (messages) and its source
  return {
    kind: 'ws',
    websocket: hook ? { ...websocket, hook: { file: basename(hook.file), source: hook.source ?? '' } } : websocket,
  };
}

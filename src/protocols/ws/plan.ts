// A WebSocket scenario's peers as the runner gets them: the templates, without the host's gates.
import type { WsTarget } from '../../config/types.js';
import type { PlanWs } from '../../runner-kit/plan.js';

export function planWs(target: WsTarget): PlanWs {
  const { thresholds: _gates, ...websocket } = target.websocket;
  return { kind: 'ws', websocket };
}

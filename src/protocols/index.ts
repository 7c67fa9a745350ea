// The host's protocol modules, one per target kind, in one map: a kind without a module does not
// compile. Each lives in its own folder (normalise, plan); src/config/ keeps what every protocol
// shares (phases, thresholds, names), runner/src/engines/ the engines.
import type { ScenarioTarget } from '../config/types.js';
import type { ProtocolKind } from '../runner-kit/protocols.js';
import { grpc } from './grpc/index.js';
import { http } from './http/index.js';
import type { HostProtocol, RawScenario, TargetOf } from './protocol.js';
import { ws } from './ws/index.js';

export type { HostProtocol, NormalizeContext, RawScenario, TargetOf } from './protocol.js';

export const PROTOCOLS = { http, ws, grpc } satisfies { [K in ProtocolKind]: HostProtocol<TargetOf<K>> };

/** The config's targets have exactly the protocol kinds (a kind in one and not the other does not compile). */
const _sameKinds: [ScenarioTarget['kind']] extends [ProtocolKind]
  ? [ProtocolKind] extends [ScenarioTarget['kind']]
    ? true
    : never
  : never = true;

/** The protocol module of a target's kind. */
export function protocolOf<T extends ScenarioTarget>(target: T): HostProtocol<T> {
  // the map's type pairs each kind with its module; TypeScript cannot follow it through the lookup
  return PROTOCOLS[target.kind] as unknown as HostProtocol<T>;
}

/** The protocol a raw scenario's key asks for (phases are read by it even when several keys are given). */
export function rawKind(s: RawScenario): ProtocolKind {
  return s.websocket ? 'ws' : s.grpc ? 'grpc' : 'http';
}

/** The key a target's URL is written at in a scenario, for a problem about it (a mix's first entry). */
export function urlKeyOf(target: ScenarioTarget): string {
  if (target.kind === 'http') return target.mix ? 'requests[0].url' : 'request.url';
  return target.kind === 'ws' ? 'websocket.url' : 'grpc.url';
}

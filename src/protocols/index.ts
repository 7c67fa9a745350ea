// The host's protocol modules, one per target kind, in one map: a kind without a module does not
// compile. Each lives in its own folder (normalise, plan); src/config-parts/ keeps what every protocol
// shares (phases, thresholds, names), runner/src/engines/ the engines.
import type { ScenarioTarget } from '../config-parts/types.js';
import type { PlanTargetOf, ProtocolKind } from '../runner-kit/protocols.js';
import { grpc } from './grpc/index.js';
import { http } from './http/index.js';
import type { HostProtocol, TargetOf } from './protocol.js';
import type { RawScenario } from './schema.js';
import { ws } from './ws/index.js';

export type { HostProtocol, NormalizeContext, TargetOf } from './protocol.js';

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

/** The protocol module of a runner plan's target (a kind from outside the types is a bug: exit 1). */
export function planProtocolOf<K extends ProtocolKind>(target: PlanTargetOf<K>): HostProtocol<TargetOf<K>> {
  const protocol = (PROTOCOLS as Record<string, HostProtocol<ScenarioTarget> | undefined>)[target.kind];
  if (!Object.hasOwn(PROTOCOLS, target.kind) || !protocol)
    throw new Error(`unhandled kind: ${JSON.stringify(target.kind)}`);
  return protocol as unknown as HostProtocol<TargetOf<K>>;
}

/** The order a scenario's protocol keys are read in when it gives several (the problem is reported):
 * every kind has its place (a new one is a compile error until it is given one). */
const KEY_RANK: { [K in ProtocolKind]: number } = { ws: 0, grpc: 1, http: 2 };
const KEY_ORDER = (Object.keys(KEY_RANK) as ProtocolKind[]).sort((a, b) => KEY_RANK[a] - KEY_RANK[b]);

/** The protocol a raw scenario's key asks for (its phases are read by it, even when several keys are
 * given); undefined when it gives none (the scenario is refused, its phases unread). */
export function rawKind(s: RawScenario): ProtocolKind | undefined {
  const given = (k: ProtocolKind) => PROTOCOLS[k].keys.some(({ key }) => s[key] !== undefined);
  return KEY_ORDER.find(given);
}

/** How many protocol keys a raw scenario gives (exactly one is valid). */
export function protocolKeysGiven(s: RawScenario): number {
  return Object.values(PROTOCOLS)
    .flatMap((p) => p.keys)
    .filter(({ key }) => s[key] !== undefined).length;
}

/** The protocol keys a scenario may give, for the line that asks for exactly one. */
export function protocolKeysLine(): string {
  const keys = Object.values(PROTOCOLS).flatMap((p) => p.keys.map(({ key, loads }) => `${key} (${loads})`));
  return `${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}`;
}

/** The key a target's URL is written at in a scenario, for a problem about it (a mix's first entry). */
export function urlKeyOf(target: ScenarioTarget): string {
  return protocolOf(target).urlKey(target);
}

// The protocols a scenario can load (a target's `kind`), shared by the host and the runner. Each kind
// has one engine in the runner (runner/src/engines/) and one folder on the host; switches over a
// kind end in assertNever, so the compiler lists every place a new kind must be handled.
import type { PlanTarget } from './plan.js';

/** Every protocol kind, each once: a Record over the kind, so a kind left out does not compile. */
const KINDS: Record<ProtocolKind, true> = { http: true, ws: true, grpc: true };

export type ProtocolKind = PlanTarget['kind'];

/** The plan target of one kind. */
export type PlanTargetOf<K extends ProtocolKind> = Extract<PlanTarget, { kind: K }>;

export const PROTOCOL_KINDS = Object.keys(KINDS) as ProtocolKind[];

/**
 * The end of an exhaustive switch: `value` has type never once every case is handled, so a kind
 * added to a union and not handled is a compile error at the call. At run time (a value from outside
 * the types) it throws.
 */
export function assertNever(value: never, what = 'kind'): never {
  const kind = (value as { kind?: unknown } | null)?.kind;
  throw new Error(`unhandled ${what}: ${JSON.stringify(kind ?? value)}`);
}

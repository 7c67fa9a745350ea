// The runner's protocol engines, one per target kind, in one map: a kind without an engine does not
// compile (PROTOCOL_KINDS lists the same kinds for the tests).
import type { PlanTarget } from '../../src/runner-kit/plan.js';
import type { ProtocolKind, PlanTargetOf } from '../../src/runner-kit/protocols.js';
import type { Engine, EngineRun } from './engines/engine.js';
import { grpcEngine } from './engines/grpc.js';
import { httpEngine } from './engines/http.js';
import { wsEngine } from './engines/ws.js';
import type { EngineJob } from './split.js';

export type { EngineRun } from './engines/engine.js';

export const ENGINES = {
  http: httpEngine,
  ws: wsEngine,
  grpc: grpcEngine,
} satisfies { [K in ProtocolKind]: Engine<PlanTargetOf<K>> };

/** The engine of a target's kind. */
export function engineOf<T extends PlanTarget>(target: T): Engine<T> {
  // the map's type pairs each kind with its target's engine; TypeScript cannot follow it through the lookup
  return ENGINES[target.kind] as unknown as Engine<T>;
}

/** One engine instance running one job, in whatever thread it is called from. */
export function startEngine(job: EngineJob): EngineRun {
  return engineOf(job.target).run(job);
}

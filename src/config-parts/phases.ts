// Pure: a phase as the config writes it read into a closed- or open-loop Phase (ramps included), each
// problem a `path: message` line. A WebSocket phase is the ws protocol's (src/protocols/ws/).
import { parseDurationMs } from '../common/units.js';
import type { RawPhase } from './phase-schema.js';
import { BOUNDS } from './schema-parts.js';
import { DEFAULT_MAX_IN_FLIGHT } from './types.js';
import type { ClosedPhase, Phase } from '../runner-kit/plan.js';
import { peakLevel, type Ramp, rampDurationMs } from '../runner-kit/ramp.js';

/** The name of an open-loop phase without one (also a rate sweep's steps): r500, r2_5. */
export function ratePhaseName(rate: number): string {
  return `r${String(rate).replace('.', '_')}`;
}

/** autocannon's `amount` is `requests` (one of them, not both). */
export function withAmount(raw: RawPhase, path: string, problems: string[]): RawPhase {
  if (raw.amount === undefined) return raw;
  if (raw.requests !== undefined) {
    problems.push(`${path}.amount: give requests or amount (autocannon's name for it), not both`);
    return raw;
  }
  const { amount, ...rest } = raw;
  return { ...rest, requests: amount };
}

/** The most a phase may last, stages added up (as a phase's duration). */
const MAX_PHASE_MS = 24 * 3_600_000;

/**
 * What a phase's `stages` ramp: each stage says `rate` (open loop) or `connections` (closed loop),
 * all the same one; k6's `target` is the phase's rate when the phase gives `rate` or
 * `max-in-flight`, else its connections when it gives `connections`.
 */
function rampKind(raw: RawPhase, stages: NonNullable<RawPhase['stages']>, path: string, problems: string[]) {
  const targetIs =
    raw.rate !== undefined || raw['max-in-flight'] !== undefined
      ? ('rate' as const)
      : raw.connections !== undefined
        ? ('connections' as const)
        : undefined;
  let kind: 'rate' | 'connections' | undefined;
  let ok = true;
  stages.forEach((st, i) => {
    const at = `${path}.stages[${i}]`;
    const given = (['rate', 'connections', 'target'] as const).filter((k) => st[k] !== undefined);
    if (given.length !== 1) {
      ok = false;
      problems.push(
        given.length === 0
          ? `${at}: give the level it ramps to: rate (open loop) or connections (closed loop)`
          : `${at}: give one of ${given.join(', ')}, not several`,
      );
      return;
    }
    const k = given[0] === 'target' ? targetIs : given[0];
    if (k === undefined) {
      ok = false;
      problems.push(
        `${at}.target: k6's target is ambiguous here: write rate (open loop) or connections (closed loop) in each stage, or give the phase a starting rate or connections`,
      );
      return;
    }
    const level = (st.target ?? st.connections) as number;
    if (k === 'connections' && !Number.isInteger(level)) {
      problems.push(`${at}.${given[0]}: connections must be a whole number`);
    } else if (k === 'connections' && level > BOUNDS.connections) {
      // k6's target is bounded like a rate by the schema; as connections it has theirs
      ok = false;
      problems.push(
        `${at}.${given[0]}: must be an integer from 0 to ${BOUNDS.connections.toLocaleString('en-US')} (connections)`,
      );
    }
    if (kind !== undefined && k !== kind) {
      ok = false;
      problems.push(`${at}.${given[0]}: every stage of a phase ramps the same thing (here ${kind}), not ${k}`);
    }
    kind ??= k;
  });
  return ok ? kind : undefined;
}

/** A phase with `stages`: an open loop whose rate ramps, or a closed loop whose connections do. */
function normalizeRampPhase(raw: RawPhase, path: string, problems: string[]): Phase | undefined {
  const stages = raw.stages ?? [];
  if (raw.duration !== undefined) {
    problems.push(`${path}.duration: not with stages (the phase lasts the stages' durations added up)`);
  }
  if (raw.requests !== undefined) problems.push(`${path}.requests: not with stages (a ramp runs for a time)`);
  const kind = rampKind(raw, stages, path, problems);
  if (kind === undefined) return undefined;
  if (kind === 'connections' && raw.rate !== undefined) {
    problems.push(
      `${path}.rate: not with stages that ramp connections (a closed loop has no rate; ramp rate: in each stage for an open loop)`,
    );
  }
  const ramp: Ramp = {
    from: (kind === 'rate' ? raw.rate : raw.connections) ?? 0,
    stages: stages.map((st) => ({
      durationMs: parseDurationMs(st.duration) ?? 0,
      to: st.target ?? (kind === 'rate' ? st.rate : st.connections) ?? 0,
    })),
  };
  const durationMs = rampDurationMs(ramp);
  if (durationMs > MAX_PHASE_MS) problems.push(`${path}.stages: last ${durationMs / 3_600_000} h in all, over 24h`);
  const peak = peakLevel(ramp);
  if (peak <= 0) {
    problems.push(`${path}.stages: the ${kind} never rises above 0, so the phase would send nothing`);
    return undefined;
  }
  if (kind === 'rate') {
    refuseOtherLoopKeys(raw, 'open', path, problems);
    const phase: Phase = {
      kind: 'open',
      name: raw.name ?? `ramp-${ratePhaseName(peak)}`,
      rate: peak,
      durationMs,
      maxInFlight: raw['max-in-flight'] ?? DEFAULT_MAX_IN_FLIGHT,
      ramp,
    };
    if (raw.connections !== undefined) phase.connections = raw.connections;
    if (raw.streams !== undefined) phase.streams = raw.streams;
    return phase;
  }
  refuseOtherLoopKeys(raw, 'closed', path, problems);
  return pipelined({ kind: 'closed', name: `ramp-c${peak}`, connections: peak, durationMs, ramp }, raw, path, problems);
}

export function normalizePhase(input: RawPhase, path: string, problems: string[]): Phase | undefined {
  const raw = withAmount(input, path, problems);
  for (const key of ['peers', 'messages'] as const) {
    if (raw[key] !== undefined) problems.push(`${path}.${key}: only in a WebSocket scenario (websocket:)`);
  }
  if (raw.stages !== undefined) return normalizeRampPhase(raw, path, problems);
  const durationMs = raw.duration !== undefined ? parseDurationMs(raw.duration) : undefined;
  if (durationMs === 0) problems.push(`${path}.duration: must be longer than 0`);
  if (raw.rate !== undefined) {
    if (raw.requests !== undefined) problems.push(`${path}.requests: not allowed in an open-loop (rate) phase`);
    refuseOtherLoopKeys(raw, 'open', path, problems);
    if (durationMs === undefined) {
      problems.push(`${path}.duration: required in an open-loop (rate) phase`);
      return undefined;
    }
    const phase: Phase = {
      kind: 'open',
      name: raw.name ?? ratePhaseName(raw.rate),
      rate: raw.rate,
      durationMs,
      maxInFlight: raw['max-in-flight'] ?? DEFAULT_MAX_IN_FLIGHT,
    };
    if (raw.connections !== undefined) phase.connections = raw.connections;
    if (raw.streams !== undefined) phase.streams = raw.streams;
    return phase;
  }
  refuseOtherLoopKeys(raw, 'closed', path, problems);
  if (raw.connections === undefined) {
    problems.push(`${path}: needs connections (closed loop) or rate (open loop)`);
    return undefined;
  }
  if ((durationMs === undefined) === (raw.requests === undefined)) {
    problems.push(`${path}: a closed-loop phase needs exactly one of duration or requests`);
    return undefined;
  }
  if (raw.requests !== undefined && raw.requests < raw.connections) {
    problems.push(`${path}.requests: must be at least connections (${raw.connections})`);
  }
  const phase: ClosedPhase = {
    kind: 'closed',
    name: raw.requests !== undefined ? `c${raw.connections}-n${raw.requests}` : `c${raw.connections}`,
    connections: raw.connections,
  };
  if (durationMs !== undefined) phase.durationMs = durationMs;
  if (raw.requests !== undefined) phase.requests = raw.requests;
  return pipelined(phase, raw, path, problems);
}

/** Keys of the other kind of loop, refused: pipelining in an open loop, max-in-flight in a closed one. */
function refuseOtherLoopKeys(raw: RawPhase, kind: 'open' | 'closed', path: string, problems: string[]): void {
  if (kind === 'open' && raw.pipelining !== undefined) {
    problems.push(
      `${path}.pipelining: closed loop only (an open loop sends on a free connection; raise max-in-flight instead)`,
    );
  }
  if (kind === 'closed' && raw['max-in-flight'] !== undefined) {
    problems.push(`${path}.max-in-flight: only allowed in an open-loop (rate) phase`);
  }
}

/**
 * A closed loop with its derived name (`derived`) unless the config names it, and the requests each
 * connection keeps in flight when above 1 — autocannon's pipelining (HTTP/1.1) or HTTP/2 streams,
 * not both: kept on the phase and said in the derived name (`c10-p4`, `c10-s8`).
 */
function pipelined(derived: ClosedPhase, raw: RawPhase, path: string, problems: string[]): ClosedPhase {
  if (raw.pipelining !== undefined && raw.streams !== undefined)
    problems.push(`${path}.streams: not with pipelining (pipelining is HTTP/1.1's, streams HTTP/2's)`);
  const depth = raw.pipelining !== undefined && raw.pipelining > 1 ? raw.pipelining : undefined;
  const streams = raw.streams !== undefined && raw.streams > 1 ? raw.streams : undefined;
  const suffix = depth ? `-p${depth}` : streams ? `-s${streams}` : '';
  const phase: ClosedPhase = { ...derived, name: raw.name ?? `${derived.name}${suffix}` };
  if (depth) phase.pipelining = depth;
  if (raw.streams !== undefined) phase.streams = raw.streams;
  return phase;
}

/** Names given more than once, each once. */
export function duplicates(names: string[]): string[] {
  return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
}

/** The index of the first phase that gives HTTP/2 streams, or -1. */
export function streamsPhase(phases: readonly Phase[]): number {
  return phases.findIndex((p) => p.kind !== 'ws' && p.streams !== undefined);
}

/** The index of the first pipelined phase, or -1. */
export function pipelinedPhase(phases: readonly Phase[]): number {
  return phases.findIndex((p) => p.kind === 'closed' && p.pipelining !== undefined);
}

// Pure: the warnings attached to a phase from what its trials measured. A flag that starts with
// `generator-bound` makes the phase's comparisons `invalid` (compare.ts): the load generator, not the
// SUT, limited what was measured. The others are reported next to the numbers.
import { OPEN_LATE_MS, openLoopLimits } from '../runner-kit/plan.js';
import { sumOpenCounts, type TrialMeasurement } from '../runner-kit/measurement.js';

import type { PhaseResult } from './types.js';

export const GENERATOR_LIMITS = {
  /** the runner process used at least this share of the CPUs it could use */
  cpuShare: 0.9,
  /** an engine thread's event loop was busy at least this share of the window, % */
  busyPct: 90,
  /** an engine thread's event loop was this late at p99, µs (it inflates every latency it touches) */
  eventLoopDelayP99Us: 50_000,
  /** at least this share of open-loop sends started late for the generator's own reasons */
  lateShare: 0.01,
  /** and at least this many of them in the phase (summed over its trials): one late send in 75 is the VM taking a core away
   * for a moment, not a generator that cannot keep the schedule */
  lateCount: 10,
} as const;

/**
 * CPUs the runner process could use: the CPUs it sees and the `runner.cpus` quota. Files written
 * before the per-thread busy measure existed also cap it at the engine threads (a saturated thread
 * could then only be seen through process CPU).
 */
export function generatorCapacity(t: TrialMeasurement, runnerCpus: number | undefined): number {
  const threads = t.generator.threads ?? 1;
  const cores = t.generator.cores ?? threads;
  const perThread = t.generator.busyPct === undefined ? threads : Infinity;
  return Math.max(0.01, Math.min(perThread, cores, runnerCpus ?? Infinity));
}

function pct(v: number): string {
  return `${Math.round(v * 1000) / 10}%`;
}

/** Open-loop sends late for the generator's own reasons, summed over the trials. */
function lateForGenerator(
  trials: readonly TrialMeasurement[],
): { count: number; scheduled: number; worst: { trial: number; count: number } } | undefined {
  let count = 0;
  let scheduled = 0;
  let worst = { trial: 0, count: -1 };
  for (const t of trials) {
    if (!t.open) continue;
    count += t.open.lateGenerator;
    scheduled += t.open.scheduled;
    if (t.open.lateGenerator > worst.count) worst = { trial: t.trial, count: t.open.lateGenerator };
  }
  return scheduled > 0 ? { count, scheduled, worst } : undefined;
}

function generatorBound(
  kind: PhaseResult['kind'],
  rate: number | undefined,
  trials: readonly TrialMeasurement[],
  runnerCpus: number | undefined,
): string | undefined {
  const reasons: string[] = [];
  for (const t of trials) {
    const capacity = generatorCapacity(t, runnerCpus);
    // in whole percent with a little slack: cpuPct is rounded, and 0.9 × 0.8 is not 0.72 in floats
    if (t.generator.cpuPct >= GENERATOR_LIMITS.cpuShare * capacity * 100 - 1e-6) {
      reasons.push(
        `trial ${t.trial}: the runner used ${Math.round(t.generator.cpuPct)}% CPU of ${Math.round(capacity * 100)}% available`,
      );
    }
    if (t.generator.busyPct !== undefined && t.generator.busyPct >= GENERATOR_LIMITS.busyPct) {
      reasons.push(
        `trial ${t.trial}: its busiest engine thread was busy ${Math.round(t.generator.busyPct)}% of the time`,
      );
    }
    if (t.generator.eventLoopDelayP99Us > GENERATOR_LIMITS.eventLoopDelayP99Us) {
      reasons.push(
        `trial ${t.trial}: its event loop lagged ${Math.round(t.generator.eventLoopDelayP99Us / 1000)} ms at p99`,
      );
    }
  }
  // Late sends are judged over the phase, not trial by trial: a share of sends merges across trials
  // the way the latencies do, and a phase that got more trials to confirm a change must not become
  // likelier to be called generator-bound because one of them met a VM hiccup (CI, issue 20).
  // open loops, and WebSocket phases at a per-peer rate (whose trials carry the schedule's counts)
  const late = kind !== 'closed' ? lateForGenerator(trials) : undefined;
  if (late && late.count >= GENERATOR_LIMITS.lateCount && late.count / late.scheduled >= GENERATOR_LIMITS.lateShare) {
    const where =
      trials.length === 1
        ? `trial ${late.worst.trial}`
        : `${trials.length} trials (most in trial ${late.worst.trial}: ${late.worst.count})`;
    reasons.push(
      `${where}: ${late.count} of ${late.scheduled} sends (${pct(late.count / late.scheduled)}) started over ${OPEN_LATE_MS} ms late while the generator was busy, it fell behind ${rate ?? '?'} ${kind === 'ws' ? 'messages/s per peer' : 'req/s'}`,
    );
  }
  if (reasons.length === 0) return undefined;
  return `generator-bound: ${reasons.join('; ')}. The load generator, not the service, limited this phase; add runner.workers or runner.cpus, or lower the load`;
}

export function phaseFlags(
  phase: Pick<PhaseResult, 'kind' | 'params'>,
  trials: readonly TrialMeasurement[],
  runnerCpus?: number,
): string[] {
  const flags: string[] = [];
  const bound = generatorBound(phase.kind, phase.params.rate, trials, runnerCpus);
  if (bound) flags.push(bound);
  const closes = trials.reduce((a, t) => a + t.connectionCloses, 0);
  if (closes > 0) {
    flags.push(
      phase.kind === 'closed'
        ? `the SUT closed keep-alive connections ${closes} times (Connection: close or idle/request limits); each reconnect costs a TCP (and TLS) handshake the latency does not show, and a real client would pay`
        : `the SUT closed keep-alive connections ${closes} times (Connection: close or idle/request limits); latencies include reconnecting`,
    );
  }
  const open = sumOpenCounts(trials);
  if (open && open.lateService > 0) {
    const { maxInFlight, connections, streams } = phase.params;
    const bound = maxInFlight === undefined ? '?' : openLoopLimits({ maxInFlight, connections, streams }).inFlight;
    flags.push(
      `the service held sends back: ${open.lateService} of ${open.scheduled} found every open connection busy with an unanswered request and waited over ${OPEN_LATE_MS} ms for one (connections open on demand, a few at a time, up to ${bound}: max-in-flight and connections); that wait counts in their latency`,
    );
  }
  if (open && open.unfinished > 0) {
    flags.push(
      `${open.unfinished} of ${open.scheduled} scheduled requests got no response by the end (counted as errors of kind unfinished)`,
    );
  }
  return flags;
}

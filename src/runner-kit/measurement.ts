// The runner↔host protocol, part 2: what the runner measures in a trial, and the pure helpers both
// sides use to add counts up. The runner imports nothing from the host but src/runner-kit/.
import type { LatencySummary } from './histogram.js';
import type { LatencyTimeline } from './timeline.js';

/** What the runner measured in one trial (one measured run of one phase). */
export interface TrialMeasurement {
  trial: number;
  /** measured wall time, ms */
  durationMs: number;
  /** requests written */
  sent: number;
  /** responses received, any status */
  responses: number;
  successes: number;
  failures: number;
  /** every status code seen, successes included */
  statusCodes: Record<string, number>;
  /** socket errors, resets and timeouts by kind (timeout, ECONNRESET, ECONNREFUSED, ...) */
  errors: Record<string, number>;
  /**
   * responses that failed a check of the request's `expect` (their status is in statusCodes, they
   * count in failures), by check: expect-status, expect-header, expect-body, expect-json,
   * expect-too-large. Absent when none failed (and in files written before checks existed).
   */
  checks?: Record<string, number>;
  /**
   * statuses outside 2xx/3xx that a request's `expect.status` lists, seen in this trial: successes,
   * so not error classes (`HTTP 404` of an endpoint expected to answer 404). Absent when none.
   */
  expectedStatuses?: string[];
  /** responses per second (any status) */
  rps: number;
  /** response bytes per second, headers included */
  bytesPerSec: number;
  /** latency of successful responses, µs */
  latency: LatencySummary;
  /** connections the SUT closed during the window (`Connection: close`, idle timeouts, resets) */
  connectionCloses: number;
  /** the generator watching itself */
  generator: GeneratorUsage;
  /** open-loop phases only: how well the schedule was kept */
  open?: OpenLoopCounts;
  /** WebSocket phases only: messages sent, and those pushed to their recipient within the drain */
  delivery?: DeliveryCounts;
  /** a load shared by runner replicas: how many, and how far apart their measured stages started */
  replicas?: ReplicaStarts;
  /** success latency over the trial's window (the HTML page's chart; never a verdict's figure):
   * absent in files written before it existed, and where runner replicas shared the load */
  timeline?: LatencyTimeline;
}

/** A trial run by several runner replicas (runner.replicas; src/runner-kit/replicas.ts). */
export interface ReplicaStarts {
  count: number;
  /** the latest replica's start of the measured stage after the earliest's, ms (each by its own clock) */
  startSkewMs: number;
}

export interface DeliveryCounts {
  sent: number;
  delivered: number;
}

/** Delivery counts summed; undefined when no part has any (not a WebSocket phase). */
export function sumDelivery(parts: ReadonlyArray<Pick<TrialMeasurement, 'delivery'>>): DeliveryCounts | undefined {
  let out: DeliveryCounts | undefined;
  for (const p of parts) {
    if (p.delivery)
      out = { sent: (out?.sent ?? 0) + p.delivery.sent, delivered: (out?.delivered ?? 0) + p.delivery.delivered };
  }
  return out;
}

/**
 * Open-loop schedule accounting (SPEC §3; docs/measurement.md, open loop). A send's delay behind its scheduled
 * time is split three ways: the service's (every connection busy with an unanswered request; it
 * counts in the latency), the timer's (the generator idle, waiting for its timer; not charged) and
 * the generator's (its event loop busy; not charged, and too much of it makes the phase
 * generator-bound).
 */
export interface OpenLoopCounts {
  /** sends the schedule called for in the measured window */
  scheduled: number;
  /** sends that started more than OPEN_LATE_MS (5 ms) after their scheduled time, whatever the cause */
  late: number;
  /** sends the service held back more than OPEN_LATE_MS (every connection busy) */
  lateService: number;
  /** sends the generator itself started more than OPEN_LATE_MS late (its event loop busy) */
  lateGenerator: number;
  /** scheduled sends with no response by the end of the grace period (aborted, or never sent) */
  unfinished: number;
  /** the longest any send started behind its scheduled time, µs */
  maxSendDelayUs: number;
  /** send delays summed over the sends by cause, µs (divide by `scheduled` for a mean) */
  delayUs: { service: number; timer: number; generator: number };
}

export interface GeneratorUsage {
  /** CPU of the runner process, % of one core */
  cpuPct: number;
  /** the worst engine thread's event-loop delay */
  eventLoopDelayP99Us: number;
  eventLoopDelayMaxUs: number;
  /** the busiest engine thread's event-loop utilisation, % of the window (absent in older files) */
  busyPct?: number;
  /** engine instances (runner.workers); absent in files written before workers existed */
  threads?: number;
  /** CPUs the runner process could see */
  cores?: number;
  /** a script hook's calls and the time spent in them, µs, all threads (part of the generator's time) */
  hook?: { calls: number; us: number };
}

/**
 * Failures by kind other than a status: socket errors and timeouts (`errors`, no response) and failed
 * checks (`checks`, responses counted in `failures`). Their names do not overlap (checks are expect-*).
 */
export function failureKinds(m: Pick<TrialMeasurement, 'errors' | 'checks'>): Record<string, number> {
  return m.checks ? { ...m.errors, ...m.checks } : m.errors;
}

/** Failed checks summed over several parts; undefined when none failed. */
export function sumChecks(
  parts: ReadonlyArray<{ checks?: Record<string, number> | undefined }>,
): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const p of parts) if (p.checks) addCounts(out, p.checks);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Statuses listed as successes by the requests' checks, over several parts; undefined when none. */
export function unionStatuses(parts: ReadonlyArray<{ expectedStatuses?: string[] | undefined }>): string[] | undefined {
  const all = new Set(parts.flatMap((p) => p.expectedStatuses ?? []));
  return all.size > 0 ? [...all].sort() : undefined;
}

/** The outcome fields of several parts (engine instances, runner replicas) summed. */
export interface SummedOutcomes {
  statusCodes: Record<string, number>;
  errors: Record<string, number>;
  /** checks, expected statuses, open-loop and delivery counts: present only when some part has them */
  optional: Pick<TrialMeasurement, 'checks' | 'expectedStatuses' | 'open' | 'delivery'>;
}

/** Status codes and error kinds added up, and the optional classes merged, over `parts`. */
export function sumOutcomes(
  parts: ReadonlyArray<
    Pick<TrialMeasurement, 'statusCodes' | 'errors' | 'checks' | 'expectedStatuses' | 'open' | 'delivery'>
  >,
): SummedOutcomes {
  const statusCodes: Record<string, number> = {};
  const errors: Record<string, number> = {};
  for (const p of parts) {
    addCounts(statusCodes, p.statusCodes);
    addCounts(errors, p.errors);
  }
  const optional: SummedOutcomes['optional'] = {};
  const checks = sumChecks(parts);
  if (checks) optional.checks = checks;
  const expected = unionStatuses(parts);
  if (expected) optional.expectedStatuses = expected;
  const open = sumOpenCounts(parts);
  if (open) optional.open = open;
  const delivery = sumDelivery(parts);
  if (delivery) optional.delivery = delivery;
  return { statusCodes, errors, optional };
}

export function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

export function addOpenCounts(a: OpenLoopCounts | undefined, b: OpenLoopCounts): OpenLoopCounts {
  if (!a) return { ...b, delayUs: { ...b.delayUs } };
  return {
    scheduled: a.scheduled + b.scheduled,
    late: a.late + b.late,
    lateService: a.lateService + b.lateService,
    lateGenerator: a.lateGenerator + b.lateGenerator,
    unfinished: a.unfinished + b.unfinished,
    maxSendDelayUs: Math.max(a.maxSendDelayUs, b.maxSendDelayUs),
    delayUs: {
      service: a.delayUs.service + b.delayUs.service,
      timer: a.delayUs.timer + b.delayUs.timer,
      generator: a.delayUs.generator + b.delayUs.generator,
    },
  };
}

/** Open-loop counts summed over trials (or engine instances); undefined for closed-loop data. */
export function sumOpenCounts(parts: ReadonlyArray<Pick<TrialMeasurement, 'open'>>): OpenLoopCounts | undefined {
  let out: OpenLoopCounts | undefined;
  for (const p of parts) if (p.open) out = addOpenCounts(out, p.open);
  return out;
}

/**
 * The responses a trial's rate counts: every response, except in an open loop, whose rate counts those
 * within its window (its `rps` over its window; a saturated service's backlog answered after the window
 * is not throughput it kept). Merges of trials or replicas add these up.
 */
export function ratedResponses(m: Pick<TrialMeasurement, 'responses' | 'rps' | 'durationMs' | 'open'>): number {
  return m.open ? (m.rps * m.durationMs) / 1000 : m.responses;
}

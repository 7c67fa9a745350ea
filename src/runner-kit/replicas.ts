// The runner↔host protocol, part 3: a load shared by several runner replicas (runner.replicas, on an
// orchestrator such as Docker Swarm). Every replica gets the same plan with one trial and a common
// start time; each learns its index from the orchestrator, runs its share of the load (instance g of
// the whole runs in replica g mod replicas: runner/src/split.ts) and reports its own trial. The host
// merges the replicas' trials into one exactly: counts summed, histograms merged (never percentiles
// averaged), and gates the merged trial once.
import { encodeHistogram, mergeHistograms, summarize } from './histogram.js';
import { ratedResponses, sumOutcomes, type ReplicaStarts, type TrialMeasurement } from './measurement.js';
import type { ReplicaRun } from './plan.js';

/**
 * The gap between the end of the warm-up and the measured stage: every replica starts measuring at
 * the same scheduled time, startAt + warm-up + this (a replica still draining its warm-up's requests
 * starts as soon as they are in, and its lateness shows in the start skew).
 */
export const MEASURE_GAP_MS = 250;

/** When each stage of a replicated trial starts, ms since the epoch (the same for every replica). */
export function replicaStageStarts(
  run: Pick<ReplicaRun, 'startAtEpochMs'>,
  warmupMs: number,
): {
  warmup: number;
  measure: number;
} {
  return {
    warmup: run.startAtEpochMs,
    measure: run.startAtEpochMs + (warmupMs > 0 ? warmupMs + MEASURE_GAP_MS : 0),
  };
}

/** Where a replica's index comes from: its variable, and what to subtract (a swarm slot counts from 1). */
const INDEX_SOURCES = [
  ['PERF_GATE_REPLICA', 0],
  ['PERF_GATE_SWARM_SLOT', 1],
  ['JOB_COMPLETION_INDEX', 0],
] as const;

/**
 * This replica's index (0-based) from its environment: PERF_GATE_REPLICA (given by hand),
 * PERF_GATE_SWARM_SLOT (Docker Swarm's task slot, `{{.Task.Slot}}`, 1..replicas) or
 * JOB_COMPLETION_INDEX (a Kubernetes Indexed Job, 0-based); the first that is set. The host checks
 * that the replicas' indexes are 0..count-1, each once. Throws when there is none or it is out of range.
 */
export function replicaIndex(env: Readonly<Record<string, string | undefined>>, count: number): number {
  for (const [name, base] of INDEX_SOURCES) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const index = /^\d{1,6}$/.test(raw) ? Number(raw) - base : NaN;
    if (!Number.isInteger(index) || index < 0 || index >= count) {
      throw new Error(
        `${name} ${raw.slice(0, 40)} is not a replica of 0..${count - 1}${base ? ` (counted from ${base})` : ''}`,
      );
    }
    return index;
  }
  throw new Error(
    'a runner replica needs its index: PERF_GATE_REPLICA, PERF_GATE_SWARM_SLOT and JOB_COMPLETION_INDEX are all unset',
  );
}

/** One replica's trial: what its `trial` event carries. */
export interface ReplicaTrial {
  measurement: TrialMeasurement;
  histogram: string;
  requests?: Array<{ name: string; measurement: TrialMeasurement; histogram: string }>;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/**
 * Several replicas' measurements of one trial as one. The replicas ran at once from a common start,
 * so the trial's duration is the longest window and rates are totals over it. The generator figures
 * are the worst replica's: the highest loop delay and busy share, and the busiest replica's CPU with
 * its own threads and cores (CPU is judged against the cores it had, so summing every replica's cores
 * would hide one saturated replica).
 */
export function mergeMeasurements(parts: readonly TrialMeasurement[], histograms: readonly string[]): ReplicaTrial {
  const [first] = parts;
  if (!first) throw new Error('no replica measurements to merge');
  const { statusCodes, errors, optional } = sumOutcomes(parts);
  const sum = (f: (m: TrialMeasurement) => number): number => parts.reduce((a, m) => a + f(m), 0);
  const max = (f: (m: TrialMeasurement) => number): number => parts.reduce((a, m) => Math.max(a, f(m)), 0);
  const durationMs = max((m) => m.durationMs);
  const seconds = durationMs / 1000;
  const responses = sum((m) => m.responses);
  // each replica's bytes/s is over its own window: back to bytes, then over the common one
  const bytes = sum((m) => (m.bytesPerSec * m.durationMs) / 1000);
  const merged = mergeHistograms(histograms);
  const busy = parts.some((m) => m.generator.busyPct !== undefined);
  const busiest = parts.reduce((a, m) => (m.generator.cpuPct > a.generator.cpuPct ? m : a), first);
  const measurement: TrialMeasurement = {
    trial: first.trial,
    durationMs,
    sent: sum((m) => m.sent),
    responses,
    successes: sum((m) => m.successes),
    failures: sum((m) => m.failures),
    statusCodes,
    errors,
    rps: seconds > 0 ? round2(sum(ratedResponses) / seconds) : 0,
    bytesPerSec: seconds > 0 ? Math.round(bytes / seconds) : 0,
    latency: summarize(merged),
    connectionCloses: sum((m) => m.connectionCloses),
    generator: {
      cpuPct: busiest.generator.cpuPct,
      eventLoopDelayP99Us: max((m) => m.generator.eventLoopDelayP99Us),
      eventLoopDelayMaxUs: max((m) => m.generator.eventLoopDelayMaxUs),
      ...(busy ? { busyPct: max((m) => m.generator.busyPct ?? 0) } : {}),
      ...(busiest.generator.threads !== undefined ? { threads: busiest.generator.threads } : {}),
      ...(busiest.generator.cores !== undefined ? { cores: busiest.generator.cores } : {}),
    },
  };
  Object.assign(measurement, optional);
  const histogram = encodeHistogram(merged);
  merged.destroy();
  return { measurement, histogram };
}

/**
 * The replicas' trials (in replica order) as one trial, mix entries matched by name, with where
 * each replica's measured stage started: the start skew is the spread of those times.
 */
export function mergeReplicaTrials(trials: readonly ReplicaTrial[], starts: readonly number[]): ReplicaTrial {
  const phase = mergeMeasurements(
    trials.map((t) => t.measurement),
    trials.map((t) => t.histogram),
  );
  const replicas: ReplicaStarts = {
    count: trials.length,
    startSkewMs: starts.length > 0 ? round2(Math.max(...starts) - Math.min(...starts)) : 0,
  };
  const out: ReplicaTrial = { ...phase, measurement: { ...phase.measurement, replicas } };
  const names = trials[0]?.requests?.map((r) => r.name);
  if (names) {
    out.requests = names.map((name) => {
      const parts = trials.map((t) => {
        const entry = t.requests?.find((r) => r.name === name);
        if (!entry) throw new Error(`a runner replica has no counts for mix entry ${name}`);
        return entry;
      });
      return {
        name,
        ...mergeMeasurements(
          parts.map((p) => p.measurement),
          parts.map((p) => p.histogram),
        ),
      };
    });
  }
  return out;
}

// Pure: merges the trials of a phase. Latency comes from the merged histogram, never from averaging
// percentiles; counts are summed; rates are totals over total measured time.

import { encodeHistogram, mergeHistograms, percentilesOf, summarize } from '../runner-kit/histogram.js';
import { combineUsage, type ResourceUsage } from '../stats/resources.js';
import {
  addCounts,
  ratedResponses,
  sumChecks,
  sumDelivery,
  sumOpenCounts,
  unionStatuses,
} from '../runner-kit/measurement.js';
import type { MergedPhase, TrialSummary } from './types.js';

/** The runner's CPU per response over `trials`, µs: its CPU over each trial's measured window (cpuPct
 * of one core × the window) summed, over the responses; undefined with no response to divide by, and
 * for trials of runner replicas (their merged trial keeps the busiest replica's CPU, not the sum). */
export function generatorCpuPerResponse(
  trials: readonly Pick<TrialSummary, 'generator' | 'durationMs' | 'responses' | 'replicas'>[],
): number | undefined {
  const responses = trials.reduce((a, t) => a + t.responses, 0);
  if (responses === 0 || trials.some((t) => t.replicas !== undefined)) return undefined;
  const cpuUs = trials.reduce((a, t) => a + (t.generator.cpuPct / 100) * t.durationMs * 1000, 0);
  return Math.round((cpuUs / responses) * 100) / 100;
}

/**
 * `percentiles`: the percentiles beyond the summary's fields to take from the merged histogram (p97.5);
 * by default those the trials have.
 */
export function mergeTrials(
  trials: readonly TrialSummary[],
  histograms: readonly string[],
  percentiles: readonly string[] = [...new Set(trials.flatMap((t) => Object.keys(t.latency.percentiles ?? {})))],
): MergedPhase {
  const merged = mergeHistograms(histograms);
  const latency = summarize(merged);
  if (percentiles.length > 0) latency.percentiles = percentilesOf(merged, percentiles);
  const durationMs = trials.reduce((a, t) => a + t.durationMs, 0);
  const statusCodes: Record<string, number> = {};
  const errors: Record<string, number> = {};
  let bytes = 0;
  for (const t of trials) {
    addCounts(statusCodes, t.statusCodes);
    addCounts(errors, t.errors);
    bytes += (t.bytesPerSec * t.durationMs) / 1000;
  }
  const sum = (f: (t: TrialSummary) => number) => trials.reduce((a, t) => a + f(t), 0);
  const responses = sum((t) => t.responses);
  const failures = sum((t) => t.failures);
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const seconds = durationMs / 1000;
  const services = new Set(trials.flatMap((t) => Object.keys(t.resources)));
  const resources: Record<string, ResourceUsage> = {};
  for (const s of [...services].sort()) {
    resources[s] = combineUsage(trials.map((t) => t.resources[s]).filter((u): u is ResourceUsage => u !== undefined));
  }
  const result: MergedPhase = {
    trials: trials.length,
    durationMs: Math.round(durationMs * 1000) / 1000,
    sent: sum((t) => t.sent),
    responses,
    successes: sum((t) => t.successes),
    failures,
    statusCodes,
    errors,
    errorRate: responses + errorCount > 0 ? (failures + errorCount) / (responses + errorCount) : 0,
    rps: seconds > 0 ? Math.round((sum(ratedResponses) / seconds) * 100) / 100 : 0,
    bytesPerSec: seconds > 0 ? Math.round(bytes / seconds) : 0,
    latency,
    connectionCloses: sum((t) => t.connectionCloses),
    resources,
    histogram: encodeHistogram(merged),
  };
  const checks = sumChecks(trials);
  if (checks) result.checks = checks;
  const expected = unionStatuses(trials);
  if (expected) result.expectedStatuses = expected;
  const open = sumOpenCounts(trials);
  if (open) result.open = open;
  const delivery = sumDelivery(trials);
  if (delivery) result.delivery = delivery;
  merged.destroy();
  return result;
}

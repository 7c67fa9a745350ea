// Pure: the value of each gated metric in a phase (merged) and per trial, and its direction.
import type { MetricName } from '../metrics/registry.js';
import type { Thresholds } from '../config-parts/types.js';
import { isPercentileMetric, type PercentileMetric, quantileOf } from '../metrics/percentile.js';
import type { LatencySummary } from '../runner-kit/histogram.js';
import { failureKinds } from '../runner-kit/measurement.js';
import { formatLatency } from '../common/units.js';
import type { TrialSummary } from '../results/types.js';
import { statusClass } from '../metrics/status.js';
import {
  isMetricName,
  type Measured,
  metricOf,
  percentileValue,
  SUMMARY_FIELDS,
  type Unmeasurable,
} from '../metrics/registry.js';

/** +1: worse when it goes up (latency, errors, memory, cpu); -1: worse when it goes down (throughput). */
export function direction(metric: MetricName): 1 | -1 {
  return isMetricName(metric) ? metricOf(metric).direction : 1;
}

const byQuantile = (a: PercentileMetric, b: PercentileMetric): number => Number(a.slice(1)) - Number(b.slice(1));

/** The percentiles threshold sets gate that no summary field holds (p97.5, p99.99), in order: the
 * host computes them from each trial's histogram and from the merged one. */
export function extraPercentiles(sets: readonly Thresholds[]): PercentileMetric[] {
  const names = new Set(
    sets
      .flatMap((t) => Object.keys(t))
      .filter((m): m is PercentileMetric => isPercentileMetric(m) && !SUMMARY_FIELDS.has(m)),
  );
  return [...names].sort(byQuantile);
}

/** The percentiles computed beyond the summary's fields in any of these summaries, in order: the
 * report's extra latency columns. */
export function percentilesIn(summaries: readonly LatencySummary[]): PercentileMetric[] {
  const names = new Set(summaries.flatMap((l) => Object.keys(l.percentiles ?? {})).filter(isPercentileMetric));
  return [...names].sort(byQuantile);
}

/** A percentile of a summary for a table (a summary field or a computed one): a dash where it has none. */
export function percentileCell(l: LatencySummary, metric: PercentileMetric): string {
  return formatLatency({ count: l.count, [metric]: percentileValue(l, metric) }, metric);
}

/** Whether a percentile metric has a value in every one of these summaries (a merged phase, its trials). */
export function lacksPercentile(summaries: ReadonlyArray<Pick<Measured, 'latency'>>, metric: MetricName): boolean {
  if (!isPercentileMetric(metric)) return false;
  return summaries.some((s) => percentileValue(s.latency, metric) === undefined);
}

/** The metric's value in its base unit: µs, per second, count, fraction, bytes, CPU % (100 = a core). A
 * percentile the summary lacks is 0, as every latency of a phase without successes is: `unmeasured`
 * says why. */
export function metricValue(m: Measured, metric: MetricName): number {
  return metricOf(metric).value(m);
}

/** Why a phase has no value for `metric` to compare, or undefined when it has one. */
export function unmeasured(m: Unmeasurable, metric: MetricName): string | undefined {
  return metricOf(metric).unmeasured(m);
}

/** Whether a metric (or a row's metric name: error-class) is a latency, in µs. */
export function isLatency(metric: string): boolean {
  return isMetricName(metric) && metricOf(metric).unit === 'latency';
}

export function trialValues(trials: readonly TrialSummary[], metric: MetricName): number[] {
  return trials.map((t) => metricValue(t, metric));
}

/** Status codes that failed, with their counts: not a success, and not one the checks list as one. */
export function failedStatuses(m: Pick<Measured, 'statusCodes' | 'expectedStatuses'>): Array<[string, number]> {
  const expected = new Set(m.expectedStatuses ?? []);
  return Object.entries(m.statusCodes).filter(
    ([code, n]) => n > 0 && statusClass(code) !== undefined && !expected.has(code),
  );
}

/** Error classes: failed status codes (HTTP, or gRPC status names), socket error kinds and failed checks. */
export function errorClasses(m: Pick<Measured, 'statusCodes' | 'errors' | 'checks' | 'expectedStatuses'>): string[] {
  const codes = failedStatuses(m).map(([code]) => statusClass(code) as string);
  const kinds = Object.entries(failureKinds(m))
    .filter(([, n]) => n > 0)
    .map(([kind]) => kind);
  return [...codes, ...kinds].sort();
}

/** Samples each trial needs beyond a gated percentile for the percentile to be compared: with fewer,
 * p99 of 75 responses is the slowest one, and its trial-to-trial swing looks like a change. */
export const MIN_TAIL_SAMPLES = 10;

/** Successful responses a trial needs for `metric` to be gated (0 for metrics that are not percentiles:
 * max and mean are no percentile of a tail): ceil(10 / (1 − q)), 1,000 for p99, 100,000 for p99.99. */
export function samplesNeeded(metric: MetricName): number {
  const q = quantileOf(metric);
  // 9 significant digits: 1 − 0.999 is not 0.001 in floating point, and p99.9 needs 10,000, not 10,001
  return q === undefined ? 0 : Math.ceil(Number((MIN_TAIL_SAMPLES / (1 - q)).toPrecision(9)));
}

/** Why `metric` cannot be gated on these trials (too few samples beyond it), or undefined. */
export function tailShortfall(
  trials: ReadonlyArray<Pick<TrialSummary, 'trial' | 'latency'>>,
  metric: MetricName,
  whose = 'this run',
): string | undefined {
  const need = samplesNeeded(metric);
  const short = trials.find((t) => t.latency.count < need);
  if (!short) return undefined;
  return `too few samples: ${metric} needs ≥ ${need} successful responses per trial (${MIN_TAIL_SAMPLES} beyond it); trial ${short.trial} of ${whose} had ${short.latency.count}`;
}

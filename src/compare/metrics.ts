// Pure: the value of each gated metric in a phase (merged) and per trial, and its direction.
import type { MetricName } from '../config/schema.js';
import { failureKinds } from '../protocol/measurement.js';
import type { MergedPhase, ResourceUsage, TrialSummary } from '../results/types.js';

/** perf-gate's own runner container is not part of the SUT's memory/cpu. */
export const RUNNER_KEY = 'perf-gate-runner';

/** +1: worse when it goes up (latency, errors, memory, cpu); -1: worse when it goes down (throughput). */
export function direction(metric: MetricName): 1 | -1 {
  return metric === 'rps' || metric === 'bytes-per-sec' || metric === 'delivery' ? -1 : 1;
}

type Measured = Pick<
  MergedPhase,
  | 'latency'
  | 'rps'
  | 'bytesPerSec'
  | 'failures'
  | 'errors'
  | 'checks'
  | 'expectedStatuses'
  | 'responses'
  | 'statusCodes'
  | 'resources'
  | 'delivery'
>;

function sutResources(resources: Record<string, ResourceUsage>): ResourceUsage[] {
  return Object.entries(resources)
    .filter(([k]) => k !== RUNNER_KEY)
    .map(([, v]) => v);
}

export function errorCount(m: Pick<Measured, 'failures' | 'errors'>): number {
  return m.failures + Object.values(m.errors).reduce((a, b) => a + b, 0);
}

/** The metric's value in its base unit: µs, per second, count, fraction, bytes, CPU % (100 = a core). */
export function metricValue(m: Measured, metric: MetricName): number {
  switch (metric) {
    case 'p50':
    case 'p90':
    case 'p95':
    case 'p99':
    case 'p99.9':
    case 'max':
    case 'mean':
      return m.latency[metric];
    case 'rps':
      return m.rps;
    case 'bytes-per-sec':
      return m.bytesPerSec;
    case 'errors':
      return errorCount(m);
    case 'error-rate': {
      const errors = errorCount(m);
      const socketErrors = errors - m.failures;
      const outcomes = m.responses + socketErrors;
      return outcomes > 0 ? errors / outcomes : 0;
    }
    case 'memory':
      return sutResources(m.resources).reduce((a, u) => a + u.memoryPeakBytes, 0);
    case 'cpu':
      return sutResources(m.resources).reduce((a, u) => a + u.cpuMeanPct, 0);
    case 'fds':
      return sutResources(m.resources).reduce((a, u) => a + (u.fdsPeak ?? 0), 0);
    case 'delivery':
      return m.delivery && m.delivery.sent > 0 ? m.delivery.delivered / m.delivery.sent : 0;
  }
}

/** Why a phase has no value for `metric` to compare, or undefined when it has one. */
export function unmeasured(
  m: Pick<Measured, 'latency' | 'resources' | 'delivery'>,
  metric: MetricName,
): string | undefined {
  if (isLatency(metric) && m.latency.count === 0) return 'no successful responses to take latency from';
  if (metric === 'delivery') {
    if (!m.delivery) return 'delivery is measured in WebSocket phases only';
    if (m.delivery.sent === 0) return 'no messages were sent';
  }
  if ((metric === 'memory' || metric === 'cpu') && sutResources(m.resources).some((u) => u.samples === 0)) {
    return 'no resource samples in the measured window (shorter than the sampling interval?)';
  }
  if (metric === 'fds') {
    const sut = sutResources(m.resources);
    if (sut.length === 0 || sut.some((u) => u.fdsPeak === undefined)) {
      return 'open file descriptors were not sampled (the Docker engine is remote, or its processes are not visible from here)';
    }
  }
  return undefined;
}

export function isLatency(metric: MetricName): boolean {
  return ['p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'mean'].includes(metric);
}

export function trialValues(trials: readonly TrialSummary[], metric: MetricName): number[] {
  return trials.map((t) => metricValue(t, metric));
}

/** The error class of a failed status: `HTTP 503`, or `gRPC UNAVAILABLE`; undefined for a success. */
export function statusClass(code: string): string | undefined {
  if (/^\d+$/.test(code)) return Number(code) >= 200 && Number(code) < 400 ? undefined : `HTTP ${code}`;
  return code === 'OK' ? undefined : `gRPC ${code}`;
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

/** The quantile of each tail percentile metric (max and mean are not percentiles of a tail). */
const QUANTILE: Partial<Record<MetricName, number>> = { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99, 'p99.9': 0.999 };

/** Samples each trial needs beyond a gated percentile for the percentile to be compared: with fewer,
 * p99 of 75 responses is the slowest one, and its trial-to-trial swing looks like a change. */
export const MIN_TAIL_SAMPLES = 10;

/** Successful responses a trial needs for `metric` to be gated (0 for metrics that are not percentiles). */
export function samplesNeeded(metric: MetricName): number {
  const q = QUANTILE[metric];
  return q === undefined ? 0 : Math.ceil(MIN_TAIL_SAMPLES / (1 - q) - 1e-9);
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

// Pure: the value of each gated metric in a phase (merged) and per trial, and its direction.
import type { MetricName } from '../config/schema.js';
import type { MergedPhase, ResourceUsage, TrialSummary } from '../results/types.js';

/** perf-gate's own runner container is not part of the SUT's memory/cpu. */
export const RUNNER_KEY = 'perf-gate-runner';

/** +1: worse when it goes up (latency, errors, memory, cpu); -1: worse when it goes down (throughput). */
export function direction(metric: MetricName): 1 | -1 {
  return metric === 'rps' || metric === 'bytes-per-sec' || metric === 'delivery' ? -1 : 1;
}

type Measured = Pick<
  MergedPhase,
  'latency' | 'rps' | 'bytesPerSec' | 'failures' | 'errors' | 'responses' | 'statusCodes' | 'resources' | 'delivery'
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

/** Error classes: failed status codes (HTTP, or gRPC status names) and socket error kinds. */
export function errorClasses(m: Pick<Measured, 'statusCodes' | 'errors'>): string[] {
  const codes = Object.entries(m.statusCodes)
    .filter(([, n]) => n > 0)
    .map(([code]) => statusClass(code))
    .filter((c): c is string => c !== undefined);
  const kinds = Object.entries(m.errors)
    .filter(([, n]) => n > 0)
    .map(([kind]) => kind);
  return [...codes, ...kinds].sort();
}

// Pure: every metric perf-gate gates, one definition each (issue 32): how a config writes its absolute
// values, which way is worse, where it is measured, how it is read from a merged phase or a trial, why
// a phase may have no value for it, and how a value reads in a table and in CSV. The schema, the
// threshold reader, the k6 sugar, the comparison and the renderers read these definitions; none lists
// metrics of its own. A new metric is one entry in METRICS, and the compiler asks it for every part.
// Any latency percentile (p97.5, p99.99) is a metric too, defined by `metricOf` from its name.
import { formatBytes, formatUs } from '../common/units.js';
import type { LatencySummary } from '../runner-kit/histogram.js';
import { PERCENTILES } from '../runner-kit/histogram.js';
import type { TrialMeasurement } from '../runner-kit/measurement.js';
import type { ResourceUsage } from '../stats/resources.js';
import { isPercentileMetric, type PercentileMetric } from './percentile.js';
import { clientMayMake } from './status.js';

/** How a config writes a metric's absolute values (floor, below, max, min). */
export type MetricUnit = 'latency' | 'rate' | 'count' | 'percent' | 'size';

/** What a metric is read from: a merged phase, or one trial of it (a results file's MergedPhase and
 * TrialSummary are both this shape: the measurement's counts and the SUT's resources). */
export type Measured = { resources: Record<string, ResourceUsage> } & Pick<
  TrialMeasurement,
  | 'latency'
  | 'rps'
  | 'bytesPerSec'
  | 'failures'
  | 'errors'
  | 'checks'
  | 'expectedStatuses'
  | 'responses'
  | 'statusCodes'
  | 'delivery'
>;

/** What tells whether a phase has a value for a metric. */
export type Unmeasurable = Pick<Measured, 'latency' | 'resources' | 'delivery'>;

export interface Metric {
  unit: MetricUnit;
  /** a config's value times this is the measured one (cpu: 150% is 150 percent points, 1.5 cores) */
  configScale: number;
  /** 1: worse upwards (latency, errors, memory, cpu); -1: worse downwards (throughput, delivery) */
  direction: 1 | -1;
  /** where it is measured: per request (a mix entry's thresholds may name it), per phase (WebSocket
   * delivery), or as the SUT's resources (sampled from its containers: not on a target or replicas) */
  scope: 'request' | 'phase' | 'resource';
  /** its value in its base unit: µs, per second, count, fraction, bytes, CPU % (100 = a core) */
  value(m: Measured): number;
  /** why a phase has no value for it to compare, or undefined when it has one */
  unmeasured(m: Unmeasurable): string | undefined;
  /** a value as a table cell and a reason show it */
  format(v: number): string;
  /** the CSV's unit column */
  csvUnit: string;
  /** a change of it is a scaling of its trials' values (latency, throughput, memory, CPU), so a run can
   * say the smallest change it could have confirmed (compare/power.ts); counts and shares of mostly
   * zero or one are not */
  scales: boolean;
  /** its value over what the service answered alone (failed responses: statuses, checks), leaving out
   * what the generator met (socket errors, timeouts, a gRPC deadline): a generator-bound phase is still
   * judged on it (compare.ts `answeredVerdict`). Counts of failures only. */
  answered?(m: Measured): number;
}

/** perf-gate's own runner container is not part of the SUT's memory/cpu. */
export const RUNNER_KEY = 'perf-gate-runner';

function sutResources(resources: Record<string, ResourceUsage>): ResourceUsage[] {
  return Object.entries(resources)
    .filter(([k]) => k !== RUNNER_KEY)
    .map(([, v]) => v);
}

/** The failed responses the service answered: all of them but the statuses a client makes itself when
 * it stops waiting (gRPC's DEADLINE_EXCEEDED), which a starved generator can make. */
export function answeredFailures(m: Pick<Measured, 'failures' | 'statusCodes'>): number {
  const own = Object.entries(m.statusCodes)
    .filter(([code]) => clientMayMake(code))
    .reduce((a, [, n]) => a + n, 0);
  return Math.max(0, m.failures - own);
}

export function errorCount(m: Pick<Measured, 'failures' | 'errors'>): number {
  return m.failures + Object.values(m.errors).reduce((a, b) => a + b, 0);
}

/** The summary fields that hold a percentile (p10 … p99.9). */
export const SUMMARY_FIELDS: ReadonlyMap<string, (typeof PERCENTILES)[number][0]> = new Map(
  PERCENTILES.map(([k]) => [k, k]),
);

/**
 * A percentile's latency, µs: a summary field (p75), or one the host computed for the thresholds
 * (`latency.percentiles`, p97.5). Undefined where the summary lacks it: a file written before the
 * percentile was gated (or, for p10/p25/p75, before they were recorded).
 */
export function percentileValue(l: LatencySummary, metric: PercentileMetric): number | undefined {
  const field = SUMMARY_FIELDS.get(metric);
  return field !== undefined ? l[field] : l.percentiles?.[metric];
}

/** A plain number as a table shows it: an integer as it is, else one decimal (none from 100). */
function formatNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return v.toFixed(v >= 100 ? 0 : 1);
}

const formatFraction = (v: number) => `${(v * 100).toFixed(v < 0.001 ? 3 : 2).replace(/\.?0+$/, '')}%`;

/** A latency: a summary field (max, mean, p50 …) or any percentile. */
function latency(read: (l: LatencySummary) => number | undefined, name: string): Metric {
  return {
    unit: 'latency',
    configScale: 1,
    direction: 1,
    scope: 'request',
    // a percentile the summary lacks is 0, as every latency of a phase without successes is: `unmeasured` says why
    value: (m) => read(m.latency) ?? 0,
    unmeasured: (m) => {
      if (m.latency.count === 0) return 'no successful responses to take latency from';
      if (isPercentileMetric(name) && read(m.latency) === undefined) {
        return `no ${name} in these results (written before ${name} was gated)`;
      }
      return undefined;
    },
    format: formatUs,
    csvUnit: 'us',
    scales: true,
  };
}

const field = (f: 'p50' | 'p90' | 'p95' | 'p99' | 'p99.9' | 'max' | 'mean') => latency((l) => l[f], f);

const measuredAlways = () => undefined;

/** A throughput per second (worse downwards), always measured. */
const rate = (read: (m: Measured) => number): Metric => ({
  unit: 'rate',
  configScale: 1,
  direction: -1,
  scope: 'request',
  value: read,
  unmeasured: measuredAlways,
  format: formatNumber,
  csvUnit: 'per-second',
  scales: true,
});

/** The SUT's resources summed over its containers (the runner's own left out). */
function resource(
  read: (u: ResourceUsage) => number,
  unmeasured: (sut: ResourceUsage[]) => string | undefined,
  unit: MetricUnit,
  o: { configScale?: number; format: (v: number) => string; csvUnit: string; scales: boolean },
): Metric {
  return {
    unit,
    configScale: o.configScale ?? 1,
    direction: 1,
    scope: 'resource',
    value: (m) => sutResources(m.resources).reduce((a, u) => a + read(u), 0),
    unmeasured: (m) => unmeasured(sutResources(m.resources)),
    format: o.format,
    csvUnit: o.csvUnit,
    scales: o.scales,
  };
}

/** CPU µs per successful response of `usage` (containers summed), at the phase's rate of successes. */
export function cpuPerSuccess(
  usage: readonly ResourceUsage[],
  m: Pick<Measured, 'rps' | 'responses' | 'failures'>,
): number {
  const successesPerSec = m.responses > 0 ? (m.rps * (m.responses - m.failures)) / m.responses : 0;
  if (!(successesPerSec > 0)) return 0;
  const cores = usage.reduce((a, u) => a + u.cpuMeanPct, 0) / 100;
  return (cores * 1e6) / successesPerSec;
}

const unsampled = (sut: ResourceUsage[]) =>
  sut.some((u) => u.samples === 0)
    ? 'no resource samples in the measured window (shorter than the sampling interval?)'
    : undefined;

/** Every metric of a fixed name, in the order the CSV lists them. */
export const METRICS = {
  p50: field('p50'),
  p90: field('p90'),
  p95: field('p95'),
  p99: field('p99'),
  'p99.9': field('p99.9'),
  max: field('max'),
  mean: field('mean'),
  rps: rate((m) => m.rps),
  'bytes-per-sec': rate((m) => m.bytesPerSec),
  errors: {
    unit: 'count',
    configScale: 1,
    direction: 1,
    scope: 'request',
    value: errorCount,
    answered: answeredFailures,
    unmeasured: measuredAlways,
    format: formatNumber,
    csvUnit: 'count',
    scales: false,
  },
  'error-rate': {
    unit: 'percent',
    configScale: 1,
    direction: 1,
    scope: 'request',
    value: (m) => {
      const errors = errorCount(m);
      const socketErrors = errors - m.failures;
      const outcomes = m.responses + socketErrors;
      return outcomes > 0 ? errors / outcomes : 0;
    },
    // the same denominator (every outcome), only the failed responses counted
    answered: (m) => {
      const outcomes = m.responses + errorCount(m) - m.failures;
      return outcomes > 0 ? answeredFailures(m) / outcomes : 0;
    },
    unmeasured: measuredAlways,
    format: formatFraction,
    csvUnit: 'ratio',
    scales: false,
  },
  memory: resource((u) => u.memoryPeakBytes, unsampled, 'size', {
    format: formatBytes,
    csvUnit: 'bytes',
    scales: true,
  }),
  // CPU is measured in percent points (100 = one core)
  cpu: resource((u) => u.cpuMeanPct, unsampled, 'percent', {
    configScale: 100,
    format: (v) => `${v.toFixed(1)}%`,
    csvUnit: 'percent-of-core',
    scales: true,
  }),
  /** the SUT's CPU time per successful response, µs: its services' mean CPU (in cores) over the
   * successful responses a second. The first fork in a diagnosis: more work per request, or waiting */
  'cpu-per-request': {
    unit: 'latency',
    configScale: 1,
    direction: 1,
    scope: 'resource',
    value: (m) => cpuPerSuccess(sutResources(m.resources), m),
    unmeasured: (m) =>
      unsampled(sutResources(m.resources)) ??
      (m.latency.count === 0 ? 'no successful responses to divide the CPU time by' : undefined),
    format: formatUs,
    csvUnit: 'us',
    scales: true,
  },
  /** open file descriptors of the SUT's processes, peak (sampled where the engine is local) */
  fds: resource(
    (u) => u.fdsPeak ?? 0,
    (sut) =>
      sut.length === 0 || sut.some((u) => u.fdsPeak === undefined)
        ? 'open file descriptors were not sampled (the Docker engine is remote, or its processes are not visible from here)'
        : undefined,
    'count',
    { format: formatNumber, csvUnit: 'count', scales: false },
  ),
  /** WebSocket phases: share of messages pushed to their recipient within the drain (worse downwards) */
  delivery: {
    unit: 'percent',
    configScale: 1,
    direction: -1,
    scope: 'phase',
    value: (m) => (m.delivery && m.delivery.sent > 0 ? m.delivery.delivered / m.delivery.sent : 0),
    unmeasured: (m) => {
      if (!m.delivery) return 'delivery is measured in WebSocket phases only';
      if (m.delivery.sent === 0) return 'no messages were sent';
      return undefined;
    },
    format: formatFraction,
    csvUnit: 'ratio',
    scales: false,
  },
} as const satisfies Record<string, Metric>;

/** The metrics of fixed names (METRICS). */
export type FixedMetric = keyof typeof METRICS;
/** A fixed metric, or any latency percentile (p97.5, p99.99: percentile.ts). */
export type MetricName = FixedMetric | PercentileMetric;
export const METRIC_NAMES = Object.keys(METRICS) as FixedMetric[];

export function isFixedMetric(name: string): name is FixedMetric {
  return Object.hasOwn(METRICS, name);
}

const percentiles = new Map<string, Metric>();

/** A metric's definition: a fixed one, or a percentile's (read from the summary or the computed ones). */
export function metricOf(name: MetricName): Metric {
  if (isFixedMetric(name)) return METRICS[name];
  let def = percentiles.get(name);
  if (!def) {
    def = latency((l) => percentileValue(l, name), name);
    percentiles.set(name, def);
  }
  return def;
}

/** A metric name in its one spelling: a fixed name, or a percentile as percentile.ts spells it. */
export function isMetricName(name: string): name is MetricName {
  return isFixedMetric(name) || isPercentileMetric(name);
}

/** The metrics of a scope, among the fixed ones. */
export function metricsOf(scope: Metric['scope']): FixedMetric[] {
  return METRIC_NAMES.filter((m) => METRICS[m].scope === scope);
}

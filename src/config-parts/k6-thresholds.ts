// Pure: k6-style threshold strings as sugar for perf-gate's threshold rules (issue 21). A k6 user
// can write, under a metric, the expression k6 would take (`p95: "p(95) < 200ms"`, or just
// `p95: "< 200ms"`), or paste k6's own metrics with their lists of expressions:
//   http_req_duration: ['p(95)<200', 'avg<100']  → p95 below 200ms, mean below 100ms
//   http_req_failed:   ['rate<0.01']             → error-rate max 1%
//   http_reqs:         ['rate>100']              → rps min 100
// An upper bound (`<`, `<=`) is `below`, a lower bound (`>`, `>=`) is `min`; both are absolute
// limits, checked with or without a baseline, as in k6. A bare number is milliseconds for a latency
// (k6's unit for http_req_duration) and a fraction for a rate (0.01 = 1%).
import { parsePercentileKey, PERCENTILE_SHAPE } from '../metrics/percentile.js';
import { isMetricName, metricOf as definitionOf, type MetricName } from '../metrics/registry.js';
import { metricUnit, type RawThreshold, type RawThresholds, type RawThresholdsInput } from './schema-parts.js';

/** k6 metrics perf-gate can read thresholds of, and the metric their `rate` means. */
export const K6_METRICS = {
  http_req_duration: undefined,
  http_req_failed: 'error-rate',
  http_reqs: 'rps',
} as const;
export type K6Metric = keyof typeof K6_METRICS;

/** `[aggregation] op value`: `p(95) < 200`, `avg<100ms`, `rate>=0.99`, `< 200ms`. */
export const K6_EXPRESSION =
  /^\s*(?:(p\(\s*\d+(?:\.\d+)?\s*\)|avg|med|max|min|rate|count)\s*)?(<=|>=|<|>)\s*([0-9.]+\s*[a-zµ%]*)\s*$/i;

export type ThresholdRule = { metric: MetricName; below?: string; min?: string };

/** The perf-gate metric a k6 aggregation names, under a metric key or a k6 metric. */
function metricOf(aggregation: string | undefined, under: MetricName | K6Metric): MetricName | string {
  if (aggregation === undefined) return under in K6_METRICS ? `${under} needs an aggregation, like p(95)` : under;
  const agg = aggregation.replace(/\s+/g, '').toLowerCase();
  if ((under === 'http_req_failed' || under === 'http_reqs') && agg !== 'rate') {
    return `${under} takes rate, like "rate${under === 'http_reqs' ? '>100' : '<0.01'}"`;
  }
  const percentile = /^p\((\d+(?:\.\d+)?)\)$/.exec(agg)?.[1];
  if (percentile !== undefined) {
    // any percentile, spelled as its key is (p(97.50) is p97.5)
    const parsed = parsePercentileKey(`p${percentile}`);
    if ('problem' in parsed) return `${aggregation}: ${parsed.problem}`;
  }
  const named: string | undefined = percentile
    ? `p${Number(percentile)}`
    : agg === 'avg'
      ? 'mean'
      : agg === 'med'
        ? 'p50'
        : agg === 'max'
          ? 'max'
          : agg === 'rate' && under in K6_METRICS
            ? (K6_METRICS[under as K6Metric] ?? 'rate')
            : agg === 'rate' && (under === 'error-rate' || under === 'rps')
              ? under
              : agg;
  if (!isMetricName(named)) {
    return `${aggregation} is not a metric perf-gate measures (p(N) for any percentile 0 < N < 100, avg, med, max; rate of http_req_failed or http_reqs)`;
  }
  if (!(under in K6_METRICS) && named !== under) return `${aggregation} is not ${under}`;
  if (under === 'http_req_duration' && metricUnit(named) !== 'latency') {
    return `${aggregation} is not a latency of http_req_duration`;
  }
  return named as MetricName;
}

/** A value in perf-gate's units: a bare number is ms for a latency and a fraction for a rate. */
function valueOf(metric: MetricName, text: string): string {
  const v = text.replace(/\s+/g, '');
  if (!/^[0-9.]+$/.test(v)) return v;
  if (metricUnit(metric) === 'latency') return `${v}ms`;
  // k6's rates are fractions (0.01 = 1%); cpu has no k6 form, and says its unit (150%)
  const def = definitionOf(metric);
  if (def.unit === 'percent' && def.configScale === 1) return `${Number((Number(v) * 100).toPrecision(12))}%`;
  return v;
}

/** A threshold key as a metric name: a percentile in its one spelling (p97.50 → p97.5, p99.90 → p99.9);
 * any other key as it is. */
export function metricKey(key: string): string {
  if (!PERCENTILE_SHAPE.test(key)) return key;
  const parsed = parsePercentileKey(key);
  return 'name' in parsed ? parsed.name : key;
}

/** One expression under `under` (a perf-gate metric or a k6 metric): the rule, or why not. */
export function k6Rule(under: MetricName | K6Metric, expression: string): ThresholdRule | string {
  const m = K6_EXPRESSION.exec(expression);
  if (!m) return `"${expression}" is not a threshold expression like "p(95) < 200ms" or "< 200ms"`;
  const [, aggregation, op, raw] = m as unknown as [string, string | undefined, string, string];
  const metric = metricOf(aggregation, under);
  if (!isMetricName(metric)) return metric;
  const name = metric;
  const upper = op.startsWith('<');
  const worseDownwards = definitionOf(name).direction < 0;
  if (upper && worseDownwards) return `${name} gets worse downwards: give a lower bound (> or >=)`;
  if (!upper && !worseDownwards) return `${name} gets worse upwards: give an upper bound (< or <=)`;
  const value = valueOf(name, raw);
  return upper ? { metric: name, below: value } : { metric: name, min: value };
}

/**
 * Thresholds as written (rules, k6 expressions under a metric, k6's own metrics with lists) as rules
 * only. A k6 expression's limit joins the metric's rules (`below` or `min`); one that cannot mean
 * anything here is a problem at its key.
 */
export function thresholdRules(
  raw: RawThresholdsInput | undefined,
  path: string,
  problems: string[],
): RawThresholds | undefined {
  if (raw === undefined) return undefined;
  const out: RawThresholds = {};
  const add = (rule: ThresholdRule | string, at: string): void => {
    if (typeof rule === 'string') {
      problems.push(`${at}: ${rule}`);
      return;
    }
    const { metric, below, min } = rule;
    const rules: RawThreshold = { ...out[metric] };
    if (below !== undefined) {
      // below and max are one limit, the stricter of the two: a second upper bound takes max
      if (rules.below === undefined) rules.below = below;
      else if (rules.max === undefined) rules.max = below;
      else return void problems.push(`${at}: ${metric} has two upper limits already (below and max)`);
    }
    if (min !== undefined) {
      if (rules.min !== undefined) return void problems.push(`${at}: ${metric} has a lower limit (min) already`);
      rules.min = min;
    }
    out[metric] = rules;
  };
  // the rules first, so an expression's limit joins them whatever the key order
  const entries = Object.entries(raw).sort(
    ([, a], [, b]) =>
      Number(typeof a !== 'object' || Array.isArray(a)) - Number(typeof b !== 'object' || Array.isArray(b)),
  );
  // one percentile has one name: p97.5 and p97.50 in one mapping are one threshold given twice
  const written = new Map<string, string>();
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    if (key in K6_METRICS) {
      (value as string[]).forEach((e, i) => add(k6Rule(key as K6Metric, e), `${path}.${key}[${i}]`));
      continue;
    }
    const metric = metricKey(key) as MetricName;
    const twin = written.get(metric);
    if (twin !== undefined) {
      problems.push(
        `${path}.${key}: the same percentile as ${twin}${twin === metric ? '' : ` (${metric})`}; give it once`,
      );
      continue;
    }
    written.set(metric, key);
    if (typeof value === 'string') add(k6Rule(metric, value), `${path}.${key}`);
    else out[metric] = { ...out[metric], ...(value as RawThreshold) };
  }
  return out;
}

// The parts of the perf-gate.yml schema every protocol's schema shares (src/protocols/<kind>/schema.ts)
// and the config's own (../config/schema.ts): units, bounds, names, thresholds.
import { z } from 'zod';
import { DURATION_PATTERN, parseDurationMs, PERCENT_PATTERN } from '../common/units.js';
import { parsePercentileKey, PERCENTILE_SHAPE } from '../metrics/percentile.js';
import {
  type FixedMetric,
  METRIC_NAMES,
  type MetricName,
  metricOf,
  METRICS,
  metricsOf,
  type MetricUnit,
} from '../metrics/registry.js';

export const duration = z
  .string({ error: 'must be a duration like 500ms, 30s, 2m or 1m30s' })
  .regex(new RegExp(DURATION_PATTERN), { error: 'must be a duration like 500ms, 30s, 2m or 1m30s' });
/** What to write for a percentage given as a bare number (25, or 0.25 meant as a fraction). */
export function percentHint(v: number): string {
  return v > 0 && v < 1
    ? `${v} has no unit; write ${+(v * 100).toFixed(6)}% (or ${v}% if you meant a fraction of a percent)`
    : `${v} has no unit; write ${v}%`;
}
/** What to write for a bare number given in a unit that needs one (a percentage, a duration, a size);
 * undefined where a bare number is right (a count, a rate). */
export function bareNumberHint(unit: MetricUnit, v: number): string | undefined {
  if (unit === 'percent') return percentHint(v);
  if (unit === 'latency') return `${v} has no unit; write a duration like ${v}ms or ${v}us`;
  if (unit === 'size') return `${v} has no unit; write a size like ${v}MiB`;
  return undefined;
}
export const percent = z
  .string({
    error: (issue) => (typeof issue.input === 'number' ? percentHint(issue.input) : 'must be a percentage like 10%'),
  })
  .regex(new RegExp(PERCENT_PATTERN), { error: 'must be a percentage like 10%' });
export const positiveInt = z
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .positive({ error: 'must be a positive integer' });
export const name = z
  .string({ error: 'must be a name of [a-z0-9_-]+' })
  .regex(/^[a-z0-9_-]+$/, { error: 'must be a name of [a-z0-9_-]+' })
  .max(64, { error: 'must be at most 64 characters (it names a file)' });

/**
 * The bounds of every number a run uses (docs/config.md, "Bounds"): what a real CI run could use, and never
 * more than a machine can hold or a run can finish.
 */
export const BOUNDS = {
  connections: 10_000,
  requests: 100_000_000,
  rate: 1_000_000,
  maxInFlight: 100_000,
  pipelining: 64,
  streams: 1000,
  peers: 10_000,
  messages: 1_000_000,
  cpus: 256,
  replicas: 64,
} as const;

/** An integer from `min` to `max`, one message for every way it can be wrong (`or`: what else it may be). */
export function intIn(min: number, max: number, or = '') {
  const error = `must be an integer from ${min} to ${max.toLocaleString('en-US')}${or}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A number above 0 and at most `max`. */
export function numberUpTo(max: number) {
  const error = `must be a number above 0 and at most ${max.toLocaleString('en-US')}`;
  return z.number({ error }).positive({ error }).max(max, { error });
}

/** A duration from `minMs` to `maxMs`, said as `range` ("100ms to 24h"). */
export function durationIn(minMs: number, maxMs: number, range: string) {
  return duration.refine(
    (text) => {
      const ms = parseDurationMs(text);
      // not a duration at all is the pattern's to say
      return ms === undefined || (ms >= minMs && ms <= maxMs);
    },
    { error: `must be a duration from ${range}` },
  );
}

export const HOUR = 3_600_000;
export const phaseDuration = durationIn(100, 24 * HOUR, '100ms to 24h');
export const warmup = durationIn(0, HOUR, '0s to 1h');
export const warmupLater = z
  .enum(['full', 'settled'], { error: 'must be full or settled' })
  .describe(
    "settled (default): a closed-loop phase's later trials warm up for twice the time its first trial's warm-up took to reach 80% of its measured throughput (at least 500ms, at most `warmup`; full when it did not settle, or, in a gate run, when the baseline's later trials had the full warm-up); full: every trial warms up for `warmup`",
  );
export const acceptFailing = z
  .boolean({ error: 'must be true or false' })
  .describe(
    'true: an update records baselines even where a flow step, mix entry or phase failed on nearly every request (95% or more); false (default): such an update records nothing and exits 3, naming them',
  );
export const requestTimeout = durationIn(1, 10 * 60_000, '1ms to 10m').describe(
  'a request (gRPC call, WebSocket reply) unanswered this long fails with error timeout; default 10s',
);

/** A URL whose port, when given, is a real one (1–65535). */
export function withPort<T extends z.ZodString>(url: T, error: string) {
  return url.refine(
    (text) => {
      const port = /^[a-z]+:\/\/(?:[^@/\s]*@)?(?:\[[^\]]*\]|[^:/\s]*)(?::(\d*))?/.exec(text)?.[1];
      return port === undefined || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535);
    },
    { error },
  );
}
/** An http(s) URL as a config may give one (a host, then an optional path), and its port's refusal. */
export const HTTP_URL = /^https?:\/\/[^\s/]+(\/\S*)?$/;
export const HTTP_URL_PORT = 'must be an http:// or https:// URL with a port from 1 to 65535';
export const httpUrl = withPort(
  z
    .string({ error: 'must be an http:// or https:// URL' })
    .regex(HTTP_URL, { error: 'must be an http:// or https:// URL' }),
  HTTP_URL_PORT,
);

/** Metric names a threshold may be given for, and the unit of their absolute values (from METRICS). */
export const METRIC_UNITS = Object.fromEntries(METRIC_NAMES.map((m) => [m, METRICS[m].unit])) as {
  readonly [M in FixedMetric]: (typeof METRICS)[M]['unit'];
};
/** The unit of a metric's absolute values: a percentile's is a latency. */
export function metricUnit(metric: MetricName): MetricUnit {
  return metricOf(metric).unit;
}
/** SUT resources are sampled per phase, not per request: a mix entry's thresholds cannot name them. */
export const RESOURCE_METRICS: readonly MetricName[] = metricsOf('resource');

export const absolute = z.union([z.string(), z.number()], { error: 'must be a number or a value with a unit' });

export const thresholdRules = z.strictObject({
  regress: percent.optional().describe('relative change beyond which a metric is outside the band'),
  floor: absolute.optional().describe('absolute change below which a metric stays inside the band'),
  below: absolute.optional().describe('absolute upper limit (an SLO), checked with or without a baseline'),
  max: absolute.optional().describe('absolute upper limit, checked with or without a baseline'),
  min: absolute
    .optional()
    .describe('absolute lower limit for metrics that get worse downwards (rps, bytes-per-sec, delivery)'),
  alpha: z
    .number({ error: 'must be a number between 0 and 1' })
    .gt(0, { error: 'must be a number between 0 and 1' })
    .lt(1, { error: 'must be a number between 0 and 1' })
    .optional()
    .describe(
      "significance level of the confirmation test, spent over at most two looks: under gate.run-alpha (the default) the row's phase's share of it, or this where stricter; with gate.run-alpha: off, this (default 0.01 against baselines, 0.05 in A/B)",
    ),
});

export const THRESHOLD_FORMS =
  'must be a mapping of rules, like { regress: 10%, floor: 1ms, below: 50ms }, or a k6-style expression like "p(95) < 200ms"';
/** Rules, or k6's expression for them (k6-thresholds.ts reads it): "p(95) < 200ms", "< 200ms". */
export const threshold = z.union(
  [thresholdRules, z.string().describe('a k6-style limit: "p(95) < 200ms", "< 200ms", "rate < 0.01", "> 100" (rps)')],
  { error: THRESHOLD_FORMS },
);

/** k6's own metrics with their lists of expressions, as a k6 script has them. */
export const k6Metrics = {
  http_req_duration: z
    .array(z.string(), { error: 'must be a list of k6 expressions, like ["p(95)<200", "avg<100"]' })
    .optional()
    .describe('k6: latency limits, ["p(95)<200", "avg<100"] (bare numbers are ms)'),
  http_req_failed: z
    .array(z.string(), { error: 'must be a list of k6 expressions, like ["rate<0.01"]' })
    .optional()
    .describe('k6: the error rate, ["rate<0.01"]'),
  http_reqs: z
    .array(z.string(), { error: 'must be a list of k6 expressions, like ["rate>100"]' })
    .optional()
    .describe('k6: throughput, ["rate>100"] (requests per second)'),
};

/**
 * A thresholds mapping: the named metrics, and any percentile (p97.5, p99.99) as a key of its own. A
 * key that is neither is an unknown key; a percentile-shaped one out of range (p100, p99.9999) is
 * refused at its key. The JSON Schema for editors has the percentiles as patternProperties.
 */
export function thresholdsOf<T extends z.ZodRawShape>(shape: T) {
  const schema = z.preprocess((input, ctx) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
    const kept: Record<string, unknown> = {};
    const unknown: string[] = [];
    for (const [key, value] of Object.entries(input)) {
      if (key in shape) kept[key] = value;
      else if (!PERCENTILE_SHAPE.test(key)) unknown.push(key);
      else {
        const parsed = parsePercentileKey(key);
        if ('problem' in parsed) ctx.issues.push({ code: 'custom', message: parsed.problem, path: [key], input });
        else kept[key] = value;
      }
    }
    if (unknown.length > 0)
      ctx.issues.push({ code: 'unrecognized_keys', keys: unknown, path: [], input: input as Record<string, unknown> });
    return kept;
  }, z.object(shape).catchall(threshold));
  percentileSchemas.add(schema);
  return schema;
}
/** The thresholds schemas, for the JSON Schema's patternProperties (configJsonSchema). */
export const percentileSchemas = new Set<unknown>();

export const thresholds = thresholdsOf({
  ...(Object.fromEntries(METRIC_NAMES.map((m) => [m, threshold.optional()])) as Record<
    FixedMetric,
    z.ZodOptional<typeof threshold>
  >),
  ...k6Metrics,
});

/** A request body or a message template: text as written, or an object/array sent as JSON. */
export const textOrJson = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], {
  error: 'must be a string, or an object/array sent as JSON',
});

export const entryThresholds = thresholdsOf({
  ...(Object.fromEntries(metricsOf('request').map((m) => [m, threshold.optional()])) as Record<
    FixedMetric,
    z.ZodOptional<typeof threshold>
  >),
  ...k6Metrics,
}).optional();

export type RawThreshold = z.infer<typeof thresholdRules>;
/** Thresholds as written: rules or k6 expressions, and k6's own metrics (k6-thresholds.ts). */
export type RawThresholdsInput = z.infer<typeof thresholds>;
/** Thresholds as rules, the sugar read. */
export type RawThresholds = Partial<Record<MetricName, RawThreshold>>;

// Host side of the protocol: every event line from the runner container is checked against these
// schemas before the host acts on it (the runner image is the user's, and so may be its script). A
// line with the marker that does not fit is a clear failure, never a half-read measurement.
import { z } from 'zod';
import { EVENT_MARKER, MAX_WARMUP_WINDOWS, type RunnerEvent } from './plan.js';
import { PROFILE_MAX_BYTES } from './profile.js';
import { TIMELINE_WINDOWS } from './timeline.js';

const count = z.number().int().nonnegative();
const nonneg = z.number().nonnegative();
const counts = z.record(z.string(), count);

export const latencySummarySchema = z.object({
  count,
  min: nonneg,
  mean: nonneg,
  // absent in files written before they existed
  p10: nonneg.optional(),
  p25: nonneg.optional(),
  p50: nonneg,
  p75: nonneg.optional(),
  p90: nonneg,
  p95: nonneg,
  p99: nonneg,
  'p99.9': nonneg,
  max: nonneg,
  // further percentiles the thresholds gate (p97.5), computed by the host; absent in older files
  percentiles: z.record(z.string(), nonneg).optional(),
});

export const trialMeasurementSchema = z.object({
  trial: count,
  durationMs: nonneg,
  sent: count,
  responses: count,
  successes: count,
  failures: count,
  statusCodes: counts,
  errors: counts,
  checks: counts.optional(),
  expectedStatuses: z.array(z.string()).optional(),
  rps: nonneg,
  bytesPerSec: nonneg,
  latency: latencySummarySchema,
  connectionCloses: count,
  generator: z.object({
    cpuPct: nonneg,
    eventLoopDelayP99Us: nonneg,
    eventLoopDelayMaxUs: nonneg,
    busyPct: nonneg.optional(),
    threads: count.optional(),
    cores: count.optional(),
    hook: z.object({ calls: count, us: nonneg }).optional(),
  }),
  open: z
    .object({
      scheduled: count,
      late: count,
      lateService: count,
      lateGenerator: count,
      unfinished: count,
      maxSendDelayUs: nonneg,
      delayUs: z.object({ service: nonneg, timer: nonneg, generator: nonneg }),
    })
    .optional(),
  delivery: z.object({ sent: count, delivered: count }).optional(),
  replicas: z.object({ count, startSkewMs: nonneg }).optional(),
  timeline: z
    .object({
      windowMs: nonneg,
      count: z.array(count).max(TIMELINE_WINDOWS),
      p50: z.array(nonneg).max(TIMELINE_WINDOWS),
      p99: z.array(nonneg).max(TIMELINE_WINDOWS),
    })
    .refine((t) => t.p50.length === t.count.length && t.p99.length === t.count.length, {
      message: 'a timeline has one count, p50 and p99 per window',
    })
    .optional(),
});

const stage = z.enum(['warmup', 'measure']);
const names = { scenario: z.string(), phase: z.string() };

export const runnerEventSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), node: z.string(), replica: count.optional(), host: z.string().optional() }),
  z.object({
    t: z.literal('probe'),
    url: z.string(),
    ok: z.boolean(),
    status: z.number().int().optional(),
    error: z.string().optional(),
    elapsedMs: nonneg,
  }),
  z.object({ t: z.literal('ready') }),
  z.object({ t: z.literal('not-ready'), url: z.string(), error: z.string(), timeoutMs: nonneg }),
  z.object({
    t: z.literal('setup'),
    steps: z.array(z.object({ name: z.string(), status: z.number().int(), elapsedMs: nonneg })),
    values: z.array(z.string()),
  }),
  // the runner bounds its message; a longer one is not the runner's
  z.object({ t: z.literal('setup-failed'), step: z.string().max(200), message: z.string().max(2000) }),
  z.object({
    t: z.literal('stage'),
    ...names,
    trial: count,
    trials: count,
    stage,
    totalMs: nonneg.optional(),
    totalRequests: count.optional(),
    atEpochMs: nonneg.optional(),
  }),
  z.object({
    t: z.literal('progress'),
    ...names,
    trial: count,
    stage,
    elapsedMs: nonneg,
    responses: count,
    rps: nonneg,
  }),
  z.object({
    t: z.literal('trial'),
    ...names,
    measurement: trialMeasurementSchema,
    histogram: z.string(),
    requests: z
      .array(z.object({ name: z.string(), measurement: trialMeasurementSchema, histogram: z.string() }))
      .optional(),
    warmup: z.object({ windowMs: count.min(1), rps: z.array(nonneg).max(MAX_WARMUP_WINDOWS) }).optional(),
    profiled: z.literal(true).optional(),
  }),
  z.object({
    t: z.literal('profile'),
    ...names,
    service: z.string().max(200),
    // base64 of at most PROFILE_MAX_BYTES (4 characters per 3 bytes), or why there is none
    data: z
      .string()
      .max(Math.ceil(PROFILE_MAX_BYTES / 3) * 4)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/)
      .optional(),
    error: z.string().max(2000).optional(),
  }),
  z.object({ t: z.literal('warning'), message: z.string() }),
  z.object({
    t: z.literal('survey'),
    // what init --probe heard: kinds, statuses and paths only, each bounded (the SUT chose them)
    finding: z.object({
      host: z.string().max(253),
      port: z.number().int().min(1).max(65535),
      kind: z.enum(['http', 'grpc', 'tcp', 'closed']),
      status: z.number().int().min(100).max(999).optional(),
      hostHeader: z.string().max(253).optional(),
      paths: z
        .array(z.object({ path: z.string().max(200), status: z.number().int().min(100).max(999) }))
        .max(16)
        .optional(),
      openapi: z.string().max(200).optional(),
      gets: z.array(z.string().max(2000)).max(10).optional(),
      health: z.string().max(64).optional(),
      banner: z.boolean().optional(),
      error: z.string().max(500).optional(),
    }),
  }),
  z.object({ t: z.literal('done') }),
  z.object({ t: z.literal('fatal'), message: z.string() }),
]);

/** The first problem in zod's words: "measurement.latency.p50: expected number". */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map(String).join('.');
  return `${path ? `${path}: ` : ''}${issue.message}`;
}

/** One line of runner stdout: undefined when it is not an event line (a log line); a `fatal` event
 * naming the problem when it carries the marker but is not a valid event. */
export function parseEventLine(line: string): RunnerEvent | undefined {
  if (!line.startsWith(EVENT_MARKER)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(line.slice(EVENT_MARKER.length));
  } catch {
    return { t: 'fatal', message: `the runner wrote an event that is not JSON: ${line.slice(0, 120)}` };
  }
  const parsed = runnerEventSchema.safeParse(data);
  if (!parsed.success) {
    const kind = (data as { t?: unknown } | null)?.t;
    return {
      t: 'fatal',
      message: `the runner wrote an invalid ${typeof kind === 'string' ? `"${kind}" ` : ''}event (${firstIssue(parsed.error)}): is runner.image running a perf-gate runner of another version?`,
    };
  }
  return parsed.data as RunnerEvent;
}

// Host side: the shape of results and baseline files, checked when one is read back. Report mode
// reads a results file a fork's run produced, so every value a renderer touches is checked for its
// type before it reaches Markdown. Unknown keys are kept (newer files); missing optional ones are fine.
import { z } from 'zod';
import { firstIssue, latencySummarySchema, trialMeasurementSchema } from '../runner-kit/validate.js';
import { BASELINE_PROFILE_FILE } from '../profiles/record.js';
import { BASELINE_SCHEMA, RESULTS_SCHEMA } from './types.js';

const nonneg = z.number().nonnegative();
const count = z.number().int().nonnegative();

const resourceUsage = z.object({
  cpuMeanPct: nonneg,
  cpuPeakPct: nonneg,
  memoryPeakBytes: nonneg,
  rxBytes: nonneg,
  txBytes: nonneg,
  samples: count,
  fdsPeak: count.optional(),
});
const resources = z.record(z.string(), resourceUsage);

const trialSummary = trialMeasurementSchema.extend({
  resources,
  machine: z.object({ busyPct: nonneg, stealPct: nonneg, othersPct: nonneg, peakPct: nonneg.optional() }).optional(),
  warmupMs: count.optional(),
  busy: z.literal(true).optional(),
});

const phaseResult = z.looseObject({
  name: z.string(),
  request: z.string().optional(),
  kind: z.enum(['closed', 'open', 'ws']),
  params: z.looseObject({
    connections: count.optional(),
    durationMs: nonneg.optional(),
    requests: count.optional(),
    rate: nonneg.optional(),
    maxInFlight: count.optional(),
    peers: count.optional(),
    messages: count.optional(),
    pipelining: count.optional(),
    streams: count.optional(),
    ramp: z
      .looseObject({
        from: nonneg,
        stages: z.array(z.looseObject({ durationMs: nonneg, to: nonneg })),
      })
      .optional(),
  }),
  warmupMs: nonneg,
  trials: z.array(trialSummary),
  discarded: z.array(trialSummary).optional(),
  merged: trialMeasurementSchema
    .omit({ trial: true, generator: true })
    .extend({ trials: count, errorRate: nonneg, resources, histogram: z.string() })
    .loose(),
  flags: z.array(z.string()),
  confirm: z
    .object({ first: count.min(1), cap: count, stopped: count.min(1).optional() })
    .refine((c) => c.cap >= c.first, { error: 'cap must be at least first' })
    .refine((c) => c.stopped === undefined || c.stopped < c.first, { error: 'stopped must be below first' })
    .optional(),
  warmupLater: z.object({ settledMs: count.optional(), laterMs: count.optional() }).optional(),
  generatorCpuUs: nonneg.optional(),
});

const scenarioResult = z.looseObject({
  name: z.string(),
  scenarioHash: z.string(),
  family: z.object({ alpha: z.number().gt(0).max(0.5), members: count.min(1) }).optional(),
  phases: z.array(phaseResult),
  thresholds: z.record(z.string(), z.looseObject({})).optional(),
  requestThresholds: z.record(z.string(), z.record(z.string(), z.looseObject({}))).optional(),
  baselineLatency: z.record(z.string(), latencySummarySchema).optional(),
});

const busyRecord = z.object({
  othersPct: nonneg,
  stealOnly: z.literal(true).optional(),
  repeats: count,
  repeated: count,
});

const images = z.record(z.string(), z.object({ image: z.string(), id: z.string(), digest: z.string().nullable() }));

const provenance = z.looseObject({
  time: z.string(),
  commit: z.string().nullable(),
  ref: z.string().nullable(),
  runner: z.looseObject({
    os: z.string(),
    cpuModel: z.string(),
    cores: count,
    memoryBytes: nonneg,
    calibrationUs: nonneg.optional(),
  }),
  docker: z.looseObject({ version: z.string().nullable(), apiVersion: z.string().nullable() }),
  runnerImage: z.string(),
  sut: z.looseObject({ images }),
});

const comparison = z.looseObject({
  scenario: z.string(),
  phase: z.string(),
  metric: z.string(),
  baseline: z.number().nullable(),
  current: z.number(),
  delta: z.number().nullable(),
  band: z.string(),
  // files from before confirmation by more trials said `unconfirmed` for what is now `inconclusive`
  result: z.enum([
    'pass',
    'regression',
    'improvement',
    'inconclusive',
    'unconfirmed',
    'no-baseline',
    'invalid',
    'accepted',
  ]),
  pValue: z.number().optional(),
  interval: z.tuple([z.number(), z.number()]).optional(),
  confidence: z.number().optional(),
  pairs: count.optional(),
  reason: z.string().optional(),
  extraTrials: count.optional(),
  detectable: nonneg.nullable().optional(),
  blind: z.boolean().optional(),
  accepted: z.object({ by: z.string(), reason: z.string(), was: z.enum(['regression', 'inconclusive']) }).optional(),
  informational: z.boolean().optional(),
});

export const resultsFileSchema = z.looseObject({
  schema: z.literal(RESULTS_SCHEMA),
  runId: z.string(),
  mode: z.string(),
  config: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  provenance,
  scenarios: z.array(scenarioResult),
  comparisons: z.array(comparison),
  scenarioStatus: z
    .array(
      z.looseObject({
        scenario: z.string(),
        baseline: z.enum(['present', 'missing', 'stale']),
        baselineTime: z.string().optional(),
        baselineCommit: z.string().nullable().optional(),
        machine: z.string().optional(),
      }),
    )
    .optional(),
  ab: z
    .looseObject({
      baseRef: z.string(),
      baseCommit: z.string(),
      headCommit: z.string().nullable(),
      pairs: count,
      order: z.enum(['ABBA', 'random']),
      seed: count.optional(),
      orders: z
        .array(z.object({ scenario: z.string(), phase: z.string(), order: z.array(z.enum(['AB', 'BA'])) }))
        .optional(),
      baseImages: images,
      base: z.array(scenarioResult),
      notes: z.array(z.string()),
      sideBySide: z.object({ head: z.array(z.string()), base: z.array(z.string()) }).optional(),
    })
    .optional(),
  baseline: z.array(scenarioResult).optional(),
  unswept: z.array(z.string()).optional(),
  interleaved: z
    .object({
      seed: z
        .number()
        .int()
        .min(0)
        .max(2 ** 32 - 1),
    })
    .optional(),
  busy: busyRecord.optional(),
  // bounded: a smaller alpha means more shuffles (history/shifts.ts shiftOptions)
  shiftSettings: z.object({ minShift: z.number().min(0).max(10), alpha: z.number().min(0.001).max(0.2) }).optional(),
  failing: z
    .array(z.object({ row: z.string().max(1000), line: z.string().max(2000), accepted: z.literal(true).optional() }))
    .max(10_000)
    .optional(),
  costs: z
    .array(
      z.object({
        scenario: z.string().max(1000),
        phase: z.string().max(1000),
        services: z
          .array(
            z.object({
              service: z.string().max(1000),
              before: z.number(),
              after: z.number(),
              change: z.number(),
              interval: z.tuple([z.number(), z.number()]).optional(),
              pValue: z.number(),
              share: z.number().optional(),
              rose: z.boolean(),
            }),
          )
          .max(1000),
      }),
    )
    .max(10_000)
    .optional(),
  profiles: z
    .array(
      z.object({
        scenario: z.string().max(1000),
        phase: z.string().max(1000),
        service: z.string().max(1000),
        side: z.enum(['base', 'head', 'baseline']).optional(),
        file: z.string().max(1000).optional(),
        bytes: z.number().int().nonnegative().optional(),
        error: z.string().max(2000).optional(),
      }),
    )
    .max(10_000)
    .optional(),
  profileDiffs: z
    .array(
      z.object({
        scenario: z.string().max(1000),
        phase: z.string().max(1000),
        service: z.string().max(1000),
        against: z.literal('baseline').optional(),
        sampleType: z.string().max(1000),
        unit: z.string().max(1000),
        flame: z.string().max(1000).optional(),
        functions: z
          .array(
            z.object({
              name: z.string().max(1000),
              file: z.string().max(1000),
              flat: z.object({ base: z.number(), head: z.number() }),
              cum: z.object({ base: z.number(), head: z.number() }),
            }),
          )
          .max(100),
      }),
    )
    .max(10_000)
    .optional(),
});

export const baselineFileSchema = z.looseObject({
  schema: z.literal(BASELINE_SCHEMA),
  scenario: z.string(),
  scenarioHash: z.string(),
  provenance,
  phases: z.array(phaseResult),
  // sut.profile: the profile each phase and service had when the baseline was recorded, a file beside it
  profiles: z
    .array(
      z.object({
        phase: z.string().max(1000),
        service: z.string().max(1000),
        file: z.string().regex(BASELINE_PROFILE_FILE, 'a file in profiles/ of the baselines directory'),
      }),
    )
    .max(1000)
    .optional(),
});

/** undefined when `data` fits, else the first problem ("scenarios.0.phases.1.merged.rps: …"). */
export function problemOf(schema: z.ZodType, data: unknown): string | undefined {
  const r = schema.safeParse(data);
  return r.success ? undefined : firstIssue(r.error);
}

// Builders shared by the unit tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricName } from '../../src/metrics/registry.js';
import { UserError } from '../../src/common/errors.js';
import type { ResourceUsage } from '../../src/stats/resources.js';
import {
  RESULTS_SCHEMA,
  type BaselineFile,
  type Comparison,
  type MergedPhase,
  type PhaseResult,
  type ResultsFile,
  type ScenarioResult,
  type TrialSummary,
} from '../../src/results/types.js';
import { createHistogram, encodeHistogram, type LatencySummary, recordUs } from '../../src/runner-kit/histogram.js';

/** A resource usage of all zeros, with the given fields set. */
export const usage = (u: Partial<ResourceUsage> = {}): ResourceUsage => ({
  cpuMeanPct: 0,
  cpuPeakPct: 0,
  memoryPeakBytes: 0,
  rxBytes: 0,
  txBytes: 0,
  samples: 0,
  ...u,
});

/** A latency summary of 1000 samples at 1 ms (min 100 µs), with the given fields set. */
export function latency(l: Partial<LatencySummary> = {}): LatencySummary {
  return {
    count: 1000,
    min: 100,
    mean: 1000,
    p10: 1000,
    p25: 1000,
    p50: 1000,
    p75: 1000,
    p90: 1000,
    p95: 1000,
    p99: 1000,
    'p99.9': 1000,
    max: 1000,
    ...l,
  };
}

/** What a trial or a merged phase measured; everything not given is a healthy default. */
export interface Measure {
  latency?: Partial<LatencySummary>;
  rps?: number;
  bytesPerSec?: number;
  responses?: number;
  failures?: number;
  statusCodes?: Record<string, number>;
  errors?: Record<string, number>;
  /** responses that failed a check, by check (they are among `failures`) */
  checks?: Record<string, number>;
  /** statuses outside 2xx/3xx the request's checks list as successes */
  expectedStatuses?: string[];
  resources?: Record<string, ResourceUsage>;
}

export const usage10 = (u: Partial<ResourceUsage> = {}): ResourceUsage => ({
  cpuMeanPct: 0,
  cpuPeakPct: 0,
  memoryPeakBytes: 0,
  rxBytes: 0,
  txBytes: 0,
  samples: 10,
  ...u,
});

export function counts(m: Measure) {
  const responses = m.responses ?? 1000;
  const failures = m.failures ?? 0;
  return {
    sent: responses + Object.values(m.errors ?? {}).reduce((a, b) => a + b, 0),
    responses,
    successes: responses - failures,
    failures,
    statusCodes: m.statusCodes ?? { '200': responses - failures },
    errors: m.errors ?? {},
    ...(m.checks ? { checks: m.checks } : {}),
    ...(m.expectedStatuses ? { expectedStatuses: m.expectedStatuses } : {}),
  };
}

export function trial(m: Measure, i: number): TrialSummary {
  return {
    trial: i,
    durationMs: 10_000,
    ...counts(m),
    rps: m.rps ?? 100,
    bytesPerSec: m.bytesPerSec ?? 10_000,
    latency: latency(m.latency),
    connectionCloses: 0,
    generator: { cpuPct: 20, eventLoopDelayP99Us: 100, eventLoopDelayMaxUs: 200 },
    resources: m.resources ?? {},
  };
}

export function merged(m: Measure, trials: number): MergedPhase {
  return {
    trials,
    durationMs: 10_000 * trials,
    ...counts(m),
    errorRate: 0,
    rps: m.rps ?? 100,
    bytesPerSec: m.bytesPerSec ?? 10_000,
    latency: latency(m.latency),
    connectionCloses: 0,
    resources: m.resources ?? {},
    histogram: '',
  };
}

/** A phase whose merged values are `m` and whose trials measured `trials`. */
export function phase(name: string, m: Measure, trials: Measure[] = [m], flags: string[] = []): PhaseResult {
  return {
    name,
    kind: 'closed',
    params: { connections: 10, durationMs: 10_000 },
    warmupMs: 1000,
    trials: trials.map(trial),
    merged: merged(m, trials.length),
    flags,
  };
}

/** `n` trials that all measured `m`: 5 against 5 such trials of another value are fully separated,
 * so Mann–Whitney gives p = 1/252, which confirms at the gate's alpha 0.01. */
export function times(m: Measure, n = 5): Measure[] {
  return Array.from({ length: n }, () => m);
}

/** A phase of `n` identical trials that measured `m` (merged: `m`). */
export function steadyPhase(name: string, m: Measure, n = 5, flags: string[] = []): PhaseResult {
  return phase(name, m, times(m, n), flags);
}

/** One value of one metric into a Measure. */
export function measure(metric: MetricName, v: number): Measure {
  switch (metric) {
    case 'rps':
      return { rps: v };
    case 'bytes-per-sec':
      return { bytesPerSec: v };
    case 'memory':
      return { resources: { api: usage10({ memoryPeakBytes: v }) } };
    case 'cpu':
      return { resources: { api: usage10({ cpuMeanPct: v }) } };
    case 'errors':
      return { errors: { timeout: v } };
    case 'error-rate':
      throw new Error('build error-rate fixtures by hand');
    default:
      return { latency: { [metric]: v } };
  }
}

/** The UserError a promise rejects with; fails the test when it resolves or throws something else. */
export async function failure(p: Promise<unknown>): Promise<UserError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

/** One comparison row: api/c10 p99 1 ms → 1 ms, pass. */
export function comparison(over: Partial<Comparison> = {}): Comparison {
  return {
    scenario: 'api',
    phase: 'c10',
    metric: 'p99',
    baseline: 1000,
    current: 1000,
    delta: 0,
    band: '+10% and +200µs',
    result: 'pass',
    ...over,
  };
}

/** A whole results file of a gate run; scenarios and comparisons as given. */
export function resultsFile(
  scenarios: ScenarioResult[],
  comparisons: Comparison[],
  over: Partial<ResultsFile> = {},
): ResultsFile {
  return {
    schema: RESULTS_SCHEMA,
    runId: 'r1',
    mode: 'gate',
    config: 'perf-gate.yml',
    startedAt: '2026-11-23T12:00:00.000Z',
    finishedAt: '2026-11-23T12:01:00.000Z',
    provenance: {
      time: '2026-11-23T12:00:00.000Z',
      commit: 'abc',
      ref: null,
      runner: { os: 'linux', cpuModel: 'cpu', cores: 2, memoryBytes: 1 },
      docker: { version: null, apiVersion: null },
      runnerImage: 'node',
      sut: { images: {} },
    },
    scenarios,
    comparisons,
    ...over,
  };
}

/** A baseline file of `phases`, with the provenance of `resultsFile`. */
export function baselineOf(scenario: string, scenarioHash: string, phases: PhaseResult[]): BaselineFile {
  return { schema: 'perf-gate/baseline@1', scenario, scenarioHash, provenance: resultsFile([], []).provenance, phases };
}

/** A tool from scripts/provision-test-tools.sh (.tools/bin) or the PATH; undefined without it. */
export function toolPath(name: string): string | undefined {
  const local = join(import.meta.dirname, '../../.tools/bin', name);
  if (existsSync(local)) return local;
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

/** actionlint from scripts/provision-test-tools.sh (.tools/bin) or the PATH; undefined without it. */
export function actionlintPath(): string | undefined {
  return toolPath('actionlint');
}

/** A scenario's target (a config's or a plan's) of the kind a test expects; another kind fails the test. */
export function targetOf<T extends { kind: string }, K extends T['kind']>(
  s: { target: T } | undefined,
  kind: K,
): Extract<T, { kind: K }> {
  if (s?.target.kind !== kind) throw new Error(`expected a ${kind} target, got ${s?.target.kind ?? 'no scenario'}`);
  return s.target as Extract<T, { kind: K }>;
}

/** An encoded histogram of `n` latencies spread evenly from `from` to `to` µs. */
export function evenHistogram(from: number, to: number, n = 1000): string {
  const h = createHistogram();
  for (let i = 0; i < n; i++) recordUs(h, from + ((to - from) * i) / (n - 1));
  const text = encodeHistogram(h);
  h.destroy();
  return text;
}

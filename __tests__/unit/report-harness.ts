// What the Markdown report's tests share: results files built from a few phases and comparisons, and the
// report's tables read back as rows and cells.
import type { ResourceUsage } from '../../src/stats/resources.js';
import type {
  Comparison,
  MergedPhase,
  PhaseResult,
  Provenance,
  ResultsFile,
  ScenarioResult,
} from '../../src/results/types.js';
import { RESULTS_SCHEMA } from '../../src/results/types.js';
import type { LatencySummary } from '../../src/runner-kit/histogram.js';

// ---------------------------------------------------------------------------------------------
// fixtures

export function latency(l: Partial<LatencySummary> = {}): LatencySummary {
  return {
    count: 1000,
    min: 100,
    mean: 900,
    p10: 300,
    p25: 500,
    p50: 800,
    p75: 1000,
    p90: 1200,
    p95: 1500,
    p99: 2000,
    'p99.9': 3000,
    max: 5000,
    ...l,
  };
}

export const usage = (u: Partial<ResourceUsage> = {}): ResourceUsage => ({
  cpuMeanPct: 40,
  cpuPeakPct: 80,
  memoryPeakBytes: 64 * 1024 * 1024,
  rxBytes: 1024,
  txBytes: 2048,
  samples: 10,
  ...u,
});

export function merged(over: Partial<MergedPhase> = {}): MergedPhase {
  return {
    trials: 1,
    durationMs: 30_000,
    sent: 1000,
    responses: 1000,
    successes: 1000,
    failures: 0,
    statusCodes: { '200': 1000 },
    errors: {},
    errorRate: 0,
    rps: 500,
    bytesPerSec: 10_000,
    latency: latency(),
    connectionCloses: 0,
    resources: { api: usage() },
    histogram: '',
    ...over,
  };
}

export function phase(name: string, over: { merged?: Partial<MergedPhase>; flags?: string[] } = {}): PhaseResult {
  return {
    name,
    kind: 'closed',
    params: { connections: 10, durationMs: 30_000 },
    warmupMs: 5000,
    trials: [],
    merged: merged(over.merged),
    flags: over.flags ?? [],
  };
}

export function scenario(name: string, phases: PhaseResult[], over: Partial<ScenarioResult> = {}): ScenarioResult {
  return { name, scenarioHash: 'h', phases, ...over };
}

export function cmp(over: Partial<Comparison> = {}): Comparison {
  return {
    scenario: 'api',
    phase: 'c10',
    metric: 'p99',
    baseline: 1000,
    current: 1000,
    delta: 0,
    band: '+25% and +1ms',
    result: 'pass',
    ...over,
  };
}

export const provenance = (over: Partial<Provenance> = {}): Provenance => ({
  time: '2024-05-10T12:00:00.000Z',
  commit: 'abcdef1234567890',
  ref: 'refs/pull/7/merge',
  runner: { os: 'linux', cpuModel: 'AMD EPYC', cores: 2, memoryBytes: 8 * 1024 ** 3 },
  docker: { version: '27.0.1', apiVersion: '1.46' },
  runnerImage: 'node:22-slim',
  sut: { images: { api: { image: 'api:dev', id: 'sha256:1', digest: null } } },
  ...over,
});

export function results(over: Partial<ResultsFile> = {}): ResultsFile {
  return {
    schema: RESULTS_SCHEMA,
    runId: 'run-1',
    mode: 'gate',
    config: 'perf-gate.yml',
    startedAt: '2024-05-10T12:00:00.000Z',
    finishedAt: '2024-05-10T12:05:00.000Z',
    provenance: provenance(),
    scenarios: [scenario('api', [phase('c10')])],
    comparisons: [cmp()],
    scenarioStatus: [{ scenario: 'api', baseline: 'present' }],
    ...over,
  };
}

/** Data rows of the first Markdown table in `md` (the comparison table). */
export function tableRows(md: string): string[] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  if (start < 0) return [];
  const rows: string[] = [];
  for (let i = start + 2; i < lines.length && (lines[i] as string).startsWith('|'); i++) rows.push(lines[i] as string);
  return rows;
}

/** Table cells, split on pipes that are not escaped. */
export function cells(row: string): string[] {
  return row
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** Every table in `md`: its lines (header, delimiter, rows). */
export function tables(md: string): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  for (const l of md.split('\n')) {
    if (l.startsWith('|')) cur.push(l);
    else if (cur.length) {
      out.push(cur);
      cur = [];
    }
  }
  if (cur.length) out.push(cur);
  return out;
}

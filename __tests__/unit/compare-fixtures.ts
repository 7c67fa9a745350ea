// What the comparison tests share (compare, compare-confirm, compare-errors and metric-values tests): a scenario's results and
// its baseline file around some phases, and one metric of one phase compared.
import { expect } from 'vitest';
import { compareScenario } from '../../src/compare/compare.js';
import type { MetricName } from '../../src/metrics/registry.js';
import type { Threshold } from '../../src/config-parts/types.js';
import type { BaselineFile, Comparison, PhaseResult, ScenarioResult } from '../../src/results/types.js';

export const scenario = (phases: PhaseResult[], scenarioHash = 'sha256:same'): ScenarioResult => ({
  name: 'search',
  scenarioHash,
  phases,
});

export const baselineFile = (phases: PhaseResult[], scenarioHash = 'sha256:same'): BaselineFile => ({
  schema: 'perf-gate/baseline@1',
  scenario: 'search',
  scenarioHash,
  provenance: {
    time: '2024-01-02T03:04:05.000Z',
    commit: 'abc1234',
    ref: 'refs/heads/main',
    runner: { os: 'linux', cpuModel: 'cpu', cores: 2, memoryBytes: 8 * 1024 ** 3 },
    docker: { version: '27.0.0', apiVersion: '1.46' },
    runnerImage: 'node:22-slim',
    sut: { images: {} },
  },
  phases,
});

/** Compares one metric of one phase; the error-class rows (if any) are left out. */
export function compareOne(
  metric: MetricName,
  t: Threshold,
  current: PhaseResult,
  baseline: PhaseResult | undefined,
  final = true,
): Comparison {
  const { comparisons } = compareScenario(
    scenario([current]),
    { [metric]: t },
    baseline ? baselineFile([baseline]) : undefined,
    final,
  );
  const rows = comparisons.filter((c) => c.metric === metric);
  expect(rows).toHaveLength(1);
  return rows[0] as Comparison;
}

// Pure: applies the comparison to a whole results file, given the baselines found for it.
import type { Thresholds } from '../config/types.js';
import type { BaselineFile, ResultsFile, ScenarioResult } from '../results/types.js';
import { BUILTIN_THRESHOLDS, compareScenario, overallVerdict, type OverallVerdict } from './compare.js';

export interface GateOutcome {
  results: ResultsFile;
  verdict: OverallVerdict;
  regressions: number;
}

export function gateResults(
  results: ResultsFile,
  baselines: ReadonlyMap<string, BaselineFile | undefined>,
  thresholdsOf: (scenario: string) => Thresholds | undefined = () => undefined,
): GateOutcome {
  const comparisons: ResultsFile['comparisons'] = [];
  const scenarioStatus: NonNullable<ResultsFile['scenarioStatus']> = [];
  const scenarios = results.scenarios.map((s) => {
    const given = thresholdsOf(s.name) ?? s.thresholds ?? {};
    // store what the scenario was really gated with
    const thresholds = Object.keys(given).length > 0 ? given : BUILTIN_THRESHOLDS;
    const baseline = baselines.get(s.name);
    const { status, comparisons: c } = compareScenario(s, thresholds, baseline);
    comparisons.push(...c);
    scenarioStatus.push(status);
    const { baselineLatency: _stale, ...rest } = s;
    const out: ScenarioResult = { ...rest, thresholds };
    if (baseline) {
      out.baselineLatency = Object.fromEntries(baseline.phases.map((p) => [p.name, p.merged.latency]));
    }
    return out;
  });
  const verdict = overallVerdict(comparisons);
  return {
    results: { ...results, scenarios, comparisons, scenarioStatus },
    verdict,
    regressions: comparisons.filter((c) => c.result === 'regression').length,
  };
}

// Pure: applies the comparison to a whole results file, given the baselines found for it.
import type { Thresholds } from '../config-parts/types.js';
import type { BaselineFile, Provenance, ResultsFile, ScenarioResult } from '../results/types.js';
import { BUILTIN_THRESHOLDS, compareScenario, overallVerdict, type OverallVerdict } from './compare.js';

export interface GateOutcome {
  results: ResultsFile;
  verdict: OverallVerdict;
  regressions: number;
}

/** "AMD EPYC, 2 cores → Intel Xeon, 4 cores" when a baseline was recorded on another CPU model or core
 * count than this run; undefined on the same kind of machine. */
export function machineChange(baseline: Provenance['runner'], current: Provenance['runner']): string | undefined {
  if (baseline.cpuModel === current.cpuModel && baseline.cores === current.cores) return undefined;
  const of = (r: Provenance['runner']) => `${r.cpuModel}, ${r.cores} core${r.cores === 1 ? '' : 's'}`;
  return `${of(baseline)} → ${of(current)}`;
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
    const moved = baseline && machineChange(baseline.provenance.runner, results.provenance.runner);
    if (moved) status.machine = moved;
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

// Pure: the smallest change each gated row can catch, as `validate` says it where baselines exist. The
// baseline's trials stand in for the run's own (an unchanged service spreads as it did when the
// baseline was recorded) and are compared with themselves through the gate's own comparison, at the
// trials and confirmation cap the config gives and the run's false-alarm budget: every passing row
// then carries `detectable` (compare/power.ts), the smallest change its test confirms. A model, said
// where it is printed: the run's own trials decide.
import type { Scenario } from '../config-parts/types.js';
import { protocolOf } from '../protocols/index.js';
import type { BaselineFile, Comparison, ScenarioResult } from '../results/types.js';
import { compareScenario } from './compare.js';
import { type Judging, judgedThresholds } from './judging.js';
import { signedChange } from './power.js';
import { isMetricName, metricOf } from '../metrics/registry.js';

/** What the rows of the scenarios with a baseline can catch, one line each, and a line for each
 * scenario whose baseline is missing or was recorded for another definition of it. `scenarios` as the
 * run judges them (with their family, gate.run-alpha's budget); `caps`: the confirmation cap of each
 * (the reach check's); `hashes`: each scenario's definition hash as the run computes it. */
export function detectableSaid(
  scenarios: readonly Scenario[],
  judging: Judging,
  caps: ReadonlyMap<string, number>,
  baselines: ReadonlyMap<string, BaselineFile | undefined>,
  hashes: ReadonlyMap<string, string>,
): string[] {
  const lines: string[] = [];
  for (const s of scenarios) {
    const baseline = baselines.get(s.name);
    if (!baseline) {
      lines.push(`${s.name}: no baseline yet (known after the first update run)`);
      continue;
    }
    if (baseline.scenarioHash !== hashes.get(s.name)) {
      lines.push(
        `${s.name}: its baseline was recorded for another definition of it (stale): the next update replaces it`,
      );
      continue;
    }
    const cap = caps.get(s.name) ?? s.trials;
    const entries = protocolOf(s.target).entries(s.target);
    const current: ScenarioResult = {
      name: s.name,
      scenarioHash: baseline.scenarioHash,
      // the run's looks: its configured trials, then the cap confirmation may reach
      phases: baseline.phases.map((p) => ({ ...p, confirm: { first: s.trials, cap: Math.max(cap, s.trials) } })),
      ...(s.family ? { family: s.family } : {}),
      ...(entries.length > 0
        ? { requestThresholds: Object.fromEntries(entries.map((e) => [e.name, e.thresholds])) }
        : {}),
    };
    const { comparisons } = compareScenario(current, judgedThresholds(s, judging), baseline, true);
    for (const row of comparisons) {
      const said = rowSaid(row);
      if (said) lines.push(`${s.name}/${row.phase} ${row.metric}: ${said}`);
    }
  }
  return lines;
}

/** One row's line: the change it catches against its band, or why it is not known. */
function rowSaid(row: Comparison): string | undefined {
  if (!isMetricName(row.metric) || !metricOf(row.metric).scales || row.informational) return undefined;
  if (row.result === 'invalid') return `not known: ${row.reason ?? 'the baseline cannot be compared'}`;
  if (row.detectable === undefined && !row.blind) return undefined;
  const direction = metricOf(row.metric).direction;
  const catches =
    row.detectable === null || row.detectable === undefined
      ? 'no change is confirmed at these trials'
      : `catches ${signedChange(row.detectable, direction)} or more`;
  return row.blind
    ? `${catches}: its band (${row.band}) is below it, so a change of its size passes`
    : `${catches} (band ${row.band})`;
}

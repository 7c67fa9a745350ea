// Pure: gate.busy's verdict rule (the noise sentinel acted on). A trial the machine readings mark busy
// (other processes' CPU and steal at the threshold or more) was repeated while the run's repeats
// lasted; one still among a phase's judged trials may be what made the phase slower, so a row of that
// phase cannot regress on a metric that scales (latency, throughput, resources): it is inconclusive,
// and says why. Counts (errors, new error classes) are not made slower by a busy machine's CPU and are
// judged as before. Only the measured side counts: a busy baseline or base trial makes the reference
// slower, which hides a regression rather than raising one (the report's machine line names them).
import { type BusySettings, DEFAULT_BUSY_REPEATS, type Scenario } from '../config/types.js';
import { isMetricName, metricOf } from '../metrics/registry.js';
import { type Comparison, ofPhase, type PhaseResult } from '../results/types.js';

/** The judged trials of `name`'s phase (a mix entry's: its phase's) taken on a busy machine, of all. */
export function busyTrials(phases: readonly PhaseResult[], name: string): { busy: number; of: number } {
  const own = phases.find((p) => p.request === undefined && ofPhase(name, p.name));
  const trials = own?.trials ?? [];
  return { busy: trials.filter((t) => t.busy).length, of: trials.length };
}

/** The row as judged with its phase's busy trials: a regression on a metric that scales is inconclusive. */
export function busyVerdict(
  row: Comparison,
  found: { busy: number; of: number },
  unit: 'trials' | 'pairs',
): Comparison {
  if (row.result !== 'regression' || found.busy === 0 || !isMetricName(row.metric)) return row;
  if (!metricOf(row.metric).scales) return row;
  const why = `the machine was busy during ${found.busy} of its ${found.of} ${unit} (gate.busy), more than its repeats could replace: a slower machine, not the change, may be what made it worse`;
  return { ...row, result: 'inconclusive', reason: row.reason ? `${row.reason}; ${why}` : why };
}

/** The trials a run plans at its first look: each phase's trials, or `pairs` of each in A/B. */
export function plannedTrials(scenarios: readonly Scenario[], pairs?: number): number {
  return scenarios.reduce((n, s) => n + s.phases.length * (pairs ?? s.trials), 0);
}

/** gate.busy's allowance of repeats for a run planning `planned` trials (pairs): the one given, or
 * twice what it plans and at least DEFAULT_BUSY_REPEATS: a machine busy half the time needs about as
 * many repeats as trials, and seldom twice as many (a run takes at most three times its trials). */
export function busyRepeats(settings: BusySettings, planned: number): number {
  return settings.repeats ?? Math.max(DEFAULT_BUSY_REPEATS, BUSY_REPEATS_PER_TRIAL * planned);
}

/** The default allowance's repeats per trial (pair): for each the run plans, and for each extra one
 * confirmation runs (session/measure.ts). */
export const BUSY_REPEATS_PER_TRIAL = 2;

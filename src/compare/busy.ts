// Pure: gate.busy's verdict rules (the noise sentinel acted on). A trial the machine readings mark busy
// (other processes' CPU and steal at the threshold or more) was repeated while the run's repeats
// lasted; one still kept after them may be what made its phase slower.
// - A/B (quietPairs): a pair with a busy trial on either side is left out of the phase's tests, while
//   its first look keeps MIN_QUIET_PAIRS quiet pairs or more.
// - otherwise (busyVerdict: the gate, and A/B with fewer quiet pairs): a row of that phase cannot
//   regress on a metric that scales (latency, throughput, resources): it is inconclusive, and says why.
//   Only the measured side counts there: a busy baseline or base trial makes the reference slower,
//   which hides a regression rather than raising one (the report's machine line names them).
// Counts (errors, new error classes) are not made slower by a busy machine's CPU and are judged as
// before.
import { type BusySettings, DEFAULT_BUSY_REPEATS, type Scenario } from '../config-parts/types.js';
import { isMetricName, metricOf } from '../metrics/registry.js';
import { type Comparison, ofPhase, type PhaseResult, type ScenarioResult } from '../results/types.js';

/** The phase whose trials `name`'s are (a mix entry's: its phase's): where the busy marks are. */
function ownPhase(phases: readonly PhaseResult[], name: string): PhaseResult | undefined {
  return phases.find((p) => p.request === undefined && ofPhase(name, p.name));
}

/** `row` with `why` after the reason it had. */
function withWhy(row: Comparison, why: string): string {
  return row.reason ? `${row.reason}; ${why}` : why;
}

/** The judged trials of `name`'s phase (a mix entry's: its phase's) taken on a busy machine, of all. */
export function busyTrials(phases: readonly PhaseResult[], name: string): { busy: number; of: number } {
  const trials = ownPhase(phases, name)?.trials ?? [];
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
  return { ...row, result: 'inconclusive', reason: withWhy(row, why) };
}

/** A/B keeps a phase's busy pairs out of its tests only while at least this many quiet ones remain. */
export const MIN_QUIET_PAIRS = 2;

/** A/B's busy pairs left out of a phase's tests: how many, of how many, and the phase (either side)
 * as judged without them. */
export interface QuietPairs {
  left: number;
  of: number;
  keep: (p: PhaseResult) => PhaseResult;
}

/**
 * A/B at judgment (gate.busy): a pair with a trial the machine read busy on either side, kept because
 * the run's repeats were spent, is left out of the phase's tests and its change (both come from the
 * pairs): a busy head trial can raise a regression and a busy base trial hide one, while the quiet
 * pairs still measured both sides under the same conditions. The phase's looks shrink by the pairs left
 * out of each, so the test at each look is over its quiet pairs. Undefined when no pair is busy or
 * fewer than MIN_QUIET_PAIRS would remain (every pair is then judged and busyVerdict's rule applies).
 */
export function quietPairs(
  head: readonly PhaseResult[],
  base: readonly PhaseResult[],
  name: string,
): QuietPairs | undefined {
  const own = ownPhase(head, name);
  const sides = [own?.trials ?? [], ownPhase(base, name)?.trials ?? []];
  const of = Math.min(...sides.map((t) => t.length));
  const busy = new Set<number>();
  for (const trials of sides) trials.forEach((t, i) => t.busy && i < of && busy.add(i));
  const before = (k: number) => [...busy].filter((i) => i < k).length;
  // decided by the first look alone (its early stop, or its configured pairs), whose pairs do not
  // change as confirmation adds more: the looks a run was measured with are the verdict's
  const looks = own?.confirm;
  const firstLook = Math.min(of, looks?.stopped ?? looks?.first ?? of);
  if (busy.size === 0 || firstLook - before(firstLook) < MIN_QUIET_PAIRS) return undefined;
  return {
    left: busy.size,
    of,
    keep: (p) => {
      const trials = p.trials.filter((_, i) => !busy.has(i));
      if (!p.confirm) return { ...p, trials };
      const { first, cap, stopped } = p.confirm;
      const confirm = {
        first: first - before(first),
        cap: Math.max(first - before(first), cap - busy.size),
        ...(stopped !== undefined ? { stopped: stopped - before(stopped) } : {}),
      };
      return { ...p, trials, confirm };
    },
  };
}

/**
 * A row judged on its phase's quiet pairs: a regression or an inconclusive row of a metric that scales
 * says how many busy ones were left out. An absolute limit is held to the phase's merged value, which
 * keeps every trial: a broken one cannot stand on busy pairs (busyVerdict's rule).
 */
export function quietVerdict(row: Comparison, quiet: QuietPairs): Comparison {
  if (!['regression', 'inconclusive'].includes(row.result) || !isMetricName(row.metric)) return row;
  if (!metricOf(row.metric).scales) return row;
  // a band's regression was tested over the pairs (it has a p); a limit's was not
  if (row.result === 'regression' && row.pValue === undefined)
    return busyVerdict(row, { busy: quiet.left, of: quiet.of }, 'pairs');
  const why = `${quiet.left} of its ${quiet.of} pairs left out of the test: the machine was busy during them (gate.busy), more than its repeats could replace`;
  return { ...row, reason: withWhy(row, why) };
}

/** Both sides of an A/B scenario as its tests judge them: every phase without its busy pairs, where
 * quietPairs leaves them out (the early look bounds the same pairs the verdict tests). */
export function quietSides(head: ScenarioResult, base: ScenarioResult): [ScenarioResult, ScenarioResult] {
  const view = (side: ScenarioResult) => ({
    ...side,
    phases: side.phases.map((p) => quietPairs(head.phases, base.phases, p.name)?.keep(p) ?? p),
  });
  return [view(head), view(base)];
}

/** The trials a run plans at its first look: each phase's trials, or in A/B `pairs` of each phase,
 * both sides' (a busy side's trial is repeated on its own). */
export function plannedTrials(scenarios: readonly Scenario[], pairs?: number): number {
  return scenarios.reduce((n, s) => n + s.phases.length * (pairs === undefined ? s.trials : 2 * pairs), 0);
}

/** gate.busy's allowance of repeats for a run planning `planned` trials (both sides' in A/B): the one given, or
 * twice what it plans and at least DEFAULT_BUSY_REPEATS: a machine busy half the time needs about as
 * many repeats as trials, and seldom twice as many (a run takes at most three times its trials). */
export function busyRepeats(settings: BusySettings, planned: number): number {
  return settings.repeats ?? Math.max(DEFAULT_BUSY_REPEATS, BUSY_REPEATS_PER_TRIAL * planned);
}

/** The default allowance's repeats per trial: for each the run plans, and for each extra one
 * confirmation runs, both sides' in A/B (session/measure.ts). */
export const BUSY_REPEATS_PER_TRIAL = 2;

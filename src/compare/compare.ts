// Pure: compares one scenario's results with its baseline (SPEC §4): band (regress AND floor),
// absolute limits with or without a baseline, Mann–Whitney confirmation over at most two looks
// (confirm.ts), enough samples beyond a gated percentile, new error classes, stale baselines.
import { type Measured, type MetricName, isMetricName, metricOf } from '../metrics/registry.js';
import type { Threshold, Thresholds } from '../config-parts/types.js';
import type {
  BaselineFile,
  Comparison,
  PhaseResult,
  ScenarioResult,
  ScenarioStatus,
  Verdict,
} from '../results/types.js';
import { failureKinds } from '../runner-kit/measurement.js';
import { clientMayMake } from '../metrics/status.js';
import { mannWhitneyApprox, mannWhitneyGreater } from '../stats/mann-whitney.js';
import { confirm, type Confirmation, type Looks, smallestMannWhitneyP } from './confirm.js';
import { cyclic, passingRows, worsened } from './power.js';
import { busyTrials, busyVerdict } from './busy.js';
import { type JointRows, type PhaseGroup, phaseFamily, rowAlpha } from './family.js';
import { hasBand } from './band.js';
import { exactMannWhitney, jointMannWhitney } from '../stats/joint.js';
import {
  direction,
  errorClasses,
  isLatency,
  lacksPercentile,
  metricValue,
  tailShortfall,
  trialValues,
  unmeasured,
} from './metrics.js';

/**
 * The gate's default significance level. With the default 5 trials a side the smallest Mann–Whitney p
 * is 1/252, and p ≤ 0.01 needs at least 23 of the 25 trial pairs worse: far more than the three
 * coin flips (3 vs 3 trials, smallest p 0.05) that confirmed run-to-run noise before.
 */
export const DEFAULT_ALPHA = 0.01;

/** Used when a scenario has no thresholds at all. */
export const BUILTIN_THRESHOLDS: Thresholds = {
  p50: { regress: 0.1, floor: 200 },
  p99: { regress: 0.25, floor: 1000 },
  rps: { regress: 0.1 },
};

/** A value as the metric shows it (a row named after an error class is a count). */
export function formatMetricValue(metric: string, v: number): string {
  return metricOf(isMetricName(metric) ? metric : 'errors').format(v);
}

/** The band in words, signed in the worse direction: "+10% and +200µs", "-10%". */
export function describeBand(metric: MetricName, t: Threshold): string {
  const sign = direction(metric) > 0 ? '+' : '-';
  const parts: string[] = [];
  if (t.regress !== undefined) parts.push(`${sign}${+(t.regress * 100).toFixed(2)}%`);
  if (t.floor !== undefined) parts.push(`${sign}${formatMetricValue(metric, t.floor)}`);
  const band = parts.join(' and ');
  const limit = t.limit !== undefined ? `≤ ${formatMetricValue(metric, t.limit)}` : '';
  const min = t.min !== undefined ? `≥ ${formatMetricValue(metric, t.min)}` : '';
  return [band, limit, min].filter(Boolean).join(', ') || '—';
}

/** Why `value` breaks an absolute limit of `t` (`below`/`max` above, `min` below), or undefined. */
export function limitBreach(metric: MetricName, t: Threshold, value: number): string | undefined {
  if (t.limit !== undefined && value > t.limit) return `above the limit ${formatMetricValue(metric, t.limit)}`;
  if (t.min !== undefined && value < t.min) return `below the minimum ${formatMetricValue(metric, t.min)}`;
  return undefined;
}

/**
 * A generator-bound phase is still judged on what the service answered: a starved generator sends fewer
 * requests, it does not make the service answer 500. The metric's `answered` value (failed responses:
 * statuses and checks, not socket errors, timeouts or a gRPC deadline) breaking an absolute limit is a
 * regression; beyond its band from `baseline` (the other side's whole value) it is inconclusive, as
 * any row of such a phase whose change is beyond its band (it was not confirmed over the trials).
 * Undefined where the metric has no such part or it stays inside both.
 */
export function answeredVerdict(
  metric: MetricName,
  t: Threshold,
  m: Measured,
  baseline: number | null,
): Pick<Comparison, 'result' | 'reason'> | undefined {
  const answered = metricOf(metric).answered?.(m);
  if (answered === undefined) return undefined;
  const alone = `the failed responses alone (${formatMetricValue(metric, answered)})`;
  const why =
    'the phase is generator-bound, so its socket errors and timeouts are not counted, but the service answered these';
  const breach = limitBreach(metric, t, answered);
  if (breach) return { result: 'regression', reason: `${alone} are ${breach}; ${why}` };
  if (baseline === null) return undefined;
  const moved = change(metric, baseline, answered);
  if (!beyondBand(t, moved.worse, moved.relative)) return undefined;
  return {
    result: 'inconclusive',
    reason: `${alone} are beyond the band ${describeBand(metric, t)} from ${formatMetricValue(metric, baseline)}; ${why}; it was not confirmed over the trials: run again, or lower the load until the phase is not generator-bound`,
  };
}

/** How much worse (positive) or better (negative) `current` is than `baseline`, absolute and relative. */
export function change(
  metric: MetricName,
  baseline: number,
  current: number,
): { worse: number; relative: number | null } {
  const worse = direction(metric) * (current - baseline);
  if (baseline === 0) return { worse, relative: current === 0 ? 0 : null };
  return { worse, relative: worse / Math.abs(baseline) };
}

export { hasBand } from './band.js';

/** A row's Δ as the report signs it (the metric's own direction), from `change`'s worse-is-positive one. */
const signedDelta = (metric: MetricName, relative: number | null): number | null =>
  relative === null ? null : direction(metric) * relative || 0;

export function beyondBand(t: Threshold, worse: number, relative: number | null): boolean {
  if (!hasBand(t)) return false;
  // a relative change from a zero baseline is unbounded
  const rel = t.regress === undefined || relative === null || relative > t.regress;
  const abs = t.floor === undefined || worse > t.floor;
  return worse > 0 && rel && abs;
}

function comparePhaseMetric(
  scenario: string,
  metric: MetricName,
  t: Threshold,
  current: PhaseResult,
  baseline: PhaseResult | undefined,
  final: boolean,
  group?: PhaseGroup,
): Comparison {
  const value = metricValue(current.merged, metric);
  const out: Comparison = {
    scenario,
    phase: current.name,
    metric,
    baseline: null,
    current: value,
    delta: null,
    band: describeBand(metric, t),
    result: 'pass',
  };
  // a baseline recorded before this percentile was gated has no value of it (per trial): no baseline for
  // this row, said so; its absolute limits are still checked
  const lacking = baseline !== undefined && lacksPercentile([baseline.merged, ...baseline.trials], metric);
  // invalid rows still carry the baseline's value: they were compared, just not trusted
  if (baseline && !lacking) out.baseline = metricValue(baseline.merged, metric);
  if (generatorBound(current)) {
    const shown = out.baseline !== null && Number.isFinite(value) ? change(metric, out.baseline, value) : undefined;
    if (shown) out.delta = signedDelta(metric, shown.relative);
    const answered = answeredVerdict(metric, t, current.merged, out.baseline);
    if (answered) return { ...out, ...answered };
    return unjudged(out, GENERATOR_BOUND_REASON, t, shown !== undefined && beyondBand(t, shown.worse, shown.relative));
  }
  const missing =
    unmeasured(current.merged, metric) ??
    (lacksPercentile(current.trials, metric) ? `no ${metric} in this run's trials` : undefined);
  if (missing) return { ...out, result: 'invalid', reason: missing };
  const breach = limitBreach(metric, t, value);
  if (!baseline || lacking) {
    if (breach) return { ...out, result: 'regression', reason: breach };
    return lacking
      ? { ...out, result: 'no-baseline', reason: lackingReason(metric, 'the baseline') }
      : { ...out, result: 'no-baseline' };
  }
  const baseMissing = unmeasured(baseline.merged, metric);
  if (baseMissing) {
    const reason = isLatency(metric)
      ? 'the baseline has no successful responses to compare with'
      : `the baseline: ${baseMissing}`;
    return { ...out, result: 'invalid', reason };
  }
  const base = metricValue(baseline.merged, metric);
  const { worse, relative } = change(metric, base, value);
  out.baseline = base;
  out.delta = signedDelta(metric, relative);
  const alpha = rowAlpha(t, group?.family, DEFAULT_ALPHA);
  const dir = direction(metric);
  const raw = trialValues(current.trials, metric);
  const old = trialValues(baseline.trials, metric).map((v) => dir * v);
  const cur = raw.map((v) => dir * v);
  // an absolute limit needs no test; a change does, and a tail percentile needs a tail to test
  if (!breach && hasBand(t)) {
    const short = tailShortfall(current.trials, metric) ?? tailShortfall(baseline.trials, metric, 'the baseline');
    if (short) {
      const confirmed = beyondBand(t, worse, relative) ? mannWhitneyGreater(cur, old).pValue : undefined;
      return shortRow(out, short, confirmed, alpha, 'trials');
    }
  }
  if (breach) return { ...out, result: 'regression', reason: breach };
  // gate.bands: inform: the change is shown, never judged (a one-shot run has no trials to test it with)
  if (t.inform && hasBand(t)) return { ...out, informational: true };
  const worseOut = beyondBand(t, worse, relative);
  const betterRelative = relative === null ? null : -relative;
  const betterOut = beyondBand(t, -worse, betterRelative);
  // what a pass could have caught is said of the final verdict (not of the looks while measuring)
  const looks = looksOfPhase(current);
  // the current side's first k trials (cycled beyond them) made worse by d, as the test reads them
  const shifted = (d: number, k: number) => cyclic(raw, k).map((v) => dir * worsened(v, d, dir));
  const passing = passingRows(
    final,
    {
      metric,
      band: t,
      looks,
      alpha,
      smallestAtFirst: smallestMannWhitneyP(looks.first, old.length),
      trials: cur.length,
    },
    group,
    (d, k, limit) => mannWhitneyGreater(shifted(d, k), old, limit).pValue,
    (d, k) => mannWhitneyApprox(shifted(d, k), old),
  );
  if (!worseOut && !betterOut) return passing(out);
  if (!worseOut) {
    // an improvement is information: one test over every trial
    const { pValue } = mannWhitneyGreater(old, cur);
    out.pValue = roundP(pValue);
    return pValue <= alpha ? { ...out, result: 'improvement' } : passing(out);
  }
  const c = confirm({
    trials: cur.length,
    looks,
    alpha,
    pAt: (k) => (group ? group.pAt(metric, k) : mannWhitneyGreater(cur.slice(0, k), old).pValue),
    smallestAt: (k) => smallestMannWhitneyP(k, old.length),
    unit: 'trials',
    capKey: CAP_KEY,
  });
  return withConfirmation(out, c, final);
}

/**
 * A row with too few samples beyond its percentile to be compared (`short`): `invalid`, unless its change
 * is beyond its band in the worse direction and one test over every trial (pair) confirms it at the
 * row's alpha (`pValue`, asked only then): `inconclusive`, which fails the check. A regression that also
 * cut the responses a trial had is then never a silent pass; on unchanged code the test fails at most
 * alpha of the time, as any row's. No extra trials are run for it.
 */
export function shortRow(
  out: Comparison,
  short: string,
  pValue: number | undefined,
  alpha: number,
  unit: 'trials' | 'pairs',
): Comparison {
  if (pValue === undefined || pValue > alpha) return { ...out, result: 'invalid', reason: short };
  return {
    ...out,
    result: 'inconclusive',
    pValue: roundP(pValue),
    reason: `${short}; its change is beyond its band and its ${unit} confirm it (p ${roundP(pValue)} ≤ ${roundP(alpha)}), so it is not passed: give the phase longer trials or more load, so that each has the samples`,
  };
}

/** The joint Mann–Whitney p of a phase's rows: each row's current trials (the first k) against the
 * baseline's, worse upwards. */
const mannWhitneyRows: JointRows = (metrics, current, baseline, k, shift) =>
  jointMannWhitney(
    metrics.map((m) => ({
      x: cyclic(trialValues(current.trials, m), k).map(
        (v) => direction(m) * (m === shift?.metric ? worsened(v, shift.d, direction(m)) : v),
      ),
      y: trialValues(baseline.trials, m).map((v) => direction(m) * v),
    })),
  );

/** Whether a row reaches the significance test (the checks of comparePhaseMetric before it): a value on
 * both sides, the percentile on both, enough samples beyond it, no absolute limit broken. */
function testable(metric: MetricName, t: Threshold, current: PhaseResult, baseline: PhaseResult): boolean {
  return (
    !generatorBound(current) &&
    unmeasured(current.merged, metric) === undefined &&
    !lacksPercentile(current.trials, metric) &&
    !lacksPercentile([baseline.merged, ...baseline.trials], metric) &&
    unmeasured(baseline.merged, metric) === undefined &&
    tailShortfall(current.trials, metric) === undefined &&
    tailShortfall(baseline.trials, metric, 'the baseline') === undefined &&
    limitBreach(metric, t, metricValue(current.merged, metric)) === undefined
  );
}

/** Why a row has nothing to compare with: `whose` results have no value of a percentile gated since. */
export function lackingReason(metric: MetricName, whose: string): string {
  return `${whose} has no ${metric} (recorded before ${metric} was gated); refresh it with perf-gate run --mode update`;
}

/** The config key that caps confirmation, named in reasons. */
export const CAP_KEY = 'gate.confirm.max-trials';

const roundP = (p: number) => Math.round(p * 10_000) / 10_000;

/** The looks a phase was measured for; a file written before confirmation existed had one look. */
export function looksOfPhase(p: Pick<PhaseResult, 'confirm' | 'trials'>): Looks {
  return p.confirm ?? { first: p.trials.length, cap: p.trials.length };
}

/**
 * A worse row's verdict from its confirmation. `final: false` (while measuring) keeps a row that more
 * trials could still confirm `open`; a final verdict never is open: an open row whose extra trials
 * were not run is inconclusive.
 */
export function withConfirmation(out: Comparison, c: Confirmation, final: boolean): Comparison {
  out.pValue = roundP(c.pValue);
  switch (c.kind) {
    case 'confirmed':
      if (c.extra > 0) out.extraTrials = c.extra;
      return { ...out, result: 'regression' };
    case 'inconclusive':
      return { ...out, result: 'inconclusive', reason: c.reason };
    case 'open':
      if (!final) return { ...out, result: 'inconclusive', open: true };
      return {
        ...out,
        result: 'inconclusive',
        reason:
          c.alpha > 0
            ? `not confirmed at the first look (p ${roundP(c.pValue)} > ${roundP(c.alpha)}), and no more trials were run`
            : `the first look cannot confirm on its own (p ${roundP(c.pValue)}; its trials cannot reach alpha), and no more trials were run`,
      };
  }
}

export const GENERATOR_BOUND_REASON =
  'generator-bound: the load generator, not the service, limited this phase (see its flags)';

/**
 * A row its phase's flags keep from being judged (generator-bound): `invalid` as before while its
 * change is inside its band, but `inconclusive` — never a silent pass — when the change it shows is
 * beyond its band in the worse direction on a metric that scales (a stalling service makes the runner open connections in
 * bursts, and a p99 5 ms → 300 ms used to end as an `invalid` row under a green check). Inconclusive
 * fails the check by default (fail-on-inconclusive).
 */
export function unjudged(out: Comparison, reason: string, t: Threshold, beyond: boolean): Comparison {
  // counts (errors, error-rate) are what a starved generator makes itself (timeouts, unfinished): invalid
  const scales = isMetricName(out.metric) && metricOf(out.metric).scales;
  if (!beyond || t.inform || !scales) return { ...out, result: 'invalid', reason };
  return {
    ...out,
    result: 'inconclusive',
    reason: `${reason}; its change is beyond its band, so it is not passed: run again, or lower the load (fewer connections, a lower rate, more runner workers or CPUs) until the phase is not generator-bound`,
  };
}

/** A phase whose generator saturated: none of its comparisons is a verdict (its errors included). */
export function generatorBound(p: PhaseResult): boolean {
  return p.flags.some((f) => f.startsWith('generator-bound'));
}

/**
 * Error classes this phase has and its baseline never had. In a generator-bound phase only the ones the
 * service answered (a status, a failed check) are judged: a starved generator does not make a 500, but
 * its own timeouts, socket errors and gRPC deadlines are not the service's (those rows are `invalid`).
 */
export function newErrorClasses(scenario: string, current: PhaseResult, baseline: PhaseResult): Comparison[] {
  const known = new Set(errorClasses(baseline.merged));
  const checks = current.merged.checks ?? {};
  return errorClasses(current.merged)
    .filter((c) => !known.has(c))
    .map((c) => {
      const status = /^(HTTP|gRPC) (.*)$/.exec(c)?.[2];
      const answered = (status !== undefined && !clientMayMake(status)) || c in checks;
      const bound = generatorBound(current) && !answered;
      const count =
        status !== undefined ? (current.merged.statusCodes[status] ?? 0) : (failureKinds(current.merged)[c] ?? 0);
      return {
        scenario,
        phase: current.name,
        metric: 'error-class',
        baseline: 0,
        current: count,
        delta: null,
        band: 'no new error classes',
        result: (bound ? 'invalid' : 'regression') as Verdict,
        reason: `new error class ${c} (${count}×), never seen in the baseline${bound ? `; ${GENERATOR_BOUND_REASON}` : ''}`,
      };
    });
}

/**
 * The thresholds a phase is gated with: the scenario's for a phase; for a mix entry's results only
 * what the entry's own `thresholds` give (none: reported, not gated), and no error-class check of its
 * own (its phase has one over every entry).
 */
export function phaseGate(
  scenario: Pick<ScenarioResult, 'requestThresholds'>,
  phase: Pick<PhaseResult, 'request'>,
  gated: Thresholds,
): { thresholds: Thresholds; errorClasses: boolean } {
  if (phase.request === undefined) return { thresholds: gated, errorClasses: true };
  return { thresholds: scenario.requestThresholds?.[phase.request] ?? {}, errorClasses: false };
}

export interface ScenarioComparison {
  status: ScenarioStatus;
  comparisons: Comparison[];
}

/** `final: false` while measuring: rows that more trials could confirm are kept `open`. */
export function compareScenario(
  current: ScenarioResult,
  thresholds: Thresholds,
  baseline: BaselineFile | undefined,
  final = true,
): ScenarioComparison {
  const gated = Object.keys(thresholds).length > 0 ? thresholds : BUILTIN_THRESHOLDS;
  const status: ScenarioStatus = {
    scenario: current.name,
    baseline: !baseline ? 'missing' : baseline.scenarioHash !== current.scenarioHash ? 'stale' : 'present',
  };
  if (baseline) {
    status.baselineTime = baseline.provenance.time;
    status.baselineCommit = baseline.provenance.commit;
  }
  const comparisons: Comparison[] = [];
  for (const phase of current.phases) {
    const old = baseline?.phases.find((p) => p.name === phase.name);
    const gate = phaseGate(current, phase, gated);
    const group =
      current.family && old
        ? phaseFamily(
            current.family,
            gate.thresholds,
            phase,
            old,
            mannWhitneyRows,
            (m, t) => testable(m, t, phase, old),
            (k) => exactMannWhitney(k, old.trials.length),
          )
        : undefined;
    const rows = (Object.entries(gate.thresholds) as Array<[MetricName, Threshold]>).map(([metric, t]) =>
      comparePhaseMetric(current.name, metric, t, phase, old, final, group),
    );
    const counted = countedOnce(rows, old && gate.errorClasses ? newErrorClasses(current.name, phase, old) : []);
    // a busy machine's trial among the judged ones (gate.busy): no regression on a metric that scales
    const busy = busyTrials(current.phases, phase.name);
    comparisons.push(...(final ? counted.map((c) => busyVerdict(c, busy, 'trials')) : counted));
  }
  return { status, comparisons };
}

/**
 * A phase's rows with its new error classes, each problem counted once: when the phase's `errors` or
 * `error-rate` row already fails on the same failed responses, the new classes are named in its reason
 * instead of being regressions of their own.
 */
export function countedOnce(rows: Comparison[], newClasses: Comparison[]): Comparison[] {
  const errorRow = rows.find((r) => (r.metric === 'errors' || r.metric === 'error-rate') && r.result === 'regression');
  const fresh = newClasses.filter((c) => c.result === 'regression');
  if (!errorRow || fresh.length === 0) return [...rows, ...newClasses];
  const named = fresh.map((c) => /^new error class (.*?), never/.exec(c.reason ?? '')?.[1] ?? c.metric).join(', ');
  errorRow.reason = `${errorRow.reason ? `${errorRow.reason}; ` : ''}new error class${fresh.length === 1 ? '' : 'es'} ${named}`;
  return [...rows, ...newClasses.filter((c) => c.result !== 'regression')];
}

/** A run's verdict: `inconclusive` when nothing regressed but a row stayed open at its cap. */
export type OverallVerdict = 'pass' | 'regression' | 'inconclusive' | 'no-baseline';

export function overallVerdict(comparisons: readonly Comparison[]): OverallVerdict {
  if (comparisons.some((c) => c.result === 'regression')) return 'regression';
  if (comparisons.some((c) => c.result === 'inconclusive')) return 'inconclusive';
  // nothing was compared with a baseline (no baseline, or only invalid rows without one)
  if (comparisons.length > 0 && comparisons.every((c) => c.baseline === null)) return 'no-baseline';
  return 'pass';
}

const ORDER: Record<Verdict, number> = {
  regression: 0,
  inconclusive: 1,
  invalid: 2,
  accepted: 3,
  improvement: 4,
  'no-baseline': 5,
  pass: 6,
};

/** Regressions first, then warnings; stable within a class. */
export function sortForReport(comparisons: readonly Comparison[]): Comparison[] {
  return comparisons
    .map((c, i) => ({ c, i }))
    .sort((a, b) => ORDER[a.c.result] - ORDER[b.c.result] || a.i - b.i)
    .map(({ c }) => c);
}

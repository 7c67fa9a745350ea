// Pure: the A/B verdict (head against base measured in the same run, trials interleaved in pairs).
// Per metric and phase: the change is the median over pairs of head/base − 1, with an order-statistic
// confidence interval; a regression needs the band exceeded (by that median change, and by the median
// paired difference for a floor) AND a one-sided Wilcoxon signed-rank test over the pairs with
// p ≤ alpha. Absolute limits, generator-bound phases and new error classes work as in the gate.
import { busyTrials, busyVerdict, quietPairs, quietVerdict } from './busy.js';
import type { MetricName } from '../metrics/registry.js';
import type { Threshold, Thresholds } from '../config-parts/types.js';

/**
 * A/B's bands when a scenario has none: half the gate's. Both sides share the run's noise and drift
 * (measured on a 2-core VM with a CPU hog switching on and off: A/A median p50 change 0.1%, against
 * −0.4…+3% between runs), so a 10% band would only catch changes well beyond 10%.
 */
export const AB_BUILTIN_THRESHOLDS: Thresholds = {
  p50: { regress: 0.05, floor: 100 },
  p99: { regress: 0.15, floor: 500 },
  rps: { regress: 0.05 },
};

/** A/B's default significance level: pairs measured under the same noise need no stricter one, and 6
 * pairs (smallest p 1/64) can reach it. The gate's is stricter (0.01): its two sides come from two runs. */
export const AB_DEFAULT_ALPHA = 0.05;
import type { Comparison, PhaseResult, ScenarioResult } from '../results/types.js';
import { median, medianInterval, signedRankApprox, signedRankGreater } from '../stats/wilcoxon.js';
import { confirm, smallestSignedRankP } from './confirm.js';
import { cyclic, passingRows, worsened } from './power.js';
import { type JointRows, type PhaseGroup, phaseFamily, rowAlpha } from './family.js';
import { exactSignedRank, jointSignedRank } from '../stats/joint.js';
import {
  beyondBand,
  CAP_KEY,
  countedOnce,
  describeBand,
  GENERATOR_BOUND_REASON,
  unjudged,
  hasBand,
  limitBreach,
  generatorBound,
  answeredVerdict,
  shortRow,
  newErrorClasses,
  looksOfPhase,
  phaseGate,
  withConfirmation,
} from './compare.js';
import { direction, lacksPercentile, metricValue, tailShortfall, trialValues, unmeasured } from './metrics.js';

export interface PairedChange {
  /** median over pairs of head/base − 1; null when a base value is 0 and the medians differ */
  relative: number | null;
  /** median over pairs of head − base, in the metric's unit */
  absolute: number;
  interval?: [number, number];
  confidence?: number;
  pairs: number;
}

/** The paired change of head against base; values of pair i are base[i] and head[i]. */
export function pairedChange(base: readonly number[], head: readonly number[]): PairedChange {
  const n = Math.min(base.length, head.length);
  const diffs: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) {
    const b = base[i] as number;
    const h = head[i] as number;
    diffs.push(h - b);
    if (b !== 0) ratios.push(h / b - 1);
  }
  const absolute = n ? median(diffs) : 0;
  if (ratios.length === 0) {
    // every base value is zero: a relative change from zero is unbounded; only "no change" has one
    return { relative: diffs.every((d) => d === 0) ? 0 : null, absolute, pairs: n };
  }
  // pairs whose base is zero have no ratio; the relative change is taken over the others
  const ci = medianInterval(ratios);
  return { relative: median(ratios), absolute, interval: [ci.low, ci.high], confidence: ci.confidence, pairs: n };
}

const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;

function compareAbMetric(
  scenario: string,
  metric: MetricName,
  t: Threshold,
  base: PhaseResult,
  head: PhaseResult,
  final: boolean,
  group?: PhaseGroup,
): Comparison {
  const out: Comparison = {
    scenario,
    phase: head.name,
    metric,
    baseline: metricValue(base.merged, metric),
    current: metricValue(head.merged, metric),
    delta: null,
    band: describeBand(metric, t),
    result: 'pass',
  };
  const baseValues = trialValues(base.trials, metric);
  const headValues = trialValues(head.trials, metric);
  const pc = pairedChange(baseValues, headValues);
  out.pairs = pc.pairs;
  out.delta = pc.relative === null ? null : round(pc.relative) || 0;
  if (pc.interval) out.interval = [round(pc.interval[0]), round(pc.interval[1])];
  if (pc.confidence !== undefined) out.confidence = round(pc.confidence);
  // the change in the worse direction: what the band is held to, judged or not
  const dir = direction(metric);
  const worse = dir * pc.absolute;
  const worseRelative = pc.relative === null ? null : dir * pc.relative;
  const bound = (['base', 'head'] as const).filter((side) => generatorBound(side === 'base' ? base : head));
  if (bound.length > 0) {
    // a change beyond the band is not passed, whichever side was bound (compare.ts `unjudged`)
    const beyond = pc.pairs > 0 && beyondBand(t, worse, worseRelative);
    // head's absolute limits stand on head alone: all of its value where head was not bound, what its
    // service answered where it was
    if (!bound.includes('head')) {
      const breach = limitBreach(metric, t, out.current);
      if (breach) return { ...out, result: 'regression', reason: breach };
    } else {
      const answered = answeredVerdict(metric, t, head.merged, bound.includes('base') ? null : out.baseline);
      if (answered) return { ...out, ...answered };
    }
    return unjudged(out, `${bound.join(' and ')}: ${GENERATOR_BOUND_REASON}`, t, beyond);
  }
  const missing = unmeasured(head.merged, metric) ?? unmeasured(base.merged, metric);
  if (missing) return { ...out, result: 'invalid', reason: missing };
  // both sides' percentiles come from one config; a results file compared again with more may lack one
  const lacking = (['base', 'head'] as const).filter((side) => {
    const p = side === 'base' ? base : head;
    return lacksPercentile([p.merged, ...p.trials], metric);
  });
  if (lacking.length > 0)
    return { ...out, result: 'invalid', reason: `no ${metric} in the ${lacking.join(' and ')} side's trials` };
  const breach = limitBreach(metric, t, out.current);
  if (breach) return { ...out, result: 'regression', reason: breach };
  const alpha = rowAlpha(t, group?.family, AB_DEFAULT_ALPHA);
  const diffs = headValues.map((h, i) => dir * (h - (baseValues[i] as number)));
  if (hasBand(t)) {
    const short = tailShortfall(head.trials, metric, 'head') ?? tailShortfall(base.trials, metric, 'base');
    if (short) {
      const confirmed =
        pc.pairs > 0 && beyondBand(t, worse, worseRelative) ? signedRankGreater(diffs).pValue : undefined;
      return shortRow(out, short, confirmed, alpha, 'pairs');
    }
  }
  // gate.bands: inform: the change is shown, never judged
  if (t.inform && hasBand(t)) return { ...out, informational: true };
  const worseOut = beyondBand(t, worse, worseRelative);
  const betterOut = beyondBand(t, -worse, worseRelative === null ? null : -worseRelative);
  const pairs = headValues.slice(0, baseValues.length).map((h, i) => ({ h, b: baseValues[i] as number }));
  // what a pass could have caught is said of the final verdict (not of the looks while measuring)
  const looks = looksOfPhase(head);
  // the head's first k pairs (cycled beyond them) with the head made worse by d, as the test reads them
  const shifted = (d: number, k: number) => cyclic(pairs, k).map(({ h, b }) => dir * (worsened(h, d, dir) - b));
  const passing = passingRows(
    final,
    {
      metric,
      band: t,
      looks,
      alpha,
      smallestAtFirst: smallestSignedRankP(looks.first),
      trials: pairs.length,
    },
    group,
    (d, k) => signedRankGreater(shifted(d, k)).pValue,
    (d, k) => signedRankApprox(shifted(d, k)),
  );
  if (!worseOut && !betterOut) return passing(out);
  if (!worseOut) {
    // an improvement is information: one test over every pair
    const { pValue } = signedRankGreater(diffs.map((d) => -d));
    out.pValue = round(pValue);
    return pValue <= alpha ? { ...out, result: 'improvement' as const } : passing(out);
  }
  const c = confirm({
    trials: diffs.length,
    looks,
    alpha,
    pAt: (k) => (group ? group.pAt(metric, k) : signedRankGreater(diffs.slice(0, k)).pValue),
    // as if every pair differed: the split of alpha between the looks must not depend on the data
    smallestAt: smallestSignedRankP,
    unit: 'pairs',
    capKey: CAP_KEY,
  });
  return withConfirmation(out, c, final);
}

/** Whether a row reaches the signed-rank test (the checks of compareAbMetric before it). */
function testableAb(metric: MetricName, t: Threshold, base: PhaseResult, head: PhaseResult): boolean {
  return (
    !generatorBound(base) &&
    !generatorBound(head) &&
    unmeasured(head.merged, metric) === undefined &&
    unmeasured(base.merged, metric) === undefined &&
    !lacksPercentile([head.merged, ...head.trials], metric) &&
    !lacksPercentile([base.merged, ...base.trials], metric) &&
    limitBreach(metric, t, metricValue(head.merged, metric)) === undefined &&
    tailShortfall(head.trials, metric, 'head') === undefined &&
    tailShortfall(base.trials, metric, 'base') === undefined
  );
}

/** The joint signed-rank p of a phase's rows: each row's paired differences over the first k pairs,
 * worse upwards. */
const signedRankRows: JointRows = (metrics, head, base, k, shift) =>
  jointSignedRank(
    metrics.map((m) => {
      const b = trialValues(base.trials, m);
      const pairs = trialValues(head.trials, m).map((h, i) => ({ h, b: b[i] as number }));
      return cyclic(pairs, k).map(
        ({ h, b: v }) => direction(m) * ((m === shift?.metric ? worsened(h, shift.d, direction(m)) : h) - v),
      );
    }),
  );

/** Compares one scenario's head results with its base results, phase by phase. */
export function compareAbScenario(
  head: ScenarioResult,
  base: ScenarioResult,
  thresholds: Thresholds,
  final = true,
): Comparison[] {
  const gated = Object.keys(thresholds).length > 0 ? thresholds : AB_BUILTIN_THRESHOLDS;
  const out: Comparison[] = [];
  for (const phase of head.phases) {
    const old = base.phases.find((p) => p.name === phase.name);
    if (!old) continue;
    const gate = phaseGate(head, phase, gated);
    // pairs with a busy trial the repeats could not replace are left out of the tests (gate.busy)
    const quiet = quietPairs(head.phases, base.phases, phase.name);
    const [h, b] = quiet ? [quiet.keep(phase), quiet.keep(old)] : [phase, old];
    const group = head.family
      ? phaseFamily(
          head.family,
          gate.thresholds,
          h,
          b,
          signedRankRows,
          (m, t) => testableAb(m, t, b, h),
          exactSignedRank,
        )
      : undefined;
    const rows = (Object.entries(gate.thresholds) as Array<[MetricName, Threshold]>).map(([metric, t]) =>
      compareAbMetric(head.name, metric, t, b, h, final, group),
    );
    const fresh = (gate.errorClasses ? newErrorClasses(head.name, phase, old) : []).map((c) => ({
      ...c,
      reason: c.reason?.replace('never seen in the baseline', 'never seen on the base side'),
    }));
    const counted = countedOnce(rows, fresh);
    // a busy machine's head trial still among the judged pairs (gate.busy): no regression on a metric
    // that scales
    const busy = busyTrials(head.phases, phase.name);
    const judged = (c: Comparison) => (quiet ? quietVerdict(c, quiet) : busyVerdict(c, busy, 'pairs'));
    out.push(...(final ? counted.map(judged) : counted));
  }
  return out;
}

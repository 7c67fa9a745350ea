// Pure: the early look (gate.early-look, issue 33). A phase whose every row is clearly inside its band
// after the first few trials (pairs in A/B) stops there instead of running all of its configured ones.
//
// "Clearly inside": the one-sided 95% upper bound of the row's change, in the worse direction, lies
// below its band's edge. The bound is Student's t over the logarithms of the trial values: Welch's
// two-sample interval against the baseline's trials in the gate, the paired interval over the pairs'
// log ratios in A/B. Stopping only ever passes a row, so it cannot raise a false alarm; what it can
// cost is power: a row truly at its band's edge is stopped at most 5% of the time (less for a larger
// change), where its normal-theory interval holds. Trials are few and not quite normal, so that figure
// is a model; a phase stops only when every row is inside, so a noisy row keeps its phase running.
//
// What must hold of every row of the phase (its mix entries and WebSocket results included): its
// verdict at this look is a pass or an improvement, not open; a judged band on a metric that scales
// (latency, rps, bytes-per-sec, memory, cpu) has its bound below the edge; a count or share with a
// band (errors, error-rate) is no worse a trial than the baseline. A phase whose rows have no band to
// bound (absolute limits only, or bands shown as information) stops when they pass at the look;
// a limit on a count (errors) is checked on the count the configured trials would reach at the pace
// of those run, other limits on the trials that ran. New error classes are looked for in the trials
// that ran.
import { type MetricName, metricOf, isMetricName } from '../metrics/registry.js';
import type { Threshold, Thresholds } from '../config-parts/types.js';
import {
  type BaselineFile,
  type Comparison,
  ofPhase,
  type PhaseResult,
  type ScenarioResult,
} from '../results/types.js';
import { studentQuantile } from '../stats/student.js';
import { compareAbScenario } from './ab.js';
import { quietSides } from './busy.js';
import { judgedBand } from './band.js';
import { compareScenario, limitBreach, looksOfPhase, phaseGate } from './compare.js';
import { AGAINST_BASELINES, judgedThresholds, PAIRED } from './judging.js';
import { direction, metricValue, trialValues } from './metrics.js';
import { bandEdge, signedChange } from './power.js';

/** The confidence of the early look's upper bounds. */
export const EARLY_CONFIDENCE = 0.95;

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const variance = (v: readonly number[]) => {
  const m = mean(v);
  return v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1);
};

/**
 * The upper bound of mean(x) − mean(y) at `confidence` (Welch: unequal variances, Satterthwaite's
 * degrees of freedom), or undefined with fewer than 2 values a side.
 */
export function welchUpper(x: readonly number[], y: readonly number[], confidence: number): number | undefined {
  if (x.length < 2 || y.length < 2) return undefined;
  const vx = variance(x) / x.length;
  const vy = variance(y) / y.length;
  const diff = mean(x) - mean(y);
  const se2 = vx + vy;
  if (se2 === 0) return diff;
  const df = se2 ** 2 / (vx ** 2 / (x.length - 1) + vy ** 2 / (y.length - 1));
  return diff + studentQuantile(confidence, df) * Math.sqrt(se2);
}

/** The upper bound of the mean of paired differences at `confidence`, or undefined with fewer than 2. */
export function pairedUpper(d: readonly number[], confidence: number): number | undefined {
  if (d.length < 2) return undefined;
  const se2 = variance(d) / d.length;
  if (se2 === 0) return mean(d);
  return mean(d) + studentQuantile(confidence, d.length - 1) * Math.sqrt(se2);
}

/** A band's edge (a relative change from the baseline) as a change of logarithms in the worse direction;
 * Infinity where no value can reach it (a rate falling by its whole value). */
export function edgeLog(edge: number, dir: 1 | -1): number {
  if (dir > 0) return Math.log1p(edge);
  return edge >= 1 ? Number.POSITIVE_INFINITY : -Math.log1p(-edge);
}

/** One bounded row: its change's upper bound and its band's edge, both relative changes in the worse
 * direction (0.08: 8% worse at most). */
export interface BoundedRow {
  phase: string;
  metric: MetricName;
  bound: number;
  edge: number;
}

export type EarlyLook =
  /** every row clearly inside: the phase stops */
  | { stop: true; rows: BoundedRow[] }
  /** a row is not: why, for the log */
  | { stop: false; why: string };

/** The worse-direction log values of a row: undefined when a value is not positive (no logarithm). */
function logs(values: readonly number[], dir: 1 | -1): number[] | undefined {
  if (values.some((v) => !(v > 0))) return undefined;
  return values.map((v) => dir * Math.log(v));
}

/** How a phase's rows are bounded: from the phase's results on both sides, a row's worse-direction
 * upper bound of its log change, or undefined when it cannot be bounded. */
type Bound = (metric: MetricName, current: PhaseResult, other: PhaseResult) => number | undefined;

const gateBound: Bound = (metric, current, baseline) => {
  const dir = direction(metric);
  const x = logs(trialValues(current.trials, metric), dir);
  const y = logs(trialValues(baseline.trials, metric), dir);
  return x && y ? welchUpper(x, y, EARLY_CONFIDENCE) : undefined;
};

const abBound: Bound = (metric, head, base) => {
  const dir = direction(metric);
  const h = logs(trialValues(head.trials, metric), dir);
  const b = logs(trialValues(base.trials, metric), dir);
  if (!h || !b) return undefined;
  const n = Math.min(h.length, b.length);
  return pairedUpper(
    h.slice(0, n).map((v, i) => v - (b[i] as number)),
    EARLY_CONFIDENCE,
  );
};

/** A metric whose phase value is the sum over its trials (a count), not a rate or a percentile. */
const summedOverTrials = (metric: MetricName) => metric === 'errors';

/** A metric's mean value a trial. */
function perTrial(p: PhaseResult, metric: MetricName): number {
  const values = trialValues(p.trials, metric);
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Why a count's absolute limit would break once the phase's configured trials ran at this pace. */
function projectedBreach(metric: MetricName, t: Threshold, p: PhaseResult): string | undefined {
  const looks = looksOfPhase(p);
  if (p.trials.length === 0 || looks.first <= p.trials.length) return undefined;
  return limitBreach(metric, t, (metricValue(p.merged, metric) * looks.first) / p.trials.length);
}

function describeRow(c: Pick<Comparison, 'phase' | 'metric'>): string {
  return `${c.phase} ${c.metric}`;
}

/**
 * The early look at one phase: its rows' verdicts at this look (`rows`, compared with `final` false)
 * and the phases' results on both sides. `gated` are the scenario's thresholds (or the mode's default).
 */
function look(
  phase: string,
  rows: readonly Comparison[],
  current: ScenarioResult,
  other: Pick<ScenarioResult, 'phases'>,
  gated: Thresholds,
  bound: Bound,
): EarlyLook {
  const mine = rows.filter((c) => ofPhase(c.phase, phase));
  const unsettled = mine.find((c) => c.open || (c.result !== 'pass' && c.result !== 'improvement'));
  if (unsettled)
    return { stop: false, why: `${describeRow(unsettled)} is ${unsettled.open ? 'open' : unsettled.result}` };
  const bounded: BoundedRow[] = [];
  for (const p of current.phases.filter((q) => ofPhase(q.name, phase))) {
    const o = other.phases.find((q) => q.name === p.name);
    if (!o) return { stop: false, why: `${p.name} has nothing to compare with` };
    const gate = phaseGate(current, p, gated);
    for (const [metric, t] of Object.entries(gate.thresholds) as Array<[MetricName, Threshold]>) {
      // a limit on a count is checked on the count the configured trials would add up to
      const projected = summedOverTrials(metric) ? projectedBreach(metric, t, p) : undefined;
      if (projected) return { stop: false, why: `${p.name} ${metric} ${projected} at the configured trials' pace` };
      if (!judgedBand(t)) continue;
      const dir = direction(metric);
      const base = metricValue(o.merged, metric);
      if (!isMetricName(metric) || !metricOf(metric).scales) {
        // a count or a share: clear only when no worse a trial than the other side (a count adds up
        // over trials, and this side has run fewer)
        if (dir * (perTrial(p, metric) - perTrial(o, metric)) > 0)
          return { stop: false, why: `${p.name} ${metric} is worse a trial than the baseline's` };
        continue;
      }
      const edge = bandEdge(t, base);
      const upper = bound(metric, p, o);
      if (edge === undefined || upper === undefined)
        return { stop: false, why: `${p.name} ${metric} cannot be bounded (too few trials, or a zero value)` };
      const worst = dir > 0 ? Math.expm1(upper) : -Math.expm1(-upper);
      if (!(upper < edgeLog(edge, dir)))
        return {
          stop: false,
          why: `${p.name} ${metric} may be ${signedChange(Math.max(0, worst), dir)} (95% bound), its band is ${signedChange(edge, dir)}`,
        };
      bounded.push({ phase: p.name, metric, bound: worst, edge });
    }
  }
  return { stop: true, rows: bounded };
}

/** The gate's early look at a phase of `current` against its baseline. */
export function earlyLookGate(
  current: ScenarioResult,
  thresholds: Thresholds,
  baseline: BaselineFile,
  phase: string,
): EarlyLook {
  const gated = judgedThresholds({ thresholds }, AGAINST_BASELINES);
  const { comparisons } = compareScenario(current, thresholds, baseline, false);
  return look(phase, comparisons, current, baseline, gated, gateBound);
}

/** A/B's early look at a phase: the head's pairs against the base's. */
export function earlyLookAb(
  head: ScenarioResult,
  base: ScenarioResult,
  thresholds: Thresholds,
  phase: string,
): EarlyLook {
  const gated = judgedThresholds({ thresholds }, PAIRED);
  // the pairs the verdict tests: without the busy ones the repeats could not replace (gate.busy)
  const [h, b] = quietSides(head, base);
  return look(phase, compareAbScenario(h, b, thresholds, false), h, b, gated, abBound);
}

/** The rows of a stopped phase in words, for the log: "p50 ≤ +3.1% (band +10%), rps ≥ -2% (band -10%)". */
export function describeBounds(rows: readonly BoundedRow[]): string {
  return rows
    .map((r) => {
      const dir = direction(r.metric);
      return `${r.phase} ${r.metric} at most ${signedChange(Math.max(0, r.bound), dir)} (band ${signedChange(r.edge, dir)})`;
    })
    .join(', ');
}

// Pure: false alarms per run, not per row (issue 33, `gate.run-alpha`). Every row of a run is tested at
// its own alpha unless the config gives the run a budget: then the budget is split evenly over the
// run's gated phases (a phase, or a mix entry's or WebSocket stream's results beside it, with at least
// one relative band: Bonferroni, valid whatever their dependence), and the rows of one phase share
// their phase's share through a joint permutation test (stats/joint.ts), so a phase's correlated p50,
// p99 and rps are not charged three times. A run raises a false alarm with probability at most the
// budget: the sum over phases of their shares. The plan counts the phases (run-budget.ts).
import type { MetricName } from '../metrics/registry.js';
import type { Threshold, Thresholds, Family } from '../config-parts/types.js';
import type { PhaseResult } from '../results/types.js';
import { judgedBand } from './band.js';
import { SAMPLES } from '../stats/joint.js';

/** The alpha a banded row is tested at: its phase's share of the run's budget, else its own or the
 * mode's default. */
export function rowAlpha(t: Pick<Threshold, 'alpha'>, family: Family | undefined, defaultAlpha: number): number {
  if (!family) return t.alpha ?? defaultAlpha;
  // a row's own stricter alpha stays
  const share = family.alpha / family.members;
  return Math.min(t.alpha ?? share, share);
}

/** A bound on a row's joint p from its own: the joint adjustment costs at most the number of rows tested
 * together times p (exact enumeration), and a sampled one cannot go below one in SAMPLES + 1. */
export function jointBound(p: number, rows: number): number {
  return Math.min(1, rows <= 1 ? p : Math.max(rows * p, jointFloor));
}

/** The smallest p a sampled joint test can give: one in SAMPLES + 1. */
export const jointFloor = 1 / (SAMPLES + 1);

/**
 * The joint p a row is sure to get when it moves alone at its test's extreme (its own p the smallest
 * the test can give, `p`) and the phase's `rows` - 1 others do not move: what the reach check holds a
 * config to. Each other row's own extreme can sit on a labelling of its own, so an exact enumeration
 * counts up to `rows` labellings as extreme as the observed one: rows × p. A sampled test (where the
 * labellings are too many to enumerate) counts the observed labelling plus the draws that hit one of
 * those, about Poisson(SAMPLES × rows × p) of them: the bound takes that count's 99% quantile, so a
 * sampled p is above the bound in at most 1% of phases (reach-property.test.ts checks the bound
 * against the verdict's own joint test).
 */
export function jointReach(p: number, rows: number, exact: boolean): number {
  if (rows <= 1) return Math.min(1, p);
  if (exact) return Math.min(1, rows * p);
  return Math.min(1, (1 + poissonQuantile(SAMPLES * rows * p, 0.99)) / (SAMPLES + 1));
}

/** The smallest h with P(H ≤ h) ≥ q for H ~ Poisson(mean). */
export function poissonQuantile(mean: number, q: number): number {
  let term = Math.exp(-mean);
  let sum = term;
  let h = 0;
  while (sum < q && h < 1e6) {
    h++;
    term *= mean / h;
    sum += term;
  }
  return h;
}

/** A row made worse by a relative change d (the power search), the phase's other rows as measured. */
export interface Shift {
  metric: MetricName;
  d: number;
}

/** The joint p of a phase's rows over the current side's first k trials (pairs; cycled beyond them). */
export type JointRows = (
  metrics: MetricName[],
  current: PhaseResult,
  other: PhaseResult,
  k: number,
  shift?: Shift,
) => number[];

/** A phase's rows under a run budget (gate.run-alpha): the phase's share, and each row's p adjusted for
 * the others. */
export interface PhaseGroup {
  family: Family;
  /** the row's p over the current side's first k trials (pairs), adjusted for the phase's other rows */
  pAt(metric: string, k: number): number;
  /** the row's joint p with its own trials made worse by d (the others as measured), where the joint
   * test enumerates every relabelling; undefined where it would sample (the power search then bounds) */
  pShifted(metric: string, d: number, k: number): number | undefined;
  /** how many rows are tested together */
  rows: number;
}

/**
 * A phase's rows tested together: its banded rows' joint p at k trials (pairs), computed once per k by
 * `joint` (the metrics, the two sides' phases, k → each metric's adjusted p).
 */
export function phaseFamily(
  family: Family,
  thresholds: Thresholds,
  current: PhaseResult,
  other: PhaseResult,
  joint: JointRows,
  testable: (metric: MetricName, t: Threshold) => boolean,
  exactAt: (k: number) => boolean,
): PhaseGroup {
  // the rows that reach the test: a row without a value, without a baseline's, with too few samples
  // or beyond an absolute limit is judged without one and would only widen the others' adjustment
  const metrics = (Object.entries(thresholds) as Array<[MetricName, Threshold | undefined]>)
    .filter(([m, t]) => judgedBand(t) && testable(m, t))
    .map(([m]) => m);
  const byK = new Map<number, number[]>();
  return {
    family,
    rows: metrics.length,
    pShifted(metric, d, k) {
      const i = metrics.indexOf(metric as MetricName);
      if (i < 0 || !exactAt(k)) return undefined;
      return joint(metrics, current, other, k, { metric: metric as MetricName, d })[i];
    },
    pAt(metric, k) {
      let ps = byK.get(k);
      if (!ps) {
        ps = joint(metrics, current, other, k);
        byK.set(k, ps);
      }
      const i = metrics.indexOf(metric as MetricName);
      return i < 0 ? 1 : (ps[i] as number);
    },
  };
}

// Pure: what a passing row could have caught (issue 33). A pass says the change was inside the band, or
// not significant; it does not say that a change of the band's size would have failed. For each passing
// row the run states the smallest change it could have confirmed: the current (head) trials are scaled
// by a change d in the worse direction, and d is the smallest for which the row's test, at the alpha
// its looks spend, gives p ≤ that alpha. A row whose band is below d is marked "could not detect its
// band": a change of the band's size would have passed too. The band's edge is measured from the
// baseline, so it is compared with the move of this run's trials that reaches it (shiftToEdge).
//
// The looks are the gate's two (confirm.ts): the configured trials at `spent.first`, and, when
// confirmation may run, the cap at `spent.final`, whose extra trials are taken to spread as this run's
// did (its trials repeated in order up to the cap). That is a model, said where it is shown. A scaled
// value only moves up (down, for a rate) and both tests' statistics only grow with it, so the p is
// monotone in d, and d is found as the report shows it: to whole percentage points, and under 10% to
// 0.1 point (rounded up: the smallest point of that grid the test confirms). The search starts where
// the test's normal approximation crosses alpha (where the caller has one), gallops to a bracket and
// bisects in it, so the exact test is asked a few times near its answer rather than all the way down
// from ×101: on the 0.1-point grid where the approximation is under 10% (answers there are usually
// found in 2 exact tests), else on whole points, an answer under 10% then refined inside its point.
import { type MetricName, metricOf } from '../metrics/registry.js';
import type { Threshold } from '../config-parts/types.js';
import type { Comparison } from '../results/types.js';
import { type AlphaSpending, type Looks, spendAlpha } from './confirm.js';
import { jointBound, type PhaseGroup } from './family.js';

/** The search's grid: changes are found to 0.1 percentage point (a step of 1/GRID) under FINE_BELOW. */
const GRID = 1000;
/** A whole percentage point, in grid steps: above FINE_BELOW the answer is found to whole points (the
 * report shows no decimal there: signedChange), which asks the exact test about 3 times fewer. */
const POINT = 10;
/** Under 10% (in grid steps) the answer is refined to 0.1 point. */
const FINE_BELOW = 10 * POINT;
/** The largest change searched: ×101 for a latency, a rate down to 0.1% of itself (in grid steps). */
const MAX_WORSE_UP = 100 * GRID;
const MAX_WORSE_DOWN = GRID - 1;

/** `values` repeated in order to `k` values (the first k when there are more). */
export function cyclic<T>(values: readonly T[], k: number): T[] {
  if (values.length === 0) return [];
  return Array.from({ length: k }, (_, i) => values[i % values.length] as T);
}

/** A value made worse by a relative change d: up for a metric worse upwards, down for one worse downwards. */
export function worsened(value: number, d: number, direction: 1 | -1): number {
  return value * (1 + direction * d);
}

export interface PowerInput {
  looks: Looks;
  spent: AlphaSpending;
  /** the trials (pairs) of the current side measured so far */
  trials: number;
  direction: 1 | -1;
  /** the test's p when the current side's first k trials (pairs), cycled when k exceeds them, are made
   * worse by d; only whether it is at most `alpha` is read, so a p above it may be any value above it */
  pAt: (d: number, k: number, alpha: number) => number;
  /** the same p, approximated at a fraction of the cost (a normal approximation): only where the
   * search starts; the answer is pAt's whatever it says */
  approxAt?: (d: number, k: number) => number;
}

/**
 * The smallest relative change (a fraction, e.g. 0.12 for 12%) the row's test would have confirmed at
 * one of its looks, as the report shows it: the smallest whole percentage point it confirms, under 10%
 * the smallest 0.1 point (searchStep); or null when no change could have been (the looks' trials cannot
 * reach alpha).
 */
export function smallestConfirmable(input: PowerInput): number | null {
  let best: number | null = null;
  for (const { k, alpha } of lookTests(input)) {
    // a look that cannot confirm the change an earlier look found cannot confirm a smaller one (p only
    // falls as d grows): it is searched below that change, or not at all
    const top: number = best === null ? (input.direction > 0 ? MAX_WORSE_UP : MAX_WORSE_DOWN) : best - 1;
    if (top < 0) break;
    const confirms = remembered((step) => input.pAt(step / GRID, k, alpha) <= alpha);
    // where the approximation crosses alpha, if it does below top (where it does not, it says nothing)
    const approx = input.approxAt;
    const start = approx && firstStep((step) => approx(step / GRID, k) <= alpha, top);
    const found =
      start != null && start <= FINE_BELOW ? fineFirst(confirms, top, start) : pointFirst(confirms, top, start);
    if (found === null) continue;
    best = found;
  }
  return best === null ? null : best / GRID;
}

/** Where the approximation puts the answer under 10%: the 0.1-point grid searched from there (about 2
 * exact tests where the approximation is close), the answer above 10% then rounded up to its point. */
function fineFirst(confirms: (step: number) => boolean, top: number, start: number): number | null {
  const found = firstStep(confirms, top, start);
  return found === null || found <= FINE_BELOW ? found : Math.min(Math.ceil(found / POINT) * POINT, top);
}

/** Elsewhere whole points first (top itself where it is not one), from the approximation's point where
 * there is one; an answer under 10% then refined to 0.1 point above the point below it (which the
 * search found does not confirm). The same answer as fineFirst's: the test is monotone in the change. */
function pointFirst(confirms: (step: number) => boolean, top: number, start: number | null | undefined): number | null {
  const at = (point: number): number => Math.min(point * POINT, top);
  const point = firstStep((j) => confirms(at(j)), Math.ceil(top / POINT), start != null ? start / POINT : undefined);
  if (point === null) return null;
  const found = at(point);
  if (found === 0 || found > FINE_BELOW) return found;
  const below = (point - 1) * POINT;
  return below + (firstStep((s) => confirms(below + s), found - below) as number);
}

/** The grid a detectable change was found on (smallestConfirmable): 0.1 point under 10%, else a point. */
export function searchStep(detectable: number): number {
  return detectable * GRID > FINE_BELOW + 1e-6 ? POINT / GRID : 1 / GRID;
}

/** The looks a row's test is asked at: the first on its configured trials, the cap's when
 * confirmation may run; each with the alpha it spends. */
function lookTests(input: PowerInput): Array<{ k: number; alpha: number }> {
  const { looks, spent } = input;
  const first = Math.min(looks.first, input.trials);
  const out: Array<{ k: number; alpha: number }> = [];
  if (spent.first > 0 && first > 0) out.push({ k: first, alpha: spent.first });
  if (looks.cap > looks.first && spent.final > 0 && input.trials > 0) out.push({ k: looks.cap, alpha: spent.final });
  return out;
}

/** `f` asked once per argument. */
function remembered(f: (step: number) => boolean): (step: number) => boolean {
  const seen = new Map<number, boolean>();
  return (step) => {
    let v = seen.get(step);
    if (v === undefined) {
      v = f(step);
      seen.set(step, v);
    }
    return v;
  };
}

/**
 * The first step of 0..top at which `holds` (false up to some step, true from it on), or null when it
 * does not hold at top. From `start` (a guess) it gallops (1, 2, 4, … steps) to a bracket, then
 * bisects; without one it brackets 0..top. Geometric while far apart (a latency's range spans ×101),
 * halves once close.
 */
export function firstStep(holds: (step: number) => boolean, top: number, start?: number): number | null {
  let lo: number;
  let hi: number;
  if (start === undefined) {
    if (!holds(top)) return null;
    if (holds(0)) return 0;
    [lo, hi] = [0, top];
  } else {
    const from = Math.min(top, Math.max(0, Math.round(start)));
    if (holds(from)) {
      if (from === 0) return 0;
      // down from the guess until it fails
      hi = from;
      for (let jump = 1; ; jump *= 2) {
        const next = hi - jump;
        if (next <= 0) {
          if (holds(0)) return 0;
          lo = 0;
          break;
        }
        if (!holds(next)) {
          lo = next;
          break;
        }
        hi = next;
      }
    } else {
      // up from the guess until it holds
      lo = from;
      for (let jump = 1; ; jump *= 2) {
        const next = lo + jump;
        if (next >= top) {
          if (!holds(top)) return null;
          hi = top;
          break;
        }
        if (holds(next)) {
          hi = next;
          break;
        }
        lo = next;
      }
    }
  }
  // holds(hi), not holds(lo)
  while (hi - lo > 1) {
    const geometric = hi > 4 * Math.max(lo, 10);
    const mid = geometric ? Math.round(Math.sqrt(Math.max(lo, 1) * hi)) : Math.floor((lo + hi) / 2);
    const inside = Math.min(hi - 1, Math.max(lo + 1, mid));
    if (holds(inside)) hi = inside;
    else lo = inside;
  }
  return hi;
}

/**
 * A band's edge as a relative change from `base`: the larger of `regress` and `floor / base` (both must
 * be exceeded), or undefined when the band has neither or the base is not positive.
 */
export function bandEdge(band: { regress?: number; floor?: number }, base: number): number | undefined {
  if (!(base > 0)) return undefined;
  if (band.regress === undefined && band.floor === undefined) return undefined;
  return Math.max(band.regress ?? 0, band.floor !== undefined ? band.floor / base : 0);
}

export interface RowPower {
  /** the smallest change the row's test would have confirmed; null: none at these trials */
  detectable: number | null;
  /** true when a change of the band's size would not have been confirmed */
  blind: boolean;
}

/** A passing row's power: the smallest change it could have confirmed, and whether its band is below it. */
export function rowPower(input: PowerInput, edge: number): RowPower {
  const detectable = smallestConfirmable(input);
  // the answer is on a grid (searchStep): an edge just below it may still be confirmed where it lies
  const between = detectable !== null && detectable > edge + 1e-9 && detectable - searchStep(detectable) < edge;
  const atEdge = between && lookTests(input).some(({ k, alpha }) => input.pAt(edge, k, alpha) <= alpha);
  return { detectable, blind: detectable === null || (detectable > edge + 1e-9 && !atEdge) };
}

/**
 * How far the current side's trials must move (the change d they are scaled by) for its value to reach
 * the band's edge, which is measured from the baseline: `base·(1 + edge)`, or `base·(1 − edge)` for a
 * metric worse downwards. Undefined when the edge cannot be reached at all (a rate cannot fall by its
 * whole value) or the current value is not positive.
 */
export function shiftToEdge(edge: number, base: number, current: number, direction: 1 | -1): number | undefined {
  const target = base * (1 + direction * edge);
  if (!(current > 0) || !(target > 0)) return undefined;
  return Math.max(0, direction > 0 ? target / current - 1 : 1 - target / current);
}

/**
 * The trials (pairs) a row's power is computed at: those measured, or, for a phase stopped at its early
 * look (gate.early-look), its configured count, its trials repeated up to it: a change the early look
 * would not have let pass runs on to the first look, whose test is what could have confirmed it.
 */
export function powerTrials(looks: Looks, measured: number): number {
  return looks.stopped !== undefined ? Math.max(measured, looks.first) : measured;
}

export interface PassingRow {
  metric: MetricName;
  band: Threshold;
  looks: Looks;
  alpha: number;
  /** the smallest p the first look's trials (pairs) can give: it decides how alpha is split */
  smallestAtFirst: number;
  /** the trials (pairs) of the current side measured */
  trials: number;
  pAt: PowerInput['pAt'];
  approxAt?: PowerInput['approxAt'];
}

/**
 * What a phase's passing rows are given: nothing while measuring (`final` false), else their power, the
 * row's own test `own(d, k)` or, with a phase's rows tested together, their joint test (a bound on it
 * where it would sample). `row.trials` are those measured; a phase stopped at its early look is taken
 * at its configured count (powerTrials).
 */
export function passingRows(
  final: boolean,
  row: Omit<PassingRow, 'pAt'>,
  group: PhaseGroup | undefined,
  own: (d: number, k: number, alpha: number) => number,
  approx?: (d: number, k: number) => number,
): (out: Comparison) => Comparison {
  if (!final) return (out) => out;
  // the joint bound is at most alpha where the row's own p is at most alpha over the rows
  const rows = group?.rows ?? 1;
  const pAt = (d: number, k: number, alpha: number) =>
    group?.pShifted(row.metric, d, k) ?? jointBound(own(d, k, rows > 1 ? alpha / rows : alpha), rows);
  // (the search starts where the row's own approximate p, so bounded, crosses alpha; the joint test's
  // answer is near it)
  const approxAt = approx && ((d: number, k: number) => jointBound(approx(d, k), rows));
  return (out) => withPower(out, { ...row, trials: powerTrials(row.looks, row.trials), pAt, approxAt });
}

/** A passing row with what it could have caught; rows of a metric that does not scale (errors, shares),
 * without a band or with a base that is not positive are returned as they are. */
export function withPower(out: Comparison, row: PassingRow): Comparison {
  const metric = metricOf(row.metric);
  const edge = bandEdge(row.band, out.baseline ?? 0);
  if (!metric.scales || edge === undefined || out.result !== 'pass' || out.informational) return out;
  const spent = spendAlpha(row.alpha, row.looks, row.smallestAtFirst);
  const input = {
    looks: row.looks,
    spent,
    trials: row.trials,
    direction: metric.direction,
    pAt: row.pAt,
    ...(row.approxAt ? { approxAt: row.approxAt } : {}),
  };
  // the band's edge as a move of this run's trials (a band no change can exceed is never detected)
  const shift = shiftToEdge(edge, out.baseline ?? 0, out.current, metric.direction);
  const power = shift === undefined ? { detectable: smallestConfirmable(input), blind: true } : rowPower(input, shift);
  if (!power.blind) return { ...out, detectable: power.detectable };
  return {
    ...out,
    detectable: power.detectable,
    blind: true,
    reason: shift === undefined ? UNREACHABLE_BAND : blindReason(power.detectable, metric.direction),
  };
}

const UNREACHABLE_BAND = 'could not detect its band: no change of this value can exceed it';

/** A change as the report signs it in the worse direction: "+31%", "-8.5%". */
export function signedChange(d: number, direction: 1 | -1): string {
  const pct = d * 100;
  return `${direction > 0 ? '+' : '-'}${+pct.toFixed(pct < 10 ? 1 : 0)}%`;
}

function blindReason(detectable: number | null, direction: 1 | -1): string {
  return detectable === null
    ? 'could not detect its band: no change could have been confirmed at these trials'
    : `could not detect its band: the smallest change these trials could have confirmed is ${signedChange(detectable, direction)}`;
}

// Pure: confirmation by more trials (SPEC §4, "a gate can always fail a real regression").
//
// A row outside its band needs a one-sided test with p ≤ alpha to count. When the configured trials
// cannot confirm it (too few, or too noisy), perf-gate runs more trials of that phase up to a cap and
// tests again. Two looks at most, with alpha split between them (Bonferroni): the first look on the
// configured trials spends `first`, the final look on all trials spends `final`, first + final = alpha.
// Under H0 the chance of a false alarm at either look is at most first + final = alpha, whatever the
// first look did (P(A ∪ B) ≤ P(A) + P(B)), so the extra trials do not inflate the false-alarm rate.
// A look whose smallest possible p is above alpha / 2 gets nothing (it could never confirm), which
// leaves all of alpha to the final look: 3 vs 3 trials (smallest p 0.05) spend 0, then 0.01 at 12 vs 3.
import { binomial } from '../stats/mann-whitney.js';

/** The trial counts a phase is looked at: the configured trials, and the cap confirmation may reach. */
export interface Looks {
  /** trials (gate) or pairs (A/B) of the first look: the phase's configured count */
  first: number;
  /** the most trials or pairs confirmation may reach; `first` when confirmation is off */
  cap: number;
  /** the phase stopped at its early look after this many trials or pairs, every row clearly inside its
   * band (gate.early-look, compare/early.ts): no look at `first` or the cap was taken */
  stopped?: number;
}

/** The looks of a phase with `trials` configured and confirmation up to `maxTrials` (0: off). A cap
 * below the configured trials is off too: confirmation never runs fewer trials than configured. */
export function looksOf(trials: number, maxTrials: number): Looks {
  return { first: trials, cap: Math.max(trials, maxTrials) };
}

/** The smallest one-sided p of Mann–Whitney with n against m values (all n above all m): 1/C(n+m, n). */
export function smallestMannWhitneyP(n: number, m: number): number {
  if (n <= 0 || m <= 0) return 1;
  return 1 / binomial(n + m, n);
}

/** The smallest one-sided p of the signed-rank test over n pairs that differ (all of one sign): 2^-n. */
export function smallestSignedRankP(n: number): number {
  return n <= 0 ? 1 : 2 ** -n;
}

export interface AlphaSpending {
  first: number;
  final: number;
}

/** How alpha is split between the two looks; `smallestAtFirst` is the first look's smallest p. */
export function spendAlpha(alpha: number, looks: Looks, smallestAtFirst: number): AlphaSpending {
  if (looks.cap <= looks.first) return { first: alpha, final: 0 };
  if (smallestAtFirst <= alpha / 2) return { first: alpha / 2, final: alpha / 2 };
  return { first: 0, final: alpha };
}

/** What the test says of a row outside its band in the worse direction. */
export type Confirmation =
  /** the test confirmed it at one of the looks */
  | { kind: 'confirmed'; pValue: number; alpha: number; extra: number }
  /** not confirmed at the first look, and more trials up to the cap could confirm it */
  | { kind: 'open'; pValue: number; alpha: number }
  /** not confirmed, and no more trials will be run: why, in words */
  | { kind: 'inconclusive'; pValue: number; alpha: number; reason: string };

export interface ConfirmInput {
  /** trials (gate) or pairs (A/B) measured so far */
  trials: number;
  looks: Looks;
  alpha: number;
  /** the one-sided p over the first k trials or pairs */
  pAt: (k: number) => number;
  /** the smallest p a look at k trials or pairs could give */
  smallestAt: (k: number) => number;
  /** "trials" or "pairs", for the reasons */
  unit: 'trials' | 'pairs';
  /** the config key of the cap, for the reasons */
  capKey: string;
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;

/** A p above `limit` as a reason shows it: at four decimals, or with as many significant digits as
 * it takes to show it above the limit as shown ("p 0.00098 > 0.0008", never "p 0.0007 > 0.0007"). */
export function above(p: number, limit: number): number {
  const shown = round(limit);
  if (p <= limit || round(p) > shown) return round(p);
  for (let digits = 2; digits <= 12; digits++) {
    const v = +p.toPrecision(digits);
    if (v > shown) return v;
  }
  return p;
}

/** Applies the two-look rule to a row outside its band: confirmed at the first look (on the first
 * `looks.first` trials) or at the final look (on every trial, once there are more than the first). */
export function confirm(input: ConfirmInput): Confirmation {
  const { looks, alpha, unit } = input;
  const first = Math.min(looks.first, input.trials);
  const spent = spendAlpha(alpha, looks, input.smallestAt(looks.first));
  const p1 = input.pAt(first);
  if (p1 <= spent.first) return { kind: 'confirmed', pValue: p1, alpha: spent.first, extra: 0 };
  if (input.trials > first && input.trials < looks.cap) {
    // stopped by time before the cap: a test at a count the clock chose would not keep the rate
    return {
      kind: 'inconclusive',
      pValue: p1,
      alpha: spent.final,
      reason: `confirmation stopped by gate.confirm.max-time after ${input.trials - first} of ${looks.cap - first} more ${unit}: not tested again`,
    };
  }
  if (input.trials > first) {
    const p2 = input.pAt(input.trials);
    const extra = input.trials - first;
    if (p2 <= spent.final) return { kind: 'confirmed', pValue: p2, alpha: spent.final, extra };
    return {
      kind: 'inconclusive',
      pValue: p2,
      alpha: spent.final,
      reason: `not confirmed after ${extra} more ${unit}: p ${above(p2, spent.final)} > ${round(spent.final)} over ${input.trials} ${unit}`,
    };
  }
  if (looks.cap <= first) {
    const reachable = input.smallestAt(first) <= alpha;
    return {
      kind: 'inconclusive',
      pValue: p1,
      alpha,
      reason: reachable
        ? `not confirmed: p ${above(p1, alpha)} > ${alpha}, and confirmation by more ${unit} is off (${input.capKey})`
        : `${first} ${unit} cannot reach p ≤ ${alpha} (the smallest p is ${above(input.smallestAt(first), alpha)}), and confirmation by more ${unit} is off (${input.capKey})`,
    };
  }
  if (input.smallestAt(looks.cap) > spent.final) {
    return {
      kind: 'inconclusive',
      pValue: p1,
      alpha: spent.final,
      reason: `even ${looks.cap} ${unit} (the most ${input.capKey} and gate.confirm.max-time allow) cannot reach p ≤ ${round(spent.final)} (the smallest p is ${above(input.smallestAt(looks.cap), spent.final)}); raise trials, ${input.capKey} or gate.confirm.max-time, or refresh a baseline recorded with fewer trials`,
    };
  }
  return { kind: 'open', pValue: p1, alpha: spent.first };
}

// Pure: the rows of one phase tested together (issue 33, gate.run-alpha). A phase's p50, p99 and rps
// come from the same trials, so they are not independent tests: counting each against its own share of
// a run's false-alarm budget (Bonferroni) would penalise a phase three times for what is mostly one
// question. Instead each row's p is adjusted by the joint permutation distribution of the smallest p
// over the phase's rows (Westfall & Young's single-step minP): the trials' labels (baseline or current;
// in A/B each pair's sign) are permuted once for every row together, so the adjustment sees the rows'
// real correlation. Rows that always agree cost nothing (adjusted p = p); independent ones cost what
// Bonferroni would (about r·p); never more than r·p. Under no change a phase raises an alarm at an
// adjusted level a with probability at most a, the same exchangeability the single tests assume.
//
// Every labelling is enumerated up to EXACT_LIMIT; beyond that a fixed-seed sample of SAMPLES is
// drawn and the adjusted p is (1 + at least as extreme) / (1 + SAMPLES), which keeps the level (the
// observed labelling counted among the draws). A row's own tail comes from its exact null
// distribution, whatever its ties.
import { doubledMidranks, rankSumCounts } from './mann-whitney.js';
import { seededRandom } from './random.js';
import { doubledRanks, signedRankDistribution } from './wilcoxon.js';

export const EXACT_LIMIT = 20_000;
export const SAMPLES = 20_000;
const SEED = 0x5eed;

/** One row of a phase against a baseline: values in the worse-is-larger direction. */
export interface TwoSampleRow {
  /** the current trials (the first k) */
  x: readonly number[];
  /** the baseline's trials */
  y: readonly number[];
}

/** P(S ≥ s) of the doubled rank sum of k values chosen at random, by doubled sum s. */
function upperTail(counts: Float64Array): Float64Array {
  const tail = new Float64Array(counts.length + 1);
  let all = 0;
  for (const c of counts) all += c;
  for (let s = counts.length - 1; s >= 0; s--) tail[s] = (tail[s + 1] as number) + (counts[s] as number) / all;
  return tail;
}

/** Whether `p` is at most `limit`, allowing for rounding in sums of the same terms. */
const atMost = (p: number, limit: number) => p <= limit * (1 + 1e-9) + 1e-15;

/** The labellings a test enumerates or samples: `visit(chosen)` for each. */
type Labellings = (visit: (chosen: readonly boolean[]) => void) => number;

/**
 * Adjusted p of each row: P over labellings that the smallest row p is at most the row's observed p.
 * `pOf(row, chosen)` is a row's p under one labelling; `observed` are the rows' own p.
 */
function minP(
  rows: number,
  observed: readonly number[],
  labellings: Labellings,
  pOf: (row: number, chosen: readonly boolean[]) => number,
  sampled: boolean,
): number[] {
  const hits = new Array<number>(rows).fill(0);
  const total = labellings((chosen) => {
    let min = Infinity;
    for (let r = 0; r < rows; r++) min = Math.min(min, pOf(r, chosen));
    for (let r = 0; r < rows; r++) if (atMost(min, observed[r] as number)) hits[r] = (hits[r] as number) + 1;
  });
  return hits.map((h, r) => Math.min(1, Math.max(observed[r] as number, sampled ? (h + 1) / (total + 1) : h / total)));
}

/** Whether the joint Mann–Whitney of k against m values enumerates every relabelling (not a sample). */
export function exactMannWhitney(k: number, m: number): boolean {
  return binomialCount(k + m, k) <= EXACT_LIMIT;
}

/** Whether the joint signed-rank test over k pairs enumerates every sign flip (not a sample). */
export function exactSignedRank(k: number): boolean {
  return 2 ** k <= EXACT_LIMIT;
}

function binomialCount(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** Every way to choose k of n (as flags), or SAMPLES random ones. */
function chooseLabellings(n: number, k: number): { labellings: Labellings; sampled: boolean } {
  if (binomialCount(n, k) <= EXACT_LIMIT) {
    return {
      sampled: false,
      labellings: (visit) => {
        const chosen = new Array<boolean>(n).fill(false);
        let count = 0;
        const walk = (from: number, left: number) => {
          if (left === 0) {
            visit(chosen);
            count++;
            return;
          }
          for (let i = from; i <= n - left; i++) {
            chosen[i] = true;
            walk(i + 1, left - 1);
            chosen[i] = false;
          }
        };
        walk(0, k);
        return count;
      },
    };
  }
  return {
    sampled: true,
    labellings: (visit) => {
      const random = seededRandom(SEED);
      const idx = Array.from({ length: n }, (_, i) => i);
      const chosen = new Array<boolean>(n).fill(false);
      for (let b = 0; b < SAMPLES; b++) {
        // a partial Fisher–Yates shuffle: the first k of idx are a uniform k-subset
        for (let i = 0; i < k; i++) {
          const j = i + Math.floor(random() * (n - i));
          [idx[i], idx[j]] = [idx[j] as number, idx[i] as number];
        }
        chosen.fill(false);
        for (let i = 0; i < k; i++) chosen[idx[i] as number] = true;
        visit(chosen);
      }
      return SAMPLES;
    },
  };
}

/**
 * Each row's Mann–Whitney p (H1: x tends to be larger), adjusted for the phase's other rows by their
 * joint permutation distribution. Rows must have the same counts (they come from the same trials).
 */
export function jointMannWhitney(rows: readonly TwoSampleRow[]): number[] {
  if (rows.length === 0) return [];
  const k = (rows[0] as TwoSampleRow).x.length;
  const n = k + (rows[0] as TwoSampleRow).y.length;
  if (rows.some((r) => r.x.length !== k || r.x.length + r.y.length !== n)) {
    throw new Error('jointMannWhitney: rows of one phase must have the same trials');
  }
  if (k === 0 || k === n) return rows.map(() => 1);
  const tables = rows.map((r) => {
    const weights = doubledMidranks([...r.x, ...r.y]);
    const tail = upperTail(
      rankSumCounts(
        [...weights].sort((a, b) => a - b),
        k,
      ),
    );
    return { weights, tail };
  });
  const pOf = (row: number, chosen: readonly boolean[]) => {
    const { weights, tail } = tables[row] as (typeof tables)[number];
    let s = 0;
    for (let i = 0; i < n; i++) if (chosen[i]) s += weights[i] as number;
    return s < tail.length ? (tail[s] as number) : 0;
  };
  const own = Array.from({ length: n }, (_, i) => i < k);
  const observed = rows.map((_, r) => pOf(r, own));
  if (rows.length === 1) return observed;
  const { labellings, sampled } = chooseLabellings(n, k);
  return minP(rows.length, observed, labellings, pOf, sampled);
}

/**
 * Each row's Wilcoxon signed-rank p over paired differences (H1: they tend to be positive), adjusted
 * for the phase's other rows: a pair's sign is flipped for every row at once. Rows must have the same
 * pairs.
 */
export function jointSignedRank(rows: ReadonlyArray<readonly number[]>): number[] {
  if (rows.length === 0) return [];
  const k = (rows[0] as readonly number[]).length;
  if (rows.some((r) => r.length !== k)) throw new Error('jointSignedRank: rows of one phase must have the same pairs');
  const tables = rows.map((d) => {
    // zero differences are dropped (Wilcoxon's method): they carry no rank and no sign
    const kept = d.map((v, i) => ({ v, i })).filter(({ v }) => v !== 0 && Number.isFinite(v));
    const ranks = doubledRanks(kept.map(({ v }) => v));
    const twice = new Array<number>(k).fill(0);
    kept.forEach(({ i }, j) => (twice[i] = ranks[j] as number));
    const dist = signedRankDistribution(ranks);
    const tail = new Float64Array(dist.length + 1);
    for (let s = dist.length - 1; s >= 0; s--) tail[s] = (tail[s + 1] as number) + (dist[s] as number);
    return { d, twice, tail, empty: kept.length === 0 };
  });
  // a labelling flips pair i's sign where chosen[i]
  const pOf = (row: number, flipped: readonly boolean[]) => {
    const { d, twice, tail, empty } = tables[row] as (typeof tables)[number];
    if (empty) return 1;
    let s = 0;
    for (let i = 0; i < k; i++) {
      const v = d[i] as number;
      if ((v > 0 && !flipped[i]) || (v < 0 && flipped[i])) s += twice[i] as number;
    }
    return Math.min(1, tail[s] as number);
  };
  const observed = rows.map((_, r) => pOf(r, new Array<boolean>(k).fill(false)));
  if (rows.length === 1) return observed;
  const exact = 2 ** k <= EXACT_LIMIT;
  const labellings: Labellings = (visit) => {
    const flipped = new Array<boolean>(k).fill(false);
    if (exact) {
      for (let m = 0; m < 2 ** k; m++) {
        for (let i = 0; i < k; i++) flipped[i] = ((m >>> i) & 1) === 1;
        visit(flipped);
      }
      return 2 ** k;
    }
    const random = seededRandom(SEED);
    for (let b = 0; b < SAMPLES; b++) {
      for (let i = 0; i < k; i++) flipped[i] = random() < 0.5;
      visit(flipped);
    }
    return SAMPLES;
  };
  return minP(rows.length, observed, labellings, pOf, !exact);
}

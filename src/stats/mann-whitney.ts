// Pure: one-sided Mann–Whitney U test. H1: values in `x` tend to be greater than values in `y`.
// Exact permutation distribution (ties handled exactly) when the number of splits is small enough —
// always for the handful of trials perf-gate runs; normal approximation with tie correction beyond.

export interface MannWhitneyResult {
  /** U statistic of x: pairs with x > y, plus half the ties */
  u: number;
  /** P(U >= u) under H0 */
  pValue: number;
  method: 'exact' | 'normal';
}

const EXACT_LIMIT = 200_000;

/** C(n, k); exact for the sample sizes of trials */
export function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

function uOf(x: readonly number[], y: readonly number[]): number {
  let u = 0;
  for (const a of x) for (const b of y) u += a > b ? 1 : a === b ? 0.5 : 0;
  return u;
}

function exactP(x: readonly number[], y: readonly number[], observed: number): number {
  const pooled = [...x, ...y];
  const n = x.length;
  const total = pooled.length;
  let atLeast = 0;
  let count = 0;
  const pick: number[] = [];
  const visit = (start: number) => {
    if (pick.length === n) {
      const chosen = new Set(pick);
      const xs = pick.map((i) => pooled[i] as number);
      const ys = pooled.filter((_, i) => !chosen.has(i));
      count++;
      // compare with a tolerance: U is a multiple of 0.5
      if (uOf(xs, ys) >= observed - 1e-9) atLeast++;
      return;
    }
    for (let i = start; i <= total - (n - pick.length); i++) {
      pick.push(i);
      visit(i + 1);
      pick.pop();
    }
  };
  visit(0);
  return atLeast / count;
}

function normalCdf(z: number): number {
  // Abramowitz–Stegun 7.1.26 via erf
  const t = 1 / (1 + 0.3275911 * Math.abs(z / Math.SQRT2));
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

function normalP(x: readonly number[], y: readonly number[], u: number): number {
  const n1 = x.length;
  const n2 = y.length;
  const n = n1 + n2;
  const counts = new Map<number, number>();
  for (const v of [...x, ...y]) counts.set(v, (counts.get(v) ?? 0) + 1);
  let tie = 0;
  for (const t of counts.values()) tie += t ** 3 - t;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tie / (n * (n - 1)));
  if (variance <= 0) return 1;
  const z = (u - mean - 0.5) / Math.sqrt(variance); // continuity correction
  return 1 - normalCdf(z);
}

export function mannWhitneyGreater(x: readonly number[], y: readonly number[]): MannWhitneyResult {
  if (x.length === 0 || y.length === 0) return { u: 0, pValue: 1, method: 'exact' };
  const u = uOf(x, y);
  if (binomial(x.length + y.length, x.length) <= EXACT_LIMIT) {
    return { u, pValue: exactP(x, y, u), method: 'exact' };
  }
  return { u, pValue: Math.min(1, Math.max(0, normalP(x, y, u))), method: 'normal' };
}

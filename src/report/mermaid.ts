// Pure: the y-axis of every Mermaid xychart perf-gate draws (report, sweep, trend). It starts at zero,
// so a bar's height is its value (a baseline bar is not a sliver) and ±3% of noise is ±3% of the
// height, not all of it; it ends at a round number a little above the largest value.

/** The smallest 1, 2, 2.5 or 5 × 10^k at or above `v` (1 for nothing positive). */
export function roundUp(v: number): number {
  if (!(v > 0) || !Number.isFinite(v)) return 1;
  const k = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * k >= v - 1e-9 * k) return m * k;
  return 10 * k;
}

/** `y-axis "title" 0 --> top`, top a round number at least 10% above the largest value. */
export function yAxis(title: string, values: readonly number[]): string {
  const max = Math.max(0, ...values.filter((v) => Number.isFinite(v)));
  return `  y-axis "${title}" 0 --> ${roundUp(max * 1.1)}`;
}

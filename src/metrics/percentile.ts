// Pure: any latency percentile as a metric name (issue 21): `p97.5`, `p99.99`, `p75`, `p0.1`, beside
// the fixed ones (p50, p90, p95, p99, p99.9). One percentile has one name: the number as JavaScript
// prints it (p97.50 and p097.5 are p97.5), above 0 and below 100, with at most 3 decimals.

/** A latency percentile as a metric name, `p` and the percentile: p97.5, p99.99. */
export type PercentileMetric = `p${number}`;

/** The shape of a percentile key as written (p100, p99.9999 are percentile-shaped, and refused). */
export const PERCENTILE_SHAPE = /^p(\d+(?:\.\d+)?)$/;

/** The keys an editor's JSON Schema accepts as percentiles: above 0 (p0, p0.000 are not), below 100,
 * at most 3 decimals once trailing zeros are dropped. */
export const PERCENTILE_KEY_PATTERN = '^p(?!0*(?:\\.0*)?$)0*\\d{1,2}(?:\\.\\d{1,3}0*)?$';

export const PERCENTILE_RULE =
  'not a percentile perf-gate gates: give one above 0 and below 100, with at most 3 decimals (p97.5, p99.99); for the slowest response use max';

/** The canonical name of a percentile-shaped key (`p97.50` → `p97.5`), or why it is not one. */
export function parsePercentileKey(key: string): { name: PercentileMetric; q: number } | { problem: string } {
  const m = PERCENTILE_SHAPE.exec(key);
  if (!m) return { problem: PERCENTILE_RULE };
  const text = m[1] as string;
  const decimals = (text.split('.')[1] ?? '').replace(/0+$/, '').length;
  const q = Number(text);
  if (!(q > 0 && q < 100) || decimals > 3) return { problem: PERCENTILE_RULE };
  return { name: `p${q}` as PercentileMetric, q };
}

/** Whether `metric` is a percentile in its canonical spelling (the fixed p50 … p99.9 are). */
export function isPercentileMetric(metric: string): metric is PercentileMetric {
  const parsed = parsePercentileKey(metric);
  return 'name' in parsed && parsed.name === metric;
}

/** The quantile (0.975) of a canonical percentile name, or undefined for any other metric. */
export function quantileOf(metric: string): number | undefined {
  return isPercentileMetric(metric) ? Number(metric.slice(1)) / 100 : undefined;
}

// HDR histograms of latency in microseconds (SPEC §3): 1 µs to 10 min, 3 significant digits.
// Shared by the runner (recording) and the host (merging, summarising). Pure JS, no WebAssembly,
// so the runner bundle works in any Node >= 20 image.
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';

export const HIGHEST_TRACKABLE_US = 600_000_000;

export function createHistogram(): Histogram {
  return build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_TRACKABLE_US,
    numberOfSignificantValueDigits: 3,
    bitBucketSize: 32,
    useWebAssembly: false,
  });
}

/** Records one latency; sub-microsecond values count as 1 µs, values past the range as the top. */
export function recordUs(h: Histogram, us: number): void {
  h.recordValue(Math.min(HIGHEST_TRACKABLE_US, Math.max(1, Math.round(us))));
}

export function encodeHistogram(h: Histogram): string {
  return encodeIntoCompressedBase64(h);
}

export function decodeHistogram(base64: string): Histogram {
  const decoded = decodeFromCompressedBase64(base64, 32, false);
  // re-home into our standard shape so that adds never overflow the range
  const h = createHistogram();
  h.add(decoded);
  decoded.destroy();
  return h;
}

/** Merges histograms (never percentiles) into a new one. */
export function mergeHistograms(encoded: readonly string[]): Histogram {
  const out = createHistogram();
  for (const e of encoded) {
    const h = decodeHistogram(e);
    out.add(h);
    h.destroy();
  }
  return out;
}

export interface LatencySummary {
  count: number;
  min: number;
  mean: number;
  /** p10, p25 and p75 came in with results@1 files of 2026-11-23; older files lack them */
  p10: number;
  p25: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
  'p99.9': number;
  max: number;
  /**
   * Percentiles the thresholds gate beyond the fields above (p97.5, p99.99), µs, by name; computed by
   * the host from the histogram (the runner never sends them). Absent when none is gated, and in
   * files written before any was.
   */
  percentiles?: Record<string, number>;
}

export const PERCENTILES = [
  ['p10', 10],
  ['p25', 25],
  ['p50', 50],
  ['p75', 75],
  ['p90', 90],
  ['p95', 95],
  ['p99', 99],
  ['p99.9', 99.9],
] as const;

/** Percentiles (µs) of a histogram; all zero when it is empty. */
export function summarize(h: Histogram): LatencySummary {
  const count = h.totalCount;
  const zero = { p10: 0, p25: 0, p50: 0, p75: 0, p90: 0, p95: 0, p99: 0, 'p99.9': 0 };
  if (count === 0) return { count: 0, min: 0, mean: 0, ...zero, max: 0 };
  const out: LatencySummary = {
    count,
    min: h.minNonZeroValue,
    mean: Math.round(h.mean * 10) / 10,
    ...zero,
    max: h.maxValue,
  };
  for (const [key, p] of PERCENTILES) out[key] = h.getValueAtPercentile(p);
  return out;
}

/**
 * Percentiles of a histogram by name (`p97.5` → the value at 97.5), µs; all zero when it is empty.
 * The names are the host's canonical ones (src/metrics/percentile.ts): `p` and the percentile.
 */
export function percentilesOf(h: Histogram, names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of names) out[name] = h.totalCount === 0 ? 0 : h.getValueAtPercentile(Number(name.slice(1)));
  return out;
}

/** A runner's summary with `names` computed from `encoded`, the histogram it summarises, as its
 * percentiles: only the host computes them (any a runner sent are dropped). */
export function withPercentiles(summary: LatencySummary, encoded: string, names: readonly string[]): LatencySummary {
  const { percentiles: _fromRunner, ...own } = summary;
  if (names.length === 0) return own;
  const h = decodeHistogram(encoded);
  try {
    return { ...own, percentiles: percentilesOf(h, names) };
  } finally {
    h.destroy();
  }
}

// Pure: a phase's latency distribution as text bars (from its merged HDR histogram), for the report's
// collapsed "Latency distribution" section: log-spaced buckets between the fastest and the slowest
// response, each with its share and count.
import { decodeHistogram } from '../runner-kit/histogram.js';
import { formatUs } from '../common/units.js';

export interface Bucket {
  /** upper bound of the bucket, µs (inclusive) */
  upToUs: number;
  count: number;
}

/** The part of hdr-histogram-js's JsHistogram the buckets need (not in its public Histogram type). */
interface Iterable {
  recordedValuesIterator: {
    reset(): void;
    hasNext(): boolean;
    next(): { valueIteratedTo: number; countAtValueIteratedTo: number };
  };
}

/** At most `n` log-spaced buckets covering every recorded value; empty for an empty histogram. */
export function latencyBuckets(encoded: string, n = 12): Bucket[] {
  const range = rangeOf(encoded);
  if (!range) return [];
  const { min, max } = range;
  const edges = new Set<number>();
  for (let i = 1; i < n; i++) edges.add(Math.round(min * (max / min) ** (i / n)));
  edges.add(max);
  return bucketsOver(
    encoded,
    [...edges].sort((a, b) => a - b),
  );
}

/** The fastest (at least 1 µs) and slowest recorded values; undefined for an empty histogram. */
export function rangeOf(encoded: string): { min: number; max: number } | undefined {
  if (!encoded) return undefined;
  const h = decodeHistogram(encoded);
  try {
    if (h.totalCount === 0) return undefined;
    const min = Math.max(1, h.minNonZeroValue);
    return { min, max: Math.max(min, h.maxValue) };
  } finally {
    h.destroy();
  }
}

/** The recorded values counted into buckets ending at `edges` (ascending; the last takes the rest). */
export function bucketsOver(encoded: string, edges: readonly number[]): Bucket[] {
  const out: Bucket[] = edges.map((upToUs) => ({ upToUs, count: 0 }));
  if (!encoded || out.length === 0) return out;
  const h = decodeHistogram(encoded);
  try {
    const it = (h as unknown as Iterable).recordedValuesIterator;
    it.reset();
    let i = 0;
    while (it.hasNext()) {
      const v = it.next();
      while (i < out.length - 1 && v.valueIteratedTo > (out[i] as Bucket).upToUs) i++;
      (out[i] as Bucket).count += v.countAtValueIteratedTo;
    }
    return out;
  } finally {
    h.destroy();
  }
}

const WIDTH = 30;

export function renderBuckets(buckets: readonly Bucket[]): string {
  const total = buckets.reduce((a, b) => a + b.count, 0);
  if (total === 0) return '(no responses)';
  const most = Math.max(...buckets.map((b) => b.count));
  return buckets
    .map((b) => {
      const bar = '█'.repeat(Math.round((b.count / most) * WIDTH));
      const share = ((b.count / total) * 100).toFixed(1).padStart(5);
      return `≤ ${formatUs(b.upToUs).padEnd(8)} ${bar.padEnd(WIDTH)} ${share}%  ${b.count}`;
    })
    .join('\n');
}

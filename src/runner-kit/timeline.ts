// Latency over time within a trial (issue 51): each success's latency counted in the window of the
// trial it came in, in log-spaced buckets (8 to a power of two: a bucket spans at most 1/8 of its
// values, and its middle is within 1/16 of any of them), so that recording costs a few integer
// operations beside the trial's HDR histogram, which alone gives the verdict's figures. Windows start
// at 100 ms and double (neighbours added) whenever a trial outgrows 60 of them, so a trial of any
// length has at most 60 points. Shared by the runner (recording, merging its threads) and the host
// (the page draws it).

/** The most windows a trial's timeline keeps. */
export const TIMELINE_WINDOWS = 60;
/** The first windows' length, ms. */
export const FIRST_WINDOW_MS = 100;
/** Buckets per power of two. */
const SUB = 8;
/** Values 1..2^31 - 1 µs: buckets 0..231. */
export const TIMELINE_BUCKETS = 232;

/** The bucket of a latency in µs: exact below 16 µs, then 8 to each power of two. */
export function latencyBucket(us: number): number {
  const v = Math.min(0x7fffffff, Math.max(1, Math.round(us)));
  if (v < 2 * SUB) return v;
  const shift = 31 - Math.clz32(v) - 3;
  return shift * SUB + (v >>> shift);
}

/** The lowest and highest value of a bucket, µs. */
export function bucketRange(b: number): [number, number] {
  if (b < 2 * SUB) return [b, b];
  const shift = Math.floor(b / SUB) - 1;
  const m = (b % SUB) + SUB;
  return [m * 2 ** shift, (m + 1) * 2 ** shift - 1];
}

/** What a bucket's values are read as: the middle of its range (within 1/16 of each of them). */
export function bucketValue(b: number): number {
  const [lo, hi] = bucketRange(b);
  return (lo + hi) / 2;
}

/** A timeline as it crosses threads and the runner's events: each window's non-empty buckets as
 * flat pairs [bucket, count, bucket, count, …], ascending. */
export interface TimelineTally {
  windowMs: number;
  windows: number[][];
}

/** One trial's latency over time, as the results file keeps it. */
export interface LatencyTimeline {
  /** each window's length, ms (the last may be cut short by the trial's end) */
  windowMs: number;
  /** successes counted in each window */
  count: number[];
  /** their p50 and p99, µs, each a bucket's middle (within 1/16); 0 for an empty window */
  p50: number[];
  p99: number[];
}

/** Records latencies by the time they came, for one engine instance. */
export class TimelineRecorder {
  windowMs = FIRST_WINDOW_MS;
  private windows: Uint32Array[] = [];

  /** A success `us` long that came `elapsedMs` after the trial's window opened. */
  record(elapsedMs: number, us: number): void {
    let w = Math.floor(Math.max(0, elapsedMs) / this.windowMs);
    while (w >= TIMELINE_WINDOWS) {
      this.coarsen();
      w = Math.floor(Math.max(0, elapsedMs) / this.windowMs);
    }
    while (this.windows.length <= w) this.windows.push(new Uint32Array(TIMELINE_BUCKETS));
    const counts = this.windows[w] as Uint32Array;
    const b = latencyBucket(us);
    counts[b] = (counts[b] as number) + 1;
  }

  /** Windows twice as long: each pair of neighbours added. */
  private coarsen(): void {
    this.windows = pairUp(this.windows, (a, b) => {
      if (b) for (let i = 0; i < TIMELINE_BUCKETS; i++) a[i] = (a[i] as number) + (b[i] as number);
      return a;
    });
    this.windowMs *= 2;
  }

  tally(): TimelineTally {
    return {
      windowMs: this.windowMs,
      windows: this.windows.map((counts) => {
        const pairs: number[] = [];
        for (let b = 0; b < TIMELINE_BUCKETS; b++) if (counts[b]) pairs.push(b, counts[b] as number);
        return pairs;
      }),
    };
  }
}

function pairUp<T>(items: readonly T[], join: (a: T, b: T | undefined) => T): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i += 2) out.push(join(items[i] as T, items[i + 1]));
  return out;
}

function addPairs(a: readonly number[], b: readonly number[]): number[] {
  const sum = new Map<number, number>();
  for (const pairs of [a, b])
    for (let i = 0; i + 1 < pairs.length; i += 2)
      sum.set(pairs[i] as number, (sum.get(pairs[i] as number) ?? 0) + (pairs[i + 1] as number));
  return [...sum.entries()].sort((x, y) => x[0] - y[0]).flat();
}

/** `t` with windows `factor` times as long (a power of two). */
function coarsened(t: TimelineTally, factor: number): TimelineTally {
  let windows = t.windows;
  for (let f = factor; f > 1; f /= 2) windows = pairUp(windows, (a, b) => (b ? addPairs(a, b) : a));
  return { windowMs: t.windowMs * factor, windows };
}

/** Several instances' timelines (threads, which ran at once) as one: each brought to the longest
 * window, then added window by window. Undefined when none has one. */
export function mergeTimelines(parts: ReadonlyArray<TimelineTally | undefined>): TimelineTally | undefined {
  const given = parts.filter((p): p is TimelineTally => p !== undefined);
  if (given.length === 0) return undefined;
  const windowMs = Math.max(...given.map((p) => p.windowMs));
  const alike = given.map((p) => coarsened(p, windowMs / p.windowMs));
  const length = Math.max(...alike.map((p) => p.windows.length));
  const windows = Array.from({ length }, (_, w) =>
    alike.reduce<number[]>((acc, p) => addPairs(acc, p.windows[w] ?? []), []),
  );
  // (merged threads can outgrow the bound only by their own; halve until inside it)
  let out: TimelineTally = { windowMs, windows };
  while (out.windows.length > TIMELINE_WINDOWS) out = coarsened(out, 2);
  return out;
}

/** The value at percentile `p` of a window's buckets (HdrHistogram's rule: the value of the rank
 * ⌈p/100 · count⌉), read as its bucket's middle; 0 for an empty window. */
export function windowPercentile(pairs: readonly number[], p: number): number {
  let total = 0;
  for (let i = 1; i < pairs.length; i += 2) total += pairs[i] as number;
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    seen += pairs[i + 1] as number;
    if (seen >= rank) return Math.round(bucketValue(pairs[i] as number));
  }
  return Math.round(bucketValue(pairs[pairs.length - 2] as number));
}

/** A timeline's figures: each window's count, p50 and p99. */
export function summarizeTimeline(t: TimelineTally): LatencyTimeline {
  return {
    windowMs: t.windowMs,
    count: t.windows.map((pairs) => pairs.reduce((a, v, i) => (i % 2 === 1 ? a + v : a), 0)),
    p50: t.windows.map((pairs) => windowPercentile(pairs, 50)),
    p99: t.windows.map((pairs) => windowPercentile(pairs, 99)),
  };
}

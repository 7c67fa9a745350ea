// Pure: how long a phase needs to warm up, measured on its first trial (`warmup-later: settled`,
// issue 33). Every trial warms up for `warmup` by default, and on a short phase that is much of a run's
// time (2 s of every 5 s on a real two-service stack). A closed-loop phase's throughput is low while
// connections open and caches fill, then levels off: the first trial's warm-up is sampled in windows
// (runner/src/main.ts) and it has settled from the first window after which every window ran at
// SETTLED_SHARE of the trial's measured throughput or more. Later trials, whose service has just been
// serving, warm up for twice that plus a window, never below MIN_LATER_WARMUP_MS nor above `warmup`.
// A warm-up whose last windows were still below never settled: later trials keep the full warm-up.
import type { WarmupWindows } from '../runner-kit/plan.js';

/** The share of the measured throughput a warm-up window must reach to count as settled. */
export const SETTLED_SHARE = 0.8;
/** The shortest warm-up a later trial is given. */
export const MIN_LATER_WARMUP_MS = 500;
/** Settled windows the warm-up must end with (one could be chance). */
const SETTLED_TAIL = 2;

/** When a warm-up settled, ms from its start: the start of its settled tail; undefined when it did not
 * (its last SETTLED_TAIL windows were not all settled) or there is nothing to compare with. */
export function settledMs(warmup: WarmupWindows, measuredRps: number): number | undefined {
  const { rps, windowMs } = warmup;
  if (!(measuredRps > 0) || rps.length < SETTLED_TAIL) return undefined;
  const floor = SETTLED_SHARE * measuredRps;
  let start = rps.length;
  while (start > 0 && (rps[start - 1] as number) >= floor) start--;
  return rps.length - start >= SETTLED_TAIL ? start * windowMs : undefined;
}

/** A later trial's warm-up from the first trial's settle time: undefined when it stays `configured`. */
export function laterWarmupMs(configured: number, settled: number | undefined, windowMs: number): number | undefined {
  if (settled === undefined) return undefined;
  const later = Math.max(MIN_LATER_WARMUP_MS, 2 * settled + windowMs);
  return later < configured ? later : undefined;
}

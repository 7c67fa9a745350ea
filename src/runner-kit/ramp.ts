// Pure: a phase's `stages` (k6's ramping executors): a level — an arrival rate (open loop) or a
// number of connections (closed loop) — that moves linearly from `from` through each stage's `to`
// over that stage's duration, and holds the last `to` past the end. Shared by the runner (the
// open-loop schedule, the closed loop's connection count) and the host (what a trial can deliver).

/** One stage: over `durationMs` the level moves linearly from the previous stage's `to` (the ramp's `from` for the first) to `to`. */
export interface RampStage {
  durationMs: number;
  to: number;
}

export interface Ramp {
  /** the level at the phase's start */
  from: number;
  stages: readonly RampStage[];
}

export function rampDurationMs(ramp: Ramp): number {
  return ramp.stages.reduce((a, s) => a + s.durationMs, 0);
}

/** The highest level the ramp reaches. */
export function peakLevel(ramp: Ramp): number {
  return Math.max(ramp.from, ...ramp.stages.map((s) => s.to));
}

/** The level `tMs` after the start (the last stage's `to` past the end, `from` before the start). */
export function levelAt(ramp: Ramp, tMs: number): number {
  let start = 0;
  let from = ramp.from;
  if (tMs <= 0) return from;
  for (const s of ramp.stages) {
    if (tMs < start + s.durationMs) return from + ((s.to - from) * (tMs - start)) / s.durationMs;
    start += s.durationMs;
    from = s.to;
  }
  return from;
}

/** Arrivals by `tMs` after the start at a rate (per second) that follows the ramp: its integral. */
export function arrivalsBy(ramp: Ramp, tMs: number): number {
  return compileRamp(ramp).arrivalsBy(tMs);
}

/**
 * Send `i` (0-based) of an open loop that follows the ramp is due when `i` arrivals have
 * accumulated (as send i of a fixed rate is due at i / rate): the last moment the arrivals are
 * still `i`, so no send falls in a stretch at 0/s (send 0 at the first moment the rate is above 0,
 * a send whose count the arrivals reach before a pause at the pause's end). Ms after the start, or
 * Infinity when the rate never gets there.
 */
export function arrivalTime(ramp: Ramp, i: number): number {
  return compileRamp(ramp).timeOf(i);
}

/** A ramp's arrivals and send times, its stages' starts and areas computed once (the open-loop schedule asks per send). */
export interface RampClock {
  arrivalsBy(tMs: number): number;
  timeOf(i: number): number;
}

export function compileRamp(ramp: Ramp): RampClock {
  const n = ramp.stages.length;
  // stage k starts at starts[k] at level froms[k], with before[k] arrivals before it
  const starts = new Float64Array(n + 1);
  const froms = new Float64Array(n + 1);
  const before = new Float64Array(n + 1);
  froms[0] = ramp.from;
  ramp.stages.forEach((s, k) => {
    starts[k + 1] = (starts[k] as number) + s.durationMs;
    froms[k + 1] = s.to;
    before[k + 1] = (before[k] as number) + (((froms[k] as number) + s.to) / 2) * (s.durationMs / 1000);
  });
  const last = froms[n] as number;
  /** the last k with key[k] <= x (k in 0..n), by bisection */
  const stageAt = (key: Float64Array, x: number): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((key[mid] as number) <= x) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return {
    arrivalsBy(tMs) {
      if (tMs <= 0) return 0;
      const k = stageAt(starts, tMs);
      const t = tMs - (starts[k] as number);
      const from = froms[k] as number;
      if (k === n) return (before[n] as number) + from * (t / 1000);
      const s = ramp.stages[k] as RampStage;
      const at = from + ((s.to - from) * t) / s.durationMs;
      return (before[k] as number) + ((from + at) / 2) * (t / 1000);
    },
    timeOf(i) {
      const c = Math.max(0, i);
      // the last stage with at most c arrivals before it: its arrivals reach past c (zero-area stages
      // at c are passed over, so send 0 waits for the rate to rise and a pause for its end)
      const k = stageAt(before, c);
      if (k === n) return last > 0 ? (starts[n] as number) + ((c - (before[n] as number)) / last) * 1000 : Infinity;
      const s = ramp.stages[k] as RampStage;
      return (starts[k] as number) + within(froms[k] as number, s.to, s.durationMs, c - (before[k] as number));
    },
  };
}

/**
 * The τ (ms) at which `c` arrivals have accumulated into a stage whose rate moves from r0 to r1
 * over d ms: the root of a·τ² + b·τ − c = 0 with a = (r1 − r0) / (2000·d), b = r0 / 1000, in the
 * form that stays exact when a is 0 or negative (ramping down).
 */
function within(r0: number, r1: number, d: number, c: number): number {
  if (c <= 0) return 0;
  const a = (r1 - r0) / (2000 * d);
  const b = r0 / 1000;
  const tau = (2 * c) / (b + Math.sqrt(Math.max(0, b * b + 4 * a * c)));
  return Math.min(d, tau);
}

/** Sends due before `durationMs`: every i with arrivalTime(i) < durationMs, ⌈arrivals⌉ (a fixed rate: ⌈rate · d⌉). */
export function rampSends(ramp: Ramp, durationMs: number): number {
  return Math.max(0, Math.ceil(arrivalsBy(ramp, durationMs) - 1e-9));
}

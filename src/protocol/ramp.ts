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
  let start = 0;
  let from = ramp.from;
  let total = 0;
  if (tMs <= 0) return 0;
  for (const s of ramp.stages) {
    const d = Math.min(tMs - start, s.durationMs);
    // the trapezoid under the rate from the stage's start to d into it
    const at = from + ((s.to - from) * d) / s.durationMs;
    total += ((from + at) / 2) * (d / 1000);
    if (tMs <= start + s.durationMs) return total;
    start += s.durationMs;
    from = s.to;
  }
  return total + from * ((tMs - start) / 1000);
}

/**
 * Send `i` (0-based) of an open loop that follows the ramp is due when `i` arrivals have
 * accumulated (as send i of a fixed rate is due at i / rate): ms after the start, or Infinity when
 * the rate never gets there.
 */
export function arrivalTime(ramp: Ramp, i: number): number {
  if (i <= 0) return 0;
  let start = 0;
  let from = ramp.from;
  let before = 0;
  for (const s of ramp.stages) {
    const to = s.to;
    const inStage = ((from + to) / 2) * (s.durationMs / 1000);
    if (before + inStage >= i && inStage > 0) return start + within(from, to, s.durationMs, i - before);
    before += inStage;
    start += s.durationMs;
    from = to;
  }
  return from > 0 ? start + ((i - before) / from) * 1000 : Infinity;
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

/** Sends due before `durationMs`: every i with arrivalTime(i) < durationMs (a fixed rate: ⌈rate · d⌉). */
export function rampSends(ramp: Ramp, durationMs: number): number {
  return Math.max(0, Math.ceil(arrivalsBy(ramp, durationMs) - 1e-9));
}

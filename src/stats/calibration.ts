// A short fixed calibration measured in every run (issue 51): the time a fixed piece of CPU work takes
// on the machine perf-gate runs on, so a level shift in the trend history that the calibration moved
// with is the machine's (a slower runner, a noisy neighbour for the day), not the code's
// (history/shifts.ts). The work is integer mixing in one thread; the figure is the fastest of a few
// timings, which an interruption only makes slower.

/** The fixed work: `rounds` steps of xorshift32; returns the state so it cannot be optimised away. */
export function calibrationWork(rounds: number): number {
  let x = 2463534242;
  for (let i = 0; i < rounds; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
  }
  return x;
}

/** The work each timing does: about 4 ms on the test VM's core. */
export const CALIBRATION_ROUNDS = 2_000_000;

/**
 * The calibration, µs: the fastest of `repeats` timings of the fixed work by `now` (a clock in ms
 * with sub-millisecond resolution: performance.now).
 */
export function calibrate(now: () => number, repeats = 7, rounds = CALIBRATION_ROUNDS): number {
  let best = Infinity;
  let sink = 0;
  for (let r = 0; r < repeats; r++) {
    const t = now();
    sink ^= calibrationWork(rounds);
    best = Math.min(best, now() - t);
  }
  // (the state is read, so the work is done; a checksum of 0 changes nothing)
  return Math.round(best * 1000) + (sink === -1 ? 1 : 0);
}

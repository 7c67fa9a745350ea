// gate.busy: before a trial taken on a busy machine runs again, wait until the machine reads quiet, so
// that the repeat does not fall in the same burst of another process (a build beside the run, a
// neighbour's job: bursts of seconds). Bounded: after QUIET_MAX_WAIT_MS the trial runs all the same,
// and gate.busy judges it as it judges any other; over a whole run the waits add up to at most
// QUIET_MAX_TOTAL_MS, then a repeat runs at once.
import { busyMachine, machineInWindow, type MachineReading, SLICE_MS } from '../stats/machine.js';

/** How long the machine must read quiet, slice after slice, before a repeat runs. */
export const QUIET_FOR_MS = 1000;
/** The longest wait before a repeat: a machine busy for longer is judged by the trial itself. */
export const QUIET_MAX_WAIT_MS = 10_000;
/** The most a run waits in all: a machine busy through two minutes of waiting is not waited out (a
 * 48-row A/B run beside a neighbour that kept the machine busy put 204 trials aside and took 33
 * minutes where 4.5 are usual: docs/benchmarks.md). Its repeats then run at once. */
export const QUIET_MAX_TOTAL_MS = 120_000;

export interface QuietIo {
  /** the machine now; undefined where it cannot be read */
  read: () => MachineReading | undefined;
  sleep: (ms: number) => Promise<void>;
  /** ms, monotonic enough for a wait */
  now: () => number;
}

/** What a wait found: how long it took, and whether the machine read quiet at its end. */
export interface QuietWait {
  waitedMs: number;
  quiet: boolean;
  /** no wait was made: the run's waits (QUIET_MAX_TOTAL_MS) are spent */
  spent?: true;
}

/**
 * Reads the machine every SLICE_MS until QUIET_FOR_MS of slices in a row read below gate.busy's
 * threshold (other processes' CPU and steal, `othersPct` % of one core; steal alone where
 * `stealOnly`), or `maxMs` (QUIET_MAX_WAIT_MS) pass (counted in slices too: a clock that does not move cannot
 * hold it). The run's `own` containers are left out as the trials leave them out: any other container
 * is another process. Undefined where the machine cannot be read.
 */
export async function waitQuiet(
  io: QuietIo,
  othersPct: number,
  stealOnly = false,
  own?: ReadonlySet<string>,
  maxMs = QUIET_MAX_WAIT_MS,
): Promise<QuietWait | undefined> {
  const start = io.now();
  let last = io.read();
  if (!last) return undefined;
  let lastAt = start;
  // since when every slice read quiet
  let quietSince: number | undefined;
  for (let slice = 1; ; slice++) {
    await io.sleep(SLICE_MS);
    const reading = io.read();
    const at = io.now();
    if (!reading) return undefined;
    const usage = machineInWindow(last, reading, at - lastAt, 0, own && own.size > 0 ? own : undefined);
    const busy = usage === undefined || busyMachine(usage, othersPct, stealOnly);
    if (busy) quietSince = undefined;
    else quietSince ??= lastAt;
    last = reading;
    lastAt = at;
    if (quietSince !== undefined && at - quietSince >= QUIET_FOR_MS) return { waitedMs: at - start, quiet: true };
    if (at - start >= maxMs || slice >= maxMs / SLICE_MS) return { waitedMs: at - start, quiet: false };
  }
}

/**
 * A run's waits: each as `wait` makes it, at most QUIET_MAX_WAIT_MS and at most what is left of
 * `totalMs`, which they share; once less is left than a quiet machine takes to show (QUIET_FOR_MS),
 * none is made (`spent`) and a repeat runs at once. A wait may end a slice past what was left.
 */
export function runWaits(
  wait: (maxMs: number) => Promise<QuietWait | undefined>,
  totalMs = QUIET_MAX_TOTAL_MS,
): () => Promise<QuietWait | undefined> {
  let waited = 0;
  return async () => {
    const left = totalMs - waited;
    if (left < QUIET_FOR_MS) return { waitedMs: 0, quiet: false, spent: true };
    const found = await wait(Math.min(QUIET_MAX_WAIT_MS, left));
    if (found) waited += found.waitedMs;
    return found;
  };
}

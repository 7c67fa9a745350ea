// gate.busy: before a trial taken on a busy machine runs again, wait until the machine reads quiet, so
// that the repeat does not fall in the same burst of another process (a build beside the run, a
// neighbour's job: bursts of seconds). Bounded: after QUIET_MAX_WAIT_MS the trial runs all the same,
// and gate.busy judges it as it judges any other.
import { busyMachine, machineInWindow, type MachineReading, SLICE_MS } from '../stats/machine.js';

/** How long the machine must read quiet, slice after slice, before a repeat runs. */
export const QUIET_FOR_MS = 1000;
/** The longest wait before a repeat: a machine busy for longer is judged by the trial itself. */
export const QUIET_MAX_WAIT_MS = 10_000;

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
}

/**
 * Reads the machine every SLICE_MS until QUIET_FOR_MS of slices in a row read below gate.busy's
 * threshold (other processes' CPU and steal, `othersPct` % of one core; steal alone where
 * `stealOnly`), or QUIET_MAX_WAIT_MS pass (counted in slices too: a clock that does not move cannot
 * hold it). The run's `own` containers are left out as the trials leave them out: any other container
 * is another process. Undefined where the machine cannot be read.
 */
export async function waitQuiet(
  io: QuietIo,
  othersPct: number,
  stealOnly = false,
  own?: ReadonlySet<string>,
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
    if (at - start >= QUIET_MAX_WAIT_MS || slice >= QUIET_MAX_WAIT_MS / SLICE_MS)
      return { waitedMs: at - start, quiet: false };
  }
}

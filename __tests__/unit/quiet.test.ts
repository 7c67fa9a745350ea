// gate.busy's wait before a repeat (src/session/quiet.ts): the machine read every slice until a second
// of slices in a row reads quiet, at most ten seconds; a fake machine and clock.
import { describe, expect, it } from 'vitest';
import { QUIET_FOR_MS, QUIET_MAX_TOTAL_MS, QUIET_MAX_WAIT_MS, runWaits, waitQuiet } from '../../src/session/quiet.js';
import type { MachineReading } from '../../src/stats/machine.js';

/** A machine of 2 cores whose other processes use `others(t)` % of one core and steal `steal(t)` %
 * during the slice ending at t (ms); the clock moves only when the wait sleeps. */
function machine(others: (t: number) => number, steal: (t: number) => number = () => 0, readable = true) {
  let t = 0;
  const cpu = { busy: 0, idle: 0, steal: 0, cores: 2 };
  const io = {
    read: (): MachineReading | undefined => (readable ? { cpu: { ...cpu }, selfCpuUs: 0 } : undefined),
    sleep: async (ms: number) => {
      t += ms;
      // ticks of 1 ms per core: a slice of 250 ms is 500 ticks over 2 cores
      const o = (others(t) / 200) * 2 * ms;
      const s = (steal(t) / 200) * 2 * ms;
      cpu.busy += o;
      cpu.steal += s;
      cpu.idle += 2 * ms - o - s;
    },
    now: () => t,
  };
  return io;
}

describe('waitQuiet', () => {
  it.each<[string, (t: number) => number, { waitedMs: number; quiet: boolean }]>([
    ['quiet from the start: one second of slices', () => 5, { waitedMs: QUIET_FOR_MS, quiet: true }],
    ['a hog for the first 2 s: then a quiet second', (t) => (t <= 2000 ? 100 : 5), { waitedMs: 3000, quiet: true }],
    [
      'a hog that comes back before a second passes: the quiet second starts again',
      (t) => (t <= 1000 || (t > 1500 && t <= 1750) ? 100 : 5),
      { waitedMs: 2750, quiet: true },
    ],
    ['busy throughout: ten seconds, then the trial runs', () => 100, { waitedMs: QUIET_MAX_WAIT_MS, quiet: false }],
    ['just under the threshold (50% of a core) is quiet', () => 49, { waitedMs: QUIET_FOR_MS, quiet: true }],
  ])('%s', async (_label, others, expected) => {
    expect(await waitQuiet(machine(others), 50)).toEqual(expected);
  });

  it('steal alone reads busy from 20% of a core; a target’s run (steal only) ignores other processes', async () => {
    expect(
      await waitQuiet(
        machine(
          () => 0,
          (t) => (t <= 1000 ? 30 : 0),
        ),
        50,
      ),
    ).toEqual({ waitedMs: 2000, quiet: true });
    expect(
      await waitQuiet(
        machine(() => 100),
        50,
        true,
      ),
    ).toEqual({ waitedMs: QUIET_FOR_MS, quiet: true });
  });

  it('a container’s CPU: the run’s own is left out, any other container is another process', async () => {
    // a container "hog" busy at 100% of a core throughout, the machine's CPU counting it
    let t = 0;
    const cpu = { busy: 0, idle: 0, steal: 0, cores: 2 };
    const containers = { hog: 0, api: 0 };
    const io = {
      read: (): MachineReading => ({ cpu: { ...cpu }, selfCpuUs: 0, containersCpuUs: { ...containers } }),
      sleep: async (ms: number) => {
        t += ms;
        cpu.busy += ms;
        cpu.idle += ms;
        containers.hog += ms * 1000;
      },
      now: () => t,
    };
    expect(await waitQuiet(io, 50, false, new Set(['api']))).toEqual({ waitedMs: QUIET_MAX_WAIT_MS, quiet: false });
    expect(await waitQuiet(io, 50, false, new Set(['hog', 'api']))).toEqual({ waitedMs: QUIET_FOR_MS, quiet: true });
  });

  it('a clock that does not move: the wait is bounded by its count of slices', async () => {
    const io = { ...machine(() => 100), now: () => 0 };
    expect(await waitQuiet(io, 50)).toEqual({ waitedMs: 0, quiet: false });
  });

  it('a machine that cannot be read: no wait', async () => {
    expect(
      await waitQuiet(
        machine(
          () => 0,
          () => 0,
          false,
        ),
        50,
      ),
    ).toBeUndefined();
  });
});

describe("runWaits: a run's waits share QUIET_MAX_TOTAL_MS", () => {
  it('a machine busy throughout: twelve waits of ten seconds, then none (the repeats run at once)', async () => {
    const io = machine(() => 100);
    const wait = runWaits((maxMs) => waitQuiet(io, 50, false, undefined, maxMs));
    const found = [];
    for (let i = 0; i < 14; i++) found.push(await wait());
    expect(found.slice(0, 12)).toEqual(
      Array.from({ length: 12 }, () => ({ waitedMs: QUIET_MAX_WAIT_MS, quiet: false })),
    );
    expect(found.slice(12)).toEqual([
      { waitedMs: 0, quiet: false, spent: true },
      { waitedMs: 0, quiet: false, spent: true },
    ]);
    expect(io.now()).toBe(QUIET_MAX_TOTAL_MS);
  });

  it('the last wait is cut to what is left; quiet waits count too', async () => {
    // busy but for the second after 20 s
    const io = machine((t) => (t > 20_000 && t <= 21_000 ? 5 : 100));
    const wait = runWaits((maxMs) => waitQuiet(io, 50, false, undefined, maxMs), 25_000);
    expect(await wait()).toEqual({ waitedMs: 10_000, quiet: false });
    expect(await wait()).toEqual({ waitedMs: 10_000, quiet: false });
    // the quiet second after 20 s; then 4 s are left, and the machine is busy again
    expect(await wait()).toEqual({ waitedMs: QUIET_FOR_MS, quiet: true });
    expect(await wait()).toEqual({ waitedMs: 4000, quiet: false });
    expect(await wait()).toEqual({ waitedMs: 0, quiet: false, spent: true });
  });

  it('less left than a quiet machine takes to show (a second): no wait, not one that cannot find it quiet', async () => {
    const io = machine((t) => (t > 20_000 && t <= 21_000 ? 5 : 100));
    const wait = runWaits((maxMs) => waitQuiet(io, 50, false, undefined, maxMs), 21_500);
    expect(await wait()).toEqual({ waitedMs: 10_000, quiet: false });
    expect(await wait()).toEqual({ waitedMs: 10_000, quiet: false });
    expect(await wait()).toEqual({ waitedMs: QUIET_FOR_MS, quiet: true });
    expect(await wait()).toEqual({ waitedMs: 0, quiet: false, spent: true });
  });

  it('a machine that cannot be read: no wait, nothing spent', async () => {
    const wait = runWaits(async () => undefined, QUIET_FOR_MS);
    expect(await wait()).toBeUndefined();
    expect(await wait()).toBeUndefined();
  });
});

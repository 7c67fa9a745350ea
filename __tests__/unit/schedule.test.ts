import { describe, expect, it } from 'vitest';
import { LATE_TOLERANCE_MS, OpenSchedule, phaseSends, type ScheduleOptions } from '../../runner/src/schedule.js';

/** A schedule with the given options over a default of 100 req/s for 100 ms from t = 1000, one instance. */
function schedule(o: Partial<ScheduleOptions> = {}): OpenSchedule {
  return new OpenSchedule({
    startAt: 1000,
    rate: 100,
    durationMs: 100,
    stride: 1,
    offset: 0,
    maxInFlight: 1000,
    ...o,
  });
}

/**
 * Drives a schedule with a hand-held clock. `send` counts itself in flight, as the engine's does;
 * `complete` frees slots. Every scheduled time handed to `send` is kept in `sent`.
 */
function driver(s: OpenSchedule) {
  const d = {
    inFlight: 0,
    sent: [] as number[],
    /** pumps at `now`; returns the scheduled times started by this pump */
    pump(now: number): number[] {
      const before = d.sent.length;
      s.pump(
        now,
        () => d.inFlight,
        (at) => {
          d.inFlight++;
          d.sent.push(at);
        },
      );
      return d.sent.slice(before);
    },
    complete(n = 1): void {
      d.inFlight -= n;
    },
  };
  return d;
}

const counters = (s: OpenSchedule) => ({
  started: s.startedCount,
  late: s.late,
  lateMaxInFlight: s.lateMaxInFlight,
  heldBack: s.heldBack,
  maxSendDelayMs: s.maxSendDelayMs,
});

describe('LATE_TOLERANCE_MS', () => {
  it('is 10 ms', () => {
    expect(LATE_TOLERANCE_MS).toBe(10);
  });
});

describe('phaseSends', () => {
  it.each<[string, number, number, number]>([
    ['200 req/s for 1 s', 200, 1000, 200],
    ['100 req/s for 100 ms', 100, 100, 10],
    ['1 req/s for 1 s (send 0 only: send 1 is due at the end)', 1, 1000, 1],
    ['1 req/s for 1.001 s', 1, 1001, 2],
    ['1 req/s for 999 ms', 1, 999, 1],
    ['fractional rate 0.5 req/s for 3 s (t = 0, 2 s)', 0.5, 3000, 2],
    ['fractional rate 2.5 req/s for 1 s (t = 0, 0.4, 0.8 s)', 2.5, 1000, 3],
    ['fractional rate 0.1 req/s for 30 s', 0.1, 30_000, 3],
    ['1e-9 edge: 8.3 × 30 s is 249.00000000000003 in floating point', 8.3, 30_000, 249],
    ['1e-9 edge: 16.1 × 60 s is 966.0000000000001 in floating point', 16.1, 60_000, 966],
    ['just below an integer: 33.3 × 30 s is 998.9999999999999', 33.3, 30_000, 999],
    ['a rate too low for the window still sends at t = 0', 0.001, 1000, 1],
    ['zero duration', 100, 0, 0],
    ['zero rate', 0, 1000, 0],
  ])('%s → %i', (_label, rate, durationMs, expected) => {
    expect(phaseSends(rate, durationMs)).toBe(expected);
  });

  it('never counts a send scheduled at or after the end of the window', () => {
    for (const [rate, durationMs] of [
      [8.3, 30_000],
      [16.1, 60_000],
      [33.3, 30_000],
      [3, 1000],
      [7, 10_000],
    ] as const) {
      const n = phaseSends(rate, durationMs);
      // the last counted send is inside the window, the next one is not
      expect(((n - 1) * 1000) / rate).toBeLessThan(durationMs);
      expect((n * 1000) / rate).toBeGreaterThanOrEqual(durationMs - 1e-6);
    }
  });
});

describe('OpenSchedule: total per instance', () => {
  it.each<[string, number, number, number, number[]]>([
    ['one instance owns every send', 200, 1000, 1, [200]],
    ['10 sends over 3 instances', 100, 100, 3, [4, 3, 3]],
    ['200 sends over 4 instances', 200, 1000, 4, [50, 50, 50, 50]],
    ['3 sends over 5 instances: the last two own none', 3, 1000, 5, [1, 1, 1, 0, 0]],
    ['249 sends (8.3 req/s × 30 s) over 2 instances', 8.3, 30_000, 2, [125, 124]],
  ])('%s', (_label, rate, durationMs, stride, totals) => {
    const per = Array.from({ length: stride }, (_, offset) => schedule({ rate, durationMs, stride, offset }).total);
    expect(per).toEqual(totals);
    expect(per.reduce((a, b) => a + b, 0)).toBe(phaseSends(rate, durationMs));
  });

  it.each<[number, number]>([
    [10, 10],
    [10, 11],
    [0, 0],
  ])('an offset at or beyond all %i sends (offset %i) owns 0', (all, offset) => {
    const s = schedule({ rate: 1000, durationMs: all, stride: offset + 1, offset });
    expect(phaseSends(1000, all)).toBe(all);
    expect(s.total).toBe(0);
    expect(s.nextAt()).toBeUndefined();
  });

  it.each<[number, number]>([
    [1, 37],
    [2, 37],
    [3, 37],
    [4, 10],
    [7, 50],
    [10, 3],
  ])(
    '%i interleaved instances together start each of %i sends exactly once, on one evenly spaced grid',
    (stride, all) => {
      // 1000 req/s: send i is due at startAt + i ms, exactly representable
      const startAt = 5000;
      const indices: number[] = [];
      for (let offset = 0; offset < stride; offset++) {
        const s = schedule({ startAt, rate: 1000, durationMs: all, stride, offset });
        const d = driver(s);
        d.pump(startAt + all + 1000);
        expect(d.sent).toHaveLength(s.total);
        for (const at of d.sent) {
          const i = at - startAt;
          expect(Number.isInteger(i)).toBe(true);
          expect(i % stride).toBe(offset);
          indices.push(i);
        }
      }
      expect(indices.sort((a, b) => a - b)).toEqual(Array.from({ length: all }, (_, i) => i));
    },
  );
});

describe('OpenSchedule: at()', () => {
  it.each<[string, Partial<ScheduleOptions>, number[]]>([
    ['one instance at 100 req/s: every 10 ms from the start', { startAt: 1000, rate: 100 }, [1000, 1010, 1020, 1030]],
    ['instance 0 of 3: every 30 ms', { startAt: 1000, rate: 100, stride: 3, offset: 0 }, [1000, 1030, 1060, 1090]],
    [
      'instance 2 of 3: offset by two intervals',
      { startAt: 1000, rate: 100, stride: 3, offset: 2 },
      [1020, 1050, 1080, 1110],
    ],
    ['200 req/s: every 5 ms', { startAt: 0, rate: 200, durationMs: 1000 }, [0, 5, 10, 15]],
    ['0.5 req/s: every 2 s', { startAt: 250, rate: 0.5, durationMs: 10_000 }, [250, 2250, 4250, 6250]],
  ])('%s', (_label, o, times) => {
    const s = schedule(o);
    expect(times.map((_, j) => s.at(j))).toEqual(times);
  });

  it('spaces 3 req/s at a third of a second', () => {
    const s = schedule({ startAt: 0, rate: 3, durationMs: 1000 });
    expect(s.total).toBe(3);
    expect(s.at(0)).toBe(0);
    expect(s.at(1)).toBeCloseTo(333.333, 3);
    expect(s.at(2)).toBeCloseTo(666.667, 3);
  });
});

describe('OpenSchedule: windowEnd and nextAt', () => {
  it.each<[Partial<ScheduleOptions>, number]>([
    [{ startAt: 1000, durationMs: 100 }, 1100],
    [{ startAt: 0, durationMs: 30_000 }, 30_000],
    [{ startAt: 123.5, durationMs: 1000, stride: 4, offset: 3 }, 1123.5],
  ])('windowEnd of %o is %d', (o, end) => {
    expect(schedule(o).windowEnd).toBe(end);
  });

  it('nextAt() is the next send not yet started, and undefined once all have started', () => {
    const s = schedule({ startAt: 1000, rate: 100, durationMs: 30 });
    const d = driver(s);
    expect(s.total).toBe(3);
    expect(s.nextAt()).toBe(1000);
    d.pump(1000);
    expect(s.nextAt()).toBe(1010);
    d.pump(1012);
    expect(s.nextAt()).toBe(1020);
    d.pump(1020);
    expect(s.startedCount).toBe(3);
    expect(s.nextAt()).toBeUndefined();
    // pumping past the end starts nothing more
    expect(d.pump(5000)).toEqual([]);
    expect(s.startedCount).toBe(3);
  });

  it('nextAt() of an instance with a stride steps by the stride', () => {
    const s = schedule({ startAt: 0, rate: 1000, durationMs: 10, stride: 4, offset: 1 });
    const d = driver(s);
    expect(s.total).toBe(3); // sends 1, 5, 9
    expect(s.nextAt()).toBe(1);
    d.pump(1);
    expect(s.nextAt()).toBe(5);
    d.pump(9);
    expect(d.sent).toEqual([1, 5, 9]);
    expect(s.nextAt()).toBeUndefined();
  });
});

describe('OpenSchedule: pump', () => {
  it.each<[string, number, number[]]>([
    ['well before the start', 0, []],
    ['just before the start', 999.999, []],
    ['at the start: send 0', 1000, [1000]],
    ['between sends 0 and 1', 1009.99, [1000]],
    ['exactly when send 2 is due', 1020, [1000, 1010, 1020]],
    ['after the window: every send, catching up', 2000, [1000, 1010, 1020, 1030, 1040, 1050, 1060, 1070, 1080, 1090]],
  ])('a first pump %s starts %j', (_label, now, expected) => {
    const s = schedule();
    const d = driver(s);
    expect(d.pump(now)).toEqual(expected);
    expect(s.startedCount).toBe(expected.length);
  });

  it('hands send the scheduled time, not the time of the pump', () => {
    const s = schedule();
    const d = driver(s);
    expect(d.pump(1004)).toEqual([1000]);
    expect(d.pump(1037)).toEqual([1010, 1020, 1030]);
    expect(d.pump(1037)).toEqual([]);
    expect(d.pump(1040)).toEqual([1040]);
  });

  it.each<[string, number, { late: number; maxSendDelayMs: number }]>([
    ['on time', 1000, { late: 0, maxSendDelayMs: 0 }],
    ['5 ms behind', 1005, { late: 0, maxSendDelayMs: 5 }],
    ['exactly LATE_TOLERANCE_MS behind', 1000 + LATE_TOLERANCE_MS, { late: 0, maxSendDelayMs: 10 }],
    ['just beyond LATE_TOLERANCE_MS', 1010.5, { late: 1, maxSendDelayMs: 10.5 }],
    ['250 ms behind', 1250, { late: 1, maxSendDelayMs: 250 }],
  ])('a single send started %s: late and max delay', (_label, now, expected) => {
    const s = schedule({ durationMs: 10 });
    const d = driver(s);
    expect(s.total).toBe(1);
    d.pump(now);
    expect({ late: s.late, maxSendDelayMs: s.maxSendDelayMs }).toEqual(expected);
    expect(s.lateMaxInFlight).toBe(0);
    expect(s.heldBack).toBe(0);
  });

  it('catches up several due sends in one pump; only those beyond the tolerance are late (own reasons)', () => {
    const s = schedule();
    const d = driver(s);
    d.pump(1000);
    // sends 1..5 are due at 1010..1050: 40, 30, 20, 10 and 0 ms behind
    expect(d.pump(1050)).toEqual([1010, 1020, 1030, 1040, 1050]);
    expect(counters(s)).toEqual({ started: 6, late: 3, lateMaxInFlight: 0, heldBack: 0, maxSendDelayMs: 40 });
  });

  it('keeps the largest send delay, including delays within the tolerance', () => {
    const s = schedule();
    const d = driver(s);
    d.pump(1007); // 7 ms
    d.pump(1013); // 3 ms
    expect(s.maxSendDelayMs).toBe(7);
    expect(s.late).toBe(0);
    d.pump(1045); // 1020 is 25 ms behind
    expect(s.maxSendDelayMs).toBe(25);
  });
});

describe('OpenSchedule: max-in-flight', () => {
  it('sends nothing while max-in-flight requests are open, however many are due', () => {
    const s = schedule({ maxInFlight: 2 });
    const d = driver(s);
    d.inFlight = 2;
    expect(d.pump(1000)).toEqual([]);
    expect(d.pump(1090)).toEqual([]);
    expect(s.startedCount).toBe(0);
    expect(s.nextAt()).toBe(1000);
    d.complete();
    expect(d.pump(1090)).toEqual([1000]);
  });

  it('a pump with nothing due is not held back, even at max-in-flight', () => {
    const s = schedule({ maxInFlight: 1 });
    const d = driver(s);
    d.pump(1000);
    expect(d.inFlight).toBe(1);
    d.pump(1005);
    expect(s.heldBack).toBe(0);
  });

  it('starts only as many due sends as there are free slots', () => {
    const s = schedule({ maxInFlight: 3 });
    const d = driver(s);
    d.inFlight = 1;
    // sends 0..5 due; two slots free
    expect(d.pump(1050)).toEqual([1000, 1010]);
    expect(d.inFlight).toBe(3);
    expect(s.heldBack).toBe(1);
  });

  it('counts held-back sends that start late in both late and lateMaxInFlight; heldBack once per pump that saw new due sends', () => {
    // 100 req/s (every 10 ms), one request in flight at most
    const s = schedule({ maxInFlight: 1 });
    const d = driver(s);

    expect(d.pump(1000)).toEqual([1000]);
    expect(counters(s)).toEqual({ started: 1, late: 0, lateMaxInFlight: 0, heldBack: 0, maxSendDelayMs: 0 });

    // send 1 due, slot taken: held back
    expect(d.pump(1010)).toEqual([]);
    expect(s.heldBack).toBe(1);
    // no new due send: not counted again
    expect(d.pump(1015)).toEqual([]);
    expect(s.heldBack).toBe(1);
    // send 2 now due too: a new hold
    expect(d.pump(1020)).toEqual([]);
    expect(s.heldBack).toBe(2);

    // the slot frees: send 1 starts 25 ms late (held), then the slot is taken again with 2 and 3 due
    d.complete();
    expect(d.pump(1035)).toEqual([1010]);
    expect(counters(s)).toEqual({ started: 2, late: 1, lateMaxInFlight: 1, heldBack: 3, maxSendDelayMs: 25 });

    // send 2 starts 16 ms late (held); send 3 is still due but no new send became due: heldBack unchanged
    d.complete();
    expect(d.pump(1036)).toEqual([1020]);
    expect(counters(s)).toEqual({ started: 3, late: 2, lateMaxInFlight: 2, heldBack: 3, maxSendDelayMs: 25 });

    // send 3 was held but starts within the tolerance (7 ms): not late at all
    d.complete();
    expect(d.pump(1037)).toEqual([1030]);
    expect(counters(s)).toEqual({ started: 4, late: 2, lateMaxInFlight: 2, heldBack: 3, maxSendDelayMs: 25 });

    // send 4 (1040) never waited for a slot: 30 ms late for the generator's own reason
    d.complete();
    expect(d.pump(1070)).toEqual([1040]);
    expect(s.late).toBe(3);
    expect(s.lateMaxInFlight).toBe(2);
    expect(s.maxSendDelayMs).toBe(30);
    // sends 5..7 (1050..1070) are due behind it: held now
    expect(s.heldBack).toBe(4);
  });

  it('sends late for the generator’s own reason are not counted as held', () => {
    const s = schedule({ maxInFlight: 100 });
    const d = driver(s);
    d.inFlight = 50;
    expect(d.pump(1095)).toHaveLength(10);
    // 95, 85, ..., 15 ms behind are late; the last (5 ms) is not
    expect(counters(s)).toEqual({ started: 10, late: 9, lateMaxInFlight: 0, heldBack: 0, maxSendDelayMs: 95 });
    expect(s.nextAt()).toBeUndefined();
  });

  it('once held, the sends that were due then count as held even when started after more became due', () => {
    const s = schedule({ maxInFlight: 2 });
    const d = driver(s);
    d.inFlight = 2;
    expect(d.pump(1020)).toEqual([]); // sends 0..2 due and held
    expect(s.heldBack).toBe(1);
    d.complete(2);
    // slots free at 1100: 0, 1 start (held, late); 2..9 due behind them
    expect(d.pump(1100)).toEqual([1000, 1010]);
    expect(s.heldBack).toBe(2);
    d.complete(2);
    expect(d.pump(1100)).toEqual([1020, 1030]);
    d.complete(2);
    expect(d.pump(1100)).toEqual([1040, 1050]);
    // 6 late, all of them due while the slots were taken
    expect(s.late).toBe(6);
    expect(s.lateMaxInFlight).toBe(6);
    expect(s.maxSendDelayMs).toBe(100);
  });
});

import { describe, expect, it } from 'vitest';
import { LATE_MS, OpenSchedule, phaseSends, type ScheduleOptions, splitDelay } from '../../runner/src/schedule.js';

/** A schedule with the given options over a default of 100 req/s for 100 ms from t = 1000, one instance. */
function schedule(o: Partial<ScheduleOptions> = {}): OpenSchedule {
  return new OpenSchedule({ startAt: 1000, rate: 100, durationMs: 100, stride: 1, offset: 0, ...o });
}

/**
 * Drives a schedule with a hand-held clock. `free` is the number of free connections (a send takes
 * one, `complete` gives them back); `idleAt` the generator's last idle moment (defaults to the pump
 * time: an idle generator). `sent` keeps the scheduled time of every started send, `service` the
 * service's share of its delay.
 */
function driver(s: OpenSchedule, free = Infinity) {
  const d = {
    free,
    sent: [] as number[],
    service: [] as number[],
    /** pumps at `now`; returns the scheduled times started by this pump */
    pump(now: number, idleAt = now): number[] {
      const before = d.sent.length;
      s.pump(
        now,
        idleAt,
        () => d.free > 0,
        (serviceMs) => {
          d.free--;
          d.sent.push(s.at(s.startedCount - 1));
          d.service.push(serviceMs);
        },
      );
      return d.sent.slice(before);
    },
    complete(n = 1): void {
      d.free += n;
    },
  };
  return d;
}

const counters = (s: OpenSchedule) => ({
  started: s.startedCount,
  late: s.late,
  lateService: s.lateService,
  lateGenerator: s.lateGenerator,
  maxSendDelayMs: s.maxSendDelayMs,
});

describe('LATE_MS', () => {
  it('is 5 ms', () => {
    expect(LATE_MS).toBe(5);
  });
});

describe('splitDelay: who is charged for a late send', () => {
  it.each<[string, number, number, number, boolean, { service: number; timer: number; generator: number }]>([
    ['on time', 100, 100, 100, false, { service: 0, timer: 0, generator: 0 }],
    ['on time, held (nothing to charge)', 100, 100, 100, true, { service: 0, timer: 0, generator: 0 }],
    [
      'timer fired 0.8 ms late, the generator idle until then',
      100,
      100.8,
      100.8,
      false,
      { service: 0, timer: 0.8, generator: 0 },
    ],
    [
      'held 5 ms, the generator idle until the slot freed: the service',
      100,
      105,
      105,
      true,
      { service: 5, timer: 0, generator: 0 },
    ],
    [
      'held 5 ms, generator busy for the last 1 ms: 4 service, 1 generator',
      100,
      105,
      104,
      true,
      { service: 4, timer: 0, generator: 1 },
    ],
    [
      'held, but the generator never idled since the send was due: all generator',
      100,
      150,
      90,
      true,
      { service: 0, timer: 0, generator: 50 },
    ],
    [
      'not held, generator busy since before it was due: all generator',
      100,
      103,
      99,
      false,
      { service: 0, timer: 0, generator: 3 },
    ],
    ['not held, timer 0.5 ms then busy 2 ms', 100, 102.5, 100.5, false, { service: 0, timer: 0.5, generator: 2 }],
    [
      'a pump before the due time (clock skew) charges nothing',
      100,
      99,
      99,
      true,
      { service: 0, timer: 0, generator: 0 },
    ],
  ])('%s', (_label, due, now, idleAt, held, expected) => {
    const d = splitDelay(due, now, idleAt, held);
    expect(d.service).toBeCloseTo(expected.service, 9);
    expect(d.timer).toBeCloseTo(expected.timer, 9);
    expect(d.generator).toBeCloseTo(expected.generator, 9);
  });

  it('the three parts always add up to the delay, none negative', () => {
    for (const due of [0, 10, 99.5])
      for (const now of [0, 5, 10, 12.25, 100])
        for (const idleAt of [-5, 0, 3, 10, 11, 100, 200])
          for (const held of [true, false]) {
            const d = splitDelay(due, now, idleAt, held);
            for (const v of [d.service, d.timer, d.generator]) expect(v).toBeGreaterThanOrEqual(0);
            expect(d.service + d.timer + d.generator).toBeCloseTo(Math.max(0, now - due), 9);
            if (held) expect(d.timer).toBe(0);
            else expect(d.service).toBe(0);
          }
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

  it('a send that is not held charges the service nothing, however late', () => {
    const s = schedule();
    const d = driver(s);
    d.pump(1000.7); // timer granularity: the generator was idle until now
    d.pump(1040, 1012); // the generator busy since 1012: sends 1 and 2 late for it, 3 and 4 on time-ish
    expect(d.service).toEqual([0, 0, 0, 0, 0]);
    expect(counters(s)).toEqual({ started: 5, late: 3, lateService: 0, lateGenerator: 3, maxSendDelayMs: 30 });
    expect(s.delayMs.service).toBe(0);
    expect(s.delayMs.timer).toBeCloseTo(0.7 + 2 + 0 + 0 + 0, 9); // send 1 (due 1010) waited on the timer until 1012
    expect(s.delayMs.generator).toBeCloseTo(28 + 20 + 10 + 0, 9);
  });

  it('a held send charges the service until the generator last idled, and no further', () => {
    const s = schedule();
    const d = driver(s, 1);
    expect(d.pump(1000)).toEqual([1000]);
    // send 1 is due at 1010; the only connection is busy: held
    expect(d.pump(1010)).toEqual([]);
    expect(d.pump(1015)).toEqual([]);
    // the response comes in at 1018, and the generator had been idle just before
    d.complete();
    expect(d.pump(1018, 1018)).toEqual([1010]);
    expect(d.service[1]).toBeCloseTo(8, 9);
    // send 2 due at 1020, held again; the slot frees at 1030 but the generator was busy since 1024
    expect(d.pump(1020)).toEqual([]);
    d.complete();
    expect(d.pump(1030, 1024)).toEqual([1020]);
    expect(d.service[2]).toBeCloseTo(4, 9);
    expect(counters(s)).toEqual({ started: 3, late: 2, lateService: 1, lateGenerator: 1, maxSendDelayMs: 10 });
    expect(s.delayMs.service).toBeCloseTo(12, 9);
    expect(s.delayMs.generator).toBeCloseTo(6, 9);
    expect(s.delayMs.timer).toBe(0);
  });

  it('starts only as many due sends as there are free connections, oldest first', () => {
    const s = schedule();
    const d = driver(s, 2);
    expect(d.pump(1035)).toEqual([1000, 1010]);
    expect(s.waiting(1035)).toBe(2);
    d.complete(3);
    expect(d.pump(1041)).toEqual([1020, 1030, 1040]);
    expect(s.waiting(1041)).toBe(0);
  });

  it('sends that were due while no connection was free stay held even when more became due since', () => {
    const s = schedule();
    const d = driver(s, 0);
    d.pump(1005); // send 0 held
    d.pump(1012); // send 1 held
    d.complete(1);
    d.pump(1025, 1025); // send 0 goes; sends 1, 2 still held
    d.complete(2);
    d.pump(1026, 1026);
    expect(d.sent).toEqual([1000, 1010, 1020]);
    expect(d.service.map((v) => Math.round(v))).toEqual([25, 16, 6]);
  });

  it('a send due after the last pump that found no connection is not held', () => {
    const s = schedule();
    const d = driver(s, 0);
    d.pump(1000); // send 0 held
    d.complete(2);
    // send 1 (due 1010) was never seen held: the wait until 1013 was the timer's
    d.pump(1013, 1013);
    expect(d.service.map((v) => Math.round(v))).toEqual([13, 0]);
    expect(s.delayMs.timer).toBeCloseTo(3, 9);
  });
});

describe('OpenSchedule: drop', () => {
  it('starts the next due send without a connection, and nothing that is not due', () => {
    const s = schedule();
    expect(s.drop(999)).toBe(false);
    expect(s.drop(1000)).toBe(true);
    expect(s.drop(1005)).toBe(false);
    expect(s.startedCount).toBe(1);
    expect(s.nextAt()).toBe(1010);
  });

  it('stops at the last send', () => {
    const s = schedule({ durationMs: 20 });
    expect(s.drop(5000)).toBe(true);
    expect(s.drop(5000)).toBe(true);
    expect(s.drop(5000)).toBe(false);
  });
});

describe('OpenSchedule: waiting (due and not started) over strides', () => {
  it('agrees with counting send by send', () => {
    for (const [rate, stride] of [
      [100, 1],
      [333.3, 3],
      [7, 2],
      [20_000, 4],
    ] as const) {
      for (let offset = 0; offset < stride; offset++) {
        const s = schedule({ startAt: 50, rate, durationMs: 500, stride, offset });
        for (const now of [0, 50, 50.001, 61, 123.4, 549.99, 550, 10_000]) {
          let due = 0;
          while (due < s.total && s.at(due) <= now) due++;
          expect(s.waiting(now)).toBe(due);
        }
      }
    }
  });
});

// A phase's `stages` (a ramp): the level over time, the arrivals a ramping rate accumulates, when
// each send is due, and how instances share a ramp (the open-loop schedule, the closed loop's
// connections).
import { describe, expect, it } from 'vitest';
import { rampConnections } from '../../runner/src/closed-loop.js';
import { OpenSchedule } from '../../runner/src/schedule.js';
import {
  arrivalTime,
  arrivalsBy,
  levelAt,
  peakLevel,
  type Ramp,
  rampDurationMs,
  rampSends,
} from '../../src/runner-kit/ramp.js';

/** 0 → 100/s over 10 s, 100/s for 10 s, down to 0 over 10 s (k6's classic ramp-up, hold, ramp-down). */
const upHoldDown: Ramp = {
  from: 0,
  stages: [
    { durationMs: 10_000, to: 100 },
    { durationMs: 10_000, to: 100 },
    { durationMs: 10_000, to: 0 },
  ],
};
const flat: Ramp = { from: 50, stages: [{ durationMs: 2000, to: 50 }] };
const step: Ramp = {
  from: 10,
  stages: [
    { durationMs: 1000, to: 10 },
    { durationMs: 1000, to: 30 },
  ],
};
const downToZeroThenUp: Ramp = {
  from: 20,
  stages: [
    { durationMs: 1000, to: 0 },
    { durationMs: 1000, to: 0 },
    { durationMs: 1000, to: 20 },
  ],
};

describe('levelAt, peakLevel, rampDurationMs', () => {
  it.each<[string, Ramp, number, number]>([
    ['start', upHoldDown, 0, 0],
    ['a quarter of the way up', upHoldDown, 2500, 25],
    ['the top', upHoldDown, 10_000, 100],
    ['holding', upHoldDown, 15_000, 100],
    ['half way down', upHoldDown, 25_000, 50],
    ['the end', upHoldDown, 30_000, 0],
    ['past the end: the last level holds', upHoldDown, 40_000, 0],
    ['before the start: the first level', step, -5, 10],
    ['flat', flat, 1234, 50],
    ['the second stage of a step, half way', step, 1500, 20],
  ])('%s', (_label, ramp, t, level) => {
    expect(levelAt(ramp, t)).toBeCloseTo(level, 9);
  });

  it('the peak and the length', () => {
    expect(peakLevel(upHoldDown)).toBe(100);
    expect(peakLevel(downToZeroThenUp)).toBe(20);
    expect(rampDurationMs(upHoldDown)).toBe(30_000);
    expect(rampDurationMs(step)).toBe(2000);
  });
});

describe('arrivalsBy: the area under the rate', () => {
  it.each<[string, Ramp, number, number]>([
    ['nothing at the start', upHoldDown, 0, 0],
    ['the ramp up: 10 s × 100/s ÷ 2', upHoldDown, 10_000, 500],
    ['half the ramp up: a quarter of its area', upHoldDown, 5000, 125],
    ['up and hold', upHoldDown, 20_000, 1500],
    ['all of it', upHoldDown, 30_000, 2000],
    ['past the end at 0/s: nothing more', upHoldDown, 60_000, 2000],
    ['flat 50/s for 1.5 s', flat, 1500, 75],
    ['flat past its end: the rate holds', flat, 3000, 150],
    ['a step: 10 + (10 + 30) / 2', step, 2000, 30],
    ['down to zero and back', downToZeroThenUp, 3000, 20],
  ])('%s', (_label, ramp, t, n) => {
    expect(arrivalsBy(ramp, t)).toBeCloseTo(n, 6);
  });
});

describe('arrivalTime: send i is due when i arrivals have accumulated', () => {
  it('a flat ramp is a fixed rate: send i at i / rate', () => {
    for (let i = 0; i < 100; i++) expect(arrivalTime(flat, i)).toBeCloseTo(i * 20, 6);
  });

  it.each<[string, Ramp]>([
    ['up, hold, down', upHoldDown],
    ['a step', step],
    ['down to zero and back', downToZeroThenUp],
  ])('inverts arrivalsBy, in order, and every send falls inside the ramp (%s)', (_label, ramp) => {
    const sends = rampSends(ramp, rampDurationMs(ramp));
    let last = -1;
    for (let i = 0; i < sends; i++) {
      const t = arrivalTime(ramp, i);
      expect(t).toBeGreaterThan(last - 1e-9);
      expect(t).toBeLessThan(rampDurationMs(ramp));
      expect(arrivalsBy(ramp, t)).toBeCloseTo(i, 6);
      last = t;
    }
  });

  it('the ramp up: send i at 10 s × √(i / 500) (the area grows with the square of time)', () => {
    for (const i of [1, 5, 125, 320, 500]) {
      expect(arrivalTime(upHoldDown, i)).toBeCloseTo(10_000 * Math.sqrt(i / 500), 6);
    }
  });

  it('no send is due while the rate is 0: the stretch at 0/s is skipped', () => {
    // 10 arrivals by the end of the ramp down at 1 s; the next only once the rate rises again
    const t = arrivalTime(downToZeroThenUp, 11);
    expect(t).toBeGreaterThan(2000);
    expect(t).toBeCloseTo(2000 + 1000 * Math.sqrt(1 / 10), 6);
  });

  it('no send while the rate is 0 at the start: send 0 waits for the rate to rise', () => {
    const late: Ramp = {
      from: 0,
      stages: [
        { durationMs: 1000, to: 0 },
        { durationMs: 1000, to: 100 },
      ],
    };
    expect(arrivalTime(late, 0)).toBe(1000);
    expect(arrivalTime(upHoldDown, 0)).toBe(0);
    expect(arrivalTime(flat, 0)).toBe(0);
    // a count the arrivals reach before a pause is due at the pause's end
    expect(arrivalTime(downToZeroThenUp, 10)).toBe(2000);
    expect(rampSends(late, 1000)).toBe(0);
  });

  it('matches the inverse found by bisection on random ramps (the last moment the arrivals are still i)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let r = 0; r < 200; r++) {
      const stages = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => ({
        durationMs: 100 + Math.floor(rnd() * 2000),
        to: rnd() < 0.25 ? 0 : Math.round(rnd() * 500),
      }));
      const ramp: Ramp = { from: rnd() < 0.5 ? 0 : Math.round(rnd() * 500), stages };
      const total = rampSends(ramp, rampDurationMs(ramp));
      for (const i of [0, 1, Math.floor(total / 3), Math.floor(total / 2), total - 1].filter(
        (x) => x >= 0 && x < total,
      )) {
        // the largest t with arrivalsBy(t) <= i, to 1e-6 ms
        let lo = 0;
        let hi = rampDurationMs(ramp);
        for (let k = 0; k < 80; k++) {
          const mid = (lo + hi) / 2;
          if (arrivalsBy(ramp, mid) <= i) lo = mid;
          else hi = mid;
        }
        expect(arrivalTime(ramp, i), `ramp ${JSON.stringify(ramp)}, send ${i}`).toBeCloseTo(lo, 3);
      }
    }
  });

  it('a rate that ends at 0 never reaches more arrivals than it had', () => {
    expect(arrivalTime(upHoldDown, 2001)).toBe(Infinity);
  });
});

describe('rampSends', () => {
  it.each<[string, Ramp, number, number]>([
    ['up, hold, down', upHoldDown, 30_000, 2000],
    ['a warm-up of the first second of the ramp up: 1 s × 10/s ÷ 2', upHoldDown, 1000, 5],
    ['flat 50/s for 2 s, as a fixed rate', flat, 2000, 100],
    ['a fraction of an arrival is a send', step, 50, 1],
    ['all at 0/s: none', { from: 0, stages: [{ durationMs: 1000, to: 0 }] }, 1000, 0],
  ])('%s', (_label, ramp, d, n) => {
    expect(rampSends(ramp, d)).toBe(n);
  });
});

describe('OpenSchedule with a ramp', () => {
  const opts = { startAt: 1000, rate: 100, durationMs: 30_000, ramp: upHoldDown };

  it('instances interleave one ramp: together they are the one instance’s sends', () => {
    const one = new OpenSchedule({ ...opts, stride: 1, offset: 0 });
    const parts = [0, 1, 2].map((offset) => new OpenSchedule({ ...opts, stride: 3, offset }));
    expect(one.total).toBe(2000);
    expect(parts.map((p) => p.total)).toEqual([667, 667, 666]);
    const all = parts.flatMap((p) => Array.from({ length: p.total }, (_, j) => p.at(j))).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: one.total }, (_, j) => one.at(j)));
  });

  it('a pump at time t starts the sends due by t, as the ramp says', () => {
    const s = new OpenSchedule({ ...opts, stride: 1, offset: 0 });
    let started = 0;
    for (const t of [0, 2500, 5000, 10_000, 20_000, 25_000, 31_000]) {
      s.pump(
        1000 + t,
        1000 + t,
        () => true,
        () => started++,
      );
      // sends 0 .. ⌊arrivals⌋ are due (send 0 at the start)
      expect(started, `by ${t} ms`).toBe(Math.min(2000, Math.floor(arrivalsBy(upHoldDown, t) + 1e-9) + 1));
    }
  });
});

describe('rampConnections: each instance keeps its share of the level, rounded', () => {
  const ramp: Ramp = { from: 0, stages: [{ durationMs: 1000, to: 10 }] };
  it.each<[number, number[]]>([
    [0, [0, 0, 0]],
    [140, [1, 0, 0]],
    [500, [2, 2, 1]],
    [1000, [4, 3, 3]],
    [5000, [4, 3, 3]],
  ])('at %d ms: %j', (t, counts) => {
    expect([0, 1, 2].map((offset) => rampConnections({ ramp, stride: 3, offset }, t))).toEqual(counts);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(Math.round(levelAt(ramp, t)));
  });
});

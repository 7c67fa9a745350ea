// The seeded generator behind A/B pair orders (src/stats/random.ts): reproducible from the seed in
// the results file, different between seeds, and fair enough for coin flips.
import { describe, expect, it } from 'vitest';
import { drawOrder, interleave, newSeed, type PairOrder, seededRandom } from '../../src/stats/random.js';

const take = (random: () => number, n: number) => Array.from({ length: n }, () => random());
const orders = (seed: number, n: number): PairOrder[] => {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => drawOrder(random));
};

describe('seededRandom', () => {
  it.each([0, 1, 42, 424_242, 2 ** 32 - 1])('seed %i: the same seed gives the same sequence', (seed) => {
    expect(take(seededRandom(seed), 100)).toEqual(take(seededRandom(seed), 100));
  });

  it.each([0, 1, 42, 2 ** 32 - 1])('seed %i: numbers in [0, 1)', (seed) => {
    for (const v of take(seededRandom(seed), 1000)) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
    }
  });

  it.each<[number, number]>([
    [1, 2],
    [0, 1],
    [42, 43],
    [123_456, 654_321],
  ])('seeds %i and %i give different sequences', (a, b) => {
    expect(take(seededRandom(a), 20)).not.toEqual(take(seededRandom(b), 20));
  });

  it('a seed is taken as 32 bits: 2^32 + 5 is seed 5', () => {
    expect(take(seededRandom(2 ** 32 + 5), 10)).toEqual(take(seededRandom(5), 10));
  });

  it('is roughly uniform: 10,000 draws over 10 bins', () => {
    const bins = new Array<number>(10).fill(0);
    for (const v of take(seededRandom(99), 10_000)) bins[Math.floor(v * 10)] = (bins[Math.floor(v * 10)] as number) + 1;
    // 1000 expected per bin, sd ≈ 30: ±150 is five of them
    for (const b of bins) expect(Math.abs(b - 1000)).toBeLessThan(150);
  });
});

describe('drawOrder', () => {
  it.each([1, 7, 424_242])('seed %i: the same seed draws the same orders', (seed) => {
    expect(orders(seed, 50)).toEqual(orders(seed, 50));
  });

  it('different seeds draw different orders', () => {
    expect(orders(1, 40)).not.toEqual(orders(2, 40));
    const distinct = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => orders(seed, 24).join(' ')));
    expect(distinct.size).toBe(8);
  });

  it('draws only AB and BA', () => {
    expect(new Set(orders(3, 200))).toEqual(new Set(['AB', 'BA']));
  });

  it.each([1, 2, 424_242])('seed %i: roughly balanced over 1000 draws', (seed) => {
    const ab = orders(seed, 1000).filter((o) => o === 'AB').length;
    // Binomial(1000, ½): sd ≈ 15.8; 500 ± 80 is five of them
    expect(Math.abs(ab - 500)).toBeLessThan(80);
  });

  it('follows the generator: below ½ is AB (base first), from ½ on BA', () => {
    expect(drawOrder(() => 0)).toBe('AB');
    expect(drawOrder(() => 0.4999)).toBe('AB');
    expect(drawOrder(() => 0.5)).toBe('BA');
    expect(drawOrder(() => 0.9999)).toBe('BA');
  });

  it('no long runs of one order that would let a drift line up with a side (seed 1, 1000 draws)', () => {
    const seq = orders(1, 1000);
    let longest = 1;
    let run = 1;
    for (let i = 1; i < seq.length; i++) {
      run = seq[i] === seq[i - 1] ? run + 1 : 1;
      longest = Math.max(longest, run);
    }
    // the longest run in 1000 fair flips is about log2(1000) ≈ 10
    expect(longest).toBeLessThan(20);
  });
});

describe('newSeed', () => {
  it.each<[number, number]>([
    [0, 0],
    [0.5, 2 ** 31],
    [0.999_999_999_9, 2 ** 32 - 1],
  ])('random() = %d → seed %i', (r, seed) => {
    expect(newSeed(() => r)).toBe(seed);
  });

  it('is a 32-bit unsigned integer from the platform generator', () => {
    for (let i = 0; i < 100; i++) {
      const s = newSeed();
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(2 ** 32);
    }
  });
});

describe('interleave', () => {
  it.each<[string, number[], number[], number[]]>([
    // random() values → the picks: each draw is proportional to what a unit has left
    ['the lowest draws take unit 0 first', [2, 2], [0, 0, 0, 0], [0, 0, 1, 1]],
    ['the highest draws take the last unit first', [2, 2], [0.99, 0.99, 0.99, 0.99], [1, 1, 0, 0]],
    ['one unit: its own order', [3], [0.5, 0.5, 0.5], [0, 0, 0]],
    ['an empty unit is never picked', [0, 2], [0, 0], [1, 1]],
    ['nothing to interleave', [], [], []],
  ])('%s', (_why, counts, draws, want) => {
    let i = 0;
    expect(interleave(counts, () => draws[i++] as number)).toEqual(want);
  });

  it('each unit appears as often as it has items; a seed gives the same order', () => {
    const counts = [5, 5, 3, 1];
    const a = interleave(counts, seededRandom(42));
    expect(counts.map((_, u) => a.filter((x) => x === u).length)).toEqual(counts);
    expect(interleave(counts, seededRandom(42))).toEqual(a);
    expect(interleave(counts, seededRandom(43))).not.toEqual(a);
  });

  it('is uniform over interleavings: unit 0 of [1, 3] comes first, second, third or last a quarter of the time each', () => {
    const random = seededRandom(7);
    const at = new Map<number, number>();
    const n = 40_000;
    for (let k = 0; k < n; k++) {
      const i = interleave([1, 3], random).indexOf(0);
      at.set(i, (at.get(i) ?? 0) + 1);
    }
    expect([...at.keys()].sort()).toEqual([0, 1, 2, 3]);
    // 4 equally likely positions: each within 1.5 percentage points of 25% (about 6 standard errors)
    for (const c of at.values()) expect(Math.abs(c / n - 0.25)).toBeLessThan(0.015);
  });
});

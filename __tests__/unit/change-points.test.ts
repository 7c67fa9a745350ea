// E-divisive means (src/stats/change-points.ts): each split's score against MongoDB's
// signal-processing-algorithms (fixtures/e-divisive/reference.json, made by its make.py), against a
// brute-force sum over pairs, and the search's answers on series whose shifts are known.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bestSplit, changePoints, meanSplit, shiftLocation, splitScores } from '../../src/stats/change-points.js';
import { seededRandom } from '../../src/stats/random.js';

const ROOT = join(import.meta.dirname, '../..');
const reference = JSON.parse(readFileSync(join(ROOT, 'fixtures/e-divisive/reference.json'), 'utf8')) as {
  cases: Array<{ name: string; series: number[]; q: number[] }>;
};

/** Q(τ) straight from its definition: every pair summed, V-statistic weights as the package's. */
function bruteForce(x: number[]): number[] {
  const n = x.length;
  return x.map((_, t) => {
    const a = t;
    const b = n - t;
    let between = 0;
    let inLeft = 0;
    let inRight = 0;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const d = Math.abs((x[i] as number) - (x[j] as number));
        if (j < t) inLeft += d;
        else if (i >= t) inRight += d;
        else between += d;
      }
    if (a === 0) return 0;
    return ((a * b) / n) * ((2 * between) / (a * b) - (2 * inLeft) / (a * a) - (2 * inRight) / (b * b));
  });
}

/** A seeded series: `n` points around `level` with relative noise `cv`, each (step, at) applied from `at`. */
function series(n: number, cv: number, seed: number, steps: Array<[number, number]> = []): number[] {
  let s = seed >>> 0;
  const uniform = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 4294967296;
  };
  return Array.from({ length: n }, (_, i) => {
    const noise = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    const level = steps.reduce((v, [step, at]) => (i >= at ? v * (1 + step) : v), 1000);
    return level * (1 + cv * noise);
  });
}

describe('splitScores: Q of every split', () => {
  it.each(reference.cases.map((c) => [c.name, c] as const))('as signal-processing-algorithms: %s', (_name, c) => {
    const got = splitScores(c.series);
    expect(got).toHaveLength(c.q.length);
    got.forEach((q, i) => expect(q).toBeCloseTo(c.q[i] as number, 6));
  });

  it.each([[[1, 2, 3, 4, 5, 6]], [[5, 5, 5, 5]], [series(25, 0.05, 7, [[0.2, 12]])], [series(40, 0.3, 9)]])(
    'as the sum over every pair: %#',
    (x) => {
      const want = bruteForce(x);
      splitScores(x).forEach((q, i) => expect(q).toBeCloseTo(want[i] as number, 6));
    },
  );
});

describe('bestSplit: the best split leaving minSize each side', () => {
  it.each<[number[], number, number | undefined]>([
    [[1, 1, 1, 1, 9, 9, 9, 9], 1, 4],
    [[1, 1, 1, 1, 9, 9, 9, 9], 3, 4],
    // a lone odd point at the end is no split of three each side
    [[1, 1, 1, 1, 1, 1, 1, 9], 3, 5],
    [[1, 2, 3, 4, 5], 3, undefined],
    [[], 1, undefined],
  ])('%j, minSize %i → %s', (x, minSize, index) => {
    expect(bestSplit(x, minSize)?.index).toBe(index);
  });
});

describe('changePoints: the shifts of a series, each tested by permutation', () => {
  it.each<[string, number[], number[]]>([
    ['a clean step', [...Array(10).fill(10), ...Array(10).fill(12)], [10]],
    ['flat', Array(30).fill(7), []],
    ['two steps', [...Array(10).fill(10), ...Array(10).fill(15), ...Array(10).fill(8)], [10, 20]],
    ['5% noise, no step', series(30, 0.05, 4), []],
    ['too short to test: 5 points', [1, 1, 1, 9, 9], []],
  ])('%s', (_label, x, want) => {
    expect(changePoints(x).map((c) => c.index)).toEqual(want);
  });

  // (seed 10's run 16 draws −3σ and reads as before the step: its shift is found at 17)
  it('+20% in 5% noise at 15 of 30: one shift, within two runs of 15, for every seed of ten', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const found = changePoints(series(30, 0.05, seed, [[0.2, 15]])).map((c) => c.index);
      expect(found, `seed ${seed}`).toHaveLength(1);
      expect(Math.abs((found[0] as number) - 15), `seed ${seed}: ${found}`).toBeLessThanOrEqual(2);
    }
  });

  it('p is the share of shuffles that reach the split (+1 each side): 1/200 at best with 199, the same for the same seed', () => {
    const x = [...Array(10).fill(10), ...Array(10).fill(12)];
    expect(changePoints(x)).toEqual([{ index: 10, pValue: 0.005 }]);
    expect(changePoints(x, { permutations: 99 })).toEqual([{ index: 10, pValue: 0.01 }]);
    const noisy = series(24, 0.05, 11, [[0.06, 12]]);
    expect(changePoints(noisy, { pValue: 1 })).toEqual(changePoints(noisy, { pValue: 1 }));
    // a p above the bound ends the search
    expect(changePoints(x, { permutations: 9, pValue: 0.05 })).toEqual([]);
  });
});

const located = {
  series: JSON.parse(readFileSync(join(ROOT, 'fixtures/change-location/series.json'), 'utf8')) as {
    cases: Array<{ name: string; series: number[] }>;
  },
  reference: JSON.parse(readFileSync(join(ROOT, 'fixtures/change-location/reference.json'), 'utf8')) as {
    minSize: number;
    cases: Array<{ name: string; split: number }>;
  },
};

describe('meanSplit: where a shift lies, by least squares', () => {
  it.each(located.reference.cases.map((c, i) => [c.name, located.series.cases[i]?.series ?? [], c.split] as const))(
    'as numpy computes it: %s',
    (_name, x, split) => {
      expect(meanSplit(x, located.reference.minSize)).toBe(split);
    },
  );

  it.each<[number[], number, number | undefined]>([
    [[1, 1, 2, 2], 2, 2],
    [[1, 1, 1, 2], 2, 2],
    [[1, 2, 3], 2, undefined],
    [[1, 2], 0, undefined],
  ])('%j, minSize %i: %s', (x, minSize, expected) => {
    expect(meanSplit(x, minSize)).toBe(expected);
  });
});

describe('shiftLocation: the shift and the runs it may have come in at (95%)', () => {
  const step = (seed: number, size: number, cv = 0.05) => {
    const random = seededRandom(seed);
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Array.from({ length: 40 }, (_, i) => 5000 * (i >= 20 ? 1 + size : 1) * (1 + cv * normal()));
  };

  it('a +30% step in 5% noise: at its run for every seed of twenty, the range that run alone in most', () => {
    let alone = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const at = shiftLocation(step(seed, 0.3), 3, seededRandom(1));
      expect(at?.index).toBe(20);
      expect(at?.range[0]).toBeGreaterThanOrEqual(19);
      expect(at?.range[1]).toBeLessThanOrEqual(21);
      if (at?.range[0] === 20 && at.range[1] === 20) alone++;
    }
    expect(alone).toBeGreaterThanOrEqual(16);
  });

  it('a +8% step in 5% noise: a range of several runs that holds run 20 in at least 90 of 100 seeds', () => {
    // 2,000 simulations (numpy, fixtures/change-location/make.py's least squares): 96% held, 10 runs wide
    let held = 0;
    const widths: number[] = [];
    for (let seed = 1; seed <= 100; seed++) {
      const at = shiftLocation(step(seed, 0.08), 3, seededRandom(seed)) as { index: number; range: [number, number] };
      expect(at.range[0]).toBeLessThanOrEqual(at.index);
      expect(at.range[1]).toBeGreaterThanOrEqual(at.index);
      if (at.range[0] <= 20 && 20 <= at.range[1]) held++;
      widths.push(at.range[1] - at.range[0] + 1);
    }
    expect(held).toBeGreaterThanOrEqual(90);
    widths.sort((a, b) => a - b);
    expect(widths[50]).toBeGreaterThan(3);
  });

  it('the same series and seed give the same range; too short a series has none', () => {
    const x = step(3, 0.08);
    expect(shiftLocation(x, 3, seededRandom(7))).toEqual(shiftLocation(x, 3, seededRandom(7)));
    expect(shiftLocation([1, 2, 3, 4, 5], 3, seededRandom(1))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { abOrder, compareAbScenario, pairedChange } from '../../src/compare/ab.js';
import type { Thresholds } from '../../src/config/types.js';
import type { PhaseResult, ScenarioResult } from '../../src/results/types.js';
import { type Measure, phase } from './fixtures.js';

/** A phase whose trial i measured p50 = p50s[i] (and rps = rps[i] when given); merged is the median. */
function p50Phase(
  p50s: number[],
  opts: { rps?: number[]; errors?: Record<string, number>; errorsPerTrial?: number[]; flags?: string[] } = {},
) {
  const trials: Measure[] = p50s.map((v, i) => ({
    latency: { p50: v },
    rps: opts.rps?.[i] ?? 100,
    ...(opts.errors ? { errors: opts.errors } : {}),
    ...(opts.errorsPerTrial ? { errors: { timeout: opts.errorsPerTrial[i] as number } } : {}),
  }));
  const sorted = [...p50s].sort((a, b) => a - b);
  const merged: Measure = { latency: { p50: sorted[Math.floor(sorted.length / 2)] as number } };
  if (opts.errors) merged.errors = opts.errors;
  return phase('c10', merged, trials, opts.flags ?? []);
}

const scenario = (p: PhaseResult): ScenarioResult => ({ name: 'search', scenarioHash: 'sha256:x', phases: [p] });
const P50: Thresholds = { p50: { regress: 0.05, floor: 20 } };

function verdict(base: PhaseResult, head: PhaseResult, thresholds: Thresholds = P50) {
  return compareAbScenario(scenario(head), scenario(base), thresholds);
}

describe('abOrder: ABBA interleaving', () => {
  it('alternates which side goes first, so a linear drift cancels over two pairs', () => {
    expect(abOrder(3).map((s) => `${s.pair}${s.side[0]}`)).toEqual(['0b', '0h', '1h', '1b', '2b', '2h']);
  });
  it('runs each side once per pair', () => {
    const order = abOrder(6);
    expect(order.filter((s) => s.side === 'base')).toHaveLength(6);
    expect(order.filter((s) => s.side === 'head')).toHaveLength(6);
  });
});

describe('pairedChange', () => {
  it.each<[string, number[], number[], number | null, number]>([
    ['head 10% slower in every pair', [100, 200, 300], [110, 220, 330], 0.1, 20],
    ['the median of per-pair changes, not the change of medians', [100, 100, 100], [100, 150, 90], 0, 0],
    ['no change from zero', [0, 0], [0, 0], 0, 0],
    ['a change from zero has no relative size', [0, 0], [1, 3], null, 2],
    // one zero base must not switch the relative band off for the whole row
    ['pairs with a zero base are left out of the ratios', [0, 10, 10, 10, 10, 10], [1, 11, 11, 11, 11, 11], 0.1, 1],
  ])('%s', (_label, base, head, relative, absolute) => {
    const c = pairedChange(base, head);
    if (relative === null) expect(c.relative).toBeNull();
    else expect(c.relative).toBeCloseTo(relative, 12);
    expect(c.absolute).toBeCloseTo(absolute, 12);
  });

  it('gives the interval and its coverage over the pairs', () => {
    const c = pairedChange([100, 100, 100, 100, 100, 100], [101, 102, 103, 104, 105, 106]);
    expect(c.interval?.[0]).toBeCloseTo(0.01, 12);
    expect(c.interval?.[1]).toBeCloseTo(0.06, 12);
    expect(c.confidence).toBeCloseTo(1 - 2 / 64, 12);
    expect(c.pairs).toBe(6);
  });
});

describe('compareAbScenario', () => {
  const base6 = [1000, 1010, 990, 1005, 995, 1000];

  it('a consistent 10% slowdown beyond a 5% band is a regression, p = 1/64', () => {
    const [c] = verdict(p50Phase(base6), p50Phase(base6.map((v) => v * 1.1)));
    expect(c).toMatchObject({ metric: 'p50', result: 'regression', pValue: 0.0156, pairs: 6 });
    expect(c?.delta).toBeCloseTo(0.1, 4);
    expect(c?.interval).toEqual([0.1, 0.1]);
  });

  it('a change inside the band passes without a test', () => {
    const [c] = verdict(p50Phase(base6), p50Phase(base6.map((v) => v * 1.02)));
    expect(c?.result).toBe('pass');
    expect(c?.pValue).toBeUndefined();
  });

  it('beyond the band but only in some pairs is unconfirmed, not a regression', () => {
    // median change +10%, yet two pairs got 10% faster: W+ = 15 of 21, p > 0.05
    const head = [1100, 1111, 890, 1105.5, 1094.5, 900];
    const [c] = verdict(p50Phase(base6), p50Phase(head));
    expect(c?.result).toBe('unconfirmed');
    expect(c?.pValue).toBeGreaterThan(0.05);
    expect(c?.reason).toMatch(/not consistently across pairs/);
  });

  it('with too few pairs to ever reach alpha, says so', () => {
    const base = [1000, 1000, 1000, 1000];
    const [c] = verdict(p50Phase(base), p50Phase(base.map((v) => v * 1.5)));
    expect(c?.result).toBe('unconfirmed');
    expect(c?.reason).toMatch(/4 pairs that differ cannot reach p ≤ 0.05/);
  });

  it('only the pairs that differ count towards what alpha can be reached', () => {
    // 6 pairs, but 2 of them equal: the 4 that differ can never reach 0.05
    const base = [1000, 1000, 1000, 1000, 1000, 1000];
    const [c] = verdict(p50Phase(base), p50Phase([1000, 1000, 1500, 1500, 1500, 1500]), {
      p50: { regress: 0 },
    });
    expect(c?.result).toBe('unconfirmed');
    expect(c?.reason).toMatch(/^4 pairs that differ cannot reach p ≤ 0.05/);
  });

  it('an errors row with one zero base pair still honours its relative band', () => {
    const errors = (v: number[]) => p50Phase(base6, { errorsPerTrial: v });
    const [c] = verdict(errors([0, 10, 10, 10, 10, 10]), errors([1, 11, 11, 11, 11, 11]), {
      errors: { regress: 0.5 },
    });
    expect(c).toMatchObject({ metric: 'errors', result: 'pass' });
    expect(c?.delta).toBeCloseTo(0.1, 4);
  });

  it('the floor applies to the median paired difference', () => {
    // +10% of 100 µs is 10 µs, under a 20 µs floor
    const base = [100, 100, 100, 100, 100, 100];
    const [c] = verdict(p50Phase(base), p50Phase(base.map((v) => v * 1.1)));
    expect(c?.result).toBe('pass');
  });

  it('a consistent speed-up beyond the band is an improvement', () => {
    const [c] = verdict(p50Phase(base6), p50Phase(base6.map((v) => v * 0.8)));
    expect(c?.result).toBe('improvement');
  });

  it('throughput is worse downwards', () => {
    const rpsBase = [100, 101, 99, 100, 102, 98];
    const [c] = verdict(p50Phase(base6, { rps: rpsBase }), p50Phase(base6, { rps: rpsBase.map((v) => v * 0.8) }), {
      rps: { regress: 0.1 },
    });
    expect(c).toMatchObject({ metric: 'rps', result: 'regression' });
    expect(c?.delta).toBeCloseTo(-0.2, 4);
  });

  it('an absolute limit fails on the head alone', () => {
    const [c] = verdict(p50Phase(base6), p50Phase(base6), { p50: { limit: 500 } });
    expect(c).toMatchObject({ result: 'regression', reason: 'above the limit 500µs' });
  });

  it('a generator-bound phase on either side is invalid', () => {
    const bound = ['generator-bound: the runner fell behind'];
    expect(verdict(p50Phase(base6, { flags: bound }), p50Phase(base6.map((v) => v * 2)))[0]?.result).toBe('invalid');
    expect(
      verdict(
        p50Phase(base6),
        p50Phase(
          base6.map((v) => v * 2),
          { flags: bound },
        ),
      )[0]?.result,
    ).toBe('invalid');
  });

  it('an error class the base side never saw is a regression', () => {
    const rows = verdict(p50Phase(base6), p50Phase(base6, { errors: { ECONNRESET: 3 } }));
    const e = rows.find((r) => r.metric === 'error-class');
    expect(e).toMatchObject({ result: 'regression' });
    expect(e?.reason).toMatch(/ECONNRESET \(3×\), never seen on the base side/);
  });

  it('uses the built-in bands when the scenario has none', () => {
    const rows = verdict(p50Phase(base6), p50Phase(base6), {});
    expect(rows.map((r) => r.metric)).toEqual(['p50', 'p99', 'rps']);
    expect(rows.every((r) => r.result === 'pass')).toBe(true);
  });

  it.each<[number, string]>([
    [1.07, 'regression'],
    [1.04, 'pass'],
  ])('the built-in A/B p50 band is 5 percent and 100 µs: a 5 ms p50 ×%s in every pair → %s', (factor, result) => {
    const base = base6.map((v) => v * 5);
    const [c] = verdict(p50Phase(base), p50Phase(base.map((v) => v * factor)), {});
    expect(c).toMatchObject({ metric: 'p50', band: '+5% and +100µs', result });
  });
});

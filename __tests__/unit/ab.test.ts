import { describe, expect, it } from 'vitest';
import { compareAbScenario, pairedChange } from '../../src/compare/ab.js';
import type { Scenario, Thresholds } from '../../src/config-parts/types.js';
import type { AbInfo, PhaseResult, ScenarioResult } from '../../src/results/types.js';
import { type Measure, phase, resultsFile } from './fixtures.js';

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

function verdict(base: PhaseResult, head: PhaseResult, thresholds: Thresholds = P50, final = true) {
  return compareAbScenario(scenario(head), scenario(base), thresholds, final);
}

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

const base6 = [1000, 1010, 990, 1005, 995, 1000];

describe('compareAbScenario', () => {
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

  it('beyond the band but only in some pairs is inconclusive, not a regression', () => {
    // median change +10%, yet two pairs got 10% faster: W+ = 15 of 21, p > 0.05
    const head = [1100, 1111, 890, 1105.5, 1094.5, 900];
    const [c] = verdict(p50Phase(base6), p50Phase(head));
    expect(c?.result).toBe('inconclusive');
    expect(c?.pValue).toBeGreaterThan(0.05);
    expect(c?.reason).toMatch(
      /^not confirmed: p [\d.]+ > 0\.05, and confirmation by more pairs is off \(gate\.confirm\.max-trials\)$/,
    );
  });

  it('with too few pairs to ever reach alpha, says so', () => {
    const base = [1000, 1000, 1000, 1000];
    const [c] = verdict(p50Phase(base), p50Phase(base.map((v) => v * 1.5)));
    expect(c?.result).toBe('inconclusive');
    expect(c?.pValue).toBeCloseTo(1 / 16, 4);
    expect(c?.reason).toBe(
      '4 pairs cannot reach p ≤ 0.05 (the smallest p is 0.0625), and confirmation by more pairs is off (gate.confirm.max-trials)',
    );
  });

  it('pairs that do not differ leave the test fewer pairs, but reachability is judged on every pair', () => {
    // 6 pairs, 2 of them equal: the test runs on the 4 that differ (p = 1/16 > 0.05); whether alpha
    // could be reached is judged as if all 6 differed (1/64), so the reason is "not confirmed"
    const base = [1000, 1000, 1000, 1000, 1000, 1000];
    const [c] = verdict(p50Phase(base), p50Phase([1000, 1000, 1500, 1500, 1500, 1500]), {
      p50: { regress: 0 },
    });
    expect(c?.result).toBe('inconclusive');
    expect(c?.pValue).toBeCloseTo(1 / 16, 4);
    expect(c?.reason).toMatch(/^not confirmed: p 0\.0625 > 0\.05/);
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

  it('a generator-bound phase on either side is not judged: invalid inside its band, inconclusive beyond it (issue 47)', () => {
    const bound = ['generator-bound: the runner fell behind'];
    // twice as slow: beyond the band, so never a silent pass
    expect(verdict(p50Phase(base6, { flags: bound }), p50Phase(base6.map((v) => v * 2)))[0]?.result).toBe(
      'inconclusive',
    );
    expect(
      verdict(
        p50Phase(base6),
        p50Phase(
          base6.map((v) => v * 2),
          { flags: bound },
        ),
      )[0]?.result,
    ).toBe('inconclusive');
    // unchanged: invalid, a warning
    expect(verdict(p50Phase(base6), p50Phase(base6, { flags: bound }))[0]?.result).toBe('invalid');
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

describe('compareAbScenario: confirmation by more pairs (the head phase’s looks)', () => {
  const base = (n: number) => Array.from({ length: n }, () => 1000);
  // five pairs +50%, one 1% faster (the smallest |difference|): W+ = 20 of 21, p = 2/64
  const six = [1500, 1500, 1500, 1500, 1500, 990];
  const looked = (p: PhaseResult, first: number, cap: number): PhaseResult => ({ ...p, confirm: { first, cap } });

  it('one look (no looks recorded): p = 2/64 ≤ 0.05 is a regression', () => {
    const [c] = verdict(p50Phase(base(6)), p50Phase(six));
    expect(c).toMatchObject({ result: 'regression', pValue: 0.0313 });
    expect(c?.extraTrials).toBeUndefined();
  });

  it('two looks: the first spends 0.025, so 2/64 stays open while measuring', () => {
    const [c] = verdict(p50Phase(base(6)), looked(p50Phase(six), 6, 12), P50, false);
    expect(c).toMatchObject({ result: 'inconclusive', open: true, pValue: 0.0313 });
  });

  it('two looks, no extra pairs ran: inconclusive with a reason, never open', () => {
    const [c] = verdict(p50Phase(base(6)), looked(p50Phase(six), 6, 12));
    expect(c?.result).toBe('inconclusive');
    expect(c?.open).toBeUndefined();
    expect(c?.reason).toMatch(/no more trials were run/);
  });

  it('extended to 12 pairs: a regression confirmed by 6 more pairs', () => {
    const head = [...six, 1500, 1500, 1500, 1500, 1500, 1500];
    const [c] = verdict(p50Phase(base(12)), looked(p50Phase(head), 6, 12));
    expect(c).toMatchObject({ result: 'regression', extraTrials: 6, pairs: 12 });
    expect(c?.pValue).toBeLessThanOrEqual(0.025);
  });

  it('extended to 12 pairs that do not agree: inconclusive, after 6 more pairs', () => {
    // the median change is still +50%, but four of the extra pairs got 50% faster
    const head = [...six, 500, 500, 500, 500, 1500, 1500];
    const [c] = verdict(p50Phase(base(12)), looked(p50Phase(head), 6, 12));
    expect(c?.result).toBe('inconclusive');
    expect(c?.reason).toMatch(/^not confirmed after 6 more pairs: p [\d.]+ > 0\.025 over 12 pairs$/);
  });

  it('a consistent first look confirms at once: no extra pairs needed', () => {
    const [c] = verdict(p50Phase(base(6)), looked(p50Phase(base(6).map((v) => v * 1.5)), 6, 12), P50, false);
    expect(c).toMatchObject({ result: 'regression', pValue: 0.0156 });
    expect(c?.open).toBeUndefined();
    expect(c?.extraTrials).toBeUndefined();
  });

  it('pairs 2 with a cap of 4: even the cap cannot reach alpha', () => {
    const [c] = verdict(p50Phase(base(2)), looked(p50Phase([1500, 1500]), 2, 4), P50, false);
    expect(c?.result).toBe('inconclusive');
    expect(c?.open).toBeUndefined();
    expect(c?.reason).toBe(
      'even 4 pairs (the most gate.confirm.max-trials and gate.confirm.max-time allow) cannot reach p ≤ 0.05 (the smallest p is 0.0625); raise trials, gate.confirm.max-trials or gate.confirm.max-time, or refresh a baseline recorded with fewer trials',
    );
  });

  it('an improvement is one test over every pair at the full alpha', () => {
    const [c] = verdict(p50Phase(base(6)), looked(p50Phase(base(6).map((v) => v * 0.5)), 6, 12));
    expect(c).toMatchObject({ result: 'improvement', pValue: 0.0156 });
  });
});

describe('compareAbScenario: generator-bound sides, too few samples, error classes', () => {
  const bound = ['generator-bound: the runner fell behind'];
  it.each<[string, string[], string[], string]>([
    ['base only', bound, [], 'base: generator-bound: '],
    ['head only', [], bound, 'head: generator-bound: '],
    ['both sides', bound, bound, 'base and head: generator-bound: '],
  ])('generator-bound on %s: not judged, the reason names the side', (_label, baseFlags, headFlags, prefix) => {
    const [c] = verdict(
      p50Phase(base6, { flags: baseFlags }),
      p50Phase(
        base6.map((v) => v * 2),
        { flags: headFlags },
      ),
    );
    expect(c?.result).toBe('inconclusive');
    expect(c?.reason?.startsWith(prefix)).toBe(true);
    expect(c?.reason).toContain('the load generator, not the service, limited this phase');
    expect(c?.reason).toContain('its change is beyond its band, so it is not passed');
    const [same] = verdict(p50Phase(base6, { flags: baseFlags }), p50Phase(base6, { flags: headFlags }));
    expect(same?.result).toBe('invalid');
    expect(same?.reason?.startsWith(prefix)).toBe(true);
  });

  /** A phase of 6 pairs at p99 `v` whose trial 2 had `count` successful responses. */
  const shortPhase = (v: number, count: number): PhaseResult => {
    const trials: Measure[] = Array.from({ length: 6 }, (_, i) => ({
      latency: { p99: v, ...(i === 1 ? { count } : {}) },
    }));
    const p = phase('c10', { latency: { p99: v } }, trials);
    return { ...p, trials: p.trials.map((t, i) => ({ ...t, trial: i + 1 })) };
  };

  it.each<[string, PhaseResult, PhaseResult, string | undefined]>([
    [
      'head short',
      shortPhase(1000, 100_000),
      shortPhase(2000, 500),
      'too few samples: p99 needs ≥ 1000 successful responses per trial (10 beyond it); trial 2 of head had 500',
    ],
    [
      'base short',
      shortPhase(1000, 999),
      shortPhase(2000, 100_000),
      'too few samples: p99 needs ≥ 1000 successful responses per trial (10 beyond it); trial 2 of base had 999',
    ],
    ['both long enough', shortPhase(1000, 1000), shortPhase(2000, 1000), undefined],
  ])('a gated p99 with %s', (_label, base, head, reason) => {
    // +100% in every pair: beyond the band and confirmed over the pairs (p 1/64 ≤ 0.05), so a short row
    // is inconclusive (the check fails), never a silent pass
    const [c] = verdict(base, head, { p99: { regress: 0.1 } });
    expect(c?.result).toBe(reason ? 'inconclusive' : 'regression');
    expect(c?.reason).toBe(
      reason &&
        `${reason}; its change is beyond its band and its pairs confirm it (p 0.0156 ≤ 0.05), so it is not passed: give the phase longer trials or more load, so that each has the samples`,
    );
  });

  it.each<[string, PhaseResult, PhaseResult]>([
    ['head short', shortPhase(1000, 100_000), shortPhase(1050, 500)],
    ['base short', shortPhase(1000, 999), shortPhase(1050, 100_000)],
  ])('a gated p99 with %s and a change inside its band (+5% of 10%): invalid, a warning', (_label, base, head) => {
    const [c] = verdict(base, head, { p99: { regress: 0.1 } });
    expect(c?.result).toBe('invalid');
    expect(c?.reason).toMatch(/^too few samples: .* had \d+$/);
  });

  it('a limit-only p99 needs no tail: a short head is still judged on the limit', () => {
    const [c] = verdict(shortPhase(1000, 5), shortPhase(2000, 5), { p99: { limit: 1500 } });
    expect(c).toMatchObject({ result: 'regression', reason: 'above the limit 1.5ms' });
  });

  it('a failed errors row names the new error classes; no error-class row of their own', () => {
    // errors rise from 0 to 20 in every pair, all of them a class the base never saw
    const rows = verdict(p50Phase(base6), p50Phase(base6, { errors: { ECONNRESET: 20 } }), { errors: { floor: 5 } });
    expect(rows.map((r) => [r.metric, r.result, r.reason])).toEqual([
      ['errors', 'regression', 'new error class ECONNRESET (20×)'],
    ]);
  });

  it('inside the errors band the new class is a row of its own, named against the base side', () => {
    const rows = verdict(p50Phase(base6), p50Phase(base6, { errors: { ECONNRESET: 2 } }), { errors: { floor: 5 } });
    expect(rows.map((r) => [r.metric, r.result])).toEqual([
      ['errors', 'pass'],
      ['error-class', 'regression'],
    ]);
    expect(rows[1]?.reason).toBe('new error class ECONNRESET (2×), never seen on the base side');
  });

  it('a generator-bound head is still judged on what the service answered: 5% HTTP 500 over max 1%', () => {
    const answered: Measure = { latency: { p50: 100 }, failures: 50, statusCodes: { '200': 950, '500': 50 } };
    const head = phase('c10', answered, Array(6).fill(answered), bound);
    const rows = verdict(p50Phase(base6), head, { 'error-rate': { limit: 0.01 } });
    expect(rows.map((r) => [r.metric, r.result])).toEqual([['error-rate', 'regression']]);
    expect(rows[0]?.reason).toMatch(/^the failed responses alone .* are above the limit .*; new error class HTTP 500/);
    // the same share of timeouts is the generator's: not judged
    const timeouts: Measure = { latency: { p50: 100 }, statusCodes: { '200': 950 }, errors: { timeout: 50 } };
    const starved = verdict(p50Phase(base6), phase('c10', timeouts, Array(6).fill(timeouts), bound), {
      'error-rate': { limit: 0.01 },
    });
    expect(starved.map((r) => [r.metric, r.result])).toEqual([
      ['error-rate', 'invalid'],
      ['error-class', 'invalid'],
    ]);
  });

  it('only the base side generator-bound: head’s limits stand on all of head’s value, its timeouts included', () => {
    const timeouts: Measure = { latency: { p50: 100 }, statusCodes: { '200': 950 }, errors: { timeout: 50 } };
    const rows = verdict(p50Phase(base6, { flags: bound }), phase('c10', timeouts, Array(6).fill(timeouts)), {
      'error-rate': { limit: 0.01 },
    });
    expect(rows.map((r) => [r.metric, r.result, r.reason])).toEqual([
      ['error-rate', 'regression', 'above the limit 1%; new error class timeout (50×)'],
    ]);
  });
});

describe('the A/B mode: a scenario new in head, which the base commit answered none of', () => {
  it('a generator-bound head whose failed responses alone break a limit stays a regression', async () => {
    const { ab } = await import('../../src/modes/ab.js');
    const flagged = ['generator-bound: the runner fell behind'];
    const answered: Measure = { latency: { p50: 100 }, failures: 50, statusCodes: { '200': 950, '500': 50 } };
    const none: Measure = { failures: 1000, statusCodes: { '404': 1000 } };
    const head: ScenarioResult = {
      name: 'new',
      scenarioHash: 'n',
      phases: [phase('c10', answered, Array(6).fill(answered), flagged)],
    };
    const base: ScenarioResult = { name: 'new', scenarioHash: 'n', phases: [phase('c10', none, Array(6).fill(none))] };
    const judged = ab.judge({
      results: resultsFile([head], []),
      scenarios: [{ thresholds: { 'error-rate': { limit: 0.01 } } } as unknown as Scenario],
      baselines: new Map(),
      base: { results: [base], info: {} as unknown as AbInfo, fresh: new Set(['new']) },
    });
    const rows = judged.comparisons.filter((c) => c.metric === 'error-rate');
    expect(rows.map((c) => c.result)).toEqual(['regression']);
    expect(rows[0]?.reason).toMatch(/^the failed responses alone \(5%\) are above the limit 1%/);
  });
});

// compareScenario (src/compare/compare.ts) confirming a row beyond its band: regress and floor, the
// Mann–Whitney test over per-trial values, two looks, and too few samples beyond a gated percentile.
import { describe, expect, it } from 'vitest';
import { describeBand } from '../../src/compare/compare.js';
import type { MetricName } from '../../src/metrics/registry.js';
import type { Threshold } from '../../src/config-parts/types.js';
import type { PhaseResult, Verdict } from '../../src/results/types.js';
import { compareOne } from './compare-fixtures.js';
import { phase } from './fixtures.js';
import { metricPhase, MiB } from './compare-harness.js';

// ---------------------------------------------------------------------------------------------

describe('compareScenario: the band needs regress AND floor (five separated trials a side: p = 1/252 confirms)', () => {
  it.each<[string, MetricName, Threshold, number, number, Verdict, number | null]>([
    ['inside both', 'p99', { regress: 0.1, floor: 200 }, 1000, 1050, 'pass', 0.05],
    ['outside relative, inside floor', 'p99', { regress: 0.1, floor: 200 }, 1000, 1150, 'pass', 0.15],
    ['outside floor, inside relative', 'p99', { regress: 0.1, floor: 200 }, 10_000, 10_500, 'pass', 0.05],
    ['outside both', 'p99', { regress: 0.1, floor: 200 }, 1000, 1300, 'regression', 0.3],
    ['exactly on the band is inside', 'p99', { regress: 0.1, floor: 100 }, 1000, 1100, 'pass', 0.1],
    ['better, outside both', 'p99', { regress: 0.1, floor: 200 }, 1000, 700, 'improvement', -0.3],
    ['better, inside floor', 'p99', { regress: 0.1, floor: 200 }, 1000, 850, 'pass', -0.15],
    ['relative only, worse', 'p50', { regress: 0.1 }, 1000, 1150, 'regression', 0.15],
    ['floor only, worse', 'p50', { floor: 200 }, 1000, 1250, 'regression', 0.25],
    ['floor only, inside', 'p50', { floor: 200 }, 1000, 1150, 'pass', 0.15],
    ['rps down is worse', 'rps', { regress: 0.1 }, 1000, 850, 'regression', -0.15],
    ['rps down inside', 'rps', { regress: 0.1 }, 1000, 950, 'pass', -0.05],
    ['rps up is better', 'rps', { regress: 0.1 }, 1000, 1200, 'improvement', 0.2],
    ['rps down beyond relative but inside floor', 'rps', { regress: 0.1, floor: 500 }, 1000, 600, 'pass', -0.4],
    ['bytes-per-sec down is worse', 'bytes-per-sec', { regress: 0.1 }, 1e6, 8e5, 'regression', -0.2],
    ['memory up is worse', 'memory', { regress: 0.2 }, 100 * MiB, 130 * MiB, 'regression', 0.3],
    ['cpu up is worse', 'cpu', { regress: 0.1, floor: 5 }, 50, 70, 'regression', 0.4],
    ['errors up is worse', 'errors', { regress: 0.5, floor: 5 }, 10, 20, 'regression', 1],
    ['max down is better', 'max', { regress: 0.1 }, 10_000, 5000, 'improvement', -0.5],
  ])('%s: %s %j, %s → %s is %s', (_label, metric, t, base, cur, verdict, delta) => {
    const c = compareOne(metric, t, metricPhase(metric, cur), metricPhase(metric, base));
    expect(c.result).toBe(verdict);
    expect(c.baseline).toBe(base);
    expect(c.current).toBe(cur);
    expect(c.delta).toBeCloseTo(delta as number, 10);
    // inside the band no test is run; outside it, 5 vs 5 fully separated trials give 1/252
    if (verdict === 'pass') expect(c.pValue).toBeUndefined();
    else expect(c.pValue).toBeCloseTo(1 / 252, 4);
    expect(c.extraTrials).toBeUndefined();
    expect(c.scenario).toBe('search');
    expect(c.phase).toBe('c10');
    expect(c.band).toBe(describeBand(metric, t));
  });
});

describe('compareScenario: Mann–Whitney confirmation over per-trial values', () => {
  const t = { regress: 0.1, floor: 200 };
  const a05 = { ...t, alpha: 0.05 };
  it.each<[string, Threshold, number, number[], number, number[], Verdict, number | undefined]>([
    // the default alpha is 0.01: 3 vs 3 fully separated gives p = 1/20 = 0.05, which cannot reach it
    ['separated 3 vs 3, default alpha', t, 1000, [990, 1000, 1010], 1500, [1490, 1500, 1510], 'inconclusive', 0.05],
    ['separated 3 vs 3, alpha 0.05', a05, 1000, [990, 1000, 1010], 1500, [1490, 1500, 1510], 'regression', 0.05],
    // U = 5 of 9 → p = 10/20
    ['overlapping 3 vs 3', a05, 1000, [900, 1000, 1600], 1500, [950, 1500, 1510], 'inconclusive', 0.5],
    // U = 8 → p = 2/20
    ['one swap, alpha 0.05', a05, 1000, [990, 1010, 1020], 1500, [1015, 1500, 1510], 'inconclusive', 0.1],
    ['one swap, alpha 0.1', { ...t, alpha: 0.1 }, 1000, [990, 1010, 1020], 1500, [1015, 1500, 1510], 'regression', 0.1],
    // 4 vs 4 fully separated: 1/70
    [
      'separated 4 vs 4, alpha 0.05',
      a05,
      1000,
      [980, 990, 1000, 1010],
      1500,
      [1490, 1500, 1510, 1520],
      'regression',
      0.0143,
    ],
    [
      'separated 4 vs 4, default alpha',
      t,
      1000,
      [980, 990, 1000, 1010],
      1500,
      [1490, 1500, 1510, 1520],
      'inconclusive',
      0.0143,
    ],
    // 5 vs 5 (the default trials) fully separated: 1/252
    [
      'separated 5 vs 5, default alpha',
      t,
      1000,
      [980, 990, 1000, 1010, 1020],
      1500,
      [1480, 1490, 1500, 1510, 1520],
      'regression',
      0.004,
    ],
    // one of the 25 pairs swapped: U = 24, p = 2/252
    [
      '5 vs 5, one swap, default alpha',
      t,
      1000,
      [980, 990, 1000, 1010, 1485],
      1500,
      [1480, 1490, 1500, 1510, 1520],
      'regression',
      0.0079,
    ],
    // six of the 25 pairs swapped: U = 19, p = 28/252 = 0.11 > 0.01
    [
      '5 vs 5, six swaps, default alpha',
      t,
      1000,
      [980, 990, 1000, 1495, 1515],
      1500,
      [1480, 1490, 1500, 1510, 1520],
      'inconclusive',
      0.1111,
    ],
    // fewer than 3 trials on a side are tested too (the old "no test below 3 trials" rule is gone):
    // U = 3 of 6 → p = 6/10
    ['2 current trials', t, 1000, [900, 1000, 1600], 1500, [950, 1510], 'inconclusive', 0.6],
    // U = 3 of 6 → p = 6/10
    ['2 baseline trials', t, 1000, [900, 1600], 1500, [950, 1500, 1510], 'inconclusive', 0.6],
    // 2 vs 2 fully separated: 1/6, still far above 0.01
    ['2 vs 2, separated', t, 1000, [990, 1010], 1500, [1490, 1510], 'inconclusive', 0.1667],
    ['1 vs 1', t, 1000, [1000], 1500, [1500], 'inconclusive', 0.5],
    // improvements are confirmed the same way, in the better direction
    ['improvement, separated', a05, 1000, [990, 1000, 1010], 500, [490, 500, 510], 'improvement', 0.05],
    [
      'improvement, separated, default alpha: not confirmed',
      t,
      1000,
      [990, 1000, 1010],
      500,
      [490, 500, 510],
      'pass',
      0.05,
    ],
    ['improvement, overlapping', t, 1000, [900, 1000, 1600], 500, [450, 1500, 1510], 'pass', undefined],
    // an improvement needs the test as well: 2 vs 3 fully separated is p = 1/10 > 0.01
    ['improvement, 2 trials', t, 1000, [990, 1000, 1010], 500, [490, 510], 'pass', 0.1],
    [
      'improvement, 2 trials, alpha 0.1',
      { ...t, alpha: 0.1 },
      1000,
      [990, 1000, 1010],
      500,
      [490, 510],
      'improvement',
      0.1,
    ],
  ])('p99 %s → %s', (_label, th, base, baseTrials, cur, curTrials, verdict, p) => {
    const c = compareOne('p99', th, metricPhase('p99', cur, curTrials), metricPhase('p99', base, baseTrials));
    expect(c.result).toBe(verdict);
    if (p !== undefined) expect(c.pValue).toBeCloseTo(p, 4);
    // without `confirm` looks the phase had one look, on every trial, at the full alpha
    expect(c.extraTrials).toBeUndefined();
    expect(c.open).toBeUndefined();
    if (verdict === 'inconclusive') expect(c.reason).toMatch(/confirmation by more trials is off/);
  });

  it('says when the trials can never reach alpha', () => {
    const c = compareOne(
      'p99',
      t,
      metricPhase('p99', 1500, [1490, 1500, 1510]),
      metricPhase('p99', 1000, [990, 1000, 1010]),
    );
    expect(c.result).toBe('inconclusive');
    expect(c.reason).toBe(
      '3 trials cannot reach p ≤ 0.01 (the smallest p is 0.05), and confirmation by more trials is off (gate.confirm.max-trials)',
    );
  });

  it('says when alpha was reachable but the test did not get there', () => {
    const c = compareOne(
      'p99',
      t,
      metricPhase('p99', 1500, [1480, 1490, 1500, 1510, 1520]),
      metricPhase('p99', 1000, [980, 990, 1000, 1495, 1515]),
    );
    expect(c.result).toBe('inconclusive');
    expect(c.reason).toBe(
      'not confirmed: p 0.1111 > 0.01, and confirmation by more trials is off (gate.confirm.max-trials)',
    );
  });

  it.each<[string, number[], number[], Verdict]>([
    ['separated', [980, 990, 1000, 1010, 1020], [780, 790, 800, 810, 820], 'regression'],
    ['overlapping', [800, 990, 1000, 1010, 1020], [780, 790, 1050, 810, 820], 'inconclusive'],
  ])('rps (worse downwards) %s trials → %s', (_label, baseTrials, curTrials, verdict) => {
    const c = compareOne(
      'rps',
      { regress: 0.1 },
      metricPhase('rps', 800, curTrials),
      metricPhase('rps', 1000, baseTrials),
    );
    expect(c.result).toBe(verdict);
    expect(c.delta).toBeCloseTo(-0.2, 10);
    if (verdict === 'regression') expect(c.pValue).toBeCloseTo(1 / 252, 4);
  });

  it('rps going up with separated trials is a confirmed improvement', () => {
    const c = compareOne(
      'rps',
      { regress: 0.1 },
      metricPhase('rps', 1200, [1180, 1190, 1200, 1210, 1220]),
      metricPhase('rps', 1000, [980, 990, 1000, 1010, 1020]),
    );
    expect(c.result).toBe('improvement');
    expect(c.pValue).toBeCloseTo(1 / 252, 4);
  });

  it('inside the band no test is needed: pass', () => {
    const c = compareOne(
      'p99',
      { regress: 0.1, floor: 200 },
      metricPhase('p99', 1050, [1040, 1050, 1060]),
      metricPhase('p99', 1000, [990, 1000, 1010]),
    );
    expect(c.result).toBe('pass');
  });
});

describe('compareScenario: confirmation over two looks (PhaseResult.confirm)', () => {
  const t: Threshold = { regress: 0.1, floor: 200 };
  const BASE3 = [990, 1000, 1010];
  const above = (n: number) => Array.from({ length: n }, (_, i) => 1490 + i);
  /** A p99 phase with these trial values, measured for the looks `first` and `cap`. */
  const looked = (values: number[], first: number, cap: number): PhaseResult => ({
    ...metricPhase('p99', 1500, values),
    confirm: { first, cap },
  });

  it.each<{
    label: string;
    current: number[];
    looks: [number, number];
    base?: number[];
    final: boolean;
    result: Verdict;
    p: number;
    extra?: number;
    open?: true;
    reason?: string | RegExp;
  }>([
    {
      // 3 vs 3 cannot reach 0.005, so the first look spends nothing and all of alpha goes to the cap
      label: '3 vs 3 at the first look, more trials allowed, while measuring: open',
      current: above(3),
      looks: [3, 12],
      final: false,
      result: 'inconclusive',
      p: 0.05,
      open: true,
    },
    {
      label: '3 vs 3 at the first look, the extra trials never ran: inconclusive with a reason',
      current: above(3),
      looks: [3, 12],
      final: true,
      result: 'inconclusive',
      p: 0.05,
      // (the first look spent 0 of alpha here, which the reason shows as "> 0")
      reason:
        /^the first look cannot confirm on its own \(p 0\.05; its trials cannot reach alpha\), and no more trials were run$/,
    },
    {
      // 12 vs 3 fully separated: 1/C(15, 3) = 1/455
      label: 'extended to the cap, separated: a regression confirmed by 9 more trials',
      current: above(12),
      looks: [3, 12],
      final: true,
      result: 'regression',
      p: 0.0022,
      extra: 9,
    },
    {
      label: 'extended to the cap, not separated: inconclusive after the extension',
      current: [...above(3), 900, 950, 980, 1000, 1200, 1300, 1400, 1450, 1600],
      looks: [3, 12],
      final: true,
      result: 'inconclusive',
      p: 0.156,
      reason: 'not confirmed after 9 more trials: p 0.156 > 0.01 over 12 trials',
    },
    {
      // the time budget stopped the extension before its cap: no test at a count the clock chose
      label: 'extension stopped early by the time budget',
      current: above(5),
      looks: [3, 12],
      final: true,
      result: 'inconclusive',
      p: 0.05,
      reason: /^confirmation stopped by gate\.confirm\.max-time after 2 of 9 more trials: not tested again$/,
    },
    {
      // 5 vs 5 can reach 0.005 at the first look: alpha is split, 1/252 ≤ 0.005 confirms there
      label: '5 vs 5 separated at the first look: confirmed with half of alpha',
      current: above(5),
      looks: [5, 12],
      base: [980, 990, 1000, 1010, 1020],
      final: true,
      result: 'regression',
      p: 0.004,
    },
    {
      // one swap: p = 2/252 = 0.0079 ≤ 0.01 with one look, but > 0.005 when alpha is split
      label: '5 vs 5 with one swap: above the first look’s half of alpha, open',
      current: [1480, 1490, 1500, 1510, 1520],
      looks: [5, 12],
      base: [980, 990, 1000, 1010, 1485],
      final: false,
      result: 'inconclusive',
      p: 0.0079,
      open: true,
    },
    {
      // 2 vs 1 trials: the smallest p is 1/3, far above 0.01
      label: 'even the cap cannot reach alpha: inconclusive at once, naming the cap',
      current: [1500],
      looks: [1, 2],
      base: [1000],
      final: false,
      result: 'inconclusive',
      p: 0.5,
      reason:
        'even 2 trials (the most gate.confirm.max-trials and gate.confirm.max-time allow) cannot reach p ≤ 0.01 (the smallest p is 0.3333); raise trials, gate.confirm.max-trials or gate.confirm.max-time, or refresh a baseline recorded with fewer trials',
    },
    {
      label: 'confirmation off (cap = first): one look at the full alpha',
      current: above(3),
      looks: [3, 3],
      final: true,
      result: 'inconclusive',
      p: 0.05,
      reason: /cannot reach p ≤ 0\.01 .*confirmation by more trials is off \(gate\.confirm\.max-trials\)$/,
    },
  ])('$label', (c) => {
    const base = c.base ?? BASE3;
    const row = compareOne('p99', t, looked(c.current, ...c.looks), metricPhase('p99', 1000, base), c.final);
    expect(row.result).toBe(c.result);
    expect(row.pValue).toBeCloseTo(c.p, 4);
    expect(row.extraTrials).toBe(c.extra);
    expect(row.open).toBe(c.open);
    if (c.reason === undefined) expect(row.reason).toBeUndefined();
    else if (typeof c.reason === 'string') expect(row.reason).toBe(c.reason);
    else expect(row.reason).toMatch(c.reason);
  });

  it('a row inside its band is never open, whatever the looks', () => {
    const row = compareOne(
      'p99',
      t,
      { ...metricPhase('p99', 1000, BASE3), confirm: { first: 3, cap: 12 } },
      metricPhase('p99', 1000, BASE3),
      false,
    );
    expect(row.result).toBe('pass');
    expect(row.open).toBeUndefined();
  });

  it('an improvement is one test over every trial at the full alpha (no looks)', () => {
    const cur = { ...metricPhase('p99', 500, [490, 495, 500, 505, 510]), confirm: { first: 5, cap: 12 } };
    const row = compareOne('p99', t, cur, metricPhase('p99', 1000, [980, 990, 1000, 1010, 1020]));
    expect(row).toMatchObject({ result: 'improvement', pValue: 0.004 });
  });
});

describe('compareScenario: too few samples beyond a gated percentile', () => {
  /** A phase of 5 trials at `p99` whose trial `short` (1-based) had `count` successful responses. */
  const counted = (metric: MetricName, value: number, count: number, short = 1): PhaseResult => {
    const p = phase(
      'c10',
      { latency: { [metric]: value } },
      Array.from({ length: 5 }, (_, i) => ({ latency: { [metric]: value, ...(i + 1 === short ? { count } : {}) } })),
    );
    // trials numbered from 1, as the collector numbers them
    return { ...p, trials: p.trials.map((t, i) => ({ ...t, trial: i + 1 })) };
  };

  // a short row whose change is beyond its band and fully separated over 5 against 5 trials (p 1/252)
  const confirmedShort = (short: string) =>
    `${short}; its change is beyond its band and its trials confirm it (p 0.004 ≤ 0.01), so it is not passed: give the phase longer trials or more load, so that each has the samples`;

  it.each<[string, MetricName, Threshold, 'current' | 'baseline', number, number, Verdict, string | undefined]>([
    [
      'p99 with 999 responses in a trial of this run',
      'p99',
      { regress: 0.1 },
      'current',
      999,
      3,
      'inconclusive',
      confirmedShort(
        'too few samples: p99 needs ≥ 1000 successful responses per trial (10 beyond it); trial 3 of this run had 999',
      ),
    ],
    [
      'p99 with 500 responses in a baseline trial',
      'p99',
      { floor: 200 },
      'baseline',
      500,
      1,
      'inconclusive',
      confirmedShort(
        'too few samples: p99 needs ≥ 1000 successful responses per trial (10 beyond it); trial 1 of the baseline had 500',
      ),
    ],
    ['p99 with exactly 1000 responses', 'p99', { regress: 0.1 }, 'current', 1000, 1, 'regression', undefined],
    ['p50 with 20 responses', 'p50', { regress: 0.1 }, 'current', 20, 1, 'regression', undefined],
    [
      'p50 with 19 responses',
      'p50',
      { regress: 0.1 },
      'current',
      19,
      2,
      'inconclusive',
      confirmedShort(
        'too few samples: p50 needs ≥ 20 successful responses per trial (10 beyond it); trial 2 of this run had 19',
      ),
    ],
    [
      'p90 with 99 responses',
      'p90',
      { regress: 0.1 },
      'current',
      99,
      1,
      'inconclusive',
      confirmedShort(
        'too few samples: p90 needs ≥ 100 successful responses per trial (10 beyond it); trial 1 of this run had 99',
      ),
    ],
    [
      'p95 with 199 responses',
      'p95',
      { regress: 0.1 },
      'current',
      199,
      1,
      'inconclusive',
      confirmedShort(
        'too few samples: p95 needs ≥ 200 successful responses per trial (10 beyond it); trial 1 of this run had 199',
      ),
    ],
    [
      'p99.9 with 9999 responses',
      'p99.9',
      { regress: 0.1 },
      'current',
      9999,
      1,
      'inconclusive',
      confirmedShort(
        'too few samples: p99.9 needs ≥ 10000 successful responses per trial (10 beyond it); trial 1 of this run had 9999',
      ),
    ],
    ['max is no percentile: 3 responses are enough', 'max', { regress: 0.1 }, 'current', 3, 1, 'regression', undefined],
    ['mean is no percentile either', 'mean', { regress: 0.1 }, 'current', 3, 1, 'regression', undefined],
    // an absolute limit needs no test, so no tail either
    ['p99 limit only, 5 responses', 'p99', { limit: 1200 }, 'current', 5, 1, 'regression', 'above the limit 1.2ms'],
    [
      'p99 band and a broken limit: the limit still fails',
      'p99',
      { regress: 0.1, limit: 1200 },
      'current',
      5,
      1,
      'regression',
      'above the limit 1.2ms',
    ],
  ])('%s → %s', (_label, metric, t, whose, count, short, verdict, reason) => {
    const cur = whose === 'current' ? counted(metric, 1500, count, short) : counted(metric, 1500, 100_000);
    const base = whose === 'baseline' ? counted(metric, 1000, count, short) : counted(metric, 1000, 100_000);
    const row = compareOne(metric, t, cur, base);
    expect(row.result).toBe(verdict);
    expect(row.reason).toBe(reason);
    // a row not compared still carries both values: it was compared, just not trusted
    expect(row.baseline).toBe(1000);
  });

  it.each<[string, MetricName, 'current' | 'baseline', number]>([
    ['p99, 999 responses in a trial of this run', 'p99', 'current', 999],
    ['p99, 500 in a baseline trial', 'p99', 'baseline', 500],
    ['p50, 19', 'p50', 'current', 19],
  ])(
    'too few samples, %s, a change inside the band (+5% of 10%): invalid, a warning',
    (_label, metric, whose, count) => {
      const cur = whose === 'current' ? counted(metric, 1050, count) : counted(metric, 1050, 100_000);
      const base = whose === 'baseline' ? counted(metric, 1000, count) : counted(metric, 1000, 100_000);
      const row = compareOne(metric, { regress: 0.1 }, cur, base);
      expect(row.result).toBe('invalid');
      expect(row.reason).toMatch(/^too few samples: .* had \d+$/);
    },
  );

  it('too few samples, beyond the band but not confirmed over the trials (they overlap): invalid', () => {
    const mixed = (values: number[], count: number): PhaseResult => {
      const p = phase(
        'c10',
        { latency: { p99: values[0] as number } },
        values.map((v) => ({ latency: { p99: v, count } })),
      );
      return { ...p, trials: p.trials.map((t, i) => ({ ...t, trial: i + 1 })) };
    };
    // the merged p99 is +50%, but the trials overlap: Mann–Whitney's p is far above 0.01
    const row = compareOne(
      'p99',
      { regress: 0.1 },
      mixed([1500, 900, 1100, 950, 1050], 500),
      mixed([1000, 1000, 1000, 1000, 1000], 500),
    );
    expect(row.result).toBe('invalid');
    expect(row.reason).toMatch(/^too few samples: .* had \d+$/);
  });

  it('p99.9 with the fixtures’ 1000 responses a trial is invalid, even unchanged', () => {
    const row = compareOne('p99.9', { regress: 0.1 }, metricPhase('p99.9', 1000), metricPhase('p99.9', 1000));
    expect(row.result).toBe('invalid');
    expect(row.reason).toMatch(/^too few samples: p99\.9 needs ≥ 10000/);
  });

  it('without a baseline a short phase is no-baseline, not invalid (nothing is tested)', () => {
    const row = compareOne('p99', { regress: 0.1 }, counted('p99', 1500, 10), undefined);
    expect(row.result).toBe('no-baseline');
  });
});

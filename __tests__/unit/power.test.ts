// What a passing row could have caught (compare/power.ts, issue 33): the smallest change that, added to
// this run's trials, the row's test would have confirmed at the alpha its looks spend. The expected
// figures are exact permutation counts that condition on ties (the cap's look repeats trials), found by
// bisection, which scipy 1.17's exact tests scanned on a grid of 0.01 points agree with to that grid:
// __tests__/unit/power-scipy.py prints both.
import { describe, expect, it } from 'vitest';
import { compareAbScenario } from '../../src/compare/ab.js';
import { compareScenario } from '../../src/compare/compare.js';
import {
  bandEdge,
  cyclic,
  firstStep,
  rowPower,
  shiftToEdge,
  signedChange,
  searchStep,
  smallestConfirmable,
  worsened,
} from '../../src/compare/power.js';
import { spendAlpha } from '../../src/compare/confirm.js';
import { mannWhitneyApprox, mannWhitneyGreater } from '../../src/stats/mann-whitney.js';
import { signedRankApprox, signedRankGreater } from '../../src/stats/wilcoxon.js';
import type { MetricName } from '../../src/metrics/registry.js';
import type { Thresholds } from '../../src/config-parts/types.js';
import type { Comparison, PhaseResult, ScenarioResult } from '../../src/results/types.js';
import { renderMarkdown } from './render-markdown.js';
import { measure, phase, resultsFile, baselineOf } from './fixtures.js';

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;

function trialsPhase(metric: MetricName, values: number[], cap: number): PhaseResult {
  const p = phase(
    'c10',
    measure(metric, median(values)),
    values.map((v) => measure(metric, v)),
  );
  return { ...p, confirm: { first: values.length, cap } };
}

const scenario = (p: PhaseResult): ScenarioResult => ({ name: 'search', scenarioHash: 'sha256:x', phases: [p] });

const baseline = (p: PhaseResult) => baselineOf('search', 'sha256:x', [p]);

function gateRow(metric: MetricName, cur: number[], old: number[], cap: number, thresholds: Thresholds): Comparison {
  const { comparisons } = compareScenario(
    scenario(trialsPhase(metric, cur, cap)),
    thresholds,
    baseline(trialsPhase(metric, old, old.length)),
  );
  return comparisons.find((c) => c.metric === metric) as Comparison;
}

function abRow(metric: MetricName, head: number[], base: number[], cap: number, thresholds: Thresholds): Comparison {
  const [row] = compareAbScenario(
    scenario(trialsPhase(metric, head, cap)),
    scenario(trialsPhase(metric, base, base.length)),
    thresholds,
  );
  return row as Comparison;
}

describe('the smallest change a passing row could have confirmed, against scipy', () => {
  // [how, label, metric, current (head) trials, baseline (base) trials, cap, alpha, scipy's smallest change]
  // prettier-ignore
  const cases: Array<['gate' | 'A/B', string, MetricName, number[], number[], number, number, number | null]> = [
    // 5 v 5: the first look spends 0.005 (1/252 can reach it), the cap's look 0.005 at 12 v 5
    ['gate', '5 v 5 interleaved, cap 12', 'p50', [1000, 1020, 1040, 1010, 1030], [1010, 1000, 1040, 1030, 1020], 12, 0.01, 0.0297],
    ['gate', '5 v 5 spread wide, cap 12', 'p50', [900, 1100, 1000, 1300, 800], [1000, 950, 1200, 1050, 900], 12, 0.01, 0.3125],
    // 3 v 3: the first look cannot reach 0.005 (smallest p 0.05), so the cap's look has all of alpha
    ['gate', '3 v 3, cap 12', 'p99', [1000, 1100, 1050], [1040, 990, 1080], 12, 0.01, 0.08],
    ['gate', '3 v 3, confirmation off', 'p99', [1000, 1100, 1050], [1040, 990, 1080], 3, 0.01, null],
    ['gate', 'rps (worse downwards), 5 v 5', 'rps', [1000, 990, 1010, 1005, 995], [1002, 998, 1008, 992, 1000], 12, 0.01, 0.0099],
    ['A/B', '6 pairs, cap 12', 'p50', [1000, 1030, 990, 1020, 1010, 1000], [1010, 1000, 1000, 1030, 990, 1020], 12, 0.05, 0.0149],
    ['A/B', '6 pairs, confirmation off', 'p50', [1000, 1030, 990, 1020, 1010, 1000], [1010, 1000, 1000, 1030, 990, 1020], 6, 0.05, 0.015],
    ['A/B', 'rps, 6 pairs, cap 12', 'rps', [1000, 990, 1010, 1005, 995, 1001], [1002, 998, 1008, 992, 1000, 1003], 12, 0.05, 0.0055],
  ];
  it.each(cases)('%s: %s', (how, _label, metric, cur, old, cap, alpha, scipy) => {
    const row = (how === 'gate' ? gateRow : abRow)(metric, cur, old, cap, { [metric]: { regress: 0.5, alpha } });
    expect(row.result).toBe('pass');
    // ours is rounded up to 0.1 percentage point under 10%, to a whole point above
    if (scipy === null) expect(row.detectable).toBeNull();
    else expect(row.detectable).toBeGreaterThanOrEqual(scipy - 0.0001);
    if (scipy !== null) expect(row.detectable).toBeLessThanOrEqual(scipy + (scipy < 0.1 ? 0.0011 : 0.0101));
  });
});

describe('a phase stopped at its early look: its power is said at its configured trials (powerTrials)', () => {
  // stopped after 3 of 5 trials, confirmation off: the power is what its 3 trials repeated up to 5
  // would give (the count a change the look did not rule out runs to), not what 3 alone give (3 v 5
  // cannot reach 0.01: no change could be confirmed)
  const old = [1010, 1000, 1040, 1030, 1020];
  const three = [1000, 1020, 1040];
  const stoppedRow = (): Comparison => {
    const p = { ...trialsPhase('p50', three, 5), confirm: { first: 5, cap: 5, stopped: 3 } };
    const { comparisons } = compareScenario(
      scenario(p),
      { p50: { regress: 0.5 } },
      baseline(trialsPhase('p50', old, 5)),
    );
    return comparisons.find((c) => c.metric === 'p50') as Comparison;
  };
  it('equals the power of its trials repeated to 5, and is not "nothing could be confirmed"', () => {
    const stopped = stoppedRow();
    const repeated = gateRow('p50', cyclic(three, 5), old, 5, { p50: { regress: 0.5 } });
    expect(stopped.result).toBe('pass');
    expect(stopped.detectable).not.toBeNull();
    expect(stopped.detectable).toBe(repeated.detectable);
  });
});

describe('a band below what the run could confirm', () => {
  const wide = { cur: [900, 1100, 1000, 1300, 800], old: [1000, 950, 1200, 1050, 900] };

  it.each<[string, Thresholds, boolean]>([
    ['a 50% band: a change of it would have been confirmed', { p50: { regress: 0.5 } }, false],
    ['a 10% band: it would not (32% is the smallest whole point)', { p50: { regress: 0.1 } }, true],
    // the floor is the edge when it is the larger: 400µs of a 1ms baseline is 40%
    ['a 10% band with a 400µs floor', { p50: { regress: 0.1, floor: 400 } }, false],
    ['a 10% band with a 200µs floor', { p50: { regress: 0.1, floor: 200 } }, true],
  ])('%s', (_label, thresholds, blind) => {
    const row = gateRow('p50', wide.cur, wide.old, 12, thresholds);
    expect(row.result).toBe('pass');
    expect(row.blind === true).toBe(blind);
    if (blind) {
      expect(row.reason).toBe(
        'could not detect its band: the smallest change these trials could have confirmed is +32%',
      );
    } else expect(row.reason).toBeUndefined();
  });

  it('a rate whose floor is as large as the rate: no change of it can exceed the band', () => {
    const row = gateRow('rps', [1000, 990, 1010, 1005, 995], [1002, 998, 1008, 992, 1000], 12, {
      rps: { floor: 2000 },
    });
    expect(row.result).toBe('pass');
    expect(row).toMatchObject({
      blind: true,
      reason: 'could not detect its band: no change of this value can exceed it',
    });
  });

  it('rows that do not scale, regressions and rows without a baseline say nothing of it', () => {
    const errors = gateRow('errors', [0, 0, 1, 0, 0], [0, 1, 0, 0, 0], 12, { errors: { floor: 5 } });
    expect(errors.result).toBe('pass');
    expect(errors.detectable).toBeUndefined();
    const worse = gateRow('p50', [2000, 2010, 2020, 2030, 2040], [1000, 1010, 1020, 1030, 1040], 12, {
      p50: { regress: 0.1 },
    });
    expect(worse.result).toBe('regression');
    expect(worse.detectable).toBeUndefined();
    const { comparisons } = compareScenario(
      scenario(trialsPhase('p50', [1000, 1010], 12)),
      { p50: { regress: 0.1 } },
      undefined,
    );
    expect(comparisons[0]?.detectable).toBeUndefined();
  });

  it('the report counts such rows in its header and says why on the row', () => {
    const row = gateRow('p50', wide.cur, wide.old, 12, { p50: { regress: 0.1 } });
    const ok = gateRow('p50', wide.cur, wide.old, 12, { p50: { regress: 0.5 } });
    const md = renderMarkdown(resultsFile([], [row, { ...ok, phase: 'c20' }]));
    expect(md).toContain('### ✅ perf-gate: no regression (1 could not detect its band)');
    expect(md).toContain(
      '✅ pass: could not detect its band: the smallest change these trials could have confirmed is +32%',
    );
    expect(md).toContain('✅ pass · could catch +32%');
  });
});

describe('the pieces', () => {
  it.each<[string, number[], number, number[]]>([
    ['fewer: the first k', [1, 2, 3], 2, [1, 2]],
    ['more: repeated in order', [1, 2, 3], 7, [1, 2, 3, 1, 2, 3, 1]],
    ['none', [], 3, []],
  ])('cyclic: %s', (_label, values, k, want) => expect(cyclic(values, k)).toEqual(want));

  it.each<[number, number, 1 | -1, number]>([
    [1000, 0.1, 1, 1100],
    [1000, 0.1, -1, 900],
    [1000, 0, 1, 1000],
  ])('worsened(%d, %d, %d) = %d', (v, d, dir, want) => expect(worsened(v, d, dir)).toBeCloseTo(want, 9));

  it.each<[string, number, number, number, 1 | -1, number | undefined]>([
    ['current at the baseline: the band itself', 0.1, 1000, 1000, 1, 0.1],
    ['current 10% under the baseline: more than the band to reach its edge', 0.1, 1000, 900, 1, 1100 / 900 - 1],
    ['current above the baseline, inside the band: less', 0.1, 1000, 1050, 1, 1100 / 1050 - 1],
    ['a rate at its baseline', 0.1, 1000, 1000, -1, 0.1],
    ['a rate above its baseline: more to fall', 0.1, 1000, 1100, -1, 1 - 900 / 1100],
    ['a rate whose band is its whole value: never', 1, 1000, 1000, -1, undefined],
    ['no current value', 0.1, 1000, 0, 1, undefined],
  ])('shiftToEdge: %s', (_label, edge, base, current, dir, want) => {
    const got = shiftToEdge(edge, base, current, dir);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toBeCloseTo(want, 12);
  });

  it.each<[string, { regress?: number; floor?: number }, number, number | undefined]>([
    ['relative only', { regress: 0.1 }, 1000, 0.1],
    ['the floor when larger', { regress: 0.1, floor: 300 }, 1000, 0.3],
    ['the relative when larger', { regress: 0.5, floor: 300 }, 1000, 0.5],
    ['floor only', { floor: 50 }, 1000, 0.05],
    ['no band', {}, 1000, undefined],
    ['a zero base', { regress: 0.1 }, 0, undefined],
  ])('bandEdge: %s', (_label, band, base, want) => expect(bandEdge(band, base)).toBe(want));

  it.each<[number, 1 | -1, string]>([
    [0.3125, 1, '+31%'],
    [0.0298, 1, '+3%'],
    [0.085, -1, '-8.5%'],
  ])('signedChange(%d, %d) = %s', (d, dir, want) => expect(signedChange(d, dir)).toBe(want));

  it('a test whose trials can never confirm: null; one that confirms unchanged: 0', () => {
    const looks = { first: 5, cap: 5 };
    const spent = { first: 0.01, final: 0 };
    expect(smallestConfirmable({ looks, spent, trials: 5, direction: 1, pAt: () => 0.5 })).toBeNull();
    expect(smallestConfirmable({ looks, spent, trials: 5, direction: 1, pAt: () => 0.001 })).toBe(0);
    // a step at 12.34%: found, rounded up to a whole point; at 8.34%: to 0.1 point
    const step = smallestConfirmable({ looks, spent, trials: 5, direction: 1, pAt: (d) => (d > 0.1234 ? 0 : 1) });
    expect(step).toBe(0.13);
    const fine = smallestConfirmable({ looks, spent, trials: 5, direction: 1, pAt: (d) => (d > 0.0834 ? 0 : 1) });
    expect(fine).toBe(0.084);
  });

  it.each<[string, number, number, number, number]>([
    // [label, the first look's step, the cap's step, the answer, calls at the cap]
    ['the cap cannot confirm what the first look found: one call there', 0.2, 0.3, 0.21, 1],
    ["the cap confirms less: searched below the first look's answer", 0.2, 0.05, 0.051, 9],
  ])('two looks: %s', (_label, first, cap, want, calls) => {
    const looks = { first: 5, cap: 12 };
    const spent = { first: 0.005, final: 0.005 };
    let atCap = 0;
    const pAt = (d: number, k: number) => {
      if (k === 12) atCap++;
      return d > (k === 5 ? first : cap) ? 0 : 1;
    };
    expect(smallestConfirmable({ looks, spent, trials: 5, direction: 1, pAt })).toBe(want);
    expect(atCap).toBe(calls);
  });
});

describe('firstStep: the first step of 0..top that holds, from a guess or without one', () => {
  // [label, the first step that holds (null: none up to top), top, start]
  // prettier-ignore
  const cases: Array<[string, number | null, number, number | undefined]> = [
    ['no guess, in the middle', 123, 1000, undefined],
    ['no guess, at 0', 0, 1000, undefined],
    ['no guess, at top', 1000, 1000, undefined],
    ['no guess, nowhere', null, 1000, undefined],
    ['guess right', 123, 1000, 123],
    ['guess one below', 123, 1000, 122],
    ['guess one above', 123, 1000, 124],
    ['guess far below', 90_000, 100_000, 3],
    ['guess far above', 3, 100_000, 90_000],
    ['guess at 0, answer at 0', 0, 100, 0],
    ['guess above top: taken as top', 40, 100, 5000],
    ['guess, nowhere', null, 100, 50],
    ['guess, holds only at top', 100, 100, 10],
  ];
  it.each(cases)('%s', (_label, at, top, start) => {
    const holds = (step: number) => at !== null && step >= at;
    expect(firstStep(holds, top, start)).toBe(at);
  });

  it('the same answer from every guess (a step function with its step anywhere in 0..300)', () => {
    for (let at = 0; at <= 300; at += 7)
      for (let start = 0; start <= 300; start += 11)
        expect(firstStep((s) => s >= at, 300, start)).toBe(firstStep((s) => s >= at, 300));
  });

  it('a guess within a step asks at most three times; without one, the bisection asks about log2(top)', () => {
    let calls = 0;
    const holds = (s: number) => {
      calls++;
      return s >= 4321;
    };
    expect(firstStep(holds, 100_000, 4320)).toBe(4321);
    expect(calls).toBeLessThanOrEqual(3);
    calls = 0;
    expect(firstStep(holds, 100_000)).toBe(4321);
    expect(calls).toBeGreaterThan(10);
  });
});

describe('the search from the normal approximation finds what the search without it finds', () => {
  // seeded samples around 5 ms (untied, or tied to 50 µs as a histogram ties them), A/A
  let seed = 20261130;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const sample = (n: number, tied: boolean) =>
    Array.from({ length: n }, () => {
      const v = 5000 * (1 + 0.1 * (rand() + rand() + rand() - 1.5));
      return tied ? Math.round(v / 50) * 50 : v;
    });
  // [trials, baseline trials (or pairs), cap, alpha]
  const sizes: Array<[number, number, number, number]> = [
    [5, 5, 12, 0.01],
    [8, 8, 16, 0.0025],
    [12, 12, 24, 0.01 / 48],
    [24, 24, 48, 0.01 / 48],
  ];

  it.each(sizes)('Mann–Whitney, %d v %d, cap %d, alpha %d: 12 rows each untied and tied', (m, n, cap, alpha) => {
    const looks = { first: m, cap };
    for (let row = 0; row < 24; row++) {
      const raw = sample(m, row % 2 === 1);
      const old = sample(n, row % 2 === 1);
      const shifted = (d: number, k: number) => cyclic(raw, k).map((v) => worsened(v, d, 1));
      const spent = spendAlpha(alpha, looks, 1 / 252);
      const base = { looks, spent, trials: m, direction: 1 as const };
      const pAt = (d: number, k: number, limit: number) => mannWhitneyGreater(shifted(d, k), old, limit).pValue;
      const plain = smallestConfirmable({ ...base, pAt });
      const guided = smallestConfirmable({ ...base, pAt, approxAt: (d, k) => mannWhitneyApprox(shifted(d, k), old) });
      expect(guided).toBe(plain);
      // and it is the grid's first step the test confirms: the step below it is not confirmed at any look
      if (plain !== null && plain > 0) {
        const below = plain - searchStep(plain);
        expect(pAt(below, m, spent.first) > spent.first || spent.first === 0).toBe(true);
        expect(pAt(below, cap, spent.final) > spent.final || spent.final === 0).toBe(true);
      }
    }
  });

  it.each(sizes)('a rate (worse downwards, up to -99.9%%), %d v %d, cap %d, alpha %d', (m, n, cap, alpha) => {
    const looks = { first: m, cap };
    let found = 0;
    for (let row = 0; row < 12; row++) {
      const raw = sample(m, row % 2 === 1);
      // as compare.ts reads a rate: its values negated, so that worse is upwards for the test
      const old = sample(n, row % 2 === 1).map((v) => -v);
      const shifted = (d: number, k: number) => cyclic(raw, k).map((v) => -worsened(v, d, -1));
      const spent = spendAlpha(alpha, looks, 1 / 252);
      const base = { looks, spent, trials: m, direction: -1 as const };
      const pAt = (d: number, k: number, limit: number) => mannWhitneyGreater(shifted(d, k), old, limit).pValue;
      const plain = smallestConfirmable({ ...base, pAt });
      const guided = smallestConfirmable({ ...base, pAt, approxAt: (d, k) => mannWhitneyApprox(shifted(d, k), old) });
      expect(guided).toBe(plain);
      if (plain !== null) expect(plain).toBeLessThanOrEqual(0.999);
      if (plain !== null && plain > 0) found++;
    }
    // (the search found a change in most rows: the comparison is not of two nulls)
    expect(found).toBeGreaterThan(6);
  });

  it.each(sizes)('signed-rank, %d v %d pairs, cap %d, alpha %d: 12 rows each untied and tied', (m, _n, cap, alpha) => {
    const looks = { first: m, cap };
    for (let row = 0; row < 24; row++) {
      const pairs = sample(m, row % 2 === 1).map((h, i) => ({ h, b: sample(1, row % 2 === 1)[0] as number, i }));
      const shifted = (d: number, k: number) => cyclic(pairs, k).map(({ h, b }) => worsened(h, d, 1) - b);
      const spent = spendAlpha(alpha, looks, 2 ** -m);
      const base = { looks, spent, trials: m, direction: 1 as const };
      const pAt = (d: number, k: number) => signedRankGreater(shifted(d, k)).pValue;
      const plain = smallestConfirmable({ ...base, pAt });
      const guided = smallestConfirmable({ ...base, pAt, approxAt: (d, k) => signedRankApprox(shifted(d, k)) });
      expect(guided).toBe(plain);
    }
  });
});

describe("rowPower: blind only where the band's edge itself is not confirmed", () => {
  const looks = { first: 5, cap: 5 };
  const spent = { first: 0.01, final: 0 };
  // a test that confirms from 12.34% on: the grid's answer is 13% (whole points above 10%)
  const input = { looks, spent, trials: 5, direction: 1 as const, pAt: (d: number) => (d >= 0.1234 ? 0 : 1) };
  it.each<[string, number, boolean]>([
    ['an edge at 12.35%, between the threshold and the grid: confirmed there, not blind', 0.1235, false],
    ['an edge at 12.34% exactly: not blind', 0.1234, false],
    ['an edge at 12.33%: below what the test confirms, blind', 0.1233, true],
    ['an edge at 12%: blind', 0.12, true],
    ['an edge at 12.4%: not blind', 0.124, false],
    ['an edge at 20%: not blind', 0.2, false],
  ])('%s', (_label, edge, blind) => {
    expect(rowPower(input, edge)).toEqual({ detectable: 0.13, blind });
  });
  // under 10% the grid is 0.1 point: a test that confirms from 8.34% on answers 8.4%
  const fine = { ...input, pAt: (d: number) => (d >= 0.0834 ? 0 : 1) };
  it.each<[string, number, boolean]>([
    ['under 10%, an edge at 8.35%: not blind', 0.0835, false],
    ['under 10%, an edge at 8.33%: blind', 0.0833, true],
    ['under 10%, an edge at 8.3%: blind', 0.083, true],
  ])('%s', (_label, edge, blind) => {
    expect(rowPower(fine, edge)).toEqual({ detectable: 0.084, blind });
  });
});

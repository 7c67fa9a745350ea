// measureOne (src/session/measure.ts) for gate, update and sweep: from the collected results of a fake
// runner's trials, whether to run more trials, and how many.
import { describe, expect, it } from 'vitest';
import { compareScenario } from '../../src/compare/compare.js';
import type { Scenario } from '../../src/config-parts/types.js';
import type { BaselineFile, ScenarioResult } from '../../src/results/types.js';
import { type MeasureContext, measureOne } from '../../src/session/measure.js';
import {
  TRIAL_MS,
  scenarios,
  type Harness,
  DEFAULT_CONFIRM,
  harness,
  baselineOf,
  at,
  THREE_TO_TWELVE,
} from './measure-harness.js';

describe('measureOne (gate, update, sweep)', () => {
  it.each<[string, number, string[]]>([
    ['one phase, 5 trials', 5, ['c10']],
    ['two phases, 3 trials', 3, ['c10', 'r500']],
    ['one trial', 1, ['c10']],
  ])('no baseline: exactly the configured trials per phase (%s)', async (_label, trials, phases) => {
    const list = scenarios(trials, phases);
    const h = harness(list, DEFAULT_CONFIRM);
    const side = h.side('head', at(1500));
    await measureOne(h.ctx, side, new Map());
    expect(side.runner.commands).toEqual(
      phases.flatMap((p) =>
        Array.from({ length: trials }, (_, i) => ({ scenario: 's', phase: p, trial: i + 1, trials })),
      ),
    );
    expect(h.logs).toEqual([]);
  });

  it('records the looks of every phase in the results', async () => {
    const list = scenarios(3, ['c10', 'r500']);
    const h = harness(list, DEFAULT_CONFIRM);
    const side = h.side('head', at(1000));
    await measureOne(h.ctx, side, new Map());
    const [result] = side.collector.results(list, h.ctx.hashes);
    expect(result?.phases.map((p) => [p.name, p.confirm])).toEqual([
      ['c10', { first: 3, cap: 12 }],
      ['r500', { first: 3, cap: 12 }],
    ]);
  });

  it('head +50% against a 3-trial baseline: open at the first look, extended to the cap, a regression', async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, DEFAULT_CONFIRM);
    const side = h.side('head', at(1500));
    const baseline = baselineOf(s, 3);
    await measureOne(h.ctx, side, new Map([['s', baseline]]));
    expect(side.runner.commands.map((c) => `${c.trial}/${c.trials}`)).toEqual(THREE_TO_TWELVE);
    expect(h.logs).toEqual([
      '[perf-gate] s/c10: outside the band, not yet confirmed: c10 p50 (p=0.05); running 9 more trials',
    ]);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    expect(current.phases[0]?.trials).toHaveLength(12);
    const [row] = compareScenario(current, s.thresholds, baseline).comparisons;
    // 12 vs 3 trials apart: p = 1/455
    expect(row).toMatchObject({ metric: 'p50', result: 'regression', extraTrials: 9, pValue: 0.0022 });
  });

  it("the statistics' time while the trials run: the looks that judge are timed, nothing else", async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    // every reading of the clock 1 ms later: the statistics' time counts the readings around each look
    const timed = (h: Harness) => {
      let tick = 0;
      h.ctx.now = () => h.clock.t + ++tick;
      h.ctx.statistics = { ms: 0 };
      return h;
    };
    const none = timed(harness(list, DEFAULT_CONFIRM));
    await measureOne(none.ctx, none.side('head', at(1500)), new Map());
    expect(none.ctx.statistics).toEqual({ ms: 0 });
    const confirmed = timed(harness(list, DEFAULT_CONFIRM));
    await measureOne(confirmed.ctx, confirmed.side('head', at(1500)), new Map([['s', baselineOf(s, 3)]]));
    expect(confirmed.ctx.statistics?.ms).toBeGreaterThan(0);
  });

  it('a small cap: extended to it, and the final verdict names what was reached', async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 7, maxTimeMs: 600_000 });
    const side = h.side('head', at(1500));
    const baseline = baselineOf(s, 3);
    await measureOne(h.ctx, side, new Map([['s', baseline]]));
    expect(side.runner.commands).toHaveLength(7);
    expect(side.runner.commands.at(-1)).toEqual({ scenario: 's', phase: 'c10', trial: 7, trials: 7 });
    const [row] = compareScenario(
      side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult,
      s.thresholds,
      baseline,
    ).comparisons;
    // 7 vs 3 apart: 1/120 ≤ 0.01
    expect(row).toMatchObject({ result: 'regression', extraTrials: 4, pValue: 0.0083 });
  });

  it('only the phase outside its band is extended', async () => {
    const list = scenarios(3, ['c10', 'r500']);
    const s = list[0] as Scenario;
    const h = harness(list, DEFAULT_CONFIRM);
    const side = h.side('head', at(1500));
    // c10 was 1000 µs (now +50%), r500 was 1500 µs already (unchanged)
    const baseline = baselineOf(s, 3);
    baseline.phases[1] = baselineOf(s, 3, 1500).phases[1] as BaselineFile['phases'][number];
    await measureOne(h.ctx, side, new Map([['s', baseline]]));
    const count = (p: string) => side.runner.commands.filter((c) => c.phase === p).length;
    expect([count('c10'), count('r500')]).toEqual([12, 3]);
  });

  it('with a seed, the extra trials of every phase being confirmed run interleaved, in an order the seed draws (issue 47)', async () => {
    const list = scenarios(3, ['c10', 'r500', 'c50']);
    const s = list[0] as Scenario;
    const baseline = baselineOf(s, 3);
    // r500 unchanged (its baseline at 1500 µs): only c10 and c50 are extended, 9 more trials each
    baseline.phases[1] = baselineOf(s, 3, 1500).phases[1] as BaselineFile['phases'][number];
    const once = async (seed: number) => {
      const h = harness(list, DEFAULT_CONFIRM);
      const side = h.side('head', at(1500));
      await measureOne(h.ctx, side, new Map([['s', baseline]]), seed);
      return { commands: side.runner.commands, h, side };
    };
    const { commands, h, side } = await once(7);
    const extra = commands.slice(9).map((c) => c.phase);
    const { interleave, seededRandom, derivedSeed } = await import('../../src/stats/random.js');
    const drawn = interleave([9, 9], seededRandom(derivedSeed(7, 'confirm'))).map((i) => ['c10', 'c50'][i]);
    expect(extra).toEqual(drawn);
    // interleaved, not one phase's block after the other's
    expect(extra.join(' ')).not.toBe([...Array(9).fill('c10'), ...Array(9).fill('c50')].join(' '));
    // each phase's own trials keep their numbers, up to its cap
    expect(commands.filter((c) => c.phase === 'c50').map((c) => `${c.trial}/${c.trials}`)).toEqual(THREE_TO_TWELVE);
    // both planned before any extra trial ran
    expect(h.logs).toEqual([
      '[perf-gate] s/c10: outside the band, not yet confirmed: c10 p50 (p=0.05); running 9 more trials',
      '[perf-gate] s/c50: outside the band, not yet confirmed: c50 p50 (p=0.05); running 9 more trials',
    ]);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    const rows = compareScenario(current, s.thresholds, baseline).comparisons;
    expect(rows.map((r) => [r.phase, r.result])).toEqual([
      ['c10', 'regression'],
      ['r500', 'pass'],
      ['c50', 'regression'],
    ]);
    // the same seed draws the same order; another seed another
    expect((await once(7)).commands).toEqual(commands);
    expect((await once(8)).commands.slice(9)).not.toEqual(commands.slice(9));
  });

  it('interleaved, each phase keeps its own time budget: 7.5 trials of its own time fix each cap at 10', async () => {
    const list = scenarios(3, ['c10', 'c50']);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 12, maxTimeMs: 7.5 * 1000 });
    const side = h.side('head', at(1500));
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 3)]]), 3);
    const count = (p: string) => side.runner.commands.filter((c) => c.phase === p).length;
    expect([count('c10'), count('c50')]).toEqual([10, 10]);
  });

  it('an unchanged head: no extension', async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, DEFAULT_CONFIRM);
    const side = h.side('head', at(1000));
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 3)]]));
    expect(side.runner.commands).toHaveLength(3);
    expect(h.logs).toEqual([]);
    const [row] = compareScenario(
      side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult,
      s.thresholds,
      baselineOf(s, 3),
    ).comparisons;
    expect(row?.result).toBe('pass');
  });

  it('confirmed at the first look (5 vs 5 apart): no extension', async () => {
    const list = scenarios(5);
    const s = list[0] as Scenario;
    const h = harness(list, DEFAULT_CONFIRM);
    const side = h.side('head', at(1500));
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 5)]]));
    expect(side.runner.commands).toHaveLength(5);
    const [row] = compareScenario(
      side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult,
      s.thresholds,
      baselineOf(s, 5),
    ).comparisons;
    expect(row).toMatchObject({ result: 'regression', pValue: 0.004 });
    expect(row?.extraTrials).toBeUndefined();
  });

  it.each<[string, MeasureContext['confirm'] | undefined, RegExp]>([
    ['no extra trials (update and sweep runs)', undefined, /cannot confirm on its own.*no more trials were run/],
    ['gate.confirm.max-trials 0', { maxTrials: 0, maxTimeMs: 600_000 }, /confirmation by more trials is off/],
    ['a cap below the configured trials', { maxTrials: 2, maxTimeMs: 600_000 }, /confirmation by more trials is off/],
  ])('%s: no extension, and the final verdict is inconclusive', async (_label, confirm, reason) => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, confirm);
    const side = h.side('head', at(1500));
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 3)]]));
    expect(side.runner.commands).toHaveLength(3);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    const [row] = compareScenario(current, s.thresholds, baselineOf(s, 3)).comparisons;
    expect(row?.result).toBe('inconclusive');
    expect(row?.reason).toMatch(reason);
  });

  it('a time budget of 2.5 trials allows 2 more, too few to ever confirm 3 vs 3: none are run, and it says so', async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 12, maxTimeMs: 2.5 * TRIAL_MS });
    const side = h.side('head', at(1500));
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 3)]]));
    expect(side.runner.commands).toHaveLength(3);
    expect(h.logs.at(-1)).toMatch(/allows 2 more trials, too few to confirm$/);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    expect(current.phases[0]?.confirm).toEqual({ first: 3, cap: 5 });
    const [row] = compareScenario(current, s.thresholds, baselineOf(s, 3)).comparisons;
    // 5 vs 3 cannot reach 0.01 (1/56)
    expect(row?.result).toBe('inconclusive');
    expect(row?.reason).toMatch(
      /^even 5 trials \(the most gate\.confirm\.max-trials and gate\.confirm\.max-time allow\)/,
    );
  });

  it('a time budget of 7.5 trials fixes the cap at 10 before the extension, and confirms there', async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 12, maxTimeMs: 7.5 * TRIAL_MS });
    const side = h.side('head', at(1500));
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 3)]]));
    expect(side.runner.commands).toHaveLength(10);
    expect(h.logs.at(-1)).toMatch(/running 7 more trials \(gate\.confirm\.max-time .* allows 7 of 9\)$/);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    expect(current.phases[0]?.confirm).toEqual({ first: 3, cap: 10 });
    const [row] = compareScenario(current, s.thresholds, baselineOf(s, 3)).comparisons;
    // 10 vs 3, all above: p = 1/286
    expect(row).toMatchObject({ result: 'regression', extraTrials: 7 });
  });

  it('a trial that would overrun the budget after all stops the extension: inconclusive, not tested', async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 12, maxTimeMs: 7.5 * TRIAL_MS });
    const side = h.side('head', at(1500));
    // the extra trials take three times as long as the first three
    side.runner.slowAfter(3, 3);
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 3)]]));
    expect(side.runner.commands.length).toBeLessThan(10);
    expect(h.logs.at(-1)).toMatch(/confirmation stopped after \d more trials \(gate\.confirm\.max-time/);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    const [row] = compareScenario(current, s.thresholds, baselineOf(s, 3)).comparisons;
    expect(row?.result).toBe('inconclusive');
    expect(row?.reason).toMatch(
      /^confirmation stopped by gate\.confirm\.max-time after \d of 7 more trials: not tested again$/,
    );
  });

  it('a time budget of 0 runs no extra trial', async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 12, maxTimeMs: 0 });
    const side = h.side('head', at(1500));
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 3)]]));
    expect(side.runner.commands).toHaveLength(3);
    expect(h.logs.at(-1)).toMatch(/leaves no time for more trials of about/);
  });
});

// The early look (gate.early-look, src/session/measure.ts): a phase stopped at its first look only when
// its rows are clearly inside their bands, measured with a fake runner.
import { describe, expect, it } from 'vitest';
import { compareAbScenario } from '../../src/compare/ab.js';
import { compareScenario } from '../../src/compare/compare.js';
import type { Scenario } from '../../src/config-parts/types.js';
import type { ScenarioResult } from '../../src/results/types.js';
import { TrialCollector } from '../../src/session/collect.js';
import { measureAb, measureOne } from '../../src/session/measure.js';
import { type Command, FakeRunner, scenarios, DEFAULT_CONFIRM, harness, baselineOf, at } from './measure-harness.js';

describe('the early look (gate.early-look)', () => {
  /** a head whose trials move by a few µs around `us` */
  const near = (us: number) => (n: number) => us + ((n % 3) - 1) * 4;

  it('gate: an unchanged head stops every phase at 3 of 5 trials, the looks say so, and the verdict passes with its power', async () => {
    const list = scenarios(5, ['c10', 'r500']);
    const s = list[0] as Scenario;
    const h = harness(list, DEFAULT_CONFIRM);
    h.ctx.earlyLook = 3;
    const side = h.side('head', near(1000));
    const baseline = baselineOf(s, 5);
    await measureOne(h.ctx, side, new Map([['s', baseline]]), 11);
    expect(side.runner.commands).toHaveLength(6);
    expect(h.logs).toEqual([
      expect.stringMatching(
        /^\[perf-gate\] s\/c10: early look at 3 of 5 trials: every row inside its band \(c10 p50 at most \+\d+(\.\d)?% \(band \+20%\)\); the phase stops here$/,
      ),
      expect.stringMatching(/^\[perf-gate\] s\/r500: early look at 3 of 5 trials: every row inside its band/),
    ]);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    expect(current.phases.map((p) => p.confirm)).toEqual([
      { first: 5, cap: 12, stopped: 3 },
      { first: 5, cap: 12, stopped: 3 },
    ]);
    const rows = compareScenario(current, s.thresholds, baseline).comparisons;
    expect(rows.map((r) => r.result)).toEqual(['pass', 'pass']);
    // the power of a stopped phase is its 3 trials repeated to the first look's 5: 5 vs 5 apart can confirm
    expect(rows[0]?.detectable).toBeGreaterThan(0);
    expect(rows[0]?.blind).toBeUndefined();
  });

  it('gate: head +50% is not clear at the early look: all 5 trials run, confirmed there as before', async () => {
    const list = scenarios(5);
    const s = list[0] as Scenario;
    const h = harness(list, DEFAULT_CONFIRM);
    h.ctx.earlyLook = 3;
    const side = h.side('head', near(1500));
    const baseline = baselineOf(s, 5);
    await measureOne(h.ctx, side, new Map([['s', baseline]]));
    expect(side.runner.commands.map((c) => `${c.trial}/${c.trials}`)).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5']);
    expect(h.logs).toEqual(['[perf-gate] s/c10: early look at 3 of 5 trials: c10 p50 is open; running the other 2']);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    expect(current.phases[0]?.confirm).toEqual({ first: 5, cap: 12 });
    const [row] = compareScenario(current, s.thresholds, baseline).comparisons;
    expect(row).toMatchObject({ result: 'regression', pValue: 0.004 });
  });

  it('gate: only the phase that is not clear runs on, and its remaining trials run after every first look', async () => {
    const list = scenarios(5, ['c10', 'r500']);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 0, maxTimeMs: 600_000 });
    h.ctx.earlyLook = 3;
    const calls: string[] = [];
    const collector = new TrialCollector(undefined);
    // r500's trials spread ±30%: its bound is far above its band
    const runner = new FakeRunner('head', collector, h.clock, calls, (n) => 1000 + ((n % 3) - 1) * 300);
    const fast = new FakeRunner('head', collector, h.clock, calls, near(1000));
    const side = {
      collector,
      runner: { trial: (cmd: Command) => (cmd.phase === 'r500' ? runner.trial(cmd) : fast.trial(cmd)) },
    };
    await measureOne(h.ctx, side, new Map([['s', baselineOf(s, 5)]]), 5);
    expect(calls.slice(6)).toEqual(['head r500 4/5', 'head r500 5/5']);
    expect(calls.slice(0, 6).sort()).toEqual(
      ['c10 1/5', 'c10 2/5', 'c10 3/5', 'r500 1/5', 'r500 2/5', 'r500 3/5'].map((c) => `head ${c}`),
    );
    expect(h.logs[1]).toMatch(
      /^\[perf-gate\] s\/r500: early look at 3 of 5 trials: r500 p50 may be \+\d+% \(95% bound\), its band is \+20%; running the other 2$/,
    );
  });

  it.each<[string, number, boolean, boolean]>([
    ['no baseline', 3, false, true],
    ['an update run (nothing gates)', 3, true, false],
    ['early-look not below trials', 5, true, true],
  ])('no early look: %s', async (_label, early, withBaseline, gates) => {
    const list = scenarios(5);
    const h = harness(list, gates ? DEFAULT_CONFIRM : undefined);
    h.ctx.earlyLook = early;
    const side = h.side('head', near(1000));
    await measureOne(h.ctx, side, withBaseline ? new Map([['s', baselineOf(list[0] as Scenario, 5)]]) : new Map());
    expect(side.runner.commands).toHaveLength(5);
    expect(h.logs.filter((l) => l.includes('early look'))).toEqual([]);
  });

  it('the same seed and no early look: the order of the trials is the one drawn before the early look existed', async () => {
    const list = scenarios(3, ['c10', 'r500', 'c50']);
    const h = harness(list, DEFAULT_CONFIRM);
    const side = h.side('head', at(1000));
    await measureOne(h.ctx, side, new Map(), 99);
    // interleave([3, 3, 3]) from derivedSeed(99, 'trials'), drawn once
    const { interleave, seededRandom, derivedSeed } = await import('../../src/stats/random.js');
    const names = ['c10', 'r500', 'c50'];
    const order = interleave([3, 3, 3], seededRandom(derivedSeed(99, 'trials'))).map((i) => names[i]);
    expect(side.runner.commands.map((c) => c.phase)).toEqual(order);
  });

  it('A/B: an unchanged head stops at 3 of 6 pairs; head +50% runs its 6 and is confirmed', async () => {
    const list = scenarios(5);
    const unchanged = harness(list, DEFAULT_CONFIRM);
    unchanged.ctx.earlyLook = 3;
    const same = { base: unchanged.side('base', at(1000)), head: unchanged.side('head', near(1000)) };
    const out = await measureAb(unchanged.ctx, same, 6, 1);
    expect(same.head.runner.commands).toHaveLength(3);
    expect(same.base.runner.commands).toHaveLength(3);
    expect(out.orders[0]?.order).toHaveLength(3);
    expect(unchanged.logs.filter((l) => l.includes('early look'))).toEqual([
      expect.stringMatching(/^\[perf-gate\] s\/c10: early look at 3 of 6 pairs: every row inside its band/),
    ]);
    const head = same.head.collector.results(list, unchanged.ctx.hashes)[0] as ScenarioResult;
    const base = same.base.collector.results(list, unchanged.ctx.hashes)[0] as ScenarioResult;
    expect(head.phases[0]?.confirm).toEqual({ first: 6, cap: 12, stopped: 3 });
    const [row] = compareAbScenario(head, base, (list[0] as Scenario).thresholds);
    expect(row).toMatchObject({ result: 'pass', pairs: 3 });

    const changed = harness(list, DEFAULT_CONFIRM);
    changed.ctx.earlyLook = 3;
    const worse = { base: changed.side('base', at(1000)), head: changed.side('head', near(1500)) };
    await measureAb(changed.ctx, worse, 6, 1);
    expect(worse.head.runner.commands).toHaveLength(6);
    expect(changed.logs.filter((l) => l.includes('early look'))[0]).toBe(
      '[perf-gate] s/c10: early look at 3 of 6 pairs: c10 p50 is open; running the other 3',
    );
    const h2 = worse.head.collector.results(list, changed.ctx.hashes)[0] as ScenarioResult;
    const b2 = worse.base.collector.results(list, changed.ctx.hashes)[0] as ScenarioResult;
    expect(compareAbScenario(h2, b2, (list[0] as Scenario).thresholds)[0]).toMatchObject({
      result: 'regression',
      pairs: 6,
    });
  });
});

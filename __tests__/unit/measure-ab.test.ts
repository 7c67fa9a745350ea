// measureAb (src/session/measure.ts): pairs of base and head trials from a fake runner, in their drawn
// order, and whether to run more pairs.
import { describe, expect, it } from 'vitest';
import { compareAbScenario } from '../../src/compare/ab.js';
import type { Scenario } from '../../src/config-parts/types.js';
import type { ScenarioResult } from '../../src/results/types.js';
import { type MeasureContext, measureAb } from '../../src/session/measure.js';
import { scenarios, DEFAULT_CONFIRM, harness, at } from './measure-harness.js';

describe('measureAb', () => {
  /** Runs an A/B measurement of `list` with base at 1000 µs and head at `head(n)`. */
  async function ab(
    list: Scenario[],
    pairs: number,
    seed: number,
    head: (n: number) => number,
    confirm: MeasureContext['confirm'] = DEFAULT_CONFIRM,
  ) {
    const h = harness(list, confirm);
    const sides = { base: h.side('base', at(1000)), head: h.side('head', head) };
    const out = await measureAb(h.ctx, sides, pairs, seed);
    return { ...h, sides, out };
  }

  it('one order entry per pair run, per phase; each pair runs both sides in its drawn order', async () => {
    const list = scenarios(5, ['c10', 'r500']);
    const { out, calls, sides } = await ab(list, 6, 424_242, at(1000));
    expect(out.seed).toBe(424_242);
    expect(out.orders.map((o) => [o.scenario, o.phase, o.order.length])).toEqual([
      ['s', 'c10', 6],
      ['s', 'r500', 6],
    ]);
    // the calls, pair by pair, follow the orders: AB = base first, BA = head first
    const expected = out.orders.flatMap((o) =>
      o.order.flatMap((order, i) => {
        const first = order === 'AB' ? 'base' : 'head';
        const second = first === 'base' ? 'head' : 'base';
        return [`${first} ${o.phase} ${i + 1}/6`, `${second} ${o.phase} ${i + 1}/6`];
      }),
    );
    expect(calls).toEqual(expected);
    for (const side of [sides.base, sides.head]) {
      expect(side.runner.commands.map((c) => `${c.phase} ${c.trial}/${c.trials}`)).toEqual([
        ...Array.from({ length: 6 }, (_, i) => `c10 ${i + 1}/6`),
        ...Array.from({ length: 6 }, (_, i) => `r500 ${i + 1}/6`),
      ]);
    }
  });

  it('the same seed draws the same orders; another seed other orders', async () => {
    const list = scenarios(5, ['c10', 'r500']);
    const a = await ab(list, 6, 7, at(1000));
    const b = await ab(list, 6, 7, at(1000));
    expect(b.out).toEqual(a.out);
    expect(b.calls).toEqual(a.calls);
    const others = await Promise.all([8, 9, 10].map((seed) => ab(list, 6, seed, at(1000))));
    expect(others.some((o) => JSON.stringify(o.out.orders) !== JSON.stringify(a.out.orders))).toBe(true);
  });

  it('an unchanged head: no extension', async () => {
    const { sides, logs } = await ab(scenarios(5), 6, 1, at(1000));
    expect(sides.head.runner.commands).toHaveLength(6);
    expect(sides.base.runner.commands).toHaveLength(6);
    expect(logs.some((l) => l.includes('not yet confirmed'))).toBe(false);
  });

  it('head +50% over 6 pairs: confirmed at the first look (1/64 ≤ 0.025), no extension', async () => {
    const list = scenarios(5);
    const { sides, out, ctx } = await ab(list, 6, 1, at(1500));
    expect(sides.head.runner.commands).toHaveLength(6);
    expect(out.orders[0]?.order).toHaveLength(6);
    const [head] = sides.head.collector.results(list, ctx.hashes);
    const [base] = sides.base.collector.results(list, ctx.hashes);
    const [row] = compareAbScenario(head as ScenarioResult, base as ScenarioResult, (list[0] as Scenario).thresholds);
    expect(row).toMatchObject({ result: 'regression', pValue: 0.0156, pairs: 6 });
    expect(row?.extraTrials).toBeUndefined();
  });

  it('head +50% over 4 pairs (1/16 cannot confirm): extended to the cap, a regression by 4 more pairs', async () => {
    const list = scenarios(5);
    const r = await ab(list, 4, 3, at(1500), { maxTrials: 8, maxTimeMs: 600_000 });
    for (const side of [r.sides.base, r.sides.head]) {
      expect(side.runner.commands.map((c) => `${c.trial}/${c.trials}`)).toEqual([
        '1/4',
        '2/4',
        '3/4',
        '4/4',
        '5/8',
        '6/8',
        '7/8',
        '8/8',
      ]);
    }
    expect(r.out.orders[0]?.order).toHaveLength(8);
    expect(r.logs).toContain(
      '[perf-gate] s/c10: outside the band, not yet confirmed: c10 p50 (p=0.0625); running 4 more pairs',
    );
    const [head] = r.sides.head.collector.results(list, r.ctx.hashes);
    const [base] = r.sides.base.collector.results(list, r.ctx.hashes);
    expect(head?.phases[0]?.confirm).toEqual({ first: 4, cap: 8 });
    const [row] = compareAbScenario(head as ScenarioResult, base as ScenarioResult, (list[0] as Scenario).thresholds);
    // 8 pairs, all worse: 1/256
    expect(row).toMatchObject({ result: 'regression', extraTrials: 4, pairs: 8, pValue: 0.0039 });
  });

  it('the extension continues the same seeded sequence: the first pairs’ orders do not change', async () => {
    const list = scenarios(5);
    const unchanged = await ab(list, 4, 3, at(1000), { maxTrials: 8, maxTimeMs: 600_000 });
    const extended = await ab(list, 4, 3, at(1500), { maxTrials: 8, maxTimeMs: 600_000 });
    expect(unchanged.out.orders[0]?.order).toHaveLength(4);
    expect(extended.out.orders[0]?.order.slice(0, 4)).toEqual(unchanged.out.orders[0]?.order);
  });

  it('with two phases to confirm, their extra pairs run interleaved in an order the seed draws, after every phase’s pairs (issue 47)', async () => {
    const list = scenarios(5, ['c10', 'c50']);
    const confirm = { maxTrials: 8, maxTimeMs: 600_000 };
    const once = (seed: number) => ab(list, 4, seed, at(1500), confirm);
    const r = await once(3);
    const heads = r.sides.head.runner.commands.map((c) => `${c.phase} ${c.trial}/${c.trials}`);
    // every phase's configured pairs first, phase by phase
    expect(heads.slice(0, 8)).toEqual([
      ...['1/4', '2/4', '3/4', '4/4'].map((k) => `c10 ${k}`),
      ...['1/4', '2/4', '3/4', '4/4'].map((k) => `c50 ${k}`),
    ]);
    // then the extra pairs of both, in the order the seed's confirm stream draws
    const { interleave, seededRandom, derivedSeed } = await import('../../src/stats/random.js');
    const drawn = interleave([4, 4], seededRandom(derivedSeed(3, 'confirm'))).map((i) => ['c10', 'c50'][i]);
    expect(heads.slice(8).map((h) => h.split(' ')[0])).toEqual(drawn);
    expect(drawn.join(' ')).not.toBe('c10 c10 c10 c10 c50 c50 c50 c50');
    // each phase's extra pairs keep their numbers, and both sides ran the same pairs
    expect(heads.filter((h) => h.startsWith('c50')).slice(4)).toEqual(['c50 5/8', 'c50 6/8', 'c50 7/8', 'c50 8/8']);
    expect(r.sides.base.runner.commands.map((c) => `${c.phase} ${c.trial}`)).toEqual(
      r.sides.head.runner.commands.map((c) => `${c.phase} ${c.trial}`),
    );
    // both planned before any extra pair ran
    expect(r.logs.filter((l) => l.includes('not yet confirmed'))).toEqual([
      '[perf-gate] s/c10: outside the band, not yet confirmed: c10 p50 (p=0.0625); running 4 more pairs',
      '[perf-gate] s/c50: outside the band, not yet confirmed: c50 p50 (p=0.0625); running 4 more pairs',
    ]);
    // each phase's pair orders are its own stream's: 8 of them, the first 4 as an unchanged head draws
    const unchanged = await ab(list, 4, 3, at(1000), confirm);
    for (const k of [0, 1]) {
      expect(r.out.orders[k]?.order).toHaveLength(8);
      expect(r.out.orders[k]?.order.slice(0, 4)).toEqual(unchanged.out.orders[k]?.order);
    }
    const [head] = r.sides.head.collector.results(list, r.ctx.hashes);
    const [base] = r.sides.base.collector.results(list, r.ctx.hashes);
    const rows = compareAbScenario(head as ScenarioResult, base as ScenarioResult, (list[0] as Scenario).thresholds);
    expect(rows.map((row) => [row.phase, row.result, row.pairs])).toEqual([
      ['c10', 'regression', 8],
      ['c50', 'regression', 8],
    ]);
    // the same seed, the same calls; another seed another order of the extra pairs
    expect((await once(3)).calls).toEqual(r.calls);
    const others = await Promise.all([4, 5, 6].map(once));
    expect(others.some((o) => JSON.stringify(o.calls.slice(16)) !== JSON.stringify(r.calls.slice(16)))).toBe(true);
  });

  it('confirmation off (max-trials 0): 4 pairs, no extension, inconclusive', async () => {
    const list = scenarios(5);
    const h = harness(list, { maxTrials: 0, maxTimeMs: 600_000 });
    const sides = { base: h.side('base', at(1000)), head: h.side('head', at(1500)) };
    await measureAb(h.ctx, sides, 4, 3);
    const r = { ...h, sides };
    expect(r.sides.head.runner.commands).toHaveLength(4);
    const [head] = r.sides.head.collector.results(list, r.ctx.hashes);
    const [base] = r.sides.base.collector.results(list, r.ctx.hashes);
    const [row] = compareAbScenario(head as ScenarioResult, base as ScenarioResult, (list[0] as Scenario).thresholds);
    expect(row?.result).toBe('inconclusive');
  });
});

// warmup-later: settled (src/session/measure.ts): a phase's later trials warm up for what its first
// trial's warm-up took to settle, measured with a fake runner.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/config-parts/types.js';
import type { WarmupWindows } from '../../src/runner-kit/plan.js';
import { measureAb, measureOne } from '../../src/session/measure.js';
import { scenarios, DEFAULT_CONFIRM, harness, baselineOf, at } from './measure-harness.js';

describe('warmup-later: settled', () => {
  /** `scenarios(...)` with a 2 s warm-up and warmup-later: settled */
  const settledScenarios = (trials: number, phases = ['c10']) =>
    scenarios(trials, phases).map((s): Scenario => ({ ...s, warmupMs: 2000, warmupLater: 'settled' }));
  // the fixture's trials measure 100 rps (fixtures.ts)
  const settledAt400: WarmupWindows = { windowMs: 200, rps: [10, 50, 90, 95, 100, 98, 99, 100, 101, 100] };
  const neverSettled: WarmupWindows = { windowMs: 200, rps: [10, 20, 30, 40, 50, 60, 70, 72, 75, 70] };

  it('gate/update: the first trial settled at 400 ms of 2 s, so later trials warm up for 1 s; the results and the log say so', async () => {
    const list = settledScenarios(3);
    const h = harness(list, undefined);
    const side = h.side('head', at(1000));
    side.runner.warmup = (n) => (n === 1 ? settledAt400 : undefined);
    await measureOne(h.ctx, side, new Map(), 3);
    expect(side.runner.commands.map((c) => c.warmupMs)).toEqual([undefined, 1000, 1000]);
    expect(h.logs).toEqual([
      "[perf-gate] s/c10: the first trial's warm-up settled after 400ms of 2s: later trials warm up for 1s (warmup-later: settled)",
    ]);
    const [result] = side.collector.results(list, h.ctx.hashes);
    const phase = result?.phases[0];
    expect(phase?.warmupLater).toEqual({ settledMs: 400, laterMs: 1000 });
    expect(phase?.trials.map((t) => t.warmupMs)).toEqual([undefined, 1000, 1000]);
  });

  it('a first warm-up that never reached 80% of the measured rate keeps the full warm-up', async () => {
    const list = settledScenarios(3);
    const h = harness(list, undefined);
    const side = h.side('head', at(1000));
    side.runner.warmup = (n) => (n === 1 ? neverSettled : undefined);
    await measureOne(h.ctx, side, new Map());
    expect(side.runner.commands.map((c) => c.warmupMs)).toEqual([undefined, undefined, undefined]);
    expect(h.logs).toEqual([
      "[perf-gate] s/c10: the first trial's warm-up did not settle within 2s: later trials keep it (warmup-later: settled)",
    ]);
    const [result] = side.collector.results(list, h.ctx.hashes);
    expect(result?.phases[0]?.warmupLater).toEqual({});
  });

  it('with warmup-later: full, or a runner that sends no windows, every trial gets the full warm-up', async () => {
    const plain = scenarios(3).map((s) => ({ ...s, warmupMs: 2000 }));
    const h = harness(plain, undefined);
    const side = h.side('head', at(1000));
    side.runner.warmup = () => settledAt400;
    await measureOne(h.ctx, side, new Map());
    expect(side.runner.commands.map((c) => c.warmupMs)).toEqual([undefined, undefined, undefined]);
    expect(h.logs).toEqual([]);
    const silent = harness(settledScenarios(3), undefined);
    const quiet = silent.side('head', at(1000));
    await measureOne(silent.ctx, quiet, new Map());
    expect(quiet.runner.commands.map((c) => c.warmupMs)).toEqual([undefined, undefined, undefined]);
    expect(silent.logs).toEqual([
      '[perf-gate] s/c10: the runner sent no warm-up windows: later trials keep the full 2s (warmup-later: settled)',
    ]);
    // a runner that announces no warm-up stage either (a swarm replica): no trial claims a warm-up
    const [result] = quiet.collector.results(settledScenarios(3), silent.ctx.hashes);
    expect(result?.phases[0]?.trials.map((t) => t.warmupMs)).toEqual([undefined, undefined, undefined]);
  });

  it('nothing to shorten: one trial, or a ramp, keeps the full warm-up without a word', async () => {
    const one = harness(settledScenarios(1), undefined);
    const single = one.side('head', at(1000));
    single.runner.warmup = () => settledAt400;
    await measureOne(one.ctx, single, new Map());
    expect(one.logs).toEqual([]);
    const ramped = settledScenarios(3).map((s) => ({
      ...s,
      phases: s.phases.map(
        (p) => ({ ...p, ramp: { from: 0, stages: [{ durationMs: 10_000, to: 10 }] } }) as Scenario['phases'][number],
      ),
    }));
    const r = harness(ramped, undefined);
    const side = r.side('head', at(1000));
    side.runner.warmup = () => settledAt400;
    await measureOne(r.ctx, side, new Map());
    expect(side.runner.commands.map((c) => c.warmupMs)).toEqual([undefined, undefined, undefined]);
    expect(r.logs).toEqual([]);
  });

  it.each<[string, { settledMs?: number; laterMs?: number } | undefined, number | undefined, RegExp]>([
    [
      'the baseline had longer: its 1.4s',
      { settledMs: 600, laterMs: 1400 },
      1400,
      /later trials warm up for 1\.4s \(the baseline's later trials had 1\.4s\)/,
    ],
    [
      "the baseline had shorter: this run's 1s",
      { settledMs: 0, laterMs: 500 },
      1000,
      /later trials warm up for 1s \(warmup/,
    ],
    [
      'the baseline did not settle: the full warm-up',
      {},
      undefined,
      /later trials warm up for 2s \(the baseline's later trials had the full 2s\)/,
    ],
    [
      'the baseline had longer than this run warms up: no more than its 2s',
      { settledMs: 600, laterMs: 3000 },
      2000,
      /later trials warm up for 2s \(the baseline's later trials had 3s\)/,
    ],
    [
      'the baseline was taken with warmup-later: full (no record): the full warm-up',
      undefined,
      undefined,
      /later trials warm up for 2s \(the baseline's later trials had the full 2s\)/,
    ],
  ])("gate: later trials are never colder than the baseline's: %s", async (_label, before, expected, log) => {
    const list = settledScenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, DEFAULT_CONFIRM);
    const side = h.side('head', at(1000));
    side.runner.warmup = (n) => (n === 1 ? settledAt400 : undefined);
    const baseline = baselineOf(s, 3);
    baseline.phases = baseline.phases.map(({ warmupLater: _, ...p }) => (before ? { ...p, warmupLater: before } : p));
    await measureOne(h.ctx, side, new Map([['s', baseline]]));
    expect(side.runner.commands.map((c) => c.warmupMs)).toEqual([undefined, expected, expected]);
    expect(h.logs[0]).toMatch(log);
  });

  it.each<[string, { settledMs?: number; laterMs?: number } | undefined]>([
    ['a longer one (1.4s)', { settledMs: 600, laterMs: 1400 }],
    ['the full warm-up (no record)', undefined],
  ])("update: later trials get this run's own warm-up, not the replaced baseline's: %s", async (_label, before) => {
    const list = settledScenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, undefined);
    const side = h.side('head', at(1000));
    side.runner.warmup = (n) => (n === 1 ? settledAt400 : undefined);
    const baseline = baselineOf(s, 3);
    baseline.phases = baseline.phases.map(({ warmupLater: _, ...p }) => (before ? { ...p, warmupLater: before } : p));
    await measureOne(h.ctx, side, new Map([['s', baseline]]));
    expect(side.runner.commands.map((c) => c.warmupMs)).toEqual([undefined, 1000, 1000]);
    expect(h.logs[0]).toMatch(/later trials warm up for 1s \(warmup-later: settled\)$/);
  });

  it("A/B: the later of both sides' settle times decides, and both sides get the same warm-up", async () => {
    const list = settledScenarios(5);
    const h = harness(list, DEFAULT_CONFIRM);
    const sides = { base: h.side('base', at(1000)), head: h.side('head', at(1000)) };
    sides.base.runner.warmup = (n) => (n === 1 ? { windowMs: 200, rps: [100, 100, 100, 100] } : undefined);
    sides.head.runner.warmup = (n) => (n === 1 ? settledAt400 : undefined);
    await measureAb(h.ctx, sides, 3, 1);
    for (const side of [sides.base, sides.head]) {
      expect(side.runner.commands.map((c) => c.warmupMs)).toEqual([undefined, 1000, 1000]);
    }
    const [head] = sides.head.collector.results(list, h.ctx.hashes);
    expect(head?.phases[0]?.warmupLater).toEqual({ settledMs: 400, laterMs: 1000 });
  });
});

// Measuring with confirmation (src/session/measure.ts): a fake TrialRunner emits synthetic runner
// events into a real TrialCollector, the way the session's runner handle does, and measureOne /
// measureAb decide from the collected results whether to run more trials (pairs).
import { derivedSeed, drawOrder, seededRandom } from '../../src/stats/random.js';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compareAbScenario } from '../../src/compare/ab.js';
import { quietPairs } from '../../src/compare/busy.js';
import { compareScenario } from '../../src/compare/compare.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Scenario } from '../../src/config-parts/types.js';
import { createHistogram, encodeHistogram } from '../../src/runner-kit/histogram.js';
import type { BaselineFile, ScenarioResult } from '../../src/results/types.js';
import type { WarmupWindows } from '../../src/runner-kit/plan.js';
import { TrialCollector } from '../../src/session/collect.js';
import {
  type MeasureContext,
  type MeasureSide,
  measureAb,
  measureOne,
  type TrialRunner,
} from '../../src/session/measure.js';
import { phase, resultsFile, times, trial } from './fixtures.js';

type Command = Parameters<TrialRunner['trial']>[0];

/** Each synthetic trial takes this long on the fake clock. */
const TRIAL_MS = 1000;

const histograms = new Map<number, string>();
/** A success-latency histogram of 1000 responses at `us` (cached: encoding is the slow part). */
function histogramAt(us: number): string {
  const hit = histograms.get(us);
  if (hit) return hit;
  const h = createHistogram();
  h.recordValueWithCount(us, 1000);
  const encoded = encodeHistogram(h);
  h.destroy();
  histograms.set(us, encoded);
  return encoded;
}

/** A fake runner: records its commands, advances the clock, and emits a `stage` and a `trial` event
 * whose p50 is `p50(n)` for the n-th trial it runs of the phase (1-based). */
class FakeRunner implements TrialRunner {
  readonly commands: Command[] = [];
  private slow = { after: Infinity, factor: 1 };

  /** trials after the first `after` take `factor` times as long */
  slowAfter(after: number, factor: number): void {
    this.slow = { after, factor };
  }
  constructor(
    private readonly side: string,
    private readonly collector: TrialCollector,
    private readonly clock: { t: number },
    private readonly calls: string[],
    private readonly p50: (n: number) => number,
  ) {}

  /** the warm-up windows the n-th trial of a phase reports (none: a runner that does not sample them) */
  warmup?: (n: number) => WarmupWindows | undefined;
  /** a mix's entries: each trial event carries one result per entry, at the phase's p50 plus its index */
  entries?: string[];

  async trial(cmd: Command): Promise<void> {
    this.commands.push(cmd);
    this.calls.push(`${this.side} ${cmd.phase} ${cmd.trial}/${cmd.trials}`);
    const n = this.commands.filter((c) => c.scenario === cmd.scenario && c.phase === cmd.phase).length;
    const { scenario, phase: name } = cmd;
    const windows = this.warmup?.(n);
    if (this.warmup) {
      this.collector.onEvent(
        {
          t: 'stage',
          scenario,
          phase: name,
          trial: cmd.trial,
          trials: cmd.trials,
          stage: 'warmup',
          totalMs: cmd.warmupMs ?? 2000,
        },
        this.clock.t,
      );
    }
    this.collector.onEvent(
      { t: 'stage', scenario, phase: name, trial: cmd.trial, trials: cmd.trials, stage: 'measure' },
      this.clock.t,
    );
    this.clock.t += n > this.slow.after ? TRIAL_MS * this.slow.factor : TRIAL_MS;
    const { resources: _r, ...measurement } = trial({ latency: { p50: this.p50(n) } }, cmd.trial);
    await Promise.resolve();
    this.collector.onEvent(
      {
        t: 'trial',
        scenario,
        phase: name,
        measurement,
        histogram: histogramAt(this.p50(n)),
        ...(windows ? { warmup: windows } : {}),
        ...(this.entries
          ? {
              requests: this.entries.map((name, i) => ({
                name,
                measurement: trial({ latency: { p50: this.p50(n) + i + 1 } }, cmd.trial),
                histogram: histogramAt(this.p50(n) + i + 1),
              })),
            }
          : {}),
      },
      this.clock.t,
    );
  }
}

/** Scenarios parsed from a minimal config: `trials` each, phases c10 (and more), p50 gated; every trial
 * warms up in full (`warmup-later: full`; the settled warm-up has tests of its own). */
function scenarios(trials: number, phases = ['c10'], names = ['s']): Scenario[] {
  const raw = {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    scenarios: names.map((name) => ({
      name,
      request: { url: 'http://api:8080/' },
      trials,
      'warmup-later': 'full',
      phases: phases.map((p) => ({ name: p, connections: 10, duration: '10s' })),
      thresholds: { p50: { regress: '10%', floor: '200us' } },
    })),
  };
  const { config, problems } = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  expect(problems).toEqual([]);
  return config?.scenarios ?? [];
}

interface Harness {
  ctx: MeasureContext;
  clock: { t: number };
  calls: string[];
  logs: string[];
  side: (name: string, p50: (n: number) => number) => MeasureSide & { runner: FakeRunner };
}

const DEFAULT_CONFIRM = { maxTrials: 12, maxTimeMs: 600_000 };

/** `confirm` undefined: no extra trials (update and sweep runs), at the default cap. */
function harness(list: Scenario[], confirm: MeasureContext['confirm'] | undefined): Harness {
  const clock = { t: 0 };
  const calls: string[] = [];
  const logs: string[] = [];
  const ctx: MeasureContext = {
    scenarios: list,
    hashes: new Map(list.map((s) => [s.name, `hash-${s.name}`])),
    confirm: confirm ?? DEFAULT_CONFIRM,
    extend: confirm !== undefined,
    log: (line) => logs.push(line),
    now: () => clock.t,
  };
  const side = (name: string, p50: (n: number) => number) => {
    const collector = new TrialCollector(undefined);
    return { collector, runner: new FakeRunner(name, collector, clock, calls, p50) };
  };
  return { ctx, clock, calls, logs, side };
}

/** A baseline of `n` trials at p50 `us` for every phase of `s`. */
function baselineOf(s: Scenario, n: number, us = 1000): BaselineFile {
  return {
    schema: 'perf-gate/baseline@1',
    scenario: s.name,
    scenarioHash: `hash-${s.name}`,
    provenance: resultsFile([], []).provenance,
    phases: s.phases.map((p) => phase(p.name, { latency: { p50: us } }, times({ latency: { p50: us } }, n))),
  };
}

const at = (us: number) => () => us;

/** The trial numbers of a phase of 3 trials confirmed up to the cap of 12, as its commands say them. */
const THREE_TO_TWELVE = ['1/3', '2/3', '3/3', ...Array.from({ length: 9 }, (_, i) => `${i + 4}/12`)];

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

describe('gate.busy: a trial on a busy machine is put aside and run again', () => {
  /** A side whose collector reads the machine: trial n of its run (in the order run, 1-based) has other
   * processes at 180% of a core when `busy(n)`, else none; trials are busy from gate.busy's 50%. */
  function busySide(
    h: Harness,
    name: string,
    p50: (n: number) => number,
    busy: (n: number) => boolean,
    threshold: number | 'off' = 50,
  ) {
    let reads = 0;
    const collector = new TrialCollector(
      undefined,
      new Map(),
      () => {
        // read at each window's start (odd) and end (even): the end says how the window went
        reads++;
        const n = Math.ceil(reads / 2);
        const end = reads % 2 === 0;
        return {
          cpu: { busy: end && busy(n) ? 180 : 0, idle: end ? (busy(n) ? 20 : 200) : 0, steal: 0, cores: 2 },
          selfCpuUs: 0,
        };
      },
      threshold === 'off' ? undefined : { othersPct: threshold },
    );
    return { collector, runner: new FakeRunner(name, collector, h.clock, h.calls, p50) };
  }

  it('gate: the busy trial is repeated later in the seeded order, kept aside as discarded, and the repeats are counted', async () => {
    const list = scenarios(3, ['c10', 'r500']);
    const h = harness(list, DEFAULT_CONFIRM);
    h.ctx.busy = { repeats: 5, used: 0 };
    const side = busySide(h, 'head', at(1000), (n) => n === 2);
    await measureOne(h.ctx, side, new Map(), 7);
    expect(side.runner.commands).toHaveLength(7);
    expect(h.ctx.busy.used).toBe(1);
    const [result] = side.collector.results(list, h.ctx.hashes);
    const phases = result?.phases ?? [];
    expect(phases.map((p) => p.trials.length)).toEqual([3, 3]);
    expect(phases.flatMap((p) => p.trials.filter((t) => t.busy))).toEqual([]);
    const discarded = phases.flatMap((p) => p.discarded ?? []);
    expect(discarded).toHaveLength(1);
    expect(discarded[0]?.busy).toBe(true);
    // the replacement takes the put-aside trial's number: each phase's trials are 1, 2, 3
    expect(phases.map((p) => p.trials.map((t) => t.trial))).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);
    expect(h.logs).toEqual([expect.stringMatching(/ran on a busy machine; put aside and repeated \(1 of 5\)$/)]);
  });

  it('gate: the repeats spent, a busy trial is kept, marked, and its regression is inconclusive', async () => {
    const list = scenarios(5);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 0, maxTimeMs: 600_000 });
    h.ctx.busy = { repeats: 1, used: 0 };
    // every trial busy, and head 3× slower: the machine, not the change, may be why
    const side = busySide(h, 'head', at(3000), () => true);
    const baseline = baselineOf(s, 5);
    await measureOne(h.ctx, side, new Map([['s', baseline]]), 7);
    expect(side.runner.commands).toHaveLength(6);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    expect(current.phases[0]?.trials.filter((t) => t.busy)).toHaveLength(5);
    expect(current.phases[0]?.discarded).toHaveLength(1);
    expect(h.logs.filter((l) => l.includes('spent'))).toEqual([
      expect.stringMatching(
        /gate\.busy's 1 repeats are spent, it is kept \(and so are later ones: the report names their phases\)$/,
      ),
    ]);
    const [row] = compareScenario(current, s.thresholds, baseline).comparisons;
    expect(row?.result).toBe('inconclusive');
    expect(row?.reason).toMatch(/the machine was busy during 5 of its 5 trials \(gate\.busy\)/);
    // while measuring, the row is what its trials say (no extension follows a regression)
    expect(compareScenario(current, s.thresholds, baseline, false).comparisons[0]?.result).toBe('regression');
  });

  it.each<[string, boolean, number, number]>([
    // 2 planned, + 2 for each of the 9 extra trials: every busy trial repeated, the +50% confirmed
    ['the default allowance grows with confirmation’s trials', true, 20, 0],
    // a given allowance stays as given: spent on the first two, the later busy ones are kept
    ['a given allowance does not', false, 2, 2],
  ])('gate: %s', async (_label, grows, repeats, kept) => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const h = harness(list, DEFAULT_CONFIRM);
    h.ctx.busy = { repeats: 2, used: 0, ...(grows ? { grows: true as const } : {}) };
    // trials 5, 7, 9 and 11 of those run are busy: all during confirmation
    const side = busySide(h, 'head', at(1500), (n) => n >= 5 && n <= 11 && n % 2 === 1);
    const baseline = baselineOf(s, 3);
    await measureOne(h.ctx, side, new Map([['s', baseline]]));
    expect(h.ctx.busy.repeats).toBe(repeats);
    expect(h.ctx.busy.used).toBe(4 - kept);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    expect(current.phases[0]?.trials).toHaveLength(12);
    expect(current.phases[0]?.trials.filter((t) => t.busy)).toHaveLength(kept);
    const [row] = compareScenario(current, s.thresholds, baseline).comparisons;
    expect(row?.result).toBe(kept === 0 ? 'regression' : 'inconclusive');
  });

  it('without gate.busy the busy readings are only recorded: no repeat, the regression stands', async () => {
    const list = scenarios(5);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 0, maxTimeMs: 600_000 });
    const side = busySide(h, 'head', at(3000), () => true, 'off');
    const baseline = baselineOf(s, 5);
    await measureOne(h.ctx, side, new Map([['s', baseline]]), 7);
    expect(side.runner.commands).toHaveLength(5);
    const current = side.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    // read and kept, not marked
    expect(current.phases[0]?.trials.map((t) => [t.machine?.othersPct, t.busy])).toEqual(
      Array.from({ length: 5 }, () => [180, undefined]),
    );
    expect(compareScenario(current, s.thresholds, baseline).comparisons[0]?.result).toBe('regression');
  });

  it.each<[string, 'base' | 'head', number]>([
    ['base', 'base', 2],
    ['head', 'head', 3],
  ])(
    "A/B: a busy %s trial is put aside and that side alone runs again at once; the orders are the seed's",
    async (_label, busySideName, pairNo) => {
      const list = scenarios(5);
      const h = harness(list, DEFAULT_CONFIRM);
      h.ctx.busy = { repeats: 3, used: 0 };
      const sides = {
        base: busySide(h, 'base', at(1000), (n) => busySideName === 'base' && n === pairNo),
        head: busySide(h, 'head', at(1000), (n) => busySideName === 'head' && n === pairNo),
      };
      const out = await measureAb(h.ctx, sides, 4, 99);
      expect(h.ctx.busy.used).toBe(1);
      const other = busySideName === 'base' ? 'head' : 'base';
      const runs = [1, 2, 3, 4].flatMap((k) => (k === pairNo ? [k, k] : [k]));
      expect(sides[busySideName].runner.commands.map((c) => c.trial)).toEqual(runs);
      expect(sides[other].runner.commands.map((c) => c.trial)).toEqual([1, 2, 3, 4]);
      for (const side of [sides.base, sides.head]) {
        const [r] = side.collector.results(list, h.ctx.hashes);
        expect(r?.phases[0]?.trials.map((t) => t.trial)).toEqual([1, 2, 3, 4]);
      }
      const [busied] = sides[busySideName].collector.results(list, h.ctx.hashes);
      expect(busied?.phases[0]?.discarded).toHaveLength(1);
      // the busy side ran again right after the pair's other trial: the pair ran other side first
      const pairCalls = h.calls.filter((c) => c.endsWith(` ${pairNo}/4`));
      expect(pairCalls.at(-1)).toBe(`${busySideName} c10 ${pairNo}/4`);
      const random = seededRandom(derivedSeed(99, 's', 'c10'));
      expect(out.orders[0]?.order).toEqual(Array.from({ length: 4 }, () => drawOrder(random)));
      expect(h.logs.filter((l) => l.includes('busy'))).toEqual([
        `[perf-gate] s/c10: pair ${pairNo}'s ${busySideName} trial ran on a busy machine; put aside and repeated (1 of 3)`,
      ]);
    },
  );

  it.each<[string, { waitedMs: number; quiet: boolean }, string]>([
    ['a wait that found it quiet', { waitedMs: 3250, quiet: true }, '; waited 3.25s for the machine to quiet down'],
    ['quiet at once: nothing said', { waitedMs: 1000, quiet: true }, ''],
    ['still busy at the bound', { waitedMs: 10_000, quiet: false }, '; the machine still read busy after 10s'],
  ])('a repeat waits for the machine to quiet down first (%s), in both modes', async (_label, wait, said) => {
    const list = scenarios(3);
    for (const mode of ['gate', 'ab'] as const) {
      const h = harness(list, DEFAULT_CONFIRM);
      h.ctx.busy = { repeats: 3, used: 0 };
      h.ctx.quiet = async () => {
        h.calls.push('quiet');
        return wait;
      };
      const head = busySide(h, 'head', at(1000), (n) => n === 2);
      if (mode === 'gate') await measureOne(h.ctx, head, new Map());
      else await measureAb(h.ctx, { base: busySide(h, 'base', at(1000), () => false), head }, 3, 99);
      // the wait comes right after the busy trial, before the next one runs
      const q = h.calls.indexOf('quiet');
      expect(h.calls.filter((c) => c === 'quiet')).toHaveLength(1);
      expect(h.calls.slice(0, q).filter((c) => c.startsWith('head'))).toHaveLength(2);
      expect(h.logs.find((l) => l.includes('put aside'))).toMatch(
        new RegExp(`\\(1 of 3\\)${said.replace(/[.()]/g, '\\$&')}$`),
      );
    }
  });

  it('A/B: the trial put aside and the wait for a quiet machine are left out of the time confirmation plans by', async () => {
    const list = scenarios(5);
    // 4 pairs of 2 s: 8 s allow 4 more pairs; the busy trial (1 s) and a 10 s wait must not count
    const h = harness(list, { maxTrials: 8, maxTimeMs: 8000 });
    h.ctx.busy = { repeats: 3, used: 0 };
    h.ctx.quiet = async () => {
      h.clock.t += 10_000;
      return { waitedMs: 10_000, quiet: true };
    };
    const sides = {
      base: busySide(h, 'base', at(1000), () => false),
      head: busySide(h, 'head', at(1500), (n) => n === 2),
    };
    await measureAb(h.ctx, sides, 4, 99);
    expect(h.logs).toContain(
      '[perf-gate] s/c10: outside the band, not yet confirmed: c10 p50 (p=0.0625); running 4 more pairs',
    );
    expect(sides.base.runner.commands).toHaveLength(8);
  });

  it('A/B: both sides busy in a pair, one again after its repeat, the repeats running out mid-pair: the sides stay aligned, the busy pair left out', async () => {
    const list = scenarios(5);
    const h = harness(list, { maxTrials: 0, maxTimeMs: 600_000 });
    h.ctx.busy = { repeats: 2, used: 0 };
    // base's 2nd run busy, head's 2nd and 3rd: 3 repeats wanted, 2 allowed (which side keeps a busy
    // trial depends on the order drawn for pair 2)
    const sides = {
      base: busySide(h, 'base', at(1000), (n) => n === 2),
      head: busySide(h, 'head', at(1000), (n) => n === 2 || n === 3),
    };
    await measureAb(h.ctx, sides, 4, 99);
    expect(h.ctx.busy.used).toBe(2);
    const head = sides.head.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    const base = sides.base.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    for (const r of [head, base]) expect(r.phases[0]?.trials.map((t) => t.trial)).toEqual([1, 2, 3, 4]);
    const busyPair = head.phases[0]?.trials.map((t, i) => t.busy === true || base.phases[0]?.trials[i]?.busy === true);
    expect(busyPair).toEqual([false, true, false, false]);
    // pairs 1, 3 and 4 quiet on both sides: pair 2 alone left out of the test
    expect(quietPairs(head.phases, base.phases, 'c10')).toMatchObject({ left: 1, of: 4 });
  });

  it('A/B: the default allowance grows by two repeats for each trial of every extra pair', async () => {
    const list = scenarios(5);
    const h = harness(list, { maxTrials: 8, maxTimeMs: 600_000 });
    h.ctx.busy = { repeats: 0, used: 0, grows: true };
    const sides = {
      base: busySide(h, 'base', at(1000), () => false),
      head: busySide(h, 'head', at(1500), () => false),
    };
    await measureAb(h.ctx, sides, 4, 99);
    // 4 pairs cannot confirm (1/16): 4 more pairs, 8 more trials, 16 more repeats
    expect(sides.head.runner.commands).toHaveLength(8);
    expect(h.ctx.busy.repeats).toBe(16);
  });

  it('A/B: a head that stays busy past the repeats: its regression is inconclusive, named in pairs', async () => {
    const list = scenarios(5);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 0, maxTimeMs: 600_000 });
    h.ctx.busy = { repeats: 0, used: 0 };
    const sides = {
      base: busySide(h, 'base', at(1000), () => false),
      head: busySide(h, 'head', at(3000), () => true),
    };
    await measureAb(h.ctx, sides, 6, 99);
    const head = sides.head.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    const base = sides.base.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    const [row] = compareAbScenario(head, base, s.thresholds);
    expect(row?.result).toBe('inconclusive');
    expect(row?.reason).toMatch(/busy during 6 of its 6 pairs/);
  });

  it('A/B: the repeats spent, pairs with a busy trial on either side are left out of the test; the quiet pairs confirm head +50%', async () => {
    const list = scenarios(5);
    const s = list[0] as Scenario;
    const h = harness(list, { maxTrials: 12, maxTimeMs: 600_000 });
    h.ctx.busy = { repeats: 0, used: 0 };
    const sides = {
      base: busySide(h, 'base', at(1000), (n) => n === 5),
      head: busySide(h, 'head', at(1500), (n) => n === 2),
    };
    await measureAb(h.ctx, sides, 6, 99);
    const head = sides.head.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    const base = sides.base.collector.results(list, h.ctx.hashes)[0] as ScenarioResult;
    // 4 quiet pairs of 6 cannot confirm (1/16): extended to 12, of which 10 quiet (1/1024)
    expect(head.phases[0]?.trials).toHaveLength(12);
    const [row] = compareAbScenario(head, base, s.thresholds);
    expect(row).toMatchObject({ result: 'regression', pairs: 10, pValue: 0.001 });
    expect(row?.reason).toMatch(/2 of its 12 pairs left out of the test: the machine was busy/);
  });

  it('where the trial is run again: at a seeded place among those left, the same for the same seed; without a seed at once', async () => {
    const list = scenarios(4, ['c10', 'r500', 'c20']);
    const placed = async (seed: number | undefined) => {
      const h = harness(list, DEFAULT_CONFIRM);
      h.ctx.busy = { repeats: 1, used: 0 };
      const side = busySide(h, 'head', at(1000), (n) => n === 1);
      await measureOne(h.ctx, side, new Map(), seed);
      return side.runner.commands.map((c) => `${c.phase} ${c.trial}`);
    };
    const seeded = await placed(5);
    expect(seeded).toEqual(await placed(5));
    expect(seeded).toHaveLength(13);
    // the first trial's phase runs trial 1 again, not next: later in the order
    const first = seeded[0] as string;
    expect(seeded.indexOf(first, 1)).toBeGreaterThan(1);
    // without a seed (a sweep: level after level) at once
    const sequential = await placed(undefined);
    expect(sequential.slice(0, 3)).toEqual(['c10 1', 'c10 1', 'c10 2']);
  });

  it('a mix: the busy trial is put aside with its entries’ results; every entry keeps one result per kept trial', async () => {
    const raw = {
      version: 1,
      sut: { compose: 'docker-compose.yml' },
      scenarios: [
        {
          name: 's',
          trials: 3,
          requests: [
            { name: 'read', url: 'http://api:8080/r' },
            { name: 'write', url: 'http://api:8080/w' },
          ],
          phases: [{ name: 'c10', connections: 10, duration: '10s' }],
        },
      ],
    };
    const { config, problems } = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    expect(problems).toEqual([]);
    const list = config?.scenarios ?? [];
    const h = harness(list, DEFAULT_CONFIRM);
    h.ctx.busy = { repeats: 3, used: 0 };
    const side = busySide(
      h,
      'head',
      (n) => 1000 * n,
      (n) => n === 2,
    );
    side.runner.entries = ['read', 'write'];
    await measureOne(h.ctx, side, new Map(), 3);
    const [result] = side.collector.results(list, h.ctx.hashes);
    const phases = result?.phases ?? [];
    expect(phases.map((p) => [p.name, p.trials.map((t) => t.trial)])).toEqual([
      ['c10', [1, 2, 3]],
      ['c10.read', [1, 2, 3]],
      ['c10.write', [1, 2, 3]],
    ]);
    // the second trial run (p50 2000) was put aside: the kept ones are the 1st, 3rd and 4th run
    expect(phases.map((p) => p.trials.map((t) => t.latency.p50))).toEqual([
      [1000, 3000, 4000],
      [1001, 3001, 4001],
      [1002, 3002, 4002],
    ]);
    expect(phases[0]?.discarded?.map((t) => t.latency.p50)).toEqual([2000]);
    expect(phases[0]?.merged.trials).toBe(3);
  });

  it('warmup-later: a busy first trial is put aside, and the kept first trial’s warm-up decides', async () => {
    const list = scenarios(3).map((s): Scenario => ({ ...s, warmupMs: 2000, warmupLater: 'settled' }));
    const h = harness(list, undefined);
    h.ctx.busy = { repeats: 3, used: 0 };
    // the 1st run and the 3rd (the kept first trial's successor, with the shorter warm-up) are busy
    const side = busySide(h, 'head', at(1000), (n) => n === 1 || n === 3);
    // the busy first run never settled; the one that replaced it settled at 400 ms
    side.runner.warmup = (n) =>
      n === 1
        ? { windowMs: 200, rps: [10, 20, 30, 40, 50, 60, 70, 72, 75, 70] }
        : n === 2
          ? { windowMs: 200, rps: [10, 50, 90, 95, 100, 98, 99, 100, 101, 100] }
          : undefined;
    await measureOne(h.ctx, side, new Map(), 3);
    expect(side.runner.commands.map((c) => [c.trial, c.warmupMs])).toEqual([
      [1, undefined],
      [1, undefined],
      [2, 1000],
      [2, 1000],
      [3, 1000],
    ]);
    const [result] = side.collector.results(list, h.ctx.hashes);
    expect(result?.phases[0]?.warmupLater).toEqual({ settledMs: 400, laterMs: 1000 });
    expect(result?.phases[0]?.trials.map((t) => t.warmupMs)).toEqual([undefined, 1000, 1000]);
    // the trials put aside say their warm-up as kept ones do: the full one, then the shorter one
    expect(result?.phases[0]?.discarded?.map((t) => [t.trial, t.warmupMs])).toEqual([
      [1, undefined],
      [2, 1000],
    ]);
  });

  it('confirmation: a busy extra trial is run again, within gate.confirm.max-time', async () => {
    const list = scenarios(3);
    const s = list[0] as Scenario;
    const baseline = baselineOf(s, 3);
    // head +50%: open at 3 vs 3; the 5th trial run (the 2nd extra) is busy and runs again
    const h = harness(list, { maxTrials: 8, maxTimeMs: 600_000 });
    h.ctx.busy = { repeats: 5, used: 0 };
    const side = busySide(h, 'head', at(1500), (n) => n === 5);
    await measureOne(h.ctx, side, new Map([['s', baseline]]), 3);
    expect(side.runner.commands.map((c) => c.trial)).toEqual([1, 2, 3, 4, 5, 5, 6, 7, 8]);
    expect(h.ctx.busy.used).toBe(1);
    // every extra trial busy and a budget of 6.5 trials: the repeats stop with the budget, not after it
    const tight = harness(list, { maxTrials: 8, maxTimeMs: 6500 });
    tight.ctx.busy = { repeats: 20, used: 0 };
    const always = busySide(tight, 'head', at(1500), (n) => n > 3);
    await measureOne(tight.ctx, always, new Map([['s', baseline]]), 3);
    const extra = always.runner.commands.length - 3;
    expect(extra * TRIAL_MS).toBeLessThanOrEqual(6500);
    expect(tight.logs.at(-1)).toMatch(/confirmation stopped after 0 more trials \(gate\.confirm\.max-time 6\.5s\)/);
  });
});

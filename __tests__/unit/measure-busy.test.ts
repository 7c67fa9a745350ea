// gate.busy (src/session/measure.ts): a trial on a busy machine put aside and run again, measured with a
// fake runner whose machine readings the test sets.
import { derivedSeed, drawOrder, seededRandom } from '../../src/stats/random.js';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compareAbScenario } from '../../src/compare/ab.js';
import { quietPairs } from '../../src/compare/busy.js';
import { compareScenario } from '../../src/compare/compare.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Scenario } from '../../src/config-parts/types.js';
import type { ScenarioResult } from '../../src/results/types.js';
import { TrialCollector } from '../../src/session/collect.js';
import { measureAb, measureOne } from '../../src/session/measure.js';
import {
  TRIAL_MS,
  FakeRunner,
  scenarios,
  type Harness,
  DEFAULT_CONFIRM,
  harness,
  baselineOf,
  at,
} from './measure-harness.js';

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

  it.each<[string, { waitedMs: number; quiet: boolean; spent?: true }, string]>([
    ['a wait that found it quiet', { waitedMs: 3250, quiet: true }, '; waited 3.25s for the machine to quiet down'],
    ['quiet at once: nothing said', { waitedMs: 1000, quiet: true }, ''],
    ['still busy at the bound', { waitedMs: 10_000, quiet: false }, '; the machine still read busy after 10s'],
    [
      "the run's waits spent: at once, and said",
      { waitedMs: 0, quiet: false, spent: true },
      "; at once: the run's 2m of waits for a quiet machine are spent (later repeats run at once too)",
    ],
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

  it("the run's waits spent: said once, later repeats say only that they ran at once", async () => {
    const h = harness(scenarios(3), DEFAULT_CONFIRM);
    h.ctx.busy = { repeats: 3, used: 0 };
    h.ctx.quiet = async () => ({ waitedMs: 0, quiet: false, spent: true });
    await measureOne(
      h.ctx,
      busySide(h, 'head', at(1000), (n) => n === 2 || n === 3),
      new Map(),
    );
    const said = h.logs.filter((l) => l.includes('put aside')).map((l) => l.replace(/^.*repeated /, ''));
    expect(said).toEqual([
      "(1 of 3); at once: the run's 2m of waits for a quiet machine are spent (later repeats run at once too)",
      '(2 of 3); at once',
    ]);
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

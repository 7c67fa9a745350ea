// The early look (src/compare/early.ts): the upper bounds against scipy 1.17
// (stats.ttest_ind(x, y, equal_var=False, alternative='less').confidence_interval(c).high, and
// stats.ttest_1samp(d, 0, alternative='less').confidence_interval(c).high), and which phases stop.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import type { Thresholds } from '../../src/config-parts/types.js';
import {
  describeBounds,
  earlyLookAb,
  earlyLookGate,
  edgeLog,
  pairedUpper,
  welchUpper,
} from '../../src/compare/early.js';
import type { BaselineFile, PhaseResult, ScenarioResult } from '../../src/results/types.js';
import { type Measure, phase, resultsFile } from './fixtures.js';

describe('welchUpper and pairedUpper: scipy’s one-sided intervals', () => {
  it.each<[number[], number[], number, number]>([
    [[1.0, 1.2, 0.9], [1.1, 1.0, 1.05, 0.95, 1.0], 0.95, 0.2566298708180567],
    [[1.0, 1.2, 0.9], [1.1, 1.0, 1.05, 0.95, 1.0], 0.9, 0.1758846553568337],
    [[5, 6], [4, 4.5, 5, 4.2, 4.8, 5.1], 0.95, 3.2611111379428683],
    [[0.1, 0.3, 0.2, 0.25], [0.2, 0.22], 0.9, 0.07254766710498667],
  ])('welch %j against %j at %d', (x, y, c, expected) => {
    expect(welchUpper(x, y, c)).toBeCloseTo(expected, 8);
  });

  it.each<[number[], number]>([
    [[0.01, -0.02, 0.03], 0.0490930735378595],
    [[0.1, 0.2], 0.46568757573375186],
    [[-0.05, 0.01, 0.0, 0.02, -0.01, 0.03], 0.023267774415478767],
  ])('paired %j at 0.95', (d, expected) => {
    expect(pairedUpper(d, 0.95)).toBeCloseTo(expected, 8);
  });

  it('no spread: the difference itself; fewer than two values a side: no bound', () => {
    expect(welchUpper([2, 2], [1, 1, 1], 0.95)).toBe(1);
    expect(pairedUpper([0.5, 0.5], 0.95)).toBe(0.5);
    expect(welchUpper([2], [1, 1, 1], 0.95)).toBeUndefined();
    expect(pairedUpper([0.5], 0.95)).toBeUndefined();
  });
});

describe('edgeLog', () => {
  it.each<[number, 1 | -1, number]>([
    [0.1, 1, Math.log(1.1)],
    [0.1, -1, -Math.log(0.9)],
    [1, -1, Number.POSITIVE_INFINITY],
    [2, 1, Math.log(3)],
  ])('edge %d, direction %d', (edge, dir, expected) => {
    expect(edgeLog(edge, dir)).toBeCloseTo(expected, 12);
  });
});

/** A phase whose trials measured p50 `us[i]` (and rps `rps[i]`, 100 by default). */
function trials(name: string, us: number[], rps?: number[], extra: Measure = {}): PhaseResult {
  const list = us.map((v, i) => ({ ...extra, latency: { p50: v }, rps: rps?.[i] ?? 100 }));
  const m = [...us].sort((a, b) => a - b)[Math.floor(us.length / 2)] as number;
  return phase(name, { ...extra, latency: { p50: m }, rps: rps ? (rps[0] as number) : 100 }, list);
}

function scenario(phases: PhaseResult[], thresholds: Thresholds, over: Partial<ScenarioResult> = {}): ScenarioResult {
  return { name: 's', scenarioHash: 'h', phases, thresholds, ...over };
}

function baseline(phases: PhaseResult[]): BaselineFile {
  return {
    schema: 'perf-gate/baseline@1',
    scenario: 's',
    scenarioHash: 'h',
    provenance: resultsFile([], []).provenance,
    phases,
  };
}

const BASE = [1000, 1010, 990, 1005, 995];
const P50_10: Thresholds = { p50: { regress: 0.1 } };

describe('earlyLookGate', () => {
  it('3 trials within 1% of a steady baseline, band +10%: stops, each row bounded', () => {
    const look = earlyLookGate(
      scenario([trials('c10', [1002, 998, 1004])], P50_10),
      P50_10,
      baseline([trials('c10', BASE)]),
      'c10',
    );
    expect(look.stop).toBe(true);
    if (!look.stop) return;
    expect(look.rows).toHaveLength(1);
    expect(look.rows[0]).toMatchObject({ phase: 'c10', metric: 'p50', edge: 0.1 });
    expect(look.rows[0]?.bound).toBeGreaterThan(0);
    expect(look.rows[0]?.bound).toBeLessThan(0.1);
    expect(describeBounds(look.rows)).toMatch(/^c10 p50 at most \+\d\.\d% \(band \+10%\)$/);
  });

  it('the same trials against a band of +0.5%: the bound is above the edge, it goes on and says why', () => {
    const band: Thresholds = { p50: { regress: 0.005 } };
    const look = earlyLookGate(
      scenario([trials('c10', [1002, 998, 1004])], band),
      band,
      baseline([trials('c10', BASE)]),
      'c10',
    );
    expect(look).toEqual({
      stop: false,
      why: expect.stringMatching(/^c10 p50 may be \+\d\.\d% \(95% bound\), its band is \+0\.5%$/),
    });
  });

  it('noisy trials whose median is inside the band do not stop: the bound is what counts', () => {
    const look = earlyLookGate(
      scenario([trials('c10', [700, 1000, 1400])], P50_10),
      P50_10,
      baseline([trials('c10', BASE)]),
      'c10',
    );
    expect(look.stop).toBe(false);
  });

  it('a row outside its band (open while measuring) does not stop', () => {
    const look = earlyLookGate(
      scenario([{ ...trials('c10', [1500, 1510, 1490]), confirm: { first: 5, cap: 12 } }], P50_10),
      P50_10,
      baseline([trials('c10', BASE)]),
      'c10',
    );
    expect(look).toEqual({ stop: false, why: 'c10 p50 is open' });
  });

  it('a rate is bounded in its own worse direction: rps down', () => {
    const band: Thresholds = { rps: { regress: 0.1 } };
    const base = baseline([trials('c10', BASE, [1000, 1010, 990, 1000, 1000])]);
    const steady = earlyLookGate(
      scenario([trials('c10', [1000, 1000, 1000], [1001, 999, 1002])], band),
      band,
      base,
      'c10',
    );
    expect(steady.stop).toBe(true);
    const slower = earlyLookGate(
      scenario([trials('c10', [1000, 1000, 1000], [920, 880, 905])], band),
      band,
      base,
      'c10',
    );
    expect(slower).toEqual({
      stop: false,
      why: expect.stringMatching(/^c10 rps may be -\d+(\.\d)?% \(95% bound\), its band is -10%$/),
    });
  });

  it('a band shown as information, and a row without a band, are not bounded', () => {
    const band: Thresholds = { p50: { regress: 0.005, inform: true }, p99: { limit: 1e9 } };
    const look = earlyLookGate(
      scenario([trials('c10', [1002, 998, 1004])], band),
      band,
      baseline([trials('c10', BASE)]),
      'c10',
    );
    expect(look).toEqual({ stop: true, rows: [] });
  });

  /** A phase of `errors[i]` timeouts in trial i, its merged count their sum (as merge.ts adds them). */
  const withErrors = (name: string, us: number[], errors: number[], confirm?: { first: number; cap: number }) => {
    const p = trials(name, us);
    p.trials = p.trials.map((t, i) => ({ ...t, errors: { timeout: errors[i] as number } }));
    p.merged = { ...p.merged, errors: { timeout: errors.reduce((a, b) => a + b, 0) } };
    return confirm ? { ...p, confirm } : p;
  };

  it('an errors row with a band: clear only when no worse a trial than the baseline (a count adds up over trials)', () => {
    const band: Thresholds = { p50: { regress: 0.1 }, errors: { regress: 0.5, floor: 10 } };
    const base = baseline([withErrors('c10', BASE, [10, 10, 10, 10, 10])]);
    const looks = { first: 5, cap: 12 };
    const same = withErrors('c10', [1000, 1001, 999], [10, 9, 11], looks);
    expect(earlyLookGate(scenario([same], band), band, base, 'c10').stop).toBe(true);
    // 48 errors in 3 trials against 50 in 5: fewer in all, 60% more a trial
    const more = withErrors('c10', [1000, 1001, 999], [16, 16, 16], looks);
    expect(earlyLookGate(scenario([more], band), band, base, 'c10')).toEqual({
      stop: false,
      why: "c10 errors is worse a trial than the baseline's",
    });
  });

  it('a limit on a count is checked on what the configured trials would add up to', () => {
    const band: Thresholds = { p50: { regress: 0.1 }, errors: { limit: 40 } };
    const base = baseline([withErrors('c10', BASE, [10, 10, 10, 10, 10])]);
    // 30 in 3 trials passes the limit of 40, 50 in 5 would not
    const current = withErrors('c10', [1000, 1001, 999], [10, 10, 10], { first: 5, cap: 12 });
    expect(earlyLookGate(scenario([current], band), band, base, 'c10')).toEqual({
      stop: false,
      why: "c10 errors above the limit 40 at the configured trials' pace",
    });
    const few = withErrors('c10', [1000, 1001, 999], [2, 2, 2], { first: 5, cap: 12 });
    expect(earlyLookGate(scenario([few], band), band, base, 'c10').stop).toBe(true);
  });

  it("a mix's entry is part of its phase: an entry that is not clear keeps the phase running", () => {
    const gated: Thresholds = { p50: { regress: 0.1 } };
    const entry = (us: number[]) => ({ ...trials('c10.read', us), request: 'read' });
    const current = (us: number[]) =>
      scenario([trials('c10', [1002, 998, 1004]), entry(us)], gated, {
        requestThresholds: { read: { p50: { regress: 0.02 } } },
      });
    const base = baseline([trials('c10', BASE), entry(BASE)]);
    expect(earlyLookGate(current([1001, 999, 1000]), gated, base, 'c10').stop).toBe(true);
    const noisy = earlyLookGate(current([1030, 990, 1010]), gated, base, 'c10');
    expect(noisy).toEqual({ stop: false, why: expect.stringMatching(/^c10\.read p50 may be/) });
  });
});

describe('earlyLookAb', () => {
  const band: Thresholds = { p50: { regress: 0.05 } };
  it('3 pairs whose ratios agree within 1%: stops', () => {
    const base = scenario([trials('c10', [1000, 1100, 950])], band);
    const head = scenario([trials('c10', [1005, 1098, 955])], band);
    expect(earlyLookAb(head, base, band, 'c10').stop).toBe(true);
  });

  it('gate.busy: the pairs it leaves out of the verdict are left out of the bound too (issue 47)', () => {
    const busyAt = (p: PhaseResult, i: number): PhaseResult => ({
      ...p,
      trials: p.trials.map((t, k) => (k === i ? { ...t, busy: true as const } : t)),
      confirm: { first: 6, cap: 12 },
    });
    // pair 4's head trial ran on a busy machine (3× slower): over every pair the bound is wide
    const base = scenario([busyAt(trials('c10', [1000, 1100, 950, 1000]), -1)], band);
    const head = scenario([busyAt(trials('c10', [1001, 1099, 951, 3000]), 3)], band);
    expect(earlyLookAb(head, base, band, 'c10').stop).toBe(true);
    // the same numbers without the busy mark: every pair is bounded, and it goes on
    const unmarked = scenario([{ ...trials('c10', [1001, 1099, 951, 3000]), confirm: { first: 6, cap: 12 } }], band);
    expect(earlyLookAb(unmarked, base, band, 'c10').stop).toBe(false);
  });

  it('3 pairs whose ratios spread ±4%: the paired bound is above +5%, it goes on', () => {
    const base = scenario([trials('c10', [1000, 1100, 950])], band);
    const head = scenario([trials('c10', [1040, 1060, 960])], band);
    expect(earlyLookAb(head, base, band, 'c10')).toEqual({
      stop: false,
      why: expect.stringMatching(/^c10 p50 may be \+/),
    });
  });
});

describe('the report’s environment section', () => {
  it('names the phases that stopped at their early look, and not the mix entries', async () => {
    const { renderMarkdown } = await import('./render-markdown.js');
    const stopped = { ...trials('c10', [1000, 1001, 999]), confirm: { first: 5, cap: 12, stopped: 3 } };
    const entry = {
      ...trials('c10.read', [1000, 1001, 999]),
      request: 'read',
      confirm: { first: 5, cap: 12, stopped: 3 },
    };
    const ran = { ...trials('c20', [1000, 1001, 999, 1000, 1002]), confirm: { first: 5, cap: 12 } };
    const md = renderMarkdown(resultsFile([scenario([stopped, entry, ran], P50_10, { name: 'api<x>' })], []));
    expect(md).toContain(
      "- early look (gate.early-look): 1 of 2 phases stopped before their configured trials, every row's change inside its band at 95% confidence: api&lt;x&gt;/c10 (3 of 5); their power is stated for their trials repeated up to the configured count",
    );
    expect(renderMarkdown(resultsFile([scenario([ran], P50_10)], []))).not.toContain('early look');
  });
});

describe('gate.early-look: the config key', () => {
  it.each<[string, unknown, string[], number | undefined]>([
    ['not given: the default, 3', undefined, [], 3],
    ['3', 3, [], 3],
    ['100', 100, [], 100],
    ['off', 'off', [], undefined],
    ['one trial', 1, ['gate.early-look: must be an integer from 2 to 100, or off'], undefined],
    ['a fraction', 2.5, ['gate.early-look: must be an integer from 2 to 100, or off'], undefined],
    ['text', 'three', ['gate.early-look: must be an integer from 2 to 100, or off'], undefined],
  ])('%s', (_label, value, problems, earlyLook) => {
    const raw = {
      version: 1,
      sut: { compose: 'docker-compose.yml' },
      ...(value !== undefined ? { gate: { 'early-look': value } } : {}),
      scenarios: [
        { name: 's', request: { url: 'http://api/' }, phases: [{ name: 'c1', connections: 1, duration: '1s' }] },
      ],
    };
    const got = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    expect(got.problems).toEqual(problems);
    if (problems.length === 0) expect(got.config?.gate.earlyLook).toBe(earlyLook);
  });
});

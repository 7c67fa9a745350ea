// False alarms per run (gate.run-alpha, issue 33): the run's budget split over its gated phases, the
// rows of one phase tested together (compare/family.ts, compare/run-budget.ts, stats/joint.ts).
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compareAbScenario } from '../../src/compare/ab.js';
import { compareScenario } from '../../src/compare/compare.js';
import { phaseFamily, rowAlpha } from '../../src/compare/family.js';
import { jointMannWhitney } from '../../src/stats/joint.js';
import { AGAINST_BASELINES, PAIRED } from '../../src/compare/judging.js';
import { confirmationReach } from '../../src/compare/reach.js';
import { familyMembers, withFamily } from '../../src/compare/run-budget.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config, Family, Thresholds } from '../../src/config-parts/types.js';
import { judgedVerdict } from '../../src/modes/judged.js';
import type { PhaseResult, ScenarioResult } from '../../src/results/types.js';
import { renderMarkdown } from './render-markdown.js';
import { mannWhitneyGreater } from '../../src/stats/mann-whitney.js';
import { type Measure, phase, resultsFile, baselineOf } from './fixtures.js';

type Raw = Record<string, unknown>;

function config(gate: Raw, scenarios: Raw[]): { config?: Config; problems: string[] } {
  const raw = { version: 1, sut: { compose: 'docker-compose.yml' }, gate, scenarios };
  const { config: parsed, problems } = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  return { ...(parsed ? { config: parsed } : {}), problems };
}

const twoPhases = [
  { name: 'c1', connections: 1, duration: '1s' },
  { name: 'c10', connections: 10, duration: '1s' },
];

describe('gate.run-alpha: the config key', () => {
  it.each<[string, unknown, string[]]>([
    ['1%', 0.01, []],
    ['a half', 0.5, []],
    ['zero', 0, ['gate.run-alpha: must be a number between 0 and 0.5, or off']],
    ['over a half', 0.7, ['gate.run-alpha: must be a number between 0 and 0.5, or off']],
    ['text', '1%', ['gate.run-alpha: must be a number between 0 and 0.5, or off']],
  ])('%s', (_label, value, problems) => {
    const got = config({ 'run-alpha': value }, [{ name: 's', request: { url: 'http://api/' }, phases: twoPhases }]);
    expect(got.problems).toEqual(problems);
    if (problems.length === 0) expect(got.config?.gate.runAlpha).toBe(value);
  });
});

describe('the reach check says what would help, and only that (issue 47 review)', () => {
  const one = (over: Raw = {}, name = 's'): Raw => ({
    name,
    request: { url: 'http://api/' },
    phases: [{ name: 'c1', connections: 1, duration: '30s' }],
    ...over,
  });
  const gateOf = (c: Config) => judgedVerdict('gate', AGAINST_BASELINES, c, 'gate');

  it('a run-alpha no value can reach is not suggested (trials 1, 5 phases: 3/25 at 24, above 0.5 / 5)', () => {
    const c = config(
      {},
      [1, 2, 3, 4, 5].map((i) => one({ trials: 1 }, `s${i}`)),
    ).config as Config;
    const [line] = gateOf(c).problems;
    expect(line).toContain('a row that moves alone gets p 0.12 at best at 24 trials');
    expect(line).not.toContain('raise gate.run-alpha');
  });

  it("a threshold's own stricter alpha decides: that is what is named, not the run's budget", () => {
    const c = config({}, [one({ thresholds: { p50: { regress: '10%', alpha: 0.000001 } } })]).config as Config;
    const [line] = gateOf(c).problems;
    expect(line).toContain("raise the thresholds' own alpha (0.000001 decides here)");
    expect(line).not.toContain('raise gate.run-alpha');
    expect(line).not.toContain('phases with a band');
  });

  it('a grown cap the time budget cannot afford is a note: 21 more trials of 35 s against 10 minutes', () => {
    const c = config({}, [one({ trials: 2 })]).config as Config;
    expect(gateOf(c).notes).toContain(
      'scenario s, phase c1: gate.confirm.max-time (10m) allows about 17 more trials of 35s, fewer than the 21 up to its cap (23); a change its rows could only confirm there would stay inconclusive — raise gate.confirm.max-time',
    );
    const roomy = config({ confirm: { 'max-time': '20m' } }, [one({ trials: 2 })]).config as Config;
    expect(gateOf(roomy).notes.filter((n) => n.includes('max-time'))).toEqual([]);
  });
});

describe('gate.run-alpha: safe by default (issue 47)', () => {
  it.each<[string, Raw, number | undefined]>([
    ['not given: the budget, 1%', {}, 0.01],
    ['given', { 'run-alpha': 0.05 }, 0.05],
    ['off: each row at its own alpha', { 'run-alpha': 'off' }, undefined],
  ])('%s', (_label, gate, runAlpha) => {
    const got = config(gate, [{ name: 's', request: { url: 'http://api/' }, phases: twoPhases }]);
    expect(got.problems).toEqual([]);
    expect(got.config?.gate.runAlpha).toBe(runAlpha);
  });
});

let named = 0;

describe('the gated phases that share a run budget', () => {
  const scenario = (over: Raw = {}): Raw => ({
    name: `s${++named}`,
    request: { url: 'http://api/' },
    phases: twoPhases,
    ...over,
  });

  it.each<[string, Raw[], number]>([
    ['one scenario, two phases, the built-in bands', [scenario()], 2],
    ['two such scenarios', [scenario(), scenario()], 4],
    ['absolute limits only: nothing tested', [scenario({ thresholds: { p99: { below: '50ms' } } })], 0],
    [
      'a mix whose entry has a band of its own: the entry counts per phase',
      [
        scenario({
          request: undefined,
          requests: [
            { name: 'read', weight: 3, url: 'http://api/r', thresholds: { p50: { regress: '10%' } } },
            { name: 'write', weight: 1, url: 'http://api/w' },
          ],
        }),
      ],
      4,
    ],
  ])('%s: %i', (_label, scenarios, members) => {
    const { config: c, problems } = config({ 'run-alpha': 0.01 }, scenarios);
    expect(problems).toEqual([]);
    expect(familyMembers((c as Config).scenarios, AGAINST_BASELINES)).toBe(members);
    const marked = withFamily((c as Config).scenarios, AGAINST_BASELINES, 0.01);
    expect(marked.map((s) => s.family)).toEqual(marked.map(() => (members ? { alpha: 0.01, members } : undefined)));
  });

  it('without a budget, each row at its own alpha or the default', () => {
    expect(rowAlpha({ alpha: 0.02 }, undefined, 0.01)).toBe(0.02);
    expect(rowAlpha({}, undefined, 0.01)).toBe(0.01);
    expect(rowAlpha({ alpha: 0.02 }, { alpha: 0.01, members: 4 }, 0.05)).toBe(0.0025);
  });
});

describe('the reach check spends the phase share', () => {
  const scenarios = (trials: number) =>
    Array.from({ length: 6 }, (_, i) => ({
      name: `s${i}`,
      trials,
      request: { url: 'http://api/' },
      phases: twoPhases,
    }));

  it('12 gated phases at a 1% budget: 5 trials reach 0.083% through confirmation; 3 never do, said with the budget', () => {
    const five = config({ 'run-alpha': 0.01 }, scenarios(5)).config as Config;
    expect(judgedVerdict('gate', AGAINST_BASELINES, five, 'gate').problems).toEqual([]);
    expect(judgedVerdict('gate', AGAINST_BASELINES, five, 'gate').notes[0]).toBe(
      // six scenarios alike: one note naming them
      'scenarios s0, s1, s2 and 3 more: 5 trials alone cannot reach p ≤ 0.00083 (gate.run-alpha 0.01 over 12 gated phases) against a 5-trial baseline (the smallest p is 0.004); every row outside its band will run more trials, up to 12 (gate.confirm.max-trials)',
    );
    const three = config({ 'run-alpha': 0.01 }, scenarios(3)).config as Config;
    const refused = judgedVerdict('gate', AGAINST_BASELINES, three, 'gate').problems;
    // six scenarios alike: one line, their key without its index
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(
      /^trials \(3\) with gate\.confirm\.max-trials \(12, grown as far as 24\): scenarios s0, s1, s2 and 3 more, their/,
    );
    expect(refused[0]).toContain(
      'can never confirm a change at alpha 0.00083 (gate.run-alpha 0.01 over 12 gated phases)',
    );
    // tested together, a row moving alone is charged for the phase's three: what would reach, each on its own
    expect(refused[0]).toContain(
      'against a 3-trial baseline (tested together, a row that moves alone gets p 0.001 at best at 24 trials, above 0.00083); raise trials or gate.confirm.max-trials (max-trials 26 reaches), raise gate.run-alpha (0.013 reaches), gate at most 9 phases with a band, band fewer rows, or make',
    );
    // the same config without a budget: each row at 0.01, which 12 v 3 trials reach
    const perRow = config({}, scenarios(3)).config as Config;
    expect(confirmationReach(perRow, AGAINST_BASELINES).problems).toEqual([]);
  });

  it('what the refusal says would reach does, and a step short of it does not: run-alpha and the phases', () => {
    const problems = (c: Config, mode: 'gate' | 'ab') =>
      judgedVerdict(mode, mode === 'gate' ? AGAINST_BASELINES : PAIRED, c, 'gate').problems;
    // k one-phase scenarios, each at `trials` and confirmation capped where given
    const phases = (k: number, trials: number, gate: Raw) =>
      config(
        gate,
        Array.from({ length: k }, (_, i) => ({
          name: `s${i}`,
          trials,
          request: { url: 'http://api/' },
          phases: [twoPhases[0]],
        })),
      ).config as Config;
    for (const [mode, k, trials, gate] of [
      ['gate', 12, 3, { 'run-alpha': 0.01 }],
      ['gate', 30, 4, { 'run-alpha': 0.01, confirm: { 'max-trials': 10 } }],
      ['ab', 20, 5, { 'run-alpha': 0.01, confirm: { 'max-trials': 12 } }],
      ['ab', 40, 5, { 'run-alpha': 0.02, confirm: { 'max-trials': 10 } }],
    ] as const) {
      const at = (g: Raw, n: number = k) => problems(phases(n, trials, { ...gate, ...g }), mode);
      const [line] = at({});
      expect(line, `${mode} ${k}`).toBeDefined();
      const runAlpha = Number(/raise gate\.run-alpha \(([\d.]+) reaches\)/.exec(line as string)?.[1]);
      const most = Number(/gate at most (\d+) phases? with a band/.exec(line as string)?.[1]);
      expect(at({ 'run-alpha': runAlpha }), `${mode} ${k}: ${line}`).toEqual([]);
      // the grid's step below it (two significant digits)
      const step = 10 ** (Math.floor(Math.log10(runAlpha)) - 1);
      expect(at({ 'run-alpha': +(runAlpha - step).toPrecision(2) }), `${mode} ${k}`).not.toEqual([]);
      expect(at({}, most), `${mode} ${k}: ${line}`).toEqual([]);
      expect(at({}, most + 1), `${mode} ${k}`).not.toEqual([]);
    }
  });

  it('A/B counts its own gated phases, at its own budget', () => {
    const c = config({ 'run-alpha': 0.05 }, scenarios(5)).config as Config;
    const problems = judgedVerdict('ab', PAIRED, c, 'gate').problems;
    // 0.05 / 12 = 0.0042: 12 pairs (smallest p 1/4096) reach it
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// the comparison

/** A phase whose trial i measured p50 = p50s[i], p99 = p99s[i], rps = rps[i]. */
function trialsPhase(p50s: number[], p99s: number[], rps: number[], cap = p50s.length): PhaseResult {
  const trials: Measure[] = p50s.map((v, i) => ({
    latency: { p50: v, p99: p99s[i] as number },
    rps: rps[i] as number,
  }));
  const mid = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;
  const p = phase('c10', { latency: { p50: mid(p50s), p99: mid(p99s) }, rps: mid(rps) }, trials);
  return { ...p, confirm: { first: Math.min(5, p50s.length), cap } };
}

const scenario = (p: PhaseResult, family?: Family): ScenarioResult => ({
  name: 'search',
  scenarioHash: 'sha256:x',
  phases: [p],
  ...(family ? { family } : {}),
});

const baseline = (p: PhaseResult) => baselineOf('search', 'sha256:x', [p]);

const BANDS: Thresholds = { p50: { regress: 0.1 }, p99: { regress: 0.25 }, rps: { regress: 0.1 } };
const old = trialsPhase([1000, 1010, 1020, 1030, 1040], [5000, 5100, 5200, 5300, 5400], [900, 910, 920, 930, 940]);

describe('compareScenario under a run budget', () => {
  // +50% on every trial of every row: the three rows always agree
  const slower = trialsPhase(
    [1500, 1510, 1520, 1530, 1540],
    [7500, 7600, 7700, 7800, 7900],
    [600, 610, 620, 630, 640],
    12,
  );

  it('one gated phase: rows that always agree are confirmed as one would be, at p 1/252', () => {
    const { comparisons } = compareScenario(scenario(slower, { alpha: 0.01, members: 1 }), BANDS, baseline(old));
    expect(comparisons.map((c) => [c.metric, c.result, c.pValue])).toEqual([
      ['p50', 'regression', 0.004],
      ['p99', 'regression', 0.004],
      ['rps', 'regression', 0.004],
    ]);
  });

  it('12 gated phases: the first look cannot reach the share; the row stays open for more trials', () => {
    const { comparisons } = compareScenario(
      scenario(slower, { alpha: 0.01, members: 12 }),
      BANDS,
      baseline(old),
      false,
    );
    expect(comparisons.map((c) => [c.metric, c.result, c.open])).toEqual([
      ['p50', 'inconclusive', true],
      ['p99', 'inconclusive', true],
      ['rps', 'inconclusive', true],
    ]);
    // with its 7 more trials, all slower, 12 v 5 gives 1/6188 ≤ 0.00083
    const twelve = trialsPhase(
      [1500, 1510, 1520, 1530, 1540, 1550, 1560, 1570, 1580, 1590, 1600, 1610],
      [7500, 7600, 7700, 7800, 7900, 8000, 8100, 8200, 8300, 8400, 8500, 8600],
      [600, 610, 620, 630, 640, 650, 660, 670, 680, 690, 700, 710],
      12,
    );
    const after = compareScenario(scenario(twelve, { alpha: 0.01, members: 12 }), BANDS, baseline(old));
    expect(after.comparisons.map((c) => [c.metric, c.result, c.extraTrials])).toEqual([
      ['p50', 'regression', 7],
      ['p99', 'regression', 7],
      ['rps', 'regression', 7],
    ]);
  });

  it("rows that do not agree: a row's p is adjusted for the others", () => {
    // p50 fully separated; p99 and rps inside their bands, each with values of its own (no ties), whose
    // most extreme relabellings are two others: 3 of the 252 relabellings reach p50's own 1/252
    const cur = trialsPhase(
      [1500, 1510, 1520, 1530, 1540],
      [5050, 5150, 5250, 5350, 5450],
      [915, 905, 935, 925, 945],
      5,
    );
    const own = mannWhitneyGreater([1500, 1510, 1520, 1530, 1540], [1000, 1010, 1020, 1030, 1040]).pValue;
    expect(own).toBeCloseTo(1 / 252, 12);
    const [p50] = compareScenario(scenario(cur, { alpha: 0.05, members: 1 }), BANDS, baseline(old)).comparisons;
    expect(p50).toMatchObject({ result: 'regression', pValue: Math.round((3 / 252) * 10_000) / 10_000 });
    // without a budget the same row has its own p
    const [plain] = compareScenario(
      scenario(cur),
      { ...BANDS, p50: { regress: 0.1, alpha: 0.05 } },
      baseline(old),
    ).comparisons;
    expect(plain?.pValue).toBe(Math.round(own * 10_000) / 10_000);
  });

  it('a row judged without the test (beyond an absolute limit) does not widen the others’ adjustment', () => {
    const cur = trialsPhase(
      [1500, 1510, 1520, 1530, 1540],
      [5050, 5150, 5250, 5350, 5450],
      [915, 905, 935, 925, 945],
      5,
    );
    const bands: Thresholds = { p50: { regress: 0.1 }, p99: { regress: 0.25, limit: 5000 } };
    const [p50, p99] = compareScenario(scenario(cur, { alpha: 0.05, members: 1 }), bands, baseline(old)).comparisons;
    expect(p99).toMatchObject({ result: 'regression', reason: expect.stringContaining('above the limit') });
    // p50 alone in its phase's test: its own 1/252
    expect(p50).toMatchObject({ result: 'regression', pValue: 0.004 });
  });

  it('A/B: the pairs of a phase, sign-flipped together', () => {
    const base = trialsPhase(
      [1000, 1010, 1020, 1030, 1040, 1050],
      [5000, 5100, 5200, 5300, 5400, 5500],
      [900, 910, 920, 930, 940, 950],
    );
    const head = trialsPhase(
      [1500, 1510, 1520, 1530, 1540, 1550],
      [7500, 7600, 7700, 7800, 7900, 8000],
      [600, 610, 620, 630, 640, 650],
      6,
    );
    const rows = compareAbScenario(scenario(head, { alpha: 0.05, members: 1 }), scenario(base), BANDS);
    // six pairs all worse, rows that agree: p = 1/64 for each, as alone, ≤ 0.05
    expect(rows.map((c) => [c.metric, c.result, c.pValue])).toEqual([
      ['p50', 'regression', 0.0156],
      ['p99', 'regression', 0.0156],
      ['rps', 'regression', 0.0156],
    ]);
    // 4 gated phases: 0.0125 a phase, below 1/64, and confirmation is off here
    const four = compareAbScenario(scenario(head, { alpha: 0.05, members: 4 }), scenario(base), BANDS);
    expect(four.map((c) => c.result)).toEqual(['inconclusive', 'inconclusive', 'inconclusive']);
  });
});

describe('the report says how false alarms are bounded', () => {
  const row = (phaseName: string) => ({
    scenario: 'search',
    phase: phaseName,
    metric: 'p50',
    baseline: 1000,
    current: 1000,
    delta: 0,
    band: '+10%',
    result: 'pass' as const,
  });

  it.each<[string, Family | undefined, string[], string | undefined]>([
    [
      'a run budget',
      { alpha: 0.01, members: 12 },
      ['c1', 'c10'],
      '- false alarms: at most 1% of unchanged runs raise any band alarm (gate.run-alpha 0.01), 0.083% for each of 12 gated phases; the rows of a phase are tested together',
    ],
    [
      'none, several gated phases',
      undefined,
      ['c1', 'c10'],
      "- false alarms: each row at its own alpha, over 2 gated phases: an unchanged run can raise one more often than any row does (gate.run-alpha bounds the run's rate)",
    ],
    ['none, one gated phase', undefined, ['c1'], undefined],
  ])('%s', (_label, family, phases, line) => {
    const scenarios: ScenarioResult[] = [
      { name: 'search', scenarioHash: 'x', phases: [], ...(family ? { family } : {}) },
    ];
    const md = renderMarkdown(resultsFile(scenarios, phases.map(row)));
    const got = md.split('\n').find((l) => l.startsWith('- false alarms:'));
    expect(got).toBe(line);
  });
});

describe('the power search under a run budget: the joint test with one row made worse', () => {
  it('pShifted is the joint p with that row alone scaled (cycled to the cap), the others as measured', () => {
    const cur = trialsPhase([1000, 1020, 1040, 1010, 1030], [5050, 5150, 5250, 5350, 5450], [915, 905, 935, 925, 945]);
    const group = phaseFamily(
      { alpha: 0.05, members: 1 },
      BANDS,
      cur,
      old,
      (metrics, current, baseline, k, shift) =>
        jointMannWhitney(
          metrics.map((m) => {
            const dir = m === 'rps' ? -1 : 1;
            const x = Array.from({ length: k }, (_, i) => {
              const t = current.trials[i % current.trials.length]!;
              const v = m === 'rps' ? t.rps : (t.latency[m as 'p50' | 'p99'] as number);
              return dir * (m === shift?.metric ? v * (1 + dir * shift.d) : v);
            });
            const y = baseline.trials.map(
              (t) => dir * (m === 'rps' ? t.rps : (t.latency[m as 'p50' | 'p99'] as number)),
            );
            return { x, y };
          }),
        ),
      () => true,
      (k) => k <= 7,
    );
    // the row moved by 10% at 7 trials (cycled): what the hand-built rows give
    const p50 = [1000, 1020, 1040, 1010, 1030, 1000, 1020].map((v) => v * 1.1);
    const want = jointMannWhitney([
      { x: p50, y: [1000, 1010, 1020, 1030, 1040] },
      { x: [5050, 5150, 5250, 5350, 5450, 5050, 5150], y: [5000, 5100, 5200, 5300, 5400] },
      { x: [-915, -905, -935, -925, -945, -915, -905], y: [-900, -910, -920, -930, -940] },
    ])[0];
    expect(group.pShifted('p50', 0.1, 7)).toBeCloseTo(want as number, 12);
    // a count whose test would sample: the caller bounds instead
    expect(group.pShifted('p50', 0.1, 12)).toBeUndefined();
    expect(group.pShifted('p90', 0.1, 7)).toBeUndefined();
  });
});

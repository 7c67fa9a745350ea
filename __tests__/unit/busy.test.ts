// gate.busy's verdict rule (src/compare/busy.ts): a row whose phase still judges a trial taken on a busy
// machine cannot regress on a metric that scales; counts are judged as before.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import type { BusySettings, Config } from '../../src/config-parts/types.js';
import {
  busyRepeats,
  busyTrials,
  busyVerdict,
  plannedTrials,
  quietPairs,
  quietVerdict,
} from '../../src/compare/busy.js';
import { renderMarkdown } from './render-markdown.js';
import type { Comparison, PhaseResult, ScenarioResult } from '../../src/results/types.js';
import { phase, resultsFile } from './fixtures.js';

const row = (metric: string, result: Comparison['result'], reason?: string): Comparison => ({
  scenario: 'api',
  phase: 'c10',
  metric,
  baseline: 1000,
  current: 2000,
  delta: 1,
  band: '+10%',
  result,
  ...(reason ? { reason } : {}),
});

describe('busyVerdict', () => {
  const busy = { busy: 2, of: 5 };
  it.each<[string, Comparison, { busy: number; of: number }, Comparison['result'], string | undefined]>([
    ['a p50 regression with busy trials: inconclusive', row('p50', 'regression'), busy, 'inconclusive', 'busy'],
    ['a p99.9 regression: percentiles scale too', row('p99.9', 'regression'), busy, 'inconclusive', 'busy'],
    ['an rps regression: throughput scales', row('rps', 'regression'), busy, 'inconclusive', 'busy'],
    ['a cpu regression: resources scale', row('cpu', 'regression'), busy, 'inconclusive', 'busy'],
    ['errors are counts: the regression stands', row('errors', 'regression'), busy, 'regression', undefined],
    ['a new error class stands', row('error-class', 'regression'), busy, 'regression', undefined],
    ['no busy trial: the regression stands', row('p50', 'regression'), { busy: 0, of: 5 }, 'regression', undefined],
    ['a pass is left as it is', row('p50', 'pass'), busy, 'pass', undefined],
    ['an invalid row is left as it is', row('p50', 'invalid'), busy, 'invalid', undefined],
  ])('%s', (_label, input, found, result, reason) => {
    const out = busyVerdict(input, found, 'trials');
    expect(out.result).toBe(result);
    if (reason)
      expect(out.reason).toBe(
        'the machine was busy during 2 of its 5 trials (gate.busy), more than its repeats could replace: a slower machine, not the change, may be what made it worse',
      );
    else expect(out).toEqual(input);
  });

  it('keeps the reason the row had, and names pairs in A/B', () => {
    const out = busyVerdict(row('p50', 'regression', 'beyond +10%'), { busy: 1, of: 6 }, 'pairs');
    expect(out.reason).toMatch(/^beyond \+10%; the machine was busy during 1 of its 6 pairs \(gate\.busy\)/);
  });
});

describe('quietPairs: A/B leaves the pairs with a busy trial out of its tests (issue 47)', () => {
  /** a phase of `n` trials, those at `busy` (0-based) marked busy, with `confirm` looks */
  const side = (n: number, busy: number[], confirm?: PhaseResult['confirm'], name = 'c10'): PhaseResult => {
    const p = phase(
      name,
      {},
      Array.from({ length: n }, () => ({})),
    );
    return {
      ...p,
      trials: p.trials.map((t, i) => ({ ...t, trial: i + 1, ...(busy.includes(i) ? { busy: true as const } : {}) })),
      ...(confirm ? { confirm } : {}),
    };
  };
  it.each<
    [string, PhaseResult, PhaseResult, { left: number; of: number; trials: number[]; confirm?: unknown } | undefined]
  >([
    [
      'a busy head pair and a busy base pair: both left out, the first look at 4',
      side(6, [1], { first: 6, cap: 12 }),
      side(6, [3], { first: 6, cap: 12 }),
      { left: 2, of: 6, trials: [1, 3, 5, 6], confirm: { first: 4, cap: 10 } },
    ],
    [
      'both sides busy in the same pair: one pair left out',
      side(6, [2], { first: 6, cap: 12 }),
      side(6, [2], { first: 6, cap: 12 }),
      { left: 1, of: 6, trials: [1, 2, 4, 5, 6], confirm: { first: 5, cap: 11 } },
    ],
    [
      'a busy extra pair: the first look keeps its 6, the cap shrinks',
      side(9, [7], { first: 6, cap: 9 }),
      side(9, [], { first: 6, cap: 9 }),
      { left: 1, of: 9, trials: [1, 2, 3, 4, 5, 6, 7, 9], confirm: { first: 6, cap: 8 } },
    ],
    [
      'stopped at its early look: the look shrinks with it',
      side(3, [0], { first: 6, cap: 12, stopped: 3 }),
      side(3, [], { first: 6, cap: 12, stopped: 3 }),
      { left: 1, of: 3, trials: [2, 3], confirm: { first: 5, cap: 11, stopped: 2 } },
    ],
    ['no busy pair: every pair judged', side(6, []), side(6, []), undefined],
    [
      'one quiet pair in the first look: every pair judged, however many quiet extra pairs followed',
      side(12, [], { first: 6, cap: 12 }),
      side(12, [0, 1, 2, 3, 4], { first: 6, cap: 12 }),
      undefined,
    ],
    ['one quiet pair would be left: every pair judged (busyVerdict)', side(3, [0, 1]), side(3, [2]), undefined],
  ])('%s', (_label, head, base, expected) => {
    const q = quietPairs([head], [base], 'c10');
    if (!expected) return expect(q).toBeUndefined();
    expect(q).toMatchObject({ left: expected.left, of: expected.of });
    for (const p of [head, base]) {
      const kept = q?.keep(p);
      expect(kept?.trials.map((t) => t.trial)).toEqual(expected.trials);
      expect(kept?.confirm).toEqual(expected.confirm);
    }
  });

  it("a mix entry's pairs follow its phase's busy trials", () => {
    const entry = { ...side(4, [], undefined, 'c10.login'), request: 'login' };
    const q = quietPairs([side(4, [2]), entry], [side(4, [])], 'c10.login');
    expect(q?.keep(entry).trials.map((t) => t.trial)).toEqual([1, 2, 4]);
  });

  it.each<[string, Comparison, string | undefined]>([
    [
      'a band’s regression on a metric that scales says what was left out',
      { ...row('p50', 'regression'), pValue: 0.001 },
      'r',
    ],
    ['an inconclusive one too, after its own reason', row('p99', 'inconclusive', 'not confirmed'), 'i'],
    ['a pass is left as it is', row('p50', 'pass'), undefined],
    ['an improvement is left as it is', row('p50', 'improvement'), undefined],
    ['an invalid row is left as it is', row('p50', 'invalid', 'too few samples'), undefined],
    ['a count is left as it is', row('errors', 'regression'), undefined],
  ])('quietVerdict: %s', (_label, input, said) => {
    const out = quietVerdict(input, { left: 2, of: 8, keep: (p) => p });
    const why =
      '2 of its 8 pairs left out of the test: the machine was busy during them (gate.busy), more than its repeats could replace';
    if (!said) return expect(out).toEqual(input);
    expect(out.result).toBe(input.result);
    expect(out.reason).toBe(input.reason ? `${input.reason}; ${why}` : why);
  });

  it('quietVerdict: a broken limit is held to the merged value, busy pairs and all: inconclusive, as busyVerdict makes it', () => {
    const out = quietVerdict(row('p99', 'regression', 'p99 2ms above its limit 1.5ms'), {
      left: 2,
      of: 8,
      keep: (p) => p,
    });
    expect(out.result).toBe('inconclusive');
    expect(out.reason).toMatch(/^p99 2ms above its limit 1\.5ms; the machine was busy during 2 of its 8 pairs/);
  });
});

describe('busyTrials: a mix entry is judged with its phase’s trials', () => {
  const marked = (p: PhaseResult, busy: number[]): PhaseResult => ({
    ...p,
    trials: p.trials.map((t, i) => (busy.includes(i) ? { ...t, busy: true as const } : t)),
  });
  const phases = [
    marked(phase('c10', {}, [{}, {}, {}]), [1]),
    { ...phase('c10.login', {}, [{}, {}, {}]), request: 'login' },
    phase('c100', {}, [{}, {}]),
  ];
  it.each<[string, { busy: number; of: number }]>([
    ['c10', { busy: 1, of: 3 }],
    ['c10.login', { busy: 1, of: 3 }],
    ['c100', { busy: 0, of: 2 }],
    ['gone', { busy: 0, of: 0 }],
  ])('%s', (name, want) => expect(busyTrials(phases, name)).toEqual(want));
});

describe('the report says what gate.busy did', () => {
  const withMachine = (p: PhaseResult, others: number[], busy: boolean): PhaseResult => ({
    ...p,
    trials: p.trials.map((t, i) => ({
      ...t,
      machine: { busyPct: 150, stealPct: 0, othersPct: others[i] as number },
      ...(busy && (others[i] as number) >= 40 ? { busy: true as const } : {}),
    })),
  });
  it('the repeats spent and the phases that still judge busy trials; the threshold it counted at', () => {
    const p = withMachine(phase('c10', {}, [{}, {}, {}]), [5, 120, 10], true);
    p.discarded = [{ ...(p.trials[1] as PhaseResult['trials'][number]) }];
    const scenarios: ScenarioResult[] = [{ name: 'api', scenarioHash: 'h', phases: [p] }];
    const md = renderMarkdown({ ...resultsFile(scenarios, []), busy: { othersPct: 40, repeats: 3, repeated: 3 } });
    expect(md).toContain('at most 120% (api/c10 trial 1); 2 of 4 trials at 40% or more with steal; steal at most 0%');
    expect(md).toContain(
      '- busy machine (gate.busy): 3 of 3 trials repeated; busy trials still judged in api/c10 (1 of 3): their regressions on latency, throughput, memory and CPU are inconclusive',
    );
  });
  /** The report of an A/B run of scenario `api` with these phases on each side, 2 trials repeated. */
  const ab = (head: PhaseResult[], base: PhaseResult[], pairs: number) =>
    renderMarkdown(
      resultsFile([{ name: 'api', scenarioHash: 'h', phases: head }], [], {
        mode: 'ab',
        busy: { othersPct: 50, repeats: 2, repeated: 2 },
        ab: {
          baseRef: 'origin/main',
          baseCommit: '1234567890abcdef1234567890abcdef12345678',
          headCommit: 'abcdef1234567890',
          pairs,
          order: 'random',
          baseImages: {},
          base: [{ name: 'api', scenarioHash: 'h', phases: base }],
          notes: [],
        },
      }),
    );
  it('A/B: busy head trials make regressions inconclusive; busy base trials are named apart, as a reference', () => {
    const head = withMachine(phase('c10', {}, [{}, {}]), [5, 90], true);
    const base = withMachine(phase('c10', {}, [{}, {}]), [95, 99], true);
    const md = ab([head], [base], 2);
    expect(md).toContain(
      "- busy machine (gate.busy): 2 of 2 trials (either side's) repeated; busy head trials still judged in api/c10 (1 of 2): their regressions on latency, throughput, memory and CPU are inconclusive; busy base trials judged in api/c10 (2 of 2) (a slower base can hide a regression, not raise one)",
    );
  });

  it('A/B: busy pairs left out where enough quiet ones remain, said apart from the phases that judge them', () => {
    const four = (name: string, others: number[]) => withMachine(phase(name, {}, [{}, {}, {}, {}]), others, true);
    const md = ab(
      [four('c10', [5, 90, 5, 5]), four('c50', [5, 5, 5, 5])],
      [four('c10', [5, 5, 5, 95]), four('c50', [5, 5, 60, 5])],
      4,
    );
    expect(md).toContain(
      "- busy machine (gate.busy): 2 of 2 trials (either side's) repeated; busy pairs left out of the tests in api/c10 (2 of 4), api/c50 (1 of 4) (their quiet pairs judged); no busy head trial judged",
    );
  });

  it('none judged', () => {
    const p = withMachine(phase('c10', {}, [{}, {}]), [5, 10], true);
    const scenarios: ScenarioResult[] = [{ name: 'api', scenarioHash: 'h', phases: [p] }];
    const md = renderMarkdown({ ...resultsFile(scenarios, []), busy: { othersPct: 50, repeats: 10, repeated: 0 } });
    expect(md).toContain('- busy machine (gate.busy): 0 of 10 trials repeated; no busy trial judged');
  });
});

describe('gate.busy: the config key', () => {
  it.each<[string, unknown, string[], BusySettings | undefined]>([
    // safe by default (issue 47): on where the machine can be read
    ['absent: on, at the defaults', undefined, [], { othersPct: 50 }],
    ['off', 'off', [], undefined],
    ['on: the defaults', 'on', [], { othersPct: 50 }],
    ['another word', 'yes', ['gate.busy: must be on, off, or { others, repeats } (either may be left out)'], undefined],
    ['{}: the defaults', {}, [], { othersPct: 50 }],
    ['both given', { others: 80, repeats: 0 }, [], { othersPct: 80, repeats: 0 }],
    ['others 0', { others: 0 }, ['gate.busy.others: must be a number from 1 to 1000'], undefined],
    ['others as text', { others: '50%' }, ['gate.busy.others: must be a number from 1 to 1000'], undefined],
    ['repeats a fraction', { repeats: 1.5 }, ['gate.busy.repeats: must be an integer from 0 to 100'], undefined],
    ['repeats 101', { repeats: 101 }, ['gate.busy.repeats: must be an integer from 0 to 100'], undefined],
    ['an unknown key', { threshold: 50 }, ['gate.busy.threshold: unknown key (keys here: others, repeats)'], undefined],
  ])('%s', (_label, value, problems, want) => {
    const raw = {
      version: 1,
      sut: { compose: 'docker-compose.yml' },
      ...(value !== undefined ? { gate: { busy: value } } : {}),
      scenarios: [
        { name: 's', request: { url: 'http://api/' }, phases: [{ name: 'c1', connections: 1, duration: '1s' }] },
      ],
    };
    const got = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    expect(got.problems).toEqual(problems);
    if (problems.length === 0) expect(got.config?.gate.busy).toEqual(want);
  });
});

describe('gate.busy’s allowance: twice the trials the run plans, at least 10', () => {
  const scenarios = (phases: number[], trials: number) => {
    const raw = {
      version: 1,
      sut: { compose: 'docker-compose.yml' },
      scenarios: phases.map((n, i) => ({
        name: `s${i}`,
        trials,
        request: { url: 'http://api/' },
        phases: Array.from({ length: n }, (_, j) => ({ name: `c${j + 1}`, connections: j + 1, duration: '1s' })),
      })),
    };
    return (parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`).config as Config).scenarios;
  };
  it.each<[string, number[], number, number | undefined, BusySettings, number, number]>([
    // the 16-row cell of docs/benchmarks.md zb: 2 scenarios × 2 phases × 5 trials spent 10 in 29 of 49 runs
    ['2 scenarios × 2 phases × 5 trials: 40', [2, 2], 5, undefined, { othersPct: 50 }, 20, 40],
    ['one phase × 3 trials: at least 10', [1], 3, undefined, { othersPct: 50 }, 3, 10],
    ['A/B counts both sides of each pair: 3 phases × 6 pairs', [3], 5, 6, { othersPct: 50 }, 36, 72],
    ['a given allowance is kept, 0 included', [2, 2], 5, undefined, { othersPct: 50, repeats: 0 }, 20, 0],
    ['a given allowance above the plan is kept', [1], 3, undefined, { othersPct: 50, repeats: 40 }, 3, 40],
  ])('%s', (_label, phases, trials, pairs, settings, planned, repeats) => {
    const s = scenarios(phases, trials);
    expect(plannedTrials(s, pairs)).toBe(planned);
    expect(busyRepeats(settings, plannedTrials(s, pairs))).toBe(repeats);
  });
});

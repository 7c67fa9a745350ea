// What a config's trials and confirmation cap can decide (src/compare/reach.ts): problems refuse the
// config (validate and run exit 2), notes are printed by validate.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { AGAINST_BASELINES, type Judging, PAIRED } from '../../src/compare/judging.js';
import { confirmationReach, together } from '../../src/compare/reach.js';
import { modeOf } from '../../src/modes/index.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config-parts/types.js';

type Raw = Record<string, unknown>;

interface Setup {
  trials?: number;
  maxTrials?: number;
  pairs?: number;
  thresholds?: Raw;
  phases?: Raw[];
  /** more scenarios after the first one, each as its raw fields */
  more?: Raw[];
}

/** A config parsed the way `validate` parses it, from a minimal one with `s` applied. */
function config(s: Setup = {}): Config {
  const scenario = (name: string, over: Raw = {}): Raw => ({
    name,
    request: { url: 'http://api:8080/' },
    phases: s.phases ?? [{ name: 'c10', connections: 10, duration: '30s' }],
    ...(s.trials !== undefined ? { trials: s.trials } : {}),
    ...(s.thresholds ? { thresholds: s.thresholds } : {}),
    ...over,
  });
  const raw: Raw = {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    scenarios: [scenario('s'), ...(s.more ?? []).map((m, i) => scenario(`t${i + 1}`, m))],
  };
  if (s.maxTrials !== undefined) raw.gate = { confirm: { 'max-trials': s.maxTrials } };
  if (s.pairs !== undefined) raw.ab = { pairs: s.pairs };
  const { config: parsed, problems } = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  expect(problems).toEqual([]);
  return parsed as Config;
}

const reach = (s: Setup, judging: Judging = AGAINST_BASELINES, pairs?: number) =>
  confirmationReach(config(s), judging, ...(pairs === undefined ? [] : [pairs]));

describe('confirmationReach: the gate against baselines', () => {
  it.each<[string, Setup, 'problem' | 'note' | 'none']>([
    // 1 vs 1 up to 12: 1/13; 2 vs 2 up to 12: 1/91 — both above 0.01 even at the cap
    ['trials 1, default cap 12', { trials: 1 }, 'problem'],
    ['trials 2, cap 12 given', { trials: 2, maxTrials: 12 }, 'problem'],
    // 3 vs 3: 0.05 at the first look; 12 vs 3: 1/455 at the cap
    ['trials 3, default cap 12', { trials: 3 }, 'note'],
    ['trials 4, default cap 12 (1/70 > 0.005)', { trials: 4 }, 'note'],
    ['trials 5, default cap 12 (1/252 ≤ 0.005)', { trials: 5 }, 'none'],
    ['the default trials (5)', {}, 'none'],
    ['trials 5, confirmation off', { trials: 5, maxTrials: 0 }, 'none'],
    ['trials 3, confirmation off', { trials: 3, maxTrials: 0 }, 'problem'],
    ['trials 3, cap 4 (4 vs 3: 1/35)', { trials: 3, maxTrials: 4 }, 'problem'],
    ['trials 3, cap 6 (6 vs 3: 1/84)', { trials: 3, maxTrials: 6 }, 'problem'],
    ['trials 3, cap 7 (7 vs 3: 1/120)', { trials: 3, maxTrials: 7 }, 'note'],
    // an absolute limit needs no test: any number of trials can gate it
    [
      'trials 1, absolute limits only',
      { trials: 1, thresholds: { p99: { below: '50ms' }, errors: { max: 0 } } },
      'none',
    ],
    [
      'trials 1, confirmation off, limits only',
      { trials: 1, maxTrials: 0, thresholds: { p99: { max: '9ms' } } },
      'none',
    ],
    // the strictest alpha of the banded thresholds counts; a looser one makes 3 vs 3 enough
    [
      'trials 3, off, alpha 0.05',
      { trials: 3, maxTrials: 0, thresholds: { p99: { regress: '10%', alpha: 0.05 } } },
      'none',
    ],
    [
      'trials 3, off, alpha 0.05 on one row and the default on another',
      { trials: 3, maxTrials: 0, thresholds: { p99: { regress: '10%', alpha: 0.05 }, p50: { regress: '10%' } } },
      'problem',
    ],
  ])('%s → %s', (_label, setup, expected) => {
    const { problems, notes } = reach(setup);
    expect(problems).toHaveLength(expected === 'problem' ? 1 : 0);
    expect(notes).toHaveLength(expected === 'note' ? 1 : 0);
  });

  it.each([
    [1, 99],
    [2, 13],
  ])('trials %i, cap 12 given: the problem names the keys and the cap that would reach (%i)', (trials, reaches) => {
    const [problem] = reach({ trials, maxTrials: 12 }).problems;
    expect(problem).toMatch(
      new RegExp(
        `^scenarios\\[0\\]\\.trials \\(${trials}\\) with gate\\.confirm\\.max-trials \\(12\\): scenario s's relative bands \\(p50, p99, rps\\) can never confirm a change at alpha 0\\.01 against a ${trials}-trial baseline \\(the smallest p at 12 is [\\d.]+, above 0\\.01\\); raise scenarios\\[0\\]\\.trials or gate\\.confirm\\.max-trials \\(max-trials ${reaches} reaches\\), or make the bands information: gate: \\{ bands: inform \\} \\(absolute limits and new error classes still fail the gate\\)$`,
      ),
    );
  });

  it('trials 1, no cap given: grown as far as it goes, still refused', () => {
    expect(reach({ trials: 1 }).problems).toEqual([
      "scenarios[0].trials (1) with gate.confirm.max-trials (12, grown as far as 24): scenario s's relative bands (p50, p99, rps) can never confirm a change at alpha 0.01 against a 1-trial baseline (the smallest p at 24 is 0.04, above 0.01); raise scenarios[0].trials or gate.confirm.max-trials (max-trials 99 reaches), or make the bands information: gate: { bands: inform } (absolute limits and new error classes still fail the gate)",
    ]);
  });

  it('trials 2, no cap given: the cap grows to 13 (2 v 13: 1/105), said, and the run gets it', () => {
    const { problems, notes, caps } = reach({ trials: 2 });
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'scenario s: confirmation runs up to 13 trials (not 12): what its rows need to reach p ≤ 0.01 against a 2-trial baseline; gate.confirm.max-trials sets the cap',
      'scenario s: 2 trials alone cannot reach p ≤ 0.01 against a 2-trial baseline (the smallest p is 0.17); every row outside its band will run more trials, up to 13 (gate.confirm.max-trials)',
    ]);
    expect([...caps]).toEqual([['s', 13]]);
  });

  it('trials 3 with confirmation off: the problem names the cap 0', () => {
    expect(reach({ trials: 3, maxTrials: 0 }).problems).toEqual([
      "scenarios[0].trials (3) with gate.confirm.max-trials (0): scenario s's relative bands (p50, p99, rps) can never confirm a change at alpha 0.01 against a 3-trial baseline (the smallest p at 3 is 0.05, above 0.01); raise scenarios[0].trials or gate.confirm.max-trials (max-trials 7 reaches), or make the bands information: gate: { bands: inform } (absolute limits and new error classes still fail the gate)",
    ]);
  });

  it('trials 3: the note says the first look cannot reach alpha and more trials will run', () => {
    expect(reach({ trials: 3 }).notes).toEqual([
      'scenario s: 3 trials alone cannot reach p ≤ 0.01 against a 3-trial baseline (the smallest p is 0.05); every row outside its band will run more trials, up to 12 (gate.confirm.max-trials)',
    ]);
  });

  it('names the scenario’s own index', () => {
    const { problems } = reach({ trials: 5, more: [{ trials: 5 }, { trials: 1 }] });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^scenarios\[2\]\.trials \(1\) .*scenario t2's relative bands \(.*\) can never confirm/,
    );
  });
});

describe('confirmationReach: A/B', () => {
  it.each<[string, Setup, number | undefined, 'problem' | 'note' | 'none']>([
    ['pairs 2, confirmation off (smallest p 1/4)', { pairs: 2, maxTrials: 0 }, undefined, 'problem'],
    ['pairs 4, confirmation off (1/16 > 0.05)', { pairs: 4, maxTrials: 0 }, undefined, 'problem'],
    ['pairs 5, confirmation off (1/32 ≤ 0.05)', { pairs: 5, maxTrials: 0 }, undefined, 'none'],
    ['pairs 6 (the default)', {}, undefined, 'none'],
    ['pairs 6, confirmation off', { pairs: 6, maxTrials: 0 }, undefined, 'none'],
    // 2 pairs up to 12: 1/4096 at the cap, but 1/4 > 0.025 at the first look
    // (1 s phases: 10 more pairs of 30 s phases would not fit gate.confirm.max-time, a note of its own)
    [
      'pairs 2, default cap',
      { pairs: 2, phases: [{ name: 'c10', connections: 10, duration: '1s' }] },
      undefined,
      'note',
    ],
    ['pairs from the command line override the config', { pairs: 6, maxTrials: 0 }, 2, 'problem'],
    ['trials do not matter in A/B', { trials: 1, pairs: 6 }, undefined, 'none'],
  ])('%s → %s', (_label, setup, pairs, expected) => {
    const { problems, notes } = reach(setup, PAIRED, pairs);
    expect(problems).toHaveLength(expected === 'problem' ? 1 : 0);
    expect(notes).toHaveLength(expected === 'note' ? 1 : 0);
  });

  it('pairs 2 with confirmation off: the problem names ab.pairs and the cap', () => {
    expect(reach({ pairs: 2, maxTrials: 0 }, PAIRED).problems).toEqual([
      "ab.pairs (2) with gate.confirm.max-trials (0): scenario s's relative bands (p50, p99, rps) can never confirm a change at alpha 0.05 (the smallest p at 2 is 0.25, above 0.05); raise ab.pairs or gate.confirm.max-trials (max-trials 5 reaches), or make the bands information: gate: { bands: inform } (absolute limits and new error classes still fail the gate)",
    ]);
  });

  it('the same config is fine as a gate and refused as A/B', () => {
    const setup = { trials: 5, pairs: 2, maxTrials: 0 };
    expect(reach(setup, AGAINST_BASELINES).problems).toEqual([]);
    expect(reach(setup, PAIRED).problems).toHaveLength(1);
  });
});

describe('confirmationReach: phases too short for a gated percentile', () => {
  it('an open-loop phase of 25 req/s for 3 s gating p99 (the built-in thresholds) gets a note', () => {
    const { problems, notes } = reach({ phases: [{ name: 'r25', rate: 25, duration: '3s' }] });
    expect(problems).toEqual([]);
    expect(notes).toEqual([
      'scenario s, phase r25: at most 75 responses a trial, too few to gate p99 (needs 1000); those rows will be invalid — lengthen the phase or gate a lower percentile',
    ]);
  });

  it.each<[string, Raw, Raw | undefined, string | undefined]>([
    ['p50 needs 20: 75 are enough', { name: 'r25', rate: 25, duration: '3s' }, { p50: { regress: '10%' } }, undefined],
    [
      'p90 and p99 both named, with the larger need',
      { name: 'r25', rate: 25, duration: '3s' },
      { p90: { regress: '10%' }, p99: { regress: '10%' } },
      'too few to gate p90, p99 (needs 1000)',
    ],
    ['max is no percentile', { name: 'r25', rate: 25, duration: '3s' }, { max: { regress: '10%' } }, undefined],
    ['a limit alone needs no tail', { name: 'r25', rate: 25, duration: '3s' }, { p99: { below: '50ms' } }, undefined],
    [
      'a closed phase with a request count',
      { name: 'n500', connections: 10, requests: 500 },
      { p99: { regress: '10%' } },
      'at most 500 responses a trial, too few to gate p99',
    ],
    [
      'a closed phase for a duration: unknown, no note',
      { name: 'c10', connections: 10, duration: '3s' },
      undefined,
      undefined,
    ],
    ['1000 req/s for 3 s: enough for p99', { name: 'r1k', rate: 1000, duration: '3s' }, undefined, undefined],
  ])('%s', (_label, phase, thresholds, text) => {
    const { notes } = reach({ phases: [phase], ...(thresholds ? { thresholds } : {}) });
    if (text === undefined) expect(notes).toEqual([]);
    else {
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain(text);
    }
  });

  it('the short-phase note comes with the first-look note, not instead of it', () => {
    const { notes } = reach({ trials: 3, phases: [{ name: 'r25', rate: 25, duration: '3s' }] });
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^scenario s: 3 trials alone cannot reach/);
    expect(notes[1]).toMatch(/^scenario s, phase r25: at most 75 responses/);
  });
});

describe('gate.bands: inform (a one-shot run, issue 35)', () => {
  it('trials: 1 with relative bands: refused as judge, a note as inform', () => {
    const text = (bands: string) =>
      `version: 1\nsut: { compose: c.yml }\ngate: { bands: ${bands} }\ndefaults: { trials: 1, thresholds: { p99: { regress: 50%, floor: 2ms }, error-rate: { max: 2% } } }\nscenarios:\n  - { name: hey, request: { url: 'http://api:8080/' }, phases: [{ connections: 1, duration: 1s }] }\n`;
    const parse = (t: string) => parseConfigText(t, '/ws/p.yml', (p) => `/ws/${p}`).config as Config;
    expect(confirmationReach(parse(text('judge')), AGAINST_BASELINES).problems).toHaveLength(1);
    const inform = confirmationReach(parse(text('inform')), AGAINST_BASELINES);
    expect(inform.problems).toEqual([]);
    expect(inform.notes).toEqual([
      'scenario hey: the relative bands (p99) are information (gate.bands: inform): shown, never failing; absolute limits and new error classes still fail the gate',
    ]);
  });
});

describe('together: scenarios alike say it once', () => {
  it.each<[string, Array<{ name?: string; text: string }>, string[]]>([
    ['one', [{ name: 'a', text: '\u0000subject\u0000: x' }], ['scenario a: x']],
    ['an owner', [{ name: 'a', text: 'k: \u0000owner\u0000 bands' }], ["k: scenario a's bands"]],
    [
      'two alike',
      [
        { name: 'a', text: '\u0000subject\u0000: x' },
        { name: 'b', text: '\u0000subject\u0000: x' },
      ],
      ['scenarios a, b: x'],
    ],
    [
      'five alike, owners',
      ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, text: 'k: \u0000owner\u0000 bands' })),
      ['k: scenarios a, b, c and 2 more, their bands'],
    ],
    [
      'unlike lines kept apart, in first order; a line without a name as it is',
      [
        { name: 'a', text: '\u0000subject\u0000: x' },
        { text: 'scenario b, phase p: short' },
        { name: 'c', text: '\u0000subject\u0000: y' },
        { name: 'd', text: '\u0000subject\u0000: x' },
      ],
      ['scenarios a, d: x', 'scenario b, phase p: short', 'scenario c: y'],
    ],
  ])('%s', (_, said, lines) => expect(together(said)).toEqual(lines));

  it('60 scenarios whose A/B pairs cannot reach their share at a cap given: one problem, not 60', () => {
    const raw = {
      version: 1,
      sut: { compose: 'docker-compose.yml' },
      gate: { 'run-alpha': 0.01, confirm: { 'max-trials': 12 } },
      scenarios: Array.from({ length: 60 }, (_, i) => ({
        name: `s${i}`,
        request: { url: 'http://api:8080/' },
        phases: [{ name: 'c10', connections: 10, duration: '30s' }],
      })),
    };
    const parsed = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`).config as Config;
    const { problems, notes } = modeOf('ab').validate(parsed, 'ab');
    expect(problems).toEqual([
      expect.stringMatching(
        /^ab\.pairs \(6\) with gate\.confirm\.max-trials \(12\): scenarios s0, s1, s2 and 57 more, their relative bands \(p50, p99, rps\) can never confirm a change at alpha 0\.00017 \(gate\.run-alpha 0\.01 over 60 gated phases\)/,
      ),
    ]);
    // against baselines too: 12 v 5 trials (1/6188) cannot reach 0.00017 for a row moving alone among 3
    expect(modeOf('gate').validate(parsed, 'gate').problems).toEqual([
      expect.stringMatching(
        /^trials \(5\) with gate\.confirm\.max-trials \(12\): scenarios s0, s1, s2 and 57 more, their .*tested together, a row that moves alone gets p 0\.00048 at best at 12 trials, above 0\.00017\); raise trials or gate\.confirm\.max-trials \(max-trials 25 reaches\)/,
      ),
    ]);
    expect(notes).toEqual([]);
    // no cap given: each scenario's grows to what its rows need, said once for the 60
    const grown = parseConfigText(
      stringify({ ...raw, gate: { 'run-alpha': 0.01 } }),
      '/ws/perf-gate.yml',
      (p) => `/ws/${p}`,
    ).config as Config;
    const ab = modeOf('ab').validate(grown, 'ab');
    expect(ab.problems).toEqual([]);
    expect(ab.notes[0]).toMatch(
      /^scenarios s0, s1, s2 and 57 more: confirmation runs up to 1\d pairs \(not 12\): what a row that moves alone needs to reach its share \(gate\.run-alpha 0\.01 over 60 gated phases\)/,
    );
  });
});

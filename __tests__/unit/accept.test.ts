// Regressions accepted on purpose (compare/accept.ts): what `--accept` and a `/perf-gate accept`
// comment line read as, which rows they turn into `accepted`, and how the verdict and the report read.
import { describe, expect, it } from 'vitest';
import {
  type Acceptance,
  acceptanceLines,
  acceptIn,
  acceptRows,
  MAX_REASON,
  parseAcceptance,
  withoutAcceptances,
} from '../../src/compare/accept.js';
import { overallVerdict } from '../../src/compare/compare.js';
import { renderMarkdown } from './render-markdown.js';
import { problemOf, resultsFileSchema } from '../../src/results/validate.js';
import type { Comparison } from '../../src/results/types.js';
import { comparison, resultsFile } from './fixtures.js';

const ok = (rows: string, reason: string, by = 'alice'): Acceptance => ({ rows, reason, by });

describe('parseAcceptance: ROWS: REASON', () => {
  it.each<[string, string, Acceptance | string]>([
    ['every failing row', '*: a planned rewrite', ok('*', 'a planned rewrite')],
    ['a scenario', 'api: the new index', ok('api', 'the new index')],
    ['a phase', 'api/c10: the new index', ok('api/c10', 'the new index')],
    ['a row', 'api/c10 p99: the new index', ok('api/c10 p99', 'the new index')],
    ['spaces collapsed', '  api/c10   p99 :  two   words ', ok('api/c10 p99', 'two words')],
    ['a colon in the reason stays', 'api: costs 2 ms: on purpose', ok('api', 'costs 2 ms: on purpose')],
    ['no reason', 'api/c10 p99', 'api/c10 p99: no reason (ROWS: REASON)'],
    ['an empty reason', 'api/c10 p99:   ', 'api/c10 p99: no reason (ROWS: REASON)'],
    ['no rows', ': because', 'names no rows'],
    ['a metric without a phase', 'api p99: why', 'api p99: not *, a scenario, scenario/phase or scenario/phase metric'],
    ['three parts', 'api/c10 p99 p50: why', 'api/c10 p99 p50: not *'],
    ['an empty phase', 'api/: why', 'api/: not *'],
    ['two slashes', 'a/b/c: why', 'a/b/c: not *'],
    ['rows too long', `${'x'.repeat(300)}: why`, 'more than 200 characters of rows'],
  ])('%s', (_label, text, want) => {
    const got = parseAcceptance(text, 'alice');
    // (a string given to toMatch is looked for as it is)
    if (typeof want === 'string') expect('problem' in got && got.problem).toMatch(want);
    else expect(got).toEqual(want);
  });

  it(`a reason longer than ${MAX_REASON} characters is cut`, () => {
    const got = parseAcceptance(`api: ${'x'.repeat(500)}`, 'alice') as Acceptance;
    expect(got.reason).toHaveLength(MAX_REASON);
    expect(got.reason.endsWith('…')).toBe(true);
  });
});

describe('acceptanceLines: the command lines of a comment', () => {
  it('each line that starts with /perf-gate accept, in order; other text is not a command', () => {
    const body = [
      'Looked at it with the team.',
      '/perf-gate accept api/c10 p99: the new index, agreed in the design review',
      '  /perf-gate accept search: cache off for now  ',
      'please do not /perf-gate accept everything',
      '/perf-gate accepts api: not the command',
      '> /perf-gate accept quoted: a quote is not a command',
      '/perf-gate accept api',
    ].join('\r\n');
    expect(acceptanceLines(body, 'bob')).toEqual([
      ok('api/c10 p99', 'the new index, agreed in the design review', 'bob'),
      ok('search', 'cache off for now', 'bob'),
      { problem: 'api: no reason (ROWS: REASON)' },
    ]);
  });
});

describe('acceptRows: failing rows named become accepted', () => {
  const rows: Comparison[] = [
    comparison({ phase: 'c10', metric: 'p99', result: 'regression', delta: 0.4 }),
    comparison({ phase: 'c10', metric: 'p50', result: 'inconclusive', delta: 0.2 }),
    comparison({ phase: 'c10', metric: 'rps', result: 'pass' }),
    comparison({ phase: 'c50', metric: 'p99', result: 'regression', delta: 0.3 }),
    comparison({ scenario: 'search', phase: 'c10', metric: 'p99', result: 'improvement' }),
  ];
  // [label, acceptances, each row's result after, the acceptances that named no failing row]
  it.each<[string, Acceptance[], string[], string[]]>([
    ['a row', [ok('api/c10 p99', 'why')], ['accepted', 'inconclusive', 'pass', 'regression', 'improvement'], []],
    [
      'a phase: its regression and its inconclusive row',
      [ok('api/c10', 'why')],
      ['accepted', 'accepted', 'pass', 'regression', 'improvement'],
      [],
    ],
    ['a scenario', [ok('api', 'why')], ['accepted', 'accepted', 'pass', 'accepted', 'improvement'], []],
    ['every failing row', [ok('*', 'why')], ['accepted', 'accepted', 'pass', 'accepted', 'improvement'], []],
    [
      'a passing row is not made accepted; the acceptance is said unused',
      [ok('api/c10 rps', 'why')],
      ['regression', 'inconclusive', 'pass', 'regression', 'improvement'],
      ['api/c10 rps'],
    ],
    [
      'another scenario',
      [ok('search', 'why')],
      ['regression', 'inconclusive', 'pass', 'regression', 'improvement'],
      ['search'],
    ],
    [
      'a name that only starts the same',
      [ok('ap', 'why')],
      ['regression', 'inconclusive', 'pass', 'regression', 'improvement'],
      ['ap'],
    ],
  ])('%s', (_label, acceptances, after, unused) => {
    const got = acceptRows(rows, acceptances);
    expect(got.comparisons.map((c) => c.result)).toEqual(after);
    expect(got.unused.map((a) => a.rows)).toEqual(unused);
  });

  it('an acceptance whose rows another one carries is not said unused: they were accepted', () => {
    const got = acceptRows(rows, [ok('*', 'newer'), ok('api/c10 p99', 'older')]);
    expect(got.comparisons[0]?.accepted?.reason).toBe('newer');
    expect(got.unused).toEqual([]);
  });

  it('the first acceptance naming a row is the one it carries; values and p are kept', () => {
    const { comparisons } = acceptRows(rows, [ok('api/c10 p99', 'first', 'alice'), ok('api', 'second', 'bob')]);
    expect(comparisons[0]).toEqual({
      ...rows[0],
      result: 'accepted',
      accepted: { by: 'alice', reason: 'first', was: 'regression' },
    });
    expect(comparisons[1]?.accepted).toEqual({ by: 'bob', reason: 'second', was: 'inconclusive' });
  });

  it('withoutAcceptances gives back each row as it was judged (a fork artifact’s own acceptances dropped)', () => {
    const { comparisons } = acceptRows(rows, [ok('*', 'why')]);
    expect(withoutAcceptances(comparisons)).toEqual(rows);
    // an accepted row that says nothing of what it was is taken for a regression
    expect(withoutAcceptances([comparison({ result: 'accepted' })])[0]?.result).toBe('regression');
  });
});

describe('the verdict and the report', () => {
  const failing = [
    comparison({ metric: 'p99', baseline: 1000, current: 1400, delta: 0.4, result: 'regression', pValue: 0.004 }),
    comparison({ metric: 'p50', result: 'pass' }),
  ];

  it('a run whose only failing row is accepted passes; the header counts it and the row says who and why', () => {
    const { results, unused } = acceptIn(resultsFile([], failing), [
      ok('api/c10 p99', 'the new index, @platform-team agreed <b>', 'mallory_@x'),
    ]);
    expect(unused).toEqual([]);
    expect(overallVerdict(results.comparisons)).toBe('pass');
    const md = renderMarkdown(results);
    expect(md).toContain('### ✅ perf-gate: no regression (1 accepted on purpose)');
    expect(md).toContain(
      '☑️ accepted (p=0.004) by mallory\\_@\u200bx (was a regression): the new index, @\u200bplatform-team agreed &lt;b&gt;',
    );
    // no mention reaches anyone, no HTML gets through
    expect(md).not.toMatch(/@platform-team|<b>/);
  });

  it('an accepted row that broke a limit says the limit beside who accepted it', () => {
    const limit = comparison({
      metric: 'p99',
      current: 7000,
      delta: 6,
      result: 'regression',
      reason: 'above the limit 5ms',
    });
    const { results } = acceptIn(resultsFile([], [limit]), [ok('api', 'a slow dependency for now')]);
    expect(renderMarkdown(results)).toContain(
      '☑️ accepted by alice (was a regression: above the limit 5ms): a slow dependency for now |',
    );
  });

  it("an acceptance on a row that is not `accepted` is not shown (a file's own word)", () => {
    const planted = comparison({
      result: 'regression',
      accepted: { by: 'maintainer', reason: 'approved', was: 'regression' },
    });
    expect(renderMarkdown(resultsFile([], [planted]))).not.toContain('approved');
    expect(withoutAcceptances([planted])[0]).toEqual(comparison({ result: 'regression' }));
  });

  it('an acceptance that names no failing row is a line, and the run still fails', () => {
    const { results, unused } = acceptIn(resultsFile([], failing), [ok('api/c10 p50', 'why')]);
    expect(unused).toEqual(['accept api/c10 p50 (by alice): names no failing row']);
    expect(overallVerdict(results.comparisons)).toBe('regression');
  });

  it('a results file with accepted rows reads back (the schema knows them)', () => {
    const { results } = acceptIn(resultsFile([], failing), [ok('*', 'why')]);
    expect(problemOf(resultsFileSchema, JSON.parse(JSON.stringify(results)))).toBeUndefined();
    const bad = {
      ...results,
      comparisons: [{ ...results.comparisons[0], accepted: { by: 'x', reason: 'y', was: 'pass' } }],
    };
    expect(problemOf(resultsFileSchema, bad)).toMatch(/accepted/);
  });
});

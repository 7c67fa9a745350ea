// The Markdown report (src/report/markdown.ts): its marker, headline, the regressions first, notes and
// flags, failed checks, sections, a table a reviewer reads in ten seconds, update mode, a run that did
// not finish.
import { describe, expect, it } from 'vitest';
import { renderError, reportMarker } from '../../src/report/markdown.js';
import { renderMarkdown } from './render-markdown.js';
import type { Comparison, ScenarioStatus, Verdict } from '../../src/results/types.js';
import { phase, scenario, cmp, results, tableRows, cells, tables } from './report-harness.js';

// ---------------------------------------------------------------------------------------------

describe('reportMarker', () => {
  it.each<[string, string]>([
    ['', 'default'],
    ['pr', 'pr'],
    ['linux-node20', 'linux-node20'],
    ['a.b_c-D9', 'a.b_c-D9'],
    ['matrix (node 20)/linux', 'matrix__node_20__linux'],
    ['<script>', '_script_'],
    ['x -->y', 'x_--_y'],
    ['é', '_'],
  ])('id %j → id=%s', (id, expected) => {
    expect(reportMarker(id)).toBe(`<!-- perf-gate-report id=${expected} -->`);
  });

  it.each(['', 'a', '-->', '--!>', '\n-->\n<img>', 'a b c'])('is one well-formed HTML comment for %j', (id) => {
    const m = reportMarker(id);
    expect(m).toMatch(/^<!-- perf-gate-report id=[A-Za-z0-9_.-]+ -->$/);
    expect(m.match(/-->/g)).toHaveLength(1);
  });

  it('does not make one id a prefix match of another', () => {
    expect(reportMarker('ab').includes(reportMarker('a'))).toBe(false);
    expect(reportMarker('a').includes(reportMarker('ab'))).toBe(false);
  });
});

describe('renderMarkdown: marker and headline', () => {
  it.each<[string | undefined, string]>([
    [undefined, 'default'],
    ['', 'default'],
    ['linux', 'linux'],
    ['ubuntu (arm)', 'ubuntu__arm_'],
  ])('first line is the marker for report id %j', (reportId, id) => {
    const md = renderMarkdown(results(), reportId === undefined ? {} : { reportId });
    expect(md.split('\n')[0]).toBe(`<!-- perf-gate-report id=${id} -->`);
  });

  it.each<[string, Verdict[], string]>([
    ['one regression', ['regression', 'pass'], '### ❌ perf-gate: 1 regression in api'],
    ['three regressions', ['regression', 'regression', 'regression', 'pass'], '### ❌ perf-gate: 3 regressions in api'],
    [
      'regressions with warnings and improvements',
      ['pass', 'regression', 'inconclusive', 'invalid', 'improvement', 'regression'],
      // warnings are the invalid rows only
      '### ❌ perf-gate: 2 regressions in api (1 warning, 1 improved)',
    ],
    ['all pass', ['pass', 'pass'], '### ✅ perf-gate: no regression'],
    ['pass with one warning', ['pass', 'invalid'], '### ✅ perf-gate: no regression (1 warning)'],
    // never ✅: a row outside its band that the most trials allowed could not confirm
    [
      'one inconclusive row',
      ['pass', 'inconclusive'],
      '### ❔ perf-gate: inconclusive — 1 row outside the band but not confirmed by the most trials allowed',
    ],
    [
      'two inconclusive rows, a warning and an improvement',
      ['inconclusive', 'invalid', 'improvement', 'inconclusive'],
      '### ❔ perf-gate: inconclusive — 2 rows outside the band but not confirmed by the most trials allowed (1 warning, 1 improved)',
    ],
    ['pass with improvements', ['improvement', 'improvement'], '### ✅ perf-gate: no regression (2 improved)'],
    ['no baseline', ['no-baseline', 'no-baseline'], '### ➖ perf-gate: no baseline yet — nothing to compare'],
  ])('%s', (_label, verdicts, expected) => {
    const comparisons = verdicts.map((result) =>
      result === 'no-baseline'
        ? cmp({ result, baseline: null, delta: null })
        : cmp({ result, current: 1500, delta: 0.5 }),
    );
    const md = renderMarkdown(results({ comparisons }));
    expect(md.split('\n')[1]).toBe(expected);
  });

  it('gate.bands: inform: never "no regression" for rows it only showed; each such row says information', () => {
    const comparisons = [
      cmp({ result: 'pass', current: 1500, delta: 0.5, informational: true }),
      cmp({ result: 'pass', metric: 'error-rate', current: 0.001, baseline: 0.001, delta: 0 }),
    ];
    const md = renderMarkdown(results({ comparisons }));
    expect(md.split('\n')[1]).toBe(
      '### ✅ perf-gate: no absolute limit broken, no new error class — 1 relative row shown as information, not judged (gate.bands: inform)',
    );
    expect(md).toContain('ℹ️ information');
  });

  it('ends with the footer naming the run', () => {
    const md = renderMarkdown(results());
    expect(md.endsWith('<sub>perf-gate · run run-1 · gate · 2024-05-10T12:05:00.000Z</sub>\n')).toBe(true);
  });
});

describe('renderMarkdown: regressions first', () => {
  const comparisons: Comparison[] = [
    cmp({ metric: 'p50', result: 'pass' }),
    cmp({ metric: 'rps', baseline: 500, current: 700, delta: 0.4, band: '-10%', result: 'improvement' }),
    cmp({ metric: 'p99', baseline: 1000, current: 2000, delta: 1, result: 'regression', pValue: 0.01 }),
    cmp({ metric: 'p90', baseline: 1000, current: 1400, delta: 0.4, result: 'inconclusive', pValue: 0.2 }),
    cmp({ phase: 'r500', metric: 'p50', result: 'no-baseline', baseline: null, delta: null }),
    cmp({
      metric: 'error-class',
      baseline: 0,
      current: 12,
      delta: null,
      band: 'no new error classes',
      result: 'regression',
      reason: 'new error class HTTP 500 (12×), never seen in the baseline',
    }),
    cmp({ metric: 'max', result: 'invalid', reason: 'no successful responses to take latency from' }),
  ];
  const md = renderMarkdown(results({ comparisons }));

  it('sorts the table: regressions, inconclusive, invalid, improvement, no-baseline, pass', () => {
    const rows = tableRows(md).map(cells);
    expect(
      rows.map((r) => [r[2], /regression|inconclusive|invalid|improvement|no baseline|pass/.exec(r[7] ?? '')?.[0]]),
    ).toEqual([
      ['p99', 'regression'],
      ['error-class', 'regression'],
      ['p90', 'inconclusive'],
      ['max', 'invalid'],
      ['rps', 'improvement'],
      ['p50', 'no baseline'],
      ['p50', 'pass'],
    ]);
  });

  it.each<[string, number, string[]]>([
    ['p99 regression', 0, ['api', 'c10', 'p99', '1ms', '2ms', '+100%', '+25% and +1ms', '❌ regression (p=0.01)']],
    ['new error class', 1, ['api', 'c10', 'error-class', '0', '12', 'new', 'no new error classes', '❌ regression']],
    [
      'inconclusive with p',
      2,
      ['api', 'c10', 'p90', '1ms', '1.4ms', '+40%', '+25% and +1ms', '❔ inconclusive (p=0.2)'],
    ],
    [
      'invalid with its reason',
      3,
      [
        'api',
        'c10',
        'max',
        '1ms',
        '1ms',
        '+0.0%',
        '+25% and +1ms',
        '⚠️ invalid: no successful responses to take latency from',
      ],
    ],
    ['no baseline', 5, ['api', 'r500', 'p50', '—', '1ms', '—', '+25% and +1ms', '➖ no baseline']],
  ])('row: %s', (_label, index, expected) => {
    expect(cells(tableRows(md)[index] as string)).toEqual(expected);
  });

  it('lists each regression as a bullet with its reason, before the table', () => {
    const lines = md.split('\n');
    const bullets = lines.filter((l) => l.startsWith('- **'));
    expect(bullets).toEqual([
      '- **api/c10** p99: 1ms → 2ms (+100%, band +25% and +1ms, p=0.01)',
      '- **api/c10** error-class: new error class HTTP 500 (12×), never seen in the baseline',
    ]);
    const firstTableLine = lines.findIndex((l) => l.startsWith('|'));
    expect(lines.indexOf(bullets[0] as string)).toBeLessThan(firstTableLine);
  });

  it.each<[string, Partial<Comparison>, string]>([
    ['an update row, both values there', { baseline: 1780, current: 2440, delta: null }, '+37%'],
    ['an invalid row, both values there', { baseline: 1000, current: 900, delta: null, result: 'invalid' }, '-10.0%'],
    ['the same value', { baseline: 1000, current: 1000, delta: null }, '0%'],
    ['from zero', { metric: 'error-rate', baseline: 0, current: 0.2, delta: null }, 'new'],
    ['no baseline', { baseline: null, delta: null, result: 'no-baseline' }, '—'],
  ])('Δ when the row was not judged: %s', (_label, fields, shown) => {
    const one = renderMarkdown(results({ comparisons: [cmp(fields)] }));
    expect(cells(tableRows(one)[0] as string)[5]).toBe(shown);
  });

  it('has no bullets without regressions', () => {
    const clean = renderMarkdown(results({ comparisons: [cmp(), cmp({ metric: 'p50' })] }));
    expect(clean.split('\n').filter((l) => l.startsWith('- **'))).toEqual([]);
  });
});

describe('renderMarkdown: baseline notes and flags', () => {
  it.each<[string, ScenarioStatus, string | null]>([
    ['present: no note', { scenario: 'api', baseline: 'present' }, null],
    [
      'missing',
      { scenario: 'search', baseline: 'missing' },
      '> ➖ **search** has no baseline yet: record it where the gate runs (the scheduled refresh, `mode: update`, and merge its pull request; a local `--mode update` is for trying, not for committing), or gate against the base commit (`gate.against: base-ref`), which needs none.',
    ],
    [
      'stale, 3 days old',
      { scenario: 'checkout', baseline: 'stale', baselineTime: '2024-05-07T11:00:00.000Z' },
      '> ⚠️ The baseline of **checkout** was taken with a different scenario definition (stale, 3 days old): record it again where the gate runs (the scheduled refresh, `mode: update`, and merge its pull request).',
    ],
    [
      'stale, 1 day old',
      { scenario: 'checkout', baseline: 'stale', baselineTime: '2024-05-09T11:00:00.000Z' },
      '> ⚠️ The baseline of **checkout** was taken with a different scenario definition (stale, 1 day old): record it again where the gate runs (the scheduled refresh, `mode: update`, and merge its pull request).',
    ],
    [
      'stale, hours old',
      { scenario: 'checkout', baseline: 'stale', baselineTime: '2024-05-10T09:30:00.000Z' },
      '> ⚠️ The baseline of **checkout** was taken with a different scenario definition (stale, 2 h old): record it again where the gate runs (the scheduled refresh, `mode: update`, and merge its pull request).',
    ],
    [
      'stale, minutes old',
      { scenario: 'checkout', baseline: 'stale', baselineTime: '2024-05-10T11:50:00.000Z' },
      '> ⚠️ The baseline of **checkout** was taken with a different scenario definition (stale, less than an hour old): record it again where the gate runs (the scheduled refresh, `mode: update`, and merge its pull request).',
    ],
    [
      'stale, no time',
      { scenario: 'checkout', baseline: 'stale' },
      '> ⚠️ The baseline of **checkout** was taken with a different scenario definition (stale, age unknown): record it again where the gate runs (the scheduled refresh, `mode: update`, and merge its pull request).',
    ],
    [
      'stale, unparsable time',
      { scenario: 'checkout', baseline: 'stale', baselineTime: 'yesterday' },
      '> ⚠️ The baseline of **checkout** was taken with a different scenario definition (stale, age unknown): record it again where the gate runs (the scheduled refresh, `mode: update`, and merge its pull request).',
    ],
    [
      'escaped scenario name',
      { scenario: 'a_b*c', baseline: 'missing' },
      '> ➖ **a\\_b\\*c** has no baseline yet: record it where the gate runs (the scheduled refresh, `mode: update`, and merge its pull request; a local `--mode update` is for trying, not for committing), or gate against the base commit (`gate.against: base-ref`), which needs none.',
    ],
  ])('%s', (_label, status, note) => {
    const md = renderMarkdown(results({ scenarioStatus: [status] }));
    const notes = md.split('\n').filter((l) => l.startsWith('> ➖') || l.startsWith('> ⚠️ The baseline'));
    expect(notes).toEqual(note === null ? [] : [note]);
  });

  it('the notes come right after the headline block, before the table', () => {
    const md = renderMarkdown(
      results({
        scenarioStatus: [
          { scenario: 'api', baseline: 'stale' },
          { scenario: 'search', baseline: 'missing' },
        ],
      }),
    );
    const lines = md.split('\n');
    const stale = lines.findIndex((l) => l.includes('(stale,'));
    const missing = lines.findIndex((l) => l.includes('**search** has no baseline'));
    const table = lines.findIndex((l) => l.startsWith('|'));
    expect(stale).toBeGreaterThan(1);
    expect(missing).toBe(stale + 1);
    expect(table).toBeGreaterThan(missing);
  });

  it('shows every phase flag, with scenario/phase, in the head and in the errors table', () => {
    const md = renderMarkdown(
      results({
        scenarios: [
          scenario('api', [
            phase('c10', { flags: ['generator-bound: runner CPU at 98%'] }),
            phase('r500', { flags: ['keep-alive: the server closed 120 connections', 'late: 42 sends'] }),
            phase('n50k'),
          ]),
        ],
      }),
    );
    const lines = md.split('\n');
    expect(lines.filter((l) => l.startsWith('> ⚠️ api/'))).toEqual([
      '> ⚠️ api/c10: generator-bound: runner CPU at 98%',
      '> ⚠️ api/r500: keep-alive: the server closed 120 connections',
      '> ⚠️ api/r500: late: 42 sends',
    ]);
    const errors = tables(md).find((t) => t[0]?.includes('errors by kind'));
    expect(errors).toBeDefined();
    const rows = (errors as string[]).slice(2).map(cells);
    expect(rows.map((r) => [r[1], r[5]])).toEqual([
      ['c10', 'generator-bound: runner CPU at 98%'],
      ['r500', 'keep-alive: the server closed 120 connections; late: 42 sends'],
      ['n50k', '—'],
    ]);
  });
});

describe('renderMarkdown: failed checks', () => {
  it('lists failed checks with the socket errors, by kind; the 200s stay status codes', () => {
    const md = renderMarkdown(
      results({
        scenarios: [
          scenario('api', [
            phase('c10', {
              merged: {
                statusCodes: { '200': 900 },
                errors: { timeout: 2 },
                checks: { 'expect-json': 90, 'expect-header': 1 },
              },
            }),
          ]),
        ],
      }),
    );
    const errors = tables(md).find((t) => t[0]?.includes('errors by kind')) as string[];
    const row = cells(errors[2] as string);
    expect([row[3], row[4]]).toEqual(['200: 900', 'timeout: 2, expect-json: 90, expect-header: 1']);
  });
});

describe('renderMarkdown: sections', () => {
  it.each<['full' | 'summary' | undefined, number]>([
    [undefined, 6],
    ['full', 6],
    ['summary', 0],
  ])('sections %s → %i <details> blocks', (sections, count) => {
    const md = renderMarkdown(results(), sections ? { sections } : {});
    expect(md.match(/<details>/g) ?? []).toHaveLength(count);
    expect(md.match(/<\/details>/g) ?? []).toHaveLength(count);
    expect(md.split('\n')[1]).toBe('### ✅ perf-gate: no regression');
    expect(tableRows(md)).toHaveLength(1);
  });

  it('summary has no chart and no environment', () => {
    const md = renderMarkdown(results(), { sections: 'summary' });
    expect(md).not.toContain('```mermaid');
    expect(md).not.toContain('runner image');
  });

  it('without comparisons the table is the latency table', () => {
    const md = renderMarkdown(results({ comparisons: [], scenarioStatus: [] }));
    const first = tables(md)[0] as string[];
    expect(cells(first[0] as string)).toEqual([
      'scenario',
      'phase',
      'trials',
      'rps',
      'p50',
      'p90',
      'p99',
      'p99.9',
      'max',
    ]);
    expect(cells(first[2] as string)).toEqual(['api', 'c10', '0', '500', '800µs', '1.2ms', '2ms', '3ms', '5ms']);
  });
});

describe('renderMarkdown: a table a reviewer reads in ten seconds (issue 21)', () => {
  const many = (failing: Comparison[]) => [
    ...Array.from({ length: 25 }, (_, i) => cmp({ scenario: `s${i}`, metric: 'p50' })),
    ...failing,
  ];

  it('more than 20 rows: the table shows what fails or warns, the passing rows fold under it', () => {
    const md = renderMarkdown(
      results({
        comparisons: many([
          cmp({ scenario: 'search', metric: 'p99', current: 2000, delta: 1, result: 'regression', pValue: 0.01 }),
          cmp({ scenario: 'ingest', metric: 'max', result: 'invalid', reason: 'too few samples' }),
        ]),
      }),
    );
    expect(tableRows(md).map((r) => cells(r)[0]?.trim())).toEqual(['search', 'ingest']);
    expect(md).toContain('<details><summary>25 passing rows</summary>');
    const start = md.indexOf('<summary>25 passing rows</summary>');
    const folded = md.slice(start, md.indexOf('</details>', start));
    expect(folded.split('\n').filter((l) => /^\| s\d+ /.test(l))).toHaveLength(25);
  });

  it('20 rows or fewer: one table, nothing folded', () => {
    const md = renderMarkdown(results({ comparisons: Array.from({ length: 20 }, () => cmp()) }));
    expect(tableRows(md)).toHaveLength(20);
    expect(md).not.toContain('passing rows');
  });

  it('many rows, all passing: a line says so, the rows fold', () => {
    const md = renderMarkdown(results({ comparisons: many([]) }));
    expect(md.split('\n')[1]).toBe('### ✅ perf-gate: no regression');
    expect(md).toContain('All 25 rows pass.');
    expect(md).toContain('<details><summary>25 passing rows</summary>');
  });

  it('the terminal summary says where the passing rows are instead of folding them', () => {
    const md = renderMarkdown(results({ comparisons: many([]) }), { sections: 'summary' });
    expect(md).toContain('_25 passing rows not shown here; the report file has them._');
    expect(md).not.toContain('<details>');
  });

  it('the headline names the scenarios that regressed: three, then how many more', () => {
    const reg = (scenario: string) => cmp({ scenario, current: 2000, delta: 1, result: 'regression' });
    const two = renderMarkdown(results({ comparisons: [reg('search'), reg('ingest'), reg('search'), cmp()] }));
    expect(two.split('\n')[1]).toBe('### ❌ perf-gate: 3 regressions in search, ingest');
    const five = renderMarkdown(results({ comparisons: ['a', 'b', 'c', 'd', 'e'].map(reg) }));
    expect(five.split('\n')[1]).toBe('### ❌ perf-gate: 5 regressions in a, b, c and 2 more');
    const hostile = renderMarkdown(results({ comparisons: [reg('**x** @team')] }));
    expect(hostile.split('\n')[1]).toBe('### ❌ perf-gate: 1 regression in \\*\\*x\\*\\* @\u200bteam');
  });

  it.each<[number, string]>([
    [0.5, '+50%'],
    [3.99, '+399%'],
    [4, '×5.0'],
    [23.62, '×24.6'],
    [150, '×151'],
    [-0.5, '-50%'],
  ])('a change of %d reads %s', (d, text) => {
    const md = renderMarkdown(results({ comparisons: [cmp({ current: 2000, delta: d, result: 'regression' })] }));
    expect(cells(tableRows(md)[0] as string)[5]?.trim()).toBe(text);
  });
});

describe('renderMarkdown: update mode', () => {
  it('says what was written, never "no baseline yet"', () => {
    const md = renderMarkdown(
      results({
        mode: 'update',
        comparisons: [cmp({ baseline: null, delta: null, result: 'no-baseline' })],
        scenarioStatus: [{ scenario: 'api', baseline: 'missing' }],
      }),
    );
    expect(md).toContain('### 🔄 perf-gate: baselines written for 1 scenario');
    expect(md).toContain('> ➕ **api**: first baseline written.');
    expect(md).not.toContain('no baseline yet');
    expect(md).not.toContain('--mode update');
  });

  it('a change beyond the previous baseline is information, not a failure headline', () => {
    const md = renderMarkdown(
      results({
        mode: 'update',
        comparisons: [cmp({ baseline: 1000, current: 2000, delta: 1, result: 'regression' })],
        scenarioStatus: [{ scenario: 'api', baseline: 'stale' }],
      }),
    );
    expect(md).toContain(
      '### 🔄 perf-gate: baselines written for 1 scenario; 1 row beyond the band of the previous baselines (for information: the refresh fails on them only with fail-on-shift)',
    );
    expect(md).toContain('> 🔄 **api**: the scenario definition changed; its baseline was replaced.');
    expect(md).not.toContain('### ❌');
  });
});

describe('renderError: a run that did not finish', () => {
  it('gives the reason and folds the log lines', () => {
    const md = renderError('perf-gate: SUT crashed: service api stopped (exited) during the run', [
      '  api  | panic: boom',
      '```',
    ]);
    expect(md).toContain('### ⚠️ perf-gate: the run did not finish');
    expect(md).toContain('SUT crashed: service api stopped (exited) during the run');
    expect(md).toContain('<details><summary>Last log lines</summary>');
    expect(md).toContain('  api  | panic: boom');
    // a fence in the logs cannot close ours: only our opening and closing fences are bare
    expect(md.match(/^```$/gm)).toHaveLength(2);
    expect(md.indexOf('panic: boom')).toBeLessThan(md.lastIndexOf('```'));
  });

  it('without details, no details section', () => {
    expect(renderError('perf-gate: config file x.yml: not found', [])).not.toContain('<details>');
  });
});

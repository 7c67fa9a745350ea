// The Markdown report is safe to post (src/report/markdown.ts, src/report/escape.ts): text from the SUT
// and the config escaped, @mentions neutralised, and the comment within GitHub's size.
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, REPORT_BUDGET, reportMarker } from '../../src/report/markdown.js';
import { renderMarkdown } from './render-markdown.js';
import { escapeMarkdown } from '../../src/report/escape.js';
import type { Comparison, ResultsFile, ScenarioResult, Verdict } from '../../src/results/types.js';
import { latency, phase, scenario, cmp, provenance, results, tableRows, cells, tables } from './report-harness.js';

describe('renderMarkdown: escaping text from the SUT and the config', () => {
  const evil = '<img src=x>|**boom**@team';
  const md = renderMarkdown(
    results({
      runId: 'run|<b>1</b>',
      provenance: provenance({
        runner: { os: 'linux', cpuModel: 'Intel\n# pwned', cores: 2, memoryBytes: 1024 },
        docker: { version: '<script>alert(1)</script>', apiVersion: null },
        sut: { images: { 'api|x': { image: 'evil|image<img src=y>', id: 'sha256:1', digest: '@octocat' } } },
      }),
      scenarios: [
        scenario('api', [
          phase('c10', {
            merged: { errors: { [evil]: 3 }, statusCodes: { '200': 990, '500': 10 } },
            flags: [`keep-alive ${evil}`],
          }),
        ]),
      ],
      comparisons: [
        cmp({ metric: 'p99', result: 'inconclusive', reason: `odd ${evil}` }),
        cmp({
          metric: 'error-class',
          baseline: 0,
          current: 3,
          delta: null,
          band: 'no new error classes',
          result: 'regression',
          reason: `new error class ${evil} (3×), never seen in the baseline`,
        }),
      ],
      scenarioStatus: [{ scenario: 'api', baseline: 'present', baselineCommit: '@someone|x' }],
    }),
  );

  it('no raw HTML', () => {
    expect(md).not.toMatch(/<img/i);
    expect(md).not.toMatch(/<script/i);
    expect(md).not.toMatch(/<b>/);
    expect(md).toContain('&lt;img src=x&gt;');
  });

  it('no live @mention', () => {
    expect(md).not.toMatch(/@team/);
    expect(md).not.toMatch(/@octocat/);
    expect(md).not.toMatch(/@someone/);
    expect(md).toContain('@\u200bteam');
  });

  it('no unescaped emphasis from the input', () => {
    expect(md).not.toContain('**boom**');
    expect(md).toContain('\\*\\*boom\\*\\*');
  });

  it('no new line starts from input text', () => {
    expect(md.split('\n').some((l) => l.startsWith('# pwned'))).toBe(false);
  });

  it('every table row has as many cells as its header', () => {
    const all = tables(md);
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const t of all) {
      const width = cells(t[0] as string).length;
      for (const row of t) expect(cells(row), row).toHaveLength(width);
    }
  });

  it('the error kind reaches the bullets, the table and the errors table escaped', () => {
    const escaped = escapeMarkdown(evil);
    expect(md).toContain(`- **api/c10** error-class: new error class ${escaped} (3×), never seen in the baseline`);
    expect(md).toContain(`${escaped}: 3`);
    expect(md).toContain(`❔ inconclusive: odd ${escaped}`);
  });
});

describe('escapeMarkdown', () => {
  it.each<[string, string, string]>([
    ['plain text', 'ECONNRESET', 'ECONNRESET'],
    ['empty', '', ''],
    ['numbers and spaces', 'HTTP 500 (12×)', 'HTTP 500 (12×)'],
    ['unicode', 'é ü µs 😀', 'é ü µs 😀'],
    ['pipe', 'a|b', 'a\\|b'],
    ['html tag', '<img src=x>', '&lt;img src=x&gt;'],
    ['html comment', '<!-- x -->', '&lt;!-- x --&gt;'],
    ['ampersand', 'a & b', 'a &amp; b'],
    ['entity', '&lt;', '&amp;lt;'],
    ['bold', '**boom**', '\\*\\*boom\\*\\*'],
    ['underscore', '_x_', '\\_x\\_'],
    ['backtick', '`code`', '\\`code\\`'],
    ['link', '[x](http://e)', '\\[x\\](http://e)'],
    ['image', '![x](http://e)', '!\\[x\\](http://e)'],
    ['strike', '~~s~~', '\\~\\~s\\~\\~'],
    ['braces', '{x}', '\\{x\\}'],
    ['backslash', 'a\\b', 'a\\\\b'],
    ['backslash before a pipe', '\\|', '\\\\\\|'],
    ['mention', '@team', '@\u200bteam'],
    ['team mention', '@org/team', '@\u200borg/team'],
    ['newline', 'line1\nline2', 'line1 line2'],
    ['CRLF and blank lines', 'a\r\n\r\nb', 'a b'],
    ['combined', '<img src=x>|**boom**@team', '&lt;img src=x&gt;\\|\\*\\*boom\\*\\*@\u200bteam'],
  ])('%s: %j → %j', (_label, input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });

  it.each(['<a href="x">', 'x\ny', '|||', '@a @b', '**_~`[]{}\\'])('output of %j is inert', (input) => {
    const out = escapeMarkdown(input);
    expect(out).not.toMatch(/[<>\n\r]/);
    expect(out).not.toMatch(/(?<!\\)(?:\\\\)*[|*_~`[\]{}]/);
    expect(out).not.toMatch(/@(?!\u200b)/);
  });
});

describe('renderMarkdown: size', () => {
  const metrics = ['p50', 'p99', 'rps', 'errors'];

  /** `n` scenarios × `phases` phases × 4 metrics; `regressions` of them (at the end) regress. */
  function big(n: number, phases: number, regressions: number, extra: Partial<ResultsFile> = {}): ResultsFile {
    const scenarios: ScenarioResult[] = [];
    const comparisons: Comparison[] = [];
    for (let s = 0; s < n; s++) {
      const name = `scenario-${String(s).padStart(4, '0')}`;
      const ps = Array.from({ length: phases }, (_, p) =>
        phase(`phase-${p}`, {
          merged: { statusCodes: { '200': 1000, '503': 3 }, errors: { ECONNRESET: 1, timeout: 2 } },
        }),
      );
      scenarios.push(scenario(name, ps, { baselineLatency: { 'phase-0': latency() } }));
      for (const p of ps)
        for (const metric of metrics) comparisons.push(cmp({ scenario: name, phase: p.name, metric }));
    }
    // the regressions are the last comparisons, so the renderer has to sort them first
    for (let i = 0; i < regressions; i++) {
      const c = comparisons[comparisons.length - 1 - i] as Comparison;
      Object.assign(c, { current: 3000, delta: 2, result: 'regression' as Verdict, pValue: 0.001 });
    }
    return {
      ...results({
        scenarios,
        comparisons,
        scenarioStatus: scenarios.map((s) => ({ scenario: s.name, baseline: 'present' as const })),
      }),
      ...extra,
    };
  }

  const MARGIN = 300;

  it.each<[string, number, number, number]>([
    ['300 scenarios × 3 phases, 5 regressions', 300, 3, 5],
    ['100 scenarios × 10 phases, 40 regressions', 100, 10, 40],
    ['1 scenario × 800 phases, 1 regression', 1, 800, 1],
  ])('budget 8000: %s', (_label, n, phases, regressions) => {
    const input = big(n, phases, regressions);
    const md = renderMarkdown(input, { budget: 8000 });
    expect(md.length).toBeLessThanOrEqual(8000 + MARGIN);
    expect(md.split('\n')[0]).toBe(reportMarker(''));
    expect(md.split('\n')[1]).toBe(
      `### ❌ perf-gate: ${regressions} regression${regressions === 1 ? '' : 's'} in scenario-${String(n - 1).padStart(4, '0')}`,
    );
    // the table is the regressions (every other row passes, and is folded), as many as fit
    const rows = tableRows(md).map(cells);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r[7]?.startsWith('❌ regression'))).toBe(true);
    if (rows.length < regressions)
      expect(md).toContain(`… ${regressions - rows.length} more rows in the results file.`);
    const passing = input.comparisons.length - regressions;
    expect(md).toContain(
      `_${passing} passing rows not shown here (too many for a comment); the results file has them._`,
    );
    expect(md).toMatch(/_\d+ detail sections? omitted to stay under GitHub's comment size limit/);
    expect(md.endsWith('</sub>\n')).toBe(true);
  });

  it('budget 8000 with more regressions than fit: only regression rows are kept', () => {
    const md = renderMarkdown(big(200, 3, 600), { budget: 8000 });
    expect(md.length).toBeLessThanOrEqual(8000 + MARGIN);
    expect(md).toContain('### ❌ perf-gate: 600 regressions');
    const rows = tableRows(md).map(cells);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r[7]?.startsWith('❌ regression'))).toBe(true);
  });

  it('a small input is not cut', () => {
    const input = big(2, 2, 1);
    const md = renderMarkdown(input, { budget: 8000 });
    expect(tableRows(md)).toHaveLength(input.comparisons.length);
    expect(md).not.toContain('more rows in the results file');
    expect(md).not.toContain('omitted');
    expect(md.match(/<details>/g)).toHaveLength(6);
  });

  it('detail sections are dropped before table rows', () => {
    const input = big(10, 3, 1);
    const full = renderMarkdown(input);
    const md = renderMarkdown(input, { budget: full.length - 10 });
    // the one regression in the table; the 119 passing rows folded under it, kept before any detail
    expect(tableRows(md)).toHaveLength(1);
    expect(md).toContain('<details><summary>119 passing rows</summary>');
    expect(md).toContain('omitted');
  });

  it.each<[string, ResultsFile]>([
    ['2000 scenarios × 5 phases', big(2000, 5, 30)],
    ['one scenario with 20,000 phases', big(1, 20_000, 3)],
  ])('default budget: %s stays under GitHub’s limit', (_label, input) => {
    const md = renderMarkdown(input);
    expect(REPORT_BUDGET).toBeLessThan(COMMENT_LIMIT);
    expect(md.length).toBeLessThan(COMMENT_LIMIT);
    expect(md.length).toBeLessThanOrEqual(REPORT_BUDGET + MARGIN);
    expect(md).toContain('### ❌ perf-gate:');
    expect(md).toContain('passing rows not shown here');
  });

  // a first run of a big config, or a saturated runner, must not crowd out the verdict and the table
  it.each<[string, (r: ResultsFile) => ResultsFile]>([
    [
      'every scenario without a baseline (a first run)',
      (r) => ({
        ...r,
        scenarioStatus: r.scenarios.map((s) => ({ scenario: s.name, baseline: 'missing' as const })),
      }),
    ],
    [
      'every baseline stale',
      (r) => ({
        ...r,
        scenarioStatus: r.scenarios.map((s) => ({
          scenario: s.name,
          baseline: 'stale' as const,
          baselineTime: '2024-05-01T00:00:00Z',
        })),
      }),
    ],
    [
      'every phase flagged',
      (r) => ({
        ...r,
        scenarios: r.scenarios.map((s) => ({
          ...s,
          phases: s.phases.map((p) => ({
            ...p,
            flags: ['generator-bound: runner CPU at 99%', 'keep-alive: server closes connections'],
          })),
        })),
      }),
    ],
  ])('budget 8000, 300 scenarios × 3 phases, %s: still within budget', (_label, edit) => {
    const md = renderMarkdown(edit(big(300, 3, 5)), { budget: 8000 });
    expect(md.split('\n')[1]).toBe('### ❌ perf-gate: 5 regressions in scenario-0299');
    expect(md.length).toBeLessThanOrEqual(8000 + MARGIN);
    const rows = tableRows(md).map(cells);
    expect(rows.slice(0, 5).every((r) => r[7]?.startsWith('❌ regression'))).toBe(true);
    expect(md).toMatch(/\b\d+ (more|passing rows)\b/);
  });

  it.each<[string, (r: ResultsFile) => ResultsFile]>([
    [
      'every scenario without a baseline',
      (r) => ({ ...r, scenarioStatus: r.scenarios.map((s) => ({ scenario: s.name, baseline: 'missing' as const })) }),
    ],
    [
      'every phase flagged',
      (r) => ({
        ...r,
        scenarios: r.scenarios.map((s) => ({
          ...s,
          phases: s.phases.map((p) => ({ ...p, flags: ['generator-bound: runner CPU at 99%'] })),
        })),
      }),
    ],
  ])('default budget, 2000 scenarios × 3 phases, %s: under GitHub’s limit', (_label, edit) => {
    const md = renderMarkdown(edit(big(2000, 3, 5)));
    expect(md.length).toBeLessThan(COMMENT_LIMIT);
  });
});

// Untrusted text in every field a report renders (issue 20, class 1 and 2): a results file from a fork
// (report mode), the config's names, the SUT's logs. The escaping helpers by table, then a fuzz test
// that fills every text field with random and hostile strings and checks the Markdown's structure.
import { describe, expect, it } from 'vitest';
import { historyEntry } from '../../src/history/history.js';
import { renderTrend } from '../../src/report/trend.js';
import { bounded, escapeCodeBlock, escapeMarkdown, mermaidText, TEXT_LIMIT } from '../../src/report/escape.js';
import { COMMENT_LIMIT, fitted, renderError } from '../../src/report/markdown.js';
import { renderMarkdown } from './render-markdown.js';
import type { Comparison, ResultsFile, ScenarioResult } from '../../src/results/types.js';
import { seededRandom } from '../../src/stats/random.js';
import { comparison, phase, resultsFile } from './fixtures.js';

describe('escapeMarkdown: one inert line', () => {
  it.each<[string, string, string]>([
    ['HTML', '<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['closing tags', '</details></sub>', '&lt;/details&gt;&lt;/sub&gt;'],
    ['a mention', 'ping @octocat', 'ping @\u200boctocat'],
    ['a team mention', '@org/team', '@\u200borg/team'],
    ['a heading on a new line', 'x\n# Owned', 'x \\# Owned'],
    ['a code fence', '```js', '\\`\\`\\`js'],
    ['table pipes', 'a|b', 'a\\|b'],
    ['an image link', '![x](http://e)', '!\\[x\\](http://e)'],
    ['CR, LF and line separators', 'a\r\nb\u2028c', 'a b c'],
    ['an entity', '&lt;', '&amp;lt;'],
  ])('%s', (_l, input, output) => {
    expect(escapeMarkdown(input)).toBe(output);
  });

  it('bounds the size', () => {
    expect(escapeMarkdown('a'.repeat(10_000))).toHaveLength(TEXT_LIMIT);
    expect(bounded('abcdef', 4)).toBe('abc…');
    expect(bounded('abc', 4)).toBe('abc');
  });
});

describe('escapeCodeBlock and mermaidText', () => {
  it.each<[string, string]>([
    ['```\n# out', '`\u200b`\u200b`\n# out'],
    ['~~~~', '~\u200b~\u200b~\u200b~'],
    ['@octocat', '@\u200boctocat'],
  ])('code block %j', (input, output) => {
    expect(escapeCodeBlock(input)).toBe(output);
  });

  it.each<[string, string]>([
    ['api/c10', 'api/c10'],
    ['<img>', '_img_'],
    ['x" ]\n```\n# owned', 'x_ _______ owned'],
  ])('mermaid %j → %j', (input, output) => {
    expect(mermaidText(input)).toBe(output);
  });

  it('mermaid labels are bounded', () => {
    expect(mermaidText('a'.repeat(500))).toHaveLength(80);
  });
});

/** Random and hostile strings, from a seeded generator (the same every run). */
function hostileStrings(seed: number): () => string {
  const random = seededRandom(seed);
  const pieces = [
    '<img src=x>',
    '</details>',
    '</sub>',
    '</summary>',
    '<!--',
    '-->',
    '@octocat',
    '@org/team',
    '\n# heading\n',
    '\n## h2',
    '```',
    '~~~',
    '\n```mermaid\n',
    '|',
    '" ]\n',
    '[link](http://x)',
    '<script>',
    '\u2028',
    '\r\n',
    'é',
    '🙂',
    'x'.repeat(3000),
  ];
  return () => {
    const n = 1 + Math.floor(random() * 6);
    let s = '';
    for (let i = 0; i < n; i++) {
      s +=
        random() < 0.7
          ? (pieces[Math.floor(random() * pieces.length)] as string)
          : String.fromCharCode(32 + Math.floor(random() * 95));
    }
    return s;
  };
}

/** A results file whose every text field is hostile: names, metrics, bands, reasons, flags, notes. */
function hostileResults(text: () => string, phases: number, ab: boolean): ResultsFile {
  const scenarios: ScenarioResult[] = [];
  const comparisons: Comparison[] = [];
  for (let si = 0; si < 3; si++) {
    const name = text();
    const ps = Array.from({ length: phases }, () => phase(text(), { latency: { p50: 1000 } }, undefined, [text()]));
    scenarios.push({ name, scenarioHash: text(), phases: ps, baselineLatency: {} });
    for (const p of ps) {
      for (const result of ['regression', 'inconclusive', 'invalid', 'pass'] as const) {
        comparisons.push(
          comparison({ scenario: name, phase: p.name, metric: text(), band: text(), reason: text(), result }),
        );
      }
    }
  }
  return resultsFile(scenarios, comparisons, {
    runId: text(),
    config: text(),
    finishedAt: text(),
    scenarioStatus: scenarios.map((s) => ({
      scenario: s.name,
      baseline: 'stale' as const,
      baselineTime: text(),
      baselineCommit: text(),
      machine: text(),
    })),
    ...(ab
      ? {
          mode: 'ab',
          ab: {
            baseRef: text(),
            baseCommit: text(),
            headCommit: text(),
            pairs: 6,
            order: 'random' as const,
            seed: 1,
            orders: scenarios.flatMap((s) => s.phases.map((p) => ({ scenario: s.name, phase: p.name, order: [] }))),
            baseImages: { [text()]: { image: text(), id: text(), digest: text() } },
            base: scenarios,
            notes: [text(), text()],
          },
        }
      : {}),
  });
}

/** The structure a hostile field must not change. */
function checkStructure(md: string, ownHeadings: number): void {
  expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT);
  // what a fenced code block holds is shown as text: HTML and mentions there are inert (and
  // escapeCodeBlock neutralises mentions anyway); the checks below are for everything else
  const outside = md.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  // our headline is the only heading
  expect(md.split('\n').filter((l) => /^\s{0,3}#{1,6}(\s|$)/.test(l))).toHaveLength(ownHeadings);
  // every fence closes
  expect((md.match(/^\s{0,3}(```|~~~)/gm) ?? []).length % 2).toBe(0);
  // no live mention
  expect(md).not.toMatch(/(^|[^\w`])@(?!\u200b)[A-Za-z0-9]/m);
  // no raw HTML but our own tags
  const tags = outside.match(/<\/?[A-Za-z!][^>]*>?/g) ?? [];
  for (const t of tags) expect(t).toMatch(/^(<\/?(details|summary|sub)>|<!-- perf-gate-report id=[\w.-]+ -->)$/);
}

describe('renderMarkdown: hostile text in every field (fuzz)', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i: structure kept, mentions dead, under the limit', (seed) => {
    const text = hostileStrings(seed);
    for (const ab of [false, true]) {
      const results = hostileResults(text, 4, ab);
      checkStructure(renderMarkdown(results), 1);
    }
  });

  it.each([11, 12, 13])('seed %i, a sweep: no name gets out of its Mermaid block', (seed) => {
    const text = hostileStrings(seed);
    const results = { ...hostileResults(text, 3, false), mode: 'sweep', comparisons: [], unswept: [text()] };
    for (const s of results.scenarios) s.name = `${text()}"\n\`\`\`\n# owned ${text()}`;
    // the headline, and a heading per scenario
    checkStructure(renderMarkdown(results), 1 + results.scenarios.length);
  });

  it('a file with many long phases still fits GitHub, keeps the verdict and says what was cut', () => {
    const text = hostileStrings(99);
    const results = hostileResults(text, 300, false);
    const md = renderMarkdown(results);
    checkStructure(md, 1);
    expect(md.split('\n')[1]).toMatch(/^### ❌ perf-gate: \d+ regressions/);
  });

  it('the trend charts and the error report keep their structure too', () => {
    const text = hostileStrings(5);
    const results = hostileResults(text, 2, false);
    const entry = historyEntry(results);
    const trend = renderTrend([{ ...entry, runId: 'a', commit: text() }], entry);
    checkStructure(`<!-- perf-gate-report id=x -->\n${trend}`, 0);
    checkStructure(`<!-- perf-gate-report id=x -->\n${renderError(text(), [text(), text(), '```', '@octocat'])}`, 1);
  });

  it('fitted closes a fence and a details block it cut open, and says so', () => {
    const report = `### v\n\n<details><summary>s</summary>\n\n\`\`\`\n${'line\n'.repeat(30_000)}\`\`\`\n\n</details>\n`;
    const out = fitted(report, 10_000);
    expect(out.length).toBeLessThanOrEqual(10_000);
    expect((out.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect(out.match(/<details>/g)).toHaveLength((out.match(/<\/details>/g) ?? []).length);
    expect(out).toContain("cut here to stay under GitHub's comment size limit");
  });
});

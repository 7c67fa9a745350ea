// Outputs are a seam (issue 32): one module per format behind OUTPUTS; the run, `perf-gate report`
// and the Action find a format by name there. The `@ts-expect-error` lines are checked by tsc: a map
// missing a format, or an output missing a part, would compile without them.
import { describe, expect, it } from 'vitest';
import {
  formatNamed,
  formatNames,
  type Output,
  type OutputFormat,
  OUTPUTS,
  parseOutFormat,
  STANDALONE,
} from '../../src/outputs/index.js';
import { csv } from '../../src/outputs/csv.js';
import { renderCsv } from '../../src/report/csv.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from './render-markdown.js';
import { stableStringify } from '../../src/results/files.js';
import { comparison, phase, resultsFile } from './fixtures.js';

/** OUTPUTS without one format does not compile. */
const { csv: _csv, ...withoutCsv } = OUTPUTS;
// @ts-expect-error -- csv has no module
export const partialOutputs: { readonly [F in OutputFormat]: Output } = withoutCsv;

/** An output that does not render does not compile. */
const { render: _render, ...csvWithoutRender } = csv;
// @ts-expect-error -- render is missing
export const halfOutput: Output = csvWithoutRender;

/** OUTPUTS itself has a module for every format (its own declaration, not only the annotation above). */
const _everyFormat: [Exclude<OutputFormat, keyof typeof OUTPUTS>] extends [never] ? true : never = true;
export const everyFormat = _everyFormat;

/** A new format name: the map stops compiling until it has a module. */
// @ts-expect-error -- xlsx has no module
export const newFormat: { readonly [F in OutputFormat | 'xlsx']: Output } = OUTPUTS;

const gated = resultsFile(
  [{ name: 'api', scenarioHash: 'h', phases: [phase('c10', {})] }],
  [comparison({ result: 'regression' })],
);

describe('outputs', () => {
  it('every name stands for one format; each format is found by its own name first', () => {
    const names = formatNames();
    expect(new Set(names).size).toBe(names.length);
    for (const [format, output] of Object.entries(OUTPUTS)) expect(formatNamed(output.names[0])).toBe(format);
    expect(formatNamed('md')).toBe('markdown');
    expect(formatNamed('text')).toBe('terminal');
    expect(formatNamed('xlsx')).toBe(undefined);
    expect(formatNamed('toString')).toBe(undefined);
  });

  it('each renders what its renderer renders (the report formats unchanged)', () => {
    expect(OUTPUTS.results.render(gated, STANDALONE)).toBe(stableStringify(gated));
    expect(OUTPUTS.markdown.render(gated, STANDALONE)).toBe(renderMarkdown(gated));
    expect(OUTPUTS.junit.render(gated, STANDALONE)).toBe(renderJunit(gated));
    expect(OUTPUTS.csv.render(gated, STANDALONE)).toBe(renderCsv(gated));
    expect(JSON.parse(OUTPUTS.json.render(gated, STANDALONE))).toMatchObject({ verdict: 'regression', regressions: 1 });
  });

  it('the history is written by a run that records (update) only, appended to what the file held', () => {
    const update = { ...gated, mode: 'update' };
    expect(OUTPUTS.history.writes(gated)).toBe(false);
    expect(OUTPUTS.history.writes(update)).toBe(true);
    expect(OUTPUTS.history.writes({ ...update, scenarios: [] })).toBe(false);
    // an update that refused to record (a row failing on nearly every request) appends nothing
    const failing = { row: 'api/c10', line: 'api/c10: 10 of 10 requests failed, most as HTTP 500 (10×)' };
    expect(OUTPUTS.history.writes({ ...update, failing: [failing] })).toBe(false);
    expect(OUTPUTS.history.writes({ ...update, failing: [{ ...failing, accepted: true as const }] })).toBe(true);
    const first = OUTPUTS.history.render(update, STANDALONE);
    const second = OUTPUTS.history.render({ ...update, runId: 'r2' }, { ...STANDALONE, history: first });
    expect(second.startsWith(first)).toBe(true);
    expect(second.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it("the Markdown report's level shifts follow the results file's history: settings", () => {
    const update = { ...gated, mode: 'update' };
    let history = '';
    for (let i = 0; i < 8; i++)
      history = OUTPUTS.history.render({ ...update, runId: `r${i}` }, { ...STANDALONE, history });
    const md = (r: typeof update) => OUTPUTS.markdown.render(r, { ...STANDALONE, history });
    expect(md(update)).toContain('p ≤ 0.01, 5% or more of the level before');
    expect(md({ ...update, shiftSettings: { minShift: 0.1, alpha: 0.05 } })).toContain(
      'p ≤ 0.05, 10% or more of the level before',
    );
  });

  it.each<[string, string | RegExp]>([
    ['junit=out/j.xml', 'junit out/j.xml'],
    ['md=a=b.md', 'markdown a=b.md'],
    ['text=t.txt', 'terminal t.txt'],
    ['xml=j.xml', /^--out-format xml=j\.xml: unknown format xml \(FORMAT=PATH; formats: /],
    ['csv', /^--out-format csv: no path \(FORMAT=PATH, e\.g\. csv=perf\.csv\)$/],
  ])('--out-format %s', (given, expected) => {
    if (typeof expected === 'string') {
      const r = parseOutFormat(given, '--out-format');
      expect(`${r.format} ${r.path}`).toBe(expected);
    } else expect(() => parseOutFormat(given, '--out-format')).toThrow(expected);
  });
});

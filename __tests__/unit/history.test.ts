import { describe, expect, it } from 'vitest';
import {
  appendHistory,
  HISTORY_SCHEMA,
  HISTORY_ACCEPTANCES_MAX,
  historyAcceptance,
  historyEntry,
  parseHistory,
  type HistoryAcceptance,
  type HistoryEntry,
} from '../../src/history/history.js';
import { renderTrend, TREND_MAX_PHASES } from '../../src/report/trend.js';
import { renderMarkdown } from './render-markdown.js';
import { comparison, phase, resultsFile } from './fixtures.js';

const entry = (i: number, over: Partial<HistoryEntry> = {}, p99 = 2000 + i * 100): HistoryEntry => ({
  schema: HISTORY_SCHEMA,
  time: `2026-11-${String(i + 1).padStart(2, '0')}T03:00:00.000Z`,
  commit: `c${i}`.padEnd(40, '0'),
  ref: 'refs/heads/main',
  runId: `run${i}`,
  mode: 'update',
  phases: { 'api/c10': { rps: 1000 - i, p50: 1000, p99, errors: 0 } },
  ...over,
});

describe('historyEntry', () => {
  it('summarises each scenario/phase: rps to 0.1, p50 and p99 in µs, errors of every kind', () => {
    const r = resultsFile(
      [
        {
          name: 'api',
          scenarioHash: 'h',
          phases: [
            phase('c10', { rps: 123.456, latency: { p50: 900, p99: 4100 }, failures: 2, errors: { timeout: 3 } }),
          ],
        },
      ],
      [comparison()],
      { mode: 'update', runId: 'r9' },
    );
    expect(historyEntry(r)).toEqual({
      schema: HISTORY_SCHEMA,
      time: '2026-11-23T12:01:00.000Z',
      commit: 'abc',
      ref: null,
      runId: 'r9',
      mode: 'update',
      machine: { cpuModel: 'cpu', cores: 2 },
      phases: { 'api/c10': { rps: 123.5, p50: 900, p99: 4100, errors: 5 } },
    });
  });
});

describe('parseHistory and appendHistory', () => {
  it('skips and counts lines that are not entries (merge markers, other schemas, broken JSON)', () => {
    const text = [
      JSON.stringify(entry(0)),
      '<<<<<<< HEAD',
      JSON.stringify({ ...entry(1), schema: 'other@9' }),
      '',
      '{"schema": "perf-gate/history@1"',
      JSON.stringify(entry(2)),
    ].join('\n');
    const { entries, skipped } = parseHistory(text);
    expect(entries.map((e) => e.runId)).toEqual(['run0', 'run2']);
    expect(skipped).toBe(3);
  });

  it.each([
    [0, 5, 1],
    [3, 5, 4],
    [5, 5, 5],
    [9, 5, 5],
  ])('%i lines + 1 with max %i keeps %i, the newest last', (existing, max, kept) => {
    let text = '';
    for (let i = 0; i < existing; i++) text += `${JSON.stringify(entry(i))}\n`;
    const out = appendHistory(text, entry(99), max);
    const { entries } = parseHistory(out);
    expect(entries).toHaveLength(kept);
    expect(entries.at(-1)?.runId).toBe('run99');
    expect(out.endsWith('}\n')).toBe(true);
  });

  it.each<[string, (e: ReturnType<typeof entry>) => unknown]>([
    ['a commit that is a number', (e) => ({ ...e, commit: 42 })],
    ['no run id', (e) => ({ ...e, runId: undefined })],
    ['a negative throughput', (e) => ({ ...e, phases: { 'api/c10': { rps: -1, p50: 1, p99: 1, errors: 0 } } })],
    ['a p99 that is text', (e) => ({ ...e, phases: { 'api/c10': { rps: 1, p50: 1, p99: '9', errors: 0 } } })],
    ['a calibration that is text', (e) => ({ ...e, machine: { cpuModel: 'x', cores: 2, calibrationUs: '4000' } })],
    ['phases as a list', (e) => ({ ...e, phases: [] })],
  ])('a line whose fields do not have their types is not an entry: %s', (_label, broken) => {
    const { entries, skipped } = parseHistory(`${JSON.stringify(broken(entry(0)))}\n${JSON.stringify(entry(1))}\n`);
    expect(entries.map((e) => e.runId)).toEqual(['run1']);
    expect(skipped).toBe(1);
  });

  it('drops debris lines when it rewrites the file', () => {
    expect(appendHistory('garbage\n', entry(1))).toBe(`${JSON.stringify(entry(1))}\n`);
  });
});

describe('a pull request’s accepted regressions, kept in the history beside the runs', () => {
  const gate = resultsFile(
    [{ name: 'api', scenarioHash: 'h', phases: [phase('c10', {})] }],
    [
      comparison({
        metric: 'p99',
        delta: 0.3,
        result: 'accepted',
        accepted: { by: 'alice', reason: 'x'.repeat(2000), was: 'regression' },
      }),
      comparison({ metric: 'p50', result: 'pass' }),
    ],
    { runId: 'g1', finishedAt: '2026-11-05T10:00:00.000Z' },
  );

  it('one line per gate run that accepted any: each row’s phase, metric, change, who and why (bounded)', () => {
    const a = historyAcceptance(gate, 9) as HistoryAcceptance;
    expect(a).toMatchObject({ schema: HISTORY_SCHEMA, kind: 'acceptance', time: '2026-11-05T10:00:00.000Z', pr: 9 });
    expect(a.rows).toHaveLength(1);
    expect(a.rows[0]).toMatchObject({ phase: 'api/c10', metric: 'p99', change: 0.3, by: 'alice' });
    expect(a.rows[0]?.reason.length).toBe(501);
    expect(historyAcceptance({ ...gate, comparisons: [comparison()] })).toBeUndefined();
  });

  it('read back apart from the runs, kept in order when a run is appended after it', () => {
    const a = historyAcceptance(gate, 9) as HistoryAcceptance;
    const text = appendHistory(appendHistory(appendHistory('', entry(0)), a), entry(1));
    const parsed = parseHistory(text);
    expect(parsed.entries.map((e) => e.runId)).toEqual(['run0', 'run1']);
    expect(parsed.acceptances).toEqual([a]);
    expect(parsed.lines.map((l) => l.runId)).toEqual(['run0', 'g1', 'run1']);
    expect(parsed.skipped).toBe(0);
  });

  it('a pull request’s latest acceptances only (a re-run says them again); they never push runs out', () => {
    const a = historyAcceptance(gate, 9) as HistoryAcceptance;
    const again = { ...a, runId: 'g2' };
    const other = { ...a, runId: 'g3', pr: 10 };
    let text = appendHistory(appendHistory(appendHistory('', a), other), again);
    expect(parseHistory(text).acceptances.map((x) => x.runId)).toEqual(['g3', 'g2']);
    // 3 runs kept at most: the acceptances since the oldest kept run stay, and none counts as a run
    for (let i = 0; i < 5; i++) text = appendHistory(text, entry(i), 3);
    const parsed = parseHistory(text);
    expect(parsed.entries.map((e) => e.runId)).toEqual(['run2', 'run3', 'run4']);
    expect(parsed.acceptances).toEqual([]);
    text = appendHistory(text, { ...a, pr: 11 }, 3);
    text = appendHistory(text, entry(5), 3);
    expect(parseHistory(text).lines.map((l) => l.runId)).toEqual(['run3', 'run4', 'g1', 'run5']);
  });

  it(`at most ${HISTORY_ACCEPTANCES_MAX} acceptance lines, the latest`, () => {
    const a = historyAcceptance(gate, 9) as HistoryAcceptance;
    let text = appendHistory('', entry(0));
    for (let i = 0; i < HISTORY_ACCEPTANCES_MAX + 5; i++)
      text = appendHistory(text, { ...a, pr: i + 1, runId: `g${i}` });
    const parsed = parseHistory(text);
    expect(parsed.acceptances).toHaveLength(HISTORY_ACCEPTANCES_MAX);
    expect(parsed.acceptances[0]?.runId).toBe('g5');
    expect(parsed.entries).toHaveLength(1);
  });

  it.each<[string, (a: HistoryAcceptance) => unknown]>([
    ['rows that are not a list', (a) => ({ ...a, rows: {} })],
    ['a reason that is not text', (a) => ({ ...a, rows: [{ ...a.rows[0], reason: 7 }] })],
    ['a reason of 10,000 characters', (a) => ({ ...a, rows: [{ ...a.rows[0], reason: 'y'.repeat(10_000) }] })],
    ['a pull request that is no number', (a) => ({ ...a, pr: '9' })],
    ['a change that is text', (a) => ({ ...a, rows: [{ ...a.rows[0], change: '0.3' }] })],
    ['201 rows', (a) => ({ ...a, rows: Array.from({ length: 201 }, () => a.rows[0]) })],
  ])('an acceptance line whose fields do not have their types or bounds is skipped: %s', (_label, broken) => {
    const a = historyAcceptance(gate, 9) as HistoryAcceptance;
    const parsed = parseHistory(`${JSON.stringify(broken(a))}\n${JSON.stringify(entry(1))}\n`);
    expect(parsed.acceptances).toEqual([]);
    expect(parsed.skipped).toBe(1);
  });
});

describe('renderTrend', () => {
  it('nothing to draw with fewer than two runs', () => {
    expect(renderTrend([])).toBe('');
    expect(renderTrend([entry(0)])).toBe('');
    expect(renderTrend([], entry(0))).toBe('');
  });

  it('p99, p50 and throughput over the runs, this run last, labelled by short commit', () => {
    const md = renderTrend([entry(0), entry(1)], entry(2, { commit: 'deadbeefcafe', runId: 'now' }, 5000));
    expect(md).toContain('Last 3 runs, this one last');
    expect(md).toContain('x-axis ["c000000", "c100000", "deadbee"]');
    expect(md).toContain(
      'title "api/c10: p99 (ms)"\n  x-axis ["c000000", "c100000", "deadbee"]\n  y-axis "ms" 0 --> 10\n  line [2, 2.1, 5]',
    );
    expect(md).toContain('line [1000, 999, 998]');
    expect(md.match(/```mermaid/g)).toHaveLength(3);
  });

  it('the current run is not drawn twice when the history already has it (an update that appended)', () => {
    const md = renderTrend([entry(0), entry(1)], entry(1));
    expect(md).toContain('Last 2 runs');
  });

  it('keeps the last N points, numbers runs without a commit, skips phases with one point', () => {
    const many = Array.from({ length: 30 }, (_, i) => entry(i, i === 29 ? { commit: null } : {}));
    const md = renderTrend(many, undefined, true, 20);
    expect(md).toContain('Last 20 runs (from the history file)');
    expect(md).toContain('"run 20"]');
    const onePoint = renderTrend([
      entry(0),
      entry(1, { phases: { 'api/new': { rps: 1, p50: 1, p99: 1, errors: 0 } } }),
    ]);
    expect(onePoint).toBe('');
  });

  it(`draws at most ${TREND_MAX_PHASES} phases and counts the rest`, () => {
    const phases = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [`s/p${i}`, { rps: 1, p50: 1000, p99: 1000, errors: 0 }]),
    );
    const md = renderTrend([entry(0, { phases }), entry(1, { phases })]);
    expect(md.match(/```mermaid/g)).toHaveLength(TREND_MAX_PHASES * 3);
    expect(md).toContain('_3 more phases in the history file._');
  });

  it('escapes a scenario name in the Markdown heading and never breaks the chart title quotes', () => {
    const md = renderTrend([
      entry(0, { phases: { 'a"b/<c>': { rps: 1, p50: 1, p99: 1, errors: 0 } } }),
      entry(1, { phases: { 'a"b/<c>': { rps: 1, p50: 1, p99: 1, errors: 0 } } }),
    ]);
    expect(md).toContain('**a"b/&lt;c&gt;**');
    expect(md).toContain('title "a_b/_c_: p99 (ms)"');
  });
});

describe('the report with a trend', () => {
  it('shows it collapsed after the latency chart; without one there is no section', () => {
    const r = resultsFile([{ name: 'api', scenarioHash: 'h', phases: [phase('c10', {})] }], [comparison()]);
    const trend = renderTrend([entry(0), entry(1)]);
    const md = renderMarkdown(r, { trend });
    expect(md).toContain('<summary>Trend over recent runs</summary>');
    expect(md.indexOf('Latency percentiles chart')).toBeLessThan(md.indexOf('Trend over recent runs'));
    expect(renderMarkdown(r)).not.toContain('Trend over recent runs');
  });
});

// The trend history as one static page (report/history-html.ts, `perf-gate history FILE --html PAGE`):
// three charts a phase, each level shift marked where it showed and listed, nothing loaded, every
// text escaped, bounded.
import { describe, expect, it } from 'vitest';
import { HISTORY_SCHEMA, type HistoryEntry, type HistoryPoint } from '../../src/history/history.js';
import { historyShifts } from '../../src/history/shifts.js';
import { historyPage, MAX_HISTORY_PHASES, renderHistoryHtml } from '../../src/report/history-html.js';

/** `n` runs, `phases(i)` each run's phases. */
function history(n: number, phases: (i: number) => Record<string, Partial<HistoryPoint>>): HistoryEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    schema: HISTORY_SCHEMA,
    time: `2026-11-01T${String(i).padStart(2, '0')}:00:00Z`,
    commit: `c${i}`.padEnd(40, '0'),
    ref: 'refs/heads/main',
    runId: `r${i}`,
    mode: 'update',
    machine: { cpuModel: 'Xeon', cores: 2 },
    phases: Object.fromEntries(
      Object.entries(phases(i)).map(([k, v]) => [k, { rps: 1000, p50: 2000, p99: 5000, errors: 0, ...v }]),
    ),
  }));
}
const wobble = (i: number) => 1 + 0.02 * Math.sin(i * 2.1);

describe('renderHistoryHtml', () => {
  const entries = history(20, (i) => ({ 'api/c8': { p99: 5000 * wobble(i) * (i >= 10 ? 1.3 : 1) } }));
  const shifts = historyShifts(entries);

  it('three charts a phase; the p99 shift marked at its run and listed with its commits', () => {
    expect(shifts.map((s) => s.metric)).toEqual(['p99']);
    const html = renderHistoryHtml(entries, shifts);
    expect(html).toContain('<title>perf-gate trend: 20 runs, 1 level shift</title>');
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html.match(/<circle /g)).toHaveLength(60);
    // one dashed line, red (worse), between run 9 and run 10
    expect(html.match(/stroke-dasharray/g)).toHaveLength(1);
    expect(html).toMatch(
      /<line [^>]*stroke="#cf222e" stroke-dasharray="4 3"><title>\+3\d\.\d% \(the code&#39;s\) at c10000000000/,
    );
    expect(html).toMatch(
      /<tr class="regression"><td class="text">api\/c8<\/td><td class="text">p99<\/td><td>\+3\d\.\d%<\/td>/,
    );
    expect(html).toContain('c90000000000 → c10000000000');
  });

  it('two runs with the same time: the mark stands at the shift’s own run (found by its run id)', () => {
    const same = entries.map((x, i) => (i === 9 ? { ...x, time: entries[10]!.time } : x));
    const found = historyShifts(same);
    expect(found.map((f) => f.runId)).toEqual(['r10']);
    const html = renderHistoryHtml(same, found);
    const x = (i: number) => 28 + (i / (same.length - 1)) * (720 - 56);
    // half a step before run 10, not before run 9 (the first with that time)
    expect(html).toContain(`<line x1="${x(9.5).toFixed(1)}"`);
  });

  it('loads nothing and escapes every name', () => {
    const evil = history(4, () => ({ '<script>x</script>/c1': {} }));
    const html = renderHistoryHtml(evil, []);
    expect(html).not.toMatch(/<script|https?:\/\/|\bsrc=|<link/i);
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;/c1');
    expect(html).toContain(
      'No level shift found (E-divisive means over the last 100 runs at most; p ≤ 0.01, 5% or more of the level before).',
    );
  });

  it(`at most ${MAX_HISTORY_PHASES} phases; no runs at all reads as such`, () => {
    const many = history(3, () =>
      Object.fromEntries(Array.from({ length: MAX_HISTORY_PHASES + 5 }, (_, k) => [`s/p${k}`, {}])),
    );
    const html = renderHistoryHtml(many, []);
    expect(html.match(/<h2>s\/p\d+<\/h2>/g)).toHaveLength(MAX_HISTORY_PHASES);
    expect(html).toContain('… and 5 more phases (see the history file).');
    expect(renderHistoryHtml([], [])).toContain('no runs recorded yet');
  });
});

describe('historyPage', () => {
  it('draws every run kept, and looks for level shifts over the last 100 only (a bounded cost)', () => {
    // a +30% step at run 50 and another at run 250 of 300
    const long = history(300, (i) => ({
      'api/c8': { p99: 5000 * wobble(i) * (i >= 50 ? 1.3 : 1) * (i >= 250 ? 1.3 : 1) },
    }));
    const page = historyPage(long, []);
    expect(page).toContain('perf-gate trend: 300 runs, 1 level shift');
    expect(page).toContain('E-divisive means over the last 100 runs at most');
    expect(page).toMatch(/<td class="text">c249\S* → c250/);
  });
});

// The history's level shifts (src/history/shifts.ts): per phase and metric, the run and commit range a
// shift came in, its size and direction, and whether the machine changed there.
import { describe, expect, it } from 'vitest';
import {
  HISTORY_SCHEMA,
  type HistoryAcceptance,
  type HistoryEntry,
  type HistoryPoint,
} from '../../src/history/history.js';
import { renderShifts } from '../../src/report/trend.js';
import { historyShifts, shiftOptions, shiftSettingsOf } from '../../src/history/shifts.js';
import { DEFAULT_SHIFTS, type ShiftSettings } from '../../src/config-parts/types.js';

const MACHINE = { cpuModel: 'Xeon', cores: 2 };

/** `n` runs of one phase, `point(i)` its values at run i, commits c0, c1, … */
function history(
  n: number,
  point: (i: number) => Partial<HistoryPoint>,
  machine = (_i: number) => MACHINE,
): HistoryEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    schema: HISTORY_SCHEMA,
    time: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00Z`,
    commit: `c${i}`,
    ref: 'refs/heads/main',
    runId: `r${i}`,
    mode: 'update',
    machine: machine(i),
    phases: { 'api/c8': { rps: 1000, p50: 2000, p99: 5000, errors: 0, ...point(i) } },
  }));
}

/** A fixed wobble of ±2%: noise that is the same every time. */
const wobble = (i: number) => 1 + 0.02 * Math.sin(i * 2.1);

describe('historyShifts', () => {
  it('a p99 step of +10% at run 12: the commits it came between, worse, the code’s', () => {
    const shifts = historyShifts(history(24, (i) => ({ p99: 5000 * wobble(i) * (i >= 12 ? 1.1 : 1) })));
    expect(shifts).toHaveLength(1);
    expect(shifts[0]).toMatchObject({
      phase: 'api/c8',
      metric: 'p99',
      worse: true,
      commit: 'c12',
      since: 'c11',
      cause: 'code',
      runs: { before: 12, after: 12 },
    });
    expect(shifts[0]?.change).toBeCloseTo(0.1, 1);
    expect(shifts[0]?.pValue).toBeLessThanOrEqual(0.01);
  });

  it('throughput down is worse, up is not', () => {
    const down = historyShifts(history(20, (i) => ({ rps: 1000 * wobble(i) * (i >= 10 ? 0.8 : 1) })));
    expect(down.map((s) => [s.metric, s.worse, s.commit])).toEqual([['rps', true, 'c10']]);
    const up = historyShifts(history(20, (i) => ({ p50: 2000 * wobble(i) * (i >= 10 ? 0.8 : 1) })));
    expect(up.map((s) => [s.metric, s.worse])).toEqual([['p50', false]]);
  });

  it('a shift smaller than minChange is not reported; a flat history has none', () => {
    const small = history(24, (i) => ({ p99: 5000 * (i >= 12 ? 1.03 : 1) }));
    expect(historyShifts(small)).toEqual([]);
    expect(historyShifts(small, { minChange: 0.02 }).map((s) => s.commit)).toEqual(['c12']);
    expect(historyShifts(history(30, (i) => ({ p99: 5000 * wobble(i) })))).toEqual([]);
  });

  it('where the machine changed between the two runs, the shift is the machine’s', () => {
    const shifts = historyShifts(
      history(
        20,
        (i) => ({ p50: 2000 * (i >= 10 ? 1.3 : 1) }),
        (i) => (i >= 10 ? { cpuModel: 'EPYC', cores: 4 } : MACHINE),
      ),
    );
    expect(shifts.map((s) => [s.metric, s.cause])).toEqual([['p50', 'machine']]);
  });

  it('runs without the phase are left out of its series; too few runs, nothing', () => {
    const entries = history(20, (i) => ({ p99: 5000 * (i >= 10 ? 1.5 : 1) }));
    const gaps = entries.map((e, i) => (i % 4 === 3 ? { ...e, phases: {} } : e));
    expect(historyShifts(gaps).map((s) => [s.metric, s.commit, s.since])).toEqual([['p99', 'c10', 'c9']]);
    expect(historyShifts(history(5, (i) => ({ p99: i >= 3 ? 9000 : 5000 })))).toEqual([]);
  });
});

describe('a shift a pull request accepted on purpose is known', () => {
  const stepped = history(24, (i) => ({ p99: 5000 * wobble(i) * (i >= 12 ? 1.2 : 1) }));
  /** an acceptance of `metric` on api/c8 at `time` (run 11 is on the 12th, run 12 on the 13th) */
  const accepted = (time: string, metric = 'p99', phase = 'api/c8'): HistoryAcceptance => ({
    schema: HISTORY_SCHEMA,
    kind: 'acceptance',
    time,
    commit: 'pr-head',
    ref: 'refs/pull/9/merge',
    runId: 'g1',
    pr: 9,
    rows: [{ phase, metric, change: 0.2, by: '@alice', reason: 'a checksum on every response, on purpose' }],
  });

  it.each<[string, HistoryAcceptance[], boolean]>([
    ['accepted between the run before and the run it showed in', [accepted('2026-11-12T12:00:00Z')], true],
    ['accepted at the very run it showed in', [accepted('2026-11-13T00:00:00Z')], true],
    ['another metric of the phase', [accepted('2026-11-12T12:00:00Z', 'p50')], false],
    ['another phase', [accepted('2026-11-12T12:00:00Z', 'p99', 'api/c16')], false],
    ['a mix entry of the phase (scenario/phase.entry)', [accepted('2026-11-12T12:00:00Z', 'p99', 'api/c8.read')], true],
    ['before the run before it', [accepted('2026-11-11T12:00:00Z')], false],
    ['after the run it showed in', [accepted('2026-11-13T12:00:00Z')], false],
    ['none', [], false],
  ])('%s', (_label, acceptances, known) => {
    const [shift] = historyShifts(stepped, { acceptances });
    expect(shift?.commit).toBe('c12');
    if (known)
      expect(shift?.accepted).toEqual({
        by: '@alice',
        reason: 'a checksum on every response, on purpose',
        pr: 9,
        commit: 'pr-head',
      });
    else expect(shift?.accepted).toBeUndefined();
  });

  it('a better shift is never said accepted', () => {
    const better = history(24, (i) => ({ p99: 5000 * wobble(i) * (i >= 12 ? 0.8 : 1) }));
    expect(historyShifts(better, { acceptances: [accepted('2026-11-12T12:00:00Z')] })[0]?.accepted).toBeUndefined();
  });

  it('the report says it, who and why escaped (no ping, no link)', () => {
    const text = renderShifts(stepped, undefined, [accepted('2026-11-12T12:00:00Z')]);
    const line = text.split('\n').find((l) => l.startsWith('- api/c8 p99'));
    expect(line).toMatch(/; \*\*accepted on purpose\*\* in #9 by .*alice: a checksum on every response, on purpose$/);
    expect(line).not.toMatch(/(^|[^`\\])@alice/);
  });
});

describe('the history: settings (min-shift, alpha)', () => {
  it.each<[number, number]>([
    [0.01, 199],
    [0.05, 199],
    [0.2, 199],
    [0.005, 399],
    [0.001, 1999],
  ])('alpha %s: %s shuffles, so the smallest p is at most half of it', (alpha, permutations) => {
    const o = shiftOptions({ minShift: 0.05, alpha });
    expect(o).toEqual({ minChange: 0.05, pValue: alpha, permutations });
    expect(1 / (permutations + 1)).toBeLessThanOrEqual(alpha / 2 + 1e-12);
  });

  it('min-shift decides which steps are named, and the report says the rule it used', () => {
    const small = history(24, (i) => ({ p99: 5000 * wobble(i) * (i >= 12 ? 1.03 : 1) }));
    const found = (s: ShiftSettings) => historyShifts(small, shiftOptions(s)).map((x) => [x.metric, x.commit]);
    expect(found(DEFAULT_SHIFTS)).toEqual([]);
    expect(found({ minShift: 0.02, alpha: 0.01 })).toEqual([['p99', 'c12']]);
    expect(renderShifts(small)).toContain('p ≤ 0.01, 5% or more of the level before');
    const said = renderShifts(small, undefined, [], { minShift: 0.02, alpha: 0.05 });
    expect(said).toContain('p ≤ 0.05, 2% or more of the level before');
    expect(said).toMatch(/^- api\/c8 p99 \*\*\+3(\.\d)?%\*\* \(worse\) at c12/m);
  });

  it('a smaller alpha asks for more evidence: 12 runs, 6 and 6, are named at 0.01 and not at 0.001', () => {
    // 12 runs split 6 and 6 have 924 orders, 2 of them as extreme as the step: p cannot go below 0.002
    const twelve = history(12, (i) => ({ p99: 5000 * wobble(i) * (i >= 6 ? 1.06 : 1) }));
    const at = (alpha: number) =>
      historyShifts(twelve, shiftOptions({ minShift: 0.05, alpha })).map((x) => [x.commit, x.pValue]);
    expect(at(0.01)).toEqual([['c6', 0.005]]);
    expect(at(0.001)).toEqual([]);
    // 24 runs allow it: the same step is named at 0.001 with its own p, from 1,999 shuffles
    const longer = history(24, (i) => ({ p99: 5000 * wobble(i) * (i >= 12 ? 1.06 : 1) }));
    const [strict] = historyShifts(longer, shiftOptions({ minShift: 0.05, alpha: 0.001 }));
    expect(strict?.commit).toBe('c12');
    expect(strict?.pValue).toBe(0.0005);
  });

  it('the results file records them only where they differ from the defaults', () => {
    expect(shiftSettingsOf(DEFAULT_SHIFTS)).toEqual({});
    expect(shiftSettingsOf({ minShift: 0.1, alpha: 0.01 })).toEqual({ shiftSettings: { minShift: 0.1, alpha: 0.01 } });
  });
});

describe('where a shift came in: its run, and the range of runs where noise leaves more than one', () => {
  it('a clean step has its run alone; a step in noise names the commits it came in between (95%)', () => {
    const clean = historyShifts(history(20, (i) => ({ p99: 5000 * (i >= 10 ? 1.3 : 1) })));
    expect(clean.map((s) => [s.commit, s.since, s.range])).toEqual([['c10', 'c9', undefined]]);
    // p99 +8% from run 12 in noise of ±5% (a fixed wobble with a period that does not fit the step)
    const noisy = history(24, (i) => ({ p99: 5000 * (1 + 0.05 * Math.sin(i * 1.7)) * (i >= 12 ? 1.08 : 1) }));
    const [shift] = historyShifts(noisy);
    expect(shift?.range).toBeDefined();
    const first = Number(shift?.range?.since?.slice(1)) + 1;
    const last = Number(shift?.range?.until?.slice(1));
    expect(first).toBeLessThanOrEqual(Number(shift?.commit?.slice(1)));
    expect(last).toBeGreaterThanOrEqual(Number(shift?.commit?.slice(1)));
    expect(shift?.range?.runs).toBe(last - first + 1);
    expect(renderShifts(noisy)).toContain(
      `within ${shift?.range?.runs} runs, after ${shift?.range?.since} up to ${shift?.range?.until} (95%)`,
    );
  });
});

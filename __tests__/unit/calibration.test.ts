// The machine's calibration (stats/calibration.ts) and what the history makes of it
// (history/shifts.ts calibrationMoved): a level shift the calibration moved with is the machine's.
import { describe, expect, it } from 'vitest';
import { HISTORY_SCHEMA, type HistoryEntry } from '../../src/history/history.js';
import { calibrationMoved, historyShifts } from '../../src/history/shifts.js';
import { calibrate, calibrationWork } from '../../src/stats/calibration.js';
import { seededRandom } from '../../src/stats/random.js';

describe('calibrate', () => {
  it("the fixed work is Marsaglia's xorshift32 from his example seed", () => {
    // his paper's first outputs for 2463534242
    expect([1, 2, 3].map(calibrationWork)).toEqual([723471715, 2497366906, 2064144800]);
  });

  it('the fastest of the timings, µs (an interrupted one is only slower)', () => {
    const ticks = [0, 5.2, 10, 13.9, 20, 29.5, 30, 34.2];
    let i = 0;
    const now = () => ticks[i++] as number;
    expect(calibrate(now, 4, 10)).toBe(3900);
  });
});

/** A history of `n` runs whose p50 is `level(i)` and calibration `cal(i)`, each with noise of CV `cv`. */
function runs(n: number, level: (i: number) => number, cal: (i: number) => number, seed: number, cv = 0.05) {
  const rand = seededRandom(seed);
  // a normal draw (Box–Muller)
  const noise = () => 1 + cv * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return Array.from({ length: n }, (_, i): HistoryEntry => ({
    schema: HISTORY_SCHEMA,
    time: `2026-11-01T${String(i).padStart(2, '0')}:00:00Z`,
    commit: `c${i}`,
    ref: null,
    runId: `r${i}`,
    mode: 'update',
    machine: { cpuModel: 'Xeon', cores: 2, calibrationUs: Math.round(cal(i) * noise()) },
    phases: { 'api/c8': { rps: 1000, p50: level(i) * noise(), p99: 5000, errors: 0 } },
  }));
}

describe("a level shift the machine's calibration moved with is the machine's", () => {
  // 20 seeds a case: the Done-when's counts (≥ 19 of 20), printed by the assertion's message
  const seeds = Array.from({ length: 20 }, (_, k) => 7000 + k);
  const p50Shift = (h: HistoryEntry[]) => historyShifts(h).find((s) => s.metric === 'p50');

  it.each<[string, number]>([
    ['+30% drift, the calibration +30% alike', 1.3],
    ['-30% drift (a faster machine), the calibration -30% alike', 0.7],
  ])("%s: the machine's in at least 19 of 20 seeds", (_label, factor) => {
    const calls = seeds.map((seed) => {
      const s = p50Shift(
        runs(
          20,
          (i) => 2000 * (i >= 10 ? factor : 1),
          (i) => 4000 * (i >= 10 ? factor : 1),
          seed,
        ),
      );
      return s?.cause;
    });
    expect(calls.filter((c) => c === 'machine').length, calls.join(' ')).toBeGreaterThanOrEqual(19);
  });

  it("+30% in the code, the calibration flat: the code's in at least 19 of 20 seeds", () => {
    const calls = seeds.map(
      (seed) =>
        p50Shift(
          runs(
            20,
            (i) => 2000 * (i >= 10 ? 1.3 : 1),
            () => 4000,
            seed,
          ),
        )?.cause,
    );
    expect(calls.filter((c) => c === 'code').length, calls.join(' ')).toBeGreaterThanOrEqual(19);
  });

  it.each<[string, number[], number[], number, boolean]>([
    ['slower by as much as the worsening', [100, 100, 100], [130, 130, 130], 0.3, true],
    ['slower by more than half of it', [100, 100], [116, 116], 0.3, true],
    ['slower by less than half', [100, 100], [110, 110], 0.3, false],
    ['faster while the metric got worse', [100, 100], [70, 70], 0.3, false],
    ['faster with an improvement', [100, 100], [75, 75], -0.3, true],
    ['a move under 5% is noise', [100, 100], [104, 104], 0.06, false],
    ['one calibrated run a side says nothing', [100], [130, 130], 0.3, false],
  ])('calibrationMoved: %s', (_label, before, after, worse, want) => {
    const at = (v: number): HistoryEntry => ({
      schema: HISTORY_SCHEMA,
      time: 't',
      commit: null,
      ref: null,
      runId: 'r',
      mode: 'update',
      machine: { cpuModel: 'x', cores: 2, calibrationUs: v },
      phases: {},
    });
    expect(calibrationMoved(before.map(at), after.map(at), worse)).toBe(want);
  });
});

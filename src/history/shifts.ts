// Pure: the level shifts of a trend history (issue 51's change points): per scenario/phase and metric
// (p50, p99, throughput), E-divisive means over the runs that measured it (stats/change-points.ts),
// each shift at least `minChange` of its level before, with the run it showed in, the commit range it
// sits in (the run before it to that run) and whether it made the metric worse. A shift where the
// machine changed between those two runs (another CPU model or core count), or where the machine's
// calibration (stats/calibration.ts) moved with it, is the machine's. A worse shift of a phase and
// metric whose regression a pull request accepted on purpose between those two runs is known: said
// with who accepted it and why.
import type { HistoryAcceptance, HistoryEntry, HistoryPoint } from './history.js';
import {
  type ChangePoint,
  type ChangePointOptions,
  CHANGE_POINT_DEFAULTS,
  changePoints,
  meanSplit,
  shiftLocation,
} from '../stats/change-points.js';
import { seededRandom } from '../stats/random.js';
import { DEFAULT_SHIFTS, type ShiftSettings } from '../config-parts/types.js';

/** The history's metrics a shift is looked for in, and the direction that is worse. */
export const SHIFT_METRICS = { p50: 1, p99: 1, rps: -1 } as const satisfies Partial<Record<keyof HistoryPoint, 1 | -1>>;
export type ShiftMetric = keyof typeof SHIFT_METRICS;

/** The last runs level shifts are looked for over, in the report and on the trend page: the creep of
 * many merges, at a bounded cost (each scan grows with the square of the runs, times the shuffles) */
export const SHIFT_WINDOW = 100;
/** Runs each side of a shift must have: fewer cannot tell a step from one odd run. */
export const SHIFT_MIN_RUNS = 3;

export interface Shift {
  /** scenario/phase */
  phase: string;
  metric: ShiftMetric;
  /** relative change of the level: +0.08 is 8% higher after than before */
  change: number;
  worse: boolean;
  pValue: number;
  /** the first run after the shift: its commit (null when the run had none), time and run id */
  commit: string | null;
  time: string;
  runId: string;
  /** the run before it: the change came in between the two */
  since: string | null;
  /** where the runs' noise leaves more than one run it may have come in at: the commits the change
   * came in between with about 95% confidence (after `since`, up to `until`), over `runs` runs */
  range?: { since: string | null; until: string | null; runs: number };
  /** `machine`: the CPU model or the cores changed between the two runs, or the machine most runs
   * measured on differs either side */
  cause: 'code' | 'machine';
  /** runs each side, up to the shifts next to it */
  runs: { before: number; after: number };
  /** a worse shift a pull request accepted on purpose between the two runs (the latest such) */
  accepted?: { by: string; reason: string; pr?: number; commit: string | null };
}

export interface ShiftOptions extends Partial<ChangePointOptions> {
  /** the smallest shift reported, relative to the level before it (default DEFAULT_SHIFTS.minShift) */
  minChange?: number;
  /** the history's accepted regressions (HistoryAcceptance lines) */
  acceptances?: readonly HistoryAcceptance[];
}

/**
 * The detector's options for the `history:` settings: a shift at most `alpha`, at least `minShift`.
 * The permutation test's smallest p is 1 / (shuffles + 1), so an alpha below 0.01 gets enough
 * shuffles that its smallest p is at most half of it (0.001: 1,999).
 */
export function shiftOptions(settings: ShiftSettings): Pick<ShiftOptions, 'minChange' | 'pValue' | 'permutations'> {
  return {
    minChange: settings.minShift,
    pValue: settings.alpha,
    permutations: Math.max(CHANGE_POINT_DEFAULTS.permutations, Math.ceil(2 / settings.alpha) - 1),
  };
}

/** The results file's `shiftSettings`: the config's `history:`, only where it differs from the defaults. */
export function shiftSettingsOf(settings: ShiftSettings): { shiftSettings?: ShiftSettings } {
  const same = settings.minShift === DEFAULT_SHIFTS.minShift && settings.alpha === DEFAULT_SHIFTS.alpha;
  return same ? {} : { shiftSettings: { minShift: settings.minShift, alpha: settings.alpha } };
}

/** The `history:` settings in words, as the report and the trend page say them. */
export function shiftRule(settings: ShiftSettings): string {
  return `p ≤ ${settings.alpha}, ${+(settings.minShift * 100).toFixed(2)}% or more of the level before`;
}

/**
 * The acceptance of a worse shift of `phase`'s `metric` that came in between the run before it
 * (`since`, exclusive) and the run it showed in (`at`, inclusive), by time: the pull request was gated
 * before its merge, and the first run after the merge showed it. The latest, where there are several.
 */
export function acceptanceOf(
  acceptances: readonly HistoryAcceptance[],
  phase: string,
  metric: string,
  since: string,
  at: string,
): Shift['accepted'] {
  const t0 = Date.parse(since);
  const t1 = Date.parse(at);
  let found: Shift['accepted'];
  let when = -Infinity;
  for (const a of acceptances) {
    const t = Date.parse(a.time);
    if (!(t > t0 && t <= t1) || t < when) continue;
    // a mix entry's row (scenario/phase.entry) is its phase's
    const row = a.rows.find((r) => r.metric === metric && (r.phase === phase || r.phase.startsWith(`${phase}.`)));
    if (!row) continue;
    when = t;
    found = { by: row.by, reason: row.reason, ...(a.pr !== undefined ? { pr: a.pr } : {}), commit: a.commit };
  }
  return found;
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;

/** The machine most of `runs` measured on (entries without one: unknown). */
function usual(runs: readonly HistoryEntry[]): string | undefined {
  const counts = new Map<string, number>();
  for (const e of runs) {
    if (!e.machine) continue;
    const key = `${e.machine.cpuModel}\u0000${e.machine.cores}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** The level shifts of `entries` (oldest first), by phase in the order of the latest entry that has
 * it, then metric, then run. A run that answered nothing (a latency of 0) is no point of a latency's
 * series. A shift under `minChange` is dropped, and the levels of those beside it are taken again
 * without it. */
export function historyShifts(entries: readonly HistoryEntry[], options: ShiftOptions = {}): Shift[] {
  const minChange = options.minChange ?? DEFAULT_SHIFTS.minShift;
  const phases = [...new Set([...entries].reverse().flatMap((e) => Object.keys(e.phases)))];
  const out: Shift[] = [];
  for (const phase of phases) {
    for (const metric of Object.keys(SHIFT_METRICS) as ShiftMetric[]) {
      const runs = entries.filter((e) => {
        const v = e.phases[phase]?.[metric];
        return v !== undefined && Number.isFinite(v) && (metric === 'rps' || v > 0);
      });
      const values = runs.map((e) => e.phases[phase]?.[metric] as number);
      const minSize = options.minSize ?? SHIFT_MIN_RUNS;
      const random = seededRandom(options.seed ?? CHANGE_POINT_DEFAULTS.seed);
      let kept = changePoints(values, { minSize, ...options });
      // each shift's level either side: the mean up to the shifts kept beside it
      const levels = () => {
        const cuts = [0, ...kept.map((c) => c.index), values.length];
        return kept.map((c, i) => {
          const before = mean(values.slice(cuts[i], c.index));
          const after = mean(values.slice(c.index, cuts[i + 2]));
          return {
            c,
            from: cuts[i] as number,
            to: cuts[i + 2] as number,
            change: before > 0 ? (after - before) / before : 0,
          };
        });
      };
      // each shift placed by least squares among the runs between the shifts beside it (again until
      // none moves), and one under minChange dropped: the runs beside it merge, the others are placed again
      const place = () => {
        for (let round = 0; round < 5; round++) {
          let start = 0;
          let moved = false;
          kept = kept.map((c, i) => {
            const at = meanSplit(values.slice(start, kept[i + 1]?.index ?? values.length), minSize);
            const placed = at === undefined || start + at === c.index ? c : { ...c, index: start + at };
            moved ||= placed !== c;
            start = placed.index;
            return placed;
          });
          if (!moved) return;
        }
      };
      for (;;) {
        place();
        const big = levels()
          .filter((l) => Math.abs(l.change) >= minChange)
          .map((l) => l.c);
        if (big.length === kept.length) break;
        kept = big;
      }
      // the range of runs each may have come in at, between its final neighbours (stats/change-points.ts)
      const ranges = new Map<ChangePoint, [number, number]>();
      for (const { c, from, to } of levels()) {
        const at = shiftLocation(values.slice(from, to), minSize, random);
        if (at) ranges.set(c, [Math.min(from + at.range[0], c.index), Math.max(from + at.range[1], c.index)]);
      }
      for (const { c, from, to, change } of levels()) {
        const at = runs[c.index] as HistoryEntry;
        const prior = runs[c.index - 1] as HistoryEntry;
        const before = runs.slice(from, c.index);
        const after = runs.slice(c.index, to);
        const worse = change * SHIFT_METRICS[metric];
        const accepted =
          worse > 0 ? acceptanceOf(options.acceptances ?? [], phase, metric, prior.time, at.time) : undefined;
        const moved =
          !sameMachine(prior, at) || usual(before) !== usual(after) || calibrationMoved(before, after, worse);
        out.push({
          phase,
          metric,
          change,
          worse: change * SHIFT_METRICS[metric] > 0,
          pValue: c.pValue,
          commit: at.commit,
          time: at.time,
          runId: at.runId,
          since: prior.commit,
          cause: moved ? 'machine' : 'code',
          runs: { before: c.index - from, after: to - c.index },
          ...rangeOf(runs, ranges.get(c)),
          ...(accepted ? { accepted } : {}),
        });
      }
    }
  }
  return out;
}

/** A shift's `range` where more than its own run could be where it came in. */
function rangeOf(runs: readonly HistoryEntry[], range: [number, number] | undefined): Pick<Shift, 'range'> {
  if (!range || range[1] <= range[0]) return {};
  const [first, last] = range;
  return {
    range: {
      since: (runs[first - 1] as HistoryEntry).commit,
      until: (runs[last] as HistoryEntry).commit,
      runs: last - first + 1,
    },
  };
}

/** The least move of the calibration that can be the machine's (its own noise is smaller on one machine). */
export const CALIBRATION_MOVE = 0.05;

/**
 * Whether the machine's calibration (a fixed piece of CPU work timed in each run: higher is slower)
 * moved with a shift that made the metric worse by `worse` (a fraction; negative: better): the machine
 * slower by at least half the worsening (faster by half the improvement), and by CALIBRATION_MOVE at
 * least. Runs without a calibration are left out; fewer than two a side say nothing.
 */
export function calibrationMoved(
  before: readonly HistoryEntry[],
  after: readonly HistoryEntry[],
  worse: number,
): boolean {
  const of = (runs: readonly HistoryEntry[]) =>
    runs.map((e) => e.machine?.calibrationUs).filter((v): v is number => v !== undefined && v > 0);
  const a = of(before);
  const b = of(after);
  if (a.length < 2 || b.length < 2) return false;
  const move = mean(b) / mean(a) - 1;
  return Math.abs(move) >= CALIBRATION_MOVE && move * Math.sign(worse) >= Math.abs(worse) / 2;
}

const sameMachine = (a: HistoryEntry, b: HistoryEntry) =>
  !a.machine || !b.machine || (a.machine.cpuModel === b.machine.cpuModel && a.machine.cores === b.machine.cores);

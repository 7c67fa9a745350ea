// Pure: the history's trend as Mermaid charts (p99, p50 and throughput of each phase over the last
// runs), for the report and `perf-gate history`.
import type { HistoryAcceptance, HistoryEntry } from '../history/history.js';
import { historyShifts, SHIFT_MIN_RUNS, SHIFT_WINDOW, type Shift, shiftOptions, shiftRule } from '../history/shifts.js';
import { DEFAULT_SHIFTS, type ShiftSettings } from '../config-parts/types.js';
import { escapeMarkdown as esc, mermaidText } from './escape.js';
import { yAxis } from './mermaid.js';

/** points per chart */
export const TREND_POINTS = 20;
/** shifts listed: more are counted */
const SHIFTS_SHOWN = 10;
/** charts per report: phases beyond this are counted, not drawn */
export const TREND_MAX_PHASES = 8;

function label(e: HistoryEntry, i: number): string {
  return `"${mermaidText(e.commit ? e.commit.slice(0, 7) : `run ${i + 1}`)}"`;
}

function chart(title: string, labels: string[], values: number[], axis: string): string {
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${mermaidText(title)}"`,
    `  x-axis [${labels.join(', ')}]`,
    yAxis(axis, values),
    `  line [${values.join(', ')}]`,
    '```',
  ].join('\n');
}

/** The history's runs with `current` last (in place of its own line, where the history has it). */
function withCurrent(history: readonly HistoryEntry[], current?: HistoryEntry): HistoryEntry[] {
  return [...history.filter((e) => e.runId !== current?.runId), ...(current ? [current] : [])];
}

/** Markdown: per scenario/phase of `current` (or of the latest entry), p50/p99 and throughput over the
 * last runs of the history, this run last, and the history's level shifts (with this run only where
 * it is appended to the history: `appended`, an update's; a pull request's run is no point of it).
 * Empty when there is nothing to draw. */
export function renderTrend(
  history: HistoryEntry[],
  current?: HistoryEntry,
  appended = true,
  points = TREND_POINTS,
  acceptances: readonly HistoryAcceptance[] = [],
  settings: ShiftSettings = DEFAULT_SHIFTS,
): string {
  const series = withCurrent(history, current).slice(-points);
  const latest = series.at(-1);
  if (!latest || series.length < 2) return '';
  const keys = Object.keys(latest.phases);
  const out: string[] = [
    `Last ${series.length} runs${current ? ', this one last' : ''} (from the history file). Each point is a run's merged trials.`,
  ];
  for (const key of keys.slice(0, TREND_MAX_PHASES)) {
    const runs = series.filter((e) => e.phases[key]);
    if (runs.length < 2) continue;
    const labels = runs.map((e) => label(e, series.indexOf(e)));
    const ms = (us: number) => Math.round(us / 10) / 100;
    out.push(
      `**${esc(key)}**`,
      chart(
        `${key}: p99 (ms)`,
        labels,
        runs.map((e) => ms(e.phases[key]!.p99)),
        'ms',
      ),
      chart(
        `${key}: p50 (ms)`,
        labels,
        runs.map((e) => ms(e.phases[key]!.p50)),
        'ms',
      ),
      chart(
        `${key}: throughput`,
        labels,
        runs.map((e) => e.phases[key]!.rps),
        'req/s',
      ),
    );
  }
  if (keys.length > TREND_MAX_PHASES) out.push(`_${keys.length - TREND_MAX_PHASES} more phases in the history file._`);
  if (out.length === 1) return '';
  const shifts = renderShifts(history, appended ? current : undefined, acceptances, settings);
  return [...out, ...(shifts ? [shifts] : [])].join('\n\n');
}

const sha = (c: string | null) => (c ? esc(c.slice(0, 7)) : 'a run without a commit');
const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(Math.round(v * 1000) / 10)}%`;

function shiftLine(s: Shift): string {
  const size = s.worse ? `**${signed(s.change)}** (worse)` : `${signed(s.change)} (better)`;
  const where = `at ${sha(s.commit)}, since ${sha(s.since)}`;
  const why =
    s.cause === 'machine'
      ? '; the machine changed between these runs (CPU model or cores, or its calibration moved with it): not the code'
      : '';
  const range = s.range
    ? `; within ${s.range.runs} runs, after ${sha(s.range.since)} up to ${sha(s.range.until)} (95%)`
    : '';
  return `- ${esc(s.phase)} ${s.metric} ${size} ${where} (p ${s.pValue}; ${s.runs.before} runs before, ${s.runs.after} after${range})${why}${acceptedSaid(s)}`;
}

/** A shift a pull request accepted on purpose: known, with who and why (their text, escaped). */
function acceptedSaid(s: Shift): string {
  const a = s.accepted;
  if (!a) return '';
  const where = a.pr !== undefined ? ` in #${a.pr}` : a.commit ? ` at ${sha(a.commit)}` : '';
  return `; **accepted on purpose**${where} by ${esc(a.by)}: ${esc(a.reason)}`;
}

/** Markdown: the level shifts over the last SHIFT_WINDOW runs of the history, this run last (history/
 * shifts.ts); empty when the history is too short to split. */
export function renderShifts(
  history: HistoryEntry[],
  current?: HistoryEntry,
  acceptances: readonly HistoryAcceptance[] = [],
  settings: ShiftSettings = DEFAULT_SHIFTS,
): string {
  const runs = withCurrent(history, current).slice(-SHIFT_WINDOW);
  if (runs.length < 2 * SHIFT_MIN_RUNS) return '';
  const shifts = historyShifts(runs, { acceptances, ...shiftOptions(settings) });
  const how = `E-divisive means over the last ${runs.length} runs; ${shiftRule(settings)}`;
  if (shifts.length === 0) return `**Level shifts:** none (${how}).`;
  const more = shifts.length > SHIFTS_SHOWN ? [`- _${shifts.length - SHIFTS_SHOWN} more._`] : [];
  return [
    `**Level shifts** (${how}): a creep the band lets through one pull request at a time shows here.`,
    ...shifts.slice(0, SHIFTS_SHOWN).map(shiftLine),
    ...more,
  ].join('\n');
}

// Pure: a trend history as one static page (issue 51's dashboard, for GitHub Pages or an artifact):
// per phase, p50, p99 and throughput over the recorded runs as inline SVG lines, each level shift
// (history/shifts.ts) marked where it showed, and every shift in a table with its size, cause and
// commits. The same rules as the run's page (report/html.ts): no script, a policy that loads nothing,
// every text escaped, bounded (at most MAX_HISTORY_PHASES phases).
import { formatUs } from '../common/units.js';
import { HISTORY_MAX, type HistoryAcceptance, type HistoryEntry } from '../history/history.js';
import {
  historyShifts,
  SHIFT_WINDOW,
  type Shift,
  type ShiftMetric,
  shiftOptions,
  shiftRule,
} from '../history/shifts.js';
import { DEFAULT_SHIFTS, type ShiftSettings } from '../config-parts/types.js';
import { escapeHtml as e, pageHead } from './html.js';

export const MAX_HISTORY_PHASES = 100;
/** The most shifts listed (the rest are counted). */
export const MAX_SHIFTS = 200;

const METRICS: ReadonlyArray<{ key: ShiftMetric; label: string; format: (v: number) => string }> = [
  { key: 'p50', label: 'p50', format: formatUs },
  { key: 'p99', label: 'p99', format: formatUs },
  { key: 'rps', label: 'req/s', format: (v) => String(Math.round(v)) },
];

/** The trend page of a history's runs, its level shifts found (acceptances read): what `perf-gate
 * history --html` and the Action's `history-page` write. */
export function historyPage(
  entries: readonly HistoryEntry[],
  acceptances: readonly HistoryAcceptance[],
  settings: ShiftSettings = DEFAULT_SHIFTS,
): string {
  const found = historyShifts(entries.slice(-SHIFT_WINDOW), { acceptances, ...shiftOptions(settings) });
  return renderHistoryHtml(entries, found, settings);
}

/** The page: the history's runs (oldest first) and the shifts found in them with `settings`. */
export function renderHistoryHtml(
  all: readonly HistoryEntry[],
  found: readonly Shift[],
  settings: ShiftSettings = DEFAULT_SHIFTS,
): string {
  // a history file keeps its last HISTORY_MAX runs; one written by hand may hold more
  const entries = all.slice(-HISTORY_MAX);
  const shifts = found.slice(0, MAX_SHIFTS);
  const phases = [...new Set([...entries].reverse().flatMap((x) => Object.keys(x.phases)))];
  const drawn = phases.slice(0, MAX_HISTORY_PHASES);
  const first = entries[0]?.time ?? '';
  const last = entries.at(-1)?.time ?? '';
  const title = `perf-gate trend: ${entries.length} run${entries.length === 1 ? '' : 's'}, ${found.length} level shift${found.length === 1 ? '' : 's'}`;
  return [
    pageHead(title),
    `<p class="meta">${e(entries.length > 0 ? `${first} to ${last}` : 'no runs recorded yet')}</p>`,
    shiftsTable(shifts, settings),
    found.length > shifts.length
      ? `<p class="meta">… and ${found.length - shifts.length} more level shifts (perf-gate history FILE lists them).</p>`
      : '',
    ...drawn.map((phase) => phaseCharts(phase, entries, shifts)),
    phases.length > drawn.length
      ? `<p class="meta">… and ${phases.length - drawn.length} more phases (see the history file).</p>`
      : '',
    '</body></html>',
    '',
  ].join('\n');
}

function shiftsTable(shifts: readonly Shift[], settings: ShiftSettings): string {
  const how = `E-divisive means over the last ${SHIFT_WINDOW} runs at most; ${shiftRule(settings)}`;
  if (shifts.length === 0) return `<p class="meta">No level shift found (${e(how)}).</p>`;
  const rows = shifts.map(
    (s) =>
      `<tr class="${s.worse ? 'regression' : 'improvement'}"><td class="text">${e(s.phase)}</td><td class="text">${e(s.metric)}</td><td>${s.change >= 0 ? '+' : ''}${(s.change * 100).toFixed(1)}%</td><td class="text">${s.worse ? 'worse' : 'better'}</td><td class="text">${s.cause === 'machine' ? "the machine's" : "the code's"}${s.accepted ? e(`; accepted on purpose${s.accepted.pr !== undefined ? ` in #${s.accepted.pr}` : ''} by ${s.accepted.by}: ${s.accepted.reason}`) : ''}</td><td class="text">${e(short(s.since))} → ${e(short(s.commit))}${s.range ? e(` (95%: within ${s.range.runs} runs, ${short(s.range.since)} → ${short(s.range.until)})`) : ''}</td><td>${e(String(s.pValue))}</td></tr>`,
  );
  return [
    '<h2>Level shifts</h2>',
    `<p class="meta">${e(how)}</p>`,
    '<table><thead><tr><th>phase</th><th>metric</th><th>change</th><th></th><th>cause</th><th>between</th><th>p</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('\n');
}

const short = (commit: string | null) => (commit ? commit.slice(0, 12) : '?');

function phaseCharts(phase: string, entries: readonly HistoryEntry[], shifts: readonly Shift[]): string {
  return [
    `<h2>${e(phase)}</h2>`,
    ...METRICS.map(({ key, label, format }) => {
      const points = entries
        .map((x, i) => ({ i, v: x.phases[phase]?.[key], time: x.time, commit: x.commit }))
        .filter(
          (p): p is { i: number; v: number; time: string; commit: string | null } =>
            p.v !== undefined && Number.isFinite(p.v) && (key === 'rps' || p.v > 0),
        );
      const marks = shifts
        .filter((s) => s.phase === phase && s.metric === key)
        .map((s) => ({ i: entries.findIndex((x) => x.runId === s.runId && x.time === s.time), s }))
        .filter((m) => m.i >= 0);
      return lineSvg(label, points, entries.length, marks, format);
    }),
  ].join('\n');
}

function lineSvg(
  label: string,
  points: ReadonlyArray<{ i: number; v: number; time: string; commit: string | null }>,
  runs: number,
  marks: ReadonlyArray<{ i: number; s: Shift }>,
  format: (v: number) => string,
): string {
  if (points.length === 0) return `<p class="meta">${e(label)}: no values.</p>`;
  const W = 720;
  const H = 140;
  const pad = 28;
  const lo = Math.min(...points.map((p) => p.v));
  const hi = Math.max(...points.map((p) => p.v));
  const span = hi - lo || Math.max(1, hi);
  const x = (i: number) => pad + (runs > 1 ? (i / (runs - 1)) * (W - 2 * pad) : (W - 2 * pad) / 2);
  const y = (v: number) => H - pad - ((v - lo) / span) * (H - 2 * pad);
  const line = points.map((p) => `${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  const dots = points
    .map(
      (p) =>
        `<circle cx="${x(p.i).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="2.5" fill="#0969da"><title>${e(`${format(p.v)} · ${p.time} · ${short(p.commit)}`)}</title></circle>`,
    )
    .join('');
  const lines = marks
    .map(
      ({ i, s }) =>
        `<line x1="${x(i - 0.5).toFixed(1)}" y1="${pad / 2}" x2="${x(i - 0.5).toFixed(1)}" y2="${H - pad}" stroke="${s.worse ? '#cf222e' : '#1a7f37'}" stroke-dasharray="4 3"><title>${e(`${s.change >= 0 ? '+' : ''}${(s.change * 100).toFixed(1)}% (${s.cause === 'machine' ? "the machine's" : "the code's"}) at ${short(s.commit)}`)}</title></line>`,
    )
    .join('');
  return `<svg role="img" aria-label="${e(label)} over the runs" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><text x="${pad}" y="14">${e(label)}: ${e(format(lo))} to ${e(format(hi))}</text><polyline points="${line}" fill="none" stroke="#0969da" stroke-width="1.5"/>${dots}${lines}</svg>`;
}

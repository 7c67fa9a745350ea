// Pure: the history's trend as Mermaid charts (p99, p50 and throughput of each phase over the last
// runs), for the report and `perf-gate history`.
import type { HistoryEntry } from '../history/history.js';
import { escapeMarkdown as esc, mermaidText } from './escape.js';
import { yAxis } from './mermaid.js';

/** points per chart */
export const TREND_POINTS = 20;
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

/** Markdown: per scenario/phase of `current` (or of the latest entry), p50/p99 and throughput over the
 * last runs of the history, this run last. Empty when there is nothing to draw. */
export function renderTrend(history: HistoryEntry[], current?: HistoryEntry, points = TREND_POINTS): string {
  const series = [...history.filter((e) => e.runId !== current?.runId), ...(current ? [current] : [])].slice(-points);
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
  return out.length > 1 ? out.join('\n\n') : '';
}

// Pure: a trend history of default-branch runs, one JSON line per run (perf-history.jsonl, committed
// beside the baselines), and the trend charts the report shows from it.
import { errorCount } from '../compare/metrics.js';
import type { ResultsFile } from '../results/types.js';
import { escapeMarkdown as esc, mermaidText } from '../report/escape.js';
import { yAxis } from '../report/mermaid.js';

export const HISTORY_SCHEMA = 'perf-gate/history@1';
/** lines kept in the file: older runs are dropped */
export const HISTORY_MAX = 500;
/** points per chart */
export const TREND_POINTS = 20;
/** charts per report: phases beyond this are counted, not drawn */
export const TREND_MAX_PHASES = 8;

export interface HistoryPoint {
  rps: number;
  /** µs */
  p50: number;
  /** µs */
  p99: number;
  errors: number;
}

export interface HistoryEntry {
  schema: typeof HISTORY_SCHEMA;
  time: string;
  commit: string | null;
  ref: string | null;
  runId: string;
  mode: string;
  /** by "scenario/phase" */
  phases: Record<string, HistoryPoint>;
}

export function historyEntry(results: ResultsFile): HistoryEntry {
  const phases: Record<string, HistoryPoint> = {};
  for (const s of results.scenarios) {
    for (const p of s.phases) {
      phases[`${s.name}/${p.name}`] = {
        rps: Math.round(p.merged.rps * 10) / 10,
        p50: p.merged.latency.p50,
        p99: p.merged.latency.p99,
        errors: errorCount(p.merged),
      };
    }
  }
  return {
    schema: HISTORY_SCHEMA,
    time: results.finishedAt,
    commit: results.provenance.commit,
    ref: results.provenance.ref,
    runId: results.runId,
    mode: results.mode,
    phases,
  };
}

function isEntry(v: unknown): v is HistoryEntry {
  const e = v as HistoryEntry;
  return (
    Boolean(e) &&
    e.schema === HISTORY_SCHEMA &&
    typeof e.time === 'string' &&
    typeof e.phases === 'object' &&
    e.phases !== null
  );
}

/** Entries in file order; lines that are not entries (merge debris, other versions) are skipped and counted. */
export function parseHistory(text: string): { entries: HistoryEntry[]; skipped: number } {
  const entries: HistoryEntry[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (isEntry(v)) entries.push(v);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { entries, skipped };
}

/** The file with `entry` appended, its oldest lines dropped beyond `max`. */
export function appendHistory(text: string, entry: HistoryEntry, max = HISTORY_MAX): string {
  const { entries } = parseHistory(text);
  return `${[...entries, entry]
    .slice(-max)
    .map((e) => JSON.stringify(e))
    .join('\n')}\n`;
}

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

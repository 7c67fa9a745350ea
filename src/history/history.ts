// Pure: a trend history of default-branch runs, one JSON line per run (perf-history.jsonl, committed
// beside the baselines). The report draws its trend from it (report/trend.ts).
import { errorCount } from '../metrics/registry.js';
import type { ResultsFile } from '../results/types.js';

export const HISTORY_SCHEMA = 'perf-gate/history@1';
/** lines kept in the file: older runs are dropped */
export const HISTORY_MAX = 500;
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
  /** the machine the run measured on (entries written before it was kept have none): a level shift
   * where it changed is the machine's, not the code's (history/shifts.ts) */
  machine?: { cpuModel: string; cores: number; calibrationUs?: number };
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
    machine: {
      cpuModel: results.provenance.runner.cpuModel,
      cores: results.provenance.runner.cores,
      ...(results.provenance.runner.calibrationUs !== undefined
        ? { calibrationUs: results.provenance.runner.calibrationUs }
        : {}),
    },
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

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

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const textOrNull = (v: unknown) => v === null || typeof v === 'string';

/** An entry of this schema whose every field has its type (a history file is anyone's text once it
 * is committed): strings where strings are, and each phase's figures finite and not negative. */
function isEntry(v: unknown): v is HistoryEntry {
  const e = v as HistoryEntry;
  if (!e || typeof e !== 'object' || e.schema !== HISTORY_SCHEMA) return false;
  if (typeof e.time !== 'string' || typeof e.runId !== 'string' || typeof e.mode !== 'string') return false;
  if (!textOrNull(e.commit) || !textOrNull(e.ref)) return false;
  if (e.machine !== undefined) {
    const m = e.machine as unknown as Record<string, unknown>;
    if (!m || typeof m.cpuModel !== 'string' || !finite(m.cores)) return false;
    if (m.calibrationUs !== undefined && !finite(m.calibrationUs)) return false;
  }
  if (typeof e.phases !== 'object' || e.phases === null || Array.isArray(e.phases)) return false;
  return Object.values(e.phases).every((p) => p && finite(p.rps) && finite(p.p50) && finite(p.p99) && finite(p.errors));
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

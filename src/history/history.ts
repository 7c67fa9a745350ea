// Pure: a trend history of default-branch runs, one JSON line per run (perf-history.jsonl, committed
// beside the baselines or kept on a branch of its own). The report draws its trend from it
// (report/trend.ts). Beside the runs, a line per pull request whose regressions were accepted on
// purpose (HistoryAcceptance): a level shift they explain is said to be known (history/shifts.ts).
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

/** Regressions accepted on purpose in a pull request's gate run (compare/accept.ts), as the history
 * keeps them: a level shift of the same phase and metric after it is known, not news. */
export interface HistoryAcceptance {
  schema: typeof HISTORY_SCHEMA;
  kind: 'acceptance';
  time: string;
  /** the commit the gate run measured (the pull request's head) */
  commit: string | null;
  ref: string | null;
  runId: string;
  /** the pull request, where the run knew it */
  pr?: number;
  rows: HistoryAcceptedRow[];
}

export interface HistoryAcceptedRow {
  /** scenario/phase (a mix entry's row: scenario/phase.entry) */
  phase: string;
  metric: string;
  /** the change the gate measured (null where it had none) */
  change: number | null;
  /** a GitHub login, or `--accept` */
  by: string;
  reason: string;
}

/** The most rows and the longest text an acceptance line keeps (anyone's text once committed). */
const ACCEPTED_ROWS_MAX = 200;
const ACCEPTED_TEXT_MAX = 500;
const clip = (s: string) => (s.length > ACCEPTED_TEXT_MAX ? `${s.slice(0, ACCEPTED_TEXT_MAX)}…` : s);

/** A gate run's accepted rows as a history line; undefined when it accepted none. */
export function historyAcceptance(results: ResultsFile, pr?: number): HistoryAcceptance | undefined {
  const rows = results.comparisons
    .filter((c) => c.result === 'accepted' && c.accepted)
    .slice(0, ACCEPTED_ROWS_MAX)
    .map((c) => ({
      phase: clip(`${c.scenario}/${c.phase}`),
      metric: clip(c.metric),
      change: c.delta,
      by: clip(c.accepted?.by ?? ''),
      reason: clip(c.accepted?.reason ?? ''),
    }));
  if (rows.length === 0) return undefined;
  return {
    schema: HISTORY_SCHEMA,
    kind: 'acceptance',
    time: results.finishedAt,
    commit: results.provenance.commit,
    ref: results.provenance.ref,
    runId: results.runId,
    ...(pr !== undefined ? { pr } : {}),
    rows,
  };
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

const boundedText = (v: unknown, max = ACCEPTED_TEXT_MAX + 1) => typeof v === 'string' && v.length <= max;

/** An acceptance line whose every field has its type and its bound. */
function isAcceptance(v: unknown): v is HistoryAcceptance {
  const a = v as HistoryAcceptance;
  if (!a || typeof a !== 'object' || a.schema !== HISTORY_SCHEMA || a.kind !== 'acceptance') return false;
  if (typeof a.time !== 'string' || typeof a.runId !== 'string' || !textOrNull(a.commit) || !textOrNull(a.ref))
    return false;
  if (a.pr !== undefined && !(Number.isInteger(a.pr) && a.pr > 0)) return false;
  if (!Array.isArray(a.rows) || a.rows.length > ACCEPTED_ROWS_MAX) return false;
  return a.rows.every(
    (r) =>
      r &&
      boundedText(r.phase) &&
      boundedText(r.metric) &&
      boundedText(r.by) &&
      boundedText(r.reason) &&
      (r.change === null || (typeof r.change === 'number' && Number.isFinite(r.change))),
  );
}

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

/** The runs and the acceptances in file order; lines that are neither (merge debris, other versions)
 * are skipped and counted. `lines`: both, in file order (what an append keeps). */
export function parseHistory(text: string): {
  entries: HistoryEntry[];
  acceptances: HistoryAcceptance[];
  lines: Array<HistoryEntry | HistoryAcceptance>;
  skipped: number;
} {
  const entries: HistoryEntry[] = [];
  const acceptances: HistoryAcceptance[] = [];
  const lines: Array<HistoryEntry | HistoryAcceptance> = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (isEntry(v)) entries.push(v);
      else if (isAcceptance(v)) acceptances.push(v);
      else {
        skipped++;
        continue;
      }
      lines.push(v);
    } catch {
      skipped++;
    }
  }
  return { entries, acceptances, lines, skipped };
}

/** The most acceptance lines kept (apart from the runs, so they never push runs out). */
export const HISTORY_ACCEPTANCES_MAX = 200;

const isAcceptanceLine = (l: HistoryEntry | HistoryAcceptance): l is HistoryAcceptance =>
  (l as HistoryAcceptance).kind === 'acceptance';

/** The file with `line` (a run, or a pull request's acceptances) appended: the last `max` runs, the
 * acceptances since the oldest of them (the last HISTORY_ACCEPTANCES_MAX), and of one pull request's
 * acceptances only the latest (a re-run of its check says them again). */
export function appendHistory(text: string, line: HistoryEntry | HistoryAcceptance, max = HISTORY_MAX): string {
  const { lines } = parseHistory(text);
  const pr = isAcceptanceLine(line) ? line.pr : undefined;
  const all = [...lines.filter((l) => pr === undefined || !isAcceptanceLine(l) || l.pr !== pr), line];
  const runs = all.filter((l) => !isAcceptanceLine(l));
  const oldest = runs.length > max ? runs[runs.length - max] : undefined;
  const kept = oldest ? all.slice(all.indexOf(oldest)) : all;
  let acceptances = kept.filter(isAcceptanceLine).length;
  const out = kept.filter((l) => !isAcceptanceLine(l) || acceptances-- <= HISTORY_ACCEPTANCES_MAX);
  return `${out.map((e) => JSON.stringify(e)).join('\n')}\n`;
}

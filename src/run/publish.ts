// The publish step: the results file, the report, and every other output asked for (JUnit, CSV, the
// history), written through deps.files.
import { resolve } from 'node:path';
import { readHistoryFile } from '../history/file.js';
import { appendHistory, historyEntry, parseHistory, renderTrend } from '../history/history.js';
import { traitsOf } from '../modes/index.js';
import { renderCsv } from '../report/csv.js';
import { renderJunit } from '../report/junit.js';
import { renderMarkdown } from '../report/markdown.js';
import { stableStringify, writeFileAtomic } from '../results/files.js';
import type { ResultsFile } from '../results/types.js';
import { type RunFiles, type RunOptions, writeOrFail } from './contract.js';

/** The real file system. */
export const realFiles: RunFiles = {
  read: readHistoryFile,
  write: writeFileAtomic,
};

/** Writes the results file, the report and the JUnit/CSV files asked for; returns their paths. */
export function publishFiles(
  results: ResultsFile,
  opts: Pick<RunOptions, 'outDir' | 'reportId' | 'junit' | 'csv' | 'history'>,
  files: RunFiles,
): { resultsPath: string; reportPath: string; report: string; extraPaths: string[] } {
  const resultsPath = resolve(opts.outDir, 'perf-gate-results.json');
  writeOrFail(files, resultsPath, stableStringify(results));
  // a history file that does not exist yet is an empty history
  const history = opts.history ? (files.read(opts.history) ?? '') : undefined;
  const entry = historyEntry(results);
  const trend =
    history !== undefined && traitsOf(results.mode).trend ? renderTrend(parseHistory(history).entries, entry) : '';
  const report = renderMarkdown(results, { reportId: opts.reportId ?? '', trend });
  const reportPath = resolve(opts.outDir, 'perf-gate-report.md');
  writeOrFail(files, reportPath, report);
  const extraPaths: string[] = [];
  for (const [path, render] of [
    [opts.junit, renderJunit],
    [opts.csv, renderCsv],
  ] as const) {
    if (!path) continue;
    writeOrFail(files, resolve(path), render(results));
    extraPaths.push(resolve(path));
  }
  // the default branch's record: update runs (scheduled or on push) append their summary
  if (opts.history && traitsOf(results.mode).records && results.scenarios.length > 0) {
    writeOrFail(files, resolve(opts.history), appendHistory(history ?? '', entry));
    extraPaths.push(resolve(opts.history));
  }
  return { resultsPath, reportPath, report, extraPaths };
}

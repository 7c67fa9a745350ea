// The publish step: the results file, the report, and every other output asked for (src/outputs/:
// JUnit, CSV, the verdict's JSON, the history, ...), written through deps.files.
import { resolve } from 'node:path';
import { OUTPUTS, type OutputRequest } from '../outputs/index.js';
import type { ResultsFile } from '../results/types.js';
import { type RunFiles, type RunOptions, writeOrFail } from './contract.js';

/** Writes the results file, the report and every other output asked for; returns their paths. */
export function publishFiles(
  results: ResultsFile,
  opts: Pick<RunOptions, 'outDir' | 'reportId' | 'outputs' | 'history'>,
  files: RunFiles,
): { resultsPath: string; reportPath: string; htmlPath: string; report: string; extraPaths: string[] } {
  const write = (req: OutputRequest, history?: string): { path: string; text: string } | undefined => {
    const output = OUTPUTS[req.format];
    if (!output.writes(results)) return undefined;
    const text = output.render(results, { reportId: opts.reportId ?? '', history });
    const path = resolve(req.path);
    writeOrFail(files, path, text);
    return { path, text };
  };
  const resultsPath = resolve(opts.outDir, 'perf-gate-results.json');
  write({ format: 'results', path: resultsPath });
  // read once, after the results file is written (an unreadable history must not cost the results),
  // for the report's trend and the entry appended; a history file that does not exist yet is empty
  const history = opts.history ? (files.read(opts.history) ?? '') : undefined;
  const reportPath = resolve(opts.outDir, 'perf-gate-report.md');
  const report = write({ format: 'markdown', path: reportPath }, history)?.text ?? '';
  // the page people look at (the Action's artifact, a browser): always, beside the Markdown report
  const htmlPath = resolve(opts.outDir, 'perf-gate-report.html');
  write({ format: 'html', path: htmlPath });
  // the history last: the default branch's record, appended by the runs that record (update); the
  // request builder makes history=PATH the run's one history (RunOptions.history)
  const asked: OutputRequest[] = [
    ...(opts.outputs ?? []),
    ...(opts.history ? [{ format: 'history' as const, path: opts.history }] : []),
  ];
  const extraPaths = asked.flatMap((req) => write(req, history)?.path ?? []);
  return { resultsPath, reportPath, htmlPath, report, extraPaths };
}

// The Markdown report as the run's outputs render it: with the traits of the results' own mode (the
// report takes them as a parameter, so that src/report/ reads no mode table).
import { traitsOf } from '../../src/modes/index.js';
import { type ReportOptions, renderMarkdown as render } from '../../src/report/markdown.js';
import type { ResultsFile } from '../../src/results/types.js';

export function renderMarkdown(results: ResultsFile, opts: ReportOptions = {}): string {
  return render(results, traitsOf(results.mode), opts);
}

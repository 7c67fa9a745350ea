// What an output is (issue 32): one module per format renders a results file as text. A run writes
// the results file and the Markdown report always, and any other output asked for (`--out-format
// FORMAT=PATH`, the Action's `out-format`); `perf-gate report --format` prints one. A new format is
// one module and one entry in OUTPUTS (./index.ts); the compiler asks it for every part.
import type { ResultsFile } from '../results/types.js';

/** What an output may need beside the results. */
export interface OutputContext {
  /** distinguishes reports of matrix legs and several configs (the comment's marker) */
  reportId: string;
  /** the trend history's text, when the run was given one (--history, or history=PATH): its charts
   * go into the report, and the history output appends to it */
  history: string | undefined;
}

export interface Output {
  /** the name `--out-format NAME=PATH` and `report --format NAME` take, and other names for it */
  names: readonly [string, ...string[]];
  /** one line for `--help` and the docs */
  summary: string;
  /** the usual file extension (examples in messages) */
  extension: string;
  /** whether this run writes it: false leaves the file as it is (the history grows only on update runs) */
  writes(results: ResultsFile): boolean;
  render(results: ResultsFile, ctx: OutputContext): string;
}

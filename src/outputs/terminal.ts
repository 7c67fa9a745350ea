// The terminal's table: each phase's figures, as `perf-gate run` prints them.
import { renderResultsTable } from '../report/terminal.js';
import type { Output } from './output.js';

export const terminal: Output = {
  names: ['terminal', 'text'],
  summary: "each phase's figures as a text table (what perf-gate run prints)",
  extension: 'txt',
  writes: () => true,
  render: (r) => `${renderResultsTable(r.scenarios)}\n`,
};

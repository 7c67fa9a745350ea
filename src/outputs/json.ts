// The verdict as JSON: the run's verdict and regression count, each scenario's baseline status and
// every comparison row (what a script reads; the results file has everything).
import { verdictOf } from '../modes/index.js';
import type { Output } from './output.js';

export const json: Output = {
  names: ['json'],
  summary: 'the verdict (JSON): verdict, regressions, baseline statuses, comparison rows',
  extension: 'json',
  writes: () => true,
  render: (r) => {
    // a mode that gates nothing (update, sweep) passes, as the run's verdict and report mode's do
    const { verdict, regressions } = verdictOf(r.mode, r.comparisons);
    const summary = { verdict, regressions, scenarioStatus: r.scenarioStatus ?? [], comparisons: r.comparisons };
    return `${JSON.stringify(summary, null, 2)}\n`;
  },
};

// The Markdown report (the pull request comment and the job summary), with the history's trend charts
// when the run was given a history and its mode draws them.
import { historyEntry, parseHistory } from '../history/history.js';
import { traitsOf } from '../modes/index.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderTrend } from '../report/trend.js';
import type { Output } from './output.js';

export const markdown: Output = {
  names: ['markdown', 'md'],
  summary: 'the Markdown report (the pull request comment)',
  extension: 'md',
  writes: () => true,
  render: (r, ctx) => {
    const mode = traitsOf(r.mode);
    const history = ctx.history !== undefined && mode.trend ? parseHistory(ctx.history) : undefined;
    const trend = history
      ? renderTrend(history.entries, historyEntry(r), mode.records, undefined, history.acceptances, r.shiftSettings)
      : '';
    return renderMarkdown(r, mode, { reportId: ctx.reportId, trend });
  },
};

// HTML: the run as one self-contained page (no script, no network), to open or upload as an artifact.
import { renderHtml } from '../report/html.js';
import { traitsOf } from '../modes/index.js';
import type { Output } from './output.js';

export const html: Output = {
  names: ['html'],
  summary:
    'the run as one self-contained HTML page: verdict, every row (a sweep: each scenario’s curve and knee), each phase’s latency distribution, errors and resources',
  extension: 'html',
  writes: () => true,
  // a sweep's page leads with each scenario's curve and knee
  render: (r) => renderHtml(r, { levels: traitsOf(r.mode).report === 'levels' }),
};

// HTML: the run as one self-contained page (no script, no network), to open or upload as an artifact.
import { renderHtml } from '../report/html.js';
import type { Output } from './output.js';

export const html: Output = {
  names: ['html'],
  summary:
    'the run as one self-contained HTML page: verdict, every row, each phase’s latency distribution, errors and resources',
  extension: 'html',
  writes: () => true,
  render: (r) => renderHtml(r),
};

// CSV: every measured metric of every phase, gated or not, one row each.
import { renderCsv } from '../report/csv.js';
import type { Output } from './output.js';

export const csv: Output = {
  names: ['csv'],
  summary: 'every measured metric as CSV, one row each',
  extension: 'csv',
  writes: () => true,
  render: (r) => renderCsv(r),
};

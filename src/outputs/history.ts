// The trend history (JSON lines): a run of a mode that records (update) appends its summary; the
// others leave the file as it is and only draw its trend in the report.
import { appendHistory, historyEntry } from '../history/history.js';
import { traitsOf } from '../modes/index.js';
import type { Output } from './output.js';

export const history: Output = {
  names: ['history'],
  summary: 'the trend history (JSON lines): update runs append their summary; the report draws it',
  extension: 'jsonl',
  // an update that recorded nothing (a row failing on nearly every request) appends nothing either
  writes: (r) => traitsOf(r.mode).records && r.scenarios.length > 0 && !(r.failing ?? []).some((f) => !f.accepted),
  render: (r, ctx) => appendHistory(ctx.history ?? '', historyEntry(r)),
};

// update: measures as the gate does, compares with the previous baselines for information (an update
// never fails), and records the results as the new baselines; its history entry is appended.
import { againstBaselines } from './gate.js';
import type { Mode } from './mode.js';
import { measuringSaid } from '../compare/gated-rows.js';

export const update: Mode<'update'> = {
  ...againstBaselines,
  name: 'update',
  // a corrupt baseline is replaced (with a warning), not refused
  baselines: 'replace',
  gates: false,
  records: true,
  comments: false,
  validate: (config) => ({
    mode: 'update',
    line: `valid: records baselines/ (scheduled refresh); ${measuringSaid(config, config.scenarios)}`,
    problems: [],
    notes: [],
  }),
};

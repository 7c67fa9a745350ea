// The results file (SPEC §5): everything the run measured and compared, as JSON with sorted keys.
import { stableStringify } from '../results/files.js';
import type { Output } from './output.js';

export const results: Output = {
  names: ['results'],
  summary: 'the results file (JSON, SPEC §5): every trial, merged phase and comparison',
  extension: 'json',
  writes: () => true,
  render: (r) => stableStringify(r),
};

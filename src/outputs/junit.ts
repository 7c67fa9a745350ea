// JUnit XML: a test suite per scenario, a test case per comparison row (for test-report actions).
import { renderJunit } from '../report/junit.js';
import type { Output } from './output.js';

export const junit: Output = {
  names: ['junit'],
  summary: 'the comparison as JUnit XML (a test case per row)',
  extension: 'xml',
  writes: () => true,
  render: (r) => renderJunit(r),
};

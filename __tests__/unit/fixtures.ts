// Builders shared by the unit tests.
import type { ResourceUsage } from '../../src/results/types.js';

/** A resource usage of all zeros, with the given fields set. */
export const usage = (u: Partial<ResourceUsage> = {}): ResourceUsage => ({
  cpuMeanPct: 0,
  cpuPeakPct: 0,
  memoryPeakBytes: 0,
  rxBytes: 0,
  txBytes: 0,
  samples: 0,
  ...u,
});

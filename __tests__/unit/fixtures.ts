// Builders shared by the unit tests.
import type { ResourceUsage } from '../../src/results/types.js';
import type { LatencySummary } from '../../src/stats/histogram.js';

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

/** A latency summary of 1000 samples at 1 ms (min 100 µs), with the given fields set. */
export function latency(l: Partial<LatencySummary> = {}): LatencySummary {
  return {
    count: 1000,
    min: 100,
    mean: 1000,
    p50: 1000,
    p90: 1000,
    p95: 1000,
    p99: 1000,
    'p99.9': 1000,
    max: 1000,
    ...l,
  };
}

import { describe, expect, it } from 'vitest';
import type { ResourceUsage } from '../../src/stats/resources.js';
import { combineUsage, type StatsSample, sampleFromStats, usageInWindow } from '../../src/stats/resources.js';
import { usage } from './fixtures.js';

const MiB = 1024 * 1024;

describe('sampleFromStats', () => {
  it.each<[string, Parameters<typeof sampleFromStats>[0], Omit<StatsSample, 'at'>]>([
    [
      'cgroup v2: inactive_file is page cache; online_cpus counts cores; networks summed',
      {
        cpu_stats: { cpu_usage: { total_usage: 2_000_000_000 }, system_cpu_usage: 20_000_000_000, online_cpus: 4 },
        precpu_stats: { cpu_usage: { total_usage: 1_000_000_000 }, system_cpu_usage: 10_000_000_000 },
        memory_stats: { usage: 100 * MiB, stats: { inactive_file: 20 * MiB, active_file: 5 * MiB } },
        networks: { eth0: { rx_bytes: 1000, tx_bytes: 2000 }, eth1: { rx_bytes: 10, tx_bytes: 20 } },
      },
      { cpuPct: 40, memoryBytes: 80 * MiB, rxBytes: 1010, txBytes: 2020 },
    ],
    [
      'cgroup v1: total_inactive_file is page cache; percpu_usage counts cores',
      {
        cpu_stats: {
          cpu_usage: { total_usage: 3_000_000_000, percpu_usage: [1_500_000_000, 1_500_000_000] },
          system_cpu_usage: 14_000_000_000,
        },
        precpu_stats: { cpu_usage: { total_usage: 2_000_000_000 }, system_cpu_usage: 10_000_000_000 },
        memory_stats: { usage: 64 * MiB, stats: { total_inactive_file: 16 * MiB, cache: 30 * MiB } },
        networks: { eth0: { rx_bytes: 5, tx_bytes: 7 } },
      },
      { cpuPct: 50, memoryBytes: 48 * MiB, rxBytes: 5, txBytes: 7 },
    ],
    [
      'first document: precpu without system_cpu_usage → cpu unknown',
      {
        cpu_stats: { cpu_usage: { total_usage: 1_000_000 }, system_cpu_usage: 10_000_000_000, online_cpus: 2 },
        precpu_stats: { cpu_usage: { total_usage: 0 } },
        memory_stats: { usage: 10 * MiB, stats: {} },
      },
      { cpuPct: undefined, memoryBytes: 10 * MiB, rxBytes: 0, txBytes: 0 },
    ],
    [
      'first document: precpu system_cpu_usage 0 → cpu unknown',
      {
        cpu_stats: { cpu_usage: { total_usage: 1_000_000 }, system_cpu_usage: 10_000_000_000, online_cpus: 2 },
        precpu_stats: { cpu_usage: { total_usage: 0 }, system_cpu_usage: 0 },
      },
      { cpuPct: undefined, memoryBytes: 0, rxBytes: 0, txBytes: 0 },
    ],
    [
      'no precpu_stats at all → cpu unknown',
      { cpu_stats: { cpu_usage: { total_usage: 1 }, system_cpu_usage: 2, online_cpus: 1 } },
      { cpuPct: undefined, memoryBytes: 0, rxBytes: 0, txBytes: 0 },
    ],
    [
      'no system time elapsed → cpu unknown',
      {
        cpu_stats: { cpu_usage: { total_usage: 2 }, system_cpu_usage: 100, online_cpus: 1 },
        precpu_stats: { cpu_usage: { total_usage: 1 }, system_cpu_usage: 100 },
      },
      { cpuPct: undefined, memoryBytes: 0, rxBytes: 0, txBytes: 0 },
    ],
    [
      'idle container → 0 %',
      {
        cpu_stats: { cpu_usage: { total_usage: 5 }, system_cpu_usage: 200, online_cpus: 8 },
        precpu_stats: { cpu_usage: { total_usage: 5 }, system_cpu_usage: 100 },
      },
      { cpuPct: 0, memoryBytes: 0, rxBytes: 0, txBytes: 0 },
    ],
    ['empty document (stopped container)', {}, { cpuPct: undefined, memoryBytes: 0, rxBytes: 0, txBytes: 0 }],
    [
      'page cache larger than usage never goes negative',
      { memory_stats: { usage: 10, stats: { inactive_file: 20 } } },
      { cpuPct: undefined, memoryBytes: 0, rxBytes: 0, txBytes: 0 },
    ],
    [
      'a network without counters counts as zero',
      { networks: { eth0: {}, eth1: { rx_bytes: 3 } } },
      { cpuPct: undefined, memoryBytes: 0, rxBytes: 3, txBytes: 0 },
    ],
  ])('%s', (_label, doc, expected) => {
    const sample = sampleFromStats(doc, 1234);
    expect(sample.at).toBe(1234);
    expect(sample.memoryBytes).toBe(expected.memoryBytes);
    expect(sample.rxBytes).toBe(expected.rxBytes);
    expect(sample.txBytes).toBe(expected.txBytes);
    if (expected.cpuPct === undefined) expect(sample.cpuPct).toBeUndefined();
    else expect(sample.cpuPct).toBeCloseTo(expected.cpuPct, 9);
  });
});

// one sample per second; rx grows by 100 per second, tx by 10
const samples: StatsSample[] = [0, 1000, 2000, 3000, 4000, 5000].map((at, i) => ({
  at,
  cpuPct: i === 0 ? undefined : [0, 10, 20, 30, 40, 50][i],
  memoryBytes: [5, 7, 9, 8, 6, 4][i] as number,
  rxBytes: 1000 + 100 * i,
  txBytes: 500 + 10 * i,
}));

describe('usageInWindow', () => {
  it.each<[string, number, number, ResourceUsage]>([
    [
      'samples strictly inside; network from the last sample before the window',
      1500,
      3500,
      { cpuMeanPct: 25, cpuPeakPct: 30, memoryPeakBytes: 9, rxBytes: 200, txBytes: 20, samples: 2 },
    ],
    [
      'window boundaries are inclusive',
      1000,
      3000,
      { cpuMeanPct: 20, cpuPeakPct: 30, memoryPeakBytes: 9, rxBytes: 300, txBytes: 30, samples: 3 },
    ],
    [
      'no sample before the window: network from the first sample inside; cpu-less sample skipped',
      0,
      2000,
      { cpuMeanPct: 15, cpuPeakPct: 20, memoryPeakBytes: 9, rxBytes: 200, txBytes: 20, samples: 3 },
    ],
    [
      'window past the last sample',
      4500,
      9000,
      { cpuMeanPct: 50, cpuPeakPct: 50, memoryPeakBytes: 4, rxBytes: 100, txBytes: 10, samples: 1 },
    ],
    [
      'no sample inside the window',
      4100,
      4900,
      { cpuMeanPct: 0, cpuPeakPct: 0, memoryPeakBytes: 0, rxBytes: 0, txBytes: 0, samples: 0 },
    ],
    [
      'window before every sample',
      -5000,
      -1000,
      { cpuMeanPct: 0, cpuPeakPct: 0, memoryPeakBytes: 0, rxBytes: 0, txBytes: 0, samples: 0 },
    ],
  ])('%s [%d, %d]', (_label, from, to, expected) => {
    expect(usageInWindow(samples, from, to)).toEqual(expected);
  });

  it('is all zeros without samples', () => {
    expect(usageInWindow([], 0, 1000)).toEqual({
      cpuMeanPct: 0,
      cpuPeakPct: 0,
      memoryPeakBytes: 0,
      rxBytes: 0,
      txBytes: 0,
      samples: 0,
    });
  });

  it('rounds cpu to two decimals', () => {
    const s = (at: number, cpuPct: number): StatsSample => ({ at, cpuPct, memoryBytes: 1, rxBytes: 0, txBytes: 0 });
    expect(usageInWindow([s(0, 10), s(1, 10), s(2, 10.001)], 0, 2)).toMatchObject({
      cpuMeanPct: 10,
      cpuPeakPct: 10,
    });
    expect(usageInWindow([s(0, 1), s(1, 2), s(2, 2)], 0, 2).cpuMeanPct).toBe(1.67);
  });

  it('a counter reset (container restarted) never gives negative bytes', () => {
    const reset: StatsSample[] = [
      { at: 0, cpuPct: 1, memoryBytes: 1, rxBytes: 5000, txBytes: 5000 },
      { at: 1000, cpuPct: 1, memoryBytes: 1, rxBytes: 10, txBytes: 10 },
    ];
    expect(usageInWindow(reset, 500, 1500)).toMatchObject({ rxBytes: 0, txBytes: 0 });
  });

  it('does not reorder its input', () => {
    const copy = samples.map((s) => ({ ...s }));
    usageInWindow(samples, 1000, 3000);
    expect(samples).toEqual(copy);
  });
});

describe('combineUsage', () => {
  it.each<[string, ResourceUsage[], ResourceUsage]>([
    ['nothing', [], usage({})],
    [
      'one trial is kept',
      [usage({ cpuMeanPct: 12.5, cpuPeakPct: 30, memoryPeakBytes: 100, rxBytes: 7, txBytes: 8, samples: 4 })],
      usage({ cpuMeanPct: 12.5, cpuPeakPct: 30, memoryPeakBytes: 100, rxBytes: 7, txBytes: 8, samples: 4 }),
    ],
    [
      'means weighted by samples, peaks maxed, bytes and samples summed',
      [
        usage({ cpuMeanPct: 10, cpuPeakPct: 40, memoryPeakBytes: 300, rxBytes: 100, txBytes: 10, samples: 1 }),
        usage({ cpuMeanPct: 30, cpuPeakPct: 35, memoryPeakBytes: 500, rxBytes: 200, txBytes: 20, samples: 3 }),
      ],
      usage({ cpuMeanPct: 25, cpuPeakPct: 40, memoryPeakBytes: 500, rxBytes: 300, txBytes: 30, samples: 4 }),
    ],
    [
      'a trial without samples does not dilute the mean',
      [usage({ cpuMeanPct: 20, cpuPeakPct: 20, samples: 5 }), usage({ samples: 0, rxBytes: 3 })],
      usage({ cpuMeanPct: 20, cpuPeakPct: 20, samples: 5, rxBytes: 3 }),
    ],
    [
      'rounded to two decimals',
      [usage({ cpuMeanPct: 1, samples: 1 }), usage({ cpuMeanPct: 2, samples: 2 })],
      usage({ cpuMeanPct: 1.67, samples: 3 }),
    ],
  ])('%s', (_label, usages, expected) => {
    expect(combineUsage(usages)).toEqual(expected);
  });
});

// A metric's value read from a merged phase, its band described and its value formatted: the
// metric registry's side of a comparison (split from compare.test.ts).
import { describe, expect, it } from 'vitest';
import { describeBand, formatMetricValue } from '../../src/compare/compare.js';
import { metricValue } from '../../src/compare/metrics.js';
import { RUNNER_KEY, type MetricName } from '../../src/metrics/registry.js';
import type { Threshold } from '../../src/config-parts/types.js';
import { compareOne } from './compare-fixtures.js';
import { type Measure, phase, steadyPhase, usage10 as usage } from './fixtures.js';

// ---------------------------------------------------------------------------------------------
// fixtures

const MiB = 1024 ** 2;

// ---------------------------------------------------------------------------------------------
describe('metric values', () => {
  const resources = {
    api: usage({ memoryPeakBytes: 100 * MiB, cpuMeanPct: 50 }),
    db: usage({ memoryPeakBytes: 30 * MiB, cpuMeanPct: 20 }),
    [RUNNER_KEY]: usage({ memoryPeakBytes: 500 * MiB, cpuMeanPct: 90 }),
  };

  it('the runner container is perf-gate-runner', () => {
    expect(RUNNER_KEY).toBe('perf-gate-runner');
  });

  it.each<[MetricName, number]>([
    ['memory', 130 * MiB],
    ['cpu', 70],
  ])('%s is summed over the SUT services, the runner excluded', (metric, expected) => {
    const c = compareOne(metric, { regress: 0.1 }, phase('c10', { resources }), undefined);
    expect(c.current).toBe(expected);
  });

  it('a busier runner does not move memory or cpu', () => {
    const base = phase('c10', { resources: { ...resources, [RUNNER_KEY]: usage({ memoryPeakBytes: 10 * MiB }) } });
    const cur = phase('c10', { resources });
    for (const metric of ['memory', 'cpu'] as const) {
      expect(compareOne(metric, { regress: 0.01 }, cur, base).result).toBe('pass');
    }
  });

  it('a phase with no resource samples has 0 memory and cpu', () => {
    expect(compareOne('memory', { limit: 1 }, phase('c10', {}), undefined).current).toBe(0);
    expect(
      compareOne(
        'cpu',
        { limit: 1 },
        phase('c10', { resources: { [RUNNER_KEY]: usage({ cpuMeanPct: 99 }) } }),
        undefined,
      ).current,
    ).toBe(0);
  });

  it.each<[string, Measure, number, number]>([
    ['no errors', { responses: 1000 }, 0, 0],
    ['failed responses only', { responses: 1000, failures: 10, statusCodes: { '200': 990, '500': 10 } }, 10, 10 / 1000],
    // socket errors are outcomes without a response: they count in the denominator too
    [
      'failed responses and socket errors',
      { responses: 1000, failures: 10, statusCodes: { '200': 990, '500': 10 }, errors: { ECONNRESET: 5, timeout: 5 } },
      20,
      20 / 1010,
    ],
    ['socket errors only, no response', { responses: 0, statusCodes: {}, errors: { ECONNREFUSED: 4 } }, 4, 1],
    ['nothing at all', { responses: 0, statusCodes: {} }, 0, 0],
  ])('errors and error-rate: %s', (_label, m, errors, rate) => {
    const current = phase('c10', m);
    expect(compareOne('errors', { limit: 1e9 }, current, undefined).current).toBe(errors);
    expect(compareOne('error-rate', { limit: 1 }, current, undefined).current).toBeCloseTo(rate, 12);
    // the same value the merged phase would report
    expect(metricValue(current.merged, 'error-rate')).toBeCloseTo(rate, 12);
  });

  it('error-rate is compared like any metric: worse upwards', () => {
    const base = steadyPhase('c10', { responses: 1000, failures: 1, statusCodes: { '200': 999, '500': 1 } });
    const cur = steadyPhase('c10', { responses: 1000, failures: 50, statusCodes: { '200': 950, '500': 50 } });
    const c = compareOne('error-rate', { regress: 0.5, floor: 0.01 }, cur, base);
    expect(c.result).toBe('regression');
    expect(c.baseline).toBeCloseTo(0.001, 12);
    expect(c.current).toBeCloseTo(0.05, 12);
  });
});

describe('describeBand', () => {
  it.each<[MetricName, Threshold, string]>([
    ['p99', { regress: 0.1, floor: 200 }, '+10% and +200µs'],
    ['p50', { regress: 0.1, floor: 200 }, '+10% and +200µs'],
    ['p99', { regress: 0.25, floor: 1000 }, '+25% and +1ms'],
    ['rps', { regress: 0.1 }, '-10%'],
    ['rps', { regress: 0.1, floor: 100 }, '-10% and -100'],
    ['p99', { regress: 0.15, floor: 2000, limit: 50_000 }, '+15% and +2ms, ≤ 50ms'],
    ['p99', { limit: 50_000 }, '≤ 50ms'],
    ['p50', { floor: 200 }, '+200µs'],
    ['p99', { regress: 0.125 }, '+12.5%'],
    ['p99', { regress: 0.1, alpha: 0.01 }, '+10%'],
    ['memory', { regress: 0.2, limit: 64 * MiB }, '+20%, ≤ 64MiB'],
    ['error-rate', { limit: 0.001 }, '≤ 0.1%'],
    ['errors', { limit: 0 }, '≤ 0'],
    ['p99', {}, '—'],
  ])('%s %j → %s', (metric, t, text) => {
    expect(describeBand(metric, t)).toBe(text);
  });
});

describe('formatMetricValue', () => {
  it.each<[string, number, string]>([
    ['p99', 812, '812µs'],
    ['p99', 1234, '1.23ms'],
    ['p50', 50_000, '50ms'],
    ['max', 1_234_567, '1.23s'],
    ['memory', 64 * MiB, '64MiB'],
    ['error-rate', 0.001, '0.1%'],
    ['error-rate', 0.0005, '0.05%'],
    ['error-rate', 0.02, '2%'],
    ['error-rate', 0, '0%'],
    ['rps', 5, '5'],
    ['rps', 12.34, '12.3'],
    ['rps', 1234.56, '1235'],
    ['errors', 0, '0'],
  ])('%s %s → %s', (metric, v, text) => {
    expect(formatMetricValue(metric, v)).toBe(text);
  });
});

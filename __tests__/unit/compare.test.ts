// compareScenario (src/compare/compare.ts) against limits and baselines: zero baselines, absolute limits,
// missing and stale baselines, built-in thresholds, relative rows shown only (gate.bands: inform); the
// overall verdict and the report's order.
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_THRESHOLDS,
  compareScenario,
  describeBand,
  overallVerdict,
  sortForReport,
} from '../../src/compare/compare.js';
import type { MetricName } from '../../src/metrics/registry.js';
import type { Threshold, Thresholds } from '../../src/config-parts/types.js';
import type { Comparison, Verdict } from '../../src/results/types.js';
import { baselineFile, compareOne, scenario } from './compare-fixtures.js';
import { type Measure, phase, steadyPhase, usage10 as usage } from './fixtures.js';
import { metricPhase, MiB } from './compare-harness.js';

describe('compareScenario: zero baselines', () => {
  it.each<[string, MetricName, Threshold, number, Verdict, number | null]>([
    ['0 → 10 beyond the floor', 'cpu', { regress: 0.1, floor: 5 }, 10, 'regression', null],
    ['0 → 3 inside the floor', 'cpu', { regress: 0.1, floor: 5 }, 3, 'pass', null],
    ['0 → 1 relative only (unbounded)', 'cpu', { regress: 0.1 }, 1, 'regression', null],
    ['0 → 0', 'cpu', { regress: 0.1, floor: 5 }, 0, 'pass', 0],
    ['0 → 0 errors', 'errors', { regress: 0.1 }, 0, 'pass', 0],
    ['0 → 0 p99', 'p99', { regress: 0.1, floor: 200 }, 0, 'pass', 0],
    ['0 → 3 errors beyond a zero floor', 'errors', { floor: 0 }, 3, 'regression', null],
  ])('%s', (_label, metric, t, cur, verdict, delta) => {
    const c = compareOne(metric, t, metricPhase(metric, cur), metricPhase(metric, 0));
    expect(c.result).toBe(verdict);
    expect(c.baseline).toBe(0);
    expect(c.current).toBe(cur);
    expect(c.delta).toBe(delta);
  });
});

describe('compareScenario: absolute limits (`below` / `max`), with or without a baseline', () => {
  it.each<[string, MetricName, Threshold, Measure, Measure | undefined, Verdict, string | undefined]>([
    [
      'p99 above `below`, no baseline',
      'p99',
      { limit: 50_000 },
      { latency: { p99: 60_000 } },
      undefined,
      'regression',
      '50ms',
    ],
    [
      'p99 under `below`, no baseline',
      'p99',
      { limit: 50_000 },
      { latency: { p99: 40_000 } },
      undefined,
      'no-baseline',
      undefined,
    ],
    [
      'p99 equal to `below`',
      'p99',
      { limit: 50_000 },
      { latency: { p99: 50_000 } },
      undefined,
      'no-baseline',
      undefined,
    ],
    [
      'p99 above `below`, inside the band of its baseline',
      'p99',
      { regress: 0.1, floor: 200, limit: 50_000 },
      { latency: { p99: 60_000 } },
      { latency: { p99: 59_000 } },
      'regression',
      '50ms',
    ],
    [
      'p99 above `below`, improved on its baseline',
      'p99',
      { regress: 0.1, floor: 200, limit: 50_000 },
      { latency: { p99: 60_000 } },
      { latency: { p99: 90_000 } },
      'regression',
      '50ms',
    ],
    [
      'p99 under `below`, with a baseline',
      'p99',
      { regress: 0.1, floor: 200, limit: 50_000 },
      { latency: { p99: 40_000 } },
      { latency: { p99: 40_000 } },
      'pass',
      undefined,
    ],
    [
      'errors `max: 0` broken, no baseline',
      'errors',
      { limit: 0 },
      { errors: { timeout: 1 } },
      undefined,
      'regression',
      '0',
    ],
    [
      'errors `max: 0` broken, with baseline',
      'errors',
      { limit: 0 },
      { errors: { timeout: 1 } },
      { errors: { timeout: 1 } },
      'regression',
      '0',
    ],
    ['errors `max: 0` kept', 'errors', { limit: 0 }, {}, {}, 'pass', undefined],
    [
      'error-rate `max: 0.1%` broken',
      'error-rate',
      { limit: 0.001 },
      { responses: 1000, failures: 2, statusCodes: { '200': 998, '503': 2 } },
      undefined,
      'regression',
      '0.1%',
    ],
    [
      'memory `max: 64MiB` broken',
      'memory',
      { limit: 64 * MiB },
      { resources: { api: usage({ memoryPeakBytes: 65 * MiB }) } },
      undefined,
      'regression',
      '64MiB',
    ],
  ])('%s → %s', (_label, metric, t, cur, base, verdict, limitText) => {
    const c = compareOne(metric, t, phase('c10', cur), base ? phase('c10', base) : undefined);
    expect(c.result).toBe(verdict);
    if (limitText === undefined) {
      // a pass row may say it could not detect its band (one trial a side here): nothing of a limit
      if (c.blind) expect(c.reason).toMatch(/^could not detect its band/);
      else expect(c.reason).toBeUndefined();
    } else {
      expect(c.reason).toContain('limit');
      expect(c.reason).toContain(limitText);
    }
  });

  it('a broken limit without a baseline makes the overall verdict a regression', () => {
    const { comparisons } = compareScenario(
      scenario([phase('c10', { latency: { p99: 60_000 } })]),
      { p99: { limit: 50_000 }, rps: { regress: 0.1 } },
      undefined,
    );
    expect(comparisons.map((c) => c.result)).toEqual(['regression', 'no-baseline']);
    expect(overallVerdict(comparisons)).toBe('regression');
  });
});

describe('compareScenario: missing and stale baselines', () => {
  const thresholds: Thresholds = { p99: { regress: 0.1, floor: 200 }, rps: { regress: 0.1 } };

  it('no baseline at all: every metric is no-baseline, and so is the overall verdict', () => {
    const { status, comparisons } = compareScenario(
      scenario([phase('c10', {}), phase('c50', { latency: { p99: 99_999 } }, [{}, {}, {}])]),
      thresholds,
      undefined,
    );
    expect(status).toEqual({ scenario: 'search', baseline: 'missing' });
    expect(comparisons.map((c) => [c.phase, c.metric, c.result, c.baseline, c.delta])).toEqual([
      ['c10', 'p99', 'no-baseline', null, null],
      ['c10', 'rps', 'no-baseline', null, null],
      ['c50', 'p99', 'no-baseline', null, null],
      ['c50', 'rps', 'no-baseline', null, null],
    ]);
    expect(comparisons[2]?.current).toBe(99_999);
    expect(overallVerdict(comparisons)).toBe('no-baseline');
  });

  it('a phase the baseline does not have is no-baseline; the others are compared', () => {
    const { status, comparisons } = compareScenario(
      scenario([
        steadyPhase('c10', { latency: { p99: 5000 } }),
        phase('c50', { statusCodes: { '200': 990, '500': 10 }, failures: 10 }),
      ]),
      thresholds,
      baselineFile([steadyPhase('c10', { latency: { p99: 1000 } })]),
    );
    expect(status.baseline).toBe('present');
    expect(comparisons.map((c) => [c.phase, c.metric, c.result])).toEqual([
      ['c10', 'p99', 'regression'],
      ['c10', 'rps', 'pass'],
      ['c50', 'p99', 'no-baseline'],
      ['c50', 'rps', 'no-baseline'],
    ]);
    expect(overallVerdict(comparisons)).toBe('regression');
  });

  it.each<[string, string, 'present' | 'stale']>([
    ['same scenario hash', 'sha256:same', 'present'],
    ['changed scenario hash', 'sha256:other', 'stale'],
  ])('%s → baseline %s, with its provenance', (_label, hash, state) => {
    const { status, comparisons } = compareScenario(
      scenario([phase('c10', {})]),
      thresholds,
      baselineFile([phase('c10', {})], hash),
    );
    expect(status).toEqual({
      scenario: 'search',
      baseline: state,
      baselineTime: '2024-01-02T03:04:05.000Z',
      baselineCommit: 'abc1234',
    });
    expect(comparisons.map((c) => c.result)).toEqual(['pass', 'pass']);
  });
});

describe('compareScenario: built-in thresholds', () => {
  it('a scenario without thresholds is gated on the built-in ones', () => {
    const { comparisons } = compareScenario(scenario([phase('c10', {})]), {}, baselineFile([phase('c10', {})]));
    expect(comparisons.map((c) => c.metric)).toEqual(Object.keys(BUILTIN_THRESHOLDS));
    for (const c of comparisons) {
      expect(c.band).toBe(
        describeBand(c.metric as MetricName, BUILTIN_THRESHOLDS[c.metric as MetricName] as Threshold),
      );
    }
  });

  it('the built-in thresholds are the documented defaults: p50 10%/200µs, p99 25%/1ms, rps 10%', () => {
    expect(BUILTIN_THRESHOLDS).toEqual({
      p50: { regress: 0.1, floor: 200 },
      p99: { regress: 0.25, floor: 1000 },
      rps: { regress: 0.1 },
    });
  });

  it.each<[string, Measure, string[]]>([
    ['p50 +30%/+300µs', { latency: { p50: 1300 } }, ['regression', 'pass', 'pass']],
    ['p99 +20%/+2ms (inside 25%)', { latency: { p99: 12_000 } }, ['pass', 'pass', 'pass']],
    ['rps -20%', { rps: 80 }, ['pass', 'pass', 'regression']],
  ])('%s against the defaults', (_label, cur, results) => {
    const base = { latency: { p50: 1000, p99: 10_000 }, rps: 100 };
    const { comparisons } = compareScenario(
      scenario([steadyPhase('c10', { ...base, ...cur, latency: { ...base.latency, ...cur.latency } })]),
      {},
      baselineFile([steadyPhase('c10', base)]),
    );
    expect(comparisons.map((c) => c.result)).toEqual(results);
  });
});

describe('overallVerdict', () => {
  // rows compared with a baseline carry its value; only no-baseline rows have none
  const row = (result: Verdict): Comparison => ({
    scenario: 's',
    phase: 'p',
    metric: 'p99',
    baseline: result === 'no-baseline' ? null : 1,
    current: 1,
    delta: null,
    band: '',
    result,
  });
  it.each<[Verdict[], string]>([
    [['pass', 'pass'], 'pass'],
    [['no-baseline', 'no-baseline'], 'no-baseline'],
    [['pass', 'regression', 'improvement'], 'regression'],
    [['no-baseline', 'regression'], 'regression'],
    [['no-baseline', 'no-baseline'], 'no-baseline'],
    [['no-baseline', 'pass'], 'pass'],
    // nothing regressed but a row is inconclusive: the run is inconclusive, never a pass
    [['inconclusive', 'improvement', 'invalid', 'pass'], 'inconclusive'],
    [['inconclusive'], 'inconclusive'],
    [['regression', 'inconclusive'], 'regression'],
    [['no-baseline', 'inconclusive'], 'inconclusive'],
    [['invalid', 'pass'], 'pass'],
  ])('%j → %s', (results, verdict) => {
    expect(overallVerdict(results.map(row))).toBe(verdict);
  });
});

describe('sortForReport', () => {
  const row = (phase: string, result: Verdict): Comparison => ({
    scenario: 's',
    phase,
    metric: 'p99',
    baseline: 1,
    current: 1,
    delta: 0,
    band: '',
    result,
  });

  it('puts regressions first, in their original order', () => {
    const input = [
      row('a', 'pass'),
      row('b', 'regression'),
      row('c', 'pass'),
      row('d', 'regression'),
      row('e', 'pass'),
    ];
    expect(sortForReport(input).map((c) => c.phase)).toEqual(['b', 'd', 'a', 'c', 'e']);
  });

  it('keeps the order within each verdict, and regressions before everything else', () => {
    const input = [
      row('a', 'pass'),
      row('b', 'inconclusive'),
      row('c', 'regression'),
      row('d', 'improvement'),
      row('e', 'pass'),
      row('f', 'regression'),
      row('g', 'invalid'),
      row('h', 'inconclusive'),
      row('i', 'no-baseline'),
    ];
    const out = sortForReport(input);
    expect(out.slice(0, 2).map((c) => c.phase)).toEqual(['c', 'f']);
    for (const verdict of ['pass', 'inconclusive', 'improvement', 'invalid', 'no-baseline'] as const) {
      expect(out.filter((c) => c.result === verdict).map((c) => c.phase)).toEqual(
        input.filter((c) => c.result === verdict).map((c) => c.phase),
      );
    }
    expect(out).toHaveLength(input.length);
  });

  it('orders the verdicts: regression, inconclusive, invalid, improvement, no-baseline, pass', () => {
    const input = (['pass', 'no-baseline', 'improvement', 'invalid', 'inconclusive', 'regression'] as const).map(
      (v, i) => row(String(i), v),
    );
    expect(sortForReport(input).map((c) => c.result)).toEqual([
      'regression',
      'inconclusive',
      'invalid',
      'improvement',
      'no-baseline',
      'pass',
    ]);
  });

  it('does not change its input; no regressions → same order', () => {
    const input = [row('a', 'pass'), row('b', 'pass'), row('c', 'pass')];
    const copy = [...input];
    expect(sortForReport(input)).toEqual(copy);
    expect(input).toEqual(copy);
    expect(sortForReport([])).toEqual([]);
  });
});

describe('overallVerdict without any baseline value', () => {
  it('is no-baseline when only invalid rows without a baseline sit beside no-baseline rows', () => {
    const rows: Comparison[] = (['no-baseline', 'invalid'] as Verdict[]).map((result) => ({
      scenario: 's',
      phase: 'p',
      metric: 'p99',
      baseline: null,
      current: 1,
      delta: null,
      band: '',
      result,
    }));
    expect(overallVerdict(rows)).toBe('no-baseline');
  });
});

describe('gate.bands: inform: relative rows shown, never judged (issue 35)', () => {
  it.each<[string, Threshold, number, number, Partial<Comparison>]>([
    [
      'a change far beyond the band, even with five separated trials: information, a pass with its delta',
      { regress: 0.1, floor: 200, inform: true },
      1000,
      2000,
      { result: 'pass', informational: true, delta: 1 },
    ],
    [
      'an absolute limit still fails',
      { regress: 0.1, floor: 200, limit: 1500, inform: true },
      1000,
      2000,
      { result: 'regression', reason: 'above the limit 1.5ms' },
    ],
    ['a limit alone is judged as before', { limit: 3000, inform: true }, 1000, 2000, { result: 'pass' }],
  ])('%s', (_label, t, before, after, expected) => {
    const row = compareOne('p99', t, metricPhase('p99', after), metricPhase('p99', before));
    expect(row).toMatchObject(expected);
    if (expected.result === 'regression' || t.regress === undefined) expect(row.informational).toBeUndefined();
  });
});

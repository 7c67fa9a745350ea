import { describe, expect, it } from 'vitest';
import { BUILTIN_THRESHOLDS } from '../../src/compare/compare.js';
import { gateResults } from '../../src/compare/gate.js';
import type { Thresholds } from '../../src/config-parts/types.js';
import type {
  BaselineFile,
  Comparison,
  MergedPhase,
  PhaseResult,
  Provenance,
  ResultsFile,
  ScenarioResult,
  TrialSummary,
  Verdict,
} from '../../src/results/types.js';
import { BASELINE_SCHEMA, RESULTS_SCHEMA } from '../../src/results/types.js';
import type { LatencySummary } from '../../src/runner-kit/histogram.js';

// ---------------------------------------------------------------------------------------------
// fixtures

/** What a phase measured; everything not given is a healthy default. */
interface Measure {
  p50?: number;
  p99?: number;
  rps?: number;
  statusCodes?: Record<string, number>;
  errors?: Record<string, number>;
  flags?: string[];
  /** trials of the phase, all alike (default 5: 5 vs 5 apart gives p = 1/252, which confirms) */
  trials?: number;
  /** the looks of confirmation the phase was measured for */
  confirm?: { first: number; cap: number };
}

function latency(m: Measure): LatencySummary {
  const p50 = m.p50 ?? 1000;
  const p99 = m.p99 ?? 2000;
  return {
    count: 1000,
    min: 100,
    mean: p50,
    p10: p50,
    p25: p50,
    p50,
    p75: p50,
    p90: p99,
    p95: p99,
    p99,
    'p99.9': p99,
    max: p99 * 2,
  };
}

function measured(m: Measure) {
  const statusCodes = m.statusCodes ?? { '200': 1000 };
  const responses = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  const failures = Object.entries(statusCodes)
    .filter(([code]) => Number(code) >= 400)
    .reduce((a, [, n]) => a + n, 0);
  return {
    durationMs: 30_000,
    sent: responses,
    responses,
    successes: responses - failures,
    failures,
    statusCodes,
    errors: m.errors ?? {},
    rps: m.rps ?? 500,
    bytesPerSec: 10_000,
    latency: latency(m),
    connectionCloses: 0,
    resources: {},
  };
}

function trial(m: Measure, i: number): TrialSummary {
  return {
    trial: i,
    ...measured(m),
    generator: { cpuPct: 20, eventLoopDelayP99Us: 100, eventLoopDelayMaxUs: 500 },
  };
}

function phase(name: string, m: Measure = {}): PhaseResult {
  const n = m.trials ?? 5;
  const merged: MergedPhase = {
    trials: n,
    ...measured(m),
    errorRate: 0,
    histogram: '',
  };
  return {
    name,
    kind: 'closed',
    params: { connections: 10, durationMs: 30_000 },
    warmupMs: 5000,
    trials: Array.from({ length: n }, (_, i) => trial(m, i + 1)),
    merged,
    flags: m.flags ?? [],
    ...(m.confirm ? { confirm: m.confirm } : {}),
  };
}

function scenario(name: string, phases: PhaseResult[], over: Partial<ScenarioResult> = {}): ScenarioResult {
  return { name, scenarioHash: `hash-${name}`, phases, ...over };
}

const provenance = (time = '2024-05-01T00:00:00.000Z', commit: string | null = 'base123'): Provenance => ({
  time,
  commit,
  ref: 'refs/heads/main',
  runner: { os: 'linux', cpuModel: 'cpu', cores: 2, memoryBytes: 1 },
  docker: { version: '27', apiVersion: '1.46' },
  runnerImage: 'node:22-slim',
  sut: { images: {} },
});

function results(scenarios: ScenarioResult[], over: Partial<ResultsFile> = {}): ResultsFile {
  return {
    schema: RESULTS_SCHEMA,
    runId: 'run-1',
    mode: 'gate',
    config: 'perf-gate.yml',
    startedAt: '2024-05-10T00:00:00.000Z',
    finishedAt: '2024-05-10T00:05:00.000Z',
    provenance: provenance('2024-05-10T00:00:00.000Z', 'head456'),
    scenarios,
    comparisons: [],
    ...over,
  };
}

function baseline(s: ScenarioResult, over: Partial<BaselineFile> = {}): BaselineFile {
  return {
    schema: BASELINE_SCHEMA,
    scenario: s.name,
    scenarioHash: s.scenarioHash,
    provenance: provenance(),
    phases: s.phases,
    ...over,
  };
}

const baselines = (...files: BaselineFile[]) => new Map(files.map((b) => [b.scenario, b]));

const results_of = (comparisons: Comparison[]) =>
  comparisons.map((c) => `${c.scenario}/${c.phase} ${c.metric} ${c.result}`).sort();

// ---------------------------------------------------------------------------------------------

const P99_ONLY: Thresholds = { p99: { regress: 0.25, floor: 1000 } };

describe('gateResults: verdicts', () => {
  interface Case {
    current: Measure;
    /** undefined: no baseline file */
    base: Measure | undefined;
    thresholds?: Thresholds;
    verdict: 'pass' | 'regression' | 'inconclusive' | 'no-baseline';
    regressions: number;
    /** expected `metric result` for c10, sorted */
    rows: string[];
  }

  it.each<[string, Case]>([
    [
      'no baseline',
      {
        current: {},
        base: undefined,
        verdict: 'no-baseline',
        regressions: 0,
        rows: ['p50 no-baseline', 'p99 no-baseline', 'rps no-baseline'],
      },
    ],
    [
      'same as the baseline',
      { current: {}, base: {}, verdict: 'pass', regressions: 0, rows: ['p50 pass', 'p99 pass', 'rps pass'] },
    ],
    [
      'p99 regressed beyond band and floor (5 trials a side, confirmed at p = 1/252)',
      {
        current: { p99: 5000 },
        base: {},
        verdict: 'regression',
        regressions: 1,
        rows: ['p50 pass', 'p99 regression', 'rps pass'],
      },
    ],
    [
      'p99 worse but inside the floor',
      { current: { p99: 2900 }, base: {}, verdict: 'pass', regressions: 0, rows: ['p50 pass', 'p99 pass', 'rps pass'] },
    ],
    [
      'rps dropped 50%',
      {
        current: { rps: 250 },
        base: {},
        verdict: 'regression',
        regressions: 1,
        rows: ['p50 pass', 'p99 pass', 'rps regression'],
      },
    ],
    [
      'everything got faster',
      {
        current: { p50: 100, p99: 200, rps: 900 },
        base: {},
        // improvements are confirmed too (1/252 ≤ 0.01); they do not change a passing verdict
        verdict: 'pass',
        regressions: 0,
        rows: ['p50 improvement', 'p99 improvement', 'rps improvement'],
      },
    ],
    [
      'a new error class (HTTP 500)',
      {
        current: { statusCodes: { '200': 990, '500': 10 } },
        base: {},
        verdict: 'regression',
        regressions: 1,
        rows: ['error-class regression', 'p50 pass', 'p99 pass', 'rps pass'],
      },
    ],
    [
      'an error class the baseline already had',
      {
        current: { statusCodes: { '200': 990, '500': 10 } },
        base: { statusCodes: { '200': 995, '500': 5 } },
        verdict: 'pass',
        regressions: 0,
        rows: ['p50 pass', 'p99 pass', 'rps pass'],
      },
    ],
    [
      'a new socket error kind',
      {
        current: { errors: { ECONNRESET: 2 } },
        base: {},
        verdict: 'regression',
        regressions: 1,
        rows: ['error-class regression', 'p50 pass', 'p99 pass', 'rps pass'],
      },
    ],
    [
      'an absolute limit broken without a baseline',
      {
        current: { p99: 80_000 },
        base: undefined,
        thresholds: { p99: { limit: 50_000 } },
        verdict: 'regression',
        regressions: 1,
        rows: ['p99 regression'],
      },
    ],
    [
      'a limit kept without a baseline',
      {
        current: { p99: 20_000 },
        base: undefined,
        thresholds: { p99: { limit: 50_000 } },
        verdict: 'no-baseline',
        regressions: 0,
        rows: ['p99 no-baseline'],
      },
    ],
    [
      'confirmed by Mann–Whitney with 5 trials on both sides',
      {
        current: { p99: 5000, trials: 5 },
        base: { trials: 5 },
        thresholds: P99_ONLY,
        // five identical trials each side: p = 1/252, which is ≤ the default alpha 0.01
        verdict: 'regression',
        regressions: 1,
        rows: ['p99 regression'],
      },
    ],
    [
      'not confirmable with 3 trials on both sides at the default alpha',
      {
        current: { p99: 5000, trials: 3 },
        base: { trials: 3 },
        thresholds: P99_ONLY,
        // the smallest p of 3 vs 3 is 0.05: run-to-run noise in three trials is not a regression,
        // and with confirmation off (no looks in the file) the run says it could not decide
        verdict: 'inconclusive',
        regressions: 0,
        rows: ['p99 inconclusive'],
      },
    ],
    [
      'not confirmable with 1 trial on both sides (the old "no test below 3 trials" rule is gone)',
      {
        current: { p99: 5000, trials: 1 },
        base: { trials: 1 },
        thresholds: P99_ONLY,
        verdict: 'inconclusive',
        regressions: 0,
        rows: ['p99 inconclusive'],
      },
    ],
    [
      'confirmed after extension: 3 configured trials, 12 run, against 3 baseline trials',
      {
        current: { p99: 5000, trials: 12, confirm: { first: 3, cap: 12 } },
        base: { trials: 3 },
        thresholds: P99_ONLY,
        // 12 vs 3 apart: 1/455 ≤ 0.01, all of alpha spent at the final look
        verdict: 'regression',
        regressions: 1,
        rows: ['p99 regression'],
      },
    ],
    [
      '3 configured trials, the cap allowed more but none ran: inconclusive',
      {
        current: { p99: 5000, trials: 3, confirm: { first: 3, cap: 12 } },
        base: { trials: 3 },
        thresholds: P99_ONLY,
        verdict: 'inconclusive',
        regressions: 0,
        rows: ['p99 inconclusive'],
      },
    ],
  ])('%s', (_label, c) => {
    const s = scenario('api', [phase('c10', c.current)]);
    const b = c.base ? baseline(scenario('api', [phase('c10', c.base)])) : undefined;
    const out = gateResults(results([s]), baselines(...(b ? [b] : [])), () => c.thresholds);
    expect(out.verdict).toBe(c.verdict);
    expect(out.regressions).toBe(c.regressions);
    expect(out.results.comparisons.map((x) => `${x.metric} ${x.result}`).sort()).toEqual(c.rows);
    expect(out.regressions).toBe(out.results.comparisons.filter((x) => x.result === 'regression').length);
  });

  it('a generator-bound phase is not a regression, and beyond its band not a pass: inconclusive; the other phases are gated', () => {
    const s = scenario('api', [
      phase('c10', { p99: 50_000, flags: ['generator-bound: runner CPU at 99%'] }),
      phase('c50'),
    ]);
    const b = baseline(scenario('api', [phase('c10'), phase('c50')]));
    const out = gateResults(results([s]), baselines(b), () => P99_ONLY);
    expect(results_of(out.results.comparisons)).toEqual(['api/c10 p99 inconclusive', 'api/c50 p99 pass']);
    expect(out.verdict).toBe('inconclusive');
    expect(out.regressions).toBe(0);
  });

  // BUG (reported): comparePhaseMetric returns the `invalid` row before it fills `baseline`, so
  // when every row is invalid overallVerdict sees only `baseline: null` and says `no-baseline`
  // although the baseline exists (status `present`). Remove `.fails` once fixed.
  it('every phase generator-bound, baseline present: verdict pass (with warnings), not no-baseline', () => {
    // unchanged p99 (inside its band): invalid, a warning
    const s = scenario('api', [phase('c10', { flags: ['generator-bound: runner CPU at 99%'] })]);
    const b = baseline(scenario('api', [phase('c10')]));
    const out = gateResults(results([s]), baselines(b), () => P99_ONLY);
    expect(out.results.scenarioStatus?.[0]?.baseline).toBe('present');
    expect(results_of(out.results.comparisons)).toEqual(['api/c10 p99 invalid']);
    expect(out.verdict).toBe('pass');
  });

  it('a regression confirmed by extra trials says how many; the inconclusive one says why', () => {
    const b = baseline(scenario('api', [phase('c10', { trials: 3 })]));
    const run = (m: Measure) =>
      gateResults(results([scenario('api', [phase('c10', m)])]), baselines(b), () => P99_ONLY);
    const confirmed = run({ p99: 5000, trials: 12, confirm: { first: 3, cap: 12 } });
    expect(confirmed.results.comparisons[0]).toMatchObject({ result: 'regression', extraTrials: 9, pValue: 0.0022 });
    const open = run({ p99: 5000, trials: 3, confirm: { first: 3, cap: 12 } });
    expect(open.results.comparisons[0]?.reason).toMatch(/no more trials were run/);
    // a final verdict is never open
    expect(open.results.comparisons[0]?.open).toBeUndefined();
  });

  it('a new error class names the status code in its reason', () => {
    const s = scenario('api', [phase('c10', { statusCodes: { '200': 988, '500': 12 } })]);
    const out = gateResults(results([s]), baselines(baseline(scenario('api', [phase('c10')]))));
    const row = out.results.comparisons.find((c) => c.metric === 'error-class');
    expect(row).toMatchObject({ scenario: 'api', phase: 'c10', result: 'regression', baseline: 0, current: 12 });
    expect(row?.reason).toContain('HTTP 500');
  });
});

describe('gateResults: scenario status', () => {
  it.each<[string, BaselineFile | undefined, Record<string, unknown>]>([
    ['missing', undefined, { scenario: 'api', baseline: 'missing' }],
    [
      'present',
      baseline(scenario('api', [phase('c10')])),
      { scenario: 'api', baseline: 'present', baselineTime: '2024-05-01T00:00:00.000Z', baselineCommit: 'base123' },
    ],
    [
      'stale (scenario definition changed)',
      baseline(scenario('api', [phase('c10')]), { scenarioHash: 'older' }),
      { scenario: 'api', baseline: 'stale', baselineTime: '2024-05-01T00:00:00.000Z', baselineCommit: 'base123' },
    ],
    [
      'present, no commit known',
      baseline(scenario('api', [phase('c10')]), { provenance: provenance('2024-04-01T00:00:00.000Z', null) }),
      { scenario: 'api', baseline: 'present', baselineTime: '2024-04-01T00:00:00.000Z', baselineCommit: null },
    ],
  ])('%s', (_label, b, status) => {
    const out = gateResults(results([scenario('api', [phase('c10')])]), baselines(...(b ? [b] : [])));
    expect(out.results.scenarioStatus).toEqual([status]);
  });

  it.each<[string, Partial<Provenance['runner']>, string | undefined]>([
    ['same CPU model and cores: no note', {}, undefined],
    ['another CPU model', { cpuModel: 'Intel Xeon' }, 'cpu, 2 cores → Intel Xeon, 2 cores'],
    ['another core count', { cores: 4 }, 'cpu, 2 cores → cpu, 4 cores'],
    ['other memory or OS only: no note', { memoryBytes: 99, os: 'darwin' }, undefined],
  ])('baseline from another machine: %s', (_label, runner, machine) => {
    const b = baseline(scenario('api', [phase('c10')]));
    const current = provenance('2024-05-10T00:00:00.000Z', 'head456');
    const out = gateResults(
      results([scenario('api', [phase('c10')])], {
        provenance: { ...current, runner: { ...current.runner, ...runner } },
      }),
      baselines(b),
    );
    expect(out.results.scenarioStatus?.[0]?.machine).toBe(machine);
  });

  it('a stale baseline is still compared', () => {
    const b = baseline(scenario('api', [phase('c10')]), { scenarioHash: 'older' });
    const out = gateResults(results([scenario('api', [phase('c10', { p99: 9000 })])]), baselines(b));
    expect(out.results.scenarioStatus?.[0]?.baseline).toBe('stale');
    expect(out.verdict).toBe('regression');
  });

  it('several scenarios: one status each, in order; comparisons of all of them', () => {
    const a = scenario('a', [phase('c10'), phase('c50')]);
    const b = scenario('b', [phase('c10', { p99: 9000 })]);
    const c = scenario('c', [phase('c10')]);
    const out = gateResults(
      results([a, b, c]),
      baselines(baseline(a), baseline(scenario('b', [phase('c10')]), { scenarioHash: 'x' })),
    );
    expect(out.results.scenarioStatus?.map((s) => [s.scenario, s.baseline])).toEqual([
      ['a', 'present'],
      ['b', 'stale'],
      ['c', 'missing'],
    ]);
    expect(results_of(out.results.comparisons)).toEqual([
      'a/c10 p50 pass',
      'a/c10 p99 pass',
      'a/c10 rps pass',
      'a/c50 p50 pass',
      'a/c50 p99 pass',
      'a/c50 rps pass',
      'b/c10 p50 pass',
      'b/c10 p99 regression',
      'b/c10 rps pass',
      'c/c10 p50 no-baseline',
      'c/c10 p99 no-baseline',
      'c/c10 rps no-baseline',
    ]);
    expect(out.verdict).toBe('regression');
    expect(out.regressions).toBe(1);
  });

  it('a phase the baseline does not have is no-baseline, the others are compared', () => {
    const s = scenario('api', [phase('c10'), phase('r500')]);
    const out = gateResults(results([s]), baselines(baseline(scenario('api', [phase('c10')]))));
    expect(results_of(out.results.comparisons)).toEqual([
      'api/c10 p50 pass',
      'api/c10 p99 pass',
      'api/c10 rps pass',
      'api/r500 p50 no-baseline',
      'api/r500 p99 no-baseline',
      'api/r500 rps no-baseline',
    ]);
    expect(out.verdict).toBe('pass');
  });
});

describe('gateResults: thresholds', () => {
  const FROM_CONFIG: Thresholds = { p99: { regress: 0.5, floor: 500 }, errors: { limit: 0 } };
  const FROM_FILE: Thresholds = { p50: { regress: 0.1 } };

  it.each<[string, Thresholds | undefined, Thresholds | undefined, Thresholds, string[]]>([
    ['from thresholdsOf', FROM_CONFIG, undefined, FROM_CONFIG, ['errors', 'p99']],
    ['thresholdsOf wins over the file', FROM_CONFIG, FROM_FILE, FROM_CONFIG, ['errors', 'p99']],
    ['from the results file when thresholdsOf has none', undefined, FROM_FILE, FROM_FILE, ['p50']],
    // the file records what the scenario was really gated with
    [
      'none anywhere: gated with the built-in thresholds',
      undefined,
      undefined,
      BUILTIN_THRESHOLDS,
      Object.keys(BUILTIN_THRESHOLDS),
    ],
  ])('%s', (_label, ofConfig, inFile, stored, metrics) => {
    const s = scenario('api', [phase('c10')], inFile ? { thresholds: inFile } : {});
    const out = gateResults(results([s]), baselines(), () => ofConfig);
    expect(out.results.scenarios[0]?.thresholds).toEqual(stored);
    expect([...new Set(out.results.comparisons.map((c) => c.metric))].sort()).toEqual([...metrics].sort());
  });

  it('thresholds are per scenario', () => {
    const seen: string[] = [];
    const out = gateResults(
      results([scenario('a', [phase('c10')]), scenario('b', [phase('c10')])]),
      baselines(),
      (name) => {
        seen.push(name);
        return name === 'a' ? { p50: { regress: 0.1 } } : { rps: { regress: 0.1 } };
      },
    );
    expect(seen).toEqual(['a', 'b']);
    expect(out.results.scenarios.map((s) => s.thresholds)).toEqual([
      { p50: { regress: 0.1 } },
      { rps: { regress: 0.1 } },
    ]);
    expect(results_of(out.results.comparisons)).toEqual(['a/c10 p50 no-baseline', 'b/c10 rps no-baseline']);
  });

  it('the stored thresholds reproduce the verdict from the file alone', () => {
    const s = scenario('api', [phase('c10', { p99: 1800, p50: 1300 })]);
    const b = baseline(scenario('api', [phase('c10')]));
    const tight: Thresholds = { p50: { regress: 0.1, floor: 100 }, p99: { regress: 0.5 } };
    const first = gateResults(results([s]), baselines(b), () => tight);
    const again = gateResults(first.results, baselines(b));
    expect(again.results.comparisons).toEqual(first.results.comparisons);
    expect(again.verdict).toBe(first.verdict);
    expect(first.verdict).toBe('regression');
  });
});

describe('gateResults: baselineLatency for the chart', () => {
  it.each<[string, PhaseResult[], PhaseResult[], string[]]>([
    ['one phase', [phase('c10')], [phase('c10', { p50: 700, p99: 1500 })], ['c10']],
    [
      'several phases',
      [phase('c10'), phase('r500')],
      [phase('c10', { p50: 700 }), phase('r500', { p99: 9000 })],
      ['c10', 'r500'],
    ],
    ['a phase only the current run has', [phase('c10'), phase('new')], [phase('c10')], ['c10']],
  ])('%s', (_label, currentPhases, basePhases, keys) => {
    const b = baseline(scenario('api', basePhases));
    const out = gateResults(results([scenario('api', currentPhases)]), baselines(b));
    const got = out.results.scenarios[0]?.baselineLatency;
    expect(Object.keys(got ?? {}).sort()).toEqual(keys);
    for (const p of basePhases) expect(got?.[p.name]).toEqual(p.merged.latency);
  });

  it('copied from a stale baseline too', () => {
    const base = phase('c10', { p50: 700 });
    const b = baseline(scenario('api', [base]), { scenarioHash: 'older' });
    const out = gateResults(results([scenario('api', [phase('c10')])]), baselines(b));
    expect(out.results.scenarios[0]?.baselineLatency).toEqual({ c10: base.merged.latency });
  });

  it('absent without a baseline', () => {
    const out = gateResults(results([scenario('api', [phase('c10')])]), baselines());
    expect(out.results.scenarios[0]?.baselineLatency).toBeUndefined();
  });

  // BUG (reported): re-gating a results file that already carries baselineLatency (from an earlier
  // gate) against no baseline keeps the old baselineLatency: the chart then shows baseline bars next
  // to "no baseline" rows. Remove `.fails` once fixed.
  it('a results file gated again without a baseline loses its old baselineLatency', () => {
    const s = scenario('api', [phase('c10')], { baselineLatency: { c10: latency({ p50: 1 }) } });
    const out = gateResults(results([s]), baselines());
    expect(out.results.scenarios[0]?.baselineLatency).toBeUndefined();
  });
});

describe('gateResults: the results file', () => {
  it('replaces earlier comparisons and status instead of appending', () => {
    const stale: Comparison = {
      scenario: 'gone',
      phase: 'x',
      metric: 'p99',
      baseline: 1,
      current: 2,
      delta: 1,
      band: '+1%',
      result: 'regression' as Verdict,
    };
    const input = results([scenario('api', [phase('c10')])], {
      comparisons: [stale],
      scenarioStatus: [{ scenario: 'gone', baseline: 'present' }],
    });
    const out = gateResults(input, baselines());
    expect(out.results.comparisons.some((c) => c.scenario === 'gone')).toBe(false);
    expect(out.results.scenarioStatus).toEqual([{ scenario: 'api', baseline: 'missing' }]);
    expect(out.verdict).toBe('no-baseline');
  });

  it('keeps everything else of the file and does not mutate its input', () => {
    const s = scenario('api', [phase('c10', { p99: 9000 })]);
    const input = results([s]);
    const b = baseline(scenario('api', [phase('c10')]));
    const copy = structuredClone(input);
    const baseCopy = structuredClone(b);
    const out = gateResults(input, baselines(b), () => P99_ONLY);
    expect(input).toEqual(copy);
    expect(b).toEqual(baseCopy);
    const { scenarios, comparisons, scenarioStatus, ...rest } = out.results;
    const { scenarios: _s, comparisons: _c, scenarioStatus: _st, ...restIn } = input;
    expect(rest).toEqual(restIn);
    expect(scenarios[0]?.phases).toEqual(s.phases);
    expect(scenarios[0]?.name).toBe('api');
    expect(comparisons).toHaveLength(1);
    expect(scenarioStatus).toHaveLength(1);
  });

  it('an empty results file passes with nothing to compare', () => {
    const out = gateResults(results([]), baselines());
    expect(out).toEqual({ results: { ...results([]), scenarioStatus: [] }, verdict: 'pass', regressions: 0 });
  });

  it('baselines for scenarios not in the run are ignored', () => {
    const other = baseline(scenario('other', [phase('c10')]));
    const out = gateResults(results([scenario('api', [phase('c10')])]), baselines(other));
    expect(out.results.scenarioStatus).toEqual([{ scenario: 'api', baseline: 'missing' }]);
    expect(out.results.comparisons.every((c) => c.scenario === 'api')).toBe(true);
  });
});

// Any percentile as a threshold and a result (issue 21, "conventions users bring"): p97.5, p99.99 …
// in the config (keys, k6 strings), computed by the host per trial and merged, gated, reported.
import { describe, expect, it } from 'vitest';
import { compareAbScenario } from '../../src/compare/ab.js';
import { compareScenario } from '../../src/compare/compare.js';
import {
  extraPercentiles,
  isLatency,
  metricValue,
  samplesNeeded,
  tailShortfall,
  unmeasured,
} from '../../src/compare/metrics.js';
import { AGAINST_BASELINES } from '../../src/compare/judging.js';
import { confirmationReach } from '../../src/compare/reach.js';
import { locateProblems } from '../../src/config/lines.js';
import { parseConfigText } from '../../src/config/load.js';
import type { MetricName } from '../../src/metrics/registry.js';
import type { Config, Scenario } from '../../src/config-parts/types.js';
import { isPercentileMetric, parsePercentileKey } from '../../src/metrics/percentile.js';
import {
  createHistogram,
  encodeHistogram,
  type LatencySummary,
  recordUs,
  withPercentiles,
} from '../../src/runner-kit/histogram.js';
import { renderCsv } from '../../src/report/csv.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from './render-markdown.js';
import { renderResultsTable } from '../../src/report/terminal.js';
import { mergeTrials } from '../../src/results/merge.js';
import type { BaselineFile, PhaseResult, ScenarioResult } from '../../src/results/types.js';
import { gatedPercentiles, TrialCollector } from '../../src/session/collect.js';
import { latency, phase, resultsFile, targetOf, times, trial } from './fixtures.js';

const FILE = '/ws/perf-gate.yml';
const parse = (text: string) => parseConfigText(text, FILE, (p) => `/ws/${p}`);

describe('parsePercentileKey: one name per percentile, 0 < q < 100, at most 3 decimals', () => {
  it.each<[string, string, number]>([
    ['p97.5', 'p97.5', 97.5],
    ['p97.50', 'p97.5', 97.5],
    ['p097.5', 'p97.5', 97.5],
    ['p75', 'p75', 75],
    ['p0.1', 'p0.1', 0.1],
    ['p99.99', 'p99.99', 99.99],
    ['p99.999', 'p99.999', 99.999],
    ['p99.9990', 'p99.999', 99.999],
    ['p99.90', 'p99.9', 99.9],
    ['p50.0', 'p50', 50],
  ])('%s is %s', (key, name, q) => {
    expect(parsePercentileKey(key)).toEqual({ name, q });
  });

  it.each(['p100', 'p0', 'p0.000', 'p99.9999', 'p0.0001', 'p150', 'p', 'p9x', 'p-5', 'max'])('%s is refused', (key) => {
    const r = parsePercentileKey(key);
    expect(r).toHaveProperty('problem');
    expect((r as { problem: string }).problem).toMatch(/use max$/);
  });

  it.each<[string, boolean]>([
    ['p97.5', true],
    ['p50', true],
    ['p99.9', true],
    ['p97.50', false],
    ['p100', false],
    ['max', false],
    ['error-class', false],
  ])('isPercentileMetric(%s) is %s', (name, yes) => {
    expect(isPercentileMetric(name)).toBe(yes);
  });
});

/** A config of one scenario with `thresholds` (YAML lines, indented under the scenario) and a mix. */
function configText(thresholds: string[], more: string[] = []): string {
  return [
    'version: 1', // 1
    'sut: { compose: c.yml }', // 2
    'defaults:', // 3
    '  thresholds:', // 4
    '    p75: { regress: 20% }', // 5
    'scenarios:', // 6
    '  - name: api', // 7
    '    request: { url: http://api/ }', // 8
    '    phases: [{ connections: 1, duration: 1s }]', // 9
    '    thresholds:', // 10
    ...thresholds.map((l) => `      ${l}`), // 11…
    ...more,
  ].join('\n');
}

describe('config: percentile thresholds', () => {
  it('accepts any percentile as a key and in k6 strings, in its one spelling, in µs', () => {
    const { config, problems } = parse(
      configText(
        [
          'p97.50: { regress: 10%, floor: 1ms }',
          "p99.99: '< 50ms'",
          "p0.1: 'p(0.1) < 200us'",
          "http_req_duration: ['p(99.5)<300', 'p(99.90)<400']",
        ],
        [
          '  - name: mix',
          '    requests:',
          '      - { name: a, url: http://api/a, thresholds: { p97.5: { below: 20ms }, http_req_duration: ["p(99.99)<1s"] } }',
          '    phases: [{ connections: 1, duration: 1s }]',
        ],
      ),
    );
    expect(problems).toEqual([]);
    const [api, mix] = (config as Config).scenarios as [Scenario, Scenario];
    expect(api.thresholds).toEqual({
      p75: { regress: 0.2 },
      'p97.5': { regress: 0.1, floor: 1000 },
      'p99.99': { limit: 50_000 },
      'p0.1': { limit: 200 },
      'p99.5': { limit: 300_000 },
      'p99.9': { limit: 400_000 },
    });
    expect(targetOf(mix, 'http').mix?.[0]?.thresholds).toEqual({
      'p97.5': { limit: 20_000 },
      'p99.99': { limit: 1_000_000 },
    });
    // what the host computes beyond the summary's fields: not p75 nor p99.9, which it has
    expect(gatedPercentiles([api, mix])).toEqual(
      new Map([
        ['api', ['p0.1', 'p97.5', 'p99.5', 'p99.99']],
        ['mix', ['p97.5', 'p99.99']],
      ]),
    );
  });

  it('a fixed name keeps its meaning: p99.90 is p99.9, merged with the defaults key by key', () => {
    const { config } = parse(configText(['p99.90: { below: 5ms }', 'p75.0: { floor: 1ms }']));
    expect(config?.scenarios[0]?.thresholds).toEqual({ 'p99.9': { limit: 5000 }, p75: { regress: 0.2, floor: 1000 } });
  });

  it.each<[string, string[], string[]]>([
    [
      'p100, p0 and p99.9999 are refused at their key, pointing at max',
      ['p100: { below: 1s }', 'p0: { below: 1s }', 'p99.9999: { below: 1s }'],
      [
        `${FILE}:11:7: scenarios[0].thresholds.p100: not a percentile perf-gate gates: give one above 0 and below 100, with at most 3 decimals (p97.5, p99.99); for the slowest response use max`,
        `${FILE}:12:7: scenarios[0].thresholds.p0: not a percentile perf-gate gates: give one above 0 and below 100, with at most 3 decimals (p97.5, p99.99); for the slowest response use max`,
        `${FILE}:13:7: scenarios[0].thresholds.p99.9999: not a percentile perf-gate gates: give one above 0 and below 100, with at most 3 decimals (p97.5, p99.99); for the slowest response use max`,
      ],
    ],
    [
      'a k6 percentile out of range, at its list item',
      ["http_req_duration: ['p(95)<200', 'p(100)<300']"],
      [
        `${FILE}:11:40: scenarios[0].thresholds.http_req_duration[1]: p(100): not a percentile perf-gate gates: give one above 0 and below 100, with at most 3 decimals (p97.5, p99.99); for the slowest response use max`,
      ],
    ],
    [
      'one percentile spelled twice',
      ['p97.5: { regress: 10% }', 'p97.50: { floor: 1ms }'],
      [`${FILE}:12:7: scenarios[0].thresholds.p97.50: the same percentile as p97.5; give it once`],
    ],
    [
      'a key that is no metric and no percentile is still an unknown key, the rest still checked',
      ['p97x: { regress: 10% }', 'p97.5: { regress: 10 }', 'p99.99: { below: fast }'],
      [
        `${FILE}:11:7: scenarios[0].thresholds.p97x: unknown key (metrics: p50, p90, p95, p99, p99.9, max, mean, rps, bytes-per-sec, errors, error-rate, memory, cpu, cpu-per-request, fds, delivery, or any percentile like p97.5 or p99.99; k6 metrics: http_req_duration, http_req_failed, http_reqs)`,
        `${FILE}:12:16: scenarios[0].thresholds.p97.5.regress: 10 has no unit; write 10%`,
        // a value the schema refuses, in the same pass
        `${FILE}:13:17: scenarios[0].thresholds.p99.99.below: must be a latency like 200us, 1ms or 0.5s`,
      ],
    ],
    [
      'a percentile’s values are latencies',
      ['p99.99: { below: fast }', "p97.5: '> 1ms'"],
      [
        // in the order of the file
        `${FILE}:11:17: scenarios[0].thresholds.p99.99.below: must be a latency like 200us, 1ms or 0.5s`,
        `${FILE}:12:7: scenarios[0].thresholds.p97.5: p97.5 gets worse upwards: give an upper bound (< or <=)`,
      ],
    ],
  ])('%s', (_label, thresholds, expected) => {
    const text = configText(thresholds);
    const { config, problems } = parse(text);
    expect(config).toBeUndefined();
    expect(locateProblems(text, FILE, problems)).toEqual(expected);
  });

  it('a misspelt rule under a percentile gets its did-you-mean, as under a fixed name', () => {
    const text = configText(['p97.5: { regres: 10% }', 'p99: { regres: 10% }']);
    expect(locateProblems(text, FILE, parse(text).problems)).toEqual([
      // in the order of the file (the named metrics are read first, then the percentiles)
      `${FILE}:11:16: scenarios[0].thresholds.p97.5.regres: unknown key (did you mean regress?)`,
      `${FILE}:12:14: scenarios[0].thresholds.p99.regres: unknown key (did you mean regress?)`,
    ]);
  });

  it('a mix entry refuses an out-of-range percentile too', () => {
    const text = configText(
      ['p99: { below: 1s }'],
      [
        '  - name: mix',
        '    requests:',
        '      - name: a',
        '        url: http://api/a',
        '        thresholds: { p99.9999: { below: 20ms } }',
        '    phases: [{ connections: 1, duration: 1s }]',
      ],
    );
    const { problems } = parse(text);
    expect(locateProblems(text, FILE, problems)).toEqual([
      `${FILE}:16:23: scenarios[1].requests[0].thresholds.p99.9999: not a percentile perf-gate gates: give one above 0 and below 100, with at most 3 decimals (p97.5, p99.99); for the slowest response use max`,
    ]);
  });
});

describe('metrics of a percentile', () => {
  const l = latency({ p75: 750, percentiles: { 'p97.5': 2500, 'p99.99': 9000 } });
  const m = phase('c10', { latency: l }).merged;
  it.each<[MetricName, number]>([
    ['p97.5', 2500],
    ['p99.99', 9000],
    ['p75', 750],
    ['p99.9', 1000],
    ['p50', 1000],
  ])('metricValue %s = %d', (metric, value) => {
    expect(metricValue(m, metric)).toBe(value);
    expect(unmeasured(m, metric)).toBeUndefined();
    expect(isLatency(metric)).toBe(true);
  });

  it('a percentile the results lack is unmeasured, said so (never a silent 0)', () => {
    expect(unmeasured(m, 'p90.5')).toBe('no p90.5 in these results (written before p90.5 was gated)');
    // a file from before p10/p25/p75 were recorded
    const { p75: _gone, ...old } = l;
    expect(unmeasured({ ...m, latency: old as LatencySummary }, 'p75')).toMatch(/^no p75 in these results/);
  });

  it.each<[MetricName, number]>([
    ['p50', 20],
    ['p75', 40],
    ['p97.5', 400],
    ['p99', 1000],
    ['p99.9', 10_000],
    ['p99.99', 100_000],
    ['p99.999', 1_000_000],
    ['p0.1', 11],
    ['max', 0],
    ['mean', 0],
    ['rps', 0],
  ])('samplesNeeded %s = %d (ceil(10 / (1 - q)))', (metric, n) => {
    expect(samplesNeeded(metric)).toBe(n);
  });

  it('tailShortfall names the percentile and the trial short of it', () => {
    const trials = [trial({ latency: { count: 500 } }, 1), trial({ latency: { count: 300 } }, 2)];
    expect(tailShortfall(trials, 'p97.5')).toBe(
      'too few samples: p97.5 needs ≥ 400 successful responses per trial (10 beyond it); trial 2 of this run had 300',
    );
    expect(tailShortfall(trials, 'p90')).toBeUndefined();
  });

  it('extraPercentiles: the gated percentiles no summary field holds, in order, each once', () => {
    expect(
      extraPercentiles([
        { 'p99.99': {}, p99: {}, p75: {} },
        { 'p97.5': {}, 'p99.99': {}, rps: {} },
      ]),
    ).toEqual(['p97.5', 'p99.99']);
  });
});

/** An encoded histogram of `n` values 1..n µs (p97.5 = 0.975 n). */
function histogramOf(n: number, scale = 1): string {
  const h = createHistogram();
  for (let i = 1; i <= n; i++) recordUs(h, i * scale);
  const e = encodeHistogram(h);
  h.destroy();
  return e;
}

describe('the host computes gated percentiles per trial and merged', () => {
  it('mergeTrials takes them from the merged histogram (by default those the trials have)', () => {
    const trials = [
      { ...trial({}, 1), latency: latency({ percentiles: { 'p97.5': 975 } }) },
      { ...trial({}, 2), latency: latency({ percentiles: { 'p97.5': 1950 } }) },
    ];
    const hs = [histogramOf(1000), histogramOf(1000, 2)];
    // 2000 values: 1..1000 and 2..2000 by 2; p97.5 is the 1950th value, 1900 µs
    expect(mergeTrials(trials, hs).latency.percentiles).toEqual({ 'p97.5': 1900 });
    expect(mergeTrials(trials, hs, ['p97.5', 'p99.99']).latency.percentiles).toEqual({
      'p97.5': 1900,
      'p99.99': 2000,
    });
    expect(mergeTrials([trial({}, 1)], [histogramOf(10)]).latency.percentiles).toBeUndefined();
  });

  it('withPercentiles: only the host computes them; any a runner sent are dropped', () => {
    const sent = latency({ percentiles: { 'p97.5': 1, 'p42.5': 7 } });
    expect(withPercentiles(sent, histogramOf(1000), ['p97.5']).percentiles).toEqual({ 'p97.5': 975 });
    expect(withPercentiles(sent, histogramOf(1000), [])).toEqual(latency());
  });

  it('TrialCollector adds them to each trial as its event arrives, and to the merged phase', () => {
    const { config } = parse(configText(['p97.5: { regress: 10% }', "p99.99: '< 1s'"]));
    const scenarios = (config as Config).scenarios;
    const c = new TrialCollector(undefined, gatedPercentiles(scenarios));
    const m = trial({}, 1);
    for (const [i, n] of [1000, 4000].entries()) {
      c.onEvent({ t: 'stage', scenario: 'api', phase: 'c1', trial: i + 1, trials: 2, stage: 'measure' }, 0);
      c.onEvent({ t: 'trial', scenario: 'api', phase: 'c1', measurement: m, histogram: histogramOf(n) }, 1000);
    }
    const [api] = c.results(scenarios, new Map([['api', 'h']]));
    const p = api?.phases[0] as PhaseResult;
    // HDR keeps 3 significant digits: 3900 may read 3901
    const within = (v: number) => expect.toSatisfy((x: number) => Math.abs(x - v) <= v / 1000);
    expect(p.trials.map((t) => t.latency.percentiles)).toEqual([
      { 'p97.5': within(975), 'p99.99': within(1000) },
      { 'p97.5': within(3900), 'p99.99': within(4000) },
    ]);
    // 5000 values; p97.5 the 4875th: 3875 of 1..4000 (within HDR's 3 digits), never an average of trials
    expect(p.merged.latency.percentiles).toEqual({ 'p97.5': within(3875), 'p99.99': within(4000) });
    // the runner's own fields are untouched
    expect(p.trials[0]?.latency.p99).toBe(m.latency.p99);
  });
});

describe('gating a percentile', () => {
  const withP = (v: number) => ({ latency: { count: 1000, percentiles: { 'p97.5': v } } });
  const current = (v: number): ScenarioResult => ({
    name: 'api',
    scenarioHash: 'h',
    phases: [phase('c10', withP(v), times(withP(v)))],
  });
  const baselineOf = (phases: PhaseResult[]): BaselineFile => ({
    schema: 'perf-gate/baseline@1',
    scenario: 'api',
    scenarioHash: 'h',
    provenance: { time: 't', commit: null } as never,
    phases,
  });
  const band = { 'p97.5': { regress: 0.1, floor: 100 } };

  it('a baseline that has it: a regression is confirmed like any latency', () => {
    const { comparisons } = compareScenario(current(2000), band, baselineOf(current(1000).phases));
    expect(comparisons).toMatchObject([
      { metric: 'p97.5', baseline: 1000, current: 2000, delta: 1, result: 'regression', band: '+10% and +100µs' },
    ]);
  });

  it('a baseline recorded before it was gated: no-baseline with a reason, never a pass or a crash', () => {
    const old = baselineOf([phase('c10', {}, times({}))]);
    const { comparisons } = compareScenario(current(2000), band, old);
    expect(comparisons).toEqual([
      {
        scenario: 'api',
        phase: 'c10',
        metric: 'p97.5',
        baseline: null,
        current: 2000,
        delta: null,
        band: '+10% and +100µs',
        result: 'no-baseline',
        reason:
          'the baseline has no p97.5 (recorded before p97.5 was gated); refresh it with perf-gate run --mode update',
      },
    ]);
    // its absolute limit still holds
    const limited = compareScenario(current(2000), { 'p97.5': { limit: 1500 } }, old).comparisons;
    expect(limited).toMatchObject([{ result: 'regression', reason: 'above the limit 1.5ms', baseline: null }]);
    // a merged value without per-trial ones cannot be tested either
    const mergedOnly = baselineOf([phase('c10', withP(1000), times({}))]);
    expect(compareScenario(current(2000), band, mergedOnly).comparisons[0]).toMatchObject({ result: 'no-baseline' });
  });

  it('results without it (compared again with a newer config): invalid, said so', () => {
    const now: ScenarioResult = { name: 'api', scenarioHash: 'h', phases: [phase('c10', {}, times({}))] };
    const { comparisons } = compareScenario(now, band, baselineOf(current(1000).phases));
    expect(comparisons[0]).toMatchObject({
      result: 'invalid',
      reason: 'no p97.5 in these results (written before p97.5 was gated)',
    });
  });

  it('A/B: pairs of per-trial values of the percentile', () => {
    const ab = (v: number): ScenarioResult => ({ ...current(v), phases: [phase('c10', withP(v), times(withP(v), 6))] });
    const rows = compareAbScenario(ab(2000), ab(1000), band);
    expect(rows).toMatchObject([{ metric: 'p97.5', baseline: 1000, current: 2000, pairs: 6, result: 'regression' }]);
    const bare: ScenarioResult = { ...current(1), phases: [phase('c10', {}, times({}, 6))] };
    expect(compareAbScenario(ab(2000), bare, band)[0]).toMatchObject({ result: 'invalid' });
  });

  it('reach: a phase too short for p99.99 is a note naming it', () => {
    const { config } = parse(
      configText(['p99.99: { regress: 10% }']).replace(
        '{ connections: 1, duration: 1s }',
        '{ connections: 1, requests: 5000 }',
      ),
    );
    const { notes } = confirmationReach(config as Config, AGAINST_BASELINES);
    expect(notes.some((n) => n.includes('too few to gate p99.99 (needs 100000)'))).toBe(true);
  });
});

describe('reports: a p97.5 row and column', () => {
  const l = latency({ percentiles: { 'p97.5': 2500 } });
  const p = phase('c10', { latency: l }, [{ latency: l }]);
  const scenario: ScenarioResult = { name: 'api', scenarioHash: 'h', phases: [p] };
  const results = resultsFile(
    [scenario],
    [
      {
        scenario: 'api',
        phase: 'c10',
        metric: 'p97.5',
        baseline: null,
        current: 2500,
        delta: null,
        band: '+10%',
        result: 'no-baseline',
        reason:
          'the baseline has no p97.5 (recorded before p97.5 was gated); refresh it with perf-gate run --mode update',
      },
    ],
  );

  it('markdown: the row in µs with its reason, and a latency column', () => {
    const md = renderMarkdown(results);
    expect(md).toMatch(
      /\| api +\| c10 +\| p97\.5 +\| — +\| 2\.5ms +\| — +\| \+10% +\| ➖ no baseline: the baseline has no p97\.5 \(recorded before p97\.5 was gated\)/,
    );
    expect(md).toMatch(/\| max +\| p97\.5 +\|\n[-| ]+\n\| api +\| c10 +\| 1 +\| 100 +(\| 1ms +){5}\| 2\.5ms +\|/);
  });

  it('csv: a row with unit us, the comparison beside it', () => {
    const rows = renderCsv(results).split('\r\n');
    expect(rows.filter((r) => r.startsWith('api,c10,p97.5,'))).toEqual([
      'api,c10,p97.5,us,2500,,,within +10%,no-baseline,,the baseline has no p97.5 (recorded before p97.5 was gated); refresh it with perf-gate run --mode update,',
    ]);
  });

  it('junit: a skipped case named by the percentile', () => {
    expect(renderJunit(results)).toContain('<testcase name="c10 p97.5"');
  });

  it('terminal: a p97.5 column', () => {
    const table = renderResultsTable([scenario]).split('\n');
    expect(table[0]).toMatch(/max +p97\.5 +errors/);
    expect(table[2]).toMatch(/1ms +2\.5ms +0$/);
  });
});

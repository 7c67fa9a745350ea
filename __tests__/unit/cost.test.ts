// Why a phase regressed, the first fork (compare/cost.ts): each service's CPU per successful response,
// this run's trials against the baseline's (gate) or head's against base's pair by pair (A/B), and the
// report's line: more CPU per request, or waiting, not working.
import { describe, expect, it } from 'vitest';
import { phaseCost, regressionCosts, withCosts } from '../../src/compare/cost.js';
import { renderMarkdown } from './render-markdown.js';
import type { PhaseResult } from '../../src/results/types.js';
import { problemOf, resultsFileSchema } from '../../src/results/validate.js';
import { baselineOf, comparison, phase, resultsFile, usage } from './fixtures.js';

/** A phase of trials at 1000 successful responses a second, each service at the CPU % given per trial. */
function phaseAt(cpu: Record<string, number[]>, name = 'c10'): PhaseResult {
  const n = Object.values(cpu)[0]?.length ?? 0;
  const trials = Array.from({ length: n }, (_, i) => ({
    rps: 1000,
    responses: 10_000,
    failures: 0,
    resources: {
      ...Object.fromEntries(
        Object.entries(cpu).map(([s, v]) => [s, usage({ cpuMeanPct: v[i] as number, samples: 10 })]),
      ),
      'perf-gate-runner': usage({ cpuMeanPct: 90, samples: 10 }),
    },
  }));
  return phase(name, trials[0] ?? {}, trials);
}

describe('phaseCost: each service’s CPU per successful response, against the other side', () => {
  it('gate: a service whose trials all spend 50% more is the one that rose; the others did not', () => {
    const now = phaseAt({ api: [60, 61, 59, 60, 62], db: [20, 21, 19, 20, 20] });
    const then = phaseAt({ api: [40, 41, 39, 40, 42], db: [20, 19, 21, 20, 20] });
    const cost = phaseCost('shop', now, then, false);
    expect(cost?.services.map((s) => [s.service, s.rose])).toEqual([
      ['api', true],
      ['db', false],
    ]);
    const api = cost?.services[0];
    // 0.6 cores at 1000 a second: 600 µs a response, against 400
    expect(api?.after).toBeCloseTo(600, 6);
    expect(api?.before).toBeCloseTo(400, 6);
    expect(api?.change).toBeCloseTo(0.5, 6);
    expect(api?.pValue).toBeCloseTo(1 / 252, 9);
    expect(api?.interval).toBeUndefined();
  });

  it('a rise under 10% is not "more CPU", however sure; a large one with trials that overlap is not either', () => {
    const small = phaseCost('s', phaseAt({ api: [43, 43, 43, 43, 43] }), phaseAt({ api: [40, 40, 40, 40, 40] }), false);
    expect(small?.services[0]?.rose).toBe(false);
    const noisy = phaseCost('s', phaseAt({ api: [80, 20, 80, 20, 80] }), phaseAt({ api: [40, 60, 40, 60, 40] }), false);
    expect(noisy?.services[0]?.rose).toBe(false);
  });

  it('A/B: per-pair changes, their median and interval, the signed-rank p', () => {
    const head = phaseAt({ api: [60, 62, 58, 61, 60, 59] });
    const base = phaseAt({ api: [40, 41, 39, 40, 40, 40] });
    const api = phaseCost('s', head, base, true)?.services[0];
    expect(api?.rose).toBe(true);
    expect(api?.interval?.[0]).toBeGreaterThan(0.4);
    expect(api?.pValue).toBeCloseTo(1 / 64, 9);
  });

  it('more CPU a response must account for a quarter of the added latency: fixed costs spread over fewer responses are not more work', () => {
    const withMean = (p: PhaseResult, mean: number): PhaseResult => ({
      ...p,
      merged: { ...p.merged, latency: { ...p.merged.latency, mean, count: 1000 } },
    });
    const then = withMean(phaseAt({ api: [40, 40, 40, 40, 40] }), 2000);
    // +1 ms of latency; +200 µs of CPU a response is 20% of it, +400 µs 40%
    const waiting = phaseCost('s', withMean(phaseAt({ api: [60, 60, 60, 60, 60] }), 3000), then, false)?.services[0];
    expect(waiting?.share).toBeCloseTo(0.2, 9);
    expect(waiting?.rose).toBe(false);
    const working = phaseCost('s', withMean(phaseAt({ api: [80, 80, 80, 80, 80] }), 3000), then, false)?.services[0];
    expect(working?.share).toBeCloseTo(0.4, 9);
    expect(working?.rose).toBe(true);
  });

  it("the runner's container, an unsampled service and one on one side only are left out", () => {
    const now = phaseAt({ api: [50, 50, 50], cache: [10, 10, 10] });
    const then = phaseAt({ api: [50, 50, 50] });
    now.trials.forEach((t) => (t.resources.idle = usage({ cpuMeanPct: 5, samples: 0 })));
    then.trials.forEach((t) => (t.resources.idle = usage({ cpuMeanPct: 5, samples: 0 })));
    expect(phaseCost('s', now, then, false)?.services.map((s) => s.service)).toEqual(['api']);
    expect(phaseCost('s', phaseAt({ cache: [1, 1] }), phaseAt({ api: [1, 1] }), false)).toBeUndefined();
  });
});

describe('regressionCosts and the report', () => {
  const slower = phaseAt({ api: [60, 61, 59, 60, 62], db: [20, 21, 19, 20, 20] });
  const before = phaseAt({ api: [40, 41, 39, 40, 42], db: [20, 19, 21, 20, 20] });
  const waiting = phaseAt({ api: [40, 40, 41, 39, 40] }, 'c50');
  const waitedBefore = phaseAt({ api: [40, 41, 40, 39, 40] }, 'c50');
  const results = resultsFile(
    [{ name: 'shop', scenarioHash: 'h', phases: [slower, waiting, phaseAt({ api: [1, 1] }, 'c1')] }],
    [
      comparison({ scenario: 'shop', phase: 'c10', metric: 'p50', result: 'regression', delta: 0.5 }),
      // an inconclusive row fails the check too: asked why as well
      comparison({ scenario: 'shop', phase: 'c50', metric: 'p99', result: 'inconclusive', delta: 0.8 }),
      comparison({ scenario: 'shop', phase: 'c1', metric: 'p99', result: 'pass' }),
    ],
  );
  const baselines = new Map([
    ['shop', baselineOf('shop', 'h', [before, waitedBefore, phaseAt({ api: [1, 1] }, 'c1')])],
  ]);

  it('only phases with a failing row (regression or inconclusive), against the baselines (gate)', () => {
    const costs = withCosts(results, undefined, baselines).costs ?? [];
    expect(costs.map((c) => c.phase)).toEqual(['c10', 'c50']);
    expect(regressionCosts(results, () => undefined, undefined)).toEqual([]);
  });

  it('the report says which service spent more CPU per request, or that none did', () => {
    const md = renderMarkdown(withCosts(results, undefined, baselines));
    expect(md).toContain('- **why shop/c10**: more CPU per request: api +50% (400µs → 600µs a response, p=0.004)');
    expect(md).toMatch(
      /- \*\*why shop\/c50\*\*: no service spent more CPU per request \(api [-+]\d\.\d%\): waiting, not working/,
    );
  });

  it("a service's name is escaped; the costs of a file read back through the schema", () => {
    const evil = withCosts(results, undefined, baselines);
    const costs = evil.costs!.map((c) => ({
      ...c,
      services: c.services.map((s) => ({ ...s, service: '<img src=x>@team' })),
    }));
    const md = renderMarkdown({ ...evil, costs });
    expect(md).not.toMatch(/<img|@team/);
    expect(problemOf(resultsFileSchema, JSON.parse(JSON.stringify(evil)))).toBeUndefined();
    expect(
      problemOf(resultsFileSchema, { ...evil, costs: [{ scenario: 's', phase: 'p', services: [{ service: 1 }] }] }),
    ).toMatch(/costs/);
  });
});

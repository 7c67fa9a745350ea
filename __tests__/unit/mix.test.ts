// Request mixes (issue 10, item 3): config, the weighted pick, the per-entry tallies, the host's
// per-entry phases, and gating an entry on its own thresholds only.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makeTarget } from '../../runner/src/connection.js';
import { MixPicker } from '../../runner/src/mix.js';
import { combineRequestTallies, type EngineTally } from '../../runner/src/tally.js';
import { compareScenario } from '../../src/compare/compare.js';
import { compareAbScenario } from '../../src/compare/ab.js';
import { expandPlan } from '../../src/config/env.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config, Scenario } from '../../src/config-parts/types.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import { createHistogram, decodeHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';
import { scenarioHash } from '../../src/results/files.js';
import type { BaselineFile, ScenarioResult } from '../../src/results/types.js';
import { TrialCollector } from '../../src/session/collect.js';
import { phase, targetOf, steadyPhase } from './fixtures.js';

describe('MixPicker: smooth weighted round-robin', () => {
  const picks = (weights: number[], n: number): number[] => {
    const p = new MixPicker(weights);
    return Array.from({ length: n }, () => p.next());
  };
  const shares = (weights: number[], n: number): number[] => {
    const out = weights.map(() => 0);
    for (const k of picks(weights, n)) out[k] = (out[k] as number) + 1;
    return out;
  };
  it.each<[number[], number, number[]]>([
    [[1], 5, [5]],
    [[1, 1], 10, [5, 5]],
    [[3, 1], 8, [6, 2]],
    [[5, 1, 1], 70, [50, 10, 10]],
    [[1, 0], 9, [9, 0]],
    [[0.5, 0.25, 0.25], 400, [200, 100, 100]],
    [[2, 3], 1000, [400, 600]],
  ])('weights %j over %i picks: %j', (weights, n, expected) => {
    expect(shares(weights, n)).toEqual(expected);
  });
  it('spreads a heavy entry evenly instead of sending it in a run', () => {
    // 5:1:1 → a, a, b, a, c, a, a (nginx's sequence), not a×5 then b, c
    expect(picks([5, 1, 1], 7)).toEqual([0, 0, 1, 0, 2, 0, 0]);
  });
  it.each([[[0, 0]], [[]]])('weights %j that do not sum to a positive number are refused', (weights) => {
    expect(() => new MixPicker(weights)).toThrow(/positive/);
  });
});

describe('makeTarget with a mix', () => {
  it('serialises each entry, picks by weight and says which one it picked', () => {
    const t = makeTarget(
      {
        request: { url: 'http://api:8080/embed', method: 'POST', headers: {}, body: '{"t":1}' },
        mix: [
          {
            name: 'embed',
            weight: 1,
            request: { url: 'http://api:8080/embed', method: 'POST', headers: {}, body: '{"t":1}' },
          },
          { name: 'search', weight: 2, request: { url: 'http://api:8080/search?q=a', method: 'GET', headers: {} } },
          { name: 'probe', weight: 1, request: { url: 'http://api:8080/health', method: 'HEAD', headers: {} } },
        ],
      },
      10_000,
    );
    expect(t.mixSize).toBe(3);
    const seen: Array<[number, string, boolean]> = [];
    for (let i = 0; i < 4; i++) {
      const line = t.next().toString('latin1').split('\r\n')[0] as string;
      seen.push([t.current, line, t.head]);
    }
    expect(seen).toEqual([
      [1, 'GET /search?q=a HTTP/1.1', false],
      [0, 'POST /embed HTTP/1.1', false],
      [2, 'HEAD /health HTTP/1.1', true],
      [1, 'GET /search?q=a HTTP/1.1', false],
    ]);
  });
  it('rotates an entry’s bodies within its own share', () => {
    const t = makeTarget(
      {
        request: { url: 'http://api/a', method: 'POST', headers: {} },
        mix: [
          { name: 'a', weight: 1, request: { url: 'http://api/a', method: 'POST', headers: {}, bodies: ['1', '2'] } },
          { name: 'b', weight: 1, request: { url: 'http://api/b', method: 'GET', headers: {} } },
        ],
      },
      10_000,
    );
    const bodies = Array.from({ length: 6 }, () => t.next().toString('latin1'))
      .filter((r) => r.startsWith('POST'))
      .map((r) => r.split('\r\n\r\n')[1]);
    expect(bodies).toEqual(['1', '2', '1']);
  });
  it('each entry its own timeout and checks; a connect and the drain know the first and the longest', () => {
    const t = makeTarget(
      {
        request: { url: 'http://api/a', method: 'GET', headers: {} },
        mix: [
          { name: 'a', weight: 1, request: { url: 'http://api/a', method: 'GET', headers: {} } },
          {
            name: 'b',
            weight: 1,
            request: {
              url: 'http://api/b',
              method: 'GET',
              headers: {},
              timeoutMs: 30_000,
              expect: { json: [{ path: 'errors', exists: false }] },
            },
          },
          {
            name: 'c',
            weight: 1,
            request: { url: 'http://api/c', method: 'GET', headers: {}, timeoutMs: 50, expect: { status: [200] } },
          },
        ],
      },
      10_000,
    );
    expect(t.timeouts).toEqual([10_000, 30_000, 50]);
    expect(t.longestTimeoutMs).toBe(30_000);
    // only entry b's checks read the response beyond its status
    expect(t.captures).toEqual([undefined, { headers: false, body: true }, undefined]);
    expect(t.expects[2]).toEqual({ status: [200] });
  });
  it('without a mix: one entry of nothing', () => {
    const t = makeTarget({ request: { url: 'http://api/a', method: 'GET', headers: {} } }, 10_000);
    expect(t.mixSize).toBe(0);
    t.next();
    expect(t.current).toBe(0);
  });
});

const FILE = '/ws/perf-gate.yml';
const resolver = (p: string): string => `/ws/${p}`;

function config(requests: unknown, extra: Record<string, unknown> = {}): { config?: Config; problems: string[] } {
  const text = stringify({
    version: 1,
    sut: { compose: 'c.yml' },
    scenarios: [{ name: 'mix', requests, phases: [{ name: 'c10', connections: 10, duration: '5s' }], ...extra }],
  });
  return parseConfigText(text, FILE, resolver);
}

const EMBED = { name: 'embed', weight: 1, url: 'http://api:8080/embed', body: { text: 'x' } };
const SEARCH = {
  name: 'search',
  weight: 3,
  url: 'http://api:8080/search',
  bodies: 'fixtures/q.jsonl',
  thresholds: { p99: { regress: '20%', below: '50ms' } },
};

describe('config: requests (a mix)', () => {
  it('normalises each entry like a request, with its weight and its own thresholds', () => {
    const { config: c, problems } = config([EMBED, SEARCH]);
    expect(problems).toEqual([]);
    const s = c?.scenarios[0] as Scenario;
    expect(targetOf(s, 'http').mix).toEqual([
      {
        name: 'embed',
        weight: 1,
        request: {
          url: 'http://api:8080/embed',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"text":"x"}',
        },
        thresholds: {},
      },
      {
        name: 'search',
        weight: 3,
        request: { url: 'http://api:8080/search', method: 'POST', headers: {}, bodiesFile: '/ws/fixtures/q.jsonl' },
        thresholds: { p99: { regress: 0.2, limit: 50_000 } },
      },
    ]);
    // the connection target is the first entry's
    expect(targetOf(s, 'http').request.url).toBe('http://api:8080/embed');
  });
  it('weight defaults to 1', () => {
    const { config: c } = config([{ name: 'a', url: 'http://api/a' }]);
    expect(targetOf(c?.scenarios[0], 'http').mix?.[0]?.weight).toBe(1);
  });
  it.each<[string, unknown, Record<string, unknown>, string[]]>([
    [
      'both request and requests',
      [EMBED],
      { request: { url: 'http://api/' } },
      [
        'scenarios[0]: give exactly one of request (one request), requests (a mix), flow (a flow of steps), websocket (WebSocket peers) or grpc (gRPC calls)',
      ],
    ],
    [
      'neither',
      undefined,
      {},
      [
        'scenarios[0]: give exactly one of request (one request), requests (a mix), flow (a flow of steps), websocket (WebSocket peers) or grpc (gRPC calls)',
      ],
    ],
    ['an empty list', [], {}, ['scenarios[0].requests: must list at least one request']],
    [
      'weights summing to zero',
      [
        { ...EMBED, weight: 0 },
        { ...SEARCH, weight: 0 },
      ],
      {},
      ['scenarios[0].requests: the weights must sum to a positive number'],
    ],
    [
      'a negative weight',
      [{ ...EMBED, weight: -1 }],
      {},
      ['scenarios[0].requests[0].weight: must be a number of 0 or more'],
    ],
    [
      'a name used twice',
      [EMBED, { ...SEARCH, name: 'embed' }],
      {},
      ['scenarios[0].requests: request name "embed" is used twice (it names the entry\'s results)'],
    ],
    [
      'a name with a dot',
      [{ ...EMBED, name: 'a.b' }],
      {},
      ['scenarios[0].requests[0].name: must be a name of [a-z0-9_-]+'],
    ],
    [
      'another origin',
      [EMBED, { ...SEARCH, url: 'http://other:8080/search' }],
      {},
      [
        "scenarios[0].requests[1].url: must have the origin of requests[0] (http://api:8080): a phase's mix shares one set of connections",
      ],
    ],
    [
      "a SUT resource metric in an entry's thresholds",
      [{ ...EMBED, thresholds: { memory: { max: '1GiB' } } }],
      {},
      [
        'scenarios[0].requests[0].thresholds.memory: unknown key (metrics: p50, p90, p95, p99, p99.9, max, mean, rps, bytes-per-sec, errors, error-rate, or any percentile like p97.5 or p99.99; k6 metrics: http_req_duration, http_req_failed, http_reqs)',
      ],
    ],
    [
      "a bad unit in an entry's thresholds",
      [{ ...EMBED, thresholds: { p99: { below: 'fast' } } }],
      {},
      ['scenarios[0].requests[0].thresholds.p99.below: must be a latency like 200us, 1ms or 0.5s'],
    ],
    [
      'body and bodies in one entry',
      [{ ...EMBED, bodies: 'b.jsonl' }],
      {},
      ['scenarios[0].requests[0]: give body or bodies, not both'],
    ],
  ])('%s: one line naming the key', (_what, requests, extra, expected) => {
    const { config: c, problems } = config(requests, extra);
    expect(c).toBeUndefined();
    expect(problems).toEqual(expected);
  });
  it('the default port is the same origin as an explicit one', () => {
    const { problems } = config([
      { name: 'a', url: 'http://api/a' },
      { name: 'b', url: 'http://api:80/b' },
    ]);
    expect(problems).toEqual([]);
  });
});

describe('the plan and the scenario hash of a mix', () => {
  const scenarioOf = (requests: unknown): Scenario => config(requests).config?.scenarios[0] as Scenario;
  const bodies = (file: string): string[] => (file.endsWith('q.jsonl') ? ['{"q":"a"}', '{"q":"b"}'] : []);
  it('hands every entry to the runner, bodies read', () => {
    const plan = buildPlan([scenarioOf([EMBED, SEARCH])], [], bodies);
    expect(
      targetOf(plan.scenarios[0], 'http').mix?.map((e) => [e.name, e.weight, e.request.bodies ?? e.request.body]),
    ).toEqual([
      ['embed', 1, '{"text":"x"}'],
      ['search', 3, ['{"q":"a"}', '{"q":"b"}']],
    ]);
  });
  it('fills ${NAME} in every entry, naming the entry in errors', () => {
    const s = scenarioOf([
      { ...EMBED, headers: { authorization: 'Bearer ${TOKEN}' } },
      { ...SEARCH, url: 'http://api:8080/search?k=${KEY}' },
    ]);
    const plan = buildPlan([s], [], bodies);
    const masked: string[] = [];
    const out = expandPlan(plan, { TOKEN: 't0k', KEY: 'k3y' }, (v) => masked.push(v));
    expect(targetOf(out.scenarios[0], 'http').mix?.[0]?.request.headers.authorization).toBe('Bearer t0k');
    expect(targetOf(out.scenarios[0], 'http').mix?.[1]?.request.url).toBe('http://api:8080/search?k=k3y');
    expect(targetOf(out.scenarios[0], 'http').request.headers.authorization).toBe('Bearer t0k');
    expect(masked.sort()).toEqual(['k3y', 't0k']);
    expect(() => expandPlan(plan, { TOKEN: 't' }, () => {})).toThrow(
      'scenarios[0] (mix).requests[1].url: ${KEY} is not set',
    );
  });
  it("changes with what is measured (weights, entries, bodies), not with an entry's thresholds", () => {
    const base = scenarioHash(scenarioOf([EMBED, SEARCH]), undefined, bodies);
    expect(scenarioHash(scenarioOf([EMBED, SEARCH]), undefined, bodies)).toBe(base);
    expect(scenarioHash(scenarioOf([EMBED, { ...SEARCH, thresholds: {} }]), undefined, bodies)).toBe(base);
    expect(scenarioHash(scenarioOf([EMBED, { ...SEARCH, weight: 4 }]), undefined, bodies)).not.toBe(base);
    expect(scenarioHash(scenarioOf([EMBED, { ...SEARCH, name: 'find' }]), undefined, bodies)).not.toBe(base);
    expect(scenarioHash(scenarioOf([EMBED, SEARCH]), undefined, () => ['{"q":"z"}'])).not.toBe(base);
    expect(scenarioHash(scenarioOf([EMBED]), undefined, bodies)).not.toBe(base);
  });
});

function entryTally(latencies: number[], extra: Partial<NonNullable<EngineTally['requests']>[number]> = {}) {
  const h = createHistogram();
  for (const v of latencies) recordUs(h, v);
  const histogram = encodeHistogram(h);
  h.destroy();
  const n = latencies.length;
  return {
    sent: n,
    responses: n,
    successes: n,
    failures: 0,
    bytes: 100 * n,
    statusCodes: { '200': n },
    errors: {},
    histogram,
    ...extra,
  };
}

/** An instance's tally: its own counts of `latencies`, the entries' counts, the loop's figures. */
function tallyOf(latencies: number[], requests: EngineTally['requests']): EngineTally {
  return {
    ...entryTally(latencies),
    elapsedMs: 1000,
    connectionCloses: 3,
    loopDelayP99Us: 7,
    loopDelayMaxUs: 9,
    loopUtilization: 0.5,
    requests,
  };
}

describe('combineRequestTallies', () => {
  const generator = { cpuUs: 500_000, wallMs: 1000, threads: 2, cores: 2 };
  it("sums each entry over instances, over the phase's window, with its own histogram", () => {
    const a = tallyOf(
      [100, 100, 900],
      [entryTally([100, 100]), entryTally([900], { errors: { timeout: 1 }, sent: 2 })],
    );
    const b = tallyOf([100, 900], [entryTally([100]), entryTally([900], { statusCodes: { '200': 1, '503': 2 } })]);
    const [fast, slow] = combineRequestTallies(4, ['fast', 'slow'], [a, b], generator);
    expect(fast?.name).toBe('fast');
    expect(fast?.measurement).toMatchObject({ trial: 4, sent: 3, responses: 3, rps: 3, connectionCloses: 0 });
    expect(fast?.measurement.latency.max).toBeLessThan(110);
    expect(decodeHistogram(fast?.histogram as string).totalCount).toBe(3);
    expect(slow?.measurement).toMatchObject({ sent: 3, responses: 2, errors: { timeout: 1 } });
    expect(slow?.measurement.statusCodes).toEqual({ '200': 2, '503': 2 });
    expect(slow?.measurement.latency.min).toBeGreaterThan(890);
    // the generator's view is the phase's
    expect(slow?.measurement.generator).toMatchObject({ cpuPct: 50, eventLoopDelayP99Us: 7, threads: 2 });
    expect(slow?.measurement.open).toBeUndefined();
  });
  it('an instance without an entry’s counts is a runner bug, said so', () => {
    expect(() => combineRequestTallies(1, ['a'], [tallyOf([1], undefined)], generator)).toThrow(/mix entry a/);
  });
});

function scenarioWithMix(): Scenario {
  const s = config([EMBED, SEARCH]).config?.scenarios[0] as Scenario;
  return s;
}

describe('TrialCollector: a mix entry is a phase of its own', () => {
  it('keeps each entry’s trials as phase.entry after its phase, without SUT resources', () => {
    const c = new TrialCollector(undefined);
    c.sample('api', { at: 0, cpuPct: 10, memoryBytes: 1, rxBytes: 0, txBytes: 0 } as never);
    const m = phase('x', {}).trials[0] as never;
    const h = (() => {
      const x = createHistogram();
      recordUs(x, 500);
      const e = encodeHistogram(x);
      x.destroy();
      return e;
    })();
    c.onEvent({ t: 'stage', scenario: 'mix', phase: 'c10', trial: 1, trials: 1, stage: 'measure' }, 0);
    c.onEvent(
      {
        t: 'trial',
        scenario: 'mix',
        phase: 'c10',
        measurement: m,
        histogram: h,
        requests: [
          { name: 'embed', measurement: m, histogram: h },
          { name: 'search', measurement: m, histogram: h },
        ],
      },
      1000,
    );
    const [result] = c.results([scenarioWithMix()], new Map([['mix', 'sha256:x']]));
    expect(result?.phases.map((p) => [p.name, p.request, p.trials.length])).toEqual([
      ['c10', undefined, 1],
      ['c10.embed', 'embed', 1],
      ['c10.search', 'search', 1],
    ]);
    expect(Object.keys(result?.phases[0]?.merged.resources ?? {})).toEqual(['api']);
    expect(result?.phases[1]?.merged.resources).toEqual({});
    expect(result?.requestThresholds).toEqual({ embed: {}, search: { p99: { regress: 0.2, limit: 50_000 } } });
  });
});

describe('gating a mix', () => {
  const current = (searchP99: number, searchErrors: Record<string, number> = {}): ScenarioResult => ({
    name: 'mix',
    scenarioHash: 'h',
    // five trials alike: an entry beyond its band is confirmed (5 vs 5 apart, p = 1/252)
    phases: [
      steadyPhase('c10', { latency: { p99: 1000 } }),
      { ...steadyPhase('c10.embed', { latency: { p99: 1000 } }), request: 'embed' },
      { ...steadyPhase('c10.search', { latency: { p99: searchP99 }, errors: searchErrors }), request: 'search' },
    ],
    requestThresholds: { search: { p99: { regress: 0.2, limit: 50_000 } } },
  });
  const baseline: BaselineFile = {
    schema: 'perf-gate/baseline@1',
    scenario: 'mix',
    scenarioHash: 'h',
    provenance: {} as never,
    phases: current(1000).phases,
  };
  const scenarioThresholds = { p50: { regress: 0.1 }, rps: { regress: 0.1 } };
  it('an entry is gated on its own thresholds only; an entry without any is reported, not gated', () => {
    const { comparisons } = compareScenario(current(2000), scenarioThresholds, baseline);
    expect(comparisons.map((c) => [c.phase, c.metric, c.result])).toEqual([
      ['c10', 'p50', 'pass'],
      ['c10', 'rps', 'pass'],
      ['c10.search', 'p99', 'regression'],
    ]);
  });
  it('an entry’s absolute limit holds without a baseline', () => {
    const { comparisons } = compareScenario(current(60_000), scenarioThresholds, undefined);
    const row = comparisons.find((c) => c.phase === 'c10.search');
    expect(row).toMatchObject({ metric: 'p99', result: 'regression', reason: 'above the limit 50ms' });
  });
  it('new error classes are the phase’s to report, not each entry’s again', () => {
    const withError = current(1000, { ECONNRESET: 2 });
    const { comparisons } = compareScenario(withError, scenarioThresholds, baseline);
    expect(comparisons.filter((c) => c.metric === 'error-class')).toEqual([]);
  });
  it('A/B compares an entry on its own thresholds too', () => {
    const rows = compareAbScenario(current(1000), current(1000), scenarioThresholds);
    expect(rows.map((c) => `${c.phase}:${c.metric}`)).toEqual(['c10:p50', 'c10:rps', 'c10.search:p99']);
  });
});

// A config's defaults: what parseConfigText fills in where a key is left out (split from config.test.ts).
import { probeExpectation } from '../../src/runner-kit/plan.js';
import { describe, expect, it } from 'vitest';
import { targetOf } from './fixtures.js';
import { minimal, parse, type Raw, request0, scenario0, setPhases, valid } from './config-fixtures.js';

describe('parseConfigText: defaults', () => {
  it('fills in runner, sut, warm-up, trials, method and thresholds', () => {
    const config = valid(minimal());
    expect(config.runner).toEqual({ image: 'node:22-slim', workers: 1, replicas: 1, startLeadMs: 15_000 });
    expect(config.sut).toEqual({
      composeFiles: ['/ws/docker-compose.yml'],
      services: [],
      build: false,
      env: {},
      ready: [],
      orchestrator: 'compose',
      profile: [],
    });
    const s = config.scenarios[0]!;
    expect(s.warmupMs).toBe(5000);
    expect(s.warmupLater).toBe('settled');
    expect(s.trials).toBe(5);
    expect(targetOf(s, 'http').request).toEqual({ url: 'http://api:8080/', method: 'GET', headers: {} });
    expect(s.thresholds).toEqual({});
    expect(s.sweep).toBeUndefined();
    expect(config.gate).toEqual({
      against: 'baselines',
      bands: 'judge',
      confirm: { maxTrials: 12, maxTimeMs: 600_000, grows: true },
      // safe by default: the run's false-alarm budget, the early look, the busy sentinel
      runAlpha: 0.01,
      earlyLook: 3,
      busy: { othersPct: 50 },
    });
  });

  it.each<[string, Raw | undefined, { minShift: number; alpha: number }]>([
    ['history: not given', undefined, { minShift: 0.05, alpha: 0.01 }],
    ['min-shift 10%', { 'min-shift': '10%' }, { minShift: 0.1, alpha: 0.01 }],
    ['alpha 0.001, the smallest', { alpha: 0.001 }, { minShift: 0.05, alpha: 0.001 }],
    ['both', { 'min-shift': '2.5%', alpha: 0.2 }, { minShift: 0.025, alpha: 0.2 }],
  ])('history (the level shifts over the trend history): %s', (_label, history, expected) => {
    const config = valid(minimal((c) => (history ? (c.history = history) : undefined)));
    expect(config.history).toEqual(expected);
  });

  it('a ready probe may be tcp://host:port, for a service that speaks no HTTP', () => {
    const config = valid(
      minimal((c) => {
        c.sut = { compose: 'a.yml', ready: [{ url: 'tcp://db:5432' }, { url: 'tcp://[fd00::1]:6379/' }] };
      }),
    );
    expect(config.sut.ready.map((r) => r.url)).toEqual(['tcp://db:5432', 'tcp://[fd00::1]:6379/']);
  });

  it.each<[string, string]>([
    ['http://api/health', 'answer 2xx/3xx'],
    ['tcp://db:5432', 'accept a connection'],
    ['grpc://db:50051/vectordb.VectorDB', 'answer SERVING to the gRPC health check'],
  ])('a probe of %s that never succeeds did not %s (the never-ready line)', (url, words) => {
    expect(probeExpectation(url)).toBe(words);
  });

  it('a ready probe may be grpc(s)://host:port[/service], asked by the gRPC health protocol', () => {
    const urls = ['grpc://db:50051', 'grpcs://db:443/vectordb.VectorDB', 'grpc://[fd00::1]:50051/'];
    const config = valid(minimal((c) => (c.sut = { compose: 'a.yml', ready: urls.map((url) => ({ url })) })));
    expect(config.sut.ready.map((r) => r.url)).toEqual(urls);
  });

  it.each<[string, string]>([
    ['tcp://db', 'must be an http://, https://, tcp://host:port or grpc://host:port[/service] URL'],
    ['tcp://db:5432/path', 'must be an http://, https://, tcp://host:port or grpc://host:port[/service] URL'],
    ['ftp://db:21', 'must be an http://, https://, tcp://host:port or grpc://host:port[/service] URL'],
    ['grpc://db', 'must be an http://, https://, tcp://host:port or grpc://host:port[/service] URL'],
    ['grpc://db:50051/a/b', 'must be an http://, https://, tcp://host:port or grpc://host:port[/service] URL'],
    [
      'tcp://db:70000',
      'must be an http://, https://, tcp://host:port or grpc://host:port[/service] URL with a port from 1 to 65535',
    ],
    [
      'http://api:0/health',
      'must be an http://, https://, tcp://host:port or grpc://host:port[/service] URL with a port from 1 to 65535',
    ],
  ])('a ready probe %s is refused', (url, message) => {
    const { problems } = parse(minimal((c) => (c.sut = { compose: 'a.yml', ready: [{ url }] })));
    expect(problems).toEqual([`sut.ready[0].url: ${message}`]);
  });

  it('with a compose SUT, localhost is the runner itself: refused in probes and scenarios of every kind, at its key', () => {
    const line = (host: string) =>
      `${host} is the runner's own container, not the SUT: the runner joins the compose project's network, so name the service (http://api:8080/…), or give target: for a service running on this host`;
    const probes = [
      'http://localhost:8080/health',
      'tcp://127.0.0.1:5432',
      'grpc://[::1]:50051',
      'http://0.0.0.0/',
      'grpc://127.1:50051',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost.:80/',
    ];
    const { problems } = parse(
      minimal((c) => {
        c.sut = { compose: 'a.yml', ready: probes.map((url) => ({ url })) };
        (c.scenarios[0] as Raw).request = { url: 'http://localhost:3000/api' };
      }),
    );
    expect(problems).toEqual([
      `sut.ready[0].url: ${line('localhost')}`,
      `sut.ready[1].url: ${line('127.0.0.1')}`,
      `sut.ready[2].url: ${line('[::1]')}`,
      `sut.ready[3].url: ${line('0.0.0.0')}`,
      `sut.ready[4].url: ${line('127.0.0.1')}`,
      `sut.ready[5].url: ${line('[::ffff:7f00:1]')}`,
      `sut.ready[6].url: ${line('localhost.')}`,
      `scenarios[0].request.url: ${line('localhost')}`,
    ]);
    // a target is reached from the host's network: localhost is what it means there
    const target = parse(
      minimal((c) => {
        delete c.sut;
        c.target = 'http://localhost:3000';
        (c.scenarios[0] as Raw).request = { url: '/api' };
      }),
    );
    expect(target.problems).toEqual([]);
  });

  it('ready probe timeout defaults to 60s', () => {
    const config = valid(
      minimal((c) => {
        c.sut = { compose: 'a.yml', ready: [{ url: 'http://api/health' }, { url: 'http://db/', timeout: '2m' }] };
      }),
    );
    expect(config.sut.ready).toEqual([
      { url: 'http://api/health', timeoutMs: 60_000 },
      { url: 'http://db/', timeoutMs: 120_000 },
    ]);
  });

  it('a list of compose files is resolved in order; env values become strings', () => {
    const config = valid(
      minimal((c) => {
        c.sut = { compose: ['a.yml', 'b/c.yml'], env: { A: 1, B: true, C: 'x' }, build: true };
      }),
    );
    expect(config.sut.composeFiles).toEqual(['/ws/a.yml', '/ws/b/c.yml']);
    expect(config.sut.env).toEqual({ A: '1', B: 'true', C: 'x' });
    expect(config.sut.build).toBe(true);
  });

  it("no sut.compose: the files compose loads by default beside the config, the override included, in compose's order", () => {
    const cases: Array<{ here: string[]; files?: string[]; problem?: RegExp }> = [
      { here: ['docker-compose.yml'], files: ['/ws/docker-compose.yml'] },
      {
        here: ['docker-compose.yml', 'docker-compose.override.yml'],
        files: ['/ws/docker-compose.yml', '/ws/docker-compose.override.yml'],
      },
      // compose.yaml comes first, and the first override found goes with it whatever its name
      {
        here: ['docker-compose.yml', 'compose.yaml', 'docker-compose.override.yaml'],
        files: ['/ws/compose.yaml', '/ws/docker-compose.override.yaml'],
      },
      {
        here: ['compose.yml', 'compose.override.yml', 'compose.override.yaml'],
        files: ['/ws/compose.yml', '/ws/compose.override.yml'],
      },
      // an override alone is not a project
      {
        here: ['docker-compose.override.yml'],
        problem:
          /^sut\.compose: not given, and no compose file beside the config \(compose\.yaml, compose\.yml, docker-compose\.yml, docker-compose\.yaml\); name one/,
      },
    ];
    for (const c of cases) {
      const resolver = (p: string) => {
        if (!c.here.includes(p)) throw new Error(`file not found: ${p}`);
        return `/ws/${p}`;
      };
      const { config, problems } = parse(
        minimal((r) => (r.sut = { build: true })),
        resolver,
      );
      if (c.problem) {
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(c.problem);
      } else {
        expect(problems, c.here.join(' ')).toEqual([]);
        expect(config?.sut.composeFiles).toEqual(c.files);
      }
    }
  });

  it('k6-style thresholds: expressions under a metric, and k6’s own metrics with their lists', () => {
    const config = valid(
      minimal((c) => {
        c.defaults = { thresholds: { p99: { regress: '25%', floor: '1ms' } } };
        scenario0(c).thresholds = {
          p99: '< 50ms',
          http_req_duration: ['p(95)<200', 'avg<100'],
          http_req_failed: ['rate<0.01'],
          http_reqs: ['rate>100'],
        };
      }),
    );
    expect(config.scenarios[0]!.thresholds).toEqual({
      // the default's band stays, the expression adds the limit
      p99: { regress: 0.25, floor: 1000, limit: 50_000 },
      p95: { limit: 200_000 },
      mean: { limit: 100_000 },
      'error-rate': { limit: 0.01 },
      rps: { min: 100 },
    });
  });

  it('autocannon’s amount is requests; both at once is a problem', () => {
    const config = valid(minimal((c) => setPhases(c, { connections: 2, amount: 500 })));
    expect(config.scenarios[0]!.phases[0]).toMatchObject({
      kind: 'closed',
      connections: 2,
      requests: 500,
      name: 'c2-n500',
    });
    const both = parse(minimal((c) => setPhases(c, { connections: 2, amount: 500, requests: 400 })));
    expect(both.problems).toEqual([
      "scenarios[0].phases[0].amount: give requests or amount (autocannon's name for it), not both",
    ]);
  });

  it('target: a running service instead of sut; request paths under its base URL, whole URLs as given', () => {
    const config = valid(
      minimal((c) => {
        delete c.sut;
        c.target = 'http://127.0.0.1:8080/api/';
        request0(c).url = '/items?q=1';
        c.scenarios.push({
          name: 'mix',
          requests: [
            { name: 'a', url: '/a' },
            { name: 'b', url: 'http://127.0.0.1:8080/api/b' },
          ],
          phases: [{ connections: 1, duration: '1s' }],
        });
      }),
    );
    expect(config.target).toEqual({ url: 'http://127.0.0.1:8080/api/', network: 'host' });
    expect(config.sut).toMatchObject({ composeFiles: [], services: [], ready: [] });
    expect(targetOf(config.scenarios[0], 'http').request.url).toBe('http://127.0.0.1:8080/api/items?q=1');
    expect(targetOf(config.scenarios[1], 'http').mix?.map((e) => e.request.url)).toEqual([
      'http://127.0.0.1:8080/api/a',
      'http://127.0.0.1:8080/api/b',
    ]);
    const named = valid(
      minimal((c) => {
        delete c.sut;
        c.target = 'http://staging.internal:8080';
        c.runner = { network: 'perf-net' };
      }),
    );
    expect(named.target).toEqual({ url: 'http://staging.internal:8080', network: 'perf-net' });
    // its service is no container the run starts: gate.busy judges steal alone, by default and as given
    expect(config.gate.busy).toEqual({ othersPct: 50, stealOnly: true });
    const given = valid(
      minimal((c) => {
        delete c.sut;
        c.target = 'http://127.0.0.1:8080';
        c.gate = { busy: { others: 80, repeats: 4 } };
      }),
    );
    expect(given.gate.busy).toEqual({ othersPct: 80, stealOnly: true, repeats: 4 });
  });

  it('a request’s own timeout and response checks, normalised for the runner', () => {
    const config = valid(
      minimal((c) => {
        request0(c).timeout = '1m30s';
        request0(c).expect = {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
          body: 'ok',
          json: { '$.errors': { exists: false }, 'data.id': 42, 'data.tags': { equals: ['a'] }, '$.x': { a: 1 } },
        };
      }),
    );
    expect(targetOf(config.scenarios[0], 'http').request).toMatchObject({
      timeoutMs: 90_000,
      expect: {
        status: [200],
        headers: { 'content-type': 'application/json' },
        body: ['ok'],
        json: [
          { path: '$.errors', exists: false },
          { path: 'data.id', equals: 42 },
          { path: 'data.tags', equals: ['a'] },
          { path: '$.x', equals: { a: 1 } },
        ],
      },
    });
    // the scenario's own request-timeout is unchanged
    expect(config.scenarios[0]!.requestTimeoutMs).toBe(10_000);
  });

  it('durations in Go’s and k6’s compound form: 1m30s', () => {
    const config = valid(minimal((c) => setPhases(c, { connections: 1, duration: '1m30s' })));
    expect(config.scenarios[0]!.phases[0]).toMatchObject({ durationMs: 90_000 });
  });

  it.each<[string, Raw | undefined, Raw | undefined, number, number, number]>([
    ['none anywhere', undefined, undefined, 5000, 5, 10_000],
    ['from defaults', { warmup: '2s', trials: 4, 'request-timeout': '3s' }, undefined, 2000, 4, 3000],
    [
      'scenario overrides defaults',
      { warmup: '2s', trials: 5, 'request-timeout': '3s' },
      { warmup: '500ms', trials: 1, 'request-timeout': '250ms' },
      500,
      1,
      250,
    ],
    ['scenario only', undefined, { warmup: '1m', trials: 7, 'request-timeout': '1m' }, 60_000, 7, 60_000],
  ])('warm-up, trials and request timeout: %s', (_label, defaults, own, warmupMs, trials, requestTimeoutMs) => {
    const config = valid(
      minimal((c) => {
        if (defaults) c.defaults = defaults;
        if (own) Object.assign(scenario0(c), own);
      }),
    );
    expect(config.scenarios[0]!.warmupMs).toBe(warmupMs);
    expect(config.scenarios[0]!.trials).toBe(trials);
    expect(config.scenarios[0]!.requestTimeoutMs).toBe(requestTimeoutMs);
  });

  it.each([
    ['no body', {}, { method: 'GET', headers: {} }],
    ['string body', { body: 'a=1' }, { method: 'POST', headers: {}, body: 'a=1' }],
    [
      'object body',
      { body: { q: 'x', n: 1 } },
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"x","n":1}' },
    ],
    [
      'array body',
      { body: [1, 2] },
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2]' },
    ],
    [
      'object body keeps a content-type given in another case',
      { body: { q: 'x' }, headers: { 'Content-Type': 'application/vnd.api+json' } },
      { method: 'POST', headers: { 'Content-Type': 'application/vnd.api+json' }, body: '{"q":"x"}' },
    ],
    ['explicit method kept', { method: 'PUT', body: 'x' }, { method: 'PUT', headers: {}, body: 'x' }],
    ['explicit GET without body', { method: 'DELETE' }, { method: 'DELETE', headers: {} }],
    [
      'bodies file → POST and resolved path',
      { bodies: 'fixtures/bodies.jsonl' },
      { method: 'POST', headers: {}, bodiesFile: '/ws/fixtures/bodies.jsonl' },
    ],
  ])('request: %s', (_label, extra, expected) => {
    const config = valid(
      minimal((c) => {
        Object.assign(request0(c), extra);
      }),
    );
    expect(targetOf(config.scenarios[0], 'http').request).toEqual({ url: 'http://api:8080/', ...expected });
  });

  it.each([
    [
      { connections: 10, duration: '30s' },
      { kind: 'closed', name: 'c10', connections: 10, durationMs: 30_000 },
    ],
    [
      { connections: 100, requests: 50_000 },
      { kind: 'closed', name: 'c100-n50000', connections: 100, requests: 50_000 },
    ],
    [
      { rate: 500, duration: '30s' },
      { kind: 'open', name: 'r500', rate: 500, durationMs: 30_000, maxInFlight: 1000 },
    ],
    [
      { rate: 50, duration: '1m', 'max-in-flight': 20, connections: 4 },
      { kind: 'open', name: 'r50', rate: 50, durationMs: 60_000, maxInFlight: 20, connections: 4 },
    ],
    [
      { name: 'warm', connections: 1, duration: '500ms' },
      { kind: 'closed', name: 'warm', connections: 1, durationMs: 500 },
    ],
  ])('phase %j → %j', (raw, phase) => {
    const config = valid(minimal((c) => setPhases(c, raw)));
    expect(config.scenarios[0]!.phases).toEqual([phase]);
  });

  it('phases with distinct derived names are all kept, in order', () => {
    const config = valid(
      minimal((c) =>
        setPhases(
          c,
          { connections: 10, duration: '30s' },
          { connections: 50, duration: '30s' },
          { rate: 10, duration: '30s' },
        ),
      ),
    );
    expect(config.scenarios[0]!.phases.map((p) => p.name)).toEqual(['c10', 'c50', 'r10']);
  });

  it.each([
    [
      'thresholds only in defaults',
      { p99: { regress: '25%', floor: '1ms' } },
      undefined,
      { p99: { regress: 0.25, floor: 1000 } },
    ],
    [
      'scenario adds a key to a default metric',
      { p99: { regress: '25%', floor: '1ms' } },
      { p99: { below: '50ms' } },
      { p99: { regress: 0.25, floor: 1000, limit: 50_000 } },
    ],
    [
      'scenario adds a metric',
      { p50: { regress: '10%' } },
      { p90: { floor: '0.5s' } },
      { p50: { regress: 0.1 }, p90: { floor: 500_000 } },
    ],
    [
      'latency in µs',
      undefined,
      { 'p99.9': { floor: '200µs', max: '2s' } },
      { 'p99.9': { floor: 200, limit: 2_000_000 } },
    ],
    [
      'rps floor is a plain number',
      undefined,
      { rps: { regress: '5%', floor: 50 } },
      { rps: { regress: 0.05, floor: 50 } },
    ],
    [
      'rate given as numeric text',
      undefined,
      { 'bytes-per-sec': { floor: '1000' } },
      { 'bytes-per-sec': { floor: 1000 } },
    ],
    ['errors max', undefined, { errors: { max: 3 } }, { errors: { limit: 3 } }],
    [
      'memory in bytes',
      undefined,
      { memory: { max: '512MiB', floor: '1MB' } },
      { memory: { limit: 536_870_912, floor: 1e6 } },
    ],
    ['alpha kept', undefined, { p50: { regress: '10%', alpha: 0.01 } }, { p50: { regress: 0.1, alpha: 0.01 } }],
  ])('thresholds: %s', (_label, defaults, own, expected) => {
    const config = valid(
      minimal((c) => {
        if (defaults) c.defaults = { thresholds: defaults };
        if (own) scenario0(c).thresholds = own;
      }),
    );
    expect(config.scenarios[0]!.thresholds).toEqual(expected);
  });

  it('defaults thresholds reach every scenario', () => {
    const config = valid(
      minimal((c) => {
        c.defaults = { thresholds: { p50: { regress: '10%' } } };
        c.scenarios.push({ name: 't', request: { url: 'https://x/' }, phases: [{ rate: 1, duration: '1s' }] });
      }),
    );
    expect(config.scenarios.map((s) => s.thresholds)).toEqual([{ p50: { regress: 0.1 } }, { p50: { regress: 0.1 } }]);
  });

  it.each([
    [
      { connections: [10, 50], duration: '30s' },
      { kind: 'closed', levels: [10, 50], durationMs: 30_000, warmupMs: 5000 },
    ],
    [
      { rate: [100, 200.5], duration: '10s', warmup: '1s' },
      { kind: 'open', levels: [100, 200.5], durationMs: 10_000, warmupMs: 1000 },
    ],
  ])('sweep %j', (sweep, expected) => {
    const config = valid(
      minimal((c) => {
        scenario0(c).sweep = sweep;
      }),
    );
    expect(config.scenarios[0]!.sweep).toEqual(expected);
  });
});

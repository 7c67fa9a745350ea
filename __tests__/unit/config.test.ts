import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/config/load.js';
import { targetOf } from './fixtures.js';
import { FILE, minimal, parse, type Raw, request0, scenario0, setPhases, valid } from './config-fixtures.js';

const missingResolver = (_path: string): string => {
  throw new Error('file not found: x');
};

const SPEC_EXAMPLE = `version: 1
sut:
  compose: docker-compose.yml        # a path or a list of paths (compose -f ... -f ...)
  services: [api]                    # optional: start only these (and their dependencies)
  build: false                       # optional: compose up --build
  env: { LOG_LEVEL: warn }           # optional: environment for compose interpolation
  ready:                             # optional probes, made from inside the SUT network,
    - url: http://api:8080/health    #   after compose health checks pass
      timeout: 60s
runner:
  image: node:22-slim                # optional: any image with Node >= 20; the runner code is supplied by perf-gate
  cpus: 1                            # optional: CPU quota of the runner container
  workers: 1                         # optional: engine instances in worker threads, histograms merged
defaults:                            # optional: merged into every scenario
  warmup: 5s
  trials: 3
  thresholds:
    p50: { regress: 10%, floor: 200us }
    p99: { regress: 25%, floor: 1ms }
    rps: { regress: 10% }
    errors: { max: 0 }
scenarios:
  - name: search                     # [a-z0-9_-]+, unique; names the baseline file
    request:
      url: http://api:8080/v1/search # service names resolve inside the SUT network
      method: POST
      headers: { content-type: application/json }
      body: { q: forklift }          # string, or object sent as JSON
      # bodies: fixtures/bodies.jsonl  # alternatively one body per line, rotated request by request
    phases:                          # run in order, each measured and gated on its own
      - { name: c10, connections: 10, duration: 30s }     # closed loop (autocannon)
      - { name: r500, rate: 500, duration: 30s, max-in-flight: 1000 }  # open loop: fixed arrival rate, req/s
      - { name: n50k, connections: 100, requests: 50000 } # fixed request count
    thresholds:                      # per scenario, overriding defaults key by key
      p99: { regress: 15%, floor: 2ms, below: 50ms }      # \`below\` is an absolute SLO
      error-rate: { max: 0.1% }
    sweep: { connections: [10, 50, 100, 200], duration: 30s }   # used by sweep mode
`;

describe('formatPath', () => {
  it.each([
    [[], ''],
    [['version'], 'version'],
    [['sut', 'compose'], 'sut.compose'],
    [['scenarios', 1, 'phases', 0, 'rate'], 'scenarios[1].phases[0].rate'],
    [['scenarios', 0, 'thresholds', 'p99.9', 'floor'], 'scenarios[0].thresholds.p99.9.floor'],
    [[0, 'a'], '[0].a'],
    [['sut', 'compose', 2], 'sut.compose[2]'],
  ])('%j → %j', (path, text) => {
    expect(formatPath(path)).toBe(text);
  });
});

describe('parseConfigText: the SPEC §2 example', () => {
  it('validates and normalises every section', () => {
    const config = valid(SPEC_EXAMPLE);
    expect(config.file).toBe(FILE);
    expect(config.dir).toBe('/ws');
    expect(config.sut).toEqual({
      composeFiles: ['/ws/docker-compose.yml'],
      services: ['api'],
      build: false,
      env: { LOG_LEVEL: 'warn' },
      ready: [{ url: 'http://api:8080/health', timeoutMs: 60_000 }],
      orchestrator: 'compose',
      profile: [],
    });
    expect(config.runner).toEqual({ image: 'node:22-slim', cpus: 1, workers: 1, replicas: 1, startLeadMs: 15_000 });
    expect(config.scenarios).toHaveLength(1);
    const s = config.scenarios[0]!;
    expect(s.name).toBe('search');
    expect(targetOf(s, 'http').request).toEqual({
      url: 'http://api:8080/v1/search',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"q":"forklift"}',
    });
    expect(s.warmupMs).toBe(5000);
    expect(s.trials).toBe(3);
    expect(s.phases).toEqual([
      { kind: 'closed', name: 'c10', connections: 10, durationMs: 30_000 },
      { kind: 'open', name: 'r500', rate: 500, durationMs: 30_000, maxInFlight: 1000 },
      { kind: 'closed', name: 'n50k', connections: 100, requests: 50_000 },
    ]);
    expect(s.sweep).toEqual({ kind: 'closed', levels: [10, 50, 100, 200], durationMs: 30_000, warmupMs: 5000 });
  });

  it('merges thresholds key by key and converts them to base units', () => {
    const s = valid(SPEC_EXAMPLE).scenarios[0]!;
    expect(Object.keys(s.thresholds).sort()).toEqual(['error-rate', 'errors', 'p50', 'p99', 'rps']);
    expect(s.thresholds.p50).toEqual({ regress: 0.1, floor: 200 });
    // scenario overrides regress and floor, adds below (→ limit, µs)
    expect(s.thresholds.p99).toEqual({ regress: 0.15, floor: 2000, limit: 50_000 });
    expect(s.thresholds.rps).toEqual({ regress: 0.1 });
    expect(s.thresholds.errors).toEqual({ limit: 0 });
    expect(s.thresholds['error-rate']?.limit).toBeCloseTo(0.001, 12);
    expect(Object.keys(s.thresholds['error-rate'] ?? {})).toEqual(['limit']);
  });
});

describe('parseConfigText: invalid configs, one `key.path: message` line per problem', () => {
  it.each<[string, string, string[]]>([
    [
      'unknown top-level key',
      minimal((c) => (c.bogus = 1)),
      ['bogus: unknown key (keys here: version, target, sut, runner, gate, ab, history, setup, defaults, scenarios)'],
    ],
    [
      'unknown key in sut',
      minimal((c) => ((c.sut as Raw).bogus = 1)),
      ['sut.bogus: unknown key (keys here: compose, services, build, env, orchestrator, ready, profile, perf-image)'],
    ],
    [
      'a timeout on the scenario (k6 and autocannon habit)',
      minimal((c) => (scenario0(c).timeout = '1s')),
      [
        "scenarios[0].timeout: unknown key (a request's own timeout is timeout under request (or a requests entry); request-timeout on the scenario or in defaults)",
      ],
    ],
    [
      'response checks: a path that is not a JSON path, a status that is not one, exists not a boolean, empty text',
      minimal(
        (c) =>
          (request0(c).expect = {
            status: [200, 700],
            body: '',
            json: { '$..errors': { exists: false }, 'data.id': { exists: 'no' } },
          }),
      ),
      [
        'scenarios[0].request.expect.status[1]: must be an HTTP status (100 to 599), or a list of them',
        'scenarios[0].request.expect.body: must not be empty',
      ],
    ],
    [
      'response checks: JSON path and exists are checked once the shape is right',
      minimal((c) => (request0(c).expect = { json: { '$..errors': { exists: false }, 'data.id': { exists: 'no' } } })),
      [
        "scenarios[0].request.expect.json.$..errors: not a JSON path (like $.data.items[0].id, data.id or $['a.b']; no wildcards or ..)",
        'scenarios[0].request.expect.json.data.id.exists: must be true or false',
      ],
    ],
    [
      'response checks: an unknown check, a HEAD request with a body check',
      minimal((c) => {
        request0(c).method = 'HEAD';
        request0(c).expect = { bodyy: 'x', body: 'ok' };
      }),
      ['scenarios[0].request.expect.bodyy: unknown key (did you mean body?)'],
    ],
    [
      'response checks: a HEAD response has no body',
      minimal((c) => {
        request0(c).method = 'HEAD';
        request0(c).expect = { body: 'ok' };
      }),
      ['scenarios[0].request.expect: a HEAD response has no body to check (check status or headers)'],
    ],
    [
      'target and sut both',
      minimal((c) => (c.target = 'http://127.0.0.1:8080')),
      ['target: give sut (a compose SUT perf-gate boots) or target (a service already running), not both'],
    ],
    [
      'neither target nor sut',
      minimal((c) => delete c.sut),
      ['sut: is required (the compose SUT to boot), or give target: the URL of a service already running'],
    ],
    [
      'a path without target; runner.network without target',
      minimal((c) => {
        request0(c).url = '/work';
        c.runner = { network: 'host' };
      }),
      [
        "runner.network: only with target (with sut the runner joins the compose project's networks)",
        'scenarios[0].request.url: a path needs target (a running service’s base URL); with sut, give the whole URL (http://service:port/work)',
      ],
    ],
    [
      'target: SUT resources cannot be gated, and there is no base to boot',
      minimal((c) => {
        delete c.sut;
        c.target = 'http://127.0.0.1:8080';
        c.gate = { against: 'base-ref' };
        c.defaults = { thresholds: { cpu: { regress: '20%' } } };
        scenario0(c).thresholds = { memory: { regress: '10%' } };
      }),
      [
        'gate.against: base-ref boots the base commit from compose; a target is one running service: gate against baselines',
        "scenarios[0].thresholds.memory: memory is sampled from the compose SUT's containers; a target has none",
        "scenarios[0].thresholds.cpu: cpu is sampled from the compose SUT's containers; a target has none (given in defaults.thresholds)",
      ],
    ],
    [
      'target with a query; an empty JSON path; a body check on a compressed answer',
      minimal((c) => {
        delete c.sut;
        c.target = 'http://127.0.0.1:8080/api?key=1';
        request0(c).headers = { 'Accept-Encoding': 'gzip' };
        request0(c).expect = { json: { '': 1 } };
      }),
      [
        'target: a base URL without a query or fragment (request paths are joined to it)',
        "scenarios[0].request.expect.json.: not a JSON path (like $.data.items[0].id, data.id or $['a.b']; no wildcards or ..)",
        'scenarios[0].request.expect: body and json checks read the body as sent; a compressed one (accept-encoding: gzip) cannot be checked: drop the header or check status and headers only',
      ],
    ],
    [
      'a request timeout out of range',
      minimal((c) => (request0(c).timeout = '11m')),
      ['scenarios[0].request.timeout: must be a duration from 1ms to 10m'],
    ],
    [
      'a header the engines manage',
      minimal((c) => (request0(c).headers = { 'Transfer-Encoding': 'chunked', Expect: '100-continue' })),
      [
        'scenarios[0].request.headers.Transfer-Encoding: not allowed: perf-gate manages connections and framing itself',
        'scenarios[0].request.headers.Expect: not allowed: perf-gate manages connections and framing itself',
      ],
    ],
    [
      'a Connection header other than close or keep-alive',
      minimal((c) => (request0(c).headers = { connection: 'upgrade' })),
      ['scenarios[0].request.headers.connection: only "close" or "keep-alive" is allowed'],
    ],
    [
      'unknown key in a phase',
      minimal((c) => setPhases(c, { connections: 10, duration: '30s', ramp: '5s' })),
      [
        'scenarios[0].phases[0].ramp: unknown key (keys here: name, connections, duration, requests, amount, rate, stages, pipelining, streams, max-in-flight, peers, messages)',
      ],
    ],
    [
      'unknown key in a threshold',
      minimal((c) => (scenario0(c).thresholds = { p99: { regress: '10%', ceiling: '5ms' } })),
      ['scenarios[0].thresholds.p99.ceiling: unknown key (keys here: regress, floor, below, max, min, alpha)'],
    ],
    // issue 21: what was meant, or what is valid there
    [
      'a misspelt key: the key meant',
      minimal((c) => (scenario0(c).warmpu = '1s')),
      ['scenarios[0].warmpu: unknown key (did you mean warmup?)'],
    ],
    [
      'a misspelt key in defaults',
      minimal((c) => (c.defaults = { trails: 3 })),
      ['defaults.trails: unknown key (did you mean trials?)'],
    ],
    [
      'a k6 habit: vus',
      minimal((c) => (scenario0(c).vus = 10)),
      ['scenarios[0].vus: unknown key (concurrent connections are a phase key: { connections: 10, duration: 30s })'],
    ],
    [
      'a threshold that is neither rules nor an expression',
      minimal((c) => (scenario0(c).thresholds = { p95: 200 })),
      [
        'scenarios[0].thresholds.p95: must be a mapping of rules, like { regress: 10%, floor: 1ms, below: 50ms }, or a k6-style expression like "p(95) < 200ms"',
      ],
    ],
    [
      'a k6 expression that names another metric',
      minimal((c) => (scenario0(c).thresholds = { p95: 'p(99) < 200ms' })),
      ['scenarios[0].thresholds.p95: p(99) is not p95'],
    ],
    [
      'a k6 list with an expression perf-gate cannot read',
      minimal((c) => (scenario0(c).thresholds = { http_req_duration: ['p(95)<200', 'p(100)<300', 'count<3'] })),
      [
        'scenarios[0].thresholds.http_req_duration[1]: p(100): not a percentile perf-gate gates: give one above 0 and below 100, with at most 3 decimals (p97.5, p99.99); for the slowest response use max',
        'scenarios[0].thresholds.http_req_duration[2]: count is not a metric perf-gate measures (p(N) for any percentile 0 < N < 100, avg, med, max; rate of http_req_failed or http_reqs)',
      ],
    ],
    [
      'thresholds given as a string',
      minimal((c) => (scenario0(c).thresholds = 'p(95) < 200ms')),
      [
        'scenarios[0].thresholds: must be a mapping of metric to rules, like { p99: { regress: 10%, floor: 1ms, below: 50ms } }',
      ],
    ],
    [
      'a required key of ours is missing, not malformed',
      minimal((c) => (scenario0(c).sweep = { connections: [1] })),
      ['scenarios[0].sweep.duration: is required'],
    ],
    [
      'unknown metric in defaults',
      minimal((c) => (c.defaults = { thresholds: { p42x: { regress: '10%' } } })),
      [
        'defaults.thresholds.p42x: unknown key (metrics: p50, p90, p95, p99, p99.9, max, mean, rps, bytes-per-sec, errors, error-rate, memory, cpu, cpu-per-request, fds, delivery, or any percentile like p97.5 or p99.99; k6 metrics: http_req_duration, http_req_failed, http_reqs)',
      ],
    ],
    ['version 2', minimal((c) => (c.version = 2)), ['version: must be 1']],
    [
      'duration without unit',
      minimal((c) => setPhases(c, { connections: 10, duration: 30 })),
      ['scenarios[0].phases[0].duration: must be a duration like 500ms, 30s, 2m or 1m30s'],
    ],
    [
      'duration as unitless text',
      minimal((c) => setPhases(c, { connections: 10, duration: '30' })),
      ['scenarios[0].phases[0].duration: must be a duration like 500ms, 30s, 2m or 1m30s'],
    ],
    [
      'zero duration',
      minimal((c) => setPhases(c, { connections: 10, duration: '0s' })),
      ['scenarios[0].phases[0].duration: must be a duration from 100ms to 24h'],
    ],
    [
      'negative rate',
      minimal((c) => setPhases(c, { rate: -5, duration: '30s' })),
      ['scenarios[0].phases[0].rate: must be a number above 0 and at most 1,000,000'],
    ],
    [
      'closed phase with neither duration nor requests',
      minimal((c) => setPhases(c, { connections: 10 })),
      ['scenarios[0].phases[0]: a closed-loop phase needs exactly one of duration or requests'],
    ],
    [
      'closed phase with both duration and requests',
      minimal((c) => setPhases(c, { connections: 10, duration: '30s', requests: 1000 })),
      ['scenarios[0].phases[0]: a closed-loop phase needs exactly one of duration or requests'],
    ],
    [
      'requests fewer than connections',
      minimal((c) => setPhases(c, { connections: 100, requests: 50 })),
      ['scenarios[0].phases[0].requests: must be at least connections (100)'],
    ],
    [
      'max-in-flight on a closed phase',
      minimal((c) => setPhases(c, { connections: 10, duration: '30s', 'max-in-flight': 5 })),
      ['scenarios[0].phases[0].max-in-flight: only allowed in an open-loop (rate) phase'],
    ],
    [
      'phase with neither connections nor rate',
      minimal((c) => setPhases(c, { duration: '30s' })),
      ['scenarios[0].phases[0]: needs connections (closed loop) or rate (open loop)'],
    ],
    [
      'open phase without duration',
      minimal((c) => setPhases(c, { rate: 100 })),
      ['scenarios[0].phases[0].duration: required in an open-loop (rate) phase'],
    ],
    [
      'open phase with requests',
      minimal((c) => setPhases(c, { rate: 100, duration: '10s', requests: 1000 })),
      ['scenarios[0].phases[0].requests: not allowed in an open-loop (rate) phase'],
    ],
    [
      'connections not an integer',
      minimal((c) => setPhases(c, { connections: 2.5, duration: '10s' })),
      ['scenarios[0].phases[0].connections: must be an integer from 1 to 10,000'],
    ],
    [
      'duplicate derived phase names',
      minimal((c) => setPhases(c, { connections: 10, duration: '30s' }, { connections: 10, duration: '1m' })),
      ['scenarios[0].phases: phase name "c10" is used twice (give each phase a unique name)'],
    ],
    [
      'duplicate explicit phase names',
      minimal((c) =>
        setPhases(c, { name: 'a', connections: 10, duration: '30s' }, { name: 'a', rate: 5, duration: '1m' }),
      ),
      ['scenarios[0].phases: phase name "a" is used twice (give each phase a unique name)'],
    ],
    [
      'duplicate scenario names',
      minimal((c) => c.scenarios.push({ ...scenario0(c) })),
      ['scenarios: scenario name "s" is used twice (it names the baseline file)'],
    ],
    [
      'body and bodies both',
      minimal((c) => Object.assign(request0(c), { body: 'x', bodies: 'b.jsonl' })),
      ['scenarios[0].request: give body or bodies, not both'],
    ],
    [
      'sweep with both ladders',
      minimal((c) => (scenario0(c).sweep = { connections: [1], rate: [1], duration: '1s' })),
      ['scenarios[0].sweep: give exactly one ladder, connections or rate'],
    ],
    [
      'sweep with neither ladder',
      minimal((c) => (scenario0(c).sweep = { duration: '1s' })),
      ['scenarios[0].sweep: give exactly one ladder, connections or rate'],
    ],
    [
      'latency floor without unit',
      minimal((c) => (scenario0(c).thresholds = { p99: { floor: 5 } })),
      ['scenarios[0].thresholds.p99.floor: 5 has no unit; write a duration like 5ms or 5us'],
    ],
    [
      'latency limit in minutes',
      minimal((c) => (scenario0(c).thresholds = { p50: { below: '1m' } })),
      ['scenarios[0].thresholds.p50.below: must be a latency like 200us, 1ms or 0.5s'],
    ],
    [
      'rps with an upper limit',
      minimal((c) => (scenario0(c).thresholds = { rps: { below: 5 } })),
      [
        'scenarios[0].thresholds.rps: rps gets worse downwards; an upper limit (below/max) makes no sense here (use min)',
      ],
    ],
    [
      'rps floor with a unit',
      minimal((c) => (scenario0(c).thresholds = { rps: { floor: '5ms' } })),
      ['scenarios[0].thresholds.rps.floor: must be a number (per second)'],
    ],
    [
      'error-rate without %',
      minimal((c) => (scenario0(c).thresholds = { 'error-rate': { max: 5 } })),
      ['scenarios[0].thresholds.error-rate.max: 5 has no unit; write 5%'],
    ],
    [
      'memory without unit',
      minimal((c) => (scenario0(c).thresholds = { memory: { max: 512 } })),
      ['scenarios[0].thresholds.memory.max: 512 has no unit; write a size like 512MiB'],
    ],
    [
      'regress without %',
      minimal((c) => (scenario0(c).thresholds = { p99: { regress: '10' } })),
      ['scenarios[0].thresholds.p99.regress: must be a percentage like 10%'],
    ],
    [
      'alpha out of range',
      minimal((c) => (scenario0(c).thresholds = { p99: { alpha: 1.5 } })),
      ['scenarios[0].thresholds.p99.alpha: must be a number between 0 and 1'],
    ],
    [
      'bad scenario name',
      minimal((c) => (scenario0(c).name = 'Search API')),
      ['scenarios[0].name: must be a name of [a-z0-9_-]+'],
    ],
    [
      'non-http url',
      minimal((c) => (request0(c).url = 'ftp://api/')),
      ['scenarios[0].request.url: must be an http:// or https:// URL (or, with target, a path such as /api/items)'],
    ],
    [
      'unknown method',
      minimal((c) => (request0(c).method = 'FETCH')),
      [
        'scenarios[0].request.method: must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS (or the same in lowercase)',
      ],
    ],
    ['trials 0', minimal((c) => (scenario0(c).trials = 0)), ['scenarios[0].trials: must be an integer from 1 to 100']],
    ['no phases', minimal((c) => setPhases(c)), ['scenarios[0].phases: must list at least one phase']],
    ['no scenarios', minimal((c) => (c.scenarios = [])), ['scenarios: must list at least one scenario']],
    ['too many workers', minimal((c) => (c.runner = { workers: 65 })), ['runner.workers: must be at most 64']],
    // every numeric key has a bound a real CI run could use (docs/config.md, "Bounds")
    [
      'connections 1e9',
      minimal((c) => setPhases(c, { connections: 1e9, duration: '1s' })),
      ['scenarios[0].phases[0].connections: must be an integer from 1 to 10,000'],
    ],
    [
      'requests 1e15',
      minimal((c) => setPhases(c, { connections: 1, requests: 1e15 })),
      ['scenarios[0].phases[0].requests: must be an integer from 1 to 100,000,000'],
    ],
    [
      'rate 1e12',
      minimal((c) => setPhases(c, { rate: 1e12, duration: '1s' })),
      ['scenarios[0].phases[0].rate: must be a number above 0 and at most 1,000,000'],
    ],
    [
      'max-in-flight 1e9',
      minimal((c) => setPhases(c, { rate: 10, duration: '1s', 'max-in-flight': 1e9 })),
      ['scenarios[0].phases[0].max-in-flight: must be an integer from 1 to 100,000'],
    ],
    [
      'a duration of 10000h',
      minimal((c) => setPhases(c, { connections: 1, duration: '10000h' })),
      ['scenarios[0].phases[0].duration: must be a duration from 100ms to 24h'],
    ],
    [
      'a sub-millisecond duration',
      minimal((c) => setPhases(c, { connections: 1, duration: '0.5ms' })),
      ['scenarios[0].phases[0].duration: must be a duration from 100ms to 24h'],
    ],
    [
      'a warm-up of 10000h',
      minimal((c) => (scenario0(c).warmup = '10000h')),
      ['scenarios[0].warmup: must be a duration from 0s to 1h'],
    ],
    [
      'a request timeout of 1h',
      minimal((c) => (scenario0(c)['request-timeout'] = '1h')),
      ['scenarios[0].request-timeout: must be a duration from 1ms to 10m'],
    ],
    [
      'a request timeout of 0s in defaults',
      minimal((c) => (c.defaults = { 'request-timeout': '0s' })),
      ['defaults.request-timeout: must be a duration from 1ms to 10m'],
    ],
    [
      'a 300-character scenario name',
      minimal((c) => (scenario0(c).name = 'a'.repeat(300))),
      ['scenarios[0].name: must be at most 64 characters (it names a file)'],
    ],
    [
      'a URL port above 65535',
      minimal((c) => (request0(c).url = 'http://api:70000/')),
      ['scenarios[0].request.url: must be an http:// or https:// URL with a port from 1 to 65535'],
    ],
    [
      'a header value with CR/LF',
      minimal((c) => (request0(c).headers = { 'x-a': 'v\r\nX-Injected: 1' })),
      ['scenarios[0].request.headers.x-a: a header value cannot hold CR, LF or NUL'],
    ],
    [
      'an invalid header name',
      minimal((c) => (request0(c).headers = { 'bad name': 'v' })),
      ["scenarios[0].request.headers.bad name: not a valid header name (letters, digits and !#$%&'*+.^_`|~- only)"],
    ],
    [
      'a NUL in sut.env',
      minimal((c) => ((c.sut as Raw).env = { A: 'x\u0000y' })),
      ['sut.env.A: cannot hold a NUL character'],
    ],
    [
      'sut.profile: a service name with a slash, and an endpoint that is not http(s)',
      minimal((c) => ((c.sut as Raw).profile = { 'api/x': 'http://api:6060/debug/pprof/profile', web: 'ftp://web/p' })),
      [
        'sut.profile.api/x: must be a compose service name',
        'sut.profile.web: must be an http:// or https:// URL (a pprof endpoint), or perf',
      ],
    ],
    [
      'sut.profile with more than one runner',
      minimal((c) => {
        (c.sut as Raw).profile = { api: 'http://api:6060/debug/pprof/profile' };
        (c.sut as Raw).orchestrator = 'swarm';
        c.runner = { replicas: 2 };
      }),
      [
        'sut.profile: not taken on a swarm or with runner.replicas above 1 (yet): profile with one runner on compose, or leave it out',
      ],
    ],
    [
      'a ready timeout of a day',
      minimal((c) => ((c.sut as Raw).ready = [{ url: 'http://api:8080/', timeout: '24h' }])),
      ['sut.ready[0].timeout: must be a duration from 1s to 1h'],
    ],
    [
      'a confirmation time budget of 0',
      minimal((c) => (c.gate = { confirm: { 'max-time': '0s' } })),
      ['gate.confirm.max-time: must be a duration from 1s to 24h'],
    ],
    [
      'a confirmation time budget over a day',
      minimal((c) => (c.gate = { confirm: { 'max-time': '25h' } })),
      ['gate.confirm.max-time: must be a duration from 1s to 24h'],
    ],
    [
      'a confirmation cap over 100',
      minimal((c) => (c.gate = { confirm: { 'max-trials': 101 } })),
      ['gate.confirm.max-trials: must be an integer from 0 to 100'],
    ],
    [
      'sut missing',
      minimal((c) => delete c.sut),
      ['sut: is required (the compose SUT to boot), or give target: the URL of a service already running'],
    ],
    [
      'top level is a list',
      '- a\n- b\n',
      ['(top level): must be a mapping with version, sut (or target) and scenarios'],
    ],
    [
      'top level is a scalar',
      'hello\n',
      ['(top level): must be a mapping with version, sut (or target) and scenarios'],
    ],
    ['empty file', '', ['(top level): must be a mapping with version, sut (or target) and scenarios']],
    [
      'a YAML alias bomb',
      [
        'a: &a [x, x, x, x, x, x, x, x, x]',
        ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
      ].join('\n'),
      ['YAML: Excessive alias count indicates a resource exhaustion attack'],
    ],
  ])('%s', (_label, text, problems) => {
    const result = parse(text);
    expect(result.config).toBeUndefined();
    expect(result.problems).toEqual(problems);
  });

  it('collects every semantic problem, across phases and scenarios', () => {
    const text = minimal((c) => {
      setPhases(c, { connections: 10 }, { connections: 10, duration: '30s', 'max-in-flight': 5 });
      scenario0(c).thresholds = { p99: { floor: 5 } };
      c.scenarios.push({ name: 's', request: { url: 'http://a/', body: 'x', bodies: 'b' }, phases: [{ rate: 1 }] });
    });
    expect(parse(text).problems).toEqual([
      'scenarios[0].phases[0]: a closed-loop phase needs exactly one of duration or requests',
      'scenarios[0].phases[1].max-in-flight: only allowed in an open-loop (rate) phase',
      'scenarios[0].thresholds.p99.floor: 5 has no unit; write a duration like 5ms or 5us',
      'scenarios[1].phases[0].duration: required in an open-loop (rate) phase',
      'scenarios[1].request: give body or bodies, not both',
      'scenarios: scenario name "s" is used twice (it names the baseline file)',
    ]);
  });

  it('names the compose key when the path cannot be resolved', () => {
    const r = parse(minimal(), missingResolver);
    expect(r.problems).toEqual(['sut.compose: file not found: x']);
    // no config; what could be read of its scenarios is checked beside it (the placeholder story)
    expect(r.config).toBeUndefined();
    expect(r.partial?.scenarios.map((s) => s.name)).toEqual(['s']);
  });

  it('names the list index of a compose file that cannot be resolved', () => {
    const text = minimal((c) => (c.sut = { compose: ['a.yml', 'b.yml'] }));
    const resolver = (p: string) => {
      if (p === 'b.yml') throw new Error('file not found: x');
      return `/ws/${p}`;
    };
    expect(parse(text, resolver).problems).toEqual(['sut.compose[1]: file not found: x']);
  });

  it('names the bodies key when the bodies file cannot be resolved', () => {
    const text = minimal((c) => (request0(c).bodies = 'missing.jsonl'));
    const resolver = (p: string) => {
      if (p === 'missing.jsonl') throw new Error('file not found: x');
      return `/ws/${p}`;
    };
    expect(parse(text, resolver).problems).toEqual(['scenarios[0].request.bodies: file not found: x']);
  });

  it.each([
    ['a duplicate key', 'version: 1\nversion: 1\n', /^line 2, column 1: Map keys must be unique/],
    ['a nested compact mapping', 'version: 1\nsut: a: b\n', /^line 2, column 6: /],
  ])('invalid YAML (%s) is reported with its line and column', (_label, text, pattern) => {
    const result = parse(text);
    expect(result.config).toBeUndefined();
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(pattern);
  });
});

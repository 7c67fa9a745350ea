import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/config-parts/types.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import { parseBodiesJsonl } from '../../src/config/bodies.js';
import { EVENT_MARKER, type RunnerEvent } from '../../src/runner-kit/plan.js';
import { parseEventLine } from '../../src/runner-kit/validate.js';

describe('parseEventLine', () => {
  it.each<[string, RunnerEvent]>([
    ['@@perf-gate {"t":"ready"}', { t: 'ready' }],
    ['@@perf-gate {"t":"hello","node":"v22.1.0"}', { t: 'hello', node: 'v22.1.0' }],
    [
      '@@perf-gate {"t":"progress","scenario":"s","phase":"c10","trial":1,"stage":"measure","elapsedMs":1000,"responses":500,"rps":500}',
      {
        t: 'progress',
        scenario: 's',
        phase: 'c10',
        trial: 1,
        stage: 'measure',
        elapsedMs: 1000,
        responses: 500,
        rps: 500,
      },
    ],
    ['@@perf-gate {"t":"fatal","message":"boom"}', { t: 'fatal', message: 'boom' }],
  ])('%s', (line, event) => {
    expect(parseEventLine(line)).toEqual(event);
  });

  it('round-trips what a runner writes', () => {
    const event: RunnerEvent = { t: 'warning', message: 'keep-alive closed by the server' };
    expect(parseEventLine(`${EVENT_MARKER}${JSON.stringify(event)}`)).toEqual(event);
  });

  it.each([
    ['plain log output'],
    [''],
    ['{"t":"ready"}'],
    [' @@perf-gate {"t":"ready"}'],
    ['@@perf-gate{"t":"ready"}'],
  ])('%j is not an event', (line) => {
    expect(parseEventLine(line)).toBeUndefined();
  });

  // the marker with something that is not a valid event: a clear failure, never a half-read measurement
  it.each<[string, string]>([
    ['@@perf-gate not json', 'the runner wrote an event that is not JSON: @@perf-gate not json'],
    ['@@perf-gate {"t":"ready"', 'the runner wrote an event that is not JSON'],
    ['@@perf-gate ', 'the runner wrote an event that is not JSON'],
    ['@@perf-gate {"t":"teleport"}', 'the runner wrote an invalid "teleport" event (t: '],
    ['@@perf-gate {"t":"progress","scenario":"s"}', 'the runner wrote an invalid "progress" event (phase: '],
    ['@@perf-gate [1,2]', 'the runner wrote an invalid event ('],
    ['@@perf-gate null', 'the runner wrote an invalid event ('],
    [
      '@@perf-gate {"t":"trial","scenario":"s","phase":"p","histogram":"","measurement":{"trial":1}}',
      'the runner wrote an invalid "trial" event (measurement.durationMs: ',
    ],
  ])('%j is a fatal event naming the problem', (line, message) => {
    const e = parseEventLine(line);
    expect(e?.t).toBe('fatal');
    expect((e as { message: string }).message).toContain(message);
  });

  it('a trial event is checked down to its numbers', () => {
    const measurement = {
      trial: 1,
      durationMs: 1000,
      sent: 10,
      responses: 10,
      successes: 10,
      failures: 0,
      statusCodes: { '200': 10 },
      errors: {},
      rps: 10,
      bytesPerSec: 100,
      latency: { count: 10, min: 1, mean: 2, p50: 2, p90: 3, p95: 3, p99: 4, 'p99.9': 4, max: 4 },
      connectionCloses: 0,
      generator: { cpuPct: 1, eventLoopDelayP99Us: 10, eventLoopDelayMaxUs: 20 },
    };
    const line = (m: unknown) =>
      `${EVENT_MARKER}${JSON.stringify({ t: 'trial', scenario: 's', phase: 'p', histogram: 'x', measurement: m })}`;
    expect(parseEventLine(line(measurement))?.t).toBe('trial');
    expect(parseEventLine(line({ ...measurement, latency: { ...measurement.latency, p99: '4ms' } }))).toMatchObject({
      t: 'fatal',
      message: expect.stringContaining('measurement.latency.p99'),
    });
    expect(parseEventLine(line({ ...measurement, statusCodes: { '200': -1 } }))?.t).toBe('fatal');
  });
});

describe('parseBodiesJsonl', () => {
  it.each<[string, string, string[]]>([
    ['strings are sent raw', '"a=1&b=2"\n"plain text"\n', ['a=1&b=2', 'plain text']],
    ['objects as JSON', '{"q": "forklift", "n": 1}\n{"q":"pallet"}\n', ['{"q":"forklift","n":1}', '{"q":"pallet"}']],
    ['arrays, numbers, booleans and null as JSON', '[1, 2]\n42\ntrue\nnull\n', ['[1,2]', '42', 'true', 'null']],
    ['blank lines skipped', '\n"a"\n\n   \n"b"\n\n', ['a', 'b']],
    ['CRLF line endings', '"a"\r\n{"b":1}\r\n', ['a', '{"b":1}']],
    ['no trailing newline', '"only"', ['only']],
    ['a string holding JSON stays text', '"{\\"a\\":1}"\n', ['{"a":1}']],
    ['an empty string is a body', '""\n', ['']],
  ])('%s', (_label, text, bodies) => {
    expect(parseBodiesJsonl(text, 'bodies.jsonl')).toEqual(bodies);
  });

  it.each([
    ['"a"\nnot json\n', 'fixtures/bodies.jsonl:2: not valid JSON'],
    ['{bad}\n', 'fixtures/bodies.jsonl:1: not valid JSON'],
    ['"a"\n\n\n{"b":\n', 'fixtures/bodies.jsonl:4: not valid JSON'],
    ['"a"\r\n"b"\r\n\'c\'\r\n', 'fixtures/bodies.jsonl:3: not valid JSON'],
  ])('a bad line names file:line (%j)', (text, message) => {
    expect(() => parseBodiesJsonl(text, 'fixtures/bodies.jsonl')).toThrow(message);
  });

  it.each([[''], ['\n\n'], ['  \n\t\n']])('an empty file %j is an error', (text) => {
    expect(() => parseBodiesJsonl(text, 'b.jsonl')).toThrow('b.jsonl: no bodies (one JSON value per line expected)');
  });
});

describe('buildPlan', () => {
  const scenarios: Scenario[] = [
    {
      name: 'search',
      target: {
        kind: 'http',
        request: { url: 'http://api/s', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
      },
      phases: [{ kind: 'closed', name: 'c10', connections: 10, durationMs: 30_000 }],
      warmupMs: 5000,
      trials: 3,
      requestTimeoutMs: 10_000,
      thresholds: { p99: { regress: 0.1 } },
      sweep: { kind: 'closed', levels: [1], durationMs: 1000, warmupMs: 0 },
    },
    {
      name: 'ingest',
      target: {
        kind: 'http',
        request: { url: 'http://api/i', method: 'POST', headers: {}, bodiesFile: '/ws/bodies.jsonl' },
      },
      phases: [{ kind: 'open', name: 'r50', rate: 50, durationMs: 10_000, maxInFlight: 100 }],
      warmupMs: 1000,
      trials: 1,
      requestTimeoutMs: 10_000,
      thresholds: {},
    },
    {
      name: 'health',
      target: { kind: 'http', request: { url: 'http://api/health', method: 'GET', headers: {} } },
      phases: [{ kind: 'closed', name: 'c1-n10', connections: 1, requests: 10 }],
      warmupMs: 0,
      trials: 2,
      requestTimeoutMs: 10_000,
      thresholds: {},
    },
  ];
  const ready = [{ url: 'http://api/health', timeoutMs: 60_000 }];

  it('carries what the runner needs and nothing of thresholds or sweeps', () => {
    const read: string[] = [];
    const plan = buildPlan(scenarios, ready, (file) => {
      read.push(file);
      return ['a', '{"b":1}'];
    });
    expect(read).toEqual(['/ws/bodies.jsonl']);
    expect(plan).toEqual({
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 10_000,
      workers: 1,
      ready,
      scenarios: [
        {
          name: 'search',
          target: {
            kind: 'http',
            request: {
              url: 'http://api/s',
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{}',
            },
          },
          warmupMs: 5000,
          trials: 3,
          requestTimeoutMs: 10_000,
          phases: [{ kind: 'closed', name: 'c10', connections: 10, durationMs: 30_000 }],
        },
        {
          name: 'ingest',
          target: {
            kind: 'http',
            request: { url: 'http://api/i', method: 'POST', headers: {}, bodies: ['a', '{"b":1}'] },
          },
          warmupMs: 1000,
          trials: 1,
          requestTimeoutMs: 10_000,
          phases: [{ kind: 'open', name: 'r50', rate: 50, durationMs: 10_000, maxInFlight: 100 }],
        },
        {
          name: 'health',
          target: {
            kind: 'http',
            request: { url: 'http://api/health', method: 'GET', headers: {} },
          },
          warmupMs: 0,
          trials: 2,
          requestTimeoutMs: 10_000,
          phases: [{ kind: 'closed', name: 'c1-n10', connections: 1, requests: 10 }],
        },
      ],
    });
  });

  it('is plain JSON (it is sent to the runner as a file)', () => {
    const plan = buildPlan(scenarios, ready, () => ['x']);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
    expect(JSON.stringify(plan)).not.toContain('bodiesFile');
    expect(JSON.stringify(plan)).not.toContain('thresholds');
  });

  it('carries runner.workers', () => {
    expect(buildPlan(scenarios, ready, () => ['x'], 4).workers).toBe(4);
  });

  it('with no scenarios', () => {
    expect(buildPlan([], [], () => [])).toEqual({
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 10_000,
      workers: 1,
      ready: [],
      scenarios: [],
    });
  });

  it('lets a bodies reader error through', () => {
    expect(() =>
      buildPlan(scenarios, ready, () => {
        throw new Error('/ws/bodies.jsonl:3: not valid JSON');
      }),
    ).toThrow('/ws/bodies.jsonl:3: not valid JSON');
  });
});

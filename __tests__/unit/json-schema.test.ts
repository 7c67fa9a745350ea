// The JSON Schema shipped for editors (schema/perf-gate.schema.json) accepts every config in
// fixtures/ — the five seed tests among them, with request mixes, WebSocket and gRPC scenarios — and
// rejects the shapes the validator rejects by schema (unknown keys, wrong types).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '../..');
const schema = JSON.parse(readFileSync(join(ROOT, 'schema/perf-gate.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

function configsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return configsUnder(path);
    return name === 'perf-gate.yml' ? [path] : [];
  });
}

// fixtures/tests/bad is a deliberately invalid config (the CLI's exit-2 test)
const all = configsUnder(join(ROOT, 'fixtures'));
const fixtures = all.filter((f) => !f.includes('/tests/bad/'));

describe('the shipped JSON Schema', () => {
  it('finds the five seed configs', () => {
    const seeds = fixtures.filter((f) => f.includes('/seeds/')).map((f) => f.split('/').at(-2));
    expect(seeds.sort()).toEqual(['embed-search', 'grpc-vectordb', 'hey-distribution', 'proxy-bodies', 'ws-broker']);
  });
  it.each(fixtures.map((f) => [f.slice(ROOT.length + 1), f]))('accepts %s', (_name, file) => {
    const ok = validate(parse(readFileSync(file, 'utf8')));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('rejects the deliberately bad one', () => {
    const bad = all.find((f) => f.includes('/tests/bad/')) as string;
    expect(validate(parse(readFileSync(bad, 'utf8')))).toBe(false);
  });

  const base = (scenario: Record<string, unknown>) => ({
    version: 1,
    sut: { compose: 'c.yml' },
    scenarios: [scenario],
  });
  it.each<[string, Record<string, unknown>]>([
    [
      'an unknown key in a mix entry',
      {
        name: 's',
        requests: [{ name: 'a', url: 'http://a/', ratio: 2 }],
        phases: [{ connections: 1, duration: '1s' }],
      },
    ],
    [
      'a negative weight',
      {
        name: 's',
        requests: [{ name: 'a', url: 'http://a/', weight: -1 }],
        phases: [{ connections: 1, duration: '1s' }],
      },
    ],
    [
      'an http URL for WebSocket peers',
      { name: 's', websocket: { url: 'http://b/', message: '{{id}}' }, phases: [{ peers: 2, messages: 1 }] },
    ],
    [
      'a memory threshold on the push',
      {
        name: 's',
        websocket: { url: 'ws://b/', message: '{{id}}', thresholds: { push: { memory: { max: '1GiB' } } } },
        phases: [{ peers: 2, messages: 1 }],
      },
    ],
    [
      'a gRPC URL with a path',
      {
        name: 's',
        grpc: { url: 'grpc://a:1/x', proto: 'a.proto', service: 'a.S', method: 'M', message: {} },
        phases: [{ connections: 1, duration: '1s' }],
      },
    ],
    [
      'gRPC without a method',
      {
        name: 's',
        grpc: { url: 'grpc://a:1', proto: 'a.proto', service: 'a.S', message: {} },
        phases: [{ connections: 1, duration: '1s' }],
      },
    ],
    [
      'a delivery threshold with an unknown key',
      {
        name: 's',
        request: { url: 'http://a/' },
        phases: [{ connections: 1, duration: '1s' }],
        thresholds: { delivery: { atLeast: '99%' } },
      },
    ],
    [
      'a percentile of 100 (the slowest response is max)',
      {
        name: 's',
        request: { url: 'http://a/' },
        phases: [{ connections: 1, duration: '1s' }],
        thresholds: { p100: { below: '1s' } },
      },
    ],
    [
      'a percentile with 4 decimals',
      {
        name: 's',
        request: { url: 'http://a/' },
        phases: [{ connections: 1, duration: '1s' }],
        thresholds: { 'p99.9999': { below: '1s' } },
      },
    ],
    [
      'a key that is no metric and no percentile',
      {
        name: 's',
        request: { url: 'http://a/' },
        phases: [{ connections: 1, duration: '1s' }],
        thresholds: { p97x: { below: '1s' } },
      },
    ],
    [
      'a percentile with an unknown rule',
      {
        name: 's',
        request: { url: 'http://a/' },
        phases: [{ connections: 1, duration: '1s' }],
        thresholds: { 'p97.5': { atMost: '1s' } },
      },
    ],
  ])('rejects %s', (_what, scenario) => {
    expect(validate(base(scenario))).toBe(false);
  });

  it('asks for exactly one of sut and target, as the validator does', () => {
    const scenario = { name: 's', request: { url: '/' }, phases: [{ connections: 1, duration: '1s' }] };
    const { sut, ...neither } = base(scenario);
    expect(validate(base(scenario))).toBe(true);
    expect(validate({ ...neither, target: 'http://127.0.0.1:8080' })).toBe(true);
    expect(validate(neither)).toBe(false);
    expect(validate({ ...neither, sut, target: 'http://127.0.0.1:8080' })).toBe(false);
  });

  it('takes ramps (stages) and pipelining in a phase', () => {
    const phases = [
      {
        rate: 5,
        stages: [
          { duration: '10s', rate: 100 },
          { duration: '1m', target: 100 },
        ],
      },
      { connections: 2, stages: [{ duration: '5s', connections: 20 }], pipelining: 4 },
    ];
    expect(validate(base({ name: 's', request: { url: 'http://api/' }, phases }))).toBe(true);
    const bad = [{ stages: [{ duration: '1s', rate: 1, vus: 2 }] }];
    expect(validate(base({ name: 's', request: { url: 'http://api/' }, phases: bad }))).toBe(false);
  });

  it('accepts any percentile as a threshold key (p97.5, p99.99, p0.1, p97.50), as the validator does', () => {
    const thresholds = {
      'p97.5': { regress: '10%' },
      'p99.99': '< 50ms',
      'p0.1': { below: '1ms' },
      'p97.50': {},
      'p097.5': {},
    };
    const config = base({
      name: 's',
      requests: [{ name: 'a', url: 'http://a/', thresholds }],
      phases: [{ connections: 1, duration: '1s' }],
      thresholds,
    });
    expect(validate({ ...config, defaults: { thresholds } })).toBe(true);
  });
});

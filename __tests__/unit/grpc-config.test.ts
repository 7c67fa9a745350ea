// gRPC scenarios (issue 10, item 2): the config, the proto checks made before anything starts, the
// plan the runner gets, and gRPC status names as error classes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { errorClasses } from '../../src/compare/metrics.js';
import { statusClass } from '../../src/metrics/status.js';
import { expandPlan } from '../../src/config/env.js';
import { parseConfigText } from '../../src/config/load.js';
import { checkGrpcScenarios, type ProtoDescriptor } from '../../src/config-parts/proto.js';
import type { Config, Scenario } from '../../src/config-parts/types.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import { scenarioHash } from '../../src/results/files.js';
import { ROOT } from '../integration/helpers.js';
import { targetOf } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'perf-gate-grpc-'));
const PROTO = join(ROOT, 'fixtures/grpc-search/search.proto');
writeFileSync(join(dir, 'broken.proto'), 'syntax = "proto3";\nmessage A { string q = 1 }\n');
writeFileSync(
  join(dir, 'streams.proto'),
  'syntax = "proto3"; package s; message M { string q = 1; } service S { rpc Watch (M) returns (stream M); }\n',
);
writeFileSync(
  join(dir, 'imports.proto'),
  'syntax = "proto3"; package i; import "google/protobuf/empty.proto"; import "common.proto";\n' +
    'service I { rpc Ping (google.protobuf.Empty) returns (c.Pong); }\n',
);
writeFileSync(
  join(dir, 'kinds.proto'),
  'syntax = "proto3"; package k; enum Kind { A = 0; B = 1; }\n' +
    'message Inner { Kind kind = 1; int64 at = 2; }\n' +
    'message Req { int64 id = 1; Kind kind = 2; repeated uint64 ids = 3; Inner inner = 4; repeated Kind kinds = 5; }\n' +
    'service K { rpc Get (Req) returns (Req); }\n',
);
writeFileSync(join(dir, 'common.proto'), 'syntax = "proto3"; package c; message Pong { int64 at = 1; }\n');
writeFileSync(join(dir, 'messages.jsonl'), '{"collection":"a","k":1}\n{"collection":"b","k":"two"}\n{"depth":3}\n');

const GRPC = {
  url: 'grpc://vectordb:50051',
  proto: PROTO,
  service: 'vectordb.VectorDB',
  method: 'Search',
  message: { collection: 'docs', k: 10, vector: [0.5, 0.25] },
  metadata: { 'X-Tenant': 'perf-gate' },
  channels: 4,
  deadline: '1s',
};

function config(grpc: unknown, extra: Record<string, unknown> = {}): { config?: Config; problems: string[] } {
  const text = stringify({
    version: 1,
    sut: { compose: 'c.yml' },
    scenarios: [{ name: 'search', grpc, phases: [{ rate: 1000, duration: '60s', 'max-in-flight': 32 }], ...extra }],
  });
  return parseConfigText(text, '/ws/perf-gate.yml', (p) => (p.startsWith('/') ? p : join(dir, p)));
}

const reader = { resolveImport: (_origin: string, target: string) => join(dir, target) };
const readMessages = (file: string) =>
  file.endsWith('.jsonl')
    ? ['{"collection":"a","k":1}', '{"collection":"b","k":"two"}', '{"depth":3}'].map((l) => JSON.parse(l))
    : [];

function check(grpc: unknown): { problems: string[]; descriptors: Map<string, ProtoDescriptor> } {
  const { config: c, problems } = config(grpc);
  expect(problems).toEqual([]);
  const descriptors = new Map<string, ProtoDescriptor>();
  return { problems: checkGrpcScenarios(c?.scenarios ?? [], reader, readMessages, descriptors), descriptors };
}

describe('config: grpc scenarios', () => {
  it('stages: a ramping rate is an open loop like any other; ramping channels is refused', () => {
    const rate = config(GRPC, { phases: [{ stages: [{ duration: '2s', rate: 100 }] }] });
    expect(rate.problems).toEqual([]);
    expect(rate.config?.scenarios[0]?.phases[0]).toMatchObject({ kind: 'open', ramp: { from: 0 } });
    expect(config(GRPC, { phases: [{ stages: [{ duration: '2s', connections: 4 }] }] }).problems).toEqual([
      'scenarios[0].phases[0].stages: a gRPC scenario cannot ramp its channels yet; ramp the rate instead (stages with rate:)',
    ]);
    expect(config(GRPC, { phases: [{ connections: 4, duration: '1s', pipelining: 4 }] }).problems).toEqual([
      "scenarios[0].phases[0].pipelining: HTTP/1.1 only; a gRPC scenario's calls share its channels (raise connections for more calls in flight)",
    ]);
  });

  it('normalises the call: metadata keys lowercased, deadline in ms, channels', () => {
    const { config: c, problems } = config(GRPC);
    expect(problems).toEqual([]);
    const s = c?.scenarios[0] as Scenario;
    expect(targetOf(s, 'grpc').grpc).toEqual({
      url: 'grpc://vectordb:50051',
      urlAsWritten: 'grpc://vectordb:50051',
      proto: PROTO,
      protoFile: PROTO,
      service: 'vectordb.VectorDB',
      method: 'Search',
      message: { collection: 'docs', k: 10, vector: [0.5, 0.25] },
      metadata: { 'x-tenant': 'perf-gate' },
      channels: 4,
      deadlineMs: 1000,
    });
    expect(s.phases[0]).toMatchObject({ kind: 'open', rate: 1000, maxInFlight: 32 });
  });
  it('defaults: one channel, a 10 s deadline', () => {
    const { config: c } = config({ ...GRPC, channels: undefined, deadline: undefined });
    expect(targetOf(c?.scenarios[0], 'grpc').grpc).toMatchObject({ channels: 1, deadlineMs: 10_000 });
  });
  it('the deadline defaults to the scenario’s request-timeout; its own deadline wins', () => {
    expect(config({ ...GRPC, deadline: undefined }, { 'request-timeout': '2s' }).config?.scenarios[0]).toMatchObject({
      requestTimeoutMs: 2000,
      target: { grpc: { deadlineMs: 2000 } },
    });
    expect(
      targetOf(config({ ...GRPC, deadline: '300ms' }, { 'request-timeout': '2s' }).config?.scenarios[0], 'grpc').grpc,
    ).toMatchObject({
      deadlineMs: 300,
    });
  });
  it.each<[string, unknown, string[]]>([
    [
      'an http URL',
      { ...GRPC, url: 'http://vectordb:50051' },
      ['scenarios[0].grpc.url: must be a grpc://host:port or grpcs://host:port URL'],
    ],
    [
      'a URL with a path',
      { ...GRPC, url: 'grpc://vectordb:50051/v1' },
      ['scenarios[0].grpc.url: must be a grpc://host:port or grpcs://host:port URL'],
    ],
    [
      'message and bodies',
      { ...GRPC, bodies: 'messages.jsonl' },
      ['scenarios[0].grpc: give message or bodies (one request message per line), exactly one'],
    ],
    [
      'neither message nor bodies',
      { ...GRPC, message: undefined },
      ['scenarios[0].grpc: give message or bodies (one request message per line), exactly one'],
    ],
    [
      'a reserved metadata key',
      { ...GRPC, metadata: { 'grpc-timeout': '1S' } },
      ['scenarios[0].grpc.metadata.grpc-timeout: not a metadata key gRPC allows (lowercase [0-9a-z_.-], not grpc-*)'],
    ],
    [
      'an unknown key',
      { ...GRPC, stream: true },
      [
        'scenarios[0].grpc.stream: unknown key (keys here: url, proto, service, method, message, bodies, metadata, channels, deadline)',
      ],
    ],
    [
      'a URL without a port',
      { ...GRPC, url: 'grpc://vectordb' },
      ['scenarios[0].grpc.url: must name the port, 1 to 65535 (grpc://host:port)'],
    ],
    [
      'a port out of range',
      { ...GRPC, url: 'grpc://vectordb:70000' },
      ['scenarios[0].grpc.url: must be a grpc://host:port or grpcs://host:port URL with a port from 1 to 65535'],
    ],
    [
      'binary metadata',
      { ...GRPC, metadata: { 'trace-bin': 'AAEC' } },
      ['scenarios[0].grpc.metadata.trace-bin: binary (-bin) metadata is not supported; give text values'],
    ],
    [
      'a metadata value with a newline',
      { ...GRPC, metadata: { authorization: 'a\nb' } },
      [
        'scenarios[0].grpc.metadata.authorization: the value must be printable ASCII (no newlines or control characters)',
      ],
    ],
  ])('%s: one line naming the key', (_what, grpc, expected) => {
    expect(config(grpc).problems).toEqual(expected);
  });
});

describe('checkGrpcScenarios: the proto, service, method and messages before anything starts', () => {
  it('a proto that fits: no problems, and its descriptor for the plan', () => {
    const { problems, descriptors } = check(GRPC);
    expect(problems).toEqual([]);
    expect(Object.keys(descriptors.get(PROTO) ?? {})).toEqual(['nested']);
  });
  it('imports resolve beside the proto (through the reader); the well-known types are built in', () => {
    expect(check({ ...GRPC, proto: 'imports.proto', service: 'i.I', method: 'Ping', message: {} }).problems).toEqual(
      [],
    );
  });
  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'a proto that does not parse',
      { proto: 'broken.proto' },
      ["scenarios[0].grpc.proto: broken.proto: illegal token '}', ';' expected (line 2)"],
    ],
    [
      'a service that is not there',
      { service: 'vectordb.Index' },
      [
        'scenarios[0].grpc.service: vectordb.Index is not a service of the proto (services: vectordb.VectorDB; give the full name, package included)',
      ],
    ],
    [
      'a service without its package',
      { service: 'VectorDB' },
      ['scenarios[0].grpc.service: give the full name, package included: vectordb.VectorDB'],
    ],
    [
      'a method that is not there',
      { method: 'Lookup' },
      ['scenarios[0].grpc.method: Lookup is not a method of vectordb.VectorDB (methods: Search)'],
    ],
    [
      'a streaming method',
      { proto: 'streams.proto', service: 's.S', method: 'Watch', message: { q: 'x' } },
      ['scenarios[0].grpc.method: Watch streams; only unary methods can be load-tested'],
    ],
    [
      'a field of the wrong type',
      { message: { collection: 'docs', k: 'ten' } },
      ['scenarios[0].grpc.message: k: integer expected (in a SearchRequest message)'],
    ],
    [
      'a field the type does not have',
      { message: { collection: 'docs', depth: 3 } },
      ['scenarios[0].grpc.message: depth: not a field of SearchRequest (fields: collection, vector, k)'],
    ],
    [
      'bodies lines that do not fit, each named by line',
      { message: undefined, bodies: 'messages.jsonl' },
      [
        'scenarios[0].grpc.bodies: line 2: k: integer expected (in a SearchRequest message)',
        'scenarios[0].grpc.bodies: line 3: depth: not a field of SearchRequest (fields: collection, vector, k)',
      ],
    ],
  ])('%s', (_what, over, expected) => {
    expect(check({ ...GRPC, ...over }).problems).toEqual(expected);
  });
  it('the proto3 JSON form: enum values by name, 64-bit integers as strings, nested and repeated', () => {
    const message = {
      id: '9007199254740993',
      kind: 'B',
      ids: ['1', 2],
      inner: { kind: 'A', at: '-5' },
      kinds: ['A', 'B'],
    };
    expect(check({ ...GRPC, proto: 'kinds.proto', service: 'k.K', method: 'Get', message }).problems).toEqual([]);
  });
  it.each<[Record<string, unknown>, string]>([
    [{ kind: 'C' }, 'scenarios[0].grpc.message: kind: enum value expected (in a Req message)'],
    [{ id: 'twelve' }, 'scenarios[0].grpc.message: id: integer|Long expected (in a Req message)'],
    [{ inner: { kind: 'Z' } }, 'scenarios[0].grpc.message: inner.kind: enum value expected (in a Req message)'],
  ])('the JSON form still has to fit: %j', (message, problem) => {
    expect(check({ ...GRPC, proto: 'kinds.proto', service: 'k.K', method: 'Get', message }).problems).toEqual([
      problem,
    ]);
  });
  it('an import the reader refuses (outside the workspace) is the proto key’s problem', () => {
    const { config: c } = config({ ...GRPC, proto: 'imports.proto', service: 'i.I', method: 'Ping', message: {} });
    const refusing = {
      resolveImport: () => {
        throw new Error('common.proto resolves outside the workspace /ws; perf-gate reads nothing outside it');
      },
    };
    expect(checkGrpcScenarios(c?.scenarios ?? [], refusing, readMessages)).toEqual([
      'scenarios[0].grpc.proto: imports.proto: common.proto resolves outside the workspace /ws; perf-gate reads nothing outside it',
    ]);
  });
});

describe('the plan and the hash of a gRPC scenario', () => {
  const loaded = (grpc: unknown = GRPC): Scenario => {
    const { config: c } = config(grpc);
    const descriptors = new Map<string, ProtoDescriptor>();
    checkGrpcScenarios(c?.scenarios ?? [], reader, readMessages, descriptors);
    const s = c?.scenarios[0] as Scenario;
    if (s.target.kind === 'grpc') s.target.grpc.descriptor = descriptors.get(s.target.grpc.protoFile);
    return s;
  };
  it('hands the runner the method’s path and the messages serialised, never the proto path', () => {
    const plan = buildPlan([loaded()], [], () => []);
    const g = targetOf(plan.scenarios[0], 'grpc').grpc;
    expect(g).toMatchObject({
      url: GRPC.url,
      service: 'vectordb.VectorDB',
      method: 'Search',
      channels: 4,
      deadlineMs: 1000,
    });
    expect(g?.path).toBe('/vectordb.VectorDB/Search');
    expect(g?.messages).toHaveLength(1);
    expect(JSON.stringify(g)).not.toContain('search.proto');
    expect(g).not.toHaveProperty('descriptor');
  });
  it('a plan without the loaded proto is a bug, said so', () => {
    const { config: c } = config(GRPC);
    expect(() => buildPlan(c?.scenarios ?? [], [], () => [])).toThrow('the proto');
  });
  it('fills ${NAME} in the URL and metadata', () => {
    const s = loaded({ ...GRPC, metadata: { authorization: 'Bearer ${TOKEN}' } });
    const out = expandPlan(
      buildPlan([s], [], () => []),
      { TOKEN: 't0k' },
      () => {},
    );
    expect(targetOf(out.scenarios[0], 'grpc').grpc.metadata).toEqual({ authorization: 'Bearer t0k' });
    expect(() =>
      expandPlan(
        buildPlan([s], [], () => []),
        {},
        () => {},
      ),
    ).toThrow('scenarios[0] (search).grpc.metadata.authorization: ${TOKEN} is not set');
  });
  it('the hash follows the proto’s content and the message, not the proto’s path', () => {
    const base = scenarioHash(loaded());
    expect(scenarioHash(loaded({ ...GRPC, message: { ...GRPC.message, k: 5 } }))).not.toBe(base);
    const moved = loaded();
    targetOf(moved, 'grpc').grpc.protoFile = '/elsewhere/search.proto';
    expect(scenarioHash(moved)).toBe(base);
    const edited = loaded();
    targetOf(edited, 'grpc').grpc.descriptor = { nested: {} };
    expect(scenarioHash(edited)).not.toBe(base);
  });
});

describe('gRPC status names are error classes', () => {
  it.each<[string, string | undefined]>([
    ['200', undefined],
    ['302', undefined],
    ['503', 'HTTP 503'],
    ['OK', undefined],
    ['UNAVAILABLE', 'gRPC UNAVAILABLE'],
    ['DEADLINE_EXCEEDED', 'gRPC DEADLINE_EXCEEDED'],
  ])('%s → %s', (code, cls) => {
    expect(statusClass(code)).toBe(cls);
  });
  it('a phase’s classes', () => {
    expect(errorClasses({ statusCodes: { OK: 90, UNAVAILABLE: 8, CANCELLED: 2 }, errors: { unfinished: 1 } })).toEqual([
      'gRPC CANCELLED',
      'gRPC UNAVAILABLE',
      'unfinished',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { refine } from '../../src/init/classify.js';
import { callableGets, MAX_GETS } from '../../src/runner-kit/openapi.js';

describe('callableGets: the GET operations init --probe can load as they are', () => {
  it.each<[string, unknown, string[]]>([
    ['not an OpenAPI document', { paths: { '/a': { get: {} } } }, []],
    [
      'an empty operation is an operation',
      { openapi: '3.0.0', paths: { '/a': { get: {} }, '/b': { post: {} } } },
      ['/a'],
    ],
    [
      'path parameters from example, examples, schema example, default and enum; one without is left out',
      {
        openapi: '3.1.0',
        paths: {
          '/a/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, example: 7 }] } },
          '/b/{id}': {
            get: { parameters: [{ name: 'id', in: 'path', required: true, examples: { one: { value: 'x y' } } }] },
          },
          '/c/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { example: 'c1' } }] } },
          '/d/{id}': {
            get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { enum: ['on', 'off'] } }] },
          },
          '/e/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } },
        },
      },
      ['/a/7', '/b/x%20y', '/c/c1', '/d/on'],
    ],
    [
      'a required query parameter is filled in or the operation is left out; an optional one is left off',
      {
        openapi: '3.0.0',
        paths: {
          '/s': {
            get: {
              parameters: [
                { name: 'q', in: 'query', required: true, example: 'fork lift' },
                { name: 'page', in: 'query', example: 2 },
              ],
            },
          },
          '/t': { get: { parameters: [{ name: 'q', in: 'query', required: true }] } },
        },
      },
      ['/s?q=fork%20lift'],
    ],
    [
      '$ref parameters, path-level parameters, Swagger 2 basePath, deprecated left out',
      {
        swagger: '2.0',
        basePath: '/v1/',
        parameters: { id: { name: 'id', in: 'path', required: true, 'x-example': 'abc' } },
        paths: {
          '/items/{id}': { parameters: [{ $ref: '#/parameters/id' }], get: {} },
          '/old': { get: { deprecated: true } },
        },
      },
      ['/v1/items/abc'],
    ],
    [
      'an OpenAPI 3 server path prefixes',
      { openapi: '3.0.0', servers: [{ url: 'https://api.example.com/api/' }], paths: { '/x': { get: {} } } },
      ['/api/x'],
    ],
    [
      'a templated server URL adds no prefix',
      {
        openapi: '3.0.0',
        servers: [{ url: '{scheme}://api.example.com/{basePath}' }],
        paths: { '/items': { get: {} } },
      },
      ['/items'],
    ],
    [
      'a required header or cookie, or a security requirement, is not callable; security: [] on the operation is',
      {
        openapi: '3.0.0',
        security: [{ bearer: [] }],
        paths: {
          '/secret': { get: {} },
          '/public': { get: { security: [] } },
          '/tenant': { get: { security: [], parameters: [{ name: 'X-Token', in: 'header', required: true }] } },
          '/opt': { get: { security: [{}], parameters: [{ name: 'X-Trace', in: 'header' }] } },
        },
      },
      ['/public', '/opt'],
    ],
    [
      'hostile templates and paths are not called',
      {
        openapi: '3.0.0',
        paths: { 'http://evil/': { get: {} }, '/a b': { get: {} }, '/ok\r\nX: y': { get: {} }, '/{x': { get: {} } },
      },
      [],
    ],
  ])('%s', (_label, doc, expected) => {
    expect(callableGets(doc)).toEqual(expected);
  });

  it(`at most ${MAX_GETS}`, () => {
    const paths = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/p${i}`, { get: {} }]));
    expect(callableGets({ openapi: '3.0.0', paths })).toHaveLength(MAX_GETS);
  });
});

describe('refine: what --probe heard wins over what the file said', () => {
  const guessed = { port: 8080, kind: 'http' as const, why: 'nothing says otherwise', guessed: true };
  it.each<[string, Parameters<typeof refine>[0], Parameters<typeof refine>[1], Partial<ReturnType<typeof refine>>]>([
    ['nothing heard', guessed, undefined, guessed],
    [
      'gRPC with its health service',
      guessed,
      { host: 'a', port: 8080, kind: 'grpc', health: 'SERVING' },
      { kind: 'grpc', health: true },
    ],
    [
      'gRPC without it',
      guessed,
      { host: 'a', port: 8080, kind: 'grpc', health: 'UNIMPLEMENTED' },
      { kind: 'grpc', health: false },
    ],
    [
      'a greeting: TCP',
      guessed,
      { host: 'a', port: 8080, kind: 'tcp', banner: true },
      { kind: 'tcp', why: 'it speaks first (a greeting), as databases do' },
    ],
    [
      'HTTP: a health path found, the Host it needs and its GETs',
      guessed,
      {
        host: 'a',
        port: 8080,
        kind: 'http',
        status: 404,
        hostHeader: 'localhost',
        paths: [{ path: '/healthz', status: 200 }],
        openapi: '/openapi.json',
        gets: ['/x'],
      },
      { kind: 'http', healthPath: '/healthz', hostHeader: 'localhost', rootStatus: 404, gets: ['/x'] },
    ],
    [
      "a health check's own path stays",
      { port: 80, kind: 'http', why: 'its health check requests …', healthPath: '/ready' },
      { host: 'a', port: 80, kind: 'http', status: 200, paths: [{ path: '/health', status: 200 }] },
      { kind: 'http', healthPath: '/ready' },
    ],
    [
      'closed: kept, with a note',
      guessed,
      { host: 'a', port: 8080, kind: 'closed', error: 'ECONNREFUSED' },
      { kind: 'http', notes: ['--probe: no connection to port 8080 (ECONNREFUSED)'] },
    ],
  ])('%s', (_label, e, f, expected) => {
    expect(refine(e, f)).toMatchObject(expected);
  });
});

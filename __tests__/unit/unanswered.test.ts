// A phase without a single successful response is never a baseline and never a pass (issue 20, class 5).
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/config-parts/types.js';
import type { ScenarioResult } from '../../src/results/types.js';
import { failingRows, unansweredPhase } from '../../src/results/unanswered.js';
import { phase, type Measure } from './fixtures.js';

const scenario = {
  name: 'api',
  target: { kind: 'http', request: { url: 'http://api:9999/x', method: 'GET', headers: {} } },
} as Scenario;
const result = (m: Measure, trials = 2): ScenarioResult => ({
  name: 'api',
  scenarioHash: 'h',
  phases: [
    phase(
      'c10',
      m,
      Array.from({ length: trials }, () => m),
    ),
  ],
});

describe('unansweredPhase', () => {
  it.each<[string, Measure, string | undefined]>([
    ['answered', {}, undefined],
    [
      'connection refused',
      { responses: 0, errors: { ECONNREFUSED: 19_307 } },
      'api/c10: no successful response from http://api:9999/x in 2 trials: ECONNREFUSED (19307×); nothing was measured (is the URL right, and the service up?)',
    ],
    [
      'gRPC UNAVAILABLE, the dominant one named',
      { responses: 100, failures: 100, statusCodes: { UNAVAILABLE: 90, DEADLINE_EXCEEDED: 10 } },
      'api/c10: no successful response from http://api:9999/x in 2 trials: gRPC UNAVAILABLE (90×); nothing was measured (is the URL right, and the service up?)',
    ],
    [
      'every response a 500',
      { responses: 50, failures: 50, statusCodes: { '500': 50 } },
      'api/c10: no successful response from http://api:9999/x in 2 trials: HTTP 500 (50×); nothing was measured (is the URL right, and the service up?)',
    ],
    [
      'every answer a 200 that failed its checks: the checks are the question',
      { responses: 40, failures: 40, statusCodes: { '200': 40 }, checks: { 'expect-json': 40 } },
      'api/c10: no successful response from http://api:9999/x in 2 trials: expect-json (40×); nothing was measured (every answer failed the request’s expect checks (are they right?))',
    ],
    [
      'an HTTP/2 request to a server that picks http/1.1 by ALPN: what was negotiated',
      { responses: 0, errors: { 'alpn-http/1.1': 12 } },
      'api/c10: no successful response from http://api:9999/x in 2 trials: alpn-http/1.1 (12×); nothing was measured (the server did not agree to HTTP/2 (request.http: 2): TLS negotiated http/1.1 by ALPN)',
    ],
    [
      'an h2c request answered with HTTP/1.1',
      { responses: 0, errors: { 'h2-preface': 7 } },
      'api/c10: no successful response from http://api:9999/x in 2 trials: h2-preface (7×); nothing was measured (the server did not agree to HTTP/2 (request.http: 2): it answered the HTTP/2 preface with something else)',
    ],
    [
      'a service that accepts and never answers',
      { responses: 0 },
      'api/c10: no successful response from http://api:9999/x in 2 trials: no response at all; nothing was measured (is the URL right, and the service up?)',
    ],
  ])('%s', (_l, m, expected) => {
    expect(unansweredPhase([result(m)], [scenario])).toBe(expected);
  });

  it('names the side in A/B, and skips a phase that ran no trial', () => {
    expect(unansweredPhase([result({ responses: 0 })], [scenario], 'base: ')).toMatch(/^base: api\/c10: /);
    expect(unansweredPhase([result({ responses: 0 }, 0)], [scenario])).toBeUndefined();
  });
});

describe('failingRows: what an update must not record (SPEC §10)', () => {
  const entry = (name: string, m: Measure) => ({ ...phase(`c10.${name}`, m), request: name });
  const of = (phases: ReturnType<typeof phase>[]): ScenarioResult[] => [{ name: 'api', scenarioHash: 'h', phases }];
  it.each<[string, ReturnType<typeof phase>[], string[]]>([
    ['all answered', [phase('c10', {})], []],
    [
      'a flow step whose check fails on every answer, its phase at half',
      [
        phase('c10', { responses: 400, failures: 200, checks: { 'expect-json': 200 } }),
        entry('login', { responses: 200 }),
        entry('create', { responses: 200, failures: 200, statusCodes: { '200': 200 }, checks: { 'expect-json': 200 } }),
      ],
      ['api/c10.create: 200 of 200 requests failed, most as expect-json (200×)'],
    ],
    [
      '95% of a phase: nearly every one',
      [phase('c10', { responses: 100, failures: 95, statusCodes: { '200': 5, '401': 95 } })],
      ['api/c10: 95 of 100 requests failed, most as HTTP 401 (95×)'],
    ],
    [
      '94%: not nearly every one',
      [phase('c10', { responses: 100, failures: 94, statusCodes: { '200': 6, '401': 94 } })],
      [],
    ],
    [
      'socket errors count as failed requests',
      [phase('c10', { responses: 2, errors: { ECONNRESET: 98 } })],
      ['api/c10: 98 of 100 requests failed, most as ECONNRESET (98×)'],
    ],
    ['an entry with no share of the requests', [phase('c10', {}), entry('rare', { responses: 0 })], []],
  ])('%s', (_label, phases, lines) => {
    expect(failingRows(of(phases), [scenario]).map((f) => f.line)).toEqual(lines);
  });

  it('a scenario that says accept-failing: true has its rows marked accepted', () => {
    const failing = [phase('c10', { responses: 10, failures: 10, statusCodes: { '500': 10 } })];
    expect(failingRows(of(failing), [{ ...scenario, acceptFailing: true }])).toEqual([
      { row: 'api/c10', line: 'api/c10: 10 of 10 requests failed, most as HTTP 500 (10×)', accepted: true },
    ]);
  });
});

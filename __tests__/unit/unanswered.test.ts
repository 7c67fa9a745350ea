// A phase without a single successful response is never a baseline and never a pass (issue 20, class 5).
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/config/types.js';
import type { ScenarioResult } from '../../src/results/types.js';
import { unansweredPhase } from '../../src/results/unanswered.js';
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

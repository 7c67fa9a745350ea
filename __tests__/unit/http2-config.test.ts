// HTTP/2 in the config: `request.http` (1.1 or 2) and a phase's `streams`, what is refused where,
// the plan the runner gets, the scenario hash, and the open loop's limits with streams.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import type { Config, Scenario } from '../../src/config-parts/types.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import { openLoopLimits } from '../../src/runner-kit/plan.js';
import { scenarioHash } from '../../src/results/files.js';
import { targetOf } from './fixtures.js';

function config(scenario: Record<string, unknown>): { config?: Config; problems: string[] } {
  const text = stringify({ version: 1, sut: { compose: 'c.yml' }, scenarios: [{ name: 'api', ...scenario }] });
  return parseConfigText(text, '/h2/perf-gate.yml', (p) => `/h2/${p}`);
}

const closed = { connections: 2, duration: '1s' };

describe('request.http and streams', () => {
  it.each<[string, Record<string, unknown>, 2 | undefined, string[]]>([
    ['HTTP/1.1 by default', { request: { url: 'http://api/' }, phases: [closed] }, undefined, ['c2']],
    ['http: 1.1 said', { request: { url: 'http://api/', http: 1.1 }, phases: [closed] }, undefined, ['c2']],
    ['http: "1.1" as text', { request: { url: 'http://api/', http: '1.1' }, phases: [closed] }, undefined, ['c2']],
    [
      'http: 2 with streams: the closed loop named -sN',
      { request: { url: 'http://api/', http: 2 }, phases: [{ ...closed, streams: 8 }] },
      2,
      ['c2-s8'],
    ],
    ['http: "2" as text', { request: { url: 'https://api/', http: '2' }, phases: [closed] }, 2, ['c2']],
    [
      'streams: 1 keeps the plain name',
      { request: { url: 'http://api/', http: 2 }, phases: [{ ...closed, streams: 1 }] },
      2,
      ['c2'],
    ],
    [
      'an open loop with streams keeps its rate name',
      { request: { url: 'http://api/', http: 2 }, phases: [{ rate: 100, duration: '1s', streams: 4 }] },
      2,
      ['r100'],
    ],
    [
      'a ramp of connections with streams',
      {
        request: { url: 'http://api/', http: 2 },
        phases: [{ connections: 1, streams: 4, stages: [{ duration: '1s', connections: 3 }] }],
      },
      2,
      ['ramp-c3-s4'],
    ],
    [
      'a mix: the first entry says 2, the others may say nothing',
      {
        requests: [
          { name: 'a', url: 'http://api/a', http: 2 },
          { name: 'b', url: 'http://api/b' },
        ],
        phases: [{ ...closed, streams: 2 }],
      },
      2,
      ['c2-s2'],
    ],
  ])('%s', (_l, scenario, http, names) => {
    const { config: c, problems } = config(scenario);
    expect(problems).toEqual([]);
    const target = targetOf(c?.scenarios[0], 'http');
    expect(target.http).toBe(http);
    expect(c?.scenarios[0]?.phases.map((p) => p.name)).toEqual(names);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'streams over HTTP/1.1',
      { request: { url: 'http://api/' }, phases: [{ ...closed, streams: 4 }] },
      [
        'scenarios[0].phases[0].streams: HTTP/2 only: give the request http: 2 (over HTTP/1.1, pipelining keeps several requests in flight)',
      ],
    ],
    [
      'pipelining over HTTP/2',
      { request: { url: 'http://api/', http: 2 }, phases: [{ ...closed, pipelining: 4 }] },
      [
        'scenarios[0].phases[0].pipelining: HTTP/1.1 only; over HTTP/2 (request.http: 2) give streams: requests each connection keeps in flight',
      ],
    ],
    [
      'streams and pipelining together',
      { request: { url: 'http://api/', http: 2 }, phases: [{ ...closed, pipelining: 2, streams: 2 }] },
      [
        "scenarios[0].phases[0].streams: not with pipelining (pipelining is HTTP/1.1's, streams HTTP/2's)",
        'scenarios[0].phases[0].pipelining: HTTP/1.1 only; over HTTP/2 (request.http: 2) give streams: requests each connection keeps in flight',
      ],
    ],
    [
      'a mix whose entries disagree',
      {
        requests: [
          { name: 'a', url: 'http://api/a', http: 2 },
          { name: 'b', url: 'http://api/b', http: 1.1 },
        ],
        phases: [closed],
      },
      [
        'scenarios[0].requests[1].http: every entry of a mix uses one HTTP version (they share one set of connections); scenarios[0].requests[0].http says 2',
      ],
    ],
    [
      'another version',
      { request: { url: 'http://api/', http: 3 }, phases: [closed] },
      ['scenarios[0].request.http: must be 1.1 or 2'],
    ],
    [
      'streams beyond the bound',
      { request: { url: 'http://api/', http: 2 }, phases: [{ ...closed, streams: 1001 }] },
      ['scenarios[0].phases[0].streams: must be an integer from 1 to 1,000'],
    ],
    [
      'streams in a WebSocket phase',
      { websocket: { url: 'ws://b/ws', message: '{{id}}' }, phases: [{ peers: 2, messages: 1, streams: 2 }] },
      ['scenarios[0].phases[0].streams: not a WebSocket phase key (peers, messages, rate)'],
    ],
  ])('%s is refused', (_l, scenario, problems) => {
    expect(config(scenario).problems).toEqual(problems);
  });

  it('the plan carries http: 2 and each phase’s streams', () => {
    const { config: c } = config({
      request: { url: 'http://api/', http: 2 },
      phases: [
        { ...closed, streams: 8 },
        { rate: 100, duration: '1s', streams: 4, 'max-in-flight': 16 },
      ],
    });
    const plan = buildPlan(c?.scenarios ?? [], [], () => []);
    const s = plan.scenarios[0];
    expect(targetOf(s, 'http').http).toBe(2);
    expect(s?.phases.map((p) => (p.kind === 'ws' ? undefined : p.streams))).toEqual([8, 4]);
    // HTTP/1.1 plans say nothing new
    const h1 = buildPlan(
      config({ request: { url: 'http://api/' }, phases: [closed] }).config?.scenarios ?? [],
      [],
      () => [],
    );
    expect(targetOf(h1.scenarios[0], 'http')).not.toHaveProperty('http');
  });

  it('the scenario hash: HTTP/1.1 keeps its hash; HTTP/2 and streams are other measurements', () => {
    const hash = (scenario: Record<string, unknown>) => scenarioHash(config(scenario).config?.scenarios[0] as Scenario);
    const base = hash({ request: { url: 'http://api/' }, phases: [closed] });
    expect(hash({ request: { url: 'http://api/', http: 1.1 }, phases: [closed] })).toBe(base);
    const h2 = hash({ request: { url: 'http://api/', http: 2 }, phases: [closed] });
    expect(h2).not.toBe(base);
    expect(hash({ request: { url: 'http://api/', http: 2 }, phases: [{ ...closed, streams: 4 }] })).not.toBe(h2);
  });
});

describe('open-loop limits with streams', () => {
  it.each<
    [string, { maxInFlight: number; connections?: number; streams?: number }, { connections: number; inFlight: number }]
  >([
    ['HTTP/1.1: one request per connection', { maxInFlight: 100 }, { connections: 100, inFlight: 100 }],
    ['fewer connections bound the requests', { maxInFlight: 100, connections: 10 }, { connections: 10, inFlight: 10 }],
    [
      'streams: connections default to what max-in-flight needs',
      { maxInFlight: 100, streams: 8 },
      { connections: 13, inFlight: 100 },
    ],
    [
      'streams: given connections × streams bound it',
      { maxInFlight: 100, connections: 2, streams: 8 },
      { connections: 2, inFlight: 16 },
    ],
    [
      'streams: max-in-flight bounds it',
      { maxInFlight: 10, connections: 4, streams: 8 },
      { connections: 4, inFlight: 10 },
    ],
  ])('%s', (_l, phase, limits) => {
    expect(openLoopLimits(phase)).toEqual(limits);
  });
});

// A phase's `stages` (k6's ramping executors) in the config: what they normalise to, and each way
// they can be wrong, refused with its key.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config-parts/types.js';
import { expectedSamples } from '../../src/compare/reach.js';

type Raw = Record<string, unknown>;

function configWith(phases: Raw[], scenario: Raw = {}): string {
  return stringify({
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    scenarios: [{ name: 's', request: { url: 'http://api:8080/' }, phases, ...scenario }],
  });
}

const parse = (text: string) => parseConfigText(text, '/ws/perf-gate.yml', (p) => `/ws/${p}`);

function phaseOf(phase: Raw): NonNullable<Config['scenarios'][number]['phases'][number]> {
  const { config, problems } = parse(configWith([phase]));
  expect(problems).toEqual([]);
  return config?.scenarios[0]?.phases[0] as NonNullable<Config['scenarios'][number]['phases'][number]>;
}

describe('stages: a ramping rate or ramping connections', () => {
  it('rate stages: an open loop from the phase’s rate (0 by default), lasting the stages added up, named after its peak', () => {
    const phase = phaseOf({
      stages: [
        { duration: '10s', rate: 200 },
        { duration: '1m', rate: 200 },
        { duration: '5s', rate: 0 },
      ],
    });
    expect(phase).toEqual({
      kind: 'open',
      name: 'ramp-r200',
      rate: 200,
      durationMs: 75_000,
      maxInFlight: 1000,
      ramp: {
        from: 0,
        stages: [
          { durationMs: 10_000, to: 200 },
          { durationMs: 60_000, to: 200 },
          { durationMs: 5000, to: 0 },
        ],
      },
    });
    // what a trial can deliver: 1000 + 12000 + 500 sends
    expect(expectedSamples(phase)).toBe(13_500);
  });

  it('connections stages: a closed loop from the phase’s connections', () => {
    expect(
      phaseOf({
        name: 'climb',
        connections: 2,
        stages: [
          { duration: '3s', connections: 20 },
          { duration: '2s', connections: 5 },
        ],
      }),
    ).toEqual({
      kind: 'closed',
      name: 'climb',
      connections: 20,
      durationMs: 5000,
      ramp: {
        from: 2,
        stages: [
          { durationMs: 3000, to: 20 },
          { durationMs: 2000, to: 5 },
        ],
      },
    });
  });

  it('k6’s target: the rate when the phase gives a rate (or max-in-flight), the connections when it gives connections', () => {
    expect(phaseOf({ rate: 10, stages: [{ duration: '1s', target: 50 }] })).toMatchObject({
      kind: 'open',
      rate: 50,
      ramp: { from: 10, stages: [{ durationMs: 1000, to: 50 }] },
    });
    expect(phaseOf({ 'max-in-flight': 8, stages: [{ duration: '1s', target: 50 }] })).toMatchObject({
      kind: 'open',
      maxInFlight: 8,
      ramp: { from: 0 },
    });
    expect(phaseOf({ connections: 1, stages: [{ duration: '1s', target: 8 }] })).toMatchObject({
      kind: 'closed',
      connections: 8,
      ramp: { from: 1, stages: [{ durationMs: 1000, to: 8 }] },
    });
    // an open loop's connections are its sockets, as without stages
    expect(phaseOf({ connections: 4, stages: [{ duration: '1s', rate: 100 }] })).toMatchObject({
      kind: 'open',
      connections: 4,
      ramp: { from: 0 },
    });
  });

  it.each<[string, Raw[], Raw, string[]]>([
    [
      'a stage without a level',
      [{ stages: [{ duration: '1s' }] }],
      {},
      ['scenarios[0].phases[0].stages[0]: give the level it ramps to: rate (open loop) or connections (closed loop)'],
    ],
    [
      'a stage with two levels',
      [{ stages: [{ duration: '1s', rate: 5, connections: 2 }] }],
      {},
      ['scenarios[0].phases[0].stages[0]: give one of rate, connections, not several'],
    ],
    [
      'stages that ramp different things',
      [
        {
          stages: [
            { duration: '1s', rate: 5 },
            { duration: '1s', connections: 2 },
          ],
        },
      ],
      {},
      [
        'scenarios[0].phases[0].stages[1].connections: every stage of a phase ramps the same thing (here rate), not connections',
      ],
    ],
    [
      'k6’s target with nothing to say what it is',
      [{ stages: [{ duration: '1s', target: 5 }] }],
      {},
      [
        "scenarios[0].phases[0].stages[0].target: k6's target is ambiguous here: write rate (open loop) or connections (closed loop) in each stage, or give the phase a starting rate or connections",
      ],
    ],
    [
      'connections that are not whole',
      [{ connections: 1, stages: [{ duration: '1s', target: 2.5 }] }],
      {},
      ['scenarios[0].phases[0].stages[0].target: connections must be a whole number'],
    ],
    [
      'k6’s target as connections beyond their bound (it is bounded like a rate by the schema)',
      [{ connections: 1, stages: [{ duration: '1s', target: 20_000 }] }],
      {},
      ['scenarios[0].phases[0].stages[0].target: must be an integer from 0 to 10,000 (connections)'],
    ],
    [
      'a starting rate beside stages that ramp connections',
      [{ rate: 10, stages: [{ duration: '1s', connections: 5 }] }],
      {},
      [
        'scenarios[0].phases[0].rate: not with stages that ramp connections (a closed loop has no rate; ramp rate: in each stage for an open loop)',
      ],
    ],
    [
      'a duration beside stages',
      [{ duration: '10s', stages: [{ duration: '1s', rate: 5 }] }],
      {},
      ["scenarios[0].phases[0].duration: not with stages (the phase lasts the stages' durations added up)"],
    ],
    [
      'a request count beside stages',
      [{ requests: 100, stages: [{ duration: '1s', connections: 5 }] }],
      {},
      ['scenarios[0].phases[0].requests: not with stages (a ramp runs for a time)'],
    ],
    [
      'a ramp that never rises',
      [{ stages: [{ duration: '1s', rate: 0 }] }],
      {},
      ['scenarios[0].phases[0].stages: the rate never rises above 0, so the phase would send nothing'],
    ],
    [
      'max-in-flight in a closed-loop ramp',
      [{ connections: 1, 'max-in-flight': 4, stages: [{ duration: '1s', connections: 5 }] }],
      {},
      ['scenarios[0].phases[0].max-in-flight: only allowed in an open-loop (rate) phase'],
    ],
    [
      'stages over a day in all',
      [
        {
          stages: [
            { duration: '20h', rate: 5 },
            { duration: '5h', rate: 5 },
          ],
        },
      ],
      {},
      ['scenarios[0].phases[0].stages: last 25 h in all, over 24h'],
    ],
    ['no stages at all', [{ stages: [] }], {}, ['scenarios[0].phases[0].stages: must list at least one stage']],
    [
      'a negative level',
      [{ stages: [{ duration: '1s', rate: -5 }] }],
      {},
      ['scenarios[0].phases[0].stages[0].rate: must be a number from 0 to 1,000,000'],
    ],
    [
      'a WebSocket phase',
      [{ peers: 2, messages: 5, stages: [{ duration: '1s', rate: 5 }] }],
      { request: undefined, websocket: { url: 'ws://api:8080/ws', message: '{"id":"{{id}}"}' } },
      ['scenarios[0].phases[0].stages: not a WebSocket phase key (peers, messages, rate)'],
    ],
  ])('%s is refused with its key', (_label, phases, scenario, problems) => {
    expect(parse(configWith(phases, scenario)).problems).toEqual(problems);
  });

  it('an unknown key in a stage gets a did-you-mean', () => {
    const { problems } = parse(configWith([{ stages: [{ duration: '1s', rat: 5 }] }]));
    expect(problems[0]).toMatch(/^scenarios\[0\]\.phases\[0\]\.stages\[0\]\.rat: unknown key.*rate/);
  });
});

describe('pipelining: autocannon’s requests in flight per connection, closed loop only', () => {
  it('is a closed-loop phase key; the derived name says it; 1 is no pipelining', () => {
    expect(phaseOf({ connections: 10, duration: '5s', pipelining: 4 })).toEqual({
      kind: 'closed',
      name: 'c10-p4',
      connections: 10,
      durationMs: 5000,
      pipelining: 4,
    });
    expect(phaseOf({ connections: 2, requests: 100, pipelining: 8 })).toMatchObject({ name: 'c2-n100-p8' });
    expect(phaseOf({ connections: 2, duration: '1s', pipelining: 1 })).toEqual({
      kind: 'closed',
      name: 'c2',
      connections: 2,
      durationMs: 1000,
    });
    expect(phaseOf({ connections: 1, pipelining: 2, stages: [{ duration: '1s', connections: 4 }] })).toMatchObject({
      kind: 'closed',
      name: 'ramp-c4-p2',
      pipelining: 2,
      ramp: { from: 1 },
    });
  });

  it.each<[string, Raw[], Raw, string[]]>([
    [
      'in an open loop',
      [{ rate: 100, duration: '1s', pipelining: 4 }],
      {},
      [
        'scenarios[0].phases[0].pipelining: closed loop only (an open loop sends on a free connection; raise max-in-flight instead)',
      ],
    ],
    [
      'in an open-loop ramp',
      [{ pipelining: 4, stages: [{ duration: '1s', rate: 100 }] }],
      {},
      [
        'scenarios[0].phases[0].pipelining: closed loop only (an open loop sends on a free connection; raise max-in-flight instead)',
      ],
    ],
    [
      'beyond its bound',
      [{ connections: 1, duration: '1s', pipelining: 65 }],
      {},
      ['scenarios[0].phases[0].pipelining: must be an integer from 1 to 64'],
    ],
    [
      'with a request that asks the server to close',
      [
        { connections: 1, duration: '1s' },
        { connections: 1, duration: '1s', pipelining: 2, name: 'p' },
      ],
      { request: { url: 'http://api:8080/', headers: { Connection: 'close' } } },
      [
        'scenarios[0].phases[1].pipelining: not with a Connection: close request (the server would drop the requests queued behind the first)',
      ],
    ],
    [
      'in a WebSocket phase',
      [{ peers: 2, messages: 5, pipelining: 2 }],
      { request: undefined, websocket: { url: 'ws://api:8080/ws', message: '{"id":"{{id}}"}' } },
      ['scenarios[0].phases[0].pipelining: not a WebSocket phase key (peers, messages, rate)'],
    ],
  ])('%s is refused with its key', (_label, phases, scenario, problems) => {
    expect(parse(configWith(phases, scenario)).problems).toEqual(problems);
  });

  it('at the scenario level, the unknown key points to the phase key', () => {
    const { problems } = parse(configWith([{ connections: 1, duration: '1s' }], { pipelining: 4 }));
    expect(problems).toEqual([
      'scenarios[0].pipelining: unknown key (requests in flight per connection is a closed-loop phase key: { connections: 10, duration: 30s, pipelining: 4 })',
    ]);
  });
});

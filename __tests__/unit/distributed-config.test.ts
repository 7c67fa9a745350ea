// runner.replicas, runner.placement and sut.orchestrator: read, defaulted, and refused where a
// distributed run could not do what the config says.
import { describe, expect, it } from 'vitest';
import { onSwarm } from '../../src/config/distributed.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config-parts/types.js';

const parse = (text: string) => parseConfigText(text, '/ws/perf-gate.yml', (p) => `/ws/${p}`);

const SUT = `sut:
  compose: docker-compose.yml`;
const SWARM = `sut:
  compose: docker-compose.yml
  orchestrator: swarm`;
const http = (phases: string) => `  - name: s
    request: { url: http://api:8080/x }
    phases:
${phases}`;
const PHASES = `      - { name: c8, connections: 8, duration: 5s }
      - { name: r500, rate: 500, duration: 5s, max-in-flight: 100 }`;

function config(top: string, runner = '', scenarios = http(PHASES)): string {
  return `version: 1\n${top}\n${runner ? `runner:\n${runner}\n` : ''}scenarios:\n${scenarios}\n`;
}

function valid(text: string): Config {
  const { config: c, problems } = parse(text);
  expect(problems).toEqual([]);
  return c as Config;
}

describe('distributed keys: read', () => {
  it('defaults: one runner, compose, not on a swarm', () => {
    const c = valid(config(SUT));
    expect(c.runner.replicas).toBe(1);
    expect(c.runner.placement).toBeUndefined();
    expect(c.sut.orchestrator).toBe('compose');
    expect(onSwarm(c)).toBe(false);
  });

  it.each<[string, string, string, Partial<Config['runner']>, 'compose' | 'swarm']>([
    ['a stack with one runner', SWARM, '', { replicas: 1 }, 'swarm'],
    ['a stack with 3 replicas', SWARM, '  replicas: 3', { replicas: 3, startLeadMs: 15_000 }, 'swarm'],
    [
      'a start lead of its own',
      SWARM,
      '  replicas: 2\n  start-lead: 30s',
      { replicas: 2, startLeadMs: 30_000 },
      'swarm',
    ],
    [
      'placement: constraints and max-per-node',
      SWARM,
      '  replicas: 2\n  placement:\n    constraints: ["node.role!=manager", "node.labels.loadgen == true"]\n    max-per-node: 1',
      { replicas: 2, placement: { constraints: ['node.role!=manager', 'node.labels.loadgen == true'], maxPerNode: 1 } },
      'swarm',
    ],
    [
      'placement without constraints',
      SWARM,
      '  placement: { max-per-node: 1 }',
      { placement: { constraints: [], maxPerNode: 1 } },
      'swarm',
    ],
    [
      'a target on an overlay network, 2 replicas',
      'target: http://api:8080',
      '  replicas: 2\n  network: perf-overlay',
      { replicas: 2 },
      'compose',
    ],
  ])('%s', (_label, top, runner, expected, orchestrator) => {
    const c = valid(config(top, runner));
    expect(c.runner).toMatchObject(expected);
    expect(c.sut.orchestrator).toBe(orchestrator);
    expect(onSwarm(c)).toBe(true);
  });
});

describe('distributed keys: refused, one line per problem', () => {
  it.each<[string, string, string[]]>([
    [
      'replicas beside a compose SUT',
      config(SUT, '  replicas: 2'),
      [
        'runner.replicas: replicas run on a Docker Swarm, beside the SUT deployed as a stack: set sut.orchestrator: swarm (or give target and an overlay runner.network)',
      ],
    ],
    [
      'replicas on a target over the host network',
      config('target: http://api:8080', '  replicas: 2'),
      [
        'runner.network: replicas on a swarm join an overlay network the target is reachable on; the host network is one machine’s',
      ],
    ],
    [
      'a stack that would need building',
      `version: 1\n${SWARM}\n  build: true\nscenarios:\n${http(PHASES)}\n`,
      [
        'sut.build: a swarm stack does not build images: build them first (docker compose build) and push or load them on every node',
      ],
    ],
    [
      'placement with one runner beside compose',
      config(SUT, '  placement: { max-per-node: 1 }'),
      ['runner.placement: places runner replicas on a swarm: only with runner.replicas > 1 or sut.orchestrator: swarm'],
    ],
    ['replicas 0', config(SWARM, '  replicas: 0'), ['runner.replicas: must be an integer from 1 to 64']],
    [
      'a start lead with nothing on a swarm',
      config(SUT, '  start-lead: 30s'),
      [
        'runner.start-lead: the common start of runner replicas on a swarm: only with runner.replicas > 1 or sut.orchestrator: swarm',
      ],
    ],
    [
      'a start lead past 10 minutes',
      config(SWARM, '  start-lead: 11m'),
      ['runner.start-lead: must be a duration from 1s to 10m'],
    ],
    ['replicas 65', config(SWARM, '  replicas: 65'), ['runner.replicas: must be an integer from 1 to 64']],
    [
      'a constraint that is not one',
      config(SWARM, '  placement: { constraints: ["node.role"] }'),
      [
        'runner.placement.constraints[0]: must be a swarm placement constraint: node.id, node.hostname, node.role, node.platform.os, node.platform.arch, node.labels.NAME or engine.labels.NAME, then == or !=, then a value',
      ],
    ],
    [
      'a constraint on a field swarm does not have (a typo)',
      config(SWARM, '  placement: { constraints: ["nodes.role==worker"] }'),
      [
        'runner.placement.constraints[0]: must be a swarm placement constraint: node.id, node.hostname, node.role, node.platform.os, node.platform.arch, node.labels.NAME or engine.labels.NAME, then == or !=, then a value',
      ],
    ],
    [
      'an unknown orchestrator',
      config('sut:\n  compose: c.yml\n  orchestrator: k8s'),
      ['sut.orchestrator: must be compose or swarm'],
    ],
    [
      'phases too small to share',
      config(
        SWARM,
        '  replicas: 4',
        http(
          '      - { name: c2, connections: 2, requests: 3 }\n      - { name: r10, rate: 10, duration: 5s, max-in-flight: 3 }',
        ),
      ),
      [
        'scenarios[0].phases[0].connections: connections 2 cannot be shared by 4 runner replicas (each needs at least 1): raise it or lower runner.replicas',
        'scenarios[0].phases[0].requests: requests 3 cannot be shared by 4 runner replicas (each needs at least 1): raise it or lower runner.replicas',
        'scenarios[0].phases[1].max-in-flight: requests in flight 3 cannot be shared by 4 runner replicas (each needs at least 1): raise it or lower runner.replicas',
      ],
    ],
    [
      'resource thresholds on a stack (its containers are on the nodes)',
      config(SWARM, '', `${http(PHASES)}\n    thresholds: { memory: { max: 64MiB } }`),
      [
        "scenarios[0].thresholds.memory: memory is sampled from compose containers on this engine; a swarm stack's run on its nodes",
      ],
    ],
    [
      'a sweep level too small to share',
      config(SWARM, '  replicas: 3', `${http(PHASES)}\n    sweep: { connections: [1, 8], duration: 5s }`),
      [
        'scenarios[0].sweep.connections: connections 1 cannot be shared by 3 runner replicas (each needs at least 1): raise it or lower runner.replicas',
      ],
    ],
    [
      'WebSocket peers on replicas',
      config(
        SWARM,
        '  replicas: 2',
        `  - name: chat
    websocket: { url: "ws://chat:8080/ws?u={{peer}}", message: '{"id":"{{id}}","to":"{{other}}"}' }
    phases:
      - { name: p10, peers: 10, messages: 10 }`,
      ),
      ['scenarios[0].websocket: WebSocket peers push to one another and run on one runner; runner.replicas must be 1'],
    ],
  ])('%s', (_label, text, expected) => {
    const { config: c, problems } = parse(text);
    expect(c).toBeUndefined();
    expect(problems.map((p) => p.replace(/^\/ws\/perf-gate\.yml:\d+: /, ''))).toEqual(expected);
  });
});

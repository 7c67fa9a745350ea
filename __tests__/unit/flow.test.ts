// A scenario's `flow` (issue 34, step 3) as the config reads it: steps as mix entries with their
// extract rules, the iteration's results as one more entry, and every mistake one line naming the key.
import { placeholderKindProblems } from '../../src/config/placeholder-kinds.js';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import { protocolOf } from '../../src/protocols/index.js';
import { resolveHttp } from '../../src/protocols/http/resolve.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import type { PlanHttp } from '../../src/runner-kit/plan.js';

type Raw = Record<string, unknown>;
const CREATE = {
  name: 'create',
  url: 'http://api:8080/orders',
  method: 'POST',
  body: { item: 'x' },
  expect: { status: 201 },
  extract: { id: { json: '$.id' } },
};
const READ = { name: 'read', url: 'http://api:8080/orders/{{id}}', expect: { json: { '$.id': '{{id}}' } } };

function parse(flow: unknown, phases: unknown[] = [{ connections: 2, duration: '1s' }], extra: Raw = {}) {
  const raw = {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    scenarios: [{ name: 'orders', flow, phases, ...extra }],
  };
  const r = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  // as loadConfig checks it: each protocol's resolve, then the placeholders' kinds
  const resolved = r.config
    ? [
        ...resolveHttp(r.config.scenarios, { resolveIn: (_b, p) => p, readMessages: () => [], readText: () => '' }),
        ...placeholderKindProblems(r.config),
      ]
    : [];
  return { ...r, problems: [...r.problems, ...resolved] };
}

describe('flow in the config', () => {
  it('steps are mix entries in order; the plan carries their rules; the iteration is an entry of its own', () => {
    const { config, problems } = parse([CREATE, READ]);
    expect(problems).toEqual([]);
    const s = config!.scenarios[0]!;
    const target = s.target as Extract<typeof s.target, { kind: 'http' }>;
    expect(target.mix?.map((e) => [e.name, e.weight, e.request.method, e.request.url])).toEqual([
      ['create', 1, 'POST', 'http://api:8080/orders'],
      ['read', 1, 'GET', 'http://api:8080/orders/{{id}}'],
    ]);
    expect(target.flow).toEqual({ extract: [[{ name: 'id', rule: { json: '$.id' } }], []] });
    expect(
      protocolOf(target)
        .entries(target)
        .map((e) => e.name),
    ).toEqual(['create', 'read', 'iteration']);
    const plan = buildPlan(config!.scenarios, [], () => []);
    expect((plan.scenarios[0]!.target as PlanHttp).flow).toEqual(target.flow);
  });

  it.each<[string, unknown, unknown[] | undefined, string[]]>([
    [
      'a value used before it is extracted',
      [{ ...READ, name: 'first' }, CREATE],
      undefined,
      [
        'scenarios[0].flow[0]: uses {{id}}, which a later step (scenarios[0].flow[1]) extracts; a step sees only the values of the steps before it',
      ],
    ],
    [
      'a value no step extracts (a typo)',
      [CREATE, { ...READ, url: 'http://api:8080/orders/{{idd}}' }],
      undefined,
      ['scenarios[0].flow[1].url: {{idd}} is not a value a step of the flow extracts (did you mean {{id}}?)'],
    ],
    [
      'a step named iteration',
      [{ ...CREATE, name: 'iteration' }, READ],
      undefined,
      ['scenarios[0].flow[0].name: "iteration" names the flow\'s iteration results; call the step something else'],
    ],
    [
      'one value extracted by two steps',
      [CREATE, { ...READ, extract: { id: { json: '$.id' } } }],
      undefined,
      ['scenarios[0].flow[1].extract.id: id is extracted by scenarios[0].flow[0] too'],
    ],
    [
      'pipelining',
      [CREATE, READ],
      [{ connections: 2, duration: '1s', pipelining: 4 }],
      ["scenarios[0].phases[0]: a flow's steps wait on one another: no pipelining or streams"],
    ],
    [
      'streams in an open loop',
      [CREATE, READ],
      [{ rate: 10, duration: '1s', streams: 2 }],
      [
        "scenarios[0].phases[0]: a flow's steps wait on one another: no pipelining or streams",
        'scenarios[0].phases[0].streams: HTTP/2 only: give the request http: 2 (over HTTP/1.1, pipelining keeps several requests in flight)',
      ],
    ],
    [
      'bodies in a step',
      [{ ...CREATE, body: undefined, bodies: 'b.jsonl' }, READ],
      undefined,
      ["scenarios[0].flow[0].bodies: a flow's step sends one body (give body; {{data.COLUMN}} varies it)"],
    ],
    [
      'a function in a check',
      [CREATE, { ...READ, expect: { body: '{{uuid()}}' } }],
      undefined,
      [
        "scenarios[0].flow[1].expect: a check compares with the flow's values ({{name}}) only, not {{data.…}} or functions",
      ],
    ],
    [
      'a weight',
      [{ ...CREATE, weight: 2 }, READ],
      undefined,
      [
        'scenarios[0].flow[0].weight: unknown key (keys here: url, http, method, headers, body, bodies, timeout, expect, name, thresholds, extract)',
      ],
    ],
    [
      'another origin',
      [CREATE, { ...READ, url: 'http://other:8080/orders/{{id}}' }],
      undefined,
      [
        "scenarios[0].flow[1].url: must have the origin of flow[0] (http://api:8080): a phase's flow shares one set of connections",
      ],
    ],
  ])('%s', (_label, flow, phases, problems) => {
    const r = parse(flow, phases);
    expect(r.problems).toEqual(problems);
  });

  it('iteration thresholds gate the iteration row; without them it is reported only', () => {
    const gated = parse([CREATE, READ], undefined, { iteration: { thresholds: { p99: { below: '50ms' } } } });
    expect(gated.problems).toEqual([]);
    const t = gated.config!.scenarios[0]!.target;
    const iteration = protocolOf(t)
      .entries(t)
      .find((e) => e.name === 'iteration');
    expect(iteration?.thresholds.p99).toMatchObject({ limit: 50_000 });
    const plain = parse([CREATE, READ]).config!.scenarios[0]!.target;
    expect(protocolOf(plain).entries(plain).at(-1)).toEqual({ name: 'iteration', thresholds: {} });
    const alone = parse(undefined, undefined, {
      request: { url: 'http://api:8080/' },
      iteration: { thresholds: { p99: { below: '50ms' } } },
    });
    expect(alone.problems).toEqual(["scenarios[0].iteration: only with flow (a flow's iterations)"]);
  });

  it('a flow beside a request: one line naming the keys', () => {
    const r = parse([CREATE], undefined, { request: { url: 'http://api:8080/' } });
    expect(r.problems).toEqual([
      'scenarios[0]: give exactly one of request (one request), requests (a mix), flow (a flow of steps), websocket (WebSocket peers) or grpc (gRPC calls)',
    ]);
  });
});

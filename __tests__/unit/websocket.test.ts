import { createHmac } from 'node:crypto';
// WebSocket scenarios (issue 10, item 1): the config, the message templates shared by host and
// runner, the delivery metric and the `min` limit.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { compareScenario, describeBand } from '../../src/compare/compare.js';
import { metricValue, unmeasured } from '../../src/compare/metrics.js';
import { expandPlan } from '../../src/config/env.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config, Scenario } from '../../src/config-parts/types.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import { compileTemplate, idsIn, messageId, render } from '../../src/runner-kit/ws-template.js';
import { scenarioHash } from '../../src/results/files.js';
import type { ScenarioResult } from '../../src/results/types.js';
import { phase, targetOf } from './fixtures.js';

const WS = {
  url: 'ws://broker:8080/ws?peer={{peer}}',
  hello: ['{"type":"hello","peer":{{peer}}}'],
  'hello-reply': true,
  message: '{"type":"dm","id":"{{id}}","to":{{other}},"n":{{n}}}',
  json: true,
  drain: '2s',
  thresholds: { push: { p99: { below: '50ms' } }, connect: { p99: { below: '1s' } } },
};

function config(
  websocket: unknown,
  phases: unknown[] = [{ peers: 10, messages: 100 }],
  extra: Record<string, unknown> = {},
): { config?: Config; problems: string[] } {
  const text = stringify({
    version: 1,
    sut: { compose: 'c.yml' },
    scenarios: [{ name: 'broker', websocket, phases, ...extra }],
  });
  return parseConfigText(text, '/ws/perf-gate.yml', (p) => `/ws/${p}`);
}

describe('message templates', () => {
  it('renders every placeholder, spaces inside the braces allowed', () => {
    const t = compileTemplate('{"id":"{{id}}","from":{{ peer }},"to":{{other}},"n":{{n}}}');
    expect(render(t, { id: 'pg-ab-1-2', peer: 1, other: 3, n: 2 })).toBe('{"id":"pg-ab-1-2","from":1,"to":3,"n":2}');
    expect([...t.uses].sort()).toEqual(['id', 'n', 'other', 'peer']);
  });
  it('text without placeholders renders as itself', () => {
    expect(render(compileTemplate('ping'), { id: '', peer: 0, other: 0, n: 0 })).toBe('ping');
  });
  it('the request templates’ functions are made per message; data has no place here', () => {
    const t = compileTemplate('{"id":"{{id}}","ref":"{{uuid()}}","sig":"{{hmacSha256(\'k\', \'x\')}}"}');
    const one = JSON.parse(render(t, { id: 'a', peer: 0, other: 1, n: 0 })) as Record<string, string>;
    const two = JSON.parse(render(t, { id: 'b', peer: 0, other: 1, n: 1 })) as Record<string, string>;
    expect(one.ref).toMatch(/^[0-9a-f-]{36}$/);
    expect(one.ref).not.toBe(two.ref);
    expect(one.sig).toBe(createHmac('sha256', 'k').update('x').digest('hex'));
    expect([...t.uses]).toEqual(['id']);
    expect(() => compileTemplate('{{data.name}}')).toThrow(
      '{{data.name}}: the scenario has no data file (give data: { file: ... })',
    );
  });
  it('an unknown placeholder is named', () => {
    expect(() => compileTemplate('{{to}}')).toThrow(
      'unknown placeholder {{to}} (use {{id}}, {{peer}}, {{other}}, {{n}}, or a function: uuid(), int(), now(), base64(), hmacSha256())',
    );
  });
  it.each<[string, Array<[number, number]>]>([
    ['{"type":"ack","id":"pg-n0nce-3-17"}', [[3, 17]]],
    [
      'batch pg-n0nce-1-2 and pg-n0nce-10-200!',
      [
        [1, 2],
        [10, 200],
      ],
    ],
    ['another stage: pg-other-1-2', []],
    ['truncated: pg-n0nce-1-', []],
    ['no digits: pg-n0nce-x-1', []],
  ])('finds the ids of this stage in %j', (text, ids) => {
    expect([...idsIn(text, 'n0nce')]).toEqual(ids);
  });
  it('ids round-trip', () => {
    expect([...idsIn(`x${messageId('k', 12, 345)}y`, 'k')]).toEqual([[12, 345]]);
  });
});

describe('config: websocket scenarios', () => {
  it('normalises the peers, the templates, the drain and the push/connect thresholds', () => {
    const { config: c, problems } = config(WS, [
      { peers: 10, messages: 100 },
      { name: 'fast', peers: 25, messages: 50, rate: 20 },
    ]);
    expect(problems).toEqual([]);
    const s = c?.scenarios[0] as Scenario;
    expect(targetOf(s, 'ws').websocket).toEqual({
      url: 'ws://broker:8080/ws?peer={{peer}}',
      headers: {},
      hello: ['{"type":"hello","peer":{{peer}}}'],
      helloReply: true,
      message: '{"type":"dm","id":"{{id}}","to":{{other}},"n":{{n}}}',
      drainMs: 2000,
      thresholds: { push: { p99: { limit: 50_000 } }, connect: { p99: { limit: 1_000_000 } } },
    });
    expect(s.phases).toEqual([
      { kind: 'ws', name: 'p10-m100', peers: 10, messages: 100 },
      { kind: 'ws', name: 'fast', peers: 25, messages: 50, rate: 20 },
    ]);
  });
  it('an object message is JSON; drain defaults to 5s, hello to none', () => {
    const { config: c } = config({ url: 'ws://b/ws', message: { id: '{{id}}', to: '{{other}}' } });
    expect(targetOf(c?.scenarios[0], 'ws').websocket).toMatchObject({
      message: '{"id":"{{id}}","to":"{{other}}"}',
      hello: [],
      helloReply: false,
      drainMs: 5000,
    });
  });
  it('push: one is the default and not written; all and none are kept', () => {
    const ws = (push?: string) =>
      targetOf(config(push ? { ...WS, push, thresholds: undefined } : WS).config?.scenarios[0], 'ws').websocket;
    expect(ws()).not.toHaveProperty('push');
    expect(ws('one')).not.toHaveProperty('push');
    expect(ws('all')).toMatchObject({ push: 'all' });
    expect(ws('none')).toMatchObject({ push: 'none' });
  });
  it.each<[string, unknown, unknown[], Record<string, unknown>, string[]]>([
    [
      'push: none with push thresholds',
      { ...WS, push: 'none' },
      [{ peers: 2, messages: 1 }],
      {},
      [
        'scenarios[0].websocket.thresholds.push: no push to gate with push: none (an echo server answers the sender only)',
      ],
    ],
    [
      'push: none with a delivery threshold',
      { ...WS, push: 'none', thresholds: undefined },
      [{ peers: 2, messages: 1 }],
      { thresholds: { delivery: { min: '99%' } } },
      ['scenarios[0].thresholds.delivery: nothing is delivered to other peers with websocket.push: none'],
    ],
    [
      'an unknown push',
      { ...WS, push: 'some' },
      [{ peers: 2, messages: 1 }],
      {},
      ['scenarios[0].websocket.push: must be one, all or none'],
    ],
    [
      'websocket and request together',
      WS,
      [{ peers: 2, messages: 1 }],
      { request: { url: 'http://b/' } },
      [
        'scenarios[0]: give exactly one of request (one request), requests (a mix), flow (a flow of steps), websocket (WebSocket peers) or grpc (gRPC calls)',
      ],
    ],
    [
      'an http URL',
      { ...WS, url: 'http://b/ws' },
      [{ peers: 2, messages: 1 }],
      {},
      ['scenarios[0].websocket.url: must be a ws:// or wss:// URL'],
    ],
    [
      'a message without {{id}}',
      { ...WS, message: '{"to":{{other}}}' },
      [{ peers: 2, messages: 1 }],
      {},
      ['scenarios[0].websocket.message: must contain {{id}} (acks and pushes are matched by it)'],
    ],
    [
      'an unknown placeholder',
      { ...WS, message: '{{id}} {{recipient}}' },
      [{ peers: 2, messages: 1 }],
      {},
      [
        'scenarios[0].websocket.message: unknown placeholder {{recipient}} (use {{id}}, {{peer}}, {{other}}, {{n}}, or a function: uuid(), int(), now(), base64(), hmacSha256())',
      ],
    ],
    [
      'a message that is not JSON when JSON is declared',
      { ...WS, message: '{"id":"{{id}}",}' },
      [{ peers: 2, messages: 1 }],
      {},
      [
        expect.stringMatching(
          /^scenarios\[0\]\.websocket\.message: not valid JSON once its placeholders are filled in \(/,
        ),
      ],
    ],
    [
      'a hello that is not JSON when JSON is declared',
      { ...WS, hello: ['hello {{peer}}'] },
      [{ peers: 2, messages: 1 }],
      {},
      [expect.stringMatching(/^scenarios\[0\]\.websocket\.hello\[0\]: not valid JSON/)],
    ],
    [
      'a message placeholder in the URL',
      { ...WS, url: 'ws://b/ws?to={{other}}' },
      [{ peers: 2, messages: 1 }],
      {},
      ['scenarios[0].websocket.url: only {{peer}} can be used in the URL, not {{other}}'],
    ],
    [
      'hello-reply without a hello',
      { ...WS, hello: undefined },
      [{ peers: 2, messages: 1 }],
      {},
      ['scenarios[0].websocket.hello-reply: needs hello messages to answer'],
    ],
    [
      'one peer',
      WS,
      [{ peers: 1, messages: 10 }],
      {},
      ['scenarios[0].phases[0].peers: must be at least 2 (messages go to another peer)'],
    ],
    [
      'HTTP phase keys in a WebSocket phase',
      WS,
      [{ peers: 2, messages: 10, connections: 5, duration: '5s' }],
      {},
      [
        'scenarios[0].phases[0].connections: not a WebSocket phase key (peers, messages, rate)',
        'scenarios[0].phases[0].duration: not a WebSocket phase key (peers, messages, rate)',
      ],
    ],
    ['no messages', WS, [{ peers: 2 }], {}, ['scenarios[0].phases[0]: a WebSocket phase needs peers and messages']],
    [
      'a port out of range',
      { ...WS, url: 'ws://broker:99999/ws' },
      [{ peers: 2, messages: 1 }],
      {},
      ['scenarios[0].websocket.url: must be a ws:// or wss:// URL with a port from 1 to 65535'],
    ],
    [
      'delivery among the push thresholds',
      { ...WS, thresholds: { push: { delivery: { min: '99%' } } } },
      [{ peers: 2, messages: 1 }],
      {},
      [
        'scenarios[0].websocket.thresholds.push.delivery: unknown key (metrics: p50, p90, p95, p99, p99.9, max, mean, rps, bytes-per-sec, errors, error-rate, or any percentile like p97.5 or p99.99; k6 metrics: http_req_duration, http_req_failed, http_reqs)',
      ],
    ],
    [
      'a sweep',
      WS,
      [{ peers: 2, messages: 1 }],
      { sweep: { connections: [1, 2], duration: '1s' } },
      ['scenarios[0].sweep: not available for a WebSocket scenario (give phases of several peer counts)'],
    ],
    [
      'a SUT resource in the push thresholds',
      { ...WS, thresholds: { push: { memory: { max: '1GiB' } } } },
      [{ peers: 2, messages: 1 }],
      {},
      [
        'scenarios[0].websocket.thresholds.push.memory: unknown key (metrics: p50, p90, p95, p99, p99.9, max, mean, rps, bytes-per-sec, errors, error-rate, or any percentile like p97.5 or p99.99; k6 metrics: http_req_duration, http_req_failed, http_reqs)',
      ],
    ],
  ])('%s: one line naming the key', (_what, websocket, phases, extra, expected) => {
    const { config: c, problems } = config(websocket, phases, extra);
    expect(c).toBeUndefined();
    expect(problems).toEqual(expected);
  });
  it('peers and messages in an HTTP scenario are refused', () => {
    const text = stringify({
      version: 1,
      sut: { compose: 'c.yml' },
      scenarios: [{ name: 's', request: { url: 'http://a/' }, phases: [{ connections: 1, duration: '1s', peers: 2 }] }],
    });
    expect(parseConfigText(text, '/ws/p.yml', (p) => p).problems).toEqual([
      'scenarios[0].phases[0].peers: only in a WebSocket scenario (websocket:)',
    ]);
  });
});

describe('the plan and the hash of a WebSocket scenario', () => {
  const s = (): Scenario => config(WS).config?.scenarios[0] as Scenario;
  it('hands the runner the templates without the thresholds', () => {
    const plan = buildPlan([s()], [], () => []);
    expect(targetOf(plan.scenarios[0], 'ws').websocket).toEqual({
      url: WS.url,
      headers: {},
      hello: WS.hello,
      helloReply: true,
      message: WS.message,
      drainMs: 2000,
    });
  });
  it('fills ${NAME} in the URL, headers and templates, naming the key when unset', () => {
    const raw = { ...WS, url: 'ws://b/ws?token=${TOKEN}', headers: { authorization: 'Bearer ${TOKEN}' } };
    const plan = buildPlan([config(raw).config?.scenarios[0] as Scenario], [], () => []);
    const out = expandPlan(plan, { TOKEN: 't0k' }, () => {});
    expect(targetOf(out.scenarios[0], 'ws').websocket).toMatchObject({
      url: 'ws://b/ws?token=t0k',
      headers: { authorization: 'Bearer t0k' },
    });
    expect(() => expandPlan(plan, {}, () => {})).toThrow('scenarios[0] (broker).websocket.url: ${TOKEN} is not set');
  });
  it('push: none leaves the push entry out (its thresholds refused above); push is in the plan when not one', () => {
    const none = config({ ...WS, push: 'none', thresholds: undefined }).config?.scenarios[0] as Scenario;
    expect(targetOf(buildPlan([none], [], () => []).scenarios[0], 'ws').websocket.push).toBe('none');
  });
  it('changes with the templates, not with the thresholds', () => {
    const base = scenarioHash(s());
    expect(scenarioHash(config({ ...WS, push: 'one' }).config?.scenarios[0] as Scenario)).toBe(base);
    expect(scenarioHash(config({ ...WS, push: 'all' }).config?.scenarios[0] as Scenario)).not.toBe(base);
    expect(scenarioHash(config({ ...WS, thresholds: {} }).config?.scenarios[0] as Scenario)).toBe(base);
    expect(scenarioHash(config({ ...WS, drain: '3s' }).config?.scenarios[0] as Scenario)).not.toBe(base);
    expect(scenarioHash(config({ ...WS, message: `${WS.message} ` }).config?.scenarios[0] as Scenario)).not.toBe(base);
  });
});

describe('delivery and the min limit', () => {
  const withDelivery = (sent: number, delivered: number) => ({
    ...phase('p10', {}),
    merged: { ...phase('p10', {}).merged, delivery: { sent, delivered } },
  });
  it('delivery is delivered / sent, and unmeasured outside WebSocket phases', () => {
    expect(metricValue(withDelivery(200, 198).merged, 'delivery')).toBe(0.99);
    expect(unmeasured(phase('c10', {}).merged, 'delivery')).toBe('delivery is measured in WebSocket phases only');
    expect(unmeasured(withDelivery(0, 0).merged, 'delivery')).toBe('no messages were sent');
  });
  it('a delivery below its minimum fails the gate without a baseline; a drop beyond the band with one', () => {
    const current: ScenarioResult = { name: 'b', scenarioHash: 'h', phases: [withDelivery(1000, 990)] };
    const { comparisons } = compareScenario(current, { delivery: { min: 0.999 } }, undefined);
    expect(comparisons[0]).toMatchObject({
      metric: 'delivery',
      result: 'regression',
      reason: 'below the minimum 99.9%',
    });
    expect(describeBand('delivery', { regress: 0.01, min: 0.999 })).toBe('-1%, ≥ 99.9%');
  });
  it.each<[Record<string, unknown>, string]>([
    [
      { delivery: { below: '99%' } },
      'scenarios[0].thresholds.delivery: delivery gets worse downwards; an upper limit (below/max) makes no sense here (use min)',
    ],
    [
      { p99: { min: '1ms' } },
      'scenarios[0].thresholds.p99.min: p99 gets worse upwards; give an upper limit (below or max) instead',
    ],
  ])('%j is refused', (thresholds, problem) => {
    expect(config(WS, undefined, { thresholds }).problems).toEqual([problem]);
  });
  it('delivery in an HTTP scenario is refused, naming where it came from', () => {
    const text = (extra: Record<string, unknown>) =>
      stringify({
        version: 1,
        sut: { compose: 'c.yml' },
        ...extra,
        scenarios: [{ name: 's', request: { url: 'http://a/' }, phases: [{ connections: 1, duration: '1s' }] }],
      });
    expect(
      parseConfigText(text({ defaults: { thresholds: { delivery: { min: '99%' } } } }), '/ws/p.yml', (p) => p).problems,
    ).toEqual([
      'scenarios[0].thresholds.delivery: delivery is measured in WebSocket scenarios only (given in defaults.thresholds)',
    ]);
  });
  it('rps takes a minimum too', () => {
    const { config: c, problems } = config(WS, undefined, { thresholds: { rps: { min: 500 } } });
    expect(problems).toEqual([]);
    expect(c?.scenarios[0]?.thresholds.rps).toEqual({ min: 500 });
  });
});

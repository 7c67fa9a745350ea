// Protocols are a seam (issue 22): a target is a discriminated union keyed by `kind`, each kind has
// one engine in the runner's map, and switches over a kind are exhaustive. The `@ts-expect-error`
// lines below are checked by tsc (the tests are type-checked): if a switch missing a kind or a map
// missing an engine compiled, they would be unused, and that is a compile error.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINES, engineOf } from '../../runner/src/engine.js';
import type { Engine } from '../../runner/src/engines/engine.js';
import { ROOT } from '../integration/helpers.js';
import { expandPlan } from '../../src/config/env.js';
import { configJsonSchema } from '../../src/config/schema.js';
import type { PlanScenario, PlanTarget, RunnerPlan } from '../../src/runner-kit/plan.js';
import {
  type HostProtocol,
  planProtocolOf,
  PROTOCOLS,
  rawKind,
  type TargetOf,
  urlKeyOf,
} from '../../src/protocols/index.js';
import type { ScenarioTarget } from '../../src/config-parts/types.js';
import type { RawScenario } from '../../src/protocols/schema.js';
import { assertNever, PROTOCOL_KINDS, type PlanTargetOf, type ProtocolKind } from '../../src/runner-kit/protocols.js';

/** One plan target of every kind. */
const TARGETS: { [K in ProtocolKind]: PlanTargetOf<K> } = {
  http: { kind: 'http', request: { url: 'http://api:8080/', method: 'GET', headers: {} } },
  ws: {
    kind: 'ws',
    websocket: { url: 'ws://b:8080/ws', headers: {}, hello: [], message: '{{id}}', drainMs: 1000 },
  },
  grpc: {
    kind: 'grpc',
    grpc: {
      url: 'grpc://db:50051',
      service: 's.S',
      method: 'M',
      path: '/s.S/M',
      messages: [''],
      metadata: {},
      channels: 1,
      deadlineMs: 2000,
    },
  },
};

describe('the protocol kinds', () => {
  it('are listed once each', () => {
    expect(PROTOCOL_KINDS).toEqual(['http', 'ws', 'grpc']);
  });

  it.each(PROTOCOL_KINDS)('%s has one engine in the runner’s map', (kind) => {
    expect(Object.keys(ENGINES).sort()).toEqual([...PROTOCOL_KINDS].sort());
    expect(engineOf(TARGETS[kind])).toBe(ENGINES[kind]);
  });

  it.each(PROTOCOL_KINDS)('%s has one host module (its folder) and one engine module', (kind) => {
    expect(Object.keys(PROTOCOLS).sort()).toEqual([...PROTOCOL_KINDS].sort());
    expect(existsSync(join(ROOT, 'src/protocols', kind, 'schema.ts'))).toBe(true);
    expect(existsSync(join(ROOT, 'src/protocols', kind, 'normalize.ts'))).toBe(true);
    expect(existsSync(join(ROOT, 'src/protocols', kind, 'plan.ts'))).toBe(true);
    expect(existsSync(join(ROOT, 'runner/src/engines', `${kind}.ts`))).toBe(true);
  });

  it.each(PROTOCOL_KINDS)('%s: the host expands its plan target and bounds its requests’ time', (kind) => {
    const scenario: PlanScenario = { name: kind, target: TARGETS[kind], warmupMs: 0, trials: 1, phases: [] };
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 1000,
      ready: [],
      scenarios: [scenario],
    };
    expect(expandPlan(plan, {}, () => {}).scenarios[0]?.target).toEqual(TARGETS[kind]);
    expect(planProtocolOf(TARGETS[kind]).longestTimeoutMs(TARGETS[kind], 1000)).toBeGreaterThanOrEqual(1000);
    // a gRPC call may take its deadline, a request its own timeout, when longer than the scenario's
    expect(planProtocolOf(TARGETS[kind]).longestTimeoutMs(TARGETS[kind], 1)).toBe(
      kind === 'grpc'
        ? TARGETS.grpc.grpc.deadlineMs
        : kind === 'http'
          ? Math.max(1, TARGETS.http.request.timeoutMs ?? 1)
          : 1,
    );
  });

  it('a raw scenario names its protocol by its keys; one that names none has none (no silent HTTP)', () => {
    const base = { name: 's', phases: [] } as unknown as RawScenario;
    expect(rawKind({ ...base, request: {} } as RawScenario)).toBe('http');
    expect(rawKind({ ...base, requests: [] } as RawScenario)).toBe('http');
    expect(rawKind({ ...base, websocket: {} } as RawScenario)).toBe('ws');
    expect(rawKind({ ...base, grpc: {} } as RawScenario)).toBe('grpc');
    expect(rawKind(base)).toBe(undefined);
    // several keys (refused with a problem): read in one order, every kind placed in it
    expect(rawKind({ ...base, request: {}, websocket: {} } as RawScenario)).toBe('ws');
    expect(rawKind({ ...base, request: {}, grpc: {} } as RawScenario)).toBe('grpc');
    expect(rawKind({ ...base, grpc: {}, websocket: {} } as RawScenario)).toBe('ws');
    // each protocol's keys are keys of the schema's scenario, and these are all of them
    const keys = Object.values(PROTOCOLS).flatMap((p) => p.keys.map((k) => k.key));
    const scenario = (configJsonSchema() as { properties: { scenarios: { items: { properties: object } } } }).properties
      .scenarios.items.properties;
    for (const key of keys) expect(Object.keys(scenario)).toContain(key);
    expect(keys.sort()).toEqual(['flow', 'grpc', 'request', 'requests', 'websocket']);
  });

  it.each([
    [{ kind: 'http', request: {} }, 'request.url'],
    [{ kind: 'http', request: {}, mix: [{}] }, 'requests[0].url'],
    [{ kind: 'http', request: {}, flow: {} }, 'flow[0].url'],
    [{ kind: 'ws', websocket: {} }, 'websocket.url'],
    [{ kind: 'grpc', grpc: {} }, 'grpc.url'],
  ] as const)('a problem about a %o target’s URL names the key it is written at: %s', (target, key) => {
    expect(urlKeyOf(target as unknown as ScenarioTarget)).toBe(key);
    // at one of its own protocol's keys
    expect(PROTOCOLS[target.kind].keys.map((k) => k.key)).toContain(key.split(/[.[]/)[0]);
  });

  it('what only some protocols cannot do is said by the protocol: WebSocket peers stay on one runner', () => {
    expect(Object.entries(PROTOCOLS).map(([k, p]) => [k, p.noReplicas?.key])).toEqual([
      ['http', undefined],
      ['ws', 'websocket'],
      ['grpc', undefined],
    ]);
  });

  it('the HTTP/2 transport knows no protocol above it: how a stream ends is counted by the target’s rules', () => {
    const text = readFileSync(join(ROOT, 'runner/src/h2/connection.ts'), 'utf8');
    expect(text).not.toMatch(/'grpc'|grpcStatusOf|DEADLINE_EXCEEDED|checkResponse/);
    expect(readFileSync(join(ROOT, 'src/config/load.ts'), 'utf8')).not.toMatch(/kind === 'grpc'/);
  });

  it('h2/ and the gRPC engine reach the connection interface without the HTTP/1.1 connection (no import circle)', () => {
    for (const file of ['h2/connection.ts', 'grpc.ts', 'ws.ts']) {
      const text = readFileSync(join(ROOT, 'runner/src', file), 'utf8');
      expect(text, file).not.toMatch(/from '\.{1,2}\/connection\.js'/);
    }
  });

  it('a kind from outside the types (a plan of another version) is refused by name', () => {
    expect(() => planProtocolOf({ kind: 'mqtt' } as unknown as PlanTarget)).toThrow('unhandled kind: "mqtt"');
  });
});

// Type-level: nothing below runs; tsc checks it.

/** A switch that forgot gRPC: its default is not `never`, so assertNever does not compile. */
export function forgotGrpc(target: PlanTarget): string {
  switch (target.kind) {
    case 'http':
      return target.request.url;
    case 'ws':
      return target.websocket.url;
    default:
      // @ts-expect-error -- grpc is not handled
      return assertNever(target);
  }
}

/** A new kind added to the union: every exhaustive switch over the old kinds stops compiling. */
export function newKind(target: PlanTarget | { kind: 'mqtt'; broker: string }): string {
  switch (target.kind) {
    case 'http':
      return target.request.url;
    case 'ws':
      return target.websocket.url;
    case 'grpc':
      return target.grpc.url;
    default:
      // @ts-expect-error -- mqtt is not handled
      return assertNever(target);
  }
}

/** The host's protocol map without one kind does not compile. */
const { ws: _ws, ...withoutWs } = PROTOCOLS;
// @ts-expect-error -- ws has no host module
export const partialHost: { [K in ProtocolKind]: HostProtocol<TargetOf<K>> } = withoutWs;

/** The runner's engine map without one kind does not compile. */
const { grpc: _grpc, ...withoutGrpc } = ENGINES;
// @ts-expect-error -- grpc has no engine
export const partial: { [K in ProtocolKind]: Engine<PlanTargetOf<K>> } = withoutGrpc;

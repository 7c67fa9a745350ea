import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/config-parts/types.js';
import { baselinePath, scenarioHash, stableStringify, writeFileAtomic } from '../../src/results/files.js';
import { targetOf } from './fixtures.js';

describe('stableStringify', () => {
  it.each<[string, unknown, string]>([
    ['a scalar', 42, '42\n'],
    ['a string', 'a', '"a"\n'],
    ['null', null, 'null\n'],
    ['an empty object', {}, '{}\n'],
    ['sorted top-level keys', { b: 1, a: 2 }, '{\n  "a": 2,\n  "b": 1\n}\n'],
    [
      'sorted at every depth',
      { z: { y: 1, x: { w: 2, v: 3 } }, a: [{ d: 1, c: 2 }] },
      '{\n  "a": [\n    {\n      "c": 2,\n      "d": 1\n    }\n  ],\n  "z": {\n    "x": {\n      "v": 3,\n      "w": 2\n    },\n    "y": 1\n  }\n}\n',
    ],
    ['arrays kept in order', [3, 1, 2], '[\n  3,\n  1,\n  2\n]\n'],
    ['undefined values dropped', { a: undefined, b: 1, c: { d: undefined } }, '{\n  "b": 1,\n  "c": {}\n}\n'],
    ['numeric-looking keys', { '500': 1, '200': 2, b: 3 }, '{\n  "200": 2,\n  "500": 1,\n  "b": 3\n}\n'],
  ])('%s', (_label, value, text) => {
    expect(stableStringify(value)).toBe(text);
  });

  it('gives the same text for differently ordered input', () => {
    const one = { schema: 's', phases: [{ name: 'c10', merged: { rps: 1, latency: { p50: 1, p99: 2 } } }], b: null };
    const two = { b: null, phases: [{ merged: { latency: { p99: 2, p50: 1 }, rps: 1 }, name: 'c10' }], schema: 's' };
    expect(stableStringify(two)).toBe(stableStringify(one));
  });

  it('round-trips through JSON.parse', () => {
    const value = { b: [1, { c: 'x' }], a: { e: true, d: null } };
    expect(JSON.parse(stableStringify(value))).toEqual(value);
  });

  it('does not modify its input', () => {
    const value = { b: 1, a: { d: 1, c: 2 } };
    stableStringify(value);
    expect(Object.keys(value)).toEqual(['b', 'a']);
    expect(Object.keys(value.a)).toEqual(['d', 'c']);
  });
});

describe('writeFileAtomic', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'perf-gate-unit-files-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the file', () => {
    const path = join(dir, 'a.json');
    writeFileAtomic(path, '{"a":1}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
  });

  it('creates missing directories', () => {
    const path = join(dir, 'deep', 'er', 'baselines', 'search.json');
    writeFileAtomic(path, 'x');
    expect(readFileSync(path, 'utf8')).toBe('x');
  });

  it('replaces an existing file', () => {
    const path = join(dir, 'replace.json');
    writeFileSync(path, 'old content that is longer');
    writeFileAtomic(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
  });

  it('leaves no temporary files behind', () => {
    const sub = join(dir, 'clean');
    for (let i = 0; i < 5; i++) writeFileAtomic(join(sub, `f${i}.json`), String(i));
    writeFileAtomic(join(sub, 'f0.json'), 'again');
    expect(readdirSync(sub).sort()).toEqual(['f0.json', 'f1.json', 'f2.json', 'f3.json', 'f4.json']);
  });
});

describe('baselinePath', () => {
  it('names the file after the scenario', () => {
    expect(baselinePath('baselines', 'search')).toBe(join('baselines', 'search.json'));
  });
});

/** The scenario's one request. */
const req = (s: Scenario) => targetOf(s, 'http').request;

function scenario(edit: (s: Scenario) => void = () => {}): Scenario {
  const s: Scenario = {
    name: 'search',
    target: {
      kind: 'http',
      request: {
        url: 'http://api:8080/v1/search',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"q":"forklift"}',
      },
    },
    phases: [
      { kind: 'closed', name: 'c10', connections: 10, durationMs: 30_000 },
      { kind: 'open', name: 'r500', rate: 500, durationMs: 30_000, maxInFlight: 1000 },
    ],
    warmupMs: 5000,
    trials: 3,
    requestTimeoutMs: 10_000,
    thresholds: { p99: { regress: 0.25, floor: 1000 } },
  };
  edit(s);
  return s;
}

describe('scenarioHash', () => {
  const base = scenarioHash(scenario());

  it('looks like sha256:<hex>', () => {
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('is the same for equal definitions, whatever their key order', () => {
    const reordered: Scenario = {
      thresholds: { p99: { floor: 1000, regress: 0.25 } },
      trials: 3,
      requestTimeoutMs: 10_000,
      warmupMs: 5000,
      phases: [
        { durationMs: 30_000, connections: 10, name: 'c10', kind: 'closed' },
        { maxInFlight: 1000, durationMs: 30_000, rate: 500, name: 'r500', kind: 'open' },
      ],
      target: {
        request: {
          body: '{"q":"forklift"}',
          headers: { 'content-type': 'application/json' },
          method: 'POST',
          url: 'http://api:8080/v1/search',
        },
        kind: 'http',
      },
      name: 'search',
    };
    expect(scenarioHash(reordered)).toBe(base);
    expect(scenarioHash(scenario())).toBe(base);
  });

  it.each<[string, (s: Scenario) => void]>([
    ['url', (s) => (req(s).url = 'http://api:8080/v2/search')],
    ['method', (s) => (req(s).method = 'PUT')],
    ['a header', (s) => (req(s).headers = { ...req(s).headers, 'x-a': '1' })],
    ['body', (s) => (req(s).body = '{"q":"pallet"}')],
    ['phase connections', (s) => (s.phases[0] = { kind: 'closed', name: 'c10', connections: 11, durationMs: 30_000 })],
    ['phase duration', (s) => (s.phases[0] = { kind: 'closed', name: 'c10', connections: 10, durationMs: 31_000 })],
    [
      'phase rate',
      (s) => (s.phases[1] = { kind: 'open', name: 'r500', rate: 501, durationMs: 30_000, maxInFlight: 1000 }),
    ],
    ['phase order', (s) => s.phases.reverse()],
    ['a phase removed', (s) => s.phases.pop()],
    ['warm-up', (s) => (s.warmupMs = 10_000)],
  ])('changes when %s changes', (_label, edit) => {
    expect(scenarioHash(scenario(edit))).not.toBe(base);
  });

  it.each<[string, (s: Scenario) => void]>([
    ['thresholds', (s) => (s.thresholds = { p50: { regress: 0.5 } })],
    ['trials', (s) => (s.trials = 10)],
    ['sweep', (s) => (s.sweep = { kind: 'closed', levels: [1, 2], durationMs: 1000, warmupMs: 0 })],
  ])('is unchanged when %s changes', (_label, edit) => {
    expect(scenarioHash(scenario(edit))).toBe(base);
  });

  describe('with bodies', () => {
    const withBodies = (path: string) =>
      scenario((s) => {
        delete req(s).body;
        req(s).bodiesFile = path;
      });
    const bodies = ['{"q":"a"}', '{"q":"b"}'];
    const hashed = scenarioHash(withBodies('/ws/a/bodies.jsonl'), bodies);

    it('is unchanged when only the bodies file path changes', () => {
      expect(scenarioHash(withBodies('/ws/b/other.jsonl'), bodies)).toBe(hashed);
    });

    it.each<[string, string[]]>([
      ['a body changed', ['{"q":"a"}', '{"q":"c"}']],
      ['a body added', [...bodies, '{"q":"c"}']],
      ['bodies reordered', [...bodies].reverse()],
    ])('changes when the content changes: %s', (_label, other) => {
      expect(scenarioHash(withBodies('/ws/a/bodies.jsonl'), other)).not.toBe(hashed);
    });

    it('differs from the same scenario without bodies', () => {
      expect(scenarioHash(withBodies('/ws/a/bodies.jsonl'))).not.toBe(hashed);
    });
  });
});

describe('scenarioHash of a single-request scenario is the one earlier versions wrote', () => {
  // computed by the code of 1205ad7, before mixes, WebSocket and gRPC scenarios existed: a
  // committed baseline of a plain scenario must not turn stale because the hash grew new keys
  // the builder above; its thresholds and trials are not part of the hash
  const s = scenario();
  it('with a body', () => {
    expect(scenarioHash(s)).toBe('sha256:e99dae45344dd50c6dbca22d4a94fe779c5430f43d7790cfa6407cabc44d73d1');
  });
  it('with bodies', () => {
    expect(scenarioHash(s, ['{"q":"a"}', '{"q":"b"}'])).toBe(
      'sha256:ccb3326580c1aae847264a911971d92f0b342003c45c29097f58fdf6b8220cd2',
    );
  });
});

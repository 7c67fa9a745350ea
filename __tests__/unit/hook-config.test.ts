// A scenario's script hook as the config reads it (issue 34, step 5): the module's source read on the
// host (never run there: its code runs in the runner only), checked for what can be seen without
// running it, carried in the plan and hashed by content.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { UserError } from '../../src/common/errors.js';
import { bodiesReader, hashesOf } from '../../src/run/plan.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import type { PlanHttp } from '../../src/runner-kit/plan.js';
import { realReadFs } from '../../src/common/read-fs.js';

const HOOK = `import { randomUUID } from 'node:crypto';\nexport function request(ctx) { return { body: randomUUID() }; }\n`;

function load(files: Record<string, string>, scenario: string) {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-hook-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'docker-compose.yml'), 'services: {}\n');
  writeFileSync(
    join(dir, 'perf-gate.yml'),
    `version: 1\nsut: { compose: docker-compose.yml }\nscenarios:\n${scenario}`,
  );
  return () => loadConfig(join(dir, 'perf-gate.yml'), dir, realReadFs);
}

const problems = (f: () => unknown): string[] => {
  try {
    f();
  } catch (err) {
    return ((err as UserError).details ?? [(err as Error).message]).map((l) =>
      l.trim().replace(/^\S*perf-gate\.yml:\d+(:\d+)?: /, ''),
    );
  }
  return [];
};

const scenario = (extra: string, request = '{ url: "http://api:8080/x", method: POST }') => `  - name: s
    ${extra}
    request: ${request}
    phases: [{ connections: 2, duration: 1s }]
`;

describe('hook in the config', () => {
  it('a WebSocket scenario takes a hook of its own functions; the plan carries it, the hash its source', () => {
    const ws = (source: string) =>
      load(
        { 'seal.mjs': source },
        `  - name: s
    hook: seal.mjs
    websocket: { url: "ws://api:8080/", message: "{{id}}" }
    phases: [{ peers: 2, messages: 2 }]
`,
      )();
    const source = 'export function message(peer, text) { return text; }\n';
    const config = ws(source);
    const plan = buildPlan(config.scenarios, [], bodiesReader(realReadFs));
    expect(plan.scenarios[0]!.target).toMatchObject({ websocket: { hook: { file: 'seal.mjs', source } } });
    expect(hashesOf(ws(`${source}// v2\n`).scenarios, bodiesReader(realReadFs)).get('s')).not.toBe(
      hashesOf(config.scenarios, bodiesReader(realReadFs)).get('s'),
    );
  });

  it('its source goes into the plan (named by its file) and into the hash by content', () => {
    const config = load({ 'sign.mjs': HOOK }, scenario('hook: sign.mjs'))();
    const plan = buildPlan(config.scenarios, [], bodiesReader(realReadFs));
    expect((plan.scenarios[0]!.target as PlanHttp).hook).toEqual({ file: 'sign.mjs', source: HOOK });
    const hash = hashesOf(config.scenarios, bodiesReader(realReadFs)).get('s');
    const other = load({ 'sign.mjs': `${HOOK}// changed\n` }, scenario('hook: sign.mjs'))();
    expect(hashesOf(other.scenarios, bodiesReader(realReadFs)).get('s')).not.toBe(hash);
    const none = load({}, scenario(''))();
    expect(hashesOf(none.scenarios, bodiesReader(realReadFs)).get('s')).not.toBe(hash);
  });

  it.each<[string, Record<string, string>, string, string[]]>([
    [
      'a module that exports neither function',
      { 'h.mjs': 'export const x = 1;\n' },
      scenario('hook: h.mjs'),
      ['scenarios[0].hook: exports none of request, check (export function request(…) { … })'],
    ],
    [
      'a module that imports another file',
      { 'h.mjs': "import { sign } from './lib.mjs';\nexport function request() { return {}; }\n" },
      scenario('hook: h.mjs'),
      ["scenarios[0].hook: imports ./lib.mjs: a hook is a single file (it may import Node's built-ins, node:crypto)"],
    ],
    [
      'a module too large',
      { 'h.mjs': `export function check() { return true; }\n//${'x'.repeat(300 * 1024)}\n` },
      scenario('hook: h.mjs'),
      [`scenarios[0].hook: ${300 * 1024 + 44} bytes; a hook is one file of at most 256 KiB`],
    ],
    [
      'not a module path',
      {},
      scenario('hook: h.ts'),
      ['scenarios[0].hook: must be a path to an ES module (.mjs or .js)'],
    ],
    [
      'a slot in the request a hook builds',
      { 'h.mjs': HOOK },
      scenario('hook: h.mjs', '{ url: "http://api:8080/{{uuid()}}", method: POST }'),
      ['scenarios[0].request: no {{…}} slots with a hook (its request() builds what varies)'],
    ],
    [
      'beside a mix',
      { 'h.mjs': HOOK },
      `  - name: s
    hook: h.mjs
    requests: [{ name: a, url: "http://api:8080/a" }, { name: b, url: "http://api:8080/b" }]
    phases: [{ connections: 2, duration: 1s }]
`,
      ['scenarios[0].hook: one request only for now (not a mix or a flow)'],
    ],
    [
      'a WebSocket hook that exports only HTTP functions',
      { 'h.mjs': HOOK },
      `  - name: s
    hook: h.mjs
    websocket: { url: "ws://api:8080/", message: "{{id}}" }
    phases: [{ peers: 2, messages: 2 }]
`,
      ['scenarios[0].hook: exports none of hello, reply, message (export function hello(…) { … })'],
    ],
  ])('%s', (_label, files, s, expected) => expect(problems(load(files, s))).toEqual(expected));
});

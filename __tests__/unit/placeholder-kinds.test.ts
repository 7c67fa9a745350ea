// One placeholder story (SPEC §10): `${NAME}` for the environment and setup values, `{{…}}` for values
// made per request. The newcomer's mistakes the issue lists, each the line validate gives, before
// anything boots; and a file's problems with their lines.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText, loadConfig } from '../../src/config/load.js';
import { placeholderKindProblems, unsetNames } from '../../src/config/placeholder-kinds.js';
import { failure } from './fixtures.js';
import { realReadFs } from '../../src/common/read-fs.js';

const ROOT = join(import.meta.dirname, '../..');

type Raw = Record<string, unknown>;

const LOGIN = {
  name: 'login',
  request: { url: 'http://api:8080/login', method: 'post', body: { user: 'u', password: '${PASSWORD}' } },
  extract: { token: { json: '$.token' } },
};
const CREATE = {
  name: 'create',
  url: 'http://api:8080/items',
  method: 'POST',
  headers: { authorization: 'Bearer ${token}' },
  body: { item: 'x' },
  extract: { id: { json: '$.id' } },
};
const read = (url: string, headers: Record<string, string> = { authorization: 'Bearer ${token}' }) => ({
  name: 'read',
  url,
  headers,
});

function config(scenario: Raw): Raw {
  return {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    setup: [LOGIN],
    scenarios: [{ name: 'api', phases: [{ connections: 2, duration: '1s' }], ...scenario }],
  };
}

function problems(raw: Raw, env?: Record<string, string>): string[] {
  const r = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  expect(r.problems).toEqual([]);
  return placeholderKindProblems(r.config as NonNullable<typeof r.config>, env);
}

const ENV = { PASSWORD: 'p', API_KEY: 'k' };

describe('placeholderKindProblems: a name in the wrong braces, or a typo, is named', () => {
  it.each<[string, Raw, string[]]>([
    [
      'Artillery’s habit: a setup value in {{ }} (sent as it is, every request a 401)',
      { request: { url: 'http://api:8080/items', headers: { authorization: 'Bearer {{token}}' } } },
      [
        'scenarios[0].request.headers.authorization: {{token}} is sent as it is; token is a value a setup step extracts: write ${token}',
      ],
    ],
    [
      'a flow value in ${ } (read as an environment variable)',
      { flow: [CREATE, read('http://api:8080/items/${id}')] },
      ['scenarios[0].flow[1].url: ${id} reads the environment, but id is a value a flow step extracts: write {{id}}'],
    ],
    [
      'a typo of a setup value',
      { request: { url: 'http://api:8080/items', headers: { authorization: 'Bearer ${tokn}' } } },
      [
        'scenarios[0].request.headers.authorization: ${tokn} is not set in the environment and no setup step extracts it (did you mean ${token}?)',
      ],
    ],
    [
      'a typo of a flow value',
      { flow: [CREATE, read('http://api:8080/items/{{idd}}')] },
      ['scenarios[0].flow[1].url: {{idd}} is not a value a step of the flow extracts (did you mean {{id}}?)'],
    ],
    [
      'an environment variable in {{ }}',
      { request: { url: 'http://api:8080/items', headers: { 'x-api-key': '{{API_KEY}}' } } },
      [
        'scenarios[0].request.headers.x-api-key: {{API_KEY}} is sent as it is; API_KEY is an environment variable: write ${API_KEY}',
      ],
    ],
    [
      'right everywhere: setup and environment in ${ }, the flow’s own in {{ }}',
      {
        flow: [CREATE, read('http://api:8080/items/{{id}}', { authorization: 'Bearer ${token}', 'x-k': '${API_KEY}' })],
      },
      [],
    ],
    [
      'a typo of a flow value in a step’s check (it would fail every response)',
      { flow: [CREATE, { ...read('http://api:8080/items/{{id}}'), expect: { body: '{{idd}}' } }] },
      ['scenarios[0].flow[1].expect.body: {{idd}} is not a value a step of the flow extracts (did you mean {{id}}?)'],
    ],
    [
      'an upper-case name is an environment variable’s (set where the run runs), not a typo of a value',
      {
        flow: [
          { ...CREATE, extract: { email: { json: '$.email' } } },
          read('http://api:8080/items/{{email}}', { 'x-user': '${EMAIL}' }),
        ],
      },
      [],
    ],
    [
      'a name that another one starts with is a name of its own',
      {
        flow: [
          { ...CREATE, extract: { user_id: { json: '$.id' } } },
          read('http://api:8080/u/{{user_id}}', { 'x-user': '${user}' }),
        ],
      },
      [],
    ],
    [
      'an environment variable’s name in a body’s double braces is the body’s text',
      { request: { url: 'http://api:8080/items', method: 'POST', body: 'Hello {{API_KEY}}' } },
      [],
    ],
    [
      'text between double braces that names nothing is text (outside a flow)',
      { request: { url: 'http://api:8080/items', body: '{{handlebars}}' } },
      [],
    ],
  ])('%s', (_label, scenario, lines) => {
    expect(problems(config(scenario), ENV)).toEqual(lines);
  });

  it('a data column in ${ }', () => {
    const r = parseConfigText(
      stringify(config({ request: { url: 'http://api:8080/items/${sku}' }, data: { file: 'items.csv' } })),
      '/ws/perf-gate.yml',
      (p) => `/ws/${p}`,
    );
    const c = r.config as NonNullable<typeof r.config>;
    const t = c.scenarios[0]?.target;
    if (t?.kind === 'http' && t.data) t.data.columns = ['sku'];
    expect(placeholderKindProblems(c, ENV)).toEqual([
      'scenarios[0].request.url: ${sku} reads the environment, but sku is a data column: write {{data.sku}}',
    ]);
  });

  it('without the environment, an unset name is not judged; with it, one close to nothing is left to a note', () => {
    const raw = config({ request: { url: 'http://api:8080/items', headers: { a: '${tokn}', b: '${ELSEWHERE}' } } });
    expect(problems(raw)).toEqual([]);
    const withEnv = problems(raw, ENV);
    expect(withEnv).toHaveLength(1);
    const r = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    expect(unsetNames(r.config as NonNullable<typeof r.config>, ENV)).toEqual(['tokn', 'ELSEWHERE']);
  });

  it('a WebSocket and a gRPC scenario: the texts run fills are read too (run refuses what the note names)', () => {
    const raw = config({});
    const base = (raw.scenarios as Raw[])[0] as Raw;
    raw.scenarios = [
      {
        ...base,
        name: 'ws',
        websocket: {
          url: 'ws://broker:8080/ws?key=${WS_KEY}',
          headers: { authorization: 'Bearer {{token}}' },
          // the protocol's own {{peer}}, {{id}}, {{other}}: not flow values, nothing to say
          hello: ['{"type":"hello","peer":{{peer}},"key":"${HELLO_KEY}"}'],
          message: '{"id":"{{id}}","to":{{other}},"sig":"${tokn}"}',
        },
        phases: [{ peers: 2, messages: 10, rate: 10 }],
      },
      {
        ...base,
        name: 'grpc',
        grpc: {
          url: 'grpc://search:50051',
          proto: 'fixtures/grpc-search/search.proto',
          service: 'vectordb.VectorDB',
          method: 'Search',
          message: { k: 1 },
          metadata: { authorization: 'Bearer ${API_TOKEN}', 'x-session': '{{token}}' },
        },
      },
    ];
    const r = parseConfigText(stringify(raw), join(ROOT, 'perf-gate.yml'), (p) => join(ROOT, p));
    expect(r.problems).toEqual([]);
    const c = r.config as NonNullable<typeof r.config>;
    expect(placeholderKindProblems(c, ENV)).toEqual([
      'scenarios[0].websocket.headers.authorization: {{token}} is sent as it is; token is a value a setup step extracts: write ${token}',
      'scenarios[0].websocket.message: ${tokn} is not set in the environment and no setup step extracts it (did you mean ${token}?)',
      'scenarios[1].grpc.metadata.x-session: {{token}} is sent as it is; token is a value a setup step extracts: write ${token}',
    ]);
    expect(unsetNames(c, ENV)).toEqual(['WS_KEY', 'HELLO_KEY', 'tokn', 'API_TOKEN']);
    expect(unsetNames(c, { ...ENV, WS_KEY: '1', HELLO_KEY: '2', tokn: '3', API_TOKEN: '4' })).toEqual([]);
  });
  it('a bodies file’s lines are read as a body is: each named by its key and its line in the file', () => {
    const raw = config({ request: { url: 'http://api:8080/items', method: 'POST', bodies: 'items.jsonl' } });
    const r = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    expect(r.problems).toEqual([]);
    const c = r.config as NonNullable<typeof r.config>;
    const lines = ['{"ok":1}', '{"auth":"{{token}}"}', '{"who":"${tokn}","key":"${API_KEY}","x":"{{API_KEY}}"}'];
    // the second body on the file's third line: a blank line before it
    const read = (file: string) =>
      file === '/ws/items.jsonl' ? lines.map((text, i) => ({ line: i === 0 ? 1 : i + 2, text })) : undefined;
    expect(placeholderKindProblems(c, ENV, read)).toEqual([
      'scenarios[0].request.bodies: line 3 of items.jsonl: {{token}} is sent as it is; token is a value a setup step extracts: write ${token}',
      'scenarios[0].request.bodies: line 4 of items.jsonl: ${tokn} is not set in the environment and no setup step extracts it (did you mean ${token}?)',
    ]);
    // the same mistake on many lines: one problem, with how many more lines share it
    const many = (file: string) =>
      file === '/ws/items.jsonl'
        ? Array.from({ length: 1000 }, (_, i) => ({ line: i + 1, text: '{"auth":"{{token}}"}' }))
        : undefined;
    expect(placeholderKindProblems(c, ENV, many)).toEqual([
      'scenarios[0].request.bodies: line 1 of items.jsonl: {{token}} is sent as it is; token is a value a setup step extracts: write ${token} (and 999 more lines of the file)',
    ]);
    // without the reader (or a file it cannot read) the lines are not known: nothing said
    expect(placeholderKindProblems(c, ENV)).toEqual([]);
    expect(placeholderKindProblems(c, ENV, () => undefined)).toEqual([]);
    expect(unsetNames(c, ENV, read)).toEqual(['tokn']);
    expect(unsetNames(c, ENV)).toEqual([]);
  });

  it('a bodies file’s line whose slots run’s plan refuses (a data column without a data file, a call it cannot read): named by its line, not its place among the bodies', () => {
    const raw = config({ request: { url: 'http://api:8080/items', method: 'POST', bodies: 'items.jsonl' } });
    const r = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    const c = r.config as NonNullable<typeof r.config>;
    // the file: a blank line, then three bodies on lines 2, 4 and 5
    const lines = [
      { line: 2, text: '{"ok":1}' },
      { line: 4, text: '{"sku":"{{ data.sku }}"}' },
      { line: 5, text: '{"n":"{{ int(1, }}"}' },
    ];
    const problems = placeholderKindProblems(c, ENV, (f) => (f === '/ws/items.jsonl' ? lines : undefined));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^scenarios\[0\]\.request\.bodies: line 4 of items\.jsonl: \{\{ data\.sku \}\}: the scenario has no data file/,
    );
    expect(problems[1]).toMatch(/^scenarios\[0\]\.request\.bodies: line 5 of items\.jsonl: /);
  });
});

/** A directory with a one-service compose file, and where its perf-gate.yml goes. */
function projectDir(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-placeholders-'));
  writeFileSync(join(dir, 'docker-compose.yml'), 'services:\n  api:\n    image: api:1\n');
  return { dir, file: join(dir, 'perf-gate.yml') };
}

/** A config's first lines: a login step extracting `token`, then a scenario `api` (its keys follow). */
const LOGIN_THEN_API = [
  'version: 1',
  'sut: { compose: docker-compose.yml }',
  'setup:',
  '  - name: login',
  '    request: { url: "http://api:8080/login", method: post }',
  '    extract: { token: { json: "$.token" } }',
  'scenarios:',
  '  - name: api',
];

/** projectDir() with its perf-gate.yml of these lines. */
function project(lines: string[]): { dir: string; file: string } {
  const at = projectDir();
  writeFileSync(at.file, lines.join('\n'));
  return at;
}

describe('loadConfig: the placeholder problems with the others, each at its line', () => {
  it('a config with three mistakes: all three in one pass, each file:line:col', async () => {
    const { dir, file } = project([
      ...LOGIN_THEN_API,
      '    flow:',
      '      - name: create',
      '        url: http://api:8080/items',
      '        method: POST',
      "        headers: { authorization: 'Bearer {{token}}' }",
      '        extract: { id: { json: "$.id" } }',
      '      - name: read',
      '        url: http://api:8080/items/${id}',
      "        headers: { authorization: 'Bearer ${tokn}' }",
      '    phases: [{ name: c2, connections: 2, duration: 1s }]',
      '',
    ]);
    const err = await failure(Promise.resolve().then(() => loadConfig(file, dir, realReadFs, {})));
    expect(err.message).toBe(`${file}: 3 problems in the config`);
    expect(err.details).toEqual([
      `  ${file}:13:20: scenarios[0].flow[0].headers.authorization: {{token}} is sent as it is; token is a value a setup step extracts: write \${token}`,
      `  ${file}:16:9: scenarios[0].flow[1].url: \${id} reads the environment, but id is a value a flow step extracts: write {{id}}`,
      `  ${file}:17:20: scenarios[0].flow[1].headers.authorization: \${tokn} is not set in the environment and no setup step extracts it (did you mean \${token}?)`,
    ]);
  });

  it.each<[string, string, string]>([
    // an unknown key (k6's vus) and a placeholder in the wrong braces: one round, not two
    ['an unknown key', '    vus: 10', '9:5: scenarios[0].vus: unknown key'],
    // a value of the wrong kind (the schema's, not an unknown key) beside it
    ['a value of the wrong kind', '    trials: five', 'scenarios[0].trials'],
    // a problem of what the values mean together (normalize's) beside it
    [
      'a semantic problem',
      '    trials: 1\n    warmup: 0s\n    sweep: { connections: [1, 2], duration: 1s, rate: [5] }',
      'scenarios[0].sweep',
    ],
  ])('%s and a placeholder problem: both in one pass', async (_label, extra, other) => {
    const { dir, file } = project([
      ...LOGIN_THEN_API,
      extra,
      '    request:',
      '      url: http://api:8080/items',
      "      headers: { authorization: 'Bearer {{token}}' }",
      '    phases: [{ name: c2, connections: 2, duration: 1s }]',
      '',
    ]);
    const err = await failure(Promise.resolve().then(() => loadConfig(file, dir, realReadFs, {})));
    expect(err.details?.join('\n')).toContain(other);
    expect(err.details?.at(-1)).toMatch(
      /:\d+:\d+: scenarios\[0\]\.request\.headers\.authorization: \{\{token\}\} is sent as it is; token is a value a setup step extracts/,
    );
  });

  it('an unknown key inside a flow step (extract misspelt): that scenario’s placeholders are not read, so its uses of the step’s values are not called unknown', async () => {
    const { dir, file } = project([
      'version: 1',
      'sut: { compose: docker-compose.yml }',
      'scenarios:',
      '  - name: api',
      '    flow:',
      '      - name: create',
      '        url: http://api:8080/items',
      '        method: POST',
      '        extrct: { id: { json: "$.id" } }',
      '      - name: read',
      '        url: http://api:8080/items/{{id}}',
      '    phases: [{ name: c2, connections: 2, duration: 1s }]',
      '',
    ]);
    const err = await failure(Promise.resolve().then(() => loadConfig(file, dir, realReadFs, {})));
    expect(err.details).toHaveLength(1);
    expect(err.details?.[0]).toMatch(/:9:9: scenarios\[0\]\.flow\[0\]\.extrct: unknown key/);
  });

  it.each<[string, string, string[], RegExp[]]>([
    // [what, the scenario's data and one more key, the problems said, what none of them says]
    [
      'a data file read, another key refused: the lines read against its columns, nothing made up',
      '    data: { file: rows.csv }\n    trials: five',
      ['scenarios[0].trials: must be an integer from 1 to 100'],
      [/no column/],
    ],
    [
      'the data key itself refused: its scenario’s lines left alone',
      '    data: rows.csv',
      ['scenarios[0].data: must be a mapping'],
      [/bodies/],
    ],
    [
      'no data at all: said as run says it',
      '',
      ['scenarios[0].request.bodies: line 1 of rows.jsonl: {{data.id}}: the scenario has no data file'],
      [/no column/],
    ],
  ])('a bodies line’s {{data.…}}: %s', async (_label, extra, want, never) => {
    const { dir, file } = projectDir();
    writeFileSync(join(dir, 'rows.csv'), 'id\n1\n2\n');
    writeFileSync(join(dir, 'rows.jsonl'), '{"id":"{{data.id}}"}\n');
    const lines = [
      'version: 1',
      'sut: { compose: docker-compose.yml }',
      'scenarios:',
      '  - name: api',
      ...(extra ? [extra] : []),
      '    request: { url: "http://api:8080/items", method: POST, bodies: rows.jsonl }',
      '    phases: [{ name: c2, connections: 2, duration: 1s }]',
      '',
    ];
    writeFileSync(file, lines.join('\n'));
    const err = await failure(Promise.resolve().then(() => loadConfig(file, dir, realReadFs, {})));
    const said = (err.details ?? []).map((l) => l.replace(/^\s*\S+:\d+:\d+: /, ''));
    for (const w of want)
      expect(
        said.some((l) => l.startsWith(w)),
        said.join('\n'),
      ).toBe(true);
    for (const n of never)
      expect(
        said.filter((l) => n.test(l)),
        said.join('\n'),
      ).toEqual([]);
  });

  it('a bodies file’s line: at its bodies key, with the line in the file; one that does not parse is left to run’s plan', async () => {
    const { dir, file } = projectDir();
    writeFileSync(join(dir, 'items.jsonl'), '{"name":"a"}\n\n{"owner":"{{token}}"}\n');
    writeFileSync(join(dir, 'broken.jsonl'), '{"owner":"{{token}}"\n');
    const text = (bodies: string) =>
      [
        ...LOGIN_THEN_API,
        '    request:',
        '      url: http://api:8080/items',
        '      method: POST',
        `      bodies: ${bodies}`,
        '    phases: [{ name: c2, connections: 2, duration: 1s }]',
        '',
      ].join('\n');
    writeFileSync(file, text('items.jsonl'));
    const err = await failure(Promise.resolve().then(() => loadConfig(file, dir, realReadFs, {})));
    expect(err.details).toEqual([
      `  ${file}:12:7: scenarios[0].request.bodies: line 3 of items.jsonl: {{token}} is sent as it is; token is a value a setup step extracts: write \${token}`,
    ]);
    writeFileSync(file, text('broken.jsonl'));
    expect(loadConfig(file, dir, realReadFs, {}).scenarios).toHaveLength(1);
  });
});

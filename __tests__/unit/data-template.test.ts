// Data files and template functions (issue 34, step 2): `{{ data.COLUMN }}`, `{{ uuid() }}`,
// `{{ int(a, b) }}` and `{{ now() }}` compiled once and rendered per request; CSV read as Python's csv
// module reads it; the config's checks; the engine's requests rendered row by row.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDataFile } from '../../src/config-parts/data-file.js';
import { loadConfig } from '../../src/config/load.js';
import { UserError } from '../../src/common/errors.js';
import { hashesOf, bodiesReader, planRun } from '../../src/run/plan.js';
import { realFiles } from '../../src/run/real-files.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import type { PlanHttp } from '../../src/runner-kit/plan.js';
import { compileText, renderText, type TemplateSources, templateProblems } from '../../src/runner-kit/template.js';
import { makeTarget, templateSources } from '../../runner/src/connection.js';
import { splitStage } from '../../runner/src/split.js';
import { realReadFs } from '../../src/common/read-fs.js';

const fixed = (row?: string[]): TemplateSources => ({
  row,
  uuid: () => 'U-1',
  random: () => 0.999,
  now: () => 1_700_000_000_123.7,
});

describe('compileText and renderText', () => {
  it.each<[string, string[] | undefined, string[] | undefined, string]>([
    ['plain text', undefined, undefined, 'plain text'],
    ['/u/{{data.id}}?n={{ data.name }}', ['id', 'name'], ['7', 'a b'], '/u/7?n=a b'],
    ['{"id":"{{uuid()}}"}', undefined, undefined, '{"id":"U-1"}'],
    ['{{ int(1, 6) }}', undefined, undefined, '6'],
    ['{{int(-3,-3)}}', undefined, undefined, '-3'],
    ['t={{now()}}', undefined, undefined, 't=1700000000123'],
    // not a slot: text as it always was
    ['{{id}} {{ peer }} {{ x.y }} {{}}', undefined, undefined, '{{id}} {{ peer }} {{ x.y }} {{}}'],
    ['${ENV} stays', undefined, undefined, '${ENV} stays'],
    ['{{data.id}}{{data.id}}', ['id'], ['1'], '11'],
  ])('%j', (text, columns, row, out) => {
    const { compiled, problems } = compileText(text, columns);
    expect(problems).toEqual([]);
    expect(renderText(compiled, fixed(row))).toBe(out);
  });

  it('base64() and hmacSha256() of a text, a column or the body', () => {
    const src = { ...fixed(['ann', 'a:b']), body: '{"n":1}' };
    const render = (text: string) => renderText(compileText(text, ['name', 'pair']).compiled, src);
    expect(render("Basic {{base64('user:pw')}}")).toBe(`Basic ${Buffer.from('user:pw').toString('base64')}`);
    expect(render('{{base64(data.pair)}}')).toBe(Buffer.from('a:b').toString('base64'));
    expect(render("{{ hmacSha256('k', body) }}")).toBe(createHmac('sha256', 'k').update('{"n":1}').digest('hex'));
    expect(render('{{hmacSha256("k,2", data.name)}}')).toBe(createHmac('sha256', 'k,2').update('ann').digest('hex'));
  });

  it('int() covers its range and nothing outside it', () => {
    const { compiled } = compileText('{{int(1,3)}}', undefined);
    const seen = new Set([0, 0.34, 0.67, 0.9999].map((r) => renderText(compiled, { ...fixed(), random: () => r })));
    expect([...seen].sort()).toEqual(['1', '2', '3']);
  });

  it.each<[string, string[] | undefined, string[]]>([
    ['{{ data.id }}', undefined, ['{{ data.id }}: the scenario has no data file (give data: { file: ... })']],
    ['{{data.nope}}', ['id', 'name'], ['{{data.nope}}: the data has no column nope (it has id, name)']],
    [
      '{{ random() }}',
      undefined,
      ['{{ random() }}: no such function (there are uuid(), int(), now(), base64(), hmacSha256())'],
    ],
    ['{{ uuid(4) }}', undefined, ['{{ uuid(4) }}: uuid() takes no arguments']],
    ['{{ int(1) }}', undefined, ['{{ int(1) }}: int() takes 2 arguments']],
    ['{{ int(a, 2) }}', undefined, ['{{ int(a, 2) }}: int(min, max) takes two integers']],
    ['{{ int(5, 2) }}', undefined, ['{{ int(5, 2) }}: int(min, max) needs min ≤ max']],
    [
      '{{hmacSha256(data.key, body)}}',
      ['key'],
      [
        "{{hmacSha256(data.key, body)}}: hmacSha256(key, text) takes the key as a quoted text ('${SECRET}' fills it from the environment)",
      ],
    ],
    [
      '{{base64(name)}}',
      undefined,
      ['{{base64(name)}}: name is not a quoted text, data.COLUMN, body, or a value a flow step extracts'],
    ],
    [
      "{{hmacSha256('a)b', body)}}",
      undefined,
      ['{{hmacSha256(…: a call perf-gate cannot read (no braces or parentheses inside its arguments)'],
    ],
  ])('%j is refused', (text, columns, problems) => expect(templateProblems(text, columns)).toEqual(problems));
});

describe('parseDataFile', () => {
  it('reads CSV as Python’s csv module does (quotes, commas, doubled quotes, line breaks, CRLF, a BOM)', () => {
    const py = spawnSync(
      'python3',
      [
        '-c',
        `
import csv, io, json, random, sys
random.seed(34)
alphabet = ['a', 'b', ' ', ',', '"', '\\n', 'é', '1', '\\r\\n', 'x']
rows = [['id', 'name', 'note']]
for i in range(300):
    rows.append([str(i)] + [''.join(random.choice(alphabet) for _ in range(random.randint(0, 8))) for _ in range(2)])
out = io.StringIO()
csv.writer(out, lineterminator=random.choice(['\\r\\n', '\\n'])).writerows(rows)
text = '\\ufeff' + out.getvalue()
back = list(csv.reader(io.StringIO(text[1:], newline='')))
print(json.dumps({'text': text, 'rows': back}))
`,
      ],
      { encoding: 'utf8' },
    );
    if (py.status !== 0) throw new Error(`python3: ${py.stderr}`);
    const { text, rows } = JSON.parse(py.stdout) as { text: string; rows: string[][] };
    const table = parseDataFile(text, 'users.csv');
    expect(table.columns).toEqual(rows[0]);
    expect(table.rows).toEqual(rows.slice(1));
    expect(table.rows).toHaveLength(300);
  });

  it('reads JSONL objects: strings as text, the rest as JSON, missing keys empty', () => {
    expect(parseDataFile('{"id":1,"name":"a"}\n\n{"id":"2","tags":[1],"ok":true,"n":null}\n', 'd.jsonl')).toEqual({
      columns: ['id', 'name', 'tags', 'ok', 'n'],
      rows: [
        ['1', 'a', '', '', ''],
        ['2', '', '[1]', 'true', 'null'],
      ],
    });
  });

  it.each<[string, string, string]>([
    ['d.csv', '', 'd.csv: empty (a header row of column names expected)'],
    ['d.csv', 'id\n', 'd.csv: no rows (a header and at least one row expected)'],
    ['d.csv', 'id,name\n1,a\n2\n', 'd.csv:3: 1 fields; the header has 2'],
    [
      'd.csv',
      'id,na me\n1,a\n',
      'd.csv:1: column 2 is named "na me"; a name of letters, digits, _ and - is used as {{ data.NAME }}',
    ],
    ['d.csv', 'id,id\n1,2\n', 'd.csv:1: column id is named twice'],
    ['d.csv', 'id\n"1\n', 'd.csv:2: a quoted field is not closed'],
    ['d.csv', 'id\na"b\n', 'd.csv:2: a quote inside an unquoted field (quote the whole field)'],
    ['d.jsonl', '[1]\n', 'd.jsonl: row 1 is not an object (one {"column": value} per line)'],
    [
      'd.jsonl',
      '{"a b":1}\n',
      'd.jsonl: row 1 has the key "a b"; a name of letters, digits, _ and - is used as {{ data.NAME }}',
    ],
    ['d.jsonl', '{"a":1}\nnope\n', 'd.jsonl:2: not valid JSON'],
  ])('%s %j is refused', (file, text, message) => expect(() => parseDataFile(text, file)).toThrow(message));
});

/** A workspace with a config and its files; the config loaded as `run` loads it. */
function workspace(files: Record<string, string>, scenario: string): { load: () => ReturnType<typeof loadConfig> } {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-data-'));
  mkdirSync(join(dir, 'data'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const config = `version: 1\nsut: { compose: docker-compose.yml }\nscenarios:\n${scenario}`;
  writeFileSync(join(dir, 'docker-compose.yml'), 'services: {}\n');
  writeFileSync(join(dir, 'perf-gate.yml'), config);
  return { load: () => loadConfig(join(dir, 'perf-gate.yml'), dir, realReadFs) };
}

const problemsOf = (f: () => unknown): string[] => {
  try {
    f();
  } catch (err) {
    return (
      (err as UserError).details?.map((l) => l.trim().replace(/^\S*perf-gate\.yml:\d+(:\d+)?: /, '')) ?? [
        (err as Error).message,
      ]
    );
  }
  return [];
};

const USERS = 'id,name,auth\n1,ann,t1\n2,bob,t2\n3,cy,t3\n';

describe('data and slots in the config', () => {
  const scenario = (request: string, data = 'data: { file: data/users.csv }') => `  - name: s
    ${data}
    request: ${request}
    phases: [{ connections: 2, duration: 1s }]
`;

  it('a data file is read once the config is; the plan carries its rows; the hash follows its content', () => {
    const ws = workspace({ 'data/users.csv': USERS }, scenario('{ url: "http://api:8080/u/{{data.id}}" }'));
    const config = ws.load();
    const plan = buildPlan(config.scenarios, [], bodiesReader(realReadFs));
    expect((plan.scenarios[0]?.target as PlanHttp).data).toEqual({
      columns: ['id', 'name', 'auth'],
      rows: [
        ['1', 'ann', 't1'],
        ['2', 'bob', 't2'],
        ['3', 'cy', 't3'],
      ],
      order: 'sequential',
    });
    const hash = hashesOf(config.scenarios, bodiesReader(realReadFs)).get('s');
    const other = workspace(
      { 'data/users.csv': `${USERS}4,dee,t4\n` },
      scenario('{ url: "http://api:8080/u/{{data.id}}" }'),
    );
    expect(hashesOf(other.load().scenarios, bodiesReader(realReadFs)).get('s')).not.toBe(hash);
  });

  it.each<[string, Record<string, string>, string, string[]]>([
    [
      'a column the data does not have',
      { 'data/users.csv': USERS },
      scenario('{ url: "http://api:8080/u/{{data.uid}}" }'),
      ['scenarios[0].request.url: {{data.uid}}: the data has no column uid (it has id, name, auth)'],
    ],
    [
      'a data slot without a data file',
      {},
      scenario('{ url: "http://api:8080/", body: "{{ data.id }}" }', ''),
      ['scenarios[0].request.body: {{ data.id }}: the scenario has no data file (give data: { file: ... })'],
    ],
    [
      'a function that does not exist, in a header',
      {},
      scenario('{ url: "http://api:8080/", headers: { x-id: "{{ guid() }}" } }', ''),
      [
        'scenarios[0].request.headers.x-id: {{ guid() }}: no such function (there are uuid(), int(), now(), base64(), hmacSha256())',
      ],
    ],
    [
      'a slot in the host',
      { 'data/users.csv': USERS },
      scenario('{ url: "http://{{data.name}}:8080/" }'),
      [
        "scenarios[0].request.url: a {{ }} slot in the host or port: a phase's connections go to one origin; put slots in the path or query",
      ],
    ],
    [
      'a line break in a value a header would send',
      { 'data/users.csv': 'id,auth\n1,"a\nb"\n' },
      scenario('{ url: "http://api:8080/", headers: { authorization: "Bearer {{data.auth}}" } }'),
      [
        'scenarios[0].request.headers.authorization: column auth of DATA, row 1, holds a line break, a NUL or a character beyond Latin-1: it cannot go into a header',
      ],
    ],
    [
      'a data file that does not parse',
      { 'data/users.csv': 'id,name\n1\n' },
      scenario('{ url: "http://api:8080/" }'),
      ['scenarios[0].data.file: DATA:2: 1 fields; the header has 2'],
    ],
    [
      'a data file for a WebSocket scenario',
      { 'data/users.csv': USERS },
      `  - name: s
    data: { file: data/users.csv }
    websocket: { url: "ws://api:8080/", message: "{{id}}" }
    phases: [{ peers: 2, messages: 2 }]
`,
      ['scenarios[0].data: HTTP scenarios only (a WebSocket or gRPC scenario takes no data file yet)'],
    ],
    [
      'a data file that is neither CSV nor JSONL',
      {},
      scenario('{ url: "http://api:8080/" }', 'data: { file: data/users.txt }'),
      ['scenarios[0].data.file: must be a path to a .csv or .jsonl file'],
    ],
  ])('%s', (_label, files, s, problems) => {
    const ws = workspace(files, s);
    expect(problemsOf(ws.load).map((p) => p.replace(/\/\S*\/data\/users\.csv/, 'DATA'))).toEqual(problems);
  });

  it('`body` as an argument in the body itself is refused', () => {
    const ws = workspace({}, scenario(`{ url: "http://api:8080/", body: "{{base64(body)}}" }`, ''));
    expect(problemsOf(ws.load)).toEqual([
      'scenarios[0].request.body: `body` as an argument in the body itself (sign or encode the body from its URL or headers)',
    ]);
  });

  it('a secret that breaks its call once filled in is exit 2, and the message does not hold it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-secret-'));
    writeFileSync(join(dir, 'docker-compose.yml'), 'services: {}\n');
    writeFileSync(
      join(dir, 'perf-gate.yml'),
      `version: 1\nsut: { compose: docker-compose.yml }\nscenarios:\n${scenario(
        `{ url: "http://api:8080/", method: POST, body: "x", headers: { x-sig: "{{hmacSha256('\${PG_HOOK_SECRET}', body)}}" } }`,
        '',
      )}`,
    );
    const plan = (secret: string) =>
      planRun(
        { configFile: join(dir, 'perf-gate.yml'), mode: 'update', scenarios: [], baselineDir: join(dir, 'b') },
        () => {},
        { env: { PG_HOOK_SECRET: secret }, maskSecret: () => {}, files: realFiles, workspace: dir },
      );
    expect(() => plan('fine-secret')).not.toThrow();
    let message = '';
    try {
      plan("it's-a-secret");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      "scenarios[0] (s): a {{…}} call cannot be read once the environment's values are filled in (a value holding a quote, a brace or a parenthesis inside it)",
    );
  });

  it('a bodies line with a slot the data does not have is exit 2 naming the file and its line (validate and run read the config alike)', () => {
    // a blank line first: the bad body is the file's third line, its second body
    const ws = workspace(
      { 'data/users.csv': USERS, 'data/bodies.jsonl': '{"a":"{{data.id}}"}\n\n{"a":"{{data.zip}}"}\n' },
      scenario('{ url: "http://api:8080/", bodies: data/bodies.jsonl }'),
    );
    const problems = problemsOf(ws.load);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^scenarios\[0\]\.request\.bodies: line 3 of bodies\.jsonl: \{\{data\.zip\}\}: the data has no column zip \(it has id, name, auth\)$/,
    );
  });

  it('the plan stands behind that check: a bad body that reaches it is named by its place among the bodies', () => {
    const ws = workspace(
      { 'data/users.csv': USERS, 'data/bodies.jsonl': '{"a":"{{data.id}}"}\n' },
      scenario('{ url: "http://api:8080/", bodies: data/bodies.jsonl }'),
    );
    const config = ws.load();
    expect(() => buildPlan(config.scenarios, [], () => ['{"a":"{{data.id}}"}', '{"a":"{{data.zip}}"}'])).toThrow(
      /bodies file \S+bodies\.jsonl, body 2: \{\{data\.zip\}\}: the data has no column zip/,
    );
  });
});

/** The HTTP/1.1 request a target sends next, as text. */
const nextText = (t: ReturnType<typeof makeTarget>) => t.next().toString('utf8');

describe('the engine renders a request per send', () => {
  const data = {
    columns: ['id', 'name'],
    rows: [
      ['1', 'ann'],
      ['2', 'bob'],
      ['3', 'cy'],
      ['4', 'dee'],
      ['5', 'eve'],
    ],
    order: 'sequential' as const,
  };

  it('each send takes this instance’s next row; every slot of one request reads the same row', () => {
    const t = makeTarget(
      {
        request: {
          url: 'http://api:8080/u/{{data.id}}',
          method: 'POST',
          headers: { 'x-name': '{{data.name}}' },
          body: '{"id":{{data.id}},"n":"{{data.name}}"}',
        },
        data,
      },
      1000,
      { offset: 1, stride: 2 },
    );
    const sent = [1, 2, 3, 4].map(() => nextText(t));
    expect(sent.map((s) => s.split('\r\n')[0])).toEqual([
      'POST /u/2 HTTP/1.1',
      'POST /u/4 HTTP/1.1',
      // past the end: the rows again, from this instance's first
      'POST /u/1 HTTP/1.1',
      'POST /u/3 HTTP/1.1',
    ]);
    expect(sent[0]).toBe(
      'POST /u/2 HTTP/1.1\r\nHost: api:8080\r\nx-name: bob\r\nContent-Length: 19\r\n\r\n{"id":2,"n":"bob"}'.replace(
        '19',
        String(Buffer.byteLength('{"id":2,"n":"bob"}')),
      ),
    );
  });

  it('a uuid a send, a body length that follows the rendered body, and a request without slots serialised once', () => {
    const t = makeTarget(
      {
        request: {
          url: 'http://api:8080/o',
          method: 'POST',
          headers: {},
          body: '{"id":"{{uuid()}}","q":{{int(1,1000000)}}}',
        },
      },
      1000,
    );
    const sent = Array.from({ length: 50 }, () => nextText(t));
    const ids = sent.map((s) => /"id":"([0-9a-f-]{36})"/.exec(s)?.[1]);
    expect(new Set(ids).size).toBe(50);
    for (const s of sent) {
      const [head, body] = s.split('\r\n\r\n') as [string, string];
      expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    }
    const plain = makeTarget({ request: { url: 'http://api:8080/o', method: 'GET', headers: {} } }, 1000);
    expect(plain.next()).toBe(plain.next());
  });

  it('a header signs the body sent with it', () => {
    const t = makeTarget(
      {
        request: {
          url: 'http://api:8080/hook',
          method: 'POST',
          headers: { 'x-sig': "{{hmacSha256('s3cret', body)}}" },
          body: '{"id":"{{uuid()}}"}',
        },
      },
      1000,
    );
    for (let i = 0; i < 3; i++) {
      const [head, body] = nextText(t).split('\r\n\r\n') as [string, string];
      expect(head).toContain(`x-sig: ${createHmac('sha256', 's3cret').update(body).digest('hex')}`);
    }
  });

  it('random order draws rows from the whole file', () => {
    const next = templateSources({ ...data, order: 'random' });
    const seen = new Set(Array.from({ length: 200 }, () => next().row?.[0]));
    expect([...seen].sort()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('a stage split over instances tells each its place (closed and open loop)', () => {
    const target = { kind: 'http' as const, request: { url: 'http://a:1/', method: 'GET', headers: {} } };
    const base = { target, timeoutMs: 1000, workers: 3, startAtEpochMs: 0 };
    const closed = splitStage({
      ...base,
      phase: { kind: 'closed', name: 'c6', connections: 6 },
      limit: { durationMs: 1000 },
    });
    expect(closed.map((j) => 'offset' in j && [j.offset, j.stride])).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
  });
});

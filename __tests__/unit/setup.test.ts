// `setup` (issue 34, step 1): the config's steps read and checked, the rules that extract values, the
// runner's steps against a fake and a real 127.0.0.1 server, and the two placeholder passes (the host's
// environment, then the runner's values) that never let a value be read twice.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import { expandPlan, unfilledPlan } from '../../src/config/env.js';
import { buildPlan } from '../../src/run/runner-plan.js';
import { setupLine } from '../../src/run/sides.js';
import { setupFailure } from '../../src/session/replica-tasks.js';
import type { RunnerEvent, RunnerPlan } from '../../src/runner-kit/plan.js';
import {
  bodyPreview,
  cookieValue,
  type ExtractRule,
  extractValue,
  type PlanSetupStep,
  ruleProblem,
  type Extractable,
} from '../../src/runner-kit/setup.js';
import { BodyView, checkResponse } from '../../src/runner-kit/expect.js';
import { EVENT_MARKER } from '../../src/runner-kit/plan.js';
import { parseEventLine } from '../../src/runner-kit/validate.js';
import { fillPlaceholders } from '../../src/runner-kit/placeholders.js';
import { emit, maskValues } from '../../runner/src/emit.js';
import { maskEvent, maskForms, maskStreams, maskText } from '../../runner/src/mask.js';
import { filledPlan, namesInHeaders, runSetup, type SetupAnswer, sendOnce, setUpPlan } from '../../runner/src/setup.js';

type Raw = Record<string, unknown>;
const parse = (c: Raw) => parseConfigText(stringify(c), '/ws/perf-gate.yml', (p) => `/ws/${p}`);

function config(setup: unknown, headers: Record<string, string> = { authorization: 'Bearer ${token}' }): Raw {
  return {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    setup,
    scenarios: [
      { name: 's', request: { url: 'http://api:8080/private', headers }, phases: [{ connections: 2, duration: '1s' }] },
    ],
  };
}

const LOGIN = {
  name: 'login',
  request: { url: 'http://api:8080/login', method: 'post', body: { user: 'u', password: '${PASSWORD}' } },
  extract: { token: { json: '$.token' } },
};

describe('setup in the config', () => {
  it('reads steps as the scenarios read requests: method, JSON body and its content type, rules', () => {
    const { config: c, problems } = parse(
      config([
        LOGIN,
        {
          name: 'profile',
          request: {
            url: 'http://api:8080/me',
            headers: { authorization: 'Bearer ${token}' },
            expect: { status: 200 },
          },
          extract: { id: { regex: 'id=(\\d+)' }, whole: { regex: 'id=\\d+', group: 0 }, sid: { cookie: 'sid' } },
        },
      ]),
    );
    expect(problems).toEqual([]);
    expect(c?.setup).toEqual([
      {
        name: 'login',
        request: {
          url: 'http://api:8080/login',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"user":"u","password":"${PASSWORD}"}',
        },
        extract: [{ name: 'token', rule: { json: '$.token' } }],
      },
      {
        name: 'profile',
        request: {
          url: 'http://api:8080/me',
          method: 'GET',
          headers: { authorization: 'Bearer ${token}' },
          expect: { status: [200] },
        },
        extract: [
          { name: 'id', rule: { regex: 'id=(\\d+)', group: 1 } },
          { name: 'whole', rule: { regex: 'id=\\d+', group: 0 } },
          { name: 'sid', rule: { cookie: 'sid' } },
        ],
      },
    ]);
    // the plan carries the steps; the scenario hash is the scenario's (setup is not in it)
    const plan = buildPlan(c!.scenarios, [], () => [], 1, c!.setup);
    expect(plan.setup?.map((s) => s.name)).toEqual(['login', 'profile']);
  });

  it('a path is under target, as a scenario request is', () => {
    const raw: Raw = { ...config([{ ...LOGIN, request: { url: '/login' } }]), target: 'http://staging:9000/' };
    delete raw.sut;
    (raw.scenarios as Raw[])[0]!.request = { url: '/private' };
    const { config: c, problems } = parse(raw);
    expect(problems).toEqual([]);
    expect(c?.setup?.[0]?.request.url).toBe('http://staging:9000/login');
  });

  it.each<[string, unknown, string[]]>([
    ['an empty list', [], ['setup: must list at least one step']],
    ['not a list', { name: 'x' }, ['setup: must be a list of steps']],
    ['extract not a mapping', [{ ...LOGIN, extract: ['token'] }], ['setup[0].extract: must be a mapping, not a list']],
    [
      'a rule of two kinds',
      [{ ...LOGIN, extract: { token: { json: '$.t', header: 'x' } } }],
      [
        'setup[0].extract.token: must be one of { json: PATH }, { header: NAME }, { regex: EXPRESSION, group: N }, { cookie: NAME }',
      ],
    ],
    [
      'a value name that is not a placeholder name',
      [{ ...LOGIN, extract: { 'my-token': { json: '$.t' } } }],
      ['setup[0].extract.my-token: must be a name of letters, digits and _ (used as ${name})'],
    ],
    [
      'a JSON path that does not parse',
      [{ ...LOGIN, extract: { token: { json: '$..token' } } }],
      ["setup[0].extract.token: not a JSON path (like $.token, data.items[0].id or $['a.b']; no wildcards or ..)"],
    ],
    [
      'a regex that does not compile',
      [{ ...LOGIN, extract: { token: { regex: 'a(' } } }],
      ['setup[0].extract.token: not a regular expression (Invalid regular expression: /a(/: Unterminated group)'],
    ],
    [
      // appended to, `token\` once read as `token\|`: an escaped bar, and the runner threw
      'a regex ending in a backslash',
      [{ ...LOGIN, extract: { token: { regex: 'token=(\\w+)\\' } } }],
      [
        'setup[0].extract.token: not a regular expression (Invalid regular expression: /token=(\\w+)\\/: \\ at end of pattern)',
      ],
    ],
    [
      'Set-Cookie as a header rule',
      [{ ...LOGIN, extract: { sid: { header: 'Set-Cookie' } } }],
      ['setup[0].extract.sid: Set-Cookie is read with { cookie: NAME }'],
    ],
    [
      'a regex without the group asked for',
      [{ ...LOGIN, extract: { token: { regex: 'token=\\w+' } } }],
      ['setup[0].extract.token: group 1: the regex has no groups'],
    ],
    [
      'a header name with a space',
      [{ ...LOGIN, extract: { token: { header: 'x token' } } }],
      ['setup[0].extract.token: not a header name'],
    ],
    [
      'two steps of one name',
      [LOGIN, { ...LOGIN, extract: { other: { json: '$.o' } } }],
      ['setup: step name "login" is used twice (it names the step in messages)'],
    ],
    [
      'one value extracted twice',
      [LOGIN, { ...LOGIN, name: 'again' }],
      ['setup[1].extract.token: token is extracted by setup[0] (login) too'],
    ],
    [
      'a step using a value a later step extracts',
      [
        { ...LOGIN, request: { url: 'http://api:8080/login?t=${token2}' } },
        { ...LOGIN, name: 'two', extract: { token2: { json: '$.t' } } },
      ],
      [
        'setup[0].request: uses ${token2}, which a later step (setup[1], two) extracts; a step sees only the values of the steps before it',
      ],
    ],
    [
      'a step using its own value',
      [{ ...LOGIN, request: { url: 'http://api:8080/login', headers: { x: '${token}' } } }],
      ['setup[0].request: uses ${token}, which this step extracts; a step sees only the values of the steps before it'],
    ],
    [
      'a path without target',
      [{ ...LOGIN, request: { url: '/login' } }],
      [
        'setup[0].request.url: a path needs target (a running service’s base URL); with sut, give the whole URL (http://service:port/login)',
      ],
    ],
    [
      'localhost with a compose SUT',
      [{ ...LOGIN, request: { url: 'http://localhost:8080/login' } }],
      [
        "setup[0].request.url: localhost is the runner's own container, not the SUT: the runner joins the compose project's network, so name the service (http://api:8080/…), or give target: for a service running on this host",
      ],
    ],
    [
      'a bodies file (one request, sent once)',
      [{ ...LOGIN, request: { url: 'http://api:8080/login', bodies: 'b.jsonl' } }],
      ['setup[0].request.bodies: unknown key (keys here: url, method, headers, body, timeout, expect)'],
    ],
  ])('%s', (_label, setup, problems) => {
    const r = parse(config(setup));
    expect(r.problems).toEqual(problems);
    expect(r.config).toBeUndefined();
  });
});

const RESPONSE: Extractable = {
  headers: new Map([
    ['x-token', 'h-123'],
    ['content-type', 'application/json'],
    ['x-empty', ''],
  ]),
  setCookies: ['theme=dark; Path=/', 'sid=abc%3D; HttpOnly; Path=/', 'quoted="q v"; Path=/', 'sid=second; Path=/'],
  body: new BodyView(
    '{"token":"t-1","n":7,"ok":true,"user":{"id":42,"tags":["a","b"]},"nil":null,"empty":"","html":"id=99 code=;"}',
  ),
};

describe('extractValue', () => {
  it.each<[string, ExtractRule, string | undefined]>([
    ['a JSON string is its text', { json: '$.token' }, 't-1'],
    ['a path without $', { json: 'user.id' }, '42'],
    ['an index', { json: '$.user.tags[1]' }, 'b'],
    ['a number is its JSON', { json: '$.n' }, '7'],
    ['a boolean', { json: '$.ok' }, 'true'],
    ['null is no value', { json: '$.nil' }, undefined],
    ['an empty string is no value', { json: '$.empty' }, undefined],
    ['an empty header is no value', { header: 'x-empty' }, undefined],
    ['an empty regex group is no value', { regex: 'code=(\\d*);', group: 1 }, undefined],
    ['an object is its JSON text', { json: '$.user' }, '{"id":42,"tags":["a","b"]}'],
    ['a missing key finds nothing', { json: '$.missing' }, undefined],
    ['past an array finds nothing', { json: '$.user.tags[5]' }, undefined],
    ['a header, any case', { header: 'X-Token' }, 'h-123'],
    ['a missing header', { header: 'x-none' }, undefined],
    ['a cookie set twice: the last', { cookie: 'sid' }, 'second'],
    ['a quoted cookie value unquoted', { cookie: 'quoted' }, 'q v'],
    ['a missing cookie', { cookie: 'none' }, undefined],
    ['a regex group', { regex: 'id=(\\d+)', group: 1 }, '99'],
    ['the whole match', { regex: '"n":\\d', group: 0 }, '"n":7'],
    ['a regex that does not match', { regex: 'nope(\\d)', group: 1 }, undefined],
    ['an optional group that did not take part', { regex: 'token(x)?', group: 1 }, undefined],
  ])('%s', (_label, rule, value) => expect(extractValue(rule, RESPONSE)).toBe(value));

  it('a body that is not JSON has no JSON path', () =>
    expect(extractValue({ json: '$.a' }, { ...RESPONSE, body: new BodyView('<html>') })).toBeUndefined());

  it("a step's checks and its rules decode and parse its body once", () => {
    const parse = vi.spyOn(JSON, 'parse');
    const decode = vi.spyOn(Buffer.prototype, 'toString');
    try {
      const body = new BodyView(Buffer.from('{"id":7,"name":"x","tags":["a"]}'));
      const checked = checkResponse({ json: [{ path: '$.id', equals: 7 }], body: ['"x"'] }, { status: 200 }, body);
      const answer = { headers: new Map<string, string>(), setCookies: [], body };
      const values = [
        extractValue({ json: '$.name' }, answer),
        extractValue({ json: 'tags[0]' }, answer),
        extractValue({ regex: '"id":(\\d+)', group: 1 }, answer),
      ];
      expect(checked).toEqual({ ok: true });
      expect(values).toEqual(['x', 'a', '7']);
      expect(parse).toHaveBeenCalledTimes(1);
      expect(decode).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
      decode.mockRestore();
    }
  });

  it('a regex rule read again finds the same (its compiled form keeps no state between answers)', () => {
    const rule: ExtractRule = { regex: 'n=(\\d+)', group: 1 };
    const read = (text: string) => extractValue(rule, { ...RESPONSE, body: new BodyView(text) });
    expect([read('n=1'), read('n=22'), read('x'), read('n=3')]).toEqual(['1', '22', undefined, '3']);
  });

  it('cookies: name=value before the first ;, other names passed over', () => {
    expect(cookieValue(['a=1', 'b=2; Max-Age=0', 'broken'], 'b')).toBe('2');
    expect(cookieValue(['ab=1'], 'a')).toBeUndefined();
  });

  it.each<[ExtractRule, string | undefined]>([
    [{ json: '$.a.b[0]' }, undefined],
    [{ json: '' }, "not a JSON path (like $.token, data.items[0].id or $['a.b']; no wildcards or ..)"],
    [{ regex: '(a)(b)', group: 2 }, undefined],
    [{ regex: '(a)', group: 2 }, 'group 2: the regex has 1 group'],
    [{ regex: '(a)(b)', group: 3 }, 'group 3: the regex has 2 groups'],
    [{ cookie: 'a b' }, 'not a cookie name'],
    [{ header: 'x-ok' }, undefined],
  ])('ruleProblem(%j)', (rule, problem) => expect(ruleProblem(rule)).toBe(problem));

  it('a preview is bounded and escaped', () => {
    expect(bodyPreview('nope\n')).toBe('"nope\\n"');
    const long = bodyPreview('x'.repeat(500));
    expect(long).toBe(`"${'x'.repeat(200)}" …`);
    expect(bodyPreview('\u001b[31mred')).toBe('"\\u001b[31mred"');
  });
});

const step = (over: Partial<PlanSetupStep> = {}): PlanSetupStep => ({
  name: 'login',
  request: { url: 'http://api/login', method: 'POST', headers: {}, body: '{"p":"pw"}' },
  extract: [{ name: 'token', rule: { json: '$.token' } }],
  ...over,
});
const answer = (status: number, body: string, headers: Record<string, string> = {}): SetupAnswer => ({
  status,
  body,
  headers: new Map(Object.entries(headers)),
  setCookies: [],
  truncated: false,
});

describe('runSetup (a fake server)', () => {
  it('each step sees the values before it; a later step is sent with them filled in', async () => {
    const sent: string[] = [];
    const answers = [answer(200, '{"token":"T1"}'), answer(201, '{"id":5}')];
    const done = await runSetup(
      [
        step(),
        step({
          name: 'create',
          request: {
            url: 'http://api/items?t=${token}',
            method: 'POST',
            headers: { a: 'Bearer ${token}' },
            body: '$${x}',
          },
          extract: [{ name: 'id', rule: { json: '$.id' } }],
        }),
      ],
      1000,
      (r) => {
        sent.push(`${r.url} ${JSON.stringify(r.headers)} ${r.body}`);
        return Promise.resolve(answers.shift() as SetupAnswer);
      },
    );
    expect(sent).toEqual(['http://api/login {} {"p":"pw"}', 'http://api/items?t=T1 {"a":"Bearer T1"} ${x}']);
    expect(done.ok && [...done.values]).toEqual([
      ['token', 'T1'],
      ['id', '5'],
    ]);
    expect(done.ok && done.steps.map((s) => [s.name, s.status])).toEqual([
      ['login', 200],
      ['create', 201],
    ]);
  });

  it.each<[string, SetupAnswer, PlanSetupStep, string]>([
    ['no answer', { error: 'ECONNREFUSED' }, step(), 'POST: no answer (ECONNREFUSED)'],
    ['a 401', answer(401, 'bad password'), step(), 'HTTP 401, body "bad password": not a 2xx or 3xx status'],
    [
      'its expect fails',
      answer(200, '{"token":"x"}'),
      step({ request: { ...step().request, expect: { status: [201] } } }),
      'HTTP 200, body "{\\"token\\":\\"x\\"}": failed its expect (expect-status)',
    ],
    [
      'an extract finds nothing',
      answer(200, '{"tok":"x"}'),
      step(),
      'HTTP 200, body "{\\"tok\\":\\"x\\"}": extract token (json $.token) found nothing',
    ],
    [
      'a body too large',
      { ...answer(200, 'x'), truncated: true },
      step(),
      'HTTP 200, body "x": an answer larger than 1 MiB',
    ],
  ])('a failed step says what it got: %s', async (_label, got, s, message) => {
    const done = await runSetup([s, step({ name: 'never' })], 1000, () => Promise.resolve(got));
    expect(done).toEqual({ ok: false, step: 'login', message });
  });

  it.each<[string, string, boolean, string | undefined]>([
    ['a token used in a header', 'eyJ.abc-_=', true, undefined],
    ['a line break, in a header', 'a\r\nX-Evil: 1', true, 'a line break'],
    ['a line break, in a body only', 'line 1\nline 2', false, undefined],
    ['beyond Latin-1, in a header (U+010A is LF once cut to a byte)', 'a\u010ab', true, 'beyond Latin-1'],
    ['beyond Latin-1, in a body only', 'Zoë ☃', false, undefined],
    ['a NUL, in a header', 'a\0b', true, 'a NUL'],
    ['a template slot anywhere', 'x{{uuid()}}', false, '"{{"'],
  ])('an extracted value is checked for where it goes: %s', async (_label, value, inHeader, problem) => {
    const done = await runSetup(
      [step()],
      1000,
      () => Promise.resolve(answer(200, JSON.stringify({ token: value }))),
      () => 0,
      new Set(inHeader ? ['token'] : []),
    );
    if (problem === undefined) return expect(done.ok).toBe(true);
    expect(done.ok).toBe(false);
    const message = !done.ok ? done.message : '';
    expect(message).toMatch(/^HTTP 200: extract token \(json \$\.token\): the value holds /);
    expect(message).toContain(problem);
    // never the value itself (a token is a secret), nor the body that carried it
    expect(message).not.toContain(value.slice(0, 3));
  });

  it('a failed rule masks the values read before it from the same answer (the body shown holds them)', async () => {
    const done = await runSetup(
      [
        step({
          extract: [
            { name: 'access', rule: { json: '$.access_token' } },
            { name: 'refresh', rule: { json: '$.refresh_token' } },
          ],
        }),
      ],
      1000,
      () => Promise.resolve(answer(200, '{"access_token":"eyJhbGciOi.x","refresh_token":null}')),
    );
    expect(done).toEqual({
      ok: false,
      step: 'login',
      message:
        'HTTP 200, body "{\\"access_token\\":\\"***\\",\\"refresh_token\\":null}": extract refresh (json $.refresh_token) found nothing',
    });
  });

  it('namesInHeaders reads the host form: a literal $ before a name does not hide it; a name inside a call is not sent as it is', () => {
    const one = (headers: Record<string, string>) =>
      namesInHeaders({
        version: 1,
        progressIntervalMs: 1000,
        requestTimeoutMs: 1000,
        ready: [],
        scenarios: [
          {
            name: 's',
            target: { kind: 'http', request: { url: 'http://x/', method: 'GET', headers } },
            warmupMs: 0,
            trials: 1,
            phases: [],
          },
        ],
      });
    // `${P}${token}` with P = `a$`, as the host writes it
    expect([...one({ x: fillPlaceholders('${P}${token}', (n) => (n === 'P' ? 'a$' : undefined), 'host') })]).toEqual([
      'token',
    ]);
    expect([...one({ authorization: "Basic {{ base64('${user}:${pass}') }}" })]).toEqual([]);
    expect([...one({ a: "${id} {{ hmacSha256('k', '${token}') }}" })]).toEqual(['id']);
  });

  it("a value that makes a scenario's {{…}} call unreadable fails the step that extracted it, not quoting it", async () => {
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 1000,
      ready: [],
      setup: [step({ name: 'first', extract: [] }), step()],
      scenarios: [
        {
          name: 'signed',
          target: {
            kind: 'http',
            request: {
              url: 'http://x/',
              method: 'POST',
              headers: { 'x-sig': "{{ hmacSha256('${token}', body) }}" },
              body: '{}',
            },
          },
          warmupMs: 0,
          trials: 1,
          phases: [],
        },
      ],
    };
    const token = "it's-a-token";
    const got = await setUpPlan(plan, () => Promise.resolve(answer(200, JSON.stringify({ token }))));
    expect(got).toEqual({
      ok: false,
      step: 'login',
      message:
        "scenarios[0] (signed): a {{…}} call cannot be read once the setup's values are filled in (a value holding a quote, a brace or a parenthesis inside it)",
    });
    const fine = await setUpPlan(plan, () => Promise.resolve(answer(200, '{"token":"plain-token"}')));
    expect(fine.ok && (fine.plan.scenarios[0]!.target as { request: { headers: object } }).request.headers).toEqual({
      'x-sig': "{{ hmacSha256('plain-token', body) }}",
    });
  });

  it('namesInHeaders: the names a header or metadata value uses, in setup steps and every kind of scenario', () => {
    const scenario = (name: string, target: unknown) =>
      ({ name, target, warmupMs: 0, trials: 1, phases: [] }) as unknown as RunnerPlan['scenarios'][number];
    const names = namesInHeaders({
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 1000,
      ready: [],
      setup: [
        step(),
        step({ name: 'me', request: { url: 'http://api/${inUrl}', method: 'GET', headers: { a: '${stepHeader}' } } }),
      ],
      scenarios: [
        scenario('h', {
          kind: 'http',
          request: { url: 'http://x/', method: 'GET', headers: {}, body: '${inBody}' },
          mix: [
            { name: 'a', weight: 1, request: { url: 'http://x/', method: 'GET', headers: { b: 'x ${mixHeader}' } } },
          ],
        }),
        scenario('w', {
          kind: 'ws',
          websocket: { url: 'ws://x/${inWsUrl}', headers: { c: '${wsHeader}' }, hello: ['${inHello}'], message: '' },
        }),
        scenario('g', { kind: 'grpc', grpc: { url: 'grpc://x', metadata: { d: '${meta}' } } }),
      ],
    });
    expect([...names].sort()).toEqual(['meta', 'mixHeader', 'stepHeader', 'wsHeader']);
  });

  it('a long message is bounded to what the host accepts', async () => {
    const done = await runSetup(
      [step({ extract: [{ name: 'token', rule: { regex: `(${'a'.repeat(3000)})`, group: 1 } }] })],
      1000,
      () => Promise.resolve(answer(200, 'b')),
    );
    expect(!done.ok && done.message.length).toBeLessThanOrEqual(1502);
    const line = `${EVENT_MARKER}${JSON.stringify({ t: 'setup-failed', step: 'login', message: !done.ok && done.message })}`;
    expect(parseEventLine(line)).toMatchObject({ t: 'setup-failed', step: 'login' });
  });
});

describe('sendOnce (a real server on 127.0.0.1)', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method?: string; body: string; auth?: string }> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method,
          body,
          ...(req.headers.authorization ? { auth: req.headers.authorization } : {}),
        });
        if (req.url === '/login') {
          res.writeHead(302, { location: '/home', 'set-cookie': ['sid=s-1; HttpOnly', 'theme=dark'], 'x-token': 'h' });
          res.end();
        } else if (req.url === '/big') {
          res.writeHead(200);
          res.end('y'.repeat(1024 * 1024 + 10));
        } else if (req.url === '/slow') {
          setTimeout(() => res.end('late'), 2000);
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"token":"real"}');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a body is sent with its length; a redirect is not followed and its cookies are read', async () => {
    const done = await runSetup(
      [
        step({
          request: { url: `${base}/login`, method: 'POST', headers: {}, body: '{"p":"é"}' },
          extract: [
            { name: 'sid', rule: { cookie: 'sid' } },
            { name: 'h', rule: { header: 'x-token' } },
          ],
        }),
        step({
          name: 'token',
          request: { url: `${base}/token`, method: 'GET', headers: { authorization: 'S ${sid}' } },
        }),
      ],
      2000,
    );
    expect(done.ok && Object.fromEntries(done.values)).toEqual({ sid: 's-1', h: 'h', token: 'real' });
    expect(seen.slice(-2)).toEqual([
      { method: 'POST', body: '{"p":"é"}' },
      { method: 'GET', body: '', auth: 'S s-1' },
    ]);
  });

  it('an answer over 1 MiB is cut, and a slow one times out', async () => {
    const big = await sendOnce({ url: `${base}/big`, method: 'GET', headers: {} }, 2000);
    expect('truncated' in big && big.truncated).toBe(true);
    const slow = await sendOnce({ url: `${base}/slow`, method: 'GET', headers: {} }, 100);
    expect(slow).toEqual({ error: 'timed out after 100 ms' });
  });

  it('a request Node will not write, or no URL, is an answer with an error, not a throw', async () => {
    const bad = await sendOnce({ url: `${base}/`, method: 'GET', headers: { a: 'x\ny' } }, 1000);
    expect(bad).toEqual({ error: expect.stringContaining('Invalid character in header content') });
    expect(await sendOnce({ url: 'not a url', method: 'GET', headers: {} }, 1000)).toEqual({ error: 'not a URL' });
  });
});

describe('the two passes: the environment on the host, the setup values in the runner', () => {
  const plan: RunnerPlan = {
    version: 1,
    progressIntervalMs: 1000,
    requestTimeoutMs: 10_000,
    ready: [],
    setup: [step({ request: { url: 'http://api/login', method: 'POST', headers: {}, body: '{"p":"${PASSWORD}"}' } })],
    scenarios: [
      {
        name: 's',
        target: {
          kind: 'http',
          request: {
            url: 'http://api/private?u=${USER}',
            method: 'GET',
            headers: { authorization: 'Bearer ${token}', literal: '$${token}', tricky: '${TRICKY}' },
          },
        },
        warmupMs: 0,
        trials: 1,
        phases: [],
      },
    ],
  };
  const env = { PASSWORD: 'pw', USER: 'bob', TRICKY: 'x${token}y' };

  it('the host fills its values and leaves the setup names and the escapes; the runner reads both once', () => {
    const masked: string[] = [];
    const hosts = expandPlan(plan, env, (v) => masked.push(v));
    expect(hosts.setup?.[0]?.request.body).toBe('{"p":"pw"}');
    const request = (p: RunnerPlan) =>
      (p.scenarios[0]!.target as { request: { url: string; headers: object } }).request;
    expect(request(hosts)).toMatchObject({
      url: 'http://api/private?u=bob',
      headers: { authorization: 'Bearer ${token}', literal: '$${token}', tricky: 'x$${token}y' },
    });
    expect(masked).toEqual(['pw', 'bob', 'x${token}y']);
    const runners = filledPlan(hosts, new Map([['token', 'T']]));
    // an environment value holding ${token} is sent as it is, never read as a placeholder
    expect(request(runners).headers).toEqual({ authorization: 'Bearer T', literal: '${token}', tricky: 'x${token}y' });
  });

  it('a name no step extracts is still an environment variable, and unset is exit 2', () => {
    expect(() =>
      expandPlan({ ...plan, setup: [step({ extract: [{ name: 'other', rule: { json: '$.o' } }] })] }, env, () => {}),
    ).toThrow("scenarios[0] (s).request.headers.authorization: ${token} is not set in perf-gate's environment");
  });

  it('a setup name wins over an environment variable of the same name', () => {
    const hosts = expandPlan(plan, { ...env, token: 'FROM-ENV' }, () => {});
    const runners = filledPlan(hosts, new Map([['token', 'T']]));
    const headers = (runners.scenarios[0]!.target as { request: { headers: Record<string, string> } }).request.headers;
    expect(headers.authorization).toBe('Bearer T');
  });

  // what each text is after both passes: the same as one pass with every value known at once
  it.each([
    ['an environment value ending in $ before a literal {token}', '${P}{token}', { P: 'a$' }, 'a${token}'],
    ['an environment value holding an unclosed ${', '${P}', { P: 'x${y' }, 'x${y'],
    ['an environment value holding $$', '${P}', { P: 'p$$w' }, 'p$$w'],
    ['a literal $$ and a lone $', 'a$$b $ c$', {}, 'a$$b $ c$'],
    ['an escape beside a setup name', '$${token}${token}', {}, '${token}T'],
    ['a $ before an escape', '$$${token}', {}, '$${token}'],
    ['a $ before a setup name', '$${P}$${token}$', { P: 'v' }, '${P}${token}$'],
    ['an escape holding a $', '$${a$}', {}, '${a$}'],
    ['a setup value holding ${', '${token}', {}, 'T${x}', 'T${x}'],
  ])('%s', (_what, text, vars: Record<string, string>, want, token = 'T') => {
    const env = (name: string) => (name === 'token' ? undefined : vars[name]);
    const hosts = fillPlaceholders(text, env, 'host');
    expect(fillPlaceholders(hosts, (name) => (name === 'token' ? token : undefined), 'runner')).toBe(want);
    expect(fillPlaceholders(text, (name) => (name === 'token' ? token : vars[name]))).toBe(want);
  });

  it('two passes read 2,000 random texts as one pass with every value does', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const pieces = ['$', '{', '}', 'a', '${E}', '${token}', '$${E}', '$${token}', '$$'];
    const values = ['', '$', 'v$', '${token}', '{', '}', '$$', 'x${'];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: 1 + rand(8) }, () => pieces[rand(pieces.length)]).join('');
      const E = values[rand(values.length)] as string;
      const token = values[rand(values.length)] as string;
      const hosts = fillPlaceholders(text, (n) => (n === 'E' ? E : undefined), 'host');
      const both = fillPlaceholders(hosts, (n) => (n === 'token' ? token : undefined), 'runner');
      const once = fillPlaceholders(text, (n) => (n === 'E' ? E : n === 'token' ? token : undefined));
      expect({ text, E, token, both }).toEqual({ text, E, token, both: once });
    }
  });

  it('a plan for a runner the host does not start (render k8s) is in the runner form, nothing filled', () => {
    const written = unfilledPlan(plan);
    const headers = (p: RunnerPlan) => (p.scenarios[0]!.target as { request: { headers: object } }).request.headers;
    expect(headers(written)).toEqual({ authorization: 'Bearer ${token}', literal: '$${token}', tricky: '${TRICKY}' });
    expect(headers(filledPlan(written, new Map([['token', 'T$']])))).toEqual({
      authorization: 'Bearer T$',
      literal: '${token}',
      tricky: '${TRICKY}',
    });
    const { setup: _none, ...bare } = plan;
    expect(unfilledPlan(bare)).toBe(bare);
  });

  it('without setup the host reads escapes as before', () => {
    const { setup: _none, ...bare } = plan;
    const hosts = expandPlan(bare, { ...env, token: 'E' }, () => {});
    expect((hosts.scenarios[0]!.target as { request: { headers: object } }).request.headers).toEqual({
      authorization: 'Bearer E',
      literal: '${token}',
      tricky: 'x${token}y',
    });
  });
});

describe('masking: nothing the runner writes carries an extracted value', () => {
  const forms = maskForms(['tok-abc"def', 'acme', '42']);

  it('each value as it is, percent-encoded and JSON-escaped; none under 4 characters', () => {
    expect(forms).toEqual(['tok-abc%22def', 'tok-abc\\"def', 'tok-abc"def', 'acme']);
    expect(maskText('GET /t/tok-abc%22def?x=1 body "tok-abc\\"def" 42', forms)).toBe('GET /t/***?x=1 body "***" 42');
  });

  it("an event's free text is masked: a message, a URL, an error", () => {
    const ws = 'ws://broker/room?t=tok-abc%22def';
    expect(maskEvent({ t: 'fatal', message: `${ws}: no peer could connect` }, forms)).toEqual({
      t: 'fatal',
      message: 'ws://broker/room?t=***: no peer could connect',
    });
    expect(maskEvent({ t: 'warning', message: 'acme' }, forms)).toEqual({ t: 'warning', message: '***' });
    expect(maskEvent({ t: 'not-ready', url: `http://acme/`, error: 'x acme', timeoutMs: 1 }, forms)).toEqual({
      t: 'not-ready',
      url: 'http://***/',
      error: 'x ***',
      timeoutMs: 1,
    });
  });

  it('names, kinds and histograms are never touched: a scenario named like a value keeps its trials', () => {
    const trial = {
      t: 'trial',
      scenario: 'acme-orders',
      phase: 'acme',
      measurement: { errors: { acme: 1 } },
      histogram: 'HISTFAAAacmeBASE64',
      requests: [{ name: 'acme', measurement: {}, histogram: 'acme' }],
    } as unknown as RunnerEvent;
    expect(maskEvent(trial, forms)).toBe(trial);
    const stage = { t: 'stage', scenario: 'acme', phase: 'p', trial: 1, trials: 1, stage: 'warmup' } as RunnerEvent;
    expect(maskEvent(stage, forms)).toBe(stage);
    expect(maskEvent({ t: 'done' }, maskForms(['done']))).toEqual({ t: 'done' });
  });

  it('emit writes the masked event once maskValues was told', () => {
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => (lines.push(chunk), true)) as typeof process.stdout.write;
    try {
      maskValues(['s3cr3t-token', '42']);
      emit({ t: 'fatal', message: 'GET http://api/x?t=s3cr3t-token failed after 42 ms' });
    } finally {
      process.stdout.write = write;
      maskValues([]);
    }
    expect(lines).toEqual([`${EVENT_MARKER}{"t":"fatal","message":"GET http://api/x?t=*** failed after 42 ms"}\n`]);
  });

  it("every other line written (a hook's console.log, Node's report of an error) is masked; events pass as they are", () => {
    const written: unknown[] = [];
    const stream = { write: ((chunk: unknown) => (written.push(chunk), true)) as typeof process.stdout.write };
    maskStreams(forms, [stream]);
    stream.write('hook: token tok-abc"def\n');
    stream.write(Buffer.from('TypeError: Invalid URL { input: "http://acme/" }\n'));
    stream.write(`${EVENT_MARKER}{"t":"stage","scenario":"acme"}\n`);
    expect(written).toEqual([
      'hook: token ***\n',
      'TypeError: Invalid URL { input: "http://***/" }\n',
      `${EVENT_MARKER}{"t":"stage","scenario":"acme"}\n`,
    ]);
  });
});

describe('what the host says', () => {
  it('a setup line names the steps and the values, never a value', () => {
    expect(
      setupLine({
        t: 'setup',
        steps: [
          { name: 'login', status: 200, elapsedMs: 12 },
          { name: 'me', status: 200, elapsedMs: 3 },
        ],
        values: ['token', 'id'],
      }),
    ).toBe('setup: login (HTTP 200, 12 ms), me (HTTP 200, 3 ms); values token, id');
  });

  it('a failed step in one line', () =>
    expect(setupFailure('head: ', { step: 'login', message: 'HTTP 401, body "no": not a 2xx or 3xx status' })).toBe(
      'head: setup step login failed: HTTP 401, body "no": not a 2xx or 3xx status',
    ));
});

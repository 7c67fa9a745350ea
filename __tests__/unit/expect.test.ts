// Response checks (`expect`): the JSON path parser the host validates with and the runner evaluates
// with, and which check a response fails.
import { describe, expect, it } from 'vitest';
import {
  captures,
  checkResponse,
  type CheckedResponse,
  jsonEqual,
  parseJsonPath,
  type PlanExpect,
} from '../../src/runner-kit/expect.js';

describe('parseJsonPath', () => {
  const cases: Array<[string, Array<string | number> | undefined]> = [
    ['$', []],
    ['$.errors', ['errors']],
    ['errors', ['errors']],
    ['$.data.items[0].id', ['data', 'items', 0, 'id']],
    ['data.items[12]', ['data', 'items', 12]],
    ['[0].name', [0, 'name']],
    ["$['a.b'].c", ['a.b', 'c']],
    ['$["a b"]', ['a b']],
    ["$['it\\'s']", ["it's"]],
    ['$.x-request-id', ['x-request-id']],
    ['$..deep', undefined],
    ['$.a[', undefined],
    ['$.a[-1]', undefined],
    ['$a', undefined],
    ['a..b', undefined],
    ['$.a[*]', undefined],
    ['', undefined],
  ];
  it.each(cases)('%s', (path, steps) => {
    expect(parseJsonPath(path)).toEqual(steps);
  });
});

describe('jsonEqual', () => {
  it.each([
    [1, 1, true],
    ['1', 1, false],
    [null, null, true],
    [null, {}, false],
    [{ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[1, 2], [2, 1], false],
    [[], {}, false],
  ])('%j vs %j → %s', (a, b, equal) => {
    expect(jsonEqual(a, b)).toBe(equal);
  });
});

const res = (status: number, body?: string, headers?: Record<string, string>, truncated = false): CheckedResponse => ({
  status,
  ...(body !== undefined ? { body: Buffer.from(body) } : {}),
  ...(headers ? { headers: new Map(Object.entries(headers)) } : {}),
  truncated,
});

describe('checkResponse', () => {
  const graphql: PlanExpect = { json: [{ path: '$.errors', exists: false }] };
  const cases: Array<{
    name: string;
    e: PlanExpect | undefined;
    r: CheckedResponse;
    out: ReturnType<typeof checkResponse>;
  }> = [
    { name: 'no checks: 200 is a success', e: undefined, r: res(200), out: { ok: true } },
    { name: 'no checks: 302 is a success', e: undefined, r: res(302), out: { ok: true } },
    {
      name: 'no checks: 500 is a failure (its status class is the error)',
      e: undefined,
      r: res(500),
      out: { ok: false },
    },
    { name: 'status list: 201 listed', e: { status: [201] }, r: res(201), out: { ok: true } },
    {
      name: 'status list: a 200 not listed is expect-status',
      e: { status: [201] },
      r: res(200),
      out: { ok: false, check: 'expect-status' },
    },
    { name: 'status list: a listed 404 is a success', e: { status: [404] }, r: res(404), out: { ok: true } },
    { name: 'status list: an unlisted 503 is a plain failure', e: { status: [200] }, r: res(503), out: { ok: false } },
    {
      name: 'GraphQL: 200 with errors fails the JSON check',
      e: graphql,
      r: res(200, '{"data":null,"errors":[{"message":"boom"}]}'),
      out: { ok: false, check: 'expect-json' },
    },
    { name: 'GraphQL: 200 without errors passes', e: graphql, r: res(200, '{"data":{"a":1}}'), out: { ok: true } },
    {
      name: 'JSON check on a body that is not JSON',
      e: graphql,
      r: res(200, '<html>'),
      out: { ok: false, check: 'expect-json' },
    },
    {
      name: 'JSON equals (a nested value)',
      e: { json: [{ path: 'data.user.id', equals: 42 }] },
      r: res(200, '{"data":{"user":{"id":42}}}'),
      out: { ok: true },
    },
    {
      name: 'JSON equals fails on a different type',
      e: { json: [{ path: 'data.user.id', equals: 42 }] },
      r: res(200, '{"data":{"user":{"id":"42"}}}'),
      out: { ok: false, check: 'expect-json' },
    },
    {
      name: 'JSON exists: null is there',
      e: { json: [{ path: '$.a', exists: true }] },
      r: res(200, '{"a":null}'),
      out: { ok: true },
    },
    {
      name: 'JSON equals on a missing path fails',
      e: { json: [{ path: '$.items[3]', equals: 1 }] },
      r: res(200, '{"items":[1]}'),
      out: { ok: false, check: 'expect-json' },
    },
    { name: 'body substring present', e: { body: ['"ok"'] }, r: res(200, '{"status":"ok"}'), out: { ok: true } },
    {
      name: 'body substring missing',
      e: { body: ['"ok"', 'x'] },
      r: res(200, '{"status":"ok"}'),
      out: { ok: false, check: 'expect-body' },
    },
    { name: 'body substring in UTF-8', e: { body: ['größe'] }, r: res(200, '{"k":"größe"}'), out: { ok: true } },
    {
      name: 'header contains, case-insensitive',
      e: { headers: { 'content-type': 'application/json' } },
      r: res(200, undefined, { 'content-type': 'Application/JSON; charset=utf-8' }),
      out: { ok: true },
    },
    {
      name: 'header missing',
      e: { headers: { 'x-cache': 'hit' } },
      r: res(200, undefined, {}),
      out: { ok: false, check: 'expect-header' },
    },
    {
      name: 'status is checked before the body',
      e: { status: [200], body: ['ok'] },
      r: res(201, 'nope'),
      out: { ok: false, check: 'expect-status' },
    },
    {
      name: 'a body over the limit cannot be checked',
      e: { body: ['ok'] },
      r: res(200, 'ok', undefined, true),
      out: { ok: false, check: 'expect-too-large' },
    },
    {
      name: 'a truncated body does not matter to status-only checks',
      e: { status: [200] },
      r: res(200, undefined, undefined, true),
      out: { ok: true },
    },
  ];
  it.each(cases)('$name', ({ e, r, out }) => {
    expect(checkResponse(e, r)).toEqual(out);
  });

  it('captures only what the checks read', () => {
    expect(captures(undefined)).toEqual({ headers: false, body: false });
    expect(captures({ status: [200] })).toEqual({ headers: false, body: false });
    expect(captures({ headers: { a: 'b' } })).toEqual({ headers: true, body: false });
    expect(captures({ json: [{ path: 'a', exists: true }] })).toEqual({ headers: false, body: true });
  });
});

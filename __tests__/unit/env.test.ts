import { describe, expect, it } from 'vitest';
import { expandEnv, expandPlan } from '../../src/config/env.js';
import { placeholders } from '../../src/runner-kit/placeholders.js';
import { UserError } from '../../src/common/errors.js';
import type { RunnerPlan } from '../../src/runner-kit/plan.js';
import { targetOf } from './fixtures.js';

const ENV = { TOKEN: 's3cr3t', HOST: 'api:8080', EMPTY: '', WITH_DOLLAR: 'a${B}' };

describe('expandEnv', () => {
  it.each<[string, string]>([
    ['no placeholders', 'no placeholders'],
    ['Bearer ${TOKEN}', 'Bearer s3cr3t'],
    ['http://${HOST}/x?t=${TOKEN}', 'http://api:8080/x?t=s3cr3t'],
    ['${TOKEN}${TOKEN}', 's3cr3ts3cr3t'],
    ['$${TOKEN} stays', '${TOKEN} stays'],
    ['$$${TOKEN}', '$${TOKEN}'],
    ['price: $5 and {braces} and $TOKEN', 'price: $5 and {braces} and $TOKEN'],
    ['[${EMPTY}]', '[]'],
    // a value is inserted verbatim, never expanded again
    ['${WITH_DOLLAR}', 'a${B}'],
  ])('%j → %j', (text, expected) => {
    expect(expandEnv(text, ENV, 'k')).toBe(expected);
  });

  it('reports each non-empty value used, for masking', () => {
    const seen: string[] = [];
    expandEnv('${TOKEN} ${EMPTY} ${HOST} $${TOKEN}', ENV, 'k', (v) => seen.push(v));
    expect(seen).toEqual(['s3cr3t', 'api:8080']);
  });

  it.each<[string, string]>([
    ['${NOPE}', "scenarios[0].request.url: ${NOPE} is not set in perf-gate's environment"],
    ['${}', 'scenarios[0].request.url: ${} is not a variable name (letters, digits, _)'],
    ['${1ABC}', 'scenarios[0].request.url: ${1ABC} is not a variable name (letters, digits, _)'],
    ['${A-B}', 'scenarios[0].request.url: ${A-B} is not a variable name (letters, digits, _)'],
  ])('%j is a usage error naming the key', (text, message) => {
    let err: unknown;
    try {
      expandEnv(text, ENV, 'scenarios[0].request.url');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect((err as UserError).message).toBe(message);
  });

  it.each<[string, string[]]>([
    ['${A} ${B} $${C}', ['A', 'B']],
    ['none', []],
  ])('placeholders(%j)', (text, names) => expect(placeholders(text)).toEqual(names));
});

describe('expandPlan', () => {
  const plan: RunnerPlan = {
    version: 1,
    progressIntervalMs: 1000,
    requestTimeoutMs: 10_000,
    ready: [],
    scenarios: [
      {
        name: 'search',
        target: {
          kind: 'http',
          request: {
            url: 'http://${HOST}/search',
            method: 'POST',
            headers: { authorization: 'Bearer ${TOKEN}', 'x-plain': 'p' },
            body: '{"k":"${TOKEN}"}',
          },
        },
        warmupMs: 0,
        trials: 1,
        phases: [],
      },
      {
        name: 'mix',
        target: {
          kind: 'http',
          request: { url: 'http://h/', method: 'POST', headers: {}, bodies: ['{"a":1}', '{"t":"${TOKEN}"}'] },
        },
        warmupMs: 0,
        trials: 1,
        phases: [],
      },
    ],
  };

  it('fills url, headers, body and every body of bodies; the input plan is untouched', () => {
    const seen = new Set<string>();
    const out = expandPlan(plan, ENV, (v) => seen.add(v));
    expect(targetOf(out.scenarios[0], 'http').request).toEqual({
      url: 'http://api:8080/search',
      method: 'POST',
      headers: { authorization: 'Bearer s3cr3t', 'x-plain': 'p' },
      body: '{"k":"s3cr3t"}',
    });
    expect(targetOf(out.scenarios[1], 'http').request.bodies).toEqual(['{"a":1}', '{"t":"s3cr3t"}']);
    expect([...seen]).toEqual(['api:8080', 's3cr3t']);
    expect(targetOf(plan.scenarios[0], 'http').request.headers.authorization).toBe('Bearer ${TOKEN}');
  });

  it('names the scenario and the key of a missing variable', () => {
    expect(() => expandPlan(plan, { HOST: 'h' }, () => {})).toThrow(
      "scenarios[0] (search).request.headers.authorization: ${TOKEN} is not set in perf-gate's environment",
    );
    expect(() => expandPlan(plan, { HOST: 'h', TOKEN: 't' }, () => {})).not.toThrow();
    const onlyBodies = { ...plan, scenarios: [plan.scenarios[1]!] };
    expect(() => expandPlan(onlyBodies, {}, () => {})).toThrow(
      'scenarios[0] (mix).request.bodies[1]: ${TOKEN} is not set',
    );
  });
});

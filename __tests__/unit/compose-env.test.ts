// What `docker compose` (and so the SUT, and its logs) gets of perf-gate's environment (issue 20, class 8).
import { describe, expect, it } from 'vitest';
import { composeEnv } from '../../src/docker/compose.js';

const OWN = {
  PATH: '/usr/bin',
  HOME: '/root',
  'INPUT_GITHUB-TOKEN': 'ghs_secret',
  INPUT_CONFIG: 'perf-gate.yml',
  ACTIONS_RUNTIME_TOKEN: 'runtime',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
  GITHUB_TOKEN: 'ghs_other',
  GH_TOKEN: 'ghp_x',
  GITHUB_SHA: 'abc',
  DOCKER_HOST: 'unix:///var/run/docker.sock',
};

describe('composeEnv', () => {
  it('drops the Action inputs and the tokens, keeps the rest, sets the project', () => {
    const env = composeEnv(OWN, {}, 'perfgate-r1');
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/root',
      GITHUB_SHA: 'abc',
      DOCKER_HOST: 'unix:///var/run/docker.sock',
      COMPOSE_PROJECT_NAME: 'perfgate-r1',
    });
    expect(JSON.stringify(env)).not.toMatch(/ghs_|runtime|oidc|ghp_/);
  });

  it.each<[string, Record<string, string>, Record<string, string | undefined>]>([
    ['sut.env values as given', { LOG_LEVEL: 'warn' }, { LOG_LEVEL: 'warn' }],
    [
      'a scrubbed variable named with ${NAME} is handed over',
      { GITHUB_TOKEN: '${GITHUB_TOKEN}' },
      { GITHUB_TOKEN: 'ghs_other' },
    ],
    ['under another name', { API_TOKEN: '${GH_TOKEN}' }, { API_TOKEN: 'ghp_x', GH_TOKEN: undefined }],
    ['an unset ${NAME} is empty', { X: '${NOPE}' }, { X: '' }],
    ['${NAME} inside a longer value stays literal', { X: 'a${GITHUB_TOKEN}' }, { X: 'a${GITHUB_TOKEN}' }],
  ])('%s', (_l, sutEnv, expected) => {
    const env = composeEnv(OWN, sutEnv, 'p');
    for (const [k, v] of Object.entries(expected)) expect(env[k]).toBe(v);
  });
});

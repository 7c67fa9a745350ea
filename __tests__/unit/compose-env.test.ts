// What `docker compose` (and so the SUT, and its logs) gets of perf-gate's environment (issue 20, class 8), and
// the line a failed `compose up` becomes (class 7).
import { describe, expect, it } from 'vitest';
import { type ComposeModel, composeEnv, serviceImages, upFailure } from '../../src/docker/compose.js';

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

describe('upFailure: the one line for a failed compose up (issue 20, class 7)', () => {
  const model = { services: { api: { image: 'acme/api:1.2' }, db: { build: { context: '.' } } } };
  const PULL =
    ' api Pulling \n api Error Get "https://registry-1.docker.io/v2/": dial tcp: no such host\nError response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: no such host\n';
  it.each<[string, string, ComposeModel | undefined, string]>([
    [
      'a pull that failed names the service and its image',
      PULL,
      model,
      'service api: image acme/api:1.2 is not on this host and could not be pulled (Get "https://registry-1.docker.io/v2/": dial tcp: no such host); load it here (docker load), or give the service a build and set sut.build',
    ],
    [
      'without the model: compose’s last line',
      PULL,
      undefined,
      'Error response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: no such host',
    ],
    ['a service that only builds has no image to name', ' db Error failed to solve\nexit 1', model, 'exit 1'],
    ['an Error line of no service in the model', ' web Error boom\nlast', model, 'last'],
    [
      'any other failure: the last line',
      'container perfgate-r1-api-1 exited (1)\n',
      model,
      'container perfgate-r1-api-1 exited (1)',
    ],
  ])('%s', (_label, output, m, expected) => {
    expect(upFailure(output, m)).toBe(expected);
  });

  it('serviceImages lists the services that name an image', () => {
    expect(serviceImages(model)).toEqual({ api: 'acme/api:1.2' });
    expect(serviceImages({ services: { x: null, y: { image: 3 } } })).toEqual({});
  });
});

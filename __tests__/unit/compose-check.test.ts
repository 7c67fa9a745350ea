import { describe, expect, it } from 'vitest';
import { composeProblems, projectNames, startedServices } from '../../src/docker/compose-check.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config-parts/types.js';
import type { ComposeModel } from '../../src/docker/compose.js';

const MODEL: ComposeModel = {
  services: {
    api: { image: 'x', networks: { default: { aliases: ['api.internal'] } } },
    db: { image: 'postgres', container_name: 'pg' },
    web: { image: 'y', links: ['api:backend'], depends_on: { api: { condition: 'service_started', required: true } } },
  },
};

const config = (scenarios: string, ready = '', against = 'baselines'): Config => {
  const text = `version: 1\nsut:\n  compose: c.yml\n${ready}gate: { against: ${against} }\nscenarios:\n${scenarios}`;
  const { config: c, problems } = parseConfigText(text, '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  expect(problems).toEqual([]);
  return c as Config;
};
const http = (url: string) =>
  `  - { name: s, request: { url: ${JSON.stringify(url)} }, phases: [{ connections: 1, duration: 1s }] }\n`;

describe('startedServices: what compose up starts', () => {
  it.each<[string, string[], string[]]>([
    ['every service without sut.services', [], ['api', 'db', 'web']],
    ['the services asked and what they depend on (a map, as compose config writes it)', ['web'], ['api', 'web']],
    ['a list of dependencies, a loop, and a name not in the project', ['a'], ['a', 'b']],
  ])('%s', (_label, asked, started) => {
    const model: ComposeModel =
      asked[0] === 'a' ? { services: { a: { depends_on: ['b', 'ghost'] }, b: { depends_on: ['a'] }, c: {} } } : MODEL;
    expect([...startedServices(model, asked)].sort()).toEqual(started);
  });
});

describe('projectNames', () => {
  it('services, container_name, network aliases and link aliases', () => {
    expect([...projectNames(MODEL).names].sort()).toEqual(['api', 'api.internal', 'backend', 'db', 'pg', 'web']);
  });
});

describe('composeProblems: what run would find minutes in', () => {
  it.each<[string, Config, string[], string[]]>([
    ['a service by name', config(http('http://api:8080/x')), [], []],
    [
      'by container_name, alias or link alias',
      config(http('http://pg:1/') + http('http://backend:2/').replace('name: s', 'name: t')),
      [],
      [],
    ],
    ['case does not matter to DNS', config(http('http://API:8080/')), [], []],
    [
      'a typo names the service it is close to',
      config(http('http://apii:8080/')),
      [
        'scenarios[0].request.url: apii is not a service of the compose project (services: api, db, web) (did you mean api?)',
      ],
      [],
    ],
    [
      'sut.profile: a service of the project, its endpoint on a name the project has',
      config(http('http://api:8080/'), '  profile: { api: "http://api:6060/debug/pprof/profile" }\n'),
      [],
      [],
    ],
    [
      'sut.profile: a service the project does not have, and an endpoint on a host it does not have',
      config(
        http('http://api:8080/'),
        '  profile: { apii: "http://api:6060/debug/pprof/profile", web: "http://webb:6060/debug/pprof/profile" }\n',
      ),
      [
        'sut.profile.apii: apii is not a service of the compose project (services: api, db, web) (did you mean api?)',
        'sut.profile.web: webb is not a service of the compose project (services: api, db, web) (did you mean web?)',
      ],
      [],
    ],
    [
      'sut.profile: a service sut.services does not start, and one it starts as a dependency',
      config(
        http('http://api:8080/'),
        '  services: [web]\n  profile: { db: "http://pg:6060/debug/pprof/profile", api: "http://api:6060/debug/pprof/profile" }\n',
      ),
      ['sut.profile.db: db is not started (sut.services: web, and what they depend on): add it to sut.services'],
      [],
    ],
    [
      'a probe to a host that is not there',
      config(http('http://api:8080/'), '  ready: [{ url: "tcp://redis:6379" }]\n'),
      ['sut.ready[0].url: redis is not a service of the compose project (services: api, db, web)'],
      [],
    ],
    [
      'a dotted host outside the project is a note: it may be a real DNS name',
      config(http('http://example.com/')),
      [],
      [
        'scenarios[0].request.url: example.com is not a name in the compose project: the runner resolves it through DNS',
      ],
    ],
    ['an IP address is left alone', config(http('http://10.0.0.5:80/')), [], []],
    ['a ${NAME} host is filled in at run time', config(http('http://${API_HOST}:80/')), [], []],
  ])('%s', (_label, c, problems, notes) => {
    expect(composeProblems(c, MODEL, [])).toEqual({ problems, notes });
  });

  it('gate.against: base-ref on a project that cannot boot twice', () => {
    const blockers = ["service api uses the host's network (network_mode: host)"];
    expect(composeProblems(config(http('http://api/'), '', 'base-ref'), MODEL, blockers).problems).toEqual([
      "gate.against: base-ref boots head and base side by side, and this project cannot boot twice: service api uses the host's network (network_mode: host); gate against baselines",
    ]);
    expect(composeProblems(config(http('http://api/')), MODEL, blockers).problems).toEqual([]);
  });
});

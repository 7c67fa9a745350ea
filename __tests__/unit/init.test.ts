// perf-gate init on three fixture repositories (one service; several, with a database and a worker;
// no health check): what it finds in the compose file, and that what it writes is a config `validate`
// takes and a workflow actionlint passes.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { AGAINST_BASELINES, PAIRED } from '../../src/compare/judging.js';
import { confirmationReach } from '../../src/compare/reach.js';
import { checkRunnable } from '../../src/run/plan.js';
import { modeOf } from '../../src/modes/index.js';
import {
  ACTION_PLACEHOLDER,
  composeFileVariable,
  CONFIG_FILE,
  initCommand,
  type InitIO,
  WORKFLOW_FILE,
} from '../../src/init/command.js';
import {
  actionRef,
  defaultAgainst,
  mergeServices,
  renderConfig,
  scanCompose,
  scenarioName,
  surveyAddresses,
} from '../../src/init/init.js';
import pkgJson from '../../package.json' with { type: 'json' };
import { parseConfigText } from '../../src/config/load.js';
import { EXIT_USAGE, UserError } from '../../src/common/errors.js';
import { actionlintPath, failure, targetOf } from './fixtures.js';
import { realReadFs } from '../../src/common/read-fs.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** A copy of a fixture repository, and an InitIO on it that answers `answers` when asked. */
function repo(fixture: string, answers?: Record<string, string>, o: { byHand?: boolean } = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'perf-gate-init-'));
  cpSync(join(ROOT, 'fixtures/init', fixture), cwd, { recursive: true });
  mkdirSync(join(cwd, '.git'));
  const out: string[] = [];
  const asked: string[] = [];
  const io: InitIO = {
    cwd,
    fs: realReadFs,
    exists: existsSync,
    // the real `docker compose config` where it is installed (it needs no engine), else by hand
    ...(COMPOSE && !o.byHand ? { compose: composeCli } : {}),
    read: (p) => readFileSync(p, 'utf8'),
    write: (p, text) => {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
    },
    out: (l) => void out.push(l),
  };
  if (answers) {
    io.ask = async (q, fallback) => {
      asked.push(q);
      return Object.entries(answers).find(([k]) => q.includes(k))?.[1] ?? fallback;
    };
  }
  return { cwd, io, out, asked };
}

const OPTS = { compose: [], action: 'your-org/perf-gate@v0', force: false };
/** `docker compose` v2 is installed here (CI provisions it) */
const COMPOSE = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;
const composeCli = (args: string[], cwd: string) =>
  Promise.resolve(spawnSync('docker', ['compose', ...args], { cwd, encoding: 'utf8' })).then((r) => ({
    code: r.status ?? 1,
    stdout: r.stdout,
    stderr: r.stderr,
  }));
const WHERE = { project: 'perfgate-init', root: '/repo' };

describe('scanCompose: what each service speaks, read from the compose file', () => {
  it.each<[string, unknown, { port: number; kind: string; healthPath?: string; guessed?: boolean } | string]>([
    ['a published port "8080:80"', { ports: ['8080:80'] }, { port: 80, kind: 'http', guessed: true }],
    ['an IP and a protocol', { ports: ['127.0.0.1:8080:80/tcp'] }, { port: 80, kind: 'http', guessed: true }],
    ['a container port alone', { ports: ['3000'] }, { port: 3000, kind: 'http', guessed: true }],
    ['a number', { ports: [3000] }, { port: 3000, kind: 'http', guessed: true }],
    ['long syntax', { ports: [{ target: 80, published: '8080' }] }, { port: 80, kind: 'http', guessed: true }],
    ['expose', { expose: ['9001'] }, { port: 9001, kind: 'http', guessed: true }],
    [
      'a health check URL gives its path',
      { expose: [80], healthcheck: { test: 'curl -f http://localhost/healthz?full=1 || exit 1' } },
      { port: 80, kind: 'http', healthPath: '/healthz?full=1' },
    ],
    [
      'a health check without a scheme gives its path and port',
      { ports: ['8000:8000', '9090'], healthcheck: { test: ['CMD-SHELL', 'curl -f localhost:8000/health'] } },
      { port: 8000, kind: 'http', healthPath: '/health' },
    ],
    [
      'wget to 127.0.0.1 with a port and no path',
      { expose: ['3000'], healthcheck: { test: ['CMD', 'wget', '-qO-', '127.0.0.1:3000'] } },
      { port: 3000, kind: 'http', healthPath: '/' },
    ],
    [
      'the health check names the HTTP port among several',
      {
        ports: ['9229', '3000'],
        healthcheck: { test: ['CMD', 'node', '-e', "fetch('http://localhost:3000/api/health')"] },
      },
      { port: 3000, kind: 'http', healthPath: '/api/health' },
    ],
    [
      'a grpc_health_probe health check: gRPC, on the port of its -addr even when nothing is exposed',
      { image: 'acme/search', healthcheck: { test: ['CMD', '/bin/grpc_health_probe', '-addr=:50051'] } },
      { port: 50051, kind: 'grpc' },
    ],
    [
      'a database port is not HTTP',
      { ports: ['5432:5432'] },
      "PostgreSQL's port, port 5432: not HTTP; a database is loaded through the service that uses it",
    ],
    [
      'MySQL X protocol',
      { image: 'app', expose: ['33060'] },
      "MySQL X protocol's port, port 33060: not HTTP; a database is loaded through the service that uses it",
    ],
    [
      'a database image on an odd port',
      { image: 'postgres:16', ports: ['5433:5433'] },
      'PostgreSQL (image postgres:16), port 5433: not HTTP; a database is loaded through the service that uses it',
    ],
    [
      "a database image's HTTP port",
      { image: 'rabbitmq:3-management', ports: ['5672', '15672'] },
      { port: 15672, kind: 'http', guessed: true },
    ],
    ['UDP', { ports: ['51820:51820/udp'] }, 'UDP (WireGuard 51820); perf-gate loads TCP'],
    ['DNS on TCP: a tcp probe only', { ports: ['53:53'] }, "DNS's port (port 53), not HTTP: a tcp:// ready probe only"],
    ['a game server', { ports: ['25565:25565'] }, "Minecraft's port (port 25565), not HTTP: a tcp:// ready probe only"],
    [
      "gRPC's customary port without a health check: a tcp probe, and a note",
      { ports: ['50051'] },
      "gRPC's customary port's port (port 50051), not HTTP: a tcp:// ready probe only; add a grpc scenario with your proto",
    ],
    [
      'ports from variables with defaults',
      { ports: ['${PORT:-8080}:${PORT:-8080}'] },
      { port: 8080, kind: 'http', guessed: true },
    ],
    ['a variable without a default', { ports: ['${PORT}'] }, 'no ports or expose: where it listens is not known'],
    [
      'a service in a profile is not started by compose up',
      { expose: [80], profiles: ['debug'] },
      'in profiles debug: compose up does not start it unless asked',
    ],
    ['HTTP beside a database port', { ports: ['6379', '8080'] }, { port: 8080, kind: 'http', guessed: true }],
    ['no port at all', { image: 'worker' }, 'no ports or expose: where it listens is not known'],
    ['null service', null, 'no ports or expose: where it listens is not known'],
  ])('%s', (_label, def, expected) => {
    const scan = scanCompose({ services: { svc: def } }, WHERE);
    if (typeof expected === 'string') expect(scan.skipped).toEqual([{ name: 'svc', why: expected }]);
    else {
      expect(scan.services).toHaveLength(1);
      expect(scan.services[0]?.endpoint).toMatchObject(expected);
      if (!expected.guessed) expect(scan.services[0]?.endpoint.guessed).toBeUndefined();
    }
  });

  it('a service whose name a URL reads as an IPv4 address is left out, saying so', () => {
    const scan = scanCompose({ services: { 'web.1': { expose: [80] }, web: { expose: [80] } } }, WHERE);
    expect(scan.services.map((s) => s.name)).toEqual(['web']);
    expect(scan.skipped[0]?.why).toMatch(/^its name is not a URL host/);
  });

  it('--probe asks at most 16 ports of a service (a range is one entry a port)', () => {
    const ports = Array.from({ length: 1000 }, (_, i) => ({ target: 10000 + i }));
    expect(surveyAddresses({ services: { big: { image: 'x', ports } } })).toHaveLength(16);
  });

  it('a health check whose port or path is a variable: neither is guessed', () => {
    const scan = scanCompose(
      {
        services: {
          api: { expose: ['3000'], healthcheck: { test: 'curl -fsS http://localhost:$${PORT}/$${HEALTH_PATH}' } },
        },
      },
      WHERE,
    );
    expect(scan.services[0]?.endpoint).toMatchObject({ port: 3000, kind: 'http' });
    expect(scan.services[0]?.endpoint.healthPath).toBeUndefined();
  });

  it('several compose files read by hand: a later one adds to a service, as compose merges them', () => {
    const merged = mergeServices([
      { services: { api: { build: '.', expose: ['8080'] } } },
      { services: { api: { ports: ['127.0.0.1::8080'] }, web: { expose: [80] } } },
    ]);
    expect(scanCompose(merged, WHERE).services.map((s) => [s.name, s.endpoint.port, s.build])).toEqual([
      ['api', 8080, true],
      ['web', 80, false],
    ]);
  });

  it('two services that make one scenario name, and a path with a comma: a config that validates', () => {
    const scan = scanCompose({ services: { 'my.api': { expose: [80] }, 'my-api': { expose: [81] } } }, WHERE);
    const text = renderConfig(scan, {
      composeFiles: ['c.yml'],
      path: '/items?ids=1,2',
      against: 'base-ref',
      action: 'x/y@v0',
      configPath: 'perf-gate.yml',
      runAlpha: 0.01,
    });
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-init-'));
    writeFileSync(join(dir, 'c.yml'), 'services: {}\n');
    const parsed = parseConfigText(text, join(dir, 'perf-gate.yml'), (p) => join(dir, p));
    expect(parsed.problems).toEqual([]);
    expect(parsed.config?.scenarios.map((s) => [s.name, targetOf(s, 'http').request.url])).toEqual([
      ['my-api', 'http://my-api:81/items?ids=1,2'],
      ['my-api-2', 'http://my.api:80/items?ids=1,2'],
    ]);
  });

  it('names: lowercase [a-z0-9_-], at most 64', () => {
    expect(scenarioName('My.API')).toBe('my-api');
    expect(scenarioName('x'.repeat(80))).toHaveLength(64);
    expect(scenarioName('...')).toBe('service');
  });

  it('A/B wherever the project can boot twice: fixed ports and container_name are kept apart, host networking is not', () => {
    const model = (def: unknown) => ({
      services: { a: def },
      networks: { default: { name: 'perfgate-init_default' } },
    });
    expect(defaultAgainst(scanCompose(model({ expose: [80] }), WHERE)).against).toBe('base-ref');
    const pinned = defaultAgainst(
      scanCompose(
        model({ ports: [{ target: 80, published: '80' }], container_name: 'a', networks: { default: null } }),
        WHERE,
      ),
    );
    expect(pinned.against).toBe('base-ref');
    expect(pinned.why).toMatch(
      /perf-gate keeps the two copies apart: service a: published ports 80:80 not published; service a: container_name a dropped \(kept as its alias on default\)\)$/,
    );
    // more than three: the first three, and where the others are listed
    const many = defaultAgainst({
      services: [],
      probes: [],
      skipped: [],
      blockers: [],
      changes: ['c1', 'c2', 'c3', 'c4', 'c5'],
    });
    expect(many.why).toMatch(/apart: c1; c2; c3; and 2 more, every one listed in each A\/B run's report\)$/);
    const host = defaultAgainst(scanCompose(model({ expose: [80], network_mode: 'host' }), WHERE));
    expect(host.against).toBe('baselines');
    expect(host.why).toBe(
      "the SUT cannot boot twice side by side for A/B: service a uses the host's network (network_mode: host)",
    );
  });
});

describe('actionRef: the workflow uses perf-gate from its own repository', () => {
  it.each<[string, Parameters<typeof actionRef>[0], string | undefined]>([
    [
      'an object with a git+https URL',
      { version: '0.1.0', repository: { url: 'git+https://github.com/acme/perf-gate.git' } },
      'acme/perf-gate@v0',
    ],
    ['the github: shorthand', { version: '2.3.4', repository: 'github:acme/pg' }, 'acme/pg@v2'],
    ['an ssh URL', { version: '1.0.0', repository: { url: 'git@github.com:acme/pg.git' } }, 'acme/pg@v1'],
    ['no repository', { version: '1.0.0' }, undefined],
    ['not on GitHub', { version: '1.0.0', repository: { url: 'https://gitlab.com/acme/pg.git' } }, undefined],
  ])('%s', (_label, pkg, expected) => {
    expect(actionRef(pkg)).toBe(expected);
  });
  it("this package's own", () => {
    expect(actionRef(pkgJson)).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
  });
});

describe('perf-gate init on the fixture repositories', () => {
  const lint = actionlintPath();

  it.each<[string, string[], string[], 'base-ref' | 'baselines']>([
    // its fixed host port is kept apart in A/B: A/B
    ['one-service', ['api'], ['http://api:8080/health'], 'base-ref'],
    // compose config lists services by name
    // api has no health check: its probe waits for the port to accept a connection
    ['several-services', ['api', 'web'], ['tcp://api:8080', 'http://web:3000/ready'], 'base-ref'],
    ['no-healthcheck', ['app'], ['tcp://app:8080'], 'base-ref'],
  ])('%s: a config validate takes and a workflow actionlint passes', async (fixture, scenarios, ready, against) => {
    const r = repo(fixture);
    await initCommand(OPTS, r.io);
    const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs);
    checkRunnable(config, realReadFs);
    expect(config.scenarios.map((s) => s.name)).toEqual(scenarios);
    expect(config.sut.ready.map((p) => p.url)).toEqual(ready);
    expect(config.gate.against).toBe(against);
    // the gate it sets up can fail on a change, in the mode pull requests use and in the other,
    // with the run's false-alarm budget it writes shared by its phases
    expect(config.gate.runAlpha).toBe(0.01);
    expect(config.gate.earlyLook).toBe(3);
    expect(confirmationReach(config, AGAINST_BASELINES).problems).toEqual([]);
    expect(confirmationReach(config, PAIRED).problems).toEqual([]);
    for (const m of ['gate', 'ab'] as const) expect(modeOf(m).validate(config, m).problems).toEqual([]);
    for (const s of config.scenarios) expect(s.sweep?.levels).toEqual([1, 5, 10, 25, 50]);
    const workflow = parse(readFileSync(join(r.cwd, WORKFLOW_FILE), 'utf8')) as { jobs: Record<string, unknown> };
    expect(Object.keys(workflow.jobs)).toEqual(['gate', 'refresh', 'sweep']);
    expect(JSON.stringify(workflow.jobs.gate)).toContain(against === 'base-ref' ? '"mode":"ab"' : '"mode":"gate"');
    expect(r.out[0]).toMatch(/^wrote perf-gate\.yml \(\d scenarios?: .*\) and \.github\/workflows\/perf-gate\.yml$/);
    const text = readFileSync(join(r.cwd, WORKFLOW_FILE), 'utf8');
    expect(text).toContain('timeout-minutes:');
    expect(text).toContain('concurrency:');
    if (lint || process.env.CI) {
      expect(lint, 'actionlint is needed in CI: bash scripts/provision-test-tools.sh').toBeDefined();
      const res = spawnSync(lint as string, ['-color=false', join(r.cwd, WORKFLOW_FILE)], { encoding: 'utf8' });
      expect(res.stdout + res.stderr).toBe('');
      expect(res.status).toBe(0);
    }
  });

  it('several services: the database and the worker are left out, and it says why', async () => {
    const r = repo('several-services');
    await initCommand(OPTS, r.io);
    const db =
      'PostgreSQL (image postgres:16), port 5432: not HTTP; a database is loaded through the service that uses it';
    expect(r.out).toContain(`left out db: ${db}`);
    expect(r.out).toContain('left out worker: no ports or expose: where it listens is not known');
    const text = readFileSync(join(r.cwd, CONFIG_FILE), 'utf8');
    expect(text).toContain(`#   db: ${db}`);
  });

  it('on a terminal it asks the path and the gate; the answers are used', async () => {
    const r = repo('no-healthcheck', { path: '/v1/items', gate: 'baselines' });
    await initCommand(OPTS, r.io);
    expect(r.asked).toHaveLength(2);
    const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs);
    expect(targetOf(config.scenarios[0], 'http').request.url).toBe('http://app:8080/v1/items');
    expect(config.gate.against).toBe('baselines');
  });

  it('options answer without asking', async () => {
    const r = repo('no-healthcheck', {});
    await initCommand({ ...OPTS, path: 'status', against: 'baselines' }, r.io);
    expect(r.asked).toEqual([]);
    expect(targetOf(loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs).scenarios[0], 'http').request.url).toBe(
      'http://app:8080/status',
    );
  });

  it.each<[string, (r: ReturnType<typeof repo>) => Parameters<typeof initCommand>[0], RegExp]>([
    [
      'an existing perf-gate.yml without --force',
      (r) => {
        writeFileSync(join(r.cwd, CONFIG_FILE), 'version: 1\n');
        return OPTS;
      },
      /^perf-gate\.yml exists; perf-gate init writes it only with --force$/,
    ],
    [
      'no compose file',
      (r) => {
        writeFileSync(join(r.cwd, 'docker-compose.yml'), '');
        return { ...OPTS, compose: ['nope.yml'] };
      },
      /^--compose nope\.yml: no such file \(in .+\)$/,
    ],
    [
      'an --against that is neither',
      () => ({ ...OPTS, against: 'main' }),
      /^--against main: must be base-ref or baselines$/,
    ],
  ])('%s: exit 2, one line', async (_label, setup, message) => {
    const r = repo('no-healthcheck');
    const err = await failure(initCommand(setup(r), r.io));
    expect(err).toBeInstanceOf(UserError);
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.message).toMatch(message);
  });

  it('a directory without a compose file, and one with no HTTP service: exit 2 saying so', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'perf-gate-init-'));
    const r = repo('no-healthcheck');
    const none = await failure(initCommand(OPTS, { ...r.io, cwd: empty }));
    expect(none.message).toBe(
      'no compose file here (compose.yaml, compose.yml, docker-compose.yml, docker-compose.yaml); give one with --compose FILE',
    );
    writeFileSync(join(empty, 'compose.yaml'), 'services:\n  db: { image: postgres, ports: ["5432"] }\n');
    const noHttp = await failure(initCommand(OPTS, { ...r.io, cwd: empty }));
    expect(noHttp.message).toMatch(/^no HTTP or gRPC service in compose\.yaml/);
    expect(noHttp.details).toEqual([
      '  db: PostgreSQL (image postgres), port 5432: not HTTP; a database is loaded through the service that uses it',
    ]);
  });

  it.each([
    [40, 0.01],
    // 41 phases: the confirmation cap grows (A/B: 13 pairs) where 12 could not reach a phase's share
    [41, 0.01],
    // 60 phases at 0.01 is 0.00017 a phase: against a 5-trial baseline a row moving alone among three
    // cannot get there by 24 trials (the joint test samples there: 4 in 20,001 at its 99% bound); off,
    // saying so, and each row at its own alpha
    [60, undefined],
    [200, undefined],
  ])('%i services: gate.run-alpha written where A/B and the gate can both reach its share', async (n, runAlpha) => {
    const r = repo('no-healthcheck');
    const services = Array.from({ length: n }, (_, i) => `  api${i}: { image: api, ports: ["8080"] }`);
    writeFileSync(join(r.cwd, 'docker-compose.yml'), `services:\n${services.join('\n')}\n`);
    await initCommand(OPTS, r.io);
    const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs);
    expect(config.scenarios).toHaveLength(n);
    expect(config.gate.runAlpha).toBe(runAlpha);
    for (const m of ['gate', 'ab'] as const) expect(modeOf(m).validate(config, m).problems).toEqual([]);
    const left = r.out.filter((l) => l.startsWith('gate.run-alpha: off written'));
    expect(left).toEqual(
      runAlpha
        ? []
        : [
            `gate.run-alpha: off written: 0.01 shared by these ${n} scenarios' phases is beyond what ab.pairs and gate.confirm.max-trials can confirm; each row is tested at its own alpha (docs/gate.md says more)`,
          ],
    );
    expect(readFileSync(join(r.cwd, CONFIG_FILE), 'utf8')).toMatch(
      runAlpha ? /\n {2}run-alpha: 0\.01 / : /\n {2}run-alpha: off /,
    );
  });

  it('--force overwrites', async () => {
    const r = repo('no-healthcheck');
    writeFileSync(join(r.cwd, CONFIG_FILE), 'old\n');
    await initCommand({ ...OPTS, force: true }, r.io);
    expect(readFileSync(join(r.cwd, CONFIG_FILE), 'utf8')).toMatch(/^# yaml-language-server/);
  });
});

describe('perf-gate init where the project is more than one file', () => {
  it('compose loads the override by default: init reads it and names both files', async () => {
    const r = repo('no-healthcheck');
    writeFileSync(
      join(r.cwd, 'docker-compose.override.yml'),
      'services:\n  app:\n    expose: [9090]\n    healthcheck: { test: "curl -f localhost:9090/ready" }\n',
    );
    await initCommand(OPTS, r.io);
    const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs);
    expect(config.sut.composeFiles).toEqual([
      join(r.cwd, 'docker-compose.yml'),
      join(r.cwd, 'docker-compose.override.yml'),
    ]);
    expect(config.sut.ready.map((p) => p.url)).toEqual(['http://app:9090/ready']);
  });

  it.skipIf(!COMPOSE)(
    '.env and interpolation: the port compose resolves, not "where it listens is not known"',
    async () => {
      const r = repo('no-healthcheck');
      writeFileSync(
        join(r.cwd, 'docker-compose.yml'),
        'services:\n  app:\n    image: x\n    ports: ["${FRONTEND_PORT}:${FRONTEND_PORT}"]\n',
      );
      writeFileSync(join(r.cwd, '.env'), 'FRONTEND_PORT=8081\n');
      await initCommand(OPTS, r.io);
      const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs);
      expect(targetOf(config.scenarios[0], 'http').request.url).toBe('http://app:8081/');
    },
  );

  it('COMPOSE_FILE (from .env or the environment) names the files, as compose reads it', async () => {
    const r = repo('no-healthcheck');
    writeFileSync(join(r.cwd, 'extra.yml'), 'services:\n  api:\n    image: y\n    expose: [9000]\n');
    writeFileSync(join(r.cwd, '.env'), 'COMPOSE_FILE=docker-compose.yml:extra.yml\n');
    await initCommand(OPTS, r.io);
    const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs);
    expect(config.sut.composeFiles).toEqual([join(r.cwd, 'docker-compose.yml'), join(r.cwd, 'extra.yml')]);
    expect(composeFileVariable({ COMPOSE_FILE: 'a.yml;b.yml', COMPOSE_PATH_SEPARATOR: ';' }, undefined)).toEqual([
      'a.yml',
      'b.yml',
    ]);
    expect(composeFileVariable({}, 'export COMPOSE_FILE="x.yml:y.yml"\n')).toEqual(['x.yml', 'y.yml']);
    expect(composeFileVariable({}, 'OTHER=1\n')).toBeUndefined();
  });

  it('a compose file with many YAML aliases (a real one had 124) reads by hand too', async () => {
    const r = repo('no-healthcheck', undefined, { byHand: true });
    const services = Array.from({ length: 130 }, (_, i) => `  s${i}:\n    <<: *common\n`).join('');
    writeFileSync(
      join(r.cwd, 'docker-compose.yml'),
      `x-common: &common\n  image: x\n  expose: [8080]\nservices:\n${services}`,
    );
    await initCommand(OPTS, r.io);
    expect(r.out[0]).toMatch(/^warning: docker compose is not installed here: docker-compose\.yml read by hand/);
    expect(loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs).scenarios).toHaveLength(130);
  });

  it('from a subdirectory: the config here, the workflow at the repository root naming the config', async () => {
    const r = repo('no-healthcheck');
    const sub = join(r.cwd, 'services', 'api');
    mkdirSync(sub, { recursive: true });
    cpSync(join(r.cwd, 'docker-compose.yml'), join(sub, 'docker-compose.yml'));
    await initCommand(OPTS, { ...r.io, cwd: sub });
    expect(existsSync(join(sub, CONFIG_FILE))).toBe(true);
    expect(existsSync(join(sub, '.github'))).toBe(false);
    const workflow = readFileSync(join(r.cwd, WORKFLOW_FILE), 'utf8');
    expect(workflow).toContain('          config: "services/api/perf-gate.yml"');
    expect(r.out[0]).toContain('and ../../.github/workflows/perf-gate.yml');
  });

  it('--fork writes the workflow_run report flow beside the gate, and both lint', async () => {
    const r = repo('no-healthcheck');
    await initCommand({ ...OPTS, fork: true }, r.io);
    const gate = readFileSync(join(r.cwd, WORKFLOW_FILE), 'utf8');
    expect(gate).toContain('comment: never');
    expect(gate).toContain('name: perf-gate-results');
    const report = parse(readFileSync(join(r.cwd, '.github/workflows/perf-gate-report.yml'), 'utf8')) as {
      on: { workflow_run: { workflows: string[] } };
    };
    expect(report.on.workflow_run.workflows).toEqual(['perf-gate']);
    const lint = actionlintPath();
    if (lint || process.env.CI) {
      expect(lint, 'actionlint is needed in CI').toBeDefined();
      for (const f of [WORKFLOW_FILE, '.github/workflows/perf-gate-report.yml']) {
        const res = spawnSync(lint as string, ['-color=false', join(r.cwd, f)], { encoding: 'utf8' });
        expect(res.stdout + res.stderr).toBe('');
      }
    }
  });

  it("--fork writes the cookbook's fork flow: the same upload steps, the same report job, the same refresh pull request", async () => {
    const r = repo('no-healthcheck');
    await initCommand({ ...OPTS, fork: true, action: actionRef(pkgJson) as string }, r.io);
    type Workflow = { name: string; jobs: Record<string, { steps: Array<Record<string, unknown>> }> };
    const written = (f: string) => parse(readFileSync(join(r.cwd, f), 'utf8')) as Workflow;
    const gate = written(WORKFLOW_FILE);
    const report = written('.github/workflows/perf-gate-report.yml');
    const cookbook = [...readFileSync(join(ROOT, 'docs/cookbook.md'), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => parse(m[1] as string) as Workflow)
      .filter((w) => w && typeof w === 'object' && 'jobs' in w);
    const recipe = (name: string) => cookbook.find((w) => w.name === name) as Workflow;
    // the gate job ends as the recipe's untrusted run does: the PR number, then the artifact
    const forkRun = cookbook.find((w) => w.jobs.perf?.steps.some((st) => st.uses === 'actions/upload-artifact@v4'));
    expect(gate.jobs.gate?.steps.slice(-2)).toEqual(forkRun?.jobs.perf?.steps.slice(-2));
    expect(report.jobs.report?.steps).toEqual(recipe('perf-report').jobs.report?.steps);
    const pullRequest = (w: Workflow, job: string) =>
      w.jobs[job]?.steps.find((st) => st.uses === 'peter-evans/create-pull-request@v7');
    expect(pullRequest(gate, 'refresh')).toEqual(pullRequest(recipe('perf-baselines'), 'refresh'));
  });

  it('the placeholder uses: is called out', async () => {
    const r = repo('no-healthcheck');
    await initCommand({ ...OPTS, action: ACTION_PLACEHOLDER }, r.io);
    expect(r.out).toContain(
      "the workflow uses your-org/perf-gate@v0: replace it with where perf-gate's Action lives (--action REF)",
    );
  });

  it('a gRPC service with grpc_health_probe: a grpc:// probe and a scenario calling the health check, its proto written', async () => {
    const r = repo('no-healthcheck');
    writeFileSync(
      join(r.cwd, 'docker-compose.yml'),
      "services:\n  search:\n    image: acme/search\n    healthcheck:\n      test: ['CMD', '/bin/grpc_health_probe', '-addr=:50051']\n  db:\n    image: mysql:8\n    expose: ['3306', '33060']\n",
    );
    await initCommand(OPTS, r.io);
    const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd, realReadFs);
    expect(config.sut.ready.map((p) => p.url)).toEqual(['grpc://search:50051']);
    expect(config.scenarios.map((s) => [s.name, s.target.kind])).toEqual([['search', 'grpc']]);
    expect(existsSync(join(r.cwd, 'perf-gate/grpc-health.proto'))).toBe(true);
    expect(readFileSync(join(r.cwd, CONFIG_FILE), 'utf8')).not.toMatch(/http:\/\/(search|db)/);
  });
});

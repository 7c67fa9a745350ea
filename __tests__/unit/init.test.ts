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
import { confirmationReach } from '../../src/compare/reach.js';
import { checkRunnable } from '../../src/run-plan.js';
import { CONFIG_FILE, initCommand, type InitIO, WORKFLOW_FILE } from '../../src/init/command.js';
import { defaultAgainst, mergeServices, renderConfig, scanCompose, scenarioName } from '../../src/init/init.js';
import { parseConfigText } from '../../src/config/load.js';
import { EXIT_USAGE, UserError } from '../../src/errors.js';
import { actionlintPath, failure, targetOf } from './fixtures.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** A copy of a fixture repository, and an InitIO on it that answers `answers` when asked. */
function repo(fixture: string, answers?: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), 'perf-gate-init-'));
  cpSync(join(ROOT, 'fixtures/init', fixture), cwd, { recursive: true });
  const out: string[] = [];
  const asked: string[] = [];
  const io: InitIO = {
    cwd,
    exists: existsSync,
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

describe('scanCompose', () => {
  it.each<[string, unknown, { port: number; fixed: boolean; healthPath?: string } | string]>([
    ['a published port "8080:80"', { ports: ['8080:80'] }, { port: 80, fixed: true }],
    ['an IP and a protocol', { ports: ['127.0.0.1:8080:80/tcp'] }, { port: 80, fixed: true }],
    ['a container port alone', { ports: ['3000'] }, { port: 3000, fixed: false }],
    ['a number', { ports: [3000] }, { port: 3000, fixed: false }],
    ['long syntax, published', { ports: [{ target: 80, published: 8080 }] }, { port: 80, fixed: true }],
    ['long syntax, not published', { ports: [{ target: 80 }] }, { port: 80, fixed: false }],
    ['expose', { expose: ['9000'] }, { port: 9000, fixed: false }],
    ['container_name pins it too', { expose: [80], container_name: 'x' }, { port: 80, fixed: true }],
    [
      'a health check URL gives its path',
      { expose: [80], healthcheck: { test: 'curl -f http://localhost/healthz?full=1 || exit 1' } },
      { port: 80, fixed: false, healthPath: '/healthz?full=1' },
    ],
    ['a database port is not HTTP', { ports: ['5432:5432'] }, 'PostgreSQL (port 5432), not HTTP'],
    // review: Docker chooses the host port here, so it can boot twice
    ['an empty host port', { ports: ['127.0.0.1::8080'] }, { port: 8080, fixed: false }],
    ['ports from variables with defaults', { ports: ['${PORT:-8080}:${PORT:-8080}'] }, { port: 8080, fixed: true }],
    ['a variable without a default', { ports: ['${PORT}'] }, 'no ports or expose: where it listens is not known'],
    [
      'a service in a profile is not started by compose up',
      { expose: [80], profiles: ['debug'] },
      'in profiles debug: compose up does not start it unless asked',
    ],
    ['HTTP beside a database port', { ports: ['6379', '8080'] }, { port: 8080, fixed: false }],
    ['no port at all', { image: 'worker' }, 'no ports or expose: where it listens is not known'],
    ['null service', null, 'no ports or expose: where it listens is not known'],
  ])('%s', (_label, def, expected) => {
    const scan = scanCompose({ services: { svc: def } });
    if (typeof expected === 'string') expect(scan.skipped).toEqual([{ name: 'svc', why: expected }]);
    else expect(scan.services).toEqual([{ name: 'svc', build: false, ...expected }]);
  });

  it('several compose files: a later one adds to a service, as compose merges them', () => {
    const merged = mergeServices([
      { services: { api: { build: '.', expose: ['8080'] } } },
      { services: { api: { ports: ['127.0.0.1::8080'] }, web: { expose: [80] } } },
    ]);
    expect(scanCompose(merged).services).toEqual([
      { name: 'api', port: 8080, fixed: false, build: true },
      { name: 'web', port: 80, fixed: false, build: false },
    ]);
  });

  it('two services that make one scenario name, and a path with a comma: a config that validates', () => {
    const scan = scanCompose({ services: { 'my.api': { expose: [80] }, 'my-api': { expose: [81] } } });
    const text = renderConfig(scan, {
      composeFiles: ['c.yml'],
      path: '/items?ids=1,2',
      against: 'base-ref',
      action: 'x/y@v0',
      configPath: 'perf-gate.yml',
    });
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-init-'));
    writeFileSync(join(dir, 'c.yml'), 'services: {}\n');
    const parsed = parseConfigText(text, join(dir, 'perf-gate.yml'), (p) => join(dir, p));
    expect(parsed.problems).toEqual([]);
    expect(parsed.config?.scenarios.map((s) => [s.name, targetOf(s, 'http').request.url])).toEqual([
      ['my-api', 'http://my.api:80/items?ids=1,2'],
      ['my-api-2', 'http://my-api:81/items?ids=1,2'],
    ]);
  });

  it('names: lowercase [a-z0-9_-], at most 64', () => {
    expect(scenarioName('My.API')).toBe('my-api');
    expect(scenarioName('x'.repeat(80))).toHaveLength(64);
    expect(scenarioName('...')).toBe('service');
  });

  it('A/B by default, baselines when a service cannot boot twice (and says which)', () => {
    expect(defaultAgainst(scanCompose({ services: { a: { expose: [80] } } })).against).toBe('base-ref');
    const pinned = defaultAgainst(scanCompose({ services: { a: { ports: ['80:80'] } } }));
    expect(pinned.against).toBe('baselines');
    expect(pinned.why).toMatch(/^a publishes a fixed host port or set container_name/);
  });
});

describe('perf-gate init on the fixture repositories', () => {
  const lint = actionlintPath();

  it.each<[string, string[], string[], 'base-ref' | 'baselines']>([
    ['one-service', ['api'], ['http://api:8080/health'], 'baselines'],
    ['several-services', ['web', 'api'], ['http://web:3000/ready', 'http://api:8080/'], 'base-ref'],
    ['no-healthcheck', ['app'], ['http://app:8080/'], 'base-ref'],
  ])('%s: a config validate takes and a workflow actionlint passes', async (fixture, scenarios, ready, against) => {
    const r = repo(fixture);
    await initCommand(OPTS, r.io);
    const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd);
    checkRunnable(config);
    expect(config.scenarios.map((s) => s.name)).toEqual(scenarios);
    expect(config.sut.ready.map((p) => p.url)).toEqual(ready);
    expect(config.gate.against).toBe(against);
    // the gate it sets up can fail on a change, in the mode pull requests use and in the other
    expect(confirmationReach(config, 'gate').problems).toEqual([]);
    expect(confirmationReach(config, 'ab').problems).toEqual([]);
    for (const s of config.scenarios) expect(s.sweep?.levels).toEqual([1, 5, 10, 25, 50]);
    const workflow = parse(readFileSync(join(r.cwd, WORKFLOW_FILE), 'utf8')) as { jobs: Record<string, unknown> };
    expect(Object.keys(workflow.jobs)).toEqual(['gate', 'refresh', 'sweep']);
    expect(JSON.stringify(workflow.jobs.gate)).toContain(against === 'base-ref' ? '"mode":"ab"' : '"mode":"gate"');
    expect(r.out[0]).toMatch(/^wrote perf-gate\.yml \(\d scenarios?: .*\) and \.github\/workflows\/perf-gate\.yml$/);
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
    expect(r.out).toContain('left out db: PostgreSQL (port 5432), not HTTP');
    expect(r.out).toContain('left out worker: no ports or expose: where it listens is not known');
    const text = readFileSync(join(r.cwd, CONFIG_FILE), 'utf8');
    expect(text).toContain('#   db: PostgreSQL (port 5432), not HTTP');
  });

  it('on a terminal it asks the path and the gate; the answers are used', async () => {
    const r = repo('no-healthcheck', { path: '/v1/items', gate: 'baselines' });
    await initCommand(OPTS, r.io);
    expect(r.asked).toHaveLength(2);
    const config = loadConfig(join(r.cwd, CONFIG_FILE), r.cwd);
    expect(targetOf(config.scenarios[0], 'http').request.url).toBe('http://app:8080/v1/items');
    expect(config.gate.against).toBe('baselines');
  });

  it('options answer without asking', async () => {
    const r = repo('no-healthcheck', {});
    await initCommand({ ...OPTS, path: 'status', against: 'baselines' }, r.io);
    expect(r.asked).toEqual([]);
    expect(targetOf(loadConfig(join(r.cwd, CONFIG_FILE), r.cwd).scenarios[0], 'http').request.url).toBe(
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
      /^--compose nope\.yml: ENOENT/,
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
      'no compose file here (compose.yaml, compose.yml, docker-compose.yaml, docker-compose.yml); give one with --compose FILE',
    );
    writeFileSync(join(empty, 'compose.yaml'), 'services:\n  db: { image: postgres, ports: ["5432"] }\n');
    const noHttp = await failure(initCommand(OPTS, { ...r.io, cwd: empty }));
    expect(noHttp.message).toMatch(/^no HTTP service in compose\.yaml/);
    expect(noHttp.details).toEqual(['  db: PostgreSQL (port 5432), not HTTP']);
  });

  it('--force overwrites', async () => {
    const r = repo('no-healthcheck');
    writeFileSync(join(r.cwd, CONFIG_FILE), 'old\n');
    await initCommand({ ...OPTS, force: true }, r.io);
    expect(readFileSync(join(r.cwd, CONFIG_FILE), 'utf8')).toMatch(/^# yaml-language-server/);
  });
});

// The compose files users already have, on the real engine: a project that publishes a fixed host port
// (from .env), sets container_name, fixes its network, volume and image names and adds an override file
// compose loads by default, gated in A/B (head and base booted side by side, both healthy), with
// nothing left behind; and one that cannot boot twice, refused in one line before anything boots.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { docker, dockerAvailable, leftovers, ROOT, runCli, runIdOf, tempDir, git } from './helpers.js';

const engine = dockerAvailable();

// everything a second copy would collide on: a fixed host port (from .env), container_name, a fixed
// network name, a fixed volume name, and an image name the service builds under
const COMPOSE = `services:
  api:
    build: ${join(ROOT, 'fixtures/sut')}
    image: perf-gate-test/fixed-api:local
    container_name: perf-gate-test-fixed-api
    ports: ["\${API_PORT}:\${INTERNAL_PORT}"]
    environment:
      DELAY: 2ms
    networks: [front]
    volumes: [data:/data]
    healthcheck:
      test: ['CMD', '/sut', '-health', 'http://127.0.0.1:\${INTERNAL_PORT}/health']
      interval: 1s
      retries: 30
networks:
  front:
    name: perf-gate-test-front
volumes:
  data:
    name: perf-gate-test-data
`;
// loaded by default (the config names no compose file): without it the service listens on 8080, and
// the probe on 9090 never passes
const OVERRIDE = `services:
  api:
    environment:
      LISTEN: ":\${INTERNAL_PORT}"
`;
const ENV = 'API_PORT=18080\nINTERNAL_PORT=9090\n';
// the scenario reaches the service by its container_name: an alias now, on the project's network
const CONFIG = `version: 1
sut:
  build: true
  ready: [{ url: http://perf-gate-test-fixed-api:9090/health }]
runner: { image: perf-gate/node:local }
ab: { pairs: 4 }
defaults:
  warmup: 300ms
  thresholds:
    p50: { regress: 50%, floor: 2ms }
    error-rate: { max: 1% }
scenarios:
  - name: api
    request: { url: http://perf-gate-test-fixed-api:9090/work }
    phases:
      - { name: c2, connections: 2, duration: 1s }
`;

function repo(files: Record<string, string>): string {
  const dir = tempDir('perf-gate-compose-');
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'test@example.com']);
  git(dir, ['config', 'user.name', 'perf-gate test']);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'base']);
  writeFileSync(join(dir, 'README.md'), 'head\n');
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'head']);
  return dir;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!engine)('compose files as users have them', () => {
  it('fixed ports, container_name, fixed names, .env and an override: A/B boots both sides and passes', async () => {
    const dir = repo({
      'docker-compose.yml': COMPOSE,
      'docker-compose.override.yml': OVERRIDE,
      '.env': ENV,
      'perf-gate.yml': CONFIG,
    });
    dirs.push(dir);
    const r = await runCli(
      ['run', '--config', join(dir, 'perf-gate.yml'), '--mode', 'ab', '--base', 'HEAD~1', '--out', dir, '--seed', '5'],
      { GITHUB_WORKSPACE: dir },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(/base: SUT ready/);
    expect(r.stderr).toMatch(/head: SUT ready/);
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const changes = results.ab?.sideBySide;
    expect(changes?.head).toEqual(changes?.base);
    expect(changes?.head).toEqual([
      'service api: published ports 18080:9090 not published',
      'service api: container_name perf-gate-test-fixed-api dropped (kept as its alias on front)',
      "service api: image perf-gate-test/fixed-api:local built under the project's own name (both sides build at once)",
      "network front: fixed name perf-gate-test-front replaced by the project's own",
      "volume data: fixed name perf-gate-test-data replaced by the project's own",
    ]);
    // every answer came back: the service answered on the override's port, by its container_name
    const phase = results.scenarios[0]?.phases[0];
    expect(phase?.merged.errors).toEqual({});
    expect(phase?.merged.failures).toBe(0);
    expect(phase?.merged.successes).toBeGreaterThan(100);
    expect(results.ab?.base[0]?.phases[0]?.merged.errors).toEqual({});
    const report = readFileSync(join(dir, 'perf-gate-report.md'), 'utf8');
    expect(report).toContain('- side by side: service api: published ports 18080:9090 not published');
    // nothing left: not the run's labelled objects, nor anything under the fixed names
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
    expect(docker(['ps', '-a', '--filter', 'name=perf-gate-test-fixed-api', '--format', '{{.Names}}'])).toBe('');
    expect(docker(['network', 'ls', '--filter', 'name=perf-gate-test-front', '--format', '{{.Name}}'])).toBe('');
    expect(docker(['volume', 'ls', '--filter', 'name=perf-gate-test-data', '--format', '{{.Name}}'])).toBe('');
    expect(docker(['images', 'perf-gate-test/fixed-api', '--format', '{{.Repository}}'])).toBe('');
    expect(git(dir, ['worktree', 'list']).split('\n')).toHaveLength(1);
  }, 300_000);

  it('a service on the host network cannot boot twice: --mode ab is exit 2 in one line, nothing started', async () => {
    const compose = `services:\n  api:\n    image: perf-gate/node:local\n    network_mode: host\n`;
    const config = CONFIG.replace('  build: true\n', '').replace('sut:\n', 'sut:\n  compose: docker-compose.yml\n');
    const dir = repo({ 'docker-compose.yml': compose, 'perf-gate.yml': config });
    dirs.push(dir);
    const r = await runCli(
      ['run', '--config', join(dir, 'perf-gate.yml'), '--mode', 'ab', '--base', 'HEAD~1', '--out', dir],
      {
        GITHUB_WORKSPACE: dir,
      },
    );
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      "perf-gate: compose docker-compose.yml cannot boot twice side by side for A/B: service api uses the host's network (network_mode: host); gate against baselines instead (gate.against: baselines, or --mode gate)",
    );
    expect(r.stderr).not.toMatch(/SUT ready|starting the SUT/);
    expect(git(dir, ['worktree', 'list']).split('\n')).toHaveLength(1);
  }, 60_000);
});

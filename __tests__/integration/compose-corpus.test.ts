// `perf-gate init` then validate on real compose files from public projects (fixtures/compose-corpus,
// under their licences: SOURCES.md): each project read as `docker compose config` resolves it. What the
// issue asks of every one: a config validate takes, A/B wherever the stack can boot twice, no http://
// on a port that does not speak HTTP, every health check's path used. Needs the compose CLI (not the
// engine); with CI set its absence is a failure.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { checkRunnable } from '../../src/run/plan.js';
import { CONFIG_FILE, initCommand, type InitIO } from '../../src/init/command.js';
import { healthClaims, healthText } from '../../src/init/classify.js';
import { UserError } from '../../src/common/errors.js';
import { ROOT, runCli } from './helpers.js';
import { realReadFs } from '../../src/common/read-fs.js';

const CORPUS = join(ROOT, 'fixtures/compose-corpus');
const COMPOSE = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;
const entries = JSON.parse(readFileSync(join(CORPUS, 'index.json'), 'utf8')) as Array<{
  dir: string;
  files: string[];
  source: string;
}>;

/** Ports that never speak HTTP in these projects (a database's, a broker's, DNS, a game server's, …). */
const NOT_HTTP = new Set([
  5432, 3306, 33060, 6379, 27017, 5672, 9092, 2181, 11211, 1433, 53, 25565, 51820, 7050, 7051, 4317, 50051,
]);

const composeCli = (args: string[], cwd: string) =>
  Promise.resolve(
    spawnSync('docker', ['compose', ...args], {
      cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    }),
  ).then((r) => ({
    code: r.status ?? 1,
    stdout: r.stdout,
    stderr: r.stderr,
  }));

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

interface Outcome {
  entry: string;
  valid: boolean;
  against?: string;
  problem?: string;
  httpUrls: string[];
  probes: string[];
}

describe.skipIf(!COMPOSE && !process.env.CI)('init and validate on real compose files', () => {
  const outcomes: Outcome[] = [];
  /** every health check path a probe was checked against */
  const healthPaths: string[] = [];

  it.each(entries.map((e) => [`${e.dir} (${e.files.join(' + ')})`, e] as const))(
    '%s',
    async (_label, entry) => {
      expect(COMPOSE, 'docker compose is needed in CI').toBe(true);
      // the whole repository's copy (files may reach into sibling folders), a git root, init in the app's folder
      const repoName = entry.dir.split('/')[0] as string;
      const tmp = mkdtempSync(join(tmpdir(), 'perf-gate-corpus-'));
      temps.push(tmp);
      cpSync(join(CORPUS, repoName), join(tmp, repoName), { recursive: true });
      mkdirSync(join(tmp, repoName, '.git'));
      const cwd = join(tmp, entry.dir);
      const out: string[] = [];
      const io: InitIO = {
        cwd,
        fs: realReadFs,
        exists: existsSync,
        read: (p) => readFileSync(p, 'utf8'),
        write: (p, text) => {
          mkdirSync(join(p, '..'), { recursive: true });
          writeFileSync(p, text);
        },
        compose: composeCli,
        out: (l) => void out.push(l),
      };
      const outcome: Outcome = {
        entry: `${entry.dir} ${entry.files.join('+')}`,
        valid: false,
        httpUrls: [],
        probes: [],
      };
      outcomes.push(outcome);
      try {
        await initCommand({ compose: entry.files, force: true, action: 'acme/perf-gate@v0' }, io);
      } catch (err) {
        // a project with nothing perf-gate can load is told so in one line (exit 2), never an internal error
        expect(err, (err as Error).message).toBeInstanceOf(UserError);
        outcome.problem = (err as Error).message;
        return;
      }
      const config = loadConfig(join(cwd, CONFIG_FILE), join(tmp, repoName), realReadFs);
      checkRunnable(config, realReadFs);
      outcome.valid = true;
      outcome.against = config.gate.against;
      const urls = [
        ...config.scenarios.flatMap((s) => (s.target.kind === 'http' ? [s.target.request.url] : [])),
        ...config.sut.ready.map((p) => p.url),
      ];
      outcome.httpUrls = urls.filter((u) => u.startsWith('http://'));
      outcome.probes = config.sut.ready.map((p) => p.url);
      // no http:// on a port that does not speak HTTP
      for (const url of outcome.httpUrls) expect(NOT_HTTP.has(Number(new URL(url).port)), url).toBe(false);
      // A/B wherever the stack can boot twice: baselines only with the reason printed
      const line = out.find((l) => l.startsWith('pull requests are gated against')) ?? '';
      if (config.gate.against === 'baselines') {
        expect(line).toMatch(/cannot boot twice side by side for A\/B: /);
        outcome.problem = line.replace(/^.*cannot boot twice side by side for A\/B: /, '');
      }
      // every health check's HTTP path is the ready probe's path for that service
      const model = JSON.parse(
        (
          await composeCli(
            ['-p', 'perfgate-init', ...entry.files.flatMap((f) => ['-f', f]), 'config', '--format', 'json'],
            cwd,
          )
        ).stdout,
      ) as { services: Record<string, { healthcheck?: unknown }> };
      for (const [name, def] of Object.entries(model.services)) {
        const claim = healthClaims(healthText(def.healthcheck)).find((c) => c.kind === 'http');
        if (
          !claim?.path ||
          !config.scenarios.some((s) => s.target.kind === 'http' && new URL(s.target.request.url).hostname === name)
        )
          continue;
        healthPaths.push(`${name}: ${claim.path}`);
        const probe = outcome.probes.find((u) => u.startsWith(`http://${name}:`));
        expect(probe, `${name}: ${claim.why}`).toBeDefined();
        expect(new URL(probe as string).pathname + new URL(probe as string).search).toBe(claim.path);
      }
    },
    60_000,
  );

  it('nearly every project gives a valid config, and A/B wherever the stack can boot twice', () => {
    const table = outcomes.map(
      (o) => `${o.valid ? (o.against ?? '') : 'none'.padEnd(9)}  ${o.entry}${o.problem ? `  (${o.problem})` : ''}`,
    );
    console.log(`init on ${outcomes.length} real compose projects:\n${table.join('\n')}`);
    // the health check paths were there to check (the scheme-less ones of nginx-wsgi-flask among them)
    console.log(`health check paths used: ${healthPaths.join(', ')}`);
    expect(healthPaths).toEqual(
      expect.arrayContaining([
        'nginx-proxy: /health-check',
        'flask-app: /flask-health-check',
        'elasticsearch: /_cluster/health',
      ]),
    );
    // nothing HTTP or gRPC to load (exit 2, saying so): a game server, a media server on the host's
    // network with no port, a UDP VPN, Fabric nodes (gRPC without the health service)
    expect(outcomes.filter((o) => !o.valid).map((o) => o.entry)).toEqual([
      'docker__awesome-compose/minecraft compose.yaml',
      'docker__awesome-compose/plex compose.yaml',
      'docker__awesome-compose/wireguard compose.yaml',
      'hyperledger__fabric-samples/first-network docker-compose-cli.yaml',
    ]);
    // every other one is A/B, but pihole, which writes the host's /etc/pihole/ (two copies would share it)
    expect(outcomes.filter((o) => o.valid && o.against !== 'base-ref').map((o) => o.entry)).toEqual([
      'docker__awesome-compose/pihole-cloudflared-DoH compose.yaml',
    ]);
  });
});

describe.skipIf(!COMPOSE && !process.env.CI)('validate against the compose project', () => {
  it('a host that is not a service and base-ref on a project that cannot boot twice: exit 2, each at its line', async () => {
    expect(COMPOSE, 'docker compose is needed in CI').toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-validate-'));
    temps.push(dir);
    writeFileSync(
      join(dir, 'docker-compose.yml'),
      'services:\n  api:\n    image: x\n    network_mode: host\n  db:\n    image: postgres\n',
    );
    writeFileSync(join(dir, '.env'), 'UNUSED=1\n');
    const config = [
      'version: 1',
      'sut:',
      '  ready: [{ url: "tcp://dbb:5432" }]',
      'gate: { against: base-ref }',
      'scenarios:',
      '  - name: s',
      '    request: { url: "http://apii:8080/" }',
      '    phases: [{ connections: 1, duration: 1s }]',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'perf-gate.yml'), config);
    const r = await runCli(['validate', join(dir, 'perf-gate.yml')], { GITHUB_WORKSPACE: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const file = join(dir, 'perf-gate.yml');
    expect(r.stderr).toContain(`perf-gate: ${file}: 3 problems with the compose project`);
    expect(r.stderr).toContain(`${file}:3:`);
    expect(r.stderr).toMatch(
      /sut\.ready\[0\]\.url: dbb is not a service of the compose project \(services: api, db\) \(did you mean db\?\)/,
    );
    expect(r.stderr).toMatch(
      /:7:\d+: scenarios\[0\]\.request\.url: apii is not a service of the compose project \(services: api, db\) \(did you mean api\?\)/,
    );
    expect(r.stderr).toMatch(
      /:4:\d+: gate\.against: base-ref boots head and base side by side, and this project cannot boot twice: service api uses the host's network/,
    );
    // fixed: valid, and the note-free line
    writeFileSync(
      join(dir, 'perf-gate.yml'),
      config.replace('dbb', 'db').replace('apii', 'api').replace('base-ref', 'baselines'),
    );
    const ok = await runCli(['validate', join(dir, 'perf-gate.yml')], { GITHUB_WORKSPACE: dir });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/: valid \(1 scenario, 1 phase\)/);
  });
});

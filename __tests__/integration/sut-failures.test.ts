// SUT faults: never ready, crash mid-run, and SIGINT — exit 3 (or 130) with a one-line reason and
// the SUT's last log lines, and nothing left behind.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dockerAvailable,
  leftovers,
  QUICKSTART_ARGS,
  QUICKSTART_ENV,
  ROOT,
  runCli,
  runFresh,
  runIdOf,
  startCli,
  tempDir,
} from './helpers.js';

const hasDocker = dockerAvailable();

describe.runIf(hasDocker)('a target that is not there is not a pass', () => {
  // the confirm fixture's service listens on 8080; the scenario asks 9999, where nothing listens
  const config = join(ROOT, 'fixtures/tests/confirm/perf-gate.wrong-port.yml');
  afterAll(() => rmSync(config, { force: true }));

  it('an HTTP URL nothing listens on: exit 3 naming the URL and ECONNREFUSED, no baseline written', async () => {
    writeFileSync(
      config,
      readFileSync(join(ROOT, 'fixtures/tests/confirm/perf-gate.yml'), 'utf8')
        .replace('ready: [{ url: http://api:8080/health }]', 'ready: []')
        .replace('http://api:8080/work', 'http://api:9999/work')
        .replace('  warmup: 300ms', '  warmup: 0s'),
    );
    const { r, out } = await runFresh(config, 'update');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^perf-gate: api\/c2: no successful response from http:\/\/api:9999\/work in 3 trials: ECONNREFUSED \(\d+×\); nothing was measured/m,
    );
    expect(existsSync(join(out, 'b', 'api.json'))).toBe(false);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  // class 6: before, exit 0 with 0 responses and errors {}, and a baseline of nothing
  it('a service that accepts and never answers: the requests in flight time out (request-timeout), exit 3, no baseline', async () => {
    writeFileSync(
      config,
      readFileSync(join(ROOT, 'fixtures/tests/confirm/perf-gate.yml'), 'utf8')
        .replace('  warmup: 300ms', '  warmup: 0s\n  request-timeout: 1s')
        .replace('  trials: 3', '  trials: 2'),
    );
    const { r, out } = await runFresh(config, 'update', { CONFIRM_DELAY: '1h' });
    expect(r.code, r.stderr).toBe(3);
    // two connections, a 1 s window, a 1 s timeout: each trial's two requests time out after the window
    expect(r.stderr).toMatch(
      /^perf-gate: api\/c2: no successful response from http:\/\/api:8080\/work in 2 trials: timeout \(4×\); nothing was measured/m,
    );
    expect(existsSync(join(out, 'b', 'api.json'))).toBe(false);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

// issue 20, class 7: before, the daemon's raw registry error, and the runner image checked only once
// the SUT was up
describe.runIf(hasDocker)('environment problems named: images, the compose file', () => {
  const dir = join(ROOT, 'fixtures/tests/confirm');
  const written: string[] = [];
  afterAll(() => {
    for (const f of written) rmSync(f, { force: true });
  });
  function variant(name: string, edit: (text: string) => string, file = 'perf-gate.yml'): string {
    const path = join(dir, name);
    writeFileSync(path, edit(readFileSync(join(dir, file), 'utf8')));
    written.push(path);
    return path;
  }

  it('a SUT image: exit 3, one line naming the service and the image', async () => {
    variant(
      'docker-compose.missing.yml',
      (t) => t.replace('image: perf-gate/sut:local', 'image: perf-gate/not-built-anywhere:0.0.1'),
      'docker-compose.yml',
    );
    const config = variant('perf-gate.missing-sut.yml', (t) =>
      t.replace('compose: docker-compose.yml', 'compose: docker-compose.missing.yml'),
    );
    const { r } = await runFresh(config, 'update');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^perf-gate: SUT failed to start or become healthy: service api: image perf-gate\/not-built-anywhere:0\.0\.1 is not on this host and could not be pulled \(.+\); load it here/m,
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a compose file with a YAML error: exit 3, one line naming the compose file and the line', async () => {
    variant(
      'docker-compose.broken.yml',
      (t) => t.replace('    image: perf-gate/sut:local', '    image: [perf-gate'),
      'docker-compose.yml',
    );
    const config = variant('perf-gate.broken-compose.yml', (t) =>
      t.replace('compose: docker-compose.yml', 'compose: docker-compose.broken.yml'),
    );
    const { r } = await runFresh(config, 'update');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^perf-gate: compose file \S*docker-compose\.broken\.yml rejected by docker compose: .*line \d+/m,
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('the runner image: exit 3 naming runner.image before any SUT boots', async () => {
    const config = variant('perf-gate.missing-runner.yml', (t) =>
      t.replace('runner: { image: perf-gate/node:local }', 'runner: { image: perf-gate/no-such-runner:0.0.1 }'),
    );
    const { r } = await runFresh(config, 'update');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /^perf-gate: runner image perf-gate\/no-such-runner:0\.0\.1 is not on this host and could not be pulled \(.+\); set runner.image/m,
    );
    // nothing booted: no compose project was started, so no run id was even printed
    expect(r.stderr).not.toContain('starting the SUT');
  }, 300_000);
});

describe.runIf(hasDocker)('SUT failures', () => {
  it('a ready probe that never passes: exit 3, names the URL, shows the service log', async () => {
    const r = await runCli([
      'run',
      '--config',
      'fixtures/tests/never-ready/perf-gate.yml',
      '--mode',
      'gate',
      '--out',
      tempDir(),
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'perf-gate: SUT never ready: http://api:8080/not-there did not answer 2xx/3xx within 2s (last: HTTP 404)',
    );
    expect(r.stderr).toMatch(/api.*listening on :8080/);
    expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a service that exits during the run: exit 3, names the service, shows its last log lines', async () => {
    const r = await runCli([
      'run',
      '--config',
      'fixtures/tests/crash/perf-gate.yml',
      '--mode',
      'gate',
      '--out',
      tempDir(),
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/perf-gate: SUT crashed: service api stopped \(exited\) during the run/);
    expect(r.stderr).toContain('exiting on purpose after 4s');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  /** The quickstart gated, sent SIGINT once its first trial measures. */
  async function quickstartGateInterrupted() {
    const cli = startCli(
      [
        'run',
        '--config',
        'fixtures/quickstart/perf-gate.yml',
        '--mode',
        'gate',
        '--out',
        tempDir(),
        ...QUICKSTART_ARGS,
      ],
      QUICKSTART_ENV,
    );
    await cli.waitFor('measure started');
    cli.child.kill('SIGINT');
    return cli;
  }

  it('SIGINT mid-run tears everything down and exits 130', async () => {
    const cli = await quickstartGateInterrupted();
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('SIGINT: tearing down');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a second SIGINT during the teardown does not cut it short: said, finished, nothing left, exit 130', async () => {
    const cli = await quickstartGateInterrupted();
    await cli.waitFor('SIGINT: tearing down');
    // Node's default for a second SIGINT was to exit at once, leaving the SUT's containers and network
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('SIGINT again: still tearing down');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a reader that goes away mid-run (a closed pipe) does not stop the teardown', async () => {
    const cli = startCli([
      'run',
      '--config',
      'fixtures/tests/gate/perf-gate.yml',
      '--mode',
      'gate',
      '--out',
      tempDir(),
    ]);
    await cli.waitFor('measure started');
    const runId = runIdOf(cli.output());
    cli.child.stdout?.destroy();
    cli.child.stderr?.destroy();
    const code = await new Promise<number | null>((resolve) => cli.child.on('exit', (c) => resolve(c)));
    expect(code).not.toBeNull();
    expect(leftovers(runId)).toEqual([]);
  }, 300_000);

  describe('a runner whose node exits at once', () => {
    // node rejects the option and exits 9 before running anything; Docker answered a wait made
    // before start with StatusCode 0, so this used to read "runner died (exit code 0)"
    const image = 'perf-gate-test/node-bogus:local';
    afterAll(() => {
      spawnSync('docker', ['rmi', '-f', image], { stdio: 'ignore' });
    });

    it('reports its real exit code, with its stderr, and leaves nothing behind', async () => {
      const built = spawnSync('docker', ['build', '-q', '-t', image, '-'], {
        input: 'FROM perf-gate/node:local\nENV NODE_OPTIONS=--bogus-flag\n',
        encoding: 'utf8',
      });
      expect(built.status, built.stderr).toBe(0);
      const r = await runCli([
        'run',
        '--config',
        'fixtures/tests/gate/perf-gate.yml',
        '--mode',
        'gate',
        '--runner-image',
        image,
        '--out',
        tempDir(),
      ]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('perf-gate: runner died (exit code 9) before finishing');
      expect(r.stderr).toContain('--bogus-flag');
      expect(leftovers(runIdOf(r.stderr))).toEqual([]);
    }, 300_000);
  });
});

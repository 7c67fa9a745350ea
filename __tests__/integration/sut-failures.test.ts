// SUT faults: never ready, crash mid-run, and SIGINT — exit 3 (or 130) with a one-line reason and
// the SUT's last log lines, and nothing left behind.
import { describe, expect, it } from 'vitest';
import { dockerAvailable, leftovers, runCli, runIdOf, startCli, tempDir } from './helpers.js';

const hasDocker = dockerAvailable();

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

  it('SIGINT mid-run tears everything down and exits 130', async () => {
    const cli = startCli([
      'run',
      '--config',
      'fixtures/quickstart/perf-gate.yml',
      '--mode',
      'gate',
      '--out',
      tempDir(),
    ]);
    await cli.waitFor('measure started');
    cli.child.kill('SIGINT');
    const r = await cli.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('SIGINT: tearing down');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

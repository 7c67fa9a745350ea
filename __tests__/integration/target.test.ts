// `target:` on the real engine (issue 21): a service already running, here the fixture service started
// by the test itself on 127.0.0.1 (no compose), gated as usual. The runner container joins the host's
// network; request URLs are paths under the target.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, regressedOrBusy, ROOT, runCli, runFresh, runIdOf, tempDir } from './helpers.js';

const SUT = join(ROOT, 'fixtures/sut/bin/sut');

/** A port nothing listens on right now (the kernel's pick, released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) p.kill('SIGKILL');
});

/** The fixture service on 127.0.0.1:port with this DELAY (and BURN: CPU spun per request); resolves
 * once /health answers. */
async function startService(port: number, delay: string, burn = '0s'): Promise<void> {
  const child = spawn(SUT, [], {
    env: { LISTEN: `127.0.0.1:${port}`, DELAY: delay, BURN: burn },
    stdio: 'ignore',
  });
  running.push(child);
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the fixture service on 127.0.0.1:${port} never answered /health`);
}

function targetConfig(port: number): string {
  const dir = tempDir('perf-gate-target-');
  const file = join(dir, 'perf-gate.yml');
  writeFileSync(
    file,
    `version: 1
target: http://127.0.0.1:${port}
runner: { image: perf-gate/node:local }
defaults:
  warmup: 300ms
  trials: 5
  thresholds:
    p50: { regress: 30%, floor: 500us }
    errors: { max: 0 }
scenarios:
  - name: api
    request: { url: /work }
    phases:
      - { name: c2, connections: 2, duration: 1s }
`,
  );
  return file;
}

describe.runIf(dockerAvailable())('target: a service already running, no compose', () => {
  it('the fixture service on 127.0.0.1: update, then a 2 ms → 6 ms slower service is a regression', async () => {
    expect(existsSync(SUT), 'fixtures/sut/bin/sut: run scripts/provision-images.sh').toBe(true);
    const port = await freePort();
    const config = targetConfig(port);
    // 1 ms of CPU a request on 2 connections: the service, a process beside perf-gate in no container
    // the run started, takes about two thirds of a core
    await startService(port, '2ms', '1ms');
    const update = await runFresh(config, 'update');
    expect(update.r.code, update.r.stdout + update.r.stderr).toBe(0);
    expect(update.r.stderr).toContain(
      `target http://127.0.0.1:${port} (nothing to boot; the runner joins network host)`,
    );
    const before = JSON.parse(readFileSync(join(update.out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    expect(before.scenarios[0]?.phases[0]?.merged).toMatchObject({ failures: 0, errors: {} });
    expect(before.scenarios[0]?.phases[0]?.merged.responses).toBeGreaterThan(100);
    // nothing of ours ran but the runner: no SUT images, no SUT resources
    expect(before.provenance.sut.images).toEqual({});
    expect(Object.keys(before.scenarios[0]?.phases[0]?.merged.resources ?? {})).toEqual(['perf-gate-runner']);
    expect(leftovers(runIdOf(update.r.stderr))).toEqual([]);
    // gate.busy judges a target's run by steal alone: the service's own CPU reads as other processes'
    // (above gate.busy's 50%), and no trial was put aside for it
    expect(before.busy).toMatchObject({ othersPct: 50, stealOnly: true });
    const others = before.scenarios[0]?.phases[0]?.trials.map((t) => t.machine?.othersPct ?? 0) ?? [];
    expect(others.sort((a, b) => a - b)[Math.floor(others.length / 2)]).toBeGreaterThanOrEqual(50);
    const asideFor = (before.scenarios[0]?.phases[0]?.discarded ?? []).map((t) => t.machine?.stealPct ?? 0);
    expect(asideFor.filter((steal) => steal < 20)).toEqual([]);

    for (const p of running.splice(0)) p.kill('SIGKILL');
    await startService(port, '6ms', '1ms');
    const out = join(update.out, 'gate');
    const r = await runCli([
      'run',
      '--config',
      config,
      '--mode',
      'gate',
      '--baseline-dir',
      update.baselines,
      '--out',
      out,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const p50 = results.comparisons.find((c) => c.metric === 'p50');
    regressedOrBusy(p50, results.busy, r.stdout + r.stderr);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a target nothing listens on: exit 3 naming the URL and the refusal, no baseline', async () => {
    const port = await freePort();
    const { r, baselines } = await runFresh(targetConfig(port), 'update');
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      new RegExp(`no successful response from http://127\\.0\\.0\\.1:${port}/work .*ECONNREFUSED`),
    );
    expect(existsSync(join(baselines, 'api.json'))).toBe(false);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 120_000);
});

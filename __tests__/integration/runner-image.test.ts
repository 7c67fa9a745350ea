// A distroless-style runner image (ENTRYPOINT node, no shell, non-root), bodies rotated request by
// request, failures counted by status code, and the runner container's confinement.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { type CliResult, docker, dockerAvailable, leftovers, runIdOf, startCli, tempDir } from './helpers.js';

const hasDocker = dockerAvailable();

interface Inspect {
  Config: { User: string; Labels: Record<string, string> };
  HostConfig: {
    ReadonlyRootfs: boolean;
    Privileged: boolean;
    CapDrop: string[] | null;
    Binds: string[] | null;
    SecurityOpt: string[] | null;
  };
  Mounts: Array<{ Type: string; Destination: string; Source: string }>;
  NetworkSettings: { Networks: Record<string, unknown> };
}

describe.runIf(hasDocker)('distroless runner image with rotated bodies', () => {
  const out = tempDir();
  let run: CliResult;
  let results: ResultsFile;
  let runner: Inspect | undefined;

  beforeAll(async () => {
    const cli = startCli([
      'run',
      '--config',
      'fixtures/tests/distroless/perf-gate.yml',
      '--mode',
      'gate',
      '--out',
      out,
    ]);
    // look at the runner container while it runs
    await cli.waitFor('SUT ready');
    const runId = runIdOf(cli.output());
    const id = docker([
      'ps',
      '-q',
      '--filter',
      `label=dev.perf-gate.run-id=${runId}`,
      '--filter',
      'name=-runner',
    ]).trim();
    if (id) runner = (JSON.parse(docker(['inspect', id])) as Inspect[])[0];
    run = await cli.done;
    if (run.code !== 0) throw new Error(`perf-gate run failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
    results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8'));
  }, 600_000);

  afterAll(() => {
    if (run) expect(leftovers(runIdOf(run.stderr))).toEqual([]);
  });

  it('runs in a confined container: read-only root, no privileges, no socket, no bind mounts', () => {
    expect(runner).toBeDefined();
    if (!runner) return;
    expect(runner.HostConfig.ReadonlyRootfs).toBe(true);
    expect(runner.HostConfig.Privileged).toBe(false);
    expect(runner.HostConfig.CapDrop).toEqual(['ALL']);
    expect(runner.HostConfig.SecurityOpt).toContain('no-new-privileges');
    expect(runner.HostConfig.Binds ?? []).toEqual([]);
    expect(runner.Mounts.map((m) => m.Type)).toEqual(['volume']);
    expect(JSON.stringify(runner.Mounts)).not.toContain('docker.sock');
    expect(runner.Config.User).toBe('65534:65534');
    const nets = Object.keys(runner.NetworkSettings.Networks);
    expect(nets).toHaveLength(1);
    expect(nets[0]).toMatch(/^perfgate-[0-9a-f]{8}_default$/);
    expect(runner.Config.Labels['dev.perf-gate.run-id']).toMatch(/^[0-9a-f]{8}$/);
  });

  it('rotates bodies request by request: exactly one in four asks for a 500', () => {
    const n400 = results.scenarios[0]?.phases.find((p) => p.name === 'n400');
    expect(n400?.trials).toHaveLength(3);
    for (const t of n400?.trials ?? []) {
      expect(t.statusCodes).toEqual({ 200: 300, 500: 100 });
      expect(t.successes).toBe(300);
      expect(t.failures).toBe(100);
      expect(t.latency.count).toBe(300);
    }
    expect(n400?.merged.errorRate).toBeCloseTo(0.25, 5);
  });

  it('keeps failures apart from success latency and names the status code', () => {
    const d1s = results.scenarios[0]?.phases.find((p) => p.name === 'd1s');
    const m = d1s?.merged;
    expect(m?.statusCodes['500']).toBeGreaterThan(0);
    expect(m?.latency.count).toBe(m?.successes);
    expect(m?.successes).toBe(m?.statusCodes['200']);
    expect(run.stdout).toMatch(/rotate\/d1s .*\d+×500/);
  });

  it('captures sub-millisecond latency (autocannon’s own histogram would report 0 ms)', () => {
    for (const p of results.scenarios[0]?.phases ?? []) {
      expect(p.merged.latency.min).toBeGreaterThan(0);
      const values = [p.merged.latency.p50, p.merged.latency.p90, p.merged.latency.min];
      expect(values.some((v) => v % 1000 !== 0)).toBe(true);
    }
  });
});

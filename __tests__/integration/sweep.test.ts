// Sweep mode on a service that saturates (4 concurrent requests of 20 ms: at most 200 req/s, so the
// round trip of a busy runner matters little and the curve bends sharply at 4): a table per level, a knee,
// and Mermaid xycharts; never fails, writes no baselines.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, runCli, runIdOf, tempDir } from './helpers.js';

const hasDocker = dockerAvailable();

describe.runIf(hasDocker)('sweep mode', () => {
  it('runs the ladder and reports the saturation knee', async () => {
    const out = tempDir();
    const baselines = join(out, 'baselines');
    const r = await runCli([
      'run',
      '--config',
      'fixtures/tests/sweep/perf-gate.yml',
      '--mode',
      'sweep',
      '--out',
      out,
      '--baseline-dir',
      baselines,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    expect(results.mode).toBe('sweep');
    expect(results.scenarios[0]?.phases.map((p) => p.params.connections)).toEqual([1, 2, 4, 8, 16]);
    expect(results.comparisons).toEqual([]);
    const report = readFileSync(join(out, 'perf-gate-report.md'), 'utf8');
    // the service cannot serve more than 4 at a time: the knee is at 4 or, on a noisy machine, 8
    expect(report).toMatch(/\*\*Knee at (4|8) connections\*\*/);
    expect(report).toContain('x-axis "connections" [1, 2, 4, 8, 16]');
    expect(report.match(/```mermaid\nxychart-beta/g)).toHaveLength(2);
    expect(existsSync(baselines)).toBe(false);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a config without any sweep ladder: a warning and a report that says so, exit 0, nothing booted', async () => {
    const out = tempDir();
    // workflow_dispatch with mode auto resolves to sweep, as the Action does
    const r = await runCli(['run', '--config', 'fixtures/tests/gate/perf-gate.yml', '--out', out], {
      GITHUB_EVENT_NAME: 'workflow_dispatch',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('[perf-gate] warning: no sweep ladder (scenarios[].sweep) in api: nothing to sweep');
    expect(r.stderr).not.toContain('starting the SUT');
    expect(readFileSync(join(out, 'perf-gate-report.md'), 'utf8')).toContain('nothing was swept');
  });
});

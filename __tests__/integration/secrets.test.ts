// `${NAME}` in a request is filled from perf-gate's environment in the runner's copy of the plan
// only: the requests carry the values (the SUT answers 2xx on the expanded path), and no file perf-gate
// writes contains them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { type CliResult, dockerAvailable, leftovers, runCli, runIdOf, tempDir } from './helpers.js';

const CONFIG = 'fixtures/tests/secrets/perf-gate.yml';
const TOKEN = 'tok-5f1c2a9e-never-written';

describe('secrets: unset variables', () => {
  it('an unset variable is exit 2 naming the key, before anything boots', async () => {
    const r = await runCli(['run', '--config', CONFIG, '--mode', 'update', '--out', tempDir()], {
      PG_WORK_PATH: 'work',
      DOCKER_HOST: 'unix:///nonexistent/perf-gate-test.sock',
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "perf-gate: scenarios[0] (secret).request.headers.authorization: ${PG_SECRET_TOKEN} is not set in perf-gate's environment",
    );
  });
});

describe.runIf(dockerAvailable())('secrets: a run with them set', () => {
  const out = tempDir();
  const baselines = join(out, 'baselines');
  let run: CliResult;

  beforeAll(async () => {
    run = await runCli(
      [
        'run',
        '--config',
        CONFIG,
        '--mode',
        'update',
        '--baseline-dir',
        baselines,
        '--out',
        out,
        '--csv',
        join(out, 'r.csv'),
        '--junit',
        join(out, 'r.xml'),
        '--history',
        join(out, 'h.jsonl'),
      ],
      { PG_WORK_PATH: 'work', PG_SECRET_TOKEN: TOKEN },
    );
    if (run.code !== 0) throw new Error(`perf-gate run failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  }, 300_000);

  afterAll(() => {
    if (run) expect(leftovers(runIdOf(run.stderr))).toEqual([]);
  });

  it('the requests were the expanded ones: 200 on /work, no errors', () => {
    const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const merged = results.scenarios[0]!.phases[0]!.merged;
    expect(merged.statusCodes).toEqual({ '200': 200 });
    expect(merged.failures).toBe(0);
  });

  it('no file perf-gate wrote, and nothing it printed, holds the value', () => {
    const files = [
      ...readdirSync(out)
        .filter((f) => f !== 'baselines')
        .map((f) => join(out, f)),
      ...readdirSync(baselines).map((f) => join(baselines, f)),
    ];
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain(TOKEN);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });
});

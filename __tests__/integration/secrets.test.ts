// `${NAME}` in a request is filled from perf-gate's environment in the runner's copy of the plan
// only: the requests carry the values (the SUT answers 2xx on the expanded path), and no file perf-gate
// writes contains them.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { type CliResult, dockerAvailable, leftovers, ROOT, runCli, runFresh, runIdOf, tempDir } from './helpers.js';

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

// issue 20, class 8: before, compose got perf-gate's whole environment, tokens included, and a compose
// file that interpolated one handed it to the SUT. The fixture's one route is named after what compose
// interpolated: /t-none-none answers 200 only when neither token reached it.
describe.runIf(dockerAvailable())('secrets: the tokens perf-gate runs with stay out of compose', () => {
  const CONFIG_SCRUB = join(ROOT, 'fixtures/tests/scrub/perf-gate.yml');
  const TOKENS = { GITHUB_TOKEN: 'ghs-leak1', ACTIONS_RUNTIME_TOKEN: 'rt-leak2', 'INPUT_GITHUB-TOKEN': 'ghs-leak1' };

  async function statuses(config: string): Promise<Record<string, number>> {
    const { r, out } = await runFresh(config, 'update', TOKENS);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain('rt-leak2');
    if (r.code !== 0) return { [`exit ${r.code}`]: 1 };
    const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    return results.scenarios[0]!.phases[0]!.merged.statusCodes;
  }

  it('unless sut.env names them: the SUT saw neither token', async () => {
    expect(Object.keys(await statuses(CONFIG_SCRUB))).toEqual(['200']);
  }, 300_000);

  it('sut.env naming one hands that one over, and only it', async () => {
    const config = join(ROOT, 'fixtures/tests/scrub/perf-gate.named.yml');
    writeFileSync(
      config,
      readFileSync(CONFIG_SCRUB, 'utf8')
        .replace(
          '  compose: docker-compose.yml',
          "  compose: docker-compose.yml\n  env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' }",
        )
        .replace('/t-none-none', '/t-ghs-leak1-none'),
    );
    try {
      expect(Object.keys(await statuses(config))).toEqual(['200']);
    } finally {
      rmSync(config, { force: true });
    }
  }, 300_000);
});

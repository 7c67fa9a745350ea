// `setup` on the real engine (issue 34): an API behind a login. The runner logs in once with the
// password from perf-gate's environment, and every request of `private` carries the token it got;
// `anonymous` sends none and its 401s are counted. A wrong password stops the run with exit 3 naming
// the step and what it got. The token (the fixture's are `tok-<hex>`) reaches no file perf-gate writes
// and nothing it prints.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { type CliResult, dockerAvailable, leftovers, runFresh, runIdOf } from './helpers.js';

const CONFIG = 'fixtures/tests/setup/perf-gate.yml';

describe.runIf(dockerAvailable())('setup: a login, then the token on every request', () => {
  let run: { r: CliResult; out: string; baselines: string };

  beforeAll(async () => {
    run = await runFresh(CONFIG, 'update', { PG_LOGIN_PASSWORD: 'pg-login-pw' });
    if (run.r.code !== 0) throw new Error(`perf-gate run failed (${run.r.code}):\n${run.r.stdout}\n${run.r.stderr}`);
  }, 300_000);

  afterAll(() => {
    if (run) expect(leftovers(runIdOf(run.r.stderr))).toEqual([]);
  });

  it('with the token every request is answered 200 and passes its checks; without it, 401 is counted', () => {
    const results = JSON.parse(readFileSync(join(run.out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const phase = (scenario: string, name: string) =>
      results.scenarios.find((s) => s.name === scenario)!.phases.find((p) => p.name === name)!.merged;
    expect(phase('private', 'n200').statusCodes).toEqual({ '200': 200 });
    expect(phase('private', 'n200').failures).toBe(0);
    const anonymous = phase('anonymous', 'n50.private');
    expect(Object.keys(anonymous.statusCodes)).toEqual(['401']);
    expect(anonymous.failures).toBe(anonymous.statusCodes['401']);
    expect(anonymous.failures).toBeGreaterThan(0);
  });

  it('the run says what setup did, by name', () => {
    expect(run.r.stderr + run.r.stdout).toMatch(/setup: login \(HTTP 200, \d+ ms\); values token, sid/);
  });

  it('no file perf-gate wrote, and nothing it printed, holds a token', () => {
    const files = [
      ...readdirSync(run.out)
        .filter((f) => f !== 'b')
        .map((f) => join(run.out, f)),
      ...readdirSync(run.baselines).map((f) => join(run.baselines, f)),
    ];
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toMatch(/tok-[0-9a-f]/);
    expect(run.r.stdout + run.r.stderr).not.toMatch(/tok-[0-9a-f]/);
  });
});

describe.runIf(dockerAvailable())('setup: a login that fails', () => {
  it('is exit 3 naming the step and what it got, before any load, with nothing left behind', async () => {
    const { r } = await runFresh(CONFIG, 'update', { PG_LOGIN_PASSWORD: 'wrong' });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'perf-gate: setup step login failed: HTTP 401, body "wrong password\\n": not a 2xx or 3xx status',
    );
    expect(r.stderr).not.toContain('load phases start');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

// Conventions users bring from k6 (issue 21), on the real engine: a k6 threshold list gates as the
// limits it says, a Go/k6 compound duration is a phase's duration, and autocannon's amount is requests.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, ROOT, runFresh, runIdOf } from './helpers.js';

describe.runIf(dockerAvailable())('k6 habits on the real engine', () => {
  const config = join(ROOT, 'fixtures/tests/confirm/perf-gate.k6.yml');
  afterAll(() => rmSync(config, { force: true }));

  it('http_req_duration: ["p(95)<1"] on a 2 ms service is a regression without any baseline; 0m1s is 1 s', async () => {
    writeFileSync(
      config,
      readFileSync(join(ROOT, 'fixtures/tests/confirm/perf-gate.yml'), 'utf8')
        .replace(
          '    error-rate: { max: 1% }',
          '    error-rate: { max: 1% }\n    http_req_duration: ["p(95)<1", "avg<500"]\n    http_req_failed: ["rate<0.01"]',
        )
        .replace('duration: 1s }', 'duration: 0m1s }\n      - { name: n200, connections: 2, amount: 200 }'),
    );
    const { r, out } = await runFresh(config, 'gate');
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    expect(results.scenarios[0]?.phases[0]?.params.durationMs).toBe(1000);
    // autocannon's amount: 200 requests a trial, 3 trials
    expect(results.scenarios[0]?.phases[1]?.merged.responses).toBe(600);
    const rows = Object.fromEntries(results.comparisons.filter((c) => c.phase === 'c2').map((c) => [c.metric, c]));
    // p95 of a 2 ms service is above 1 ms: the limit is broken, no baseline needed
    expect(rows.p95).toMatchObject({ result: 'regression', band: '≤ 1ms' });
    // 500 ms on average is far away and no request failed: those limits hold (no baseline to compare)
    expect(rows.mean).toMatchObject({ result: 'no-baseline', band: '≤ 500ms' });
    expect(rows['error-rate']).toMatchObject({ result: 'no-baseline', band: '≤ 1%' });
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

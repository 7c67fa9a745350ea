// Conventions users bring from k6 (issue 21), on the real engine: a k6 threshold list gates as the
// limits it says, a Go/k6 compound duration is a phase's duration, autocannon's amount is requests,
// and response checks (k6's check, autocannon's expectBody) make a 200 that carries an error a failure.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, ROOT, runCli, runFresh, runIdOf } from './helpers.js';

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
        .replace('duration: 1s }', 'duration: 0m1s }\n      - { name: n200, connections: 2, amount: 200 }')
        // two gated phases share the run's budget (gate.run-alpha 0.01): 8 v 3 trials (1/165) cannot
        // reach 0.005, and a cap given is not grown; 9 v 3 (1/220) can
        .replace('confirm: { max-trials: 8 }', 'confirm: { max-trials: 9 }'),
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

describe.runIf(dockerAvailable())('response checks (expect) on the real engine', () => {
  const config = join(ROOT, 'fixtures/tests/expect/perf-gate.yml');

  it('a GraphQL endpoint that starts answering 200 with errors: the checked scenario regresses (expect-json), the unchecked one cannot see it', async () => {
    const update = await runFresh(config, 'update', { GRAPHQL_ERROR_RATE: '0' });
    expect(update.r.code, update.r.stdout + update.r.stderr).toBe(0);
    const before = JSON.parse(readFileSync(join(update.out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    expect(before.scenarios.map((s) => s.phases[0]?.merged.checks)).toEqual([undefined, undefined]);
    expect(leftovers(runIdOf(update.r.stderr))).toEqual([]);

    const out = join(update.out, 'gate');
    const r = await runCli(
      ['run', '--config', config, '--mode', 'gate', '--baseline-dir', update.baselines, '--out', out],
      { GRAPHQL_ERROR_RATE: '0.1' },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const [checked, unchecked] = results.scenarios.map((s) => s.phases[0]?.merged);
    // every answer is a 200; one in ten carries errors, and only the checks can tell
    expect(checked).toMatchObject({
      responses: 900,
      statusCodes: { '200': 900 },
      failures: 90,
      checks: { 'expect-json': 90 },
    });
    expect(unchecked).toMatchObject({ responses: 900, statusCodes: { '200': 900 }, failures: 0 });
    const rows = (scenario: string) => results.comparisons.filter((c) => c.scenario === scenario);
    // one regression: the errors limit, naming the new error class (the two count once)
    const failed = rows('checked').filter((c) => c.result === 'regression');
    expect(failed.map((c) => c.metric)).toEqual(['errors']);
    expect(failed[0]?.reason).toMatch(/new error class expect-json \(90×\)/);
    expect(rows('unchecked').every((c) => c.result === 'pass')).toBe(true);
    const report = readFileSync(join(out, 'perf-gate-report.md'), 'utf8');
    expect(report).toContain('expect-json: 90');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

describe.runIf(dockerAvailable())('stages (k6 ramps) and pipelining (autocannon) on the real engine', () => {
  const config = join(ROOT, 'fixtures/tests/confirm/perf-gate.stages.yml');
  afterAll(() => rmSync(config, { force: true }));

  it('behind a tcp:// ready probe, a ramping rate, ramping connections and a pipelined closed loop run in the runner container, and are in the results', async () => {
    writeFileSync(
      config,
      readFileSync(join(ROOT, 'fixtures/tests/confirm/perf-gate.yml'), 'utf8')
        // a TCP ready probe: the service accepts connections, no HTTP asked of it (fetch would refuse
        // a tcp:// URL, and the run would end not ready)
        .replace('ready: [{ url: http://api:8080/health }]', 'ready: [{ url: tcp://api:8080 }]')
        .replace(
          '      - { name: c2, connections: 2, duration: 1s }',
          [
            '      - name: up',
            '        stages: [{ duration: 1s, target: 200 }, { duration: 500ms, target: 200 }]',
            '        max-in-flight: 50',
            '      - { name: climb, connections: 1, stages: [{ duration: 1s, connections: 6 }] }',
            '      - { connections: 2, amount: 300, pipelining: 4 }',
          ].join('\n'),
        ),
    );
    const { r, out } = await runFresh(config, 'update');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const [up, climb, piped] = results.scenarios[0]?.phases ?? [];
    expect(up?.params).toMatchObject({
      rate: 200,
      durationMs: 1500,
      ramp: {
        from: 0,
        stages: [
          { durationMs: 1000, to: 200 },
          { durationMs: 500, to: 200 },
        ],
      },
    });
    // 100 sends up the ramp and 100 at its top, every trial; the warm-up ran the ramp's first 300 ms
    expect(up?.trials.map((t) => t.open?.scheduled)).toEqual([200, 200, 200]);
    expect(up?.merged.successes).toBe(600);
    expect(climb?.params).toMatchObject({ connections: 6, ramp: { from: 1, stages: [{ durationMs: 1000, to: 6 }] } });
    expect(climb?.merged.errors).toEqual({});
    expect(climb?.merged.successes).toBeGreaterThan(0);
    // the fixture service (Go's net/http) answers pipelined requests in order
    expect(piped).toMatchObject({ name: 'c2-n300-p4', params: { connections: 2, requests: 300, pipelining: 4 } });
    expect(piped?.merged).toMatchObject({ sent: 900, successes: 900, errors: {} });
    expect(results.comparisons.map((c) => `${c.phase} ${c.metric} ${c.result}`)).toContain('up p50 no-baseline');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

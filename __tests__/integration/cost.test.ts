// Why it regressed, on the real engine (compare/cost.ts): the fixture service made slower by more CPU
// work per request (BURN, a spin) reads "more CPU per request" naming the service; made slower by a
// sleep (DELAY) it reads "waiting, not working". Gate mode: a baseline recorded, then the slower
// service gated against it. No health check in the compose file: its probe's CPU would count as the
// service's.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, FIXTURE_SUT, fixtureService, leftovers, runCli, runIdOf, tempDir } from './helpers.js';

const engine = dockerAvailable();

const compose = fixtureService;

const CONFIG = `${FIXTURE_SUT}defaults:
  warmup: 500ms
  trials: 5
  thresholds:
    p50: { regress: 20%, floor: 300us }
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    phases:
      - { name: c2, connections: 2, duration: 3s }
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A baseline of the service with `before`, then a gate of it with `after`: the gate's results and report. */
async function gateAfter(before: Record<string, string>, after: Record<string, string>) {
  const dir = tempDir('perf-gate-cost-');
  dirs.push(dir);
  writeFileSync(join(dir, 'perf-gate.yml'), CONFIG);
  const run = (mode: string) =>
    runCli(
      ['run', '--config', join(dir, 'perf-gate.yml'), '--mode', mode, '--baseline-dir', join(dir, 'b'), '--out', dir],
      { GITHUB_WORKSPACE: dir },
    );
  writeFileSync(join(dir, 'docker-compose.yml'), compose(before));
  const up = await run('update');
  expect(up.code, up.stdout + up.stderr).toBe(0);
  writeFileSync(join(dir, 'docker-compose.yml'), compose(after));
  const r = await run('gate');
  expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
  return { r, results, report: readFileSync(join(dir, 'perf-gate-report.md'), 'utf8') };
}

describe.skipIf(!engine)('why it regressed: CPU per request by service, on the real engine', () => {
  it('more work per request (a spin of 1 ms → 2 ms): the gate fails and names the service', async () => {
    const { r, results, report } = await gateAfter({ BURN: '1ms' }, { BURN: '2ms' });
    // a regression, or inconclusive where the machine was busy: both fail the check
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const api = results.costs?.[0]?.services.find((s) => s.service === 'api');
    expect(api, r.stdout + r.stderr).toBeDefined();
    expect(api?.change).toBeGreaterThan(0.3);
    expect(api?.rose, JSON.stringify(results.costs)).toBe(true);
    expect(report).toMatch(/- \*\*why api\/c2\*\*: more CPU per request: api \+\d+%/);
  }, 300_000);

  it('waiting (a sleep of 2 ms → 4 ms): the gate fails and no service spent more CPU per request', async () => {
    const { r, results, report } = await gateAfter({ DELAY: '2ms' }, { DELAY: '4ms' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(
      results.costs?.[0]?.services.some((s) => s.rose),
      JSON.stringify(results.costs),
    ).toBe(false);
    expect(report).toMatch(
      /- \*\*why api\/c2\*\*: no service spent more CPU per request \(api [-+][\d.]+%, -?\d+% of the added latency\): waiting, not working/,
    );
  }, 300_000);
});

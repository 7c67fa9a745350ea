// Any percentile (issue 21, "conventions users bring"), on the real engine: p99.99 and p97.5 thresholds
// are computed by the host from each trial's histogram and from the merged one, land in the results
// and baseline files, and are gated; a baseline recorded before p97.5 was gated gives a row saying so.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BaselineFile, PhaseResult, ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, ROOT, runCli, runFresh, runIdOf } from './helpers.js';

const CONFIG = (scenarioThresholds: string) => `version: 1
sut:
  compose: docker-compose.yml
  ready: [{ url: http://api:8080/health }]
runner: { image: perf-gate/node:local }
defaults:
  warmup: 300ms
  trials: 3
  thresholds:
    p99.99: { below: 10s }
    error-rate: { max: 1% }
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    phases:
      - { name: c2, connections: 2, duration: 1s }
    thresholds: ${scenarioThresholds}
`;

/** Every trial's and the merged value of each percentile, ascending: [p97.5 per trial…, merged]. */
function percentilesOf(p: PhaseResult | undefined, name: string): number[] {
  return [...(p?.trials ?? []), p?.merged].map((t) => t?.latency.percentiles?.[name] ?? Number.NaN);
}

describe.runIf(dockerAvailable())('any percentile on the real engine', () => {
  const config = join(ROOT, 'fixtures/tests/confirm/perf-gate.percentiles.yml');
  afterAll(() => rmSync(config, { force: true }));

  it('p99.99 and p97.5 per trial and merged; a baseline without p97.5 gives a no-baseline row naming it', async () => {
    // the baseline: p99.99 gated, p97.5 not yet
    writeFileSync(config, CONFIG('{}'));
    const update = await runFresh(config, 'update');
    expect(update.r.code, update.r.stdout + update.r.stderr).toBe(0);
    expect(leftovers(runIdOf(update.r.stderr))).toEqual([]);
    const baseline = JSON.parse(readFileSync(join(update.baselines, 'api.json'), 'utf8')) as BaselineFile;
    const old = baseline.phases[0];
    expect(old?.trials).toHaveLength(3);
    for (const v of percentilesOf(old, 'p99.99')) expect(v).toBeGreaterThan(0);
    expect(percentilesOf(old, 'p97.5').every(Number.isNaN)).toBe(true);

    // the gate: p97.5 added (spelled p97.50: one percentile, one name), the baseline lacks it
    writeFileSync(config, CONFIG('{ p97.50: { regress: 50%, floor: 5ms } }'));
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
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
    const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const p = results.scenarios[0]?.phases[0];
    expect(p?.trials).toHaveLength(3);
    const p975 = percentilesOf(p, 'p97.5');
    const p9999 = percentilesOf(p, 'p99.99');
    for (const [i, v] of p975.entries()) {
      expect(v).toBeGreaterThan(0);
      // a trial's p97.5 is at most its p99.9 and at least its p50 (the runner's own fields)
      const l = i < 3 ? p?.trials[i]?.latency : p?.merged.latency;
      expect(v).toBeGreaterThanOrEqual(l?.p50 ?? Infinity);
      expect(v).toBeLessThanOrEqual(l?.['p99.9'] ?? 0);
      expect(p9999[i]).toBeGreaterThanOrEqual(v);
      expect(p9999[i]).toBeLessThanOrEqual(l?.max ?? 0);
    }
    expect(results.scenarios[0]?.thresholds).toMatchObject({
      'p97.5': { regress: 0.5, floor: 5000 },
      'p99.99': { limit: 10_000_000 },
    });
    const rows = Object.fromEntries(results.comparisons.map((c) => [c.metric, c]));
    expect(rows['p97.5']).toMatchObject({
      phase: 'c2',
      baseline: null,
      current: p975[3],
      result: 'no-baseline',
      reason:
        'the baseline has no p97.5 (recorded before p97.5 was gated); refresh it with perf-gate run --mode update',
    });
    expect(rows['p99.99']).toMatchObject({
      phase: 'c2',
      baseline: old?.merged.latency.percentiles?.['p99.99'],
      current: p9999[3],
      result: 'pass',
      band: '≤ 10s',
    });
    const report = readFileSync(join(out, 'perf-gate-report.md'), 'utf8');
    expect(report).toContain('the baseline has no p97.5');
    // the terminal table has a column for each
    expect(r.stdout).toMatch(/max +p97\.5 +p99\.99 +errors/);
  }, 300_000);
});

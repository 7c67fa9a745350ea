// A/B mode on the real engine: a temporary git repository with two commits, both SUTs booted from
// their own trees (the compose file differs in the service's delay), trials interleaved.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { derivedSeed, drawOrder, seededRandom } from '../../src/stats/random.js';
import { dockerAvailable, leftovers, regressedOrBusy, ROOT, runCli, runIdOf, tempDir, git } from './helpers.js';

const engine = dockerAvailable();

const compose = (delay: string) => `services:
  api:
    build: ${join(ROOT, 'fixtures/sut')}
    environment:
      DELAY: ${delay}
    healthcheck:
      test: ['CMD', '/sut', '-health', 'http://127.0.0.1:8080/health']
      interval: 1s
      retries: 30
`;

const CONFIG = `version: 1
sut:
  compose: docker-compose.yml
  build: true
  ready: [{ url: http://api:8080/health }]
runner: { image: perf-gate/node:local }
ab: { pairs: 6 }
defaults:
  warmup: 300ms
  thresholds:
    p50: { regress: 20%, floor: 500us }
    error-rate: { max: 1% }
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    phases:
      - { name: c2, connections: 2, duration: 1s }
`;

/** A repository whose HEAD~1 has the service at `baseDelay`; HEAD changes it to `headDelay` or only the README. */
function repo(baseDelay: string, headDelay: string | undefined): string {
  const dir = tempDir('perf-gate-ab-');
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'test@example.com']);
  git(dir, ['config', 'user.name', 'perf-gate test']);
  writeFileSync(join(dir, 'docker-compose.yml'), compose(baseDelay));
  writeFileSync(join(dir, 'perf-gate.yml'), CONFIG);
  writeFileSync(join(dir, 'README.md'), 'service\n');
  git(dir, ['add', '.']);
  git(dir, ['commit', '-q', '-m', 'base']);
  if (headDelay) writeFileSync(join(dir, 'docker-compose.yml'), compose(headDelay));
  else writeFileSync(join(dir, 'README.md'), 'service, documented\n');
  git(dir, ['commit', '-q', '-am', 'head']);
  return dir;
}

const dirs: string[] = [];
const ab = (dir: string, base: string) =>
  runCli(['run', '--config', join(dir, 'perf-gate.yml'), '--mode', 'ab', '--base', base, '--out', dir], {
    GITHUB_WORKSPACE: dir,
  });

describe.skipIf(!engine)('A/B mode: head against base in one run', () => {
  beforeAll(() => {
    dirs.push(repo('5ms', '9ms'), repo('5ms', undefined));
  });
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a slower service in head is a regression against base, with both SHAs and nothing left behind', async () => {
    const dir = dirs[0] as string;
    const r = await ab(dir, 'HEAD~1');
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    expect(results.mode).toBe('ab');
    expect(results.ab?.baseCommit).toBe(git(dir, ['rev-parse', 'HEAD~1']));
    expect(results.provenance.commit).toBe(git(dir, ['rev-parse', 'HEAD']));
    // the run's budget by default (gate.run-alpha 0.01, issue 47): 6 pairs, all worse, give p = 1/64,
    // which cannot confirm at the first look (0.005), so the phase runs to the cap: 12 pairs, p = 1/4096
    expect(results.ab?.base[0]?.phases[0]?.trials).toHaveLength(12);
    expect(results.scenarios[0]?.phases[0]?.trials).toHaveLength(12);
    const p50 = results.comparisons.find((c) => c.metric === 'p50');
    if (!regressedOrBusy(p50, results.busy, r.stdout + r.stderr)) {
      expect(p50?.pairs).toBe(12);
      expect(p50?.extraTrials).toBe(6);
      // 1/4096 as the results file rounds it
      expect(p50?.pValue).toBe(0.0002);
    }
    expect(p50?.delta).toBeGreaterThan(0.4);
    // the seed and each pair's order are in the results and the report
    expect(results.ab?.order).toBe('random');
    expect(results.ab?.seed).toBeTypeOf('number');
    expect(results.ab?.orders?.[0]?.order).toHaveLength(12);
    const report = readFileSync(join(dir, 'perf-gate-report.md'), 'utf8');
    expect(report).toContain(
      `same run, 6 interleaved pairs per phase, more where confirmation ran (each pair's order drawn at random, seed ${results.ab?.seed})`,
    );
    expect(report).toMatch(new RegExp(`\\| api +\\| c2 +\\| ${results.ab?.orders?.[0]?.order.join(' ')} +\\|`));
    // one long-lived runner per side, not one per trial
    expect(r.stderr.match(/base: SUT ready/g)).toHaveLength(1);
    expect(r.stderr.match(/head: SUT ready/g)).toHaveLength(1);
    expect(report).toContain(git(dir, ['rev-parse', 'HEAD~1']).slice(0, 12));
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
    expect(git(dir, ['worktree', 'list']).split('\n')).toHaveLength(1);
    // two SUT builds, two boots and two runners
  }, 300_000);

  it('two commits that differ only in a README pass; --seed draws the orders it says', async () => {
    const dir = dirs[1] as string;
    const r = await runCli(
      ['run', '--config', join(dir, 'perf-gate.yml'), '--mode', 'ab', '--base', 'main~1', '--out', dir, '--seed', '42'],
      { GITHUB_WORKSPACE: dir },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const random = seededRandom(derivedSeed(42, 'api', 'c2'));
    expect(results.ab?.seed).toBe(42);
    // the pairs that ran: 3 where the phase stopped at its early look (the default), else 6 and more
    const ran = results.ab?.orders?.[0]?.order.slice(0, 6) ?? [];
    const stopped = results.scenarios[0]?.phases[0]?.confirm?.stopped;
    expect(ran.length).toBe(stopped === undefined ? 6 : stopped);
    expect(ran).toEqual(Array.from({ length: ran.length }, () => drawOrder(random)));
    expect(results.comparisons.filter((c) => c.result === 'regression')).toEqual([]);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
    expect(git(dir, ['worktree', 'list']).split('\n')).toHaveLength(1);
  }, 300_000);

  it('a base ref that does not exist is exit 2 in one line, before anything starts', async () => {
    const dir = dirs[1] as string;
    const r = await ab(dir, 'no-such-branch');
    expect(r.code).toBe(2);
    // this repository has no origin to fetch from: the line says so
    expect(r.stderr.trim()).toMatch(
      /^perf-gate: --base no-such-branch: no such commit in this repository, and fetching it from origin failed \(.+\)$/,
    );
    expect(git(dir, ['worktree', 'list']).split('\n')).toHaveLength(1);
  });
});

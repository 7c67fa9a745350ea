// sut.profile on the real engine: A/B on the fixture service serving Go's pprof (PPROF), whose head
// runs its named function checksumBody 4 times as often per request (CHECKSUM_ROUNDS: more work, not
// a sleep). The gate fails, the report's why says the service spent more CPU per request, and the
// profile diff names checksumBody first; both sides' profiles are files beside the results. The same
// service made slower by a sleep instead: waiting, not working, and no function named. And a gate run
// against baselines: the update keeps each profile beside the baselines, the gate diffs against it.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import {
  commitBaseAndHead,
  dockerAvailable,
  FIXTURE_SUT,
  fixtureService,
  leftovers,
  runCli,
  runIdOf,
  tempDir,
} from './helpers.js';

const CONFIG = FIXTURE_SUT.replace(
  '  ready: [{ url: http://api:8080/health }]\n',
  '  ready: [{ url: http://api:8080/health }]\n  profile: { api: http://api:6060/debug/pprof/profile }\n',
).concat(`defaults:
  warmup: 500ms
  thresholds:
    p50: { regress: 20%, floor: 300us }
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    phases:
      - { name: c2, connections: 2, duration: 2s }
`);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The same config, the service sampled by Linux perf from a helper (provision-images.sh's image). */
const PERF_CONFIG = CONFIG.replace(
  '  profile: { api: http://api:6060/debug/pprof/profile }\n',
  '  profile: { api: perf }\n  perf-image: perf-gate/perf:local\n',
);

/** A repository whose base commit runs the service with `base`, its head with `head`; A/B of it. */
async function ab(base: Record<string, string>, head: Record<string, string>, config = CONFIG) {
  const dir = tempDir('perf-gate-profile-');
  dirs.push(dir);
  writeFileSync(join(dir, 'perf-gate.yml'), config);
  const compose = (env: Record<string, string>) => fixtureService({ PPROF: "':6060'", ...env });
  writeFileSync(join(dir, 'docker-compose.yml'), compose(base));
  commitBaseAndHead(dir, () => writeFileSync(join(dir, 'docker-compose.yml'), compose(head)));
  const out = join(dir, 'out');
  const r = await runCli(
    ['run', '--config', join(dir, 'perf-gate.yml'), '--mode', 'ab', '--base', 'HEAD~1', '--out', out],
    { GITHUB_WORKSPACE: dir },
  );
  expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
  return { r, out, results, report: readFileSync(join(out, 'perf-gate-report.md'), 'utf8') };
}

describe.skipIf(!dockerAvailable())('sut.profile on the real engine', () => {
  it('A/B, head doing 4x the work in one function: the gate fails and the profile diff names it first', async () => {
    // 10 rounds against 40: checksumBody goes from about four fifths of the samples to 94%, a rise well
    // beyond a 2 s profile's noise (at 20 against 80 it already held 89%, and its callers' shares, which
    // hold it, rose by as much give or take the noise: a CI run named a caller); at 5 against 20 the
    // base answers in 210 µs and the change stays under the band's 300 µs floor
    const { r, out, results, report } = await ab({ CHECKSUM_ROUNDS: "'10'" }, { CHECKSUM_ROUNDS: "'40'" });
    const said = r.stdout + r.stderr;
    // a regression, or inconclusive where the machine was busy: both fail the check
    expect(r.code, said).toBe(1);
    expect(said).toContain('[perf-gate] api/c2: one more trial a side, profiling api');
    // both sides' profiles, each a file beside the results
    expect(results.profiles?.map((p) => [p.side, p.file, p.error])).toEqual([
      ['base', 'perf-gate-profiles/base.api.c2.api.pb.gz', undefined],
      ['head', 'perf-gate-profiles/head.api.c2.api.pb.gz', undefined],
    ]);
    for (const p of results.profiles ?? []) expect(existsSync(join(out, p.file ?? ''))).toBe(true);
    const diff = results.profileDiffs?.[0];
    expect(diff?.functions[0]?.name, JSON.stringify(diff)).toBe('main.checksumBody');
    const first = diff?.functions[0];
    expect((first?.cum.head ?? 0) - (first?.cum.base ?? 0)).toBeGreaterThan(0.02);
    // the differential flame graph beside them: checksumBody's frame red (its share rose)
    expect(diff?.flame).toBe('perf-gate-profiles/diff.api.c2.api.svg');
    const svg = readFileSync(join(out, diff?.flame ?? ''), 'utf8');
    expect(svg).toMatch(/<title>main\.checksumBody [^<]*\+[\d.]+ points<\/title><rect [^>]*fill="rgb\(255,\d+,\d+\)"/);
    expect(report).toContain('flame graph `perf-gate-profiles/diff.api.c2.api.svg`');
    expect(report).toMatch(/- \*\*why api\/c2\*\*: more CPU per request: api \+\d+%/);
    expect(report).toMatch(
      /- \*\*where api\/c2, api\*\* \(its profile, head against base\): the share of the samples \(cpu\) rose most under main\.checksumBody \d+(\.\d)?% → \d+(\.\d)?%/,
    );
  }, 600_000);

  it('the same with Linux perf from a helper container: perf’s text beside the results, the function first', async () => {
    const { r, out, results, report } = await ab({ CHECKSUM_ROUNDS: "'10'" }, { CHECKSUM_ROUNDS: "'40'" }, PERF_CONFIG);
    const said = r.stdout + r.stderr;
    expect(r.code, said).toBe(1);
    expect(results.profiles?.map((p) => [p.side, p.file, p.error])).toEqual([
      ['base', 'perf-gate-profiles/base.api.c2.api.perf.txt', undefined],
      ['head', 'perf-gate-profiles/head.api.c2.api.perf.txt', undefined],
    ]);
    for (const p of results.profiles ?? []) expect(readFileSync(join(out, p.file ?? ''), 'utf8')).toMatch(/cpu-clock/);
    const diff = results.profileDiffs?.[0];
    expect(diff?.sampleType).toBe('cpu-clock');
    expect(diff?.functions[0]?.name, JSON.stringify(diff)).toBe('main.checksumBody');
    expect(report).toMatch(/- \*\*where api\/c2, api\*\* \(its profile, head against base\): .*main\.checksumBody/);
    // the helpers are gone with the run (leftovers() above: nothing labelled with the run id remains)
  }, 600_000);

  it('A/B, head sleeping 2 ms longer: the gate fails, waiting, not working, and no function is named', async () => {
    const { r, results, report } = await ab(
      { CHECKSUM_ROUNDS: "'20'", DELAY: '1ms' },
      { CHECKSUM_ROUNDS: "'20'", DELAY: '3ms' },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(results.profileDiffs).toHaveLength(1);
    expect(report).toMatch(/- \*\*why api\/c2\*\*: no service spent more CPU per request .*: waiting, not working/);
    expect(report).toContain('- **where api/c2, api**: its CPU per request did not rise, so no function is named');
  }, 600_000);

  it('gate against baselines: the update keeps the profile beside them, the gate run diffs its own against it', async () => {
    const dir = tempDir('perf-gate-profile-gate-');
    dirs.push(dir);
    writeFileSync(join(dir, 'perf-gate.yml'), CONFIG);
    const compose = (rounds: string) => fixtureService({ PPROF: "':6060'", CHECKSUM_ROUNDS: `'${rounds}'` });
    const runAt = async (mode: string, rounds: string) => {
      writeFileSync(join(dir, 'docker-compose.yml'), compose(rounds));
      const out = join(dir, `out-${mode}`);
      const args = ['run', '--config', join(dir, 'perf-gate.yml'), '--mode', mode, '--out', out];
      const r = await runCli([...args, '--baseline-dir', join(dir, 'baselines')], { GITHUB_WORKSPACE: dir });
      expect(leftovers(runIdOf(r.stderr))).toEqual([]);
      const results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
      return { r, out, results, report: readFileSync(join(out, 'perf-gate-report.md'), 'utf8') };
    };
    const update = await runAt('update', '10');
    expect(update.r.code, update.r.stdout + update.r.stderr).toBe(0);
    // the baseline lists its profile, a file beside it
    const baseline = JSON.parse(readFileSync(join(dir, 'baselines', 'api.json'), 'utf8')) as {
      profiles?: Array<{ phase: string; service: string; file: string }>;
    };
    expect(baseline.profiles).toEqual([{ phase: 'c2', service: 'api', file: 'profiles/api.c2.api.pb.gz' }]);
    expect(existsSync(join(dir, 'baselines', 'profiles', 'api.c2.api.pb.gz'))).toBe(true);
    const gate = await runAt('gate', '40');
    const said = gate.r.stdout + gate.r.stderr;
    expect(gate.r.code, said).toBe(1);
    const diff = gate.results.profileDiffs?.[0];
    expect(diff?.against).toBe('baseline');
    expect(diff?.functions[0]?.name, JSON.stringify(diff)).toBe('main.checksumBody');
    expect(gate.report).toMatch(
      /- \*\*where api\/c2, api\*\* \(its profile, this run against the baseline\): the share of the samples \(cpu\) rose most under main\.checksumBody /,
    );
    expect(existsSync(join(gate.out, 'perf-gate-profiles', 'diff.api.c2.api.svg'))).toBe(true);
  }, 600_000);
});

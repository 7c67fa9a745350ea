// What crept in over many merges, on the real engine: ten scheduled refreshes (`--mode update --history`)
// of the fixture service, each at its own commit (GITHUB_SHA, as the Action's runs are), the service's
// delay raised once from the sixth, 3 ms to 15 ms. (A doubling, 3 ms to 6 ms, was too small a step for
// p99 on a noisy VM: in one fresh-clone CI run the runs before it read p99 4.7-7.5 ms, the runs after
// 7.6-10 ms, and E-divisive did not call that shift at p 0.01; p50 and throughput it did.) The tenth refresh's report gives one level shift per metric, at the
// sixth run's commit, and `perf-gate history` lists the same. No health check in the compose file, as in
// cost.test.ts; the service sleeps, so its latency is the sleep's (Go's sleep overshoots, alike on both
// sides of the step).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHistory } from '../../src/history/history.js';
import { dockerAvailable, FIXTURE_SUT, fixtureService, leftovers, runCli, runIdOf, tempDir } from './helpers.js';

const engine = dockerAvailable();

const compose = (delay: string) => fixtureService({ DELAY: delay });

const CONFIG = `${FIXTURE_SUT}defaults:
  warmup: 200ms
  trials: 3
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    phases:
      - { name: c2, connections: 2, duration: 600ms }
`;

const RUNS = 10;
/** the first run with the raised delay (1-based) */
const RAISED = 6;
/** each run's commit: 40 hex digits, distinct, the run's number in its first seven */
const commitOf = (run: number) => `${String(run).padStart(7, '0')}${'a'.repeat(33)}`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!engine)('ten refreshes with one step in the middle: one level shift, at its commit', () => {
  it('the tenth refresh reports p50, p99 and throughput shifted at the sixth run and nowhere else', async () => {
    const dir = tempDir('perf-gate-refresh-');
    dirs.push(dir);
    const history = join(dir, 'perf-history.jsonl');
    writeFileSync(join(dir, 'perf-gate.yml'), CONFIG);
    for (let run = 1; run <= RUNS; run++) {
      writeFileSync(join(dir, 'docker-compose.yml'), compose(run < RAISED ? '3ms' : '15ms'));
      const r = await runCli(
        [
          'run',
          '--config',
          join(dir, 'perf-gate.yml'),
          '--mode',
          'update',
          '--baseline-dir',
          join(dir, 'b'),
          '--out',
          dir,
          '--history',
          history,
        ],
        { GITHUB_WORKSPACE: dir, GITHUB_SHA: commitOf(run) },
      );
      expect(r.code, `run ${run}:\n${r.stdout}\n${r.stderr}`).toBe(0);
      expect(leftovers(runIdOf(r.stderr))).toEqual([]);
    }
    const { entries } = parseHistory(readFileSync(history, 'utf8'));
    expect(entries.map((e) => e.commit)).toEqual(Array.from({ length: RUNS }, (_, i) => commitOf(i + 1)));

    // the tenth refresh's report: its level shifts, one line each
    const report = readFileSync(join(dir, 'perf-gate-report.md'), 'utf8');
    const shifts = report.split('\n').filter((l) => /^- api\/c2 (p50|p99|rps) /.test(l));
    const at = (metric: string) => shifts.filter((l) => l.startsWith(`- api/c2 ${metric} `));
    const raised = commitOf(RAISED).slice(0, 7);
    const before = commitOf(RAISED - 1).slice(0, 7);
    for (const metric of ['p50', 'p99', 'rps']) {
      expect(at(metric), report).toHaveLength(1);
      expect(at(metric)[0], report).toContain(`at ${raised}, since ${before}`);
      expect(at(metric)[0], report).toContain('(worse)');
      // the step is the code's: the machine's calibration did not move with it
      expect(at(metric)[0], report).not.toContain('the machine changed');
    }
    expect(shifts, report).toHaveLength(3);

    // `perf-gate history` reads the same file and lists the same shifts
    const listed = await runCli(['history', history]);
    expect(listed.code, listed.stderr).toBe(0);
    for (const line of shifts) expect(listed.stdout).toContain(line);
  }, 900_000);
});

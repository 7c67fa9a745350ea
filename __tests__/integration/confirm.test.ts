// Confirmation by more trials on the real engine (issue: "no gate that cannot fail"): with `trials: 3`
// a +50% p50 is confirmed by extra trials and fails the gate; an unchanged service passes.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, regressedOrBusy, runCli, runIdOf, tempDir } from './helpers.js';

const engine = dockerAvailable();
const CONFIG = 'fixtures/tests/confirm/perf-gate.yml';

describe.skipIf(!engine)('confirmation: trials 3 against a 3-trial baseline', () => {
  const out = tempDir();
  const baselines = join(out, 'baselines');
  const gate = (delay: string, dir: string) =>
    runCli(['run', '--config', CONFIG, '--mode', 'gate', '--baseline-dir', baselines, '--out', dir], {
      CONFIRM_DELAY: delay,
    });

  beforeAll(async () => {
    const r = await runCli(['run', '--config', CONFIG, '--mode', 'update', '--baseline-dir', baselines, '--out', out], {
      CONFIRM_DELAY: '2ms',
    });
    if (r.code !== 0) throw new Error(`update failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('validate says the 3 trials alone cannot reach alpha, and that rows will run more trials', async () => {
    const r = await runCli(['validate', '--config', CONFIG]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('note: scenario api: 3 trials alone cannot reach p ≤ 0.01');
    expect(r.stdout).toContain('up to 8 (gate.confirm.max-trials)');
  });

  it('+50% p50 (2 ms → 3 ms) runs more trials, is confirmed and fails the gate', async () => {
    const dir = tempDir();
    const r = await gate('3ms', dir);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/api\/c2: outside the band, not yet confirmed: c2 p50 \(p=0\.05\); running 5 more trials/);
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const phase = results.scenarios[0]?.phases[0];
    expect(phase?.confirm).toEqual({ first: 3, cap: 8 });
    expect(phase?.trials).toHaveLength(8);
    const p50 = results.comparisons.find((c) => c.metric === 'p50');
    if (!regressedOrBusy(p50, results.busy, r.stdout + r.stderr)) {
      expect(p50?.extraTrials).toBe(5);
      expect(p50?.pValue).toBeLessThanOrEqual(0.01);
      expect(readFileSync(join(dir, 'perf-gate-report.md'), 'utf8')).toContain('confirmed by 5 more trials');
    }
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('an unchanged service passes', async () => {
    const dir = tempDir();
    const r = await gate('2ms', dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    expect(results.comparisons.filter((c) => c.result === 'regression' || c.result === 'inconclusive')).toEqual([]);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  /** The fixture's config, edited, written in `dir` with the fixture's compose file by absolute path. */
  const configWith = (dir: string, edit: (text: string) => string): string => {
    const config = join(dir, 'perf-gate.yml');
    const text = readFileSync(CONFIG, 'utf8').replace(
      'compose: docker-compose.yml',
      `compose: ${join(process.cwd(), 'fixtures/tests/confirm/docker-compose.yml')}`,
    );
    writeFileSync(config, edit(text));
    return config;
  };

  /** The fixture's config with `gate.early-look` and the p50 band given. */
  const earlyConfig = (dir: string, regress: string): string =>
    configWith(dir, (text) =>
      text
        .replace('confirm: { max-trials: 8 }', 'confirm: { max-trials: 8 }\n  early-look: 2')
        .replace('regress: 20%', `regress: ${regress}`),
    );

  it('gate.early-look 2: an unchanged service, band +100%, stops at 2 of 3 trials and says so', async () => {
    const dir = tempDir();
    const config = earlyConfig(dir, '100%');
    const r = await runCli(['run', '--config', config, '--mode', 'gate', '--baseline-dir', baselines, '--out', dir], {
      GITHUB_WORKSPACE: '/',
      CONFIRM_DELAY: '2ms',
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /api\/c2: early look at 2 of 3 trials: every row inside its band \(c2 p50 at most \+\d+(\.\d)?% \(band \+100%\)\); the phase stops here/,
    );
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const phase = results.scenarios[0]?.phases[0];
    expect(phase?.confirm).toEqual({ first: 3, cap: 8, stopped: 2 });
    expect(phase?.trials).toHaveLength(2);
    expect(results.comparisons.find((c) => c.metric === 'p50')?.result).toBe('pass');
    expect(readFileSync(join(dir, 'perf-gate-report.md'), 'utf8')).toContain(
      '- early look (gate.early-look): 1 of 1 phase stopped before their configured trials',
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('gate.early-look 2: +50% p50 is open at the look, runs on, and is confirmed as without it', async () => {
    const dir = tempDir();
    const config = earlyConfig(dir, '20%');
    const r = await runCli(['run', '--config', config, '--mode', 'gate', '--baseline-dir', baselines, '--out', dir], {
      GITHUB_WORKSPACE: '/',
      CONFIRM_DELAY: '3ms',
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/api\/c2: early look at 2 of 3 trials: c2 p50 is open; running the other 1/);
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const phase = results.scenarios[0]?.phases[0];
    expect(phase?.confirm).toEqual({ first: 3, cap: 8 });
    expect(phase?.trials).toHaveLength(8);
    regressedOrBusy(
      results.comparisons.find((c) => c.metric === 'p50'),
      results.busy,
      r.stdout + r.stderr,
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('warmup-later: settled: the first trial’s 2 s warm-up settles, later trials get a shorter one, and the files say so', async () => {
    const dir = tempDir();
    const config = configWith(dir, (text) => text.replace('  warmup: 300ms', '  warmup: 2s\n  warmup-later: settled'));
    const r = await runCli(
      ['run', '--config', config, '--mode', 'update', '--baseline-dir', join(dir, 'baselines'), '--out', dir],
      { GITHUB_WORKSPACE: '/', CONFIRM_DELAY: '2ms' },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const phase = results.scenarios[0]?.phases[0];
    // a 2 ms service at 2 connections is at full rate within a window or two of 200 ms
    expect(phase?.warmupLater?.settledMs, r.stderr).toBeDefined();
    const later = phase?.warmupLater?.laterMs as number;
    expect(later).toBeGreaterThanOrEqual(500);
    expect(later).toBeLessThan(2000);
    expect(phase?.trials.map((t) => t.warmupMs)).toEqual([undefined, later, later]);
    expect(r.stderr).toMatch(
      /api\/c2: the first trial's warm-up settled after \d+ms of 2s: later trials warm up for \d+(\.\d+)?(ms|s) \(warmup-later: settled\)/,
    );
    expect(readFileSync(join(dir, 'perf-gate-report.md'), 'utf8')).toContain(
      '- warm-up of later trials (warmup-later: settled',
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('gate.busy with a one-core CPU hog throughout: 2 trials put aside and repeated, the rest kept busy; +50% p50 is inconclusive, not a regression', async () => {
    const dir = tempDir();
    const config = configWith(dir, (text) =>
      text.replace('confirm: { max-trials: 8 }', 'confirm: { max-trials: 8 }\n  busy: { repeats: 2 }'),
    );
    // a hog on one core of the machine, bounded in time and killed when the run ends
    const hog = spawn(process.execPath, ['-e', 'const end = Date.now() + 240000; while (Date.now() < end);'], {
      stdio: 'ignore',
    });
    const r = await runCli(['run', '--config', config, '--mode', 'gate', '--baseline-dir', baselines, '--out', dir], {
      GITHUB_WORKSPACE: '/',
      CONFIRM_DELAY: '3ms',
    }).finally(() => hog.kill('SIGKILL'));
    // inconclusive fails the check by default (issue 47): not a regression, and not a pass
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const phase = results.scenarios[0]?.phases[0];
    expect(results.busy).toEqual({ othersPct: 50, repeats: 2, repeated: 2 });
    expect(phase?.discarded?.map((t) => t.busy)).toEqual([true, true]);
    expect(phase?.trials.length).toBeGreaterThanOrEqual(3);
    expect(phase?.trials.every((t) => t.busy && (t.machine?.othersPct ?? 0) >= 50)).toBe(true);
    const p50 = results.comparisons.find((c) => c.metric === 'p50');
    expect(p50?.result).toBe('inconclusive');
    expect(p50?.reason).toMatch(/the machine was busy during \d+ of its \d+ trials \(gate\.busy\)/);
    expect(r.stderr).toMatch(/api\/c2: trial 1 ran on a busy machine; put aside and repeated \(1 of 2\)/);
    expect(readFileSync(join(dir, 'perf-gate-report.md'), 'utf8')).toMatch(
      /- busy machine \(gate\.busy\): 2 of 2 trials repeated; busy trials still judged in api\/c2/,
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a config whose trials and cap cannot reach alpha is exit 2 naming the keys, before anything starts', async () => {
    const dir = tempDir();
    const config = configWith(dir, (text) => text.replace('\n  trials: 3\n', '\n  trials: 2\n'));
    const r = await runCli(['run', '--config', config, '--mode', 'gate', '--baseline-dir', baselines, '--out', dir], {
      GITHUB_WORKSPACE: '/',
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/scenarios\[0\]\.trials \(2\) with gate\.confirm\.max-trials \(8\)/);
    expect(r.stderr).not.toContain('run ');
  });
});

// Open-loop rate phases end to end on the real engine: the runner keeps a fixed arrival rate over
// two worker threads inside the SUT network; a service that stalls 300 ms in every second is caught
// at p99 (a closed loop would hide it); a runner starved of CPU is reported generator-bound and its
// comparisons are never a verdict (invalid, or inconclusive beyond their bands); a rate ladder in sweep mode.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, regressedOrBusy, runCli, runIdOf, tempDir } from './helpers.js';

const hasDocker = dockerAvailable();
const CONFIG = 'fixtures/tests/open/perf-gate.yml';

function results(dir: string): ResultsFile {
  return JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
}

describe.runIf(hasDocker)('open-loop rate phases', () => {
  const baselines = tempDir();

  beforeAll(async () => {
    const out = tempDir();
    const r = await runCli(['run', '--config', CONFIG, '--mode', 'update', '--out', out, '--baseline-dir', baselines]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const phase = results(out).scenarios[0]?.phases[0];
    expect(phase?.kind).toBe('open');
    expect(phase?.params).toMatchObject({ rate: 500, durationMs: 2000, maxInFlight: 400 });
    // 500 req/s for 2 s, three times: every scheduled send answered, none left over
    expect(phase?.merged.open).toMatchObject({ scheduled: 3000, unfinished: 0 });
    expect(phase?.merged.responses).toBe(3000);
    expect(phase?.merged.latency.count).toBe(3000);
    expect(phase?.trials.map((t) => t.generator.threads)).toEqual([2, 2, 2]);
    expect(phase?.flags.filter((f) => f.startsWith('generator-bound'))).toEqual([]);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('fails the gate on a stalling service: the stall shows at p99', async () => {
    const out = tempDir();
    const r = await runCli(['run', '--config', CONFIG, '--mode', 'gate', '--out', out, '--baseline-dir', baselines], {
      OPEN_STALL_FOR: '300ms',
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const res = results(out);
    const p99 = res.comparisons.find((c) => c.metric === 'p99');
    // what the row was, for bench/stall-hog.mjs (the test run beside a CPU hog)
    console.log(`[stall] p99 ${p99?.result}: ${p99?.reason ?? ''}`);
    // on a loaded machine the stall's connection bursts can flag the phase generator-bound: then the
    // row is not judged, but beyond its band it is inconclusive and fails the check (issue 47), never
    // an invalid row under a green check; on a machine busy past gate.busy's repeats, a regression on
    // its busy trials is inconclusive and fails the check too
    if (p99?.result === 'inconclusive' && p99.reason?.startsWith('generator-bound: '))
      expect(p99.reason).toMatch(/^generator-bound: .*not passed/);
    else regressedOrBusy(p99, res.busy, r.stdout + r.stderr);
    // 30% of arrivals wait 0–300 ms, so p99 is near 290 ms (+2 ms of service): the stall is
    // charged in full, and nothing on top of it
    expect(p99?.current).toBeGreaterThan(240_000);
    expect(p99?.current).toBeLessThan(400_000);
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('marks a starved generator generator-bound and its comparisons invalid', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      '--config',
      'fixtures/tests/open/perf-gate.starved.yml',
      '--mode',
      'gate',
      '--out',
      out,
      '--baseline-dir',
      baselines,
    ]);
    // a regression (1) or an inconclusive (1), never a run that could not finish
    expect([0, 1], r.stdout + r.stderr).toContain(r.code);
    const res = results(out);
    const phase = res.scenarios[0]?.phases[0];
    expect(phase?.flags[0], JSON.stringify(phase?.trials.map((t) => t.generator))).toMatch(/^generator-bound: /);
    expect(res.comparisons.length).toBeGreaterThan(0);
    // not judged: invalid (a warning) inside its band, inconclusive (a failure) beyond it (issue 47)
    for (const c of res.comparisons) {
      expect(['invalid', 'inconclusive'], c.metric).toContain(c.result);
      expect(c.reason, c.metric).toMatch(/generator-bound: /);
    }
    const unjudged = res.comparisons.some((c) => c.result === 'inconclusive');
    expect(r.code, r.stdout + r.stderr).toBe(unjudged ? 1 : 0);
    const report = readFileSync(join(out, 'perf-gate-report.md'), 'utf8');
    expect(report).toContain('generator-bound');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('sweeps a rate ladder', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      '--config',
      'fixtures/tests/open/perf-gate.yml',
      '--mode',
      'sweep',
      '--out',
      out,
      '--baseline-dir',
      baselines,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const phases = results(out).scenarios[0]?.phases ?? [];
    expect(phases.map((p) => [p.kind, p.params.rate])).toEqual([
      ['open', 100],
      ['open', 200],
      ['open', 400],
    ]);
    expect(phases.map((p) => p.merged.open?.scheduled)).toEqual([100, 200, 400]);
    const report = readFileSync(join(out, 'perf-gate-report.md'), 'utf8');
    expect(report).toContain('x-axis "offered req/s" [100, 200, 400]');
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

describe.runIf(hasDocker)('open loop near the generator’s limit', () => {
  it('reports a fast service honestly or flags the phase generator-bound, never its own backlog as latency', async () => {
    const out = tempDir();
    const r = await runCli(
      [
        'run',
        '--config',
        'fixtures/tests/open/perf-gate.fast.yml',
        '--mode',
        'update',
        '--out',
        out,
        '--baseline-dir',
        tempDir(),
      ],
      { OPEN_DELAY: '0s' },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const phase = results(out).scenarios[0]?.phases[0];
    const o = phase?.merged.open;
    const machine = phase?.trials.map((t) => ({ machine: t.machine, busy: t.busy }));
    const detail = JSON.stringify({ open: o, latency: phase?.merged.latency, flags: phase?.flags, machine });
    expect(o?.scheduled, detail).toBe(45_000);
    // every scheduled send is accounted for: answered, failed by kind, or unfinished
    const errors = Object.values(phase?.merged.errors ?? {}).reduce((a, b) => a + b, 0);
    expect((phase?.merged.responses ?? 0) + errors, detail).toBe(45_000);
    const bound = phase?.flags.some((f) => f.startsWith('generator-bound')) ?? false;
    // a window the machine's own readings call busy (steal or other processes at gate.busy's 50% of a
    // core in a slice: the VM took a core away) explains a service's tail; the readings are in the
    // results and the report, so the test says what it saw rather than blaming the generator
    const taken = phase?.trials.some((t) => t.busy === true || (t.machine?.peakPct ?? 0) >= 50) ?? false;
    if (!bound && taken) console.log(`[fast] the machine read busy during the window: ${detail}`);
    if (!bound && !taken) {
      // the service answers in well under a millisecond; the old engine reported p99 36–139 ms here
      // without a flag. Unflagged, the p99 must be one the service (and this VM's hiccups) can explain.
      expect(phase?.merged.latency.p99, detail).toBeLessThan(25_000);
      expect((o?.lateGenerator ?? 0) / 45_000, detail).toBeLessThan(0.01);
    }
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

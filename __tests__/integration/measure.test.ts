// The measurement path end to end on the real engine and real compose: `perf-gate run --mode update`
// on the quickstart writes trustworthy baseline and results files and leaves nothing behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/results/files.js';
import type { BaselineFile, ResultsFile } from '../../src/results/types.js';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import {
  type CliResult,
  dockerAvailable,
  leftovers,
  QUICKSTART_ARGS,
  QUICKSTART_ENV,
  QUICKSTART_IMAGE,
  runCli,
  runIdOf,
  tempDir,
} from './helpers.js';

const hasDocker = dockerAvailable();

describe.runIf(hasDocker)('quickstart, --mode update', () => {
  const out = tempDir();
  const baselines = join(out, 'baselines');
  let run: CliResult;
  let baselineText: string;
  let baseline: BaselineFile;
  let results: ResultsFile;

  beforeAll(async () => {
    run = await runCli(
      [
        'run',
        '--config',
        'fixtures/quickstart/perf-gate.yml',
        '--mode',
        'update',
        '--baseline-dir',
        baselines,
        '--out',
        out,
        '--junit',
        join(out, 'junit', 'perf-gate.xml'),
        '--csv',
        join(out, 'perf-gate.csv'),
        '--history',
        join(out, 'perf-history.jsonl'),
        ...QUICKSTART_ARGS,
      ],
      QUICKSTART_ENV,
    );
    if (run.code !== 0) throw new Error(`perf-gate run failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
    baselineText = readFileSync(join(baselines, 'work.json'), 'utf8');
    baseline = JSON.parse(baselineText);
    results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8'));
  }, 600_000);

  afterAll(() => {
    if (run) expect(leftovers(runIdOf(run.stderr))).toEqual([]);
  });

  it('prints the results table and the written paths', () => {
    expect(run.stdout).toMatch(
      /scenario\/phase\s+trials\s+responses\s+rps\s+p10\s+p25\s+p50\s+p75\s+p90\s+p99\s+p99\.9\s+max\s+errors/,
    );
    expect(run.stdout).toMatch(/work\/c10\s+5\s/);
    expect(run.stdout).toMatch(/work\/n2k\s+5\s/);
    expect(run.stdout).toContain(`baseline written: ${join(baselines, 'work.json')}`);
    // not a TTY here: plain progress lines
    expect(run.stderr).toContain('[perf-gate] work/c10 trial 1/5 measure started (3s)');
    expect(run.stderr).toContain('[perf-gate] work/n2k trial 5/5 measure started (2000 requests)');
  });

  it('writes JUnit XML and CSV on request, the same as `report --format` renders from the results file', async () => {
    for (const [file, format] of [
      [join(out, 'junit', 'perf-gate.xml'), 'junit'],
      [join(out, 'perf-gate.csv'), 'csv'],
    ] as const) {
      expect(run.stdout).toContain(`written: ${file}`);
      const again = await runCli(['report', join(out, 'perf-gate-results.json'), '--format', format]);
      expect(again.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(again.stdout);
    }
    // a first update has no earlier baseline: every gated row is a skipped case, "no baseline"
    const junit = readFileSync(join(out, 'junit', 'perf-gate.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="perf-gate.work" tests="(\d+)" failures="0" errors="0" skipped="\1"/);
    expect(junit).toContain('<testcase name="c10 p50" classname="perf-gate.work.c10"');
    expect(junit).toContain('<skipped message="no baseline"/>');
    const csv = readFileSync(join(out, 'perf-gate.csv'), 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('scenario,phase,metric,unit,value,baseline,delta,band,result,p_value,reason,detectable');
    expect(csv.find((l) => l.startsWith('work,c10,p50,us,'))).toBeDefined();
  });

  it('an update appends its summary to the history file; `perf-gate history` draws the trend once there are two runs', async () => {
    const file = join(out, 'perf-history.jsonl');
    expect(run.stdout).toContain(`written: ${file}`);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as { schema: string; runId: string; phases: Record<string, { rps: number }> };
    expect(entry.schema).toBe('perf-gate/history@1');
    expect(Object.keys(entry.phases)).toEqual(['work/c10', 'work/n2k']);
    const one = await runCli(['history', file]);
    expect(one.stdout).toContain('1 run, too few for a trend');
    const two = await runCli(['history', file, '--append', join(out, 'perf-gate-results.json')]);
    expect(two.code).toBe(0);
    expect(two.stdout).toContain('title "work/c10: p99 (ms)"');
  });

  it('writes a perf-gate/baseline@1 file with stable key order and provenance', () => {
    expect(baseline.schema).toBe('perf-gate/baseline@1');
    expect(baseline.scenario).toBe('work');
    expect(baseline.scenarioHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(stableStringify(baseline)).toBe(baselineText);
    const p = baseline.provenance;
    expect(p.docker.version).toMatch(/\d+\.\d+/);
    expect(p.runner.cores).toBeGreaterThan(0);
    expect(p.runnerImage).toBe(QUICKSTART_IMAGE);
    expect(p.sut.images.api?.id).toMatch(/^sha256:/);
    expect(Date.parse(p.time)).not.toBeNaN();
  });

  it('keeps every trial and merges histograms, not percentiles', () => {
    expect(baseline.phases.map((p) => p.name)).toEqual(['c10', 'n2k']);
    for (const phase of baseline.phases) {
      expect(phase.trials).toHaveLength(5);
      const successes = phase.trials.reduce((a, t) => a + t.successes, 0);
      const h = decodeHistogram(phase.merged.histogram);
      expect(h.totalCount).toBe(successes);
      expect(phase.merged.latency.count).toBe(successes);
      expect(phase.merged.latency.p99).toBe(h.getValueAtPercentile(99));
      h.destroy();
      expect(phase.merged.errors).toEqual({});
      expect(phase.merged.statusCodes).toEqual({ 200: successes });
    }
    const n2k = baseline.phases[1];
    for (const t of n2k?.trials ?? []) expect(t.responses).toBe(2000);
  });

  it('records microseconds: the 1 ms service delay is a floor, not a truncation', () => {
    for (const phase of baseline.phases) {
      // every success took at least the service's 1 ms sleep
      expect(phase.merged.latency.min).toBeGreaterThanOrEqual(1000);
      const values = Object.values(phase.merged.latency);
      expect(values.some((v) => v % 1000 !== 0)).toBe(true);
    }
  });

  it('samples SUT and runner resources per phase', () => {
    const c10 = baseline.phases[0];
    expect(c10?.merged.resources.api?.memoryPeakBytes).toBeGreaterThan(0);
    expect(c10?.merged.resources.api?.rxBytes).toBeGreaterThan(0);
    expect(c10?.merged.resources['perf-gate-runner']?.samples).toBeGreaterThan(0);
    // a local engine, read as root here: the SUT's open file descriptors are sampled
    if (process.getuid?.() === 0) expect(c10?.merged.resources.api?.fdsPeak).toBeGreaterThan(2);
  });

  it('writes the results file with the same phases', () => {
    expect(results.schema).toBe('perf-gate/results@1');
    expect(results.mode).toBe('update');
    // a trial put aside on a busy machine (gate.busy: steal or other processes) stays in the results
    // file as `discarded`, never in a baseline: the phases are the same without it…
    const phases = results.scenarios[0]?.phases ?? [];
    for (const p of phases) for (const t of p.discarded ?? []) expect(t.busy).toBe(true);
    // …and so does the generator's cost (generatorCpuUs): the machine's figure of that run, and each
    // trial's latency over time (the run's page draws it)
    expect(
      phases.map(({ discarded: _aside, generatorCpuUs: _cost, ...p }) => ({
        ...p,
        trials: p.trials.map(({ timeline: _timeline, ...t }) => t),
      })),
    ).toEqual(baseline.phases);
  });

  it("keeps each trial's latency over time in the results file: the window's successes, read within 1/16", () => {
    const phases = results.scenarios[0]?.phases ?? [];
    for (const p of phases) {
      for (const t of p.trials) {
        const tl = t.timeline;
        expect(tl, `${p.name} trial ${t.trial}`).toBeDefined();
        if (!tl) continue;
        // windows of 100 ms doubled until the trial fits 60 of them
        expect(Math.log2(tl.windowMs / 100) % 1).toBe(0);
        expect(tl.count.length).toBeLessThanOrEqual(60);
        expect(tl.count.length).toBeGreaterThanOrEqual(Math.floor(t.durationMs / tl.windowMs));
        // every success but those answered after the window closed (one at most a connection in flight)
        const counted = tl.count.reduce((a, b) => a + b, 0);
        expect(counted).toBeLessThanOrEqual(t.successes);
        expect(t.successes - counted).toBeLessThanOrEqual(p.params.connections ?? 0);
        // the service sleeps 1 ms: no window's p50 reads below it, less the buckets' 1/16
        for (const [i, v] of tl.p50.entries())
          if ((tl.count[i] ?? 0) > 0) expect(v).toBeGreaterThanOrEqual(1000 * (15 / 16));
        expect(Math.max(...tl.p99)).toBeLessThanOrEqual(t.latency.max * (17 / 16));
      }
    }
    // not in the baseline: it would only grow the file in the repository
    for (const p of baseline.phases) for (const t of p.trials) expect(t.timeline).toBeUndefined();
  });
});

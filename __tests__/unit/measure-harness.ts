// What the measuring tests share (src/session/measure.ts): a fake TrialRunner that emits synthetic runner
// events into a real TrialCollector, the way the session's runner handle does, on a fake clock; the
// scenarios, baselines and contexts measureOne and measureAb are given.
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import type { Scenario } from '../../src/config-parts/types.js';
import { createHistogram, encodeHistogram } from '../../src/runner-kit/histogram.js';
import type { BaselineFile } from '../../src/results/types.js';
import type { WarmupWindows } from '../../src/runner-kit/plan.js';
import { TrialCollector } from '../../src/session/collect.js';
import { type MeasureContext, type MeasureSide, type TrialRunner } from '../../src/session/measure.js';
import { phase, resultsFile, times, trial } from './fixtures.js';

export type Command = Parameters<TrialRunner['trial']>[0];

/** Each synthetic trial takes this long on the fake clock. */
export const TRIAL_MS = 1000;

export const histograms = new Map<number, string>();

/** A success-latency histogram of 1000 responses at `us` (cached: encoding is the slow part). */
export function histogramAt(us: number): string {
  const hit = histograms.get(us);
  if (hit) return hit;
  const h = createHistogram();
  h.recordValueWithCount(us, 1000);
  const encoded = encodeHistogram(h);
  h.destroy();
  histograms.set(us, encoded);
  return encoded;
}

/** A fake runner: records its commands, advances the clock, and emits a `stage` and a `trial` event
 * whose p50 is `p50(n)` for the n-th trial it runs of the phase (1-based). */
export class FakeRunner implements TrialRunner {
  readonly commands: Command[] = [];
  private slow = { after: Infinity, factor: 1 };

  /** trials after the first `after` take `factor` times as long */
  slowAfter(after: number, factor: number): void {
    this.slow = { after, factor };
  }
  constructor(
    private readonly side: string,
    private readonly collector: TrialCollector,
    private readonly clock: { t: number },
    private readonly calls: string[],
    private readonly p50: (n: number) => number,
  ) {}

  /** the warm-up windows the n-th trial of a phase reports (none: a runner that does not sample them) */
  warmup?: (n: number) => WarmupWindows | undefined;
  /** a mix's entries: each trial event carries one result per entry, at the phase's p50 plus its index */
  entries?: string[];

  async trial(cmd: Command): Promise<void> {
    this.commands.push(cmd);
    this.calls.push(`${this.side} ${cmd.phase} ${cmd.trial}/${cmd.trials}`);
    const n = this.commands.filter((c) => c.scenario === cmd.scenario && c.phase === cmd.phase).length;
    const { scenario, phase: name } = cmd;
    const windows = this.warmup?.(n);
    if (this.warmup) {
      this.collector.onEvent(
        {
          t: 'stage',
          scenario,
          phase: name,
          trial: cmd.trial,
          trials: cmd.trials,
          stage: 'warmup',
          totalMs: cmd.warmupMs ?? 2000,
        },
        this.clock.t,
      );
    }
    this.collector.onEvent(
      { t: 'stage', scenario, phase: name, trial: cmd.trial, trials: cmd.trials, stage: 'measure' },
      this.clock.t,
    );
    this.clock.t += n > this.slow.after ? TRIAL_MS * this.slow.factor : TRIAL_MS;
    const { resources: _r, ...measurement } = trial({ latency: { p50: this.p50(n) } }, cmd.trial);
    await Promise.resolve();
    this.collector.onEvent(
      {
        t: 'trial',
        scenario,
        phase: name,
        measurement,
        histogram: histogramAt(this.p50(n)),
        ...(windows ? { warmup: windows } : {}),
        ...(this.entries
          ? {
              requests: this.entries.map((name, i) => ({
                name,
                measurement: trial({ latency: { p50: this.p50(n) + i + 1 } }, cmd.trial),
                histogram: histogramAt(this.p50(n) + i + 1),
              })),
            }
          : {}),
      },
      this.clock.t,
    );
  }
}

/** Scenarios parsed from a minimal config: `trials` each, phases c10 (and more), p50 gated; every trial
 * warms up in full (`warmup-later: full`; the settled warm-up has tests of its own). */
export function scenarios(trials: number, phases = ['c10'], names = ['s']): Scenario[] {
  const raw = {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    scenarios: names.map((name) => ({
      name,
      request: { url: 'http://api:8080/' },
      trials,
      'warmup-later': 'full',
      phases: phases.map((p) => ({ name: p, connections: 10, duration: '10s' })),
      thresholds: { p50: { regress: '10%', floor: '200us' } },
    })),
  };
  const { config, problems } = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  expect(problems).toEqual([]);
  return config?.scenarios ?? [];
}

export interface Harness {
  ctx: MeasureContext;
  clock: { t: number };
  calls: string[];
  logs: string[];
  side: (name: string, p50: (n: number) => number) => MeasureSide & { runner: FakeRunner };
}

export const DEFAULT_CONFIRM = { maxTrials: 12, maxTimeMs: 600_000 };

/** `confirm` undefined: no extra trials (update and sweep runs), at the default cap. */
export function harness(list: Scenario[], confirm: MeasureContext['confirm'] | undefined): Harness {
  const clock = { t: 0 };
  const calls: string[] = [];
  const logs: string[] = [];
  const ctx: MeasureContext = {
    scenarios: list,
    hashes: new Map(list.map((s) => [s.name, `hash-${s.name}`])),
    confirm: confirm ?? DEFAULT_CONFIRM,
    extend: confirm !== undefined,
    log: (line) => logs.push(line),
    now: () => clock.t,
  };
  const side = (name: string, p50: (n: number) => number) => {
    const collector = new TrialCollector(undefined);
    return { collector, runner: new FakeRunner(name, collector, clock, calls, p50) };
  };
  return { ctx, clock, calls, logs, side };
}

/** A baseline of `n` trials at p50 `us` for every phase of `s`. */
export function baselineOf(s: Scenario, n: number, us = 1000): BaselineFile {
  return {
    schema: 'perf-gate/baseline@1',
    scenario: s.name,
    scenarioHash: `hash-${s.name}`,
    provenance: resultsFile([], []).provenance,
    phases: s.phases.map((p) => phase(p.name, { latency: { p50: us } }, times({ latency: { p50: us } }, n))),
  };
}

export const at = (us: number) => () => us;

/** The trial numbers of a phase of 3 trials confirmed up to the cap of 12, as its commands say them. */
export const THREE_TO_TWELVE = ['1/3', '2/3', '3/3', ...Array.from({ length: 9 }, (_, i) => `${i + 4}/12`)];

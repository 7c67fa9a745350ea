// Collects the runner's trial events into phase results, with the SUT's resources sampled over each
// measured window. One collector per SUT (two in A/B).
import type { Scenario } from '../config/types.js';
import type { RunnerEvent } from '../plan.js';
import { phaseFlags } from '../results/flags.js';
import { mergeTrials } from '../results/merge.js';
import type { PhaseResult, ResourceUsage, ScenarioResult, TrialSummary } from '../results/types.js';
import { type StatsSample, usageInWindow } from '../stats/resources.js';

export class TrialCollector {
  constructor(private readonly runnerCpus: number | undefined) {}

  private readonly trials = new Map<string, { summaries: TrialSummary[]; histograms: string[] }>();
  private windowStart = 0;
  readonly samples = new Map<string, StatsSample[]>();

  sample(key: string, s: StatsSample): void {
    const list = this.samples.get(key) ?? [];
    this.samples.set(key, list);
    list.push(s);
  }

  onEvent(e: RunnerEvent, now: number): void {
    if (e.t === 'stage' && e.stage === 'measure') this.windowStart = now;
    if (e.t !== 'trial') return;
    const resources: Record<string, ResourceUsage> = {};
    for (const [key, list] of [...this.samples.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      resources[key] = usageInWindow(list, this.windowStart, now);
    }
    const id = `${e.scenario}\u0000${e.phase}`;
    const entry = this.trials.get(id) ?? { summaries: [], histograms: [] };
    this.trials.set(id, entry);
    // trials are numbered in the order they were collected (A/B runs one trial per runner)
    entry.summaries.push({ ...e.measurement, trial: entry.summaries.length + 1, resources });
    entry.histograms.push(e.histogram);
  }

  /** Each scenario's results as collected, with its hash and the thresholds it is gated with. */
  results(scenarios: Scenario[], hashes: ReadonlyMap<string, string>): ScenarioResult[] {
    return scenarios.map((s) => ({
      name: s.name,
      scenarioHash: hashes.get(s.name) as string,
      phases: this.phases(s),
      thresholds: s.thresholds,
    }));
  }

  phases(s: Scenario): PhaseResult[] {
    return s.phases.map((p) => {
      const entry = this.trials.get(`${s.name}\u0000${p.name}`) ?? { summaries: [], histograms: [] };
      const merged = mergeTrials(entry.summaries, entry.histograms);
      const params: PhaseResult['params'] =
        p.kind === 'closed'
          ? { connections: p.connections, durationMs: p.durationMs, requests: p.requests }
          : { rate: p.rate, durationMs: p.durationMs, maxInFlight: p.maxInFlight, connections: p.connections };
      const flags = phaseFlags({ kind: p.kind, params }, entry.summaries, this.runnerCpus);
      return { name: p.name, kind: p.kind, params, warmupMs: s.warmupMs, trials: entry.summaries, merged, flags };
    });
  }
}

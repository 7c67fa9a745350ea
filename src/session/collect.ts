// Collects the runner's trial events into phase results, with the SUT's resources sampled over each
// measured window. One collector per SUT (two in A/B).
import type { Looks } from '../compare/confirm.js';
import { extraPercentiles } from '../compare/metrics.js';
import type { BusySettings, Scenario, Thresholds } from '../config-parts/types.js';
import type { TakenProfile } from '../profiles/record.js';
import type { Phase, RunnerEvent, WarmupWindows } from '../runner-kit/plan.js';
import type { TrialMeasurement } from '../runner-kit/measurement.js';
import { protocolOf } from '../protocols/index.js';
import { withPercentiles } from '../runner-kit/histogram.js';
import { phaseFlags } from '../results/flags.js';
import { generatorCpuPerResponse, mergeTrials } from '../results/merge.js';
import { type PhaseResult, requestPhaseName, type ScenarioResult, type TrialSummary } from '../results/types.js';
import { type ResourceUsage, type StatsSample, usageInWindow } from '../stats/resources.js';
import {
  busyMachine,
  type MachineReading,
  type MachineUsage,
  machineInWindow,
  peakInWindow,
  type TimedReading,
} from '../stats/machine.js';

/** Results a phase has beside its own: a mix's entries, or a WebSocket phase's push and connect. */
function entriesOf(s: Scenario): Array<{ name: string; thresholds: Thresholds }> {
  return protocolOf(s.target).entries(s.target);
}

function phaseParams(p: Phase): PhaseResult['params'] {
  switch (p.kind) {
    case 'closed':
      return {
        connections: p.connections,
        durationMs: p.durationMs,
        requests: p.requests,
        ramp: p.ramp,
        pipelining: p.pipelining,
        streams: p.streams,
      };
    case 'open':
      return {
        rate: p.rate,
        durationMs: p.durationMs,
        maxInFlight: p.maxInFlight,
        connections: p.connections,
        ramp: p.ramp,
        streams: p.streams,
      };
    case 'ws':
      return { peers: p.peers, messages: p.messages, rate: p.rate };
  }
}

/** Per scenario, the percentiles its thresholds (its own and its entries') gate beyond the summary's
 * fields: the host computes them from each trial's histogram, and from the merged one. */
export function gatedPercentiles(scenarios: readonly Scenario[]): Map<string, readonly string[]> {
  return new Map(
    scenarios.map((s) => [s.name, extraPercentiles([s.thresholds, ...entriesOf(s).map((e) => e.thresholds)])]),
  );
}

export class TrialCollector {
  /** `percentiles`: gatedPercentiles of the scenarios measured (none by default) */
  constructor(
    private readonly runnerCpus: number | undefined,
    private readonly percentiles: ReadonlyMap<string, readonly string[]> = new Map(),
    /** the machine's CPU times now, where they can be read (RunDeps.machine) */
    private readonly readMachine: () => MachineReading | undefined = () => undefined,
    /** gate.busy's threshold (and whether only steal is judged): a trial whose machine reading
     * reaches it is marked `busy` */
    private readonly busySettings?: Pick<BusySettings, 'othersPct' | 'stealOnly'>,
    /** the containers this run started and samples (the SUT's, the runner's; in A/B both sides', one
     * set shared by both collectors): the machine's other containers are other processes */
    private readonly ours: Set<string> = new Set(),
  ) {}

  private readonly trials = new Map<string, { summaries: TrialSummary[]; histograms: string[] }>();
  /** per phase, the trials put aside because the machine was busy (gate.busy), not judged */
  private readonly discarded = new Map<string, TrialSummary[]>();
  private readonly looks = new Map<string, Looks>();
  /** per phase, each trial's warm-up as run: its length, its windows, and the trial's throughput */
  private readonly warmups = new Map<string, Array<{ usedMs?: number; windows?: WarmupWindows; rps: number }>>();
  private readonly later = new Map<string, NonNullable<PhaseResult['warmupLater']>>();
  /** the warm-up stage of the trial under way, as its runner announced it (a swarm replica does not) */
  private warmupUsed: number | undefined;
  private windowStart = 0;
  /** the machine read while the measured window runs: at its start, then at each tick (empty: no
   * window open, or the machine cannot be read) */
  private slices: TimedReading[] = [];
  readonly samples = new Map<string, StatsSample[]>();

  /** The looks of confirmation a phase is measured for (kept in its results, for the verdict). */
  setLooks(scenario: string, phase: string, looks: Looks): void {
    this.looks.set(`${scenario}\u0000${phase}`, looks);
  }

  /** What warmup-later found for a phase (kept in its results, for the report). */
  setWarmupLater(scenario: string, phase: string, found: NonNullable<PhaseResult['warmupLater']>): void {
    this.later.set(`${scenario}\u0000${phase}`, found);
  }

  /** A phase's first trial's warm-up windows and measured throughput, once that trial is in. */
  firstWarmup(scenario: string, phase: string): { windows?: WarmupWindows; rps: number } | undefined {
    return this.warmups.get(`${scenario}\u0000${phase}`)?.[0];
  }

  sample(key: string, s: StatsSample, container?: string): void {
    if (container !== undefined) this.ours.add(container);
    const list = this.samples.get(key) ?? [];
    this.samples.set(key, list);
    list.push(s);
  }

  /** The run's own containers (both sides' in A/B), as the trials' readings leave them out. */
  ownContainers(): ReadonlySet<string> {
    return this.ours;
  }

  /** sut.profile: the profiles the profiling trials took, in the order they came */
  readonly profiles: TakenProfile[] = [];
  private measureWaiters: Array<() => void> = [];

  /** Resolves when the runner next says a measured window began (sut.profile's perf starts there);
   * `forget` drops the wait when the trial ended without one (nothing is left for a later trial). */
  measureStarts(): { began: Promise<void>; forget: () => void } {
    let waiter: () => void = () => undefined;
    const began = new Promise<void>((resolve) => {
      waiter = resolve;
      this.measureWaiters.push(resolve);
    });
    const forget = () => {
      const i = this.measureWaiters.indexOf(waiter);
      if (i !== -1) this.measureWaiters.splice(i, 1);
    };
    return { began, forget };
  }

  onEvent(e: RunnerEvent, now: number): void {
    if (e.t === 'profile') {
      const { scenario, phase, service } = e;
      const got = e.data !== undefined ? { data: Buffer.from(e.data, 'base64') } : { error: e.error ?? 'no profile' };
      this.profiles.push({ scenario, phase, service, ...got });
      return;
    }
    if (e.t === 'stage' && e.stage === 'warmup') this.warmupUsed = e.totalMs;
    if (e.t === 'stage' && e.stage === 'measure') {
      for (const resolve of this.measureWaiters.splice(0)) resolve();
      this.windowStart = now;
      const start = this.readMachine();
      this.slices = start ? [{ at: now, reading: start }] : [];
    }
    if (e.t !== 'trial') return;
    if (e.profiled) {
      // measured under a profiler: none of the phase's trials, nor its warm-up's evidence
      this.slices = [];
      this.warmupUsed = undefined;
      return;
    }
    const resources: Record<string, ResourceUsage> = {};
    for (const [key, list] of [...this.samples.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      resources[key] = usageInWindow(list, this.windowStart, now);
    }
    const start = this.slices[0]?.reading;
    const end = start && this.readMachine();
    const containersPct = Object.values(resources).reduce((a, u) => a + u.cpuMeanPct, 0);
    const own = this.ours.size > 0 ? this.ours : undefined;
    const whole = start && end && machineInWindow(start, end, now - this.windowStart, containersPct, own);
    const peak = whole && end ? peakInWindow([...this.slices, { at: now, reading: end }], own) : undefined;
    const machine = whole && peak !== undefined ? { ...whole, peakPct: peak } : whole;
    this.slices = [];
    const id = `${e.scenario}\u0000${e.phase}`;
    const warmups = this.warmups.get(id) ?? [];
    this.warmups.set(id, warmups);
    warmups.push({
      rps: e.measurement.rps,
      ...(this.warmupUsed !== undefined ? { usedMs: this.warmupUsed } : {}),
      ...(e.warmup ? { windows: e.warmup } : {}),
    });
    this.warmupUsed = undefined;
    this.add(e.scenario, e.phase, e.measurement, e.histogram, resources, machine);
    // a mix entry's trial: SUT resources are the phase's, not any one request's
    for (const r of e.requests ?? [])
      this.add(e.scenario, requestPhaseName(e.phase, r.name), r.measurement, r.histogram, {});
  }

  private add(
    scenario: string,
    phase: string,
    measurement: TrialMeasurement,
    histogram: string,
    resources: Record<string, ResourceUsage>,
    machine?: MachineUsage,
  ): void {
    const id = `${scenario}\u0000${phase}`;
    const entry = this.trials.get(id) ?? { summaries: [], histograms: [] };
    this.trials.set(id, entry);
    // the percentiles the thresholds gate beyond the runner's summary, from this trial's histogram
    const latency = withPercentiles(measurement.latency, histogram, this.percentiles.get(scenario) ?? []);
    // trials are numbered in the order they were collected (A/B runs one trial per runner)
    const b = this.busySettings;
    const busy = machine !== undefined && b !== undefined && busyMachine(machine, b.othersPct, b.stealOnly);
    entry.summaries.push({
      ...measurement,
      latency,
      trial: entry.summaries.length + 1,
      resources,
      ...(machine ? { machine } : {}),
      ...(busy ? { busy } : {}),
    });
    entry.histograms.push(histogram);
  }

  /** Reads the machine while a measured window runs (every SLICE_MS, from the run's timer): a hog that
   * took part of the window shows in its busiest slice (MachineUsage.peakPct). */
  tick(now: number): void {
    if (this.slices.length === 0) return;
    const r = this.readMachine();
    if (r) this.slices.push({ at: now, reading: r });
  }

  /** Whether the phase's last trial was taken on a busy machine (gate.busy). */
  lastBusy(scenario: string, phase: string): boolean {
    return this.trials.get(`${scenario}\u0000${phase}`)?.summaries.at(-1)?.busy === true;
  }

  /**
   * Puts the phase's last trial aside (the machine was busy): it is kept in the results as
   * `discarded`, never judged, and the trial that replaces it takes its number. Its mix entries'
   * results and its warm-up go with it.
   */
  discardLast(s: Scenario, phase: string): void {
    const id = `${s.name}\u0000${phase}`;
    const last = this.trials.get(id)?.summaries.pop();
    this.trials.get(id)?.histograms.pop();
    if (!last) return;
    // a shortened warm-up is said on the trial put aside too, as on a kept one
    const usedMs = this.warmups.get(id)?.pop()?.usedMs;
    if (usedMs !== undefined && usedMs < s.warmupMs) last.warmupMs = usedMs;
    for (const e of entriesOf(s)) {
      const entry = this.trials.get(`${s.name}\u0000${requestPhaseName(phase, e.name)}`);
      entry?.summaries.pop();
      entry?.histograms.pop();
    }
    const list = this.discarded.get(id) ?? [];
    this.discarded.set(id, list);
    list.push(last);
  }

  /** Each scenario's results as collected, with its hash and the thresholds it is gated with. */
  results(scenarios: Scenario[], hashes: ReadonlyMap<string, string>): ScenarioResult[] {
    return scenarios.map((s) => {
      const result: ScenarioResult = {
        name: s.name,
        scenarioHash: hashes.get(s.name) as string,
        phases: this.phases(s),
        thresholds: s.thresholds,
        ...(s.family ? { family: s.family } : {}),
      };
      const entries = entriesOf(s);
      if (entries.length > 0) result.requestThresholds = Object.fromEntries(entries.map((e) => [e.name, e.thresholds]));
      return result;
    });
  }

  /** Each phase's result, a mix's entries right after their phase (as phases named `phase.entry`). */
  phases(s: Scenario): PhaseResult[] {
    return s.phases.flatMap((p) => {
      const params = phaseParams(p);
      const collected = (name: string): { summaries: TrialSummary[]; merged: PhaseResult['merged'] } => {
        const entry = this.trials.get(`${s.name}\u0000${name}`) ?? { summaries: [], histograms: [] };
        const percentiles = this.percentiles.get(s.name) ?? [];
        return { summaries: entry.summaries, merged: mergeTrials(entry.summaries, entry.histograms, percentiles) };
      };
      const own = collected(p.name);
      const flags = phaseFlags({ kind: p.kind, params }, own.summaries, this.runnerCpus);
      const looks = this.looks.get(`${s.name}\u0000${p.name}`);
      // a trial whose warm-up was shortened says so
      const used = this.warmups.get(`${s.name}\u0000${p.name}`) ?? [];
      const trials = own.summaries.map((t, i) => {
        const ms = used[i]?.usedMs;
        return ms !== undefined && ms < s.warmupMs ? { ...t, warmupMs: ms } : t;
      });
      const phase: PhaseResult = {
        name: p.name,
        kind: p.kind,
        params,
        warmupMs: s.warmupMs,
        trials,
        merged: own.merged,
        flags,
      };
      if (looks) phase.confirm = { ...looks };
      const cpuUs = generatorCpuPerResponse(own.summaries);
      if (cpuUs !== undefined) phase.generatorCpuUs = cpuUs;
      const discarded = this.discarded.get(`${s.name}\u0000${p.name}`);
      if (discarded?.length) phase.discarded = discarded.map((t) => ({ ...t }));
      const later = this.later.get(`${s.name}\u0000${p.name}`);
      if (later) phase.warmupLater = { ...later };
      const entries = entriesOf(s).map((e): PhaseResult => {
        const name = requestPhaseName(p.name, e.name);
        const { summaries, merged } = collected(name);
        // the generator ran the whole phase: its verdict on the phase is every entry's
        const bound = flags.filter((f) => f.startsWith('generator-bound'));
        const entry: PhaseResult = {
          name,
          request: e.name,
          kind: p.kind,
          params,
          warmupMs: s.warmupMs,
          trials: summaries,
          merged,
          flags: bound,
        };
        if (looks) entry.confirm = { ...looks };
        return entry;
      });
      return [phase, ...entries];
    });
  }
}

// Shapes shared by the runner (what it measures) and the host (results and baseline files).
import type { Family, ShiftSettings, Thresholds } from '../config-parts/types.js';
import type { LatencySummary } from '../runner-kit/histogram.js';
import type { TrialMeasurement } from '../runner-kit/measurement.js';
import type { Ramp } from '../runner-kit/ramp.js';

import type { MachineUsage } from '../stats/machine.js';
import type { ResourceUsage } from '../stats/resources.js';
import type { BaselineProfile, ProfileDiffRecord, ProfileRecord } from '../profiles/record.js';

export interface TrialSummary extends TrialMeasurement {
  /** per compose service; plus `perf-gate-runner` for the runner container */
  resources: Record<string, ResourceUsage>;
  /** the machine during the measured window (where perf-gate runs beside the engine: /proc/stat) */
  machine?: MachineUsage;
  /** this trial's warm-up, ms, when shorter than its phase's `warmupMs` (warmup-later: settled) */
  warmupMs?: number;
  /** gate.busy: taken while other processes used the machine (`machine` at its threshold or more) */
  busy?: true;
}

export interface PhaseParams {
  /** WebSocket phases: peers, and messages per peer (`rate` is then per peer) */
  peers?: number;
  messages?: number;
  connections?: number;
  durationMs?: number;
  requests?: number;
  /** open loop: the rate; closed loop: the connections; with a ramp, its peak */
  rate?: number;
  maxInFlight?: number;
  /** `stages`: the rate (open) or connections (closed) ramped from `from` through each stage's `to` */
  ramp?: Ramp;
  /** closed loop: requests each connection kept in flight (absent: 1) */
  pipelining?: number;
  /** HTTP/2: requests each connection kept in flight as streams (absent: 1) */
  streams?: number;
}

/** A phase's trials merged: the trial's counts summed, rates over the total time, latency from the
 * merged histogram (never averaged percentiles). */
export interface MergedPhase extends Omit<TrialMeasurement, 'trial' | 'generator' | 'replicas'> {
  /** trials merged */
  trials: number;
  errorRate: number;
  resources: Record<string, ResourceUsage>;
  /** merged success-latency histogram, HDR compressed base64 */
  histogram: string;
}

/** A mix entry's results are kept as a phase of their own, named `phase.entry` (`.` is in no phase name). */
export function requestPhaseName(phase: string, entry: string): string {
  return `${phase}.${entry}`;
}

/** Whether results named `name` are `phase`'s own or one of its entries' (`phase.entry`). */
export function ofPhase(name: string, phase: string): boolean {
  return name === phase || name.startsWith(`${phase}.`);
}

export interface PhaseResult {
  /** the phase's name; a mix entry's: `phase.entry` */
  name: string;
  /** a mix entry's results within its phase: the entry's name (absent for the phase itself) */
  request?: string;
  kind: 'closed' | 'open' | 'ws';
  params: PhaseParams;
  warmupMs: number;
  trials: TrialSummary[];
  merged: MergedPhase;
  /** warnings about the trustworthiness of this phase (keep-alive closes, ...) */
  flags: string[];
  /** the looks of confirmation: configured trials (pairs in A/B) and the cap; absent in old files */
  confirm?: { first: number; cap: number; stopped?: number };
  /** warmup-later: settled: when the first trial's warm-up settled (ms; absent: it did not) and the
   * warm-up later trials were given (absent: the full one) */
  warmupLater?: { settledMs?: number; laterMs?: number };
  /** gate.busy: trials put aside because the machine was busy, each replaced by a later one; never
   * judged nor merged */
  discarded?: TrialSummary[];
  /** the runner's CPU per response over the merged trials, µs (the load generator's cost: what it took
   * from the machine it shares with the service); a phase's own results only, absent in older files */
  generatorCpuUs?: number;
}

export interface ScenarioResult {
  name: string;
  scenarioHash: string;
  phases: PhaseResult[];
  /** gate.run-alpha: the run's budget this scenario's rows share (absent: each row at its own alpha) */
  family?: Family;
  /** the thresholds this run was gated with (base units), so `compare` works from files alone */
  thresholds?: Thresholds;
  /** a mix's per-entry thresholds (only these metrics are gated for an entry) */
  requestThresholds?: Record<string, Thresholds>;
  /** merged latency of the baseline per phase, for the report's chart */
  baselineLatency?: Record<string, LatencySummary>;
}

export interface Provenance {
  time: string;
  commit: string | null;
  ref: string | null;
  runner: {
    os: string;
    cpuModel: string;
    cores: number;
    memoryBytes: number;
    /** a fixed piece of CPU work timed at the end of the run, µs (stats/calibration.ts) */
    calibrationUs?: number;
  };
  docker: { version: string | null; apiVersion: string | null };
  runnerImage: string;
  sut: { images: Record<string, { image: string; id: string; digest: string | null }> };
}

export const RESULTS_SCHEMA = 'perf-gate/results@1';
export const BASELINE_SCHEMA = 'perf-gate/baseline@1';

export interface ResultsFile {
  schema: typeof RESULTS_SCHEMA;
  runId: string;
  mode: string;
  config: string;
  startedAt: string;
  finishedAt: string;
  provenance: Provenance;
  scenarios: ScenarioResult[];
  comparisons: Comparison[];
  scenarioStatus?: ScenarioStatus[];
  /** A/B runs only: what the head was compared with */
  ab?: AbInfo;
  /** gate and update runs: the committed baselines' scenarios this run was compared with, their
   * phases as recorded (the run's page overlays them); absent where none was read */
  baseline?: ScenarioResult[];
  /** sweep runs only: selected scenarios left out for having no ladder */
  unswept?: string[];
  /** gate and update runs: the configured trials of every phase ran interleaved, in the order drawn
   * from this seed (`--seed` draws it again) */
  interleaved?: { seed: number };
  /** gate.busy: the threshold a trial was busy from, the repeats allowed, and those run */
  busy?: BusyRecord;
  /** the config's `history:` where it differs from DEFAULT_SHIFTS: which level shifts of the trend
   * history the report names (absent: the defaults) */
  shiftSettings?: ShiftSettings;
  /** update runs: phases, entries and steps that failed on nearly every request (results/unanswered.ts);
   * unless every one is accepted (accept-failing), no baseline was recorded */
  failing?: FailingRow[];
  /** each regressed phase's CPU per request by service, against the baseline's (base's in A/B) */
  costs?: PhaseCost[];
  /** sut.profile: each service's profile of each phase (a profiling trial per side), its file beside
   * this one or why there is none */
  profiles?: ProfileRecord[];
  /** sut.profile in A/B: each service's functions whose share rose most, head against base */
  profileDiffs?: ProfileDiffRecord[];
}

/** A service's CPU per successful response, this run's against the other side's (compare/cost.ts). */
export interface ServiceCost {
  service: string;
  /** CPU µs per successful response: the baseline's (base's) median trial, and this run's (head's) */
  before: number;
  after: number;
  /** relative change: of the medians (gate), the median of per-pair changes (A/B) */
  change: number;
  /** A/B: the per-pair changes' median interval (95%, or what the pairs allow) */
  interval?: [number, number];
  pValue: number;
  /** the added CPU time a response over the added mean latency, where latency rose */
  share?: number;
  /** at least 10% more, at p ≤ 0.05, and at least a quarter of the added latency (compare/cost.ts) */
  rose: boolean;
}

export interface PhaseCost {
  scenario: string;
  phase: string;
  /** the SUT's services, the largest rise first */
  services: ServiceCost[];
}

/** gate.busy in a results file: settings (config-parts/types.ts BusySettings) and the repeats spent */
export interface BusyRecord {
  othersPct: number;
  /** a target's run: only steal was judged (its service's CPU reads as another process's) */
  stealOnly?: true;
  repeats: number;
  repeated: number;
}

export interface AbInfo {
  /** the ref asked for, and the commit it resolved to */
  baseRef: string;
  baseCommit: string;
  headCommit: string | null;
  /** interleaved pairs asked for; trial i of each side belongs to pair i (confirmation may add pairs) */
  pairs: number;
  /** `random`: each pair's order drawn from `seed`; `ABBA`: files written before that */
  order: 'ABBA' | 'random';
  /** the seed of the pair orders: the same seed draws the same orders */
  seed?: number;
  /** each phase's pairs in the order run: `AB` base (A) first, `BA` head (B) first */
  orders?: Array<{ scenario: string; phase: string; order: Array<'AB' | 'BA'> }>;
  baseImages: Record<string, { image: string; id: string; digest: string | null }>;
  /** the base side's results (same scenarios and phases as `scenarios`) */
  base: ScenarioResult[];
  /** scenarios new in head or defined differently on base */
  notes: string[];
  /** what was changed in each side's compose project so the two could boot side by side (ports not
   * published, container_name as an alias, fixed names made the project's own); absent when nothing */
  sideBySide?: { head: string[]; base: string[] };
}

export interface BaselineFile {
  schema: typeof BASELINE_SCHEMA;
  scenario: string;
  scenarioHash: string;
  provenance: Provenance;
  phases: PhaseResult[];
  /** sut.profile: each phase's and service's profile as recorded, a file beside the baselines */
  profiles?: BaselineProfile[];
}

export type Verdict = 'pass' | 'regression' | 'improvement' | 'inconclusive' | 'no-baseline' | 'invalid' | 'accepted';

/** A failing row accepted on purpose (compare/accept.ts): who, why, and what it was. */
export interface RowAcceptance {
  /** a GitHub login (checked for write access), or `--accept` */
  by: string;
  reason: string;
  was: 'regression' | 'inconclusive';
}

export interface Comparison {
  scenario: string;
  phase: string;
  /** a threshold metric, or `error-class` for a status code / error kind the baseline never saw */
  metric: string;
  /** in the metric's base unit; null without a baseline */
  baseline: number | null;
  current: number;
  /** relative change (0 → 0 is 0); null without a baseline or from a zero baseline to non-zero */
  delta: number | null;
  /** the band in words, e.g. "+10% and +200µs" */
  band: string;
  result: Verdict;
  /** one-sided p-value: Mann–Whitney over per-trial values (gate, ≥ 3 trials on both sides) or
   * Wilcoxon signed-rank over interleaved pairs (A/B) */
  pValue?: number;
  /** A/B only: the relative change's confidence interval over pairs, [low, high] (head/base − 1) */
  interval?: [number, number];
  /** A/B only: the interval's coverage (0.969 for 6 pairs) */
  confidence?: number;
  /** A/B only: interleaved pairs compared */
  pairs?: number;
  /** why: limit broken, new error class, too few samples, ... */
  /** gate.bands: inform: a relative row shown as information (its result is pass, never a verdict) */
  informational?: boolean;
  reason?: string;
  /** a regression confirmed by trials (pairs in A/B) run beyond the configured ones: how many */
  extraTrials?: number;
  /** a passing row with a band: the smallest relative change (0.12 = 12%) its test would have
   * confirmed at the alpha its looks spend (compare/power.ts); null when no change could have been */
  detectable?: number | null;
  /** a passing row whose band is below `detectable`: a change of the band's size would have passed too */
  blind?: boolean;
  /** an `accepted` row: who accepted it, why, and the result it had */
  accepted?: RowAcceptance;
  /** while measuring only, never in a file: an inconclusive row that more trials could confirm */
  open?: true;
}

export interface ScenarioStatus {
  scenario: string;
  baseline: 'present' | 'missing' | 'stale';
  /** baseline provenance time, for the age shown in the report */
  baselineTime?: string;
  baselineCommit?: string | null;
  /** set when the baseline was recorded on another CPU model or core count: "old → this run" */
  machine?: string;
}

/** A phase, mix entry or flow step that failed on nearly every request, in an update run. */
export interface FailingRow {
  /** `scenario/phase` or `scenario/phase.entry` */
  row: string;
  /** the row, its counts and its most frequent failure, in one line */
  line: string;
  /** its scenario says `accept-failing: true`: recorded all the same */
  accepted?: true;
}

/** How a mode's results read, in the report and the Action's check (also for a results file read back). */
export interface ModeTraits {
  /** its verdict can fail a check (the others compare for information only) */
  gates: boolean;
  /** it records baselines: the report says so instead of a verdict, and its history entry is appended */
  records: boolean;
  /** the report's body: the comparison table, or each level's figures (a sweep) */
  report: 'comparison' | 'levels';
  /** the report carries the history's trend charts */
  trend: boolean;
  /** the Action comments on the pull request */
  comments: boolean;
}

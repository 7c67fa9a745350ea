// The validated, normalised configuration the rest of perf-gate works with. Units are resolved:
// durations in ms, latencies in µs, percentages as fractions, sizes in bytes; paths are absolute.
import type { MetricName } from './schema.js';

export interface Threshold {
  /** relative change as a fraction (0.1 = 10%) */
  regress?: number;
  /** absolute change, in the metric's unit */
  floor?: number;
  /** absolute upper limit, in the metric's unit (`below` and `max` are the same check) */
  limit?: number;
  alpha?: number;
}
export type Thresholds = Partial<Record<MetricName, Threshold>>;

export interface ClosedPhase {
  kind: 'closed';
  name: string;
  connections: number;
  durationMs?: number;
  requests?: number;
}
export interface OpenPhase {
  kind: 'open';
  name: string;
  rate: number;
  durationMs: number;
  maxInFlight: number;
  connections?: number;
}
export type Phase = ClosedPhase | OpenPhase;

export interface RequestSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** absolute path of a JSONL file, one body per line */
  bodiesFile?: string;
}

export interface Sweep {
  kind: 'closed' | 'open';
  levels: number[];
  durationMs: number;
  warmupMs: number;
}

export interface Scenario {
  name: string;
  request: RequestSpec;
  phases: Phase[];
  warmupMs: number;
  trials: number;
  thresholds: Thresholds;
  sweep?: Sweep;
}

export interface ReadyProbe {
  url: string;
  timeoutMs: number;
}

export interface Config {
  /** absolute path of the config file */
  file: string;
  /** directory paths in the config are relative to */
  dir: string;
  sut: {
    composeFiles: string[];
    services: string[];
    build: boolean;
    env: Record<string, string>;
    ready: ReadyProbe[];
  };
  runner: { image: string; cpus?: number; workers: number };
  /** what `mode: auto` gates a pull request against */
  gate: { against: 'baselines' | 'base-ref' };
  ab: { pairs: number };
  scenarios: Scenario[];
}

export const DEFAULT_RUNNER_IMAGE = 'node:22-slim';
export const DEFAULT_WARMUP_MS = 5000;
/** 5 a side: the smallest Mann–Whitney p is 1/252, so the gate's alpha 0.01 can be reached */
export const DEFAULT_TRIALS = 5;
export const DEFAULT_READY_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_IN_FLIGHT = 1000;
/** interleaved base/head pairs of an A/B run (6 pairs: the smallest one-sided p is 1/64) */
export const DEFAULT_AB_PAIRS = 6;

/**
 * An open-loop phase's connections and its bound on requests in flight (one request per connection).
 * Connections open on demand, a few at a time (no connect storm), up to `connections`, which
 * defaults to `max-in-flight`.
 */
export function openLoopLimits(phase: { maxInFlight: number; connections?: number | undefined }): {
  connections: number;
  inFlight: number;
} {
  const connections = phase.connections ?? phase.maxInFlight;
  return { connections, inFlight: Math.min(phase.maxInFlight, connections) };
}

/**
 * An open-loop send this far behind its scheduled time, for the service's or the generator's part
 * of the delay, is counted `late` for that cause (runner/src/schedule.ts has the attribution rule).
 */
export const OPEN_LATE_MS = 5;

// The plan handed to the runner container, and the events it sends back on stdout.
// Pure data; built from the normalised config.
import type { Phase, ReadyProbe, Scenario } from './config/types.js';
import type { TrialMeasurement } from './results/types.js';

export interface PlanScenario {
  name: string;
  request: { url: string; method: string; headers: Record<string, string>; body?: string; bodies?: string[] };
  warmupMs: number;
  trials: number;
  phases: Phase[];
}

export interface RunnerPlan {
  version: 1;
  progressIntervalMs: number;
  /** per-request timeout, ms */
  requestTimeoutMs: number;
  /** engine instances (runner.workers); more than one run in worker threads */
  workers?: number;
  ready: ReadyProbe[];
  scenarios: PlanScenario[];
}

/** Lines the runner writes to stdout start with this marker; anything else is passed through as log. */
export const EVENT_MARKER = '@@perf-gate ';

export type Stage = 'warmup' | 'measure';

export type RunnerEvent =
  | { t: 'hello'; node: string }
  | { t: 'probe'; url: string; ok: boolean; status?: number; error?: string; elapsedMs: number }
  | { t: 'ready' }
  | { t: 'not-ready'; url: string; error: string; timeoutMs: number }
  | {
      t: 'stage';
      scenario: string;
      phase: string;
      trial: number;
      trials: number;
      stage: Stage;
      totalMs?: number;
      totalRequests?: number;
    }
  | {
      t: 'progress';
      scenario: string;
      phase: string;
      trial: number;
      stage: Stage;
      elapsedMs: number;
      responses: number;
      rps: number;
    }
  | { t: 'trial'; scenario: string; phase: string; measurement: TrialMeasurement; histogram: string }
  | { t: 'warning'; message: string }
  | { t: 'done' }
  | { t: 'fatal'; message: string };

/** Parses one line of runner stdout; undefined when it is not an event line. */
export function parseEventLine(line: string): RunnerEvent | undefined {
  if (!line.startsWith(EVENT_MARKER)) return undefined;
  try {
    return JSON.parse(line.slice(EVENT_MARKER.length)) as RunnerEvent;
  } catch {
    return undefined;
  }
}

/** Each non-empty JSONL line is one body: a JSON string is sent as its text, anything else as JSON. */
export function parseBodiesJsonl(text: string, file: string): string[] {
  const bodies: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1}: not valid JSON`);
    }
    bodies.push(typeof value === 'string' ? value : JSON.stringify(value));
  });
  if (bodies.length === 0) throw new Error(`${file}: no bodies (one JSON value per line expected)`);
  return bodies;
}

export function buildPlan(
  scenarios: Scenario[],
  ready: ReadyProbe[],
  readBodies: (file: string) => string[],
  workers = 1,
): RunnerPlan {
  return {
    version: 1,
    progressIntervalMs: 1000,
    requestTimeoutMs: 10_000,
    workers,
    ready,
    scenarios: scenarios.map((s) => {
      const request: PlanScenario['request'] = {
        url: s.request.url,
        method: s.request.method,
        headers: s.request.headers,
      };
      if (s.request.body !== undefined) request.body = s.request.body;
      if (s.request.bodiesFile !== undefined) request.bodies = readBodies(s.request.bodiesFile);
      return { name: s.name, request, warmupMs: s.warmupMs, trials: s.trials, phases: s.phases };
    }),
  };
}

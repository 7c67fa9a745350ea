// What each protocol's host module gives the rest of perf-gate (src/protocols/index.ts holds them in
// one map, keyed by kind): its scenarios' normalising, the runner's plan, and what its results hold.
import type { RawPhase } from '../config-parts/phase-schema.js';
import type { Scenario, ScenarioTarget, Thresholds } from '../config-parts/types.js';
import type { Phase } from '../runner-kit/plan.js';
import type { PlanTargetOf, ProtocolKind } from '../runner-kit/protocols.js';
import type { RawScenario } from './schema.js';

/** The normalised target of one kind. */
export type TargetOf<K extends ProtocolKind> = Extract<ScenarioTarget, { kind: K }>;

/** What normalising a scenario's target needs of the config around it. */
export interface NormalizeContext {
  /** every `path: message` problem found is added here */
  problems: string[];
  /** a path from the config, absolute; undefined (the problem reported at `path`) when it cannot be */
  resolveAt: (path: string, relative: string) => string | undefined;
  /** a request URL as the runner sends it: a path is under the target's base URL */
  resolveUrl: (url: string, at: string) => string;
  /** the scenario's request-timeout, ms */
  requestTimeoutMs: number;
  /** the scenario's phases, normalised */
  phases: Phase[];
}

/** What a protocol's `resolve` reads with: paths inside the workspace, message files. */
export interface ResolveIo {
  /** a path relative to `baseDir`, absolute, kept inside the workspace (throws otherwise) */
  resolveIn(baseDir: string, relative: string): string;
  /** a JSONL file of messages */
  readMessages(file: string): unknown[];
  /** a file's text (a data file) */
  readText(file: string): string;
}

export interface HostProtocol<T extends ScenarioTarget> {
  /** one phase of a scenario of this kind; `path` is the phase's key path */
  normalizePhase(raw: RawPhase, path: string, problems: string[]): Phase | undefined;
  /** the scenario's target, from the one protocol key it gives; undefined when there is nothing to load */
  normalize(raw: RawScenario, path: string, ctx: NormalizeContext): T | undefined;
  /** what its scenarios read beyond the config's text, checked and attached once the config is read
   * (gRPC: each proto parsed, its method found, its messages checked, the descriptor kept for the
   * plan): problem lines. Undefined: nothing beyond the text */
  resolve: ((scenarios: readonly Scenario[], io: ResolveIo) => string[]) | undefined;
  /** what the runner gets: bodies and messages read (`scenario` names it in errors) */
  plan(target: T, scenario: string, readBodies: (file: string) => string[]): PlanTargetOf<T['kind']>;
  /** what the target adds to its scenario's hash (pinned: a change turns every committed baseline
   * stale); `bodies` are the scenario's one request's, read */
  hash(target: T, bodies: readonly string[] | undefined, readBodies: (file: string) => readonly string[]): object;
  /** the longest one request (call, message) may take, ms: the scenario's timeout or a longer own one */
  longestTimeoutMs(target: PlanTargetOf<T['kind']>, defaultMs: number): number;
  /** the results beside each phase's own (a mix's entries, WebSocket push and connect), with their gates */
  entries(target: T): Array<{ name: string; thresholds: Thresholds }>;
  /** the URL a message about the scenario names */
  url(target: T): string;
  /** the key that URL is written at in its scenario, for a problem about it (a mix's first entry's) */
  urlKey(target: T): string;
  /** why the target's phases have no delivery to gate (the `delivery` threshold), or undefined */
  noDelivery(target: T): string | undefined;
  /** the bodies file of its one request (a mix's first entry's), hashed by content, or undefined */
  bodiesFile(target: T): string | undefined;
  /** why `sweep:` is refused for it, or undefined when it can be swept */
  noSweep: string | undefined;
  /** why its phases cannot be shared by runner replicas (the key that says so, the reason, and what
   * its scenarios are called), or undefined when they can */
  noReplicas: { key: string; why: string; scenarios: string } | undefined;
  /** the keys of a raw scenario that ask for this protocol, each with what it loads */
  keys: ReadonlyArray<{ key: keyof RawScenario & string; loads: string }>;
}

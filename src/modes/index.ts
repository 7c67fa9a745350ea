// The modes behind one map (issue 32), and what picks one: `mode: auto` reads the GitHub event
// (SPEC §1). Everything else asks a mode module (./gate.ts, ./update.ts, ./sweep.ts, ./ab.ts) through
// MODES; the Action's report mode (the fork flow's second half) measures nothing and lives in
// src/action/report-mode.ts.
import { overallVerdict, type OverallVerdict } from '../compare/compare.js';
import { EXIT_PASS, EXIT_REGRESSION } from '../common/errors.js';
import type { Comparison } from '../results/types.js';
import { ab } from './ab.js';
import { gate } from './gate.js';
import type { Mode, RunMode } from './mode.js';
import type { ModeTraits } from '../results/types.js';
import { sweep } from './sweep.js';
import { update } from './update.js';

export type { Mode, ModeVerdict, RunMode } from './mode.js';

/** Every mode, in the order `validate` lists them. Adding a mode here is the one registration: the
 * compiler asks its module for every part of `Mode`. */
export const MODES: { readonly [M in RunMode]: Mode<M> } = { gate, ab, update, sweep };

export function modeOf<M extends RunMode>(name: M): Mode<M> {
  return MODES[name];
}

export function isRunMode(value: string): value is RunMode {
  return Object.hasOwn(MODES, value);
}

/** A results file's mode as it reads (a file may come from a fork): an unknown one gates nothing. */
const UNKNOWN: ModeTraits = { gates: false, records: false, report: 'comparison', trend: true, comments: true };

export function traitsOf(name: string): ModeTraits {
  return isRunMode(name) ? MODES[name] : UNKNOWN;
}

/** What `--mode` and the Action's `mode` input take: a mode, or auto. */
export type ModeInput = 'auto' | RunMode;

/** Every ModeInput, read from MODES when asked: a mode registered there is taken everywhere. */
export function modeInputs(): ModeInput[] {
  return ['auto', ...(Object.keys(MODES) as RunMode[])];
}

/** The modes whose verdict gates (a pull request's): what a config must be able to fail in. */
export function gatingModes(): RunMode[] {
  return (Object.keys(MODES) as RunMode[]).filter((m) => MODES[m].gates);
}

export function isMode(value: string): value is ModeInput {
  return value === 'auto' || isRunMode(value);
}

/** What a run in a mode that boots a base commit says when it was given none. */
export function baseMissing(mode: RunMode): string {
  return `mode ${mode} needs a base to compare with: --base REF (Action: base-ref), a commit, branch or tag`;
}

/** Names as a sentence lists them: "a, b or c". */
export function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** The Action's mode that measures nothing: it comments what a gate of a fork's pull request found. */
export const REPORT_MODE = 'report';

export function isReportMode(value: string): value is typeof REPORT_MODE {
  return value === REPORT_MODE;
}

/** The mode a run takes, and whether auto chose it. pull_request(_target) → gate (ab when the config
 * says `gate: { against: base-ref }`); schedule or push → update; workflow_dispatch → sweep; anything
 * else (a developer's shell, workflow_run, ...) → gate. */
export function chooseMode(
  mode: ModeInput,
  eventName: string | undefined,
  against: () => 'baselines' | 'base-ref',
): { mode: RunMode; auto: boolean } {
  if (mode !== 'auto') return { mode, auto: false };
  return { mode: resolveMode(mode, eventName, against()), auto: true };
}

export function resolveMode(
  mode: ModeInput,
  eventName: string | undefined,
  against: 'baselines' | 'base-ref' = 'baselines',
): RunMode {
  if (mode !== 'auto') return mode;
  switch (eventName) {
    case 'pull_request':
    case 'pull_request_target':
      return against === 'base-ref' ? 'ab' : 'gate';
    case 'schedule':
    case 'push':
      return 'update';
    case 'workflow_dispatch':
      return 'sweep';
    default:
      return 'gate';
  }
}

/** A run's verdict and regression count: a mode that does not gate always passes, with none. */
export function verdictOf(
  mode: string,
  comparisons: readonly Comparison[],
): { verdict: OverallVerdict; regressions: number } {
  if (!traitsOf(mode).gates) return { verdict: 'pass', regressions: 0 };
  return {
    verdict: overallVerdict(comparisons),
    regressions: comparisons.filter((c) => c.result === 'regression').length,
  };
}

/** A refresh's rows beyond the band of the baselines it replaces (what `fail-on-shift` fails it on):
 * none in a mode that gates (its regressions fail it anyway) or records nothing. */
export function shiftedRows(mode: string, comparisons: readonly Comparison[]): Comparison[] {
  const traits = traitsOf(mode);
  return traits.records && !traits.gates ? comparisons.filter((c) => c.result === 'regression') : [];
}

/** The one line a refresh fails with under `fail-on-shift`. */
export function shiftedLine(rows: readonly Comparison[]): string {
  const named = rows.slice(0, 5).map((c) => `${c.scenario}/${c.phase} ${c.metric}`);
  const more = rows.length > named.length ? ` and ${rows.length - named.length} more` : '';
  return `perf-gate: ${rows.length} row${rows.length === 1 ? '' : 's'} beyond the band of the previous baselines (fail-on-shift): ${named.join(', ')}${more}`;
}

/** 1 for a regression in a run that gates (and for an inconclusive one when asked); 0 otherwise. */
export function exitCodeOf(mode: RunMode, verdict: OverallVerdict, failOnInconclusive: boolean): number {
  if (!MODES[mode].gates) return EXIT_PASS;
  if (verdict === 'regression') return EXIT_REGRESSION;
  if (verdict === 'inconclusive' && failOnInconclusive) return EXIT_REGRESSION;
  return EXIT_PASS;
}

// Pure: `mode: auto` picks gate / update / sweep from the GitHub event (SPEC §1).
import { gates, type OverallVerdict } from '../compare/compare.js';
import { EXIT_PASS, EXIT_REGRESSION } from '../common/errors.js';
import type { RunMode } from '../run/plan.js';

export const MODES = ['auto', 'gate', 'update', 'sweep', 'ab'] as const;
export type ModeInput = (typeof MODES)[number];

export function isMode(value: string): value is ModeInput {
  return (MODES as readonly string[]).includes(value);
}

/** pull_request(_target) → gate (ab when the config says `gate: { against: base-ref }`); schedule or
 * push → update; workflow_dispatch → sweep; anything else (a developer's shell, workflow_run, ...) →
 * gate. */
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

/** 1 for a regression in a run that gates (and for an inconclusive one when asked); 0 otherwise. */
export function exitCodeOf(mode: RunMode, verdict: OverallVerdict, failOnInconclusive: boolean): number {
  if (!gates(mode)) return EXIT_PASS;
  if (verdict === 'regression') return EXIT_REGRESSION;
  if (verdict === 'inconclusive' && failOnInconclusive) return EXIT_REGRESSION;
  return EXIT_PASS;
}

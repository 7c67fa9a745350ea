// One request builder for both entry points: the CLI's options and the Action's inputs become the same
// RunOptions here, with the mode and base-ref defaults decided in one place.
import { usageError } from '../common/errors.js';
import { chooseMode, type ModeInput, modeOf } from '../modes/index.js';
import type { RunOptions } from './contract.js';

/** What a user asked for, as given (CLI options or Action inputs); empty strings mean "not given". */
export interface RequestInput {
  config: string;
  mode: ModeInput;
  scenarios: string[];
  baselineDir: string;
  outDir: string;
  runnerImage?: string | undefined;
  baseRef?: string | undefined;
  pairs?: number | undefined;
  seed?: number | undefined;
  junit?: string | undefined;
  csv?: string | undefined;
  history?: string | undefined;
  runId?: string | undefined;
  reportId?: string | undefined;
}

/** Where the defaults come from: the GitHub event and the config's `gate.against`. */
export interface RequestContext {
  eventName: string | undefined;
  /** a pull request event's base commit */
  pullRequestBaseSha?: string | undefined;
  /** GITHUB_BASE_REF: the base branch inside a pull request's workflow */
  baseBranch?: string | undefined;
  /** the config's gate.against (read only for mode auto) */
  against: (configFile: string) => 'baselines' | 'base-ref';
}

export function buildRunRequest(input: RequestInput, ctx: RequestContext): RunOptions {
  const { mode, auto } = chooseMode(input.mode, ctx.eventName, () => ctx.against(input.config));
  const { base } = modeOf(mode);
  // the ref asked for; else the pull request's base commit; else its base branch
  const baseRef = input.baseRef || ctx.pullRequestBaseSha || (ctx.baseBranch ? `origin/${ctx.baseBranch}` : undefined);
  if (base && !baseRef) {
    throw usageError(
      `mode ${mode} needs a base to compare with: --base REF (Action: base-ref), a commit, branch or tag`,
    );
  }
  const opts: RunOptions = {
    configFile: input.config,
    mode,
    scenarios: input.scenarios,
    baselineDir: input.baselineDir,
    outDir: input.outDir,
  };
  const optional = {
    // mode auto chose A/B from the config: a SUT that cannot boot twice falls back to the gate
    abFallback: auto && base ? true : undefined,
    runnerImage: input.runnerImage,
    baseRef: base ? baseRef : undefined,
    pairs: input.pairs,
    seed: input.seed,
    junit: input.junit,
    csv: input.csv,
    history: input.history,
    runId: input.runId,
    reportId: input.reportId,
  };
  for (const [k, v] of Object.entries(optional)) {
    if (v !== undefined && v !== '') (opts as unknown as Record<string, unknown>)[k] = v;
  }
  return opts;
}

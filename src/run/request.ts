// One request builder for both entry points: the CLI's options and the Action's inputs become the same
// RunOptions here, with the mode and base-ref defaults decided in one place.
import type { Acceptance } from '../compare/accept.js';
import { usageError } from '../common/errors.js';
import { baseMissing, chooseMode, type ModeInput, modeOf } from '../modes/index.js';
import { type OutputRequest, parseOutFormat } from '../outputs/index.js';
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
  /** aliases of outFormats' junit=PATH and csv=PATH */
  junit?: string | undefined;
  csv?: string | undefined;
  /** FORMAT=PATH, each an output (src/outputs/) written beside the results and the report */
  outFormats?: string[] | undefined;
  history?: string | undefined;
  /** failing rows accepted on purpose, each with who accepted it */
  accept?: Acceptance[] | undefined;
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

/** The option (CLI) or input (Action) `FORMAT=PATH` came from, for its error lines. */
export type OutFormatOrigin = '--out-format' | 'input out-format';

export function buildRunRequest(
  input: RequestInput,
  ctx: RequestContext,
  outFormatOption: OutFormatOrigin = '--out-format',
): RunOptions {
  const { mode, auto } = chooseMode(input.mode, ctx.eventName, () => ctx.against(input.config));
  const { base } = modeOf(mode);
  // the ref asked for; else the pull request's base commit; else its base branch
  const baseRef = input.baseRef || ctx.pullRequestBaseSha || (ctx.baseBranch ? `origin/${ctx.baseBranch}` : undefined);
  if (base && !baseRef) throw usageError(baseMissing(mode));
  // the older flags first (--junit, --csv: aliases of --out-format junit=, csv=), then --out-format's
  const asked: OutputRequest[] = [
    ...(input.junit ? [{ format: 'junit' as const, path: input.junit }] : []),
    ...(input.csv ? [{ format: 'csv' as const, path: input.csv }] : []),
    ...(input.outFormats ?? []).map((o) => parseOutFormat(o, outFormatOption)),
  ];
  // the history is one file, read for the trend and appended to: history=PATH is --history PATH
  const histories = [
    ...new Set([
      ...(input.history ? [input.history] : []),
      ...asked.filter((o) => o.format === 'history').map((o) => o.path),
    ]),
  ];
  if (histories.length > 1) {
    throw usageError(
      `${outFormatOption} history=${histories[1]}: one history file per run (also given: ${histories[0]})`,
    );
  }
  // an output asked for twice (the same format and path) is written once
  const outputs = asked
    .filter((o) => o.format !== 'history')
    .filter((o, i, all) => all.findIndex((x) => x.format === o.format && x.path === o.path) === i);
  const given = <K extends keyof RunOptions>(key: K, value: RunOptions[K] | '' | undefined) =>
    value === undefined || value === '' ? {} : ({ [key]: value } as Pick<RunOptions, K>);
  return {
    configFile: input.config,
    mode,
    scenarios: input.scenarios,
    baselineDir: input.baselineDir,
    outDir: input.outDir,
    // mode auto chose A/B from the config: a SUT that cannot boot twice falls back to the gate
    ...given('abFallback', auto && base ? true : undefined),
    ...given('runnerImage', input.runnerImage),
    ...given('baseRef', base ? baseRef : undefined),
    ...given('pairs', input.pairs),
    ...given('seed', input.seed),
    ...given('outputs', outputs.length > 0 ? outputs : undefined),
    ...given('history', histories[0]),
    ...given('accept', input.accept && input.accept.length > 0 ? input.accept : undefined),
    ...given('runId', input.runId),
    ...given('reportId', input.reportId),
  };
}

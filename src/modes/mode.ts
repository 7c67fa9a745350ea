// What a mode is (issue 32): one module per mode says what a run in it needs before anything boots,
// how it measures, judges and persists, and how its report and check read. The pipeline (src/run/)
// and every renderer ask the mode; none compares a mode's name. A new mode is one module and one
// entry in MODES (./index.ts), and the compiler lists what it must say.
import type { Judging } from '../compare/judging.js';
import type { Config, Scenario } from '../config-parts/types.js';
import type { AbInfo, BaselineFile, BusyRecord, ModeTraits, ResultsFile, ScenarioResult } from '../results/types.js';
import type { AbOrders, MeasureContext, MeasureSide } from '../session/measure.js';

export type RunMode = 'gate' | 'update' | 'sweep' | 'ab';

/** What `validate` says of a config in one mode (`problems`: run in that mode refuses it, exit 2). */
export interface ModeVerdict {
  mode: RunMode;
  line: string;
  problems: string[];
  notes: string[];
  /** a judging mode: its gated rows, a line per scenario's threshold set (compare/gated-rows.ts) */
  rows?: string[];
  /** a judging mode: the smallest change each row catches, given the baselines read and the
   * scenarios' definition hashes (compare/detectable.ts) */
  detectable?: (
    baselines: ReadonlyMap<string, BaselineFile | undefined>,
    hashes: ReadonlyMap<string, string>,
  ) => string[];
}

/** What a mode judges: the measured results (head, or the only side), the scenarios as run, the
 * baselines read, and in A/B the base side's results and what the run knows of both sides. */
export interface JudgeInput {
  results: ResultsFile;
  scenarios: Scenario[];
  baselines: ReadonlyMap<string, BaselineFile | undefined>;
  base?: {
    results: ScenarioResult[];
    info: Omit<AbInfo, 'base'>;
    /** scenarios the base commit's config does not have (new in head) */
    fresh?: ReadonlySet<string>;
  };
}

export interface Mode<M extends RunMode = RunMode> extends ModeTraits {
  name: M;
  // --- what it needs, before anything boots
  /** the committed baselines: judged against (a corrupt one is exit 2), read and replaced, or not read */
  baselines: 'judge' | 'replace' | 'none';
  /** the base commit booted beside head; where that cannot be, the mode mode auto falls back to */
  base?: { fallback: RunMode };
  /** refuses a config before anything starts (exit 2), in one line */
  refuse(config: Config, configFile: string): string | undefined;
  /** the scenarios it runs of those selected, those it leaves out, and the line that says so */
  scenarios(selected: Scenario[]): { scenarios: Scenario[]; left: string[]; leftLine?: string };
  /** every measured phase must have had answers (a sweep explores past saturation) */
  needsAnswers: boolean;
  // --- how it measures, judges and persists
  /** how its rows are judged (with `gates`: whether a change must be confirmable) */
  judging: Judging;
  /** drives the sides' runners: one side (its trials interleaved across phases, or phase after phase),
   * or base and head in pairs; says the orders it drew */
  measure(
    ctx: MeasureContext,
    sides: MeasureSides,
    run: { baselines: ReadonlyMap<string, BaselineFile | undefined>; pairs: number; seed: number },
  ): Promise<MeasureRecord>;
  /** the comparisons (none for a sweep) */
  judge(input: JudgeInput): ResultsFile;
  // --- what validate says
  validate(config: Config, pullRequests: RunMode): ModeVerdict;
}

/** The orders a mode's measuring drew: A/B's pairs, or one side's trials interleaved from a seed. */
export interface MeasureRecord {
  ab?: AbOrders;
  interleaved?: { seed: number };
  /** gate.busy: its settings and the trials it repeated (either side's in A/B) */
  busy?: BusyRecord;
}

/** The sides a run measures: the only one, or base then head. */
export type MeasureSides = readonly MeasureSide[];

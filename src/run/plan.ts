// The first step of a run, before anything starts: the config, the scenarios this mode runs, the
// runner plan with bodies read, the scenario hashes and the committed baselines. Every mistake here is
// the user's (exit 2) and is found before Docker is touched.
import type { ReadFs } from '../common/read-fs.js';
import { loadConfig } from '../config/load.js';
import type { Config, Scenario } from '../config-parts/types.js';
import { usageError } from '../common/errors.js';
import { expandPlan } from '../config/env.js';
import type { RunnerPlan } from '../runner-kit/plan.js';
import { buildPlan } from './runner-plan.js';
import { parseBodiesJsonl } from '../config/bodies.js';
import { scenarioHash } from '../results/files.js';
import { readBaselines } from '../results/read.js';
import type { BaselineFile } from '../results/types.js';
import { hasBand } from '../compare/compare.js';
import { type Judging, judgedThresholds } from '../compare/judging.js';
import { withFamily } from '../compare/run-budget.js';
import { modeOf, type RunMode } from '../modes/index.js';
import { protocolOf } from '../protocols/index.js';
import { unreadableScenario } from '../runner-kit/readable.js';
import type { RunDeps } from './contract.js';

export interface RunPlan {
  config: Config;
  scenarios: Scenario[];
  plan: RunnerPlan;
  hashes: Map<string, string>;
  baselines: Map<string, BaselineFile | undefined>;
  /** selected scenarios the mode leaves out (a sweep: those without a ladder), and the line saying so */
  unswept: string[];
  leftLine?: string;
  image: string;
  /** bodies files read, by absolute path */
  readBodies: (file: string) => string[];
}

export function selectScenarios(config: Config, names: string[]): Scenario[] {
  if (names.length === 0) return config.scenarios;
  const known = new Set(config.scenarios.map((s) => s.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length) {
    throw usageError(`--scenario ${unknown.join(', ')}: no such scenario (known: ${[...known].join(', ')})`);
  }
  return config.scenarios.filter((s) => names.includes(s.name));
}

/** Bodies files read once each, through `fs`. */
export function bodiesReader(fs: ReadFs): (file: string) => string[] {
  const bodies = new Map<string, string[]>();
  return (file) => {
    let list = bodies.get(file);
    if (!list) {
      try {
        list = parseBodiesJsonl(fs.readText(file), file);
      } catch (err) {
        throw usageError(`bodies file ${(err as Error).message}`);
      }
      bodies.set(file, list);
    }
    return list;
  };
}

/** The bodies of a scenario's one request (a mix's first entry's), when it has a bodies file. */
function requestBodies(s: Scenario, readBodies: (file: string) => string[]): string[] | undefined {
  const file = protocolOf(s.target).bodiesFile(s.target);
  return file ? readBodies(file) : undefined;
}

export function hashesOf(scenarios: Scenario[], readBodies: (file: string) => string[]): Map<string, string> {
  return new Map(scenarios.map((s) => [s.name, scenarioHash(s, requestBodies(s, readBodies), readBodies)]));
}

/**
 * What `run` reads of a config beyond its text, checked without running: every bodies file parses and
 * has a body, and the runner's plan builds. `validate` calls it, so it refuses what `run` would; the
 * scenarios' definition hashes it returns tell a baseline recorded for another definition.
 */
export function checkRunnable(config: Config, fs: ReadFs): Map<string, string> {
  const readBodies = bodiesReader(fs);
  buildPlan(config.scenarios, config.sut.ready, readBodies, config.runner.workers, config.setup);
  return hashesOf(config.scenarios, readBodies);
}

export function planRun(
  opts: { configFile: string; mode: RunMode; scenarios: string[]; baselineDir: string; runnerImage?: string },
  warn: (line: string) => void,
  deps: Pick<RunDeps, 'env' | 'maskSecret' | 'files' | 'workspace'>,
): RunPlan {
  const mode = modeOf(opts.mode);
  const config = loadConfig(opts.configFile, deps.workspace, deps.files, deps.env);
  const refused = mode.refuse(config, opts.configFile);
  if (refused) throw usageError(refused);
  const { scenarios, left: unswept, leftLine } = mode.scenarios(selectScenarios(config, opts.scenarios));
  const readBodies = bodiesReader(deps.files);
  // placeholders are filled in the runner's copy only: hashes, results and reports keep `${NAME}`
  const plan = expandPlan(
    buildPlan(scenarios, config.sut.ready, readBodies, config.runner.workers, config.setup),
    deps.env,
    deps.maskSecret,
  );
  refuseUnreadableSlots(plan);
  const hashes = hashesOf(scenarios, readBodies);
  // read before anything starts: a corrupt baseline is a usage error where the mode judges against it;
  // a mode that replaces them warns (and compares with nothing); the others never read baselines
  const read = readBaselines(
    mode.baselines === 'none' ? [] : scenarios.map((s) => s.name),
    opts.baselineDir,
    deps.files,
  );
  if (mode.baselines === 'judge' && read.errors[0]) throw read.errors[0];
  for (const err of read.errors) warn(`[perf-gate] warning: ${err.message}; it will be replaced`);
  const baselines = read.baselines;
  const image = opts.runnerImage || config.runner.image;
  // gate.bands: inform: every relative band the scenarios are judged with (their own, or the built-in
  // ones) is marked information, so the comparisons show it and never judge it
  const informedOnes = config.gate.bands === 'inform' ? scenarios.map((s) => informed(s, mode.judging)) : scenarios;
  // gate.run-alpha: the run's false-alarm budget, shared by the phases the mode judges
  const judged = mode.gates ? withFamily(informedOnes, mode.judging, config.gate.runAlpha) : informedOnes;
  return {
    config,
    scenarios: judged,
    plan,
    hashes,
    baselines,
    image,
    readBodies,
    unswept,
    ...(leftLine ? { leftLine } : {}),
  };
}

/**
 * A `{{…}}` call that read before the environment's values were filled in and does not after (a
 * secret holding a quote, a brace or a parenthesis, inside `hmacSha256('${SECRET}', body)`): refused
 * before anything boots, without quoting the text (it holds the value).
 */
function refuseUnreadableSlots(plan: RunnerPlan): void {
  const i = unreadableScenario(plan.scenarios);
  if (i === undefined) return;
  throw usageError(
    `scenarios[${i}] (${plan.scenarios[i]?.name}): a {{…}} call cannot be read once the environment's values are filled in (a value holding a quote, a brace or a parenthesis inside it)`,
  );
}

/** A scenario whose relative bands are information (the built-in ones too, where it gives none). */
export function informed(s: Scenario, judging: Judging): Scenario {
  const thresholds = Object.fromEntries(
    Object.entries(judgedThresholds(s, judging)).map(([m, t]) => [m, t && hasBand(t) ? { ...t, inform: true } : t]),
  ) as Scenario['thresholds'];
  return { ...s, thresholds };
}

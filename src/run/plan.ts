// The first step of a run, before anything starts: the config, the scenarios this mode runs, the
// runner plan with bodies read, the scenario hashes and the committed baselines. Every mistake here is
// the user's (exit 2) and is found before Docker is touched.
import { readFileSync } from 'node:fs';
import { loadConfig } from '../config/load.js';
import { ratePhaseName } from '../config/phases.js';
import { type Config, DEFAULT_MAX_IN_FLIGHT, type Phase, type Scenario } from '../config/types.js';
import { usageError } from '../common/errors.js';
import { expandPlan } from '../config/env.js';
import { buildPlan, parseBodiesJsonl, type RunnerPlan } from './runner-plan.js';
import { baselinePath, scenarioHash } from '../results/files.js';
import { readBaseline } from '../results/read.js';
import type { BaselineFile } from '../results/types.js';
import { AB_BUILTIN_THRESHOLDS } from '../compare/ab.js';
import { BUILTIN_THRESHOLDS, hasBand } from '../compare/compare.js';

export type RunMode = 'gate' | 'update' | 'sweep' | 'ab';

export interface RunPlan {
  config: Config;
  scenarios: Scenario[];
  plan: RunnerPlan;
  hashes: Map<string, string>;
  baselines: Map<string, BaselineFile | undefined>;
  /** sweep mode: selected scenarios without a ladder, left out */
  unswept: string[];
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

/** Sweep mode: each scenario's ladder becomes its phases, one trial per level; scenarios without
 * a ladder are left out (a sweep never fails: the run says which, and sweeps the others). */
export function sweepScenarios(scenarios: Scenario[]): Scenario[] {
  const out: Scenario[] = [];
  for (const s of scenarios) {
    if (!s.sweep) continue;
    const { sweep } = s;
    out.push({
      ...s,
      warmupMs: sweep.warmupMs,
      trials: 1,
      phases: sweep.levels.map((level): Phase => {
        if (sweep.kind === 'closed') {
          return { kind: 'closed', name: `c${level}`, connections: level, durationMs: sweep.durationMs };
        }
        return {
          kind: 'open',
          name: ratePhaseName(level),
          rate: level,
          durationMs: sweep.durationMs,
          maxInFlight: DEFAULT_MAX_IN_FLIGHT,
        };
      }),
    });
  }
  return out;
}

/** The selected scenarios a sweep leaves out: those without a ladder. */
export function withoutLadder(scenarios: Scenario[]): string[] {
  return scenarios.filter((s) => !s.sweep).map((s) => s.name);
}

export function bodiesReader(): (file: string) => string[] {
  const bodies = new Map<string, string[]>();
  return (file) => {
    let list = bodies.get(file);
    if (!list) {
      try {
        list = parseBodiesJsonl(readFileSync(file, 'utf8'), file);
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
  const file = s.target.kind === 'http' ? s.target.request.bodiesFile : undefined;
  return file ? readBodies(file) : undefined;
}

export function hashesOf(scenarios: Scenario[], readBodies: (file: string) => string[]): Map<string, string> {
  return new Map(scenarios.map((s) => [s.name, scenarioHash(s, requestBodies(s, readBodies), readBodies)]));
}

/**
 * What `run` reads of a config beyond its text, checked without running: every bodies file parses and
 * has a body, and the runner's plan builds. `validate` calls it, so it refuses what `run` would.
 */
export function checkRunnable(config: Config): void {
  const readBodies = bodiesReader();
  buildPlan(config.scenarios, config.sut.ready, readBodies, config.runner.workers);
  hashesOf(config.scenarios, readBodies);
}

export function planRun(
  opts: { configFile: string; mode: RunMode; scenarios: string[]; baselineDir: string; runnerImage?: string },
  warn: (line: string) => void,
  secrets: { env: NodeJS.ProcessEnv; maskSecret: (value: string) => void },
): RunPlan {
  const config = loadConfig(opts.configFile);
  if (opts.mode === 'ab' && config.target) {
    throw usageError(
      `--mode ab: A/B boots base and head from compose; ${opts.configFile} gives target (one running service): gate against baselines`,
    );
  }
  const selected = selectScenarios(config, opts.scenarios);
  const scenarios = opts.mode === 'sweep' ? sweepScenarios(selected) : selected;
  const unswept = opts.mode === 'sweep' ? withoutLadder(selected) : [];
  const readBodies = bodiesReader();
  // placeholders are filled in the runner's copy only: hashes, results and reports keep `${NAME}`
  const plan = expandPlan(
    buildPlan(scenarios, config.sut.ready, readBodies, config.runner.workers),
    secrets.env,
    secrets.maskSecret,
  );
  const hashes = hashesOf(scenarios, readBodies);
  // read before anything starts: a corrupt baseline is a usage error in gate mode; update mode
  // replaces it anyway (and compares with nothing); sweep and A/B never read baselines
  const baselines = new Map<string, BaselineFile | undefined>();
  for (const s of opts.mode === 'gate' || opts.mode === 'update' ? scenarios : []) {
    const path = baselinePath(opts.baselineDir, s.name);
    try {
      baselines.set(s.name, readBaseline(path));
    } catch (err) {
      if (opts.mode !== 'update') throw err;
      warn(`[perf-gate] warning: ${(err as Error).message}; it will be replaced`);
    }
  }
  const image = opts.runnerImage || config.runner.image;
  // gate.bands: inform: every relative band the scenarios are judged with (their own, or the built-in
  // ones) is marked information, so the comparisons show it and never judge it
  const judged = config.gate.bands === 'inform' ? scenarios.map((s) => informed(s, opts.mode)) : scenarios;
  return { config, scenarios: judged, plan, hashes, baselines, image, readBodies, unswept };
}

/** A scenario whose relative bands are information (the built-in ones too, where it gives none). */
export function informed(s: Scenario, mode: RunMode): Scenario {
  const own =
    Object.keys(s.thresholds).length > 0 ? s.thresholds : mode === 'ab' ? AB_BUILTIN_THRESHOLDS : BUILTIN_THRESHOLDS;
  const thresholds = Object.fromEntries(
    Object.entries(own).map(([m, t]) => [m, t && hasBand(t) ? { ...t, inform: true } : t]),
  ) as Scenario['thresholds'];
  return { ...s, thresholds };
}

// `perf-gate run`, every mode, as one pipeline: plan → sides → measure → assemble → judge → publish →
// persist. What differs between modes is asked of the mode (src/modes/): what it needs (baselines, a
// base side), how it measures and judges, whether it gates and records. Each side keeps one
// long-lived runner that takes trials on command.
import { resolve } from 'node:path';
import { usageError, environmentError } from '../common/errors.js';
import { acceptIn } from '../compare/accept.js';
import { withCosts } from '../compare/cost.js';
import { confirmationReach } from '../compare/reach.js';
import { onSwarm } from '../config/distributed.js';
import { baseMissing, type Mode, modeOf, verdictOf } from '../modes/index.js';
import {
  baselineProfileFile,
  formatOfFile,
  type KeptProfile,
  profileRecords,
  type TakenProfile,
} from '../profiles/record.js';
import { keptProfiles } from './kept-profiles.js';
import { shiftSettingsOf } from '../history/shifts.js';
import { baselineOf, baselinePath, stableStringify } from '../results/files.js';
import { RESULTS_SCHEMA, type ResultsFile, type ScenarioResult } from '../results/types.js';
import { failingRows, unansweredPhase } from '../results/unanswered.js';
import { newSeed } from '../stats/random.js';
import { newRunId, type RunDeps, type RunFiles, type RunOptions, type RunOutcome, writeOrFail } from './contract.js';
import { planRun, type RunPlan } from './plan.js';
import { machineInfo, provenanceOf } from './provenance.js';
import { publishFiles } from './publish.js';
import { abInfo, measure, measuredSides, openSides } from './sides.js';
export { newRunId, type RunDeps, type RunOptions, type RunOutcome } from './contract.js';
export { defaultRunnerScript } from './deps.js';

/** The largest plan a swarm config carries (Docker's limit is 500 KB), leaving room for the trial. */
const MAX_SWARM_PLAN_BYTES = 480 * 1024;

/** The whole run, for every mode. */
export async function run(opts: RunOptions, deps: RunDeps): Promise<RunOutcome> {
  const startedAt = new Date(deps.now()).toISOString();
  const mode = modeOf(opts.mode);
  if (mode.base && !opts.baseRef) throw usageError(baseMissing(opts.mode));
  // plan: everything the user wrote, checked before Docker is touched
  const planned = planRun(opts, (l) => deps.progress.line(l), deps);
  if (planned.leftLine) deps.progress.line(`[perf-gate] warning: ${planned.leftLine}`);
  if (planned.scenarios.length === 0) return nothingToRun(opts, planned, startedAt, deps);
  const pairs = opts.pairs ?? planned.config.ab.pairs;
  const p = refuseUngateable(opts, planned, mode, pairs);
  const engine = await deps.docker.version();
  // the runner image is checked (pulled if it can be) before any SUT boots, not after
  await deps.docker.ensureImage(p.image);
  const runId = opts.runId ?? newRunId();
  // sides: the base commit's tree where the mode boots one beside head (or the mode it falls back to)
  const opened = await openSides(opts, p, mode, runId, deps);
  if ('fallback' in opened) return run(opened.fallback, deps);
  const { base } = opened;
  try {
    const sides = measuredSides(p, base, deps.machine);
    // measure
    const seed = opts.seed ?? newSeed();
    const measured = await measure(opts, deps, p, mode, { runId, sides, base, pairs, seed });
    // assemble: each side's results, merged once (base first in A/B, head or the only side last)
    const sideResults = sides.map((s) => s.collector.results(p.scenarios, p.hashes));
    if (mode.needsAnswers) {
      for (const [i, s] of sides.entries()) {
        // a scenario new in head may call what the base commit does not have: its rows are not compared
        const asked = s.side === 'base' ? p.scenarios.filter((x) => !base?.fresh.has(x.name)) : p.scenarios;
        const results = (sideResults[i] as ScenarioResult[]).filter((r) => asked.some((x) => x.name === r.name));
        const none = unansweredPhase(results, asked, s.side ? `${s.side}: ` : '');
        if (none) throw environmentError(none);
      }
    }
    const provenance = await provenanceOf(deps, p.config.dir, startedAt, engine, p.image, measured.images.head);
    // sut.profile: written beside the results; diffed against base's side, or the baseline's profile
    const taken = sides.flatMap((s) => s.collector.profiles);
    const kept =
      mode.baselines === 'judge' && !base ? keptProfiles(p.baselines, opts.baselineDir, deps.files, taken) : [];
    const profiles = profilesOf(sides, opts.outDir, deps.files, kept);
    const results: ResultsFile = {
      schema: RESULTS_SCHEMA,
      runId,
      mode: opts.mode,
      config: opts.configFile,
      startedAt,
      finishedAt: new Date(deps.now()).toISOString(),
      provenance,
      scenarios: sideResults.at(-1) as ScenarioResult[],
      comparisons: [],
      ...(measured.interleaved ? { interleaved: measured.interleaved } : {}),
      ...(measured.busy ? { busy: measured.busy } : {}),
      ...shiftSettingsOf(p.config.history),
      ...profiles.fields,
    };
    // judge, then the failing rows accepted on purpose (the judgement's time said: statistics bounded)
    const judgingFrom = deps.now();
    const judgedRows = mode.judge({
      results,
      scenarios: p.scenarios,
      baselines: p.baselines,
      ...(base
        ? {
            base: {
              results: sideResults[0] as ScenarioResult[],
              info: abInfo(opts, base, measured, results, pairs),
              fresh: base.fresh,
            },
          }
        : {}),
    });
    const { results: accepted, unused } = acceptIn(judgedRows, opts.accept);
    // why a phase regressed: each service's CPU per request against the other side's
    const verdict = mode.gates
      ? withCosts(accepted, base ? (sideResults[0] as ScenarioResult[]) : undefined, p.baselines)
      : accepted;
    if (verdict.comparisons.length > 0) {
      const n = verdict.comparisons.length;
      deps.progress.line(`[perf-gate] judged ${n} row${n === 1 ? '' : 's'} in ${deps.now() - judgingFrom} ms`);
    }
    for (const line of unused) deps.progress.line(`[perf-gate] warning: ${line}`);
    // an update does not enshrine a failure: a row failing on nearly every request is named, and
    // nothing is recorded unless its scenario accepts it
    const failing = mode.records ? failingRows(results.scenarios, p.scenarios) : [];
    const judged = failing.length > 0 ? { ...verdict, failing } : verdict;
    // publish, then persist what the mode records
    const files = publishFiles(judged, opts, deps.files);
    const refused = failing.filter((f) => !f.accepted);
    if (refused.length > 0) {
      throw environmentError(
        `no baseline recorded: ${refused.length === 1 ? 'a row' : `${refused.length} rows`} failed on nearly every request (a baseline of it would pass every later gate); fix the request or its checks, or set accept-failing: true on its scenario`,
        refused.map((f) => `  ${f.line}`),
      );
    }
    // (the results as measured: a baseline keeps no comparison of its own)
    const baselinesUpdated = mode.records ? recordBaselines(results, opts, deps, profiles.files) : [];
    return { results: judged, ...files, ...verdictOf(opts.mode, judged.comparisons), baselinesUpdated };
  } finally {
    await base?.tree.remove();
  }
}

/** Refused before anything boots: a gate some row of which can never be confirmed, a plan too large
 * for a swarm. The plan comes back with each scenario's confirmation cap where it had to grow. */
function refuseUngateable(opts: RunOptions, p: RunPlan, mode: Mode, pairs: number): RunPlan {
  let scenarios = p.scenarios;
  if (mode.gates) {
    const reach = confirmationReach({ ...p.config, scenarios: p.scenarios }, mode.judging, pairs);
    if (reach.problems.length > 0) {
      throw usageError(
        `${opts.configFile}: the gate could never fail on a change`,
        reach.problems.map((l) => `  ${l}`),
      );
    }
    scenarios = scenarios.map((s) => {
      const cap = reach.caps.get(s.name);
      return cap === undefined ? s : { ...s, confirmCap: cap };
    });
  }
  if (onSwarm(p.config)) {
    // the plan goes into a swarm config, which holds at most 500 KB: refuse before anything boots
    const size = Buffer.byteLength(JSON.stringify(p.plan));
    if (size > MAX_SWARM_PLAN_BYTES) {
      throw usageError(
        `${opts.configFile}: the runner plan is ${Math.round(size / 1024)} KiB; on a swarm it travels as a config of at most ${MAX_SWARM_PLAN_BYTES / 1024} KiB (bodies files are the usual cause)`,
      );
    }
  }
  return { ...p, scenarios };
}

/** The persist step of a mode that records: each scenario's results as its new baseline, with the
 * profiles its phases' profiling trials took (sut.profile) as files beside it, each listed in it. */
function recordBaselines(
  results: ResultsFile,
  opts: RunOptions,
  deps: RunDeps,
  profileFiles: ReadonlyMap<string, Uint8Array>,
): string[] {
  return results.scenarios.map((r) => {
    const path = baselinePath(opts.baselineDir, r.name);
    const profiles = (results.profiles ?? []).flatMap((x) => {
      const data = x.file !== undefined && x.error === undefined ? profileFiles.get(x.file) : undefined;
      if (x.scenario !== r.name || !data) return [];
      const file = baselineProfileFile(x, data, formatOfFile(x.file as string));
      writeOrFail(deps.files, resolve(opts.baselineDir, file), data);
      return [{ phase: x.phase, service: x.service, file }];
    });
    writeOrFail(deps.files, path, stableStringify(baselineOf(r, results.provenance, profiles)));
    return path;
  });
}

/** Nothing left to measure (a sweep without a ladder anywhere): a report that says so, and a pass
 * (SPEC §1: a sweep never fails), without booting anything. */
function nothingToRun(opts: RunOptions, p: RunPlan, startedAt: string, deps: RunDeps): RunOutcome {
  const results: ResultsFile = {
    schema: RESULTS_SCHEMA,
    runId: opts.runId ?? newRunId(),
    mode: opts.mode,
    config: opts.configFile,
    startedAt,
    finishedAt: new Date(deps.now()).toISOString(),
    provenance: {
      time: startedAt,
      commit: null,
      ref: null,
      runner: machineInfo(),
      docker: { version: null, apiVersion: null },
      runnerImage: p.image,
      sut: { images: {} },
    },
    scenarios: [],
    comparisons: [],
    unswept: p.unswept,
  };
  return {
    results,
    ...publishFiles(results, opts, deps.files),
    verdict: 'pass',
    regressions: 0,
    baselinesUpdated: [],
  };
}

/** @deprecated the old name of `run` */
export const runPerfGate = run;

/** sut.profile: each side's profiles written beside the results, their records, and the diffs (A/B's,
 * or a gate run's against its baselines' `kept` profiles); the files' bytes by file, for the baselines. */
function profilesOf(
  sides: ReadonlyArray<{ side?: 'base' | 'head'; collector: { profiles: readonly TakenProfile[] } }>,
  outDir: string,
  files: RunFiles,
  kept: readonly KeptProfile[],
): { fields: Pick<ResultsFile, 'profiles' | 'profileDiffs'>; files: Map<string, Uint8Array> } {
  const taken = profileRecords(
    sides.map((s) => ({ ...(s.side ? { side: s.side } : {}), profiles: s.collector.profiles })),
    kept,
  );
  for (const f of taken.files) writeOrFail(files, resolve(outDir, f.file), f.data);
  return {
    fields: {
      ...(taken.records.length > 0 ? { profiles: taken.records } : {}),
      ...(taken.diffs.length > 0 ? { profileDiffs: taken.diffs } : {}),
    },
    files: new Map(taken.files.map((f) => [f.file, f.data])),
  };
}

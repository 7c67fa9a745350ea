// The host's commands on the runner's stdin (RunnerCommand, one JSON object per line): read one at a
// time, checked by hand (the runner bundle carries no zod). A line that is not a command is the
// host's bug or a broken stream, never something to guess around: it throws, and the runner reports
// it as `fatal`.
import { createInterface } from 'node:readline';
import type { Phase, PlanScenario, RunnerCommand, RunnerPlan } from '../../src/runner-kit/plan.js';
import type { ProfileRequest } from '../../src/runner-kit/profile.js';

const clip = (line: string) => (line.length > 120 ? `${line.slice(0, 120)}…` : line);
const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isCount = (v: unknown): v is number => isWhole(v) && v >= 1;

const isProfile = (v: unknown): v is ProfileRequest[] =>
  Array.isArray(v) &&
  v.every(
    (p: unknown) =>
      typeof p === 'object' &&
      p !== null &&
      typeof (p as ProfileRequest).service === 'string' &&
      typeof (p as ProfileRequest).url === 'string',
  );

/** Pure: one stdin line as a command; throws on anything else. */
export function parseCommand(line: string): RunnerCommand {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new Error(`malformed command on stdin (not JSON): ${clip(line)}`);
  }
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  if (o.c === 'end') return { c: 'end' };
  if (
    o.c === 'trial' &&
    typeof o.scenario === 'string' &&
    typeof o.phase === 'string' &&
    isCount(o.trial) &&
    isCount(o.trials)
  ) {
    const warmup = o.warmupMs;
    if (warmup !== undefined && !isWhole(warmup)) {
      throw new Error(`malformed command on stdin (warmupMs): ${clip(line)}`);
    }
    const profile = o.profile;
    if (profile !== undefined && !isProfile(profile)) {
      throw new Error(`malformed command on stdin (profile): ${clip(line)}`);
    }
    return {
      c: 'trial',
      scenario: o.scenario,
      phase: o.phase,
      trial: o.trial,
      trials: o.trials,
      ...(warmup !== undefined ? { warmupMs: warmup } : {}),
      ...(profile !== undefined ? { profile } : {}),
    };
  }
  throw new Error(`malformed command on stdin: ${clip(line)}`);
}

/** Pure: the plan's scenario and phase a trial command names; throws when the plan has none. */
export function trialTarget(
  plan: RunnerPlan,
  cmd: { scenario: string; phase: string },
): { scenario: PlanScenario; phase: Phase } {
  const scenario = plan.scenarios.find((s) => s.name === cmd.scenario);
  if (!scenario) throw new Error(`unknown scenario "${cmd.scenario}" in a trial command`);
  const phase = scenario.phases.find((p) => p.name === cmd.phase);
  if (!phase) throw new Error(`unknown phase "${cmd.phase}" of scenario "${cmd.scenario}" in a trial command`);
  return { scenario, phase };
}

/**
 * The commands on `input`, in order, until `end` or EOF (which ends the same way). The consumer pulls
 * the next one only after handling the last, so trials never overlap; lines that arrive meanwhile
 * wait in readline's queue. Blank lines are skipped.
 */
export async function* readCommands(input: NodeJS.ReadableStream): AsyncGenerator<RunnerCommand & { c: 'trial' }> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const cmd = parseCommand(line);
      if (cmd.c === 'end') return;
      yield cmd;
    }
  } finally {
    lines.close();
  }
}

/** `runner.mjs PLAN --all` (benches, a runner run by hand): every phase of every scenario, its plan's
 * `trials` times, as the host would command them, without reading stdin. */
export function* planCommands(plan: RunnerPlan): Generator<RunnerCommand & { c: 'trial' }> {
  for (const s of plan.scenarios) {
    for (const phase of s.phases) {
      for (let trial = 1; trial <= s.trials; trial++) {
        yield { c: 'trial', scenario: s.name, phase: phase.name, trial, trials: s.trials };
      }
    }
  }
}

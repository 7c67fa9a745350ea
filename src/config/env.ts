// Pure: `${NAME}` in a scenario's url, headers, body and bodies is taken from perf-gate's own
// environment (the Action step's `env:`) when the plan for the runner is built — after the scenario
// hash, so the config, the results, the baselines and the report only ever hold the placeholder.
// `$${` writes a literal `${`. A variable that is not set is a usage error naming the key.
import { usageError } from '../common/errors.js';
import { planProtocolOf } from '../protocols/index.js';
import type { PlanScenario, PlanTarget } from '../runner-kit/plan.js';
import type { RunnerPlan } from '../run/runner-plan.js';

const PLACEHOLDER = /\$(\$?)\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The names a text refers to (escaped `$${…}` excluded). */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].filter((m) => m[1] === '').map((m) => m[2] as string);
}

/** `text` with every `${NAME}` replaced; `where` names the key in errors. Values used are reported
 * through `secret` (the Action masks them in its log). */
export function expandEnv(
  text: string,
  env: NodeJS.ProcessEnv,
  where: string,
  secret: (value: string) => void = () => {},
): string {
  return text.replace(PLACEHOLDER, (_all, escaped: string, name: string) => {
    if (escaped) return `\${${name}}`;
    if (!NAME.test(name)) throw usageError(`${where}: \${${name}} is not a variable name (letters, digits, _)`);
    const value = env[name];
    if (value === undefined) throw usageError(`${where}: \${${name}} is not set in perf-gate's environment`);
    if (value !== '') secret(value);
    return value;
  });
}

/** A plan target with its placeholders filled in (by its protocol); `at` names the scenario in errors. */
function expandTarget(
  target: PlanTarget,
  env: NodeJS.ProcessEnv,
  at: string,
  secret: (value: string) => void,
): PlanTarget {
  return planProtocolOf(target).expand(target, (text, where) => expandEnv(text, env, where, secret), at);
}

/** The plan the runner gets, its requests' placeholders filled in. */
export function expandPlan(plan: RunnerPlan, env: NodeJS.ProcessEnv, secret: (value: string) => void): RunnerPlan {
  return {
    ...plan,
    scenarios: plan.scenarios.map((s, i): PlanScenario => ({
      ...s,
      target: expandTarget(s.target, env, `scenarios[${i}] (${s.name})`, secret),
    })),
  };
}

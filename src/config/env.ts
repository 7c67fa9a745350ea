// Pure: `${NAME}` in a scenario's url, headers, body and bodies (and a setup step's) is taken from
// perf-gate's own environment (the Action step's `env:`) when the plan for the runner is built — after
// the scenario hash, so the config, the results, the baselines and the report only ever hold the
// placeholder. `$${` writes a literal `${`. A variable that is not set is a usage error naming the
// key. The names a `setup` step extracts are left for the runner to fill (runner/src/setup.ts) in a
// second pass, the text written in that pass's form (src/runner-kit/placeholders.ts).
import { usageError } from '../common/errors.js';
import { type Fill, fillRequest, fillTarget } from '../runner-kit/fill.js';
import { fillPlaceholders, PLACEHOLDER_NAME } from '../runner-kit/placeholders.js';
import type { PlanScenario, RunnerPlan } from '../runner-kit/plan.js';

/** `text` with every `${NAME}` replaced; `where` names the key in errors. Values used are reported
 * through `secret` (the Action masks them in its log). Names in `runner` are left as they are, for
 * the runner's setup pass (the text in that pass's form). */
export function expandEnv(
  text: string,
  env: NodeJS.ProcessEnv,
  where: string,
  secret: (value: string) => void = () => {},
  runner?: ReadonlySet<string>,
): string {
  return fillPlaceholders(
    text,
    (name) => {
      if (runner?.has(name)) return undefined;
      if (!PLACEHOLDER_NAME.test(name))
        throw usageError(`${where}: \${${name}} is not a variable name (letters, digits, _)`);
      const value = env[name];
      if (value === undefined) throw usageError(`${where}: \${${name}} is not set in perf-gate's environment`);
      if (value !== '') secret(value);
      return value;
    },
    runner !== undefined ? 'host' : 'only',
  );
}

/** The plan the runner gets, its requests' placeholders filled in (but the setup's own names). */
export function expandPlan(plan: RunnerPlan, env: NodeJS.ProcessEnv, secret: (value: string) => void): RunnerPlan {
  const runner = plan.setup ? new Set(plan.setup.flatMap((s) => s.extract.map((e) => e.name))) : undefined;
  return fillPlan(plan, (text, where) => expandEnv(text, env, where, secret, runner));
}

/** A plan written for a runner the host does not start (`perf-gate render k8s`): no placeholder is
 * filled, but with a setup the texts are in the runner's form, as expandPlan's would be. */
export function unfilledPlan(plan: RunnerPlan): RunnerPlan {
  return plan.setup ? fillPlan(plan, (text) => fillPlaceholders(text, () => undefined, 'host')) : plan;
}

function fillPlan(plan: RunnerPlan, fill: Fill): RunnerPlan {
  return {
    ...plan,
    ...(plan.setup
      ? {
          setup: plan.setup.map((s, i) => ({
            ...s,
            request: fillRequest(s.request, fill, `setup[${i}] (${s.name}).request`),
          })),
        }
      : {}),
    scenarios: plan.scenarios.map((s, i): PlanScenario => ({
      ...s,
      target: fillTarget(s.target, fill, `scenarios[${i}] (${s.name})`),
    })),
  };
}

// Pure: `${NAME}` in a scenario's url, headers, body and bodies is taken from perf-gate's own
// environment (the Action step's `env:`) when the plan for the runner is built — after the scenario
// hash, so the config, the results, the baselines and the report only ever hold the placeholder.
// `$${` writes a literal `${`. A variable that is not set is a usage error naming the key.
import { usageError } from '../common/errors.js';
import type { PlanMixEntry, PlanRequest, PlanScenario, PlanTarget } from '../runner-kit/plan.js';
import { assertNever } from '../runner-kit/protocols.js';
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

/** Every value of a header or metadata record expanded, each named `${at}.${key}` in errors. */
function expandRecord(
  record: Record<string, string>,
  env: NodeJS.ProcessEnv,
  at: string,
  secret: (value: string) => void,
): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expandEnv(v, env, `${at}.${k}`, secret)]));
}

function expandRequest(
  r: PlanRequest,
  env: NodeJS.ProcessEnv,
  at: string,
  secret: (value: string) => void,
): PlanRequest {
  const request: PlanRequest = {
    ...r,
    url: expandEnv(r.url, env, `${at}.url`, secret),
    headers: expandRecord(r.headers, env, `${at}.headers`, secret),
  };
  if (r.body !== undefined) request.body = expandEnv(r.body, env, `${at}.body`, secret);
  if (r.bodies !== undefined) {
    request.bodies = r.bodies.map((b, j) => expandEnv(b, env, `${at}.bodies[${j}]`, secret));
  }
  return request;
}

/** A plan target with its placeholders filled in; `at` names the scenario in errors. */
function expandTarget(
  target: PlanTarget,
  env: NodeJS.ProcessEnv,
  at: string,
  secret: (value: string) => void,
): PlanTarget {
  switch (target.kind) {
    case 'http': {
      if (!target.mix) return { ...target, request: expandRequest(target.request, env, `${at}.request`, secret) };
      const mix = target.mix.map((e, j) => ({
        ...e,
        request: expandRequest(e.request, env, `${at}.requests[${j}]`, secret),
      }));
      return { ...target, mix, request: (mix[0] as PlanMixEntry).request };
    }
    case 'grpc': {
      const g = target.grpc;
      const where = `${at}.grpc`;
      return {
        ...target,
        grpc: {
          ...g,
          url: expandEnv(g.url, env, `${where}.url`, secret),
          metadata: expandRecord(g.metadata, env, `${where}.metadata`, secret),
        },
      };
    }
    case 'ws': {
      const w = target.websocket;
      const where = `${at}.websocket`;
      return {
        ...target,
        websocket: {
          ...w,
          url: expandEnv(w.url, env, `${where}.url`, secret),
          headers: expandRecord(w.headers, env, `${where}.headers`, secret),
          hello: w.hello.map((h, j) => expandEnv(h, env, `${where}.hello[${j}]`, secret)),
          message: expandEnv(w.message, env, `${where}.message`, secret),
        },
      };
    }
    default:
      return assertNever(target);
  }
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

// The plan handed to the runner container, and the events it sends back on stdout.
// Pure data; built from the normalised config.
import type { Scenario, SetupStep } from '../config-parts/types.js';
import type { ReadyProbe, PlanScenario, PlanTarget, RunnerPlan } from '../runner-kit/plan.js';
import type { PlanSetupStep } from '../runner-kit/setup.js';
import { protocolOf } from '../protocols/index.js';

/** What the runner loads for a scenario: its requests (or mix), its WebSocket peers or its gRPC calls. */
function planTarget(s: Scenario, readBodies: (file: string) => string[]): PlanTarget {
  return protocolOf(s.target).plan(s.target, s.name, readBodies);
}

/** A setup step as the runner sends it (its request has no bodies file). */
function planSetupStep(s: SetupStep): PlanSetupStep {
  const { bodiesFile: _none, ...request } = s.request;
  return { name: s.name, request, extract: s.extract };
}

export function buildPlan(
  scenarios: Scenario[],
  ready: ReadyProbe[],
  readBodies: (file: string) => string[],
  workers = 1,
  setup?: readonly SetupStep[],
): RunnerPlan {
  return {
    version: 1,
    progressIntervalMs: 1000,
    requestTimeoutMs: 10_000,
    workers,
    ready,
    ...(setup ? { setup: setup.map(planSetupStep) } : {}),
    scenarios: scenarios.map((s): PlanScenario => ({
      name: s.name,
      target: planTarget(s, readBodies),
      warmupMs: s.warmupMs,
      trials: s.trials,
      requestTimeoutMs: s.requestTimeoutMs,
      phases: s.phases,
    })),
  };
}

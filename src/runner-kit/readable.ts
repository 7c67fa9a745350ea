// Whether a plan's `{{…}}` slots can still be read once its `${…}` placeholders are filled in: a value
// holding a quote, a brace or a parenthesis inside a call's arguments makes the call unreadable, and
// the text would go out with the call written in it. The host checks the environment's values when
// it builds the runner's plan (src/run/plan.ts); the runner checks its setup's values
// (runner/src/setup.ts). Pure.
import type { PlanScenario } from './plan.js';
import { templateProblems } from './template.js';
import { compileTemplate } from './ws-template.js';

/** The index of the first scenario with a slot that cannot be read, or undefined. */
export function unreadableScenario(scenarios: readonly PlanScenario[]): number | undefined {
  const i = scenarios.findIndex((s) => !slotsReadable(s));
  return i < 0 ? undefined : i;
}

function slotsReadable(s: PlanScenario): boolean {
  if (s.target.kind === 'ws') {
    const { websocket } = s.target;
    try {
      for (const t of [websocket.message, ...websocket.hello]) compileTemplate(t);
    } catch {
      return false;
    }
    return true;
  }
  if (s.target.kind !== 'http') return true;
  const columns = s.target.data?.columns;
  const values = s.target.flow ? new Set(s.target.flow.extract.flat().map((e) => e.name)) : undefined;
  const requests = [s.target.request, ...(s.target.mix ?? []).map((e) => e.request)];
  const texts = requests.flatMap((r) => [r.url, ...Object.values(r.headers), r.body ?? '', ...(r.bodies ?? [])]);
  return texts.every((t) => templateProblems(t, columns, values).length === 0);
}

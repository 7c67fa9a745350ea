// sweep: each scenario's ladder (scenarios[].sweep) becomes its phases, one trial per level; nothing
// is compared and a sweep never fails (SPEC §1). A level past saturation may answer nothing.
import { AGAINST_BASELINES } from '../compare/judging.js';
import { ratePhaseName } from '../config-parts/phases.js';
import { DEFAULT_MAX_IN_FLIGHT, type Scenario } from '../config-parts/types.js';
import type { Phase } from '../runner-kit/plan.js';
import { measureOne } from '../session/measure.js';
import { onlySide } from './gate.js';
import type { Mode } from './mode.js';
import { measuringSaid } from '../compare/gated-rows.js';

/** Each scenario's ladder as its phases, one trial per level; scenarios without a ladder are left out. */
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

export const sweep: Mode<'sweep'> = {
  name: 'sweep',
  baselines: 'none',
  refuse: () => undefined,
  scenarios: (selected) => {
    const scenarios = sweepScenarios(selected);
    const left = selected.filter((s) => !s.sweep).map((s) => s.name);
    return {
      scenarios,
      left,
      ...(left.length > 0
        ? {
            leftLine: `no sweep ladder (scenarios[].sweep) in ${left.join(', ')}: ${scenarios.length ? 'left out of the sweep' : 'nothing to sweep'}`,
          }
        : {}),
    };
  },
  needsAnswers: false,
  // never judged (nothing is compared): the thresholds `gate.bands: inform` marks are the built-in ones
  judging: AGAINST_BASELINES,
  // level after level, in the ladder's order (one trial each)
  measure: async (ctx, sides) => {
    await measureOne(ctx, onlySide(sides), new Map());
    return {};
  },
  judge: ({ results }) => results,
  gates: false,
  records: false,
  report: 'levels',
  trend: false,
  comments: true,
  validate: (config) => {
    const swept = config.scenarios.filter((s) => s.sweep).length;
    return {
      mode: 'sweep',
      line:
        swept > 0
          ? `valid: ${swept} scenario${swept === 1 ? '' : 's'} with a ladder; ${measuringSaid(config, sweepScenarios(config.scenarios), false)}`
          : 'valid: nothing to sweep (no scenario has a sweep ladder)',
      problems: [],
      notes: [],
    };
  },
};

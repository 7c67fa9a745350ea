// gate: head measured against the baselines committed in the repository; a confirmed regression fails
// the check. Rows outside their band get more trials, up to gate.confirm's cap.
import { gateResults } from '../compare/gate.js';
import { AGAINST_BASELINES } from '../compare/judging.js';
import { measureOne } from '../session/measure.js';
import { judgedVerdict } from './judged.js';
import type { Mode, MeasureSides } from './mode.js';

/** What gate and update share: one side, measured and compared with the baselines. */
export const againstBaselines = {
  refuse: () => undefined,
  scenarios: (selected) => ({ scenarios: selected, left: [] }),
  needsAnswers: true,
  judging: AGAINST_BASELINES,
  // the configured trials of every phase interleaved in a seeded order (a slow stretch of the machine
  // spreads over many rows instead of landing on every trial of one)
  measure: async (ctx, sides, run) => {
    await measureOne(ctx, onlySide(sides), run.baselines, run.seed);
    return { interleaved: { seed: run.seed } };
  },
  judge: ({ results, scenarios, baselines }) => {
    const thresholds = new Map(scenarios.map((s) => [s.name, s.thresholds]));
    const judged = gateResults(results, baselines, (name) => thresholds.get(name)).results;
    // the baselines compared with, their phases as recorded: the run's page draws them beside this run
    const compared = results.scenarios.flatMap((s) => {
      const b = baselines.get(s.name);
      return b ? [{ name: b.scenario, scenarioHash: b.scenarioHash, phases: b.phases }] : [];
    });
    return compared.length > 0 ? { ...judged, baseline: compared } : judged;
  },
  report: 'comparison',
  trend: true,
} satisfies Partial<Mode>;

export function onlySide(sides: MeasureSides): MeasureSides[number] {
  const [side] = sides;
  // a bug of the pipeline (exit 1): a one-side mode is always given its side
  if (!side || sides.length !== 1) throw new Error(`one side expected, ${sides.length} given`);
  return side;
}

export const gate: Mode<'gate'> = {
  ...againstBaselines,
  name: 'gate',
  baselines: 'judge',
  gates: true,
  records: false,
  comments: true,
  validate: (config, pullRequests) => judgedVerdict('gate', AGAINST_BASELINES, config, pullRequests),
};

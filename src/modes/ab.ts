// ab: base (a git ref's tree) and head booted side by side and measured in interleaved pairs, in a
// seeded random order; each row judged on the paired differences. Needs no baselines.
import { compareAbScenario } from '../compare/ab.js';
import { PAIRED } from '../compare/judging.js';
import type { AbInfo, Comparison, ScenarioResult } from '../results/types.js';
import { measureAb } from '../session/measure.js';
import { judgedVerdict } from './judged.js';
import type { Mode } from './mode.js';

export const ab: Mode<'ab'> = {
  name: 'ab',
  baselines: 'none',
  // a project that cannot boot twice side by side: mode auto gates against baselines instead
  base: { fallback: 'gate' },
  refuse: (config, configFile) =>
    config.target
      ? `--mode ab: A/B boots base and head from compose; ${configFile} gives target (one running service): gate against baselines`
      : undefined,
  scenarios: (selected) => ({ scenarios: selected, left: [] }),
  needsAnswers: true,
  judging: PAIRED,
  measure: async (ctx, sides, run) => {
    const [base, head] = sides;
    // a bug of the pipeline (exit 1): A/B is always given base and head
    if (!base || !head || sides.length !== 2) throw new Error(`A/B needs base and head, ${sides.length} sides given`);
    return measureAb(ctx, { base, head }, run.pairs, run.seed).then((ab) => ({ ab }));
  },
  judge: ({ results, scenarios, base: side }) => {
    if (!side) throw new Error('A/B judged without its base side');
    const base = side.results;
    const comparisons: Comparison[] = results.scenarios.flatMap((h, i) =>
      unansweredOnBase(
        compareAbScenario(h, base[i] as ScenarioResult, scenarios[i]?.thresholds ?? {}),
        base[i] as ScenarioResult,
      ),
    );
    const info: AbInfo = { ...side.info, base };
    return {
      ...results,
      scenarios: results.scenarios.map((h, i) => ({
        ...h,
        baselineLatency: Object.fromEntries(
          (base[i] as ScenarioResult).phases.map((ph) => [ph.name, ph.merged.latency]),
        ),
      })),
      comparisons,
      ab: info,
    };
  },
  gates: true,
  records: false,
  report: 'comparison',
  trend: true,
  comments: true,
  validate: (config, pullRequests) =>
    config.target
      ? {
          mode: 'ab',
          line: 'not available with target (nothing to boot the base commit from)',
          problems: [],
          notes: [],
        }
      : judgedVerdict('ab', PAIRED, config, pullRequests),
};

/**
 * A phase the base side answered none of (a scenario new in head whose endpoint the base commit does
 * not have; the run refuses it for any other scenario): its rows have nothing to compare with.
 */
function unansweredOnBase(rows: Comparison[], base: ScenarioResult): Comparison[] {
  const none = new Map(
    base.phases.filter((p) => p.merged.successes === 0 && p.trials.length > 0).map((p) => [p.name, p] as const),
  );
  if (none.size === 0) return rows;
  return rows.map((c): Comparison =>
    none.has(c.phase)
      ? {
          scenario: c.scenario,
          phase: c.phase,
          metric: c.metric,
          baseline: null,
          current: c.current,
          delta: null,
          band: c.band,
          result: 'no-baseline',
          reason: 'the base commit answered none of its requests (a scenario new in head): nothing to compare',
        }
      : c,
  );
}

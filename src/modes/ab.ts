// ab: base (a git ref's tree) and head booted side by side and measured in interleaved pairs, in a
// seeded random order; each row judged on the paired differences. Needs no baselines.
import { compareAbScenario } from '../compare/ab.js';
import { PAIRED } from '../compare/judging.js';
import type { Thresholds } from '../config-parts/types.js';
import { limitBreach } from '../compare/compare.js';
import { isMetricName } from '../metrics/registry.js';
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
    const comparisons: Comparison[] = results.scenarios.flatMap((h, i) => {
      const rows = compareAbScenario(h, base[i] as ScenarioResult, scenarios[i]?.thresholds ?? {});
      const t = scenarios[i]?.thresholds ?? {};
      return side.fresh?.has(h.name) ? unansweredOnBase(rows, base[i] as ScenarioResult, t) : rows;
    });
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
 * A phase the base side answered none of, in a scenario new in head (its endpoint is not in the base
 * commit; the run refuses an unanswered phase of any other scenario): its relative rows have nothing
 * to compare with. A broken absolute limit is head's alone and stays a regression.
 */
function unansweredOnBase(rows: Comparison[], base: ScenarioResult, thresholds: Thresholds): Comparison[] {
  const none = new Set(base.phases.filter((p) => p.merged.successes === 0 && p.trials.length > 0).map((p) => p.name));
  if (none.size === 0) return rows;
  return rows.map((c): Comparison => {
    if (!none.has(c.phase)) return c;
    // the phase's own rows: a limit is judged on head alone (an entry's limits are its own: not here)
    const t = isMetricName(c.metric) ? thresholds[c.metric] : undefined;
    // (a generator-bound head's limits were judged on what its service answered: kept as they are)
    const breach =
      c.result === 'regression' &&
      /^(above the limit|below the minimum|the failed responses alone)/.test(c.reason ?? '')
        ? c.reason
        : t && isMetricName(c.metric) && !c.phase.includes('.') && !(c.reason ?? '').includes('generator-bound')
          ? limitBreach(c.metric, t, c.current)
          : undefined;
    const row = {
      scenario: c.scenario,
      phase: c.phase,
      metric: c.metric,
      baseline: null,
      current: c.current,
      delta: null,
      band: c.band,
    };
    return breach
      ? { ...row, result: 'regression', reason: breach }
      : {
          ...row,
          result: 'no-baseline',
          reason: 'the base commit answered none of its requests (a scenario new in head): nothing to compare',
        };
  });
}

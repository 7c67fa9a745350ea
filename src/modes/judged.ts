// What the two judging modes (gate and A/B) share: validate's verdict, from the reach check.
import type { Judging } from '../compare/judging.js';
import { budgetSaid, confirmationReach } from '../compare/reach.js';
import { detectableSaid } from '../compare/detectable.js';
import { gatedRowsSaid, wallTimeSaid } from '../compare/gated-rows.js';
import { withFamily } from '../compare/run-budget.js';
import type { Config } from '../config-parts/types.js';
import type { ModeVerdict, RunMode } from './mode.js';

type DetectableInput = Parameters<NonNullable<ModeVerdict['detectable']>>;

/** A gate's verdict on a config: refused when its bands could never be confirmed, else how it judges. */
export function judgedVerdict(mode: RunMode, judging: Judging, config: Config, pullRequests: RunMode): ModeVerdict {
  const scenarios = withFamily(config.scenarios, judging, config.gate.runAlpha);
  const reach = confirmationReach({ ...config, scenarios }, judging);
  // what the run will do with the config as it is: the defaults said, not a fixed string
  const family = scenarios.find((s) => s.family)?.family;
  const budget = family
    ? `; at most ${+(family.alpha * 100).toPrecision(3)}% of unchanged runs raise a band alarm (${budgetSaid(family)}, the rows of a phase tested together)`
    : config.gate.runAlpha === undefined
      ? '; each row at its own alpha (gate.run-alpha: off)'
      : '';
  const gated = gatedRowsSaid({ ...config, scenarios }, judging);
  const limitsOnly = gated.limitsOnly ? `, ${gated.limitsOnly} by an absolute limit only` : '';
  const bands =
    config.gate.bands === 'inform'
      ? `${gated.rows} rows: relative bands as information, absolute limits judged`
      : `${gated.rows} row${gated.rows === 1 ? '' : 's'} judged${limitsOnly}${budget}`;
  const usedBy = mode === pullRequests ? ' (pull requests, mode auto)' : '';
  const withCaps = scenarios.map((s) => {
    const cap = reach.caps.get(s.name);
    return cap === undefined ? s : { ...s, confirmCap: cap };
  });
  const time = wallTimeSaid({ ...config, scenarios: withCaps }, mode === 'ab' ? 'pairs' : 'trials');
  return {
    mode,
    line: `valid${usedBy}: ${bands}; ${time}`,
    problems: reach.problems,
    notes: reach.notes,
    rows: gated.lines,
    // what a baseline's spread lets each row catch: only where the rows are judged against baselines
    ...(judging.reference === 'baselines'
      ? {
          detectable: (baselines: DetectableInput[0], hashes: DetectableInput[1]) =>
            detectableSaid(scenarios, judging, reach.caps, baselines, hashes),
        }
      : {}),
  };
}

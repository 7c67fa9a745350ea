// Pure: the two ways a run's rows are judged, as data the modes name (src/modes/): each trial of head
// against a baseline's trials (Mann–Whitney), or base and head in interleaved pairs (signed ranks). What
// differs between them is here, so the reach check and `gate.bands: inform` read one object instead of
// asking which mode runs.
import type { Scenario, Thresholds } from '../config-parts/types.js';
import { AB_BUILTIN_THRESHOLDS, AB_DEFAULT_ALPHA } from './ab.js';
import { BUILTIN_THRESHOLDS, DEFAULT_ALPHA } from './compare.js';
import { smallestMannWhitneyP, smallestSignedRankP } from './confirm.js';
import { exactMannWhitney, exactSignedRank } from '../stats/joint.js';

/** How many samples a scenario's rows have at the first look, and what sets that number. */
export interface FirstLook {
  n: number;
  /** the config key that sets `n` */
  key: string;
  unit: 'trials' | 'pairs';
  /** " against a 5-trial baseline", or nothing (pairs) */
  against: string;
  /** the smallest p the test can give with k samples */
  smallestAt: (k: number) => number;
  /** whether a joint test of rows at k samples enumerates every labelling (else it samples them) */
  exactAt: (k: number) => boolean;
}

export interface Judging {
  /** what the measured side is judged against: committed baselines, or the base commit run beside it */
  reference: 'baselines' | 'base';
  /** the thresholds of a scenario that gives none */
  builtins: Thresholds;
  /** the alpha of a band that names none */
  defaultAlpha: number;
  firstLook(s: Scenario, index: number, pairs: number): FirstLook;
}

/** Head's trials against the baseline's (gate, and update for information). */
export const AGAINST_BASELINES: Judging = {
  reference: 'baselines',
  builtins: BUILTIN_THRESHOLDS,
  defaultAlpha: DEFAULT_ALPHA,
  firstLook: (s, i) => ({
    n: s.trials,
    key: `scenarios[${i}].trials`,
    unit: 'trials',
    against: ` against a ${s.trials}-trial baseline`,
    smallestAt: (k) => smallestMannWhitneyP(k, s.trials),
    exactAt: (k) => exactMannWhitney(k, s.trials),
  }),
};

/** Base and head in interleaved pairs (A/B). */
export const PAIRED: Judging = {
  reference: 'base',
  builtins: AB_BUILTIN_THRESHOLDS,
  defaultAlpha: AB_DEFAULT_ALPHA,
  firstLook: (_s, _i, pairs) => ({
    n: pairs,
    key: 'ab.pairs',
    unit: 'pairs',
    against: '',
    smallestAt: smallestSignedRankP,
    exactAt: exactSignedRank,
  }),
};

/** The thresholds a scenario is judged with: its own, or the built-in ones. */
export function judgedThresholds(s: Pick<Scenario, 'thresholds'>, judging: Judging): Thresholds {
  return Object.keys(s.thresholds).length > 0 ? s.thresholds : judging.builtins;
}

// Pure: a run's false-alarm budget (gate.run-alpha) laid on the scenarios it judges: how many gated
// phases share it (family.ts says how a phase's rows spend their share).
import type { Scenario } from '../config-parts/types.js';
import { judgedBand } from './band.js';
import type { Judging } from './judging.js';
import { gatedSets } from './reach.js';

/** The gated phases of the scenarios a run judges: each phase, and each of its entries, with a band. */
export function familyMembers(scenarios: readonly Scenario[], judging: Judging): number {
  return scenarios.reduce((sum, s) => {
    const judged = gatedSets(s, judging).filter((set) => Object.values(set).some(judgedBand)).length;
    return sum + s.phases.length * judged;
  }, 0);
}

/** The scenarios with the run's budget on each (undefined budget, or nothing gated: as they are). */
export function withFamily(scenarios: Scenario[], judging: Judging, runAlpha: number | undefined): Scenario[] {
  if (runAlpha === undefined) return scenarios;
  const members = familyMembers(scenarios, judging);
  if (members === 0) return scenarios;
  return scenarios.map((s) => ({ ...s, family: { alpha: runAlpha, members } }));
}

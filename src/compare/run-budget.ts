// Pure: a run's false-alarm budget (gate.run-alpha) laid on the scenarios it judges: how many gated
// phases share it (family.ts says how a phase's rows spend their share).
import type { Scenario, Threshold } from '../config/types.js';
import { protocolOf } from '../protocols/index.js';
import { hasBand } from './band.js';
import { type Judging, judgedThresholds } from './judging.js';

const banded = (set: Record<string, Threshold | undefined>) =>
  Object.values(set).some((t) => t !== undefined && hasBand(t) && !t.inform);

/** The gated phases of the scenarios a run judges: each phase, and each of its entries, with a band. */
export function familyMembers(scenarios: readonly Scenario[], judging: Judging): number {
  return scenarios.reduce((sum, s) => {
    const own = banded(judgedThresholds(s, judging)) ? 1 : 0;
    const entries = protocolOf(s.target)
      .entries(s.target)
      .filter((e) => banded(e.thresholds)).length;
    return sum + s.phases.length * (own + entries);
  }, 0);
}

/** The scenarios with the run's budget on each (undefined budget, or nothing gated: as they are). */
export function withFamily(scenarios: Scenario[], judging: Judging, runAlpha: number | undefined): Scenario[] {
  if (runAlpha === undefined) return scenarios;
  const members = familyMembers(scenarios, judging);
  if (members === 0) return scenarios;
  return scenarios.map((s) => ({ ...s, family: { alpha: runAlpha, members } }));
}

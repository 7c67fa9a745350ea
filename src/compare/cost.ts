// Pure: why a phase regressed, the first fork (issue 52): did a service spend more CPU per successful
// response (more work per request), or did none (waiting: a lock, a sleep, a slower dependency
// outside the stack, the network)? From the samples every trial already takes: each compose service's
// mean CPU over the trial's successful responses a second (metrics/registry.ts cpuPerSuccess), current
// trials against the baseline's (gate) or head's against base's pair by pair (A/B).
import type {
  BaselineFile,
  Comparison,
  PhaseCost,
  PhaseResult,
  ResultsFile,
  ScenarioResult,
  ServiceCost,
  TrialSummary,
} from '../results/types.js';
import { cpuPerSuccess, RUNNER_KEY } from '../metrics/registry.js';
import { mannWhitneyGreater } from '../stats/mann-whitney.js';
import { failing } from './accept.js';
import { quietPairs } from './busy.js';
import { median, medianInterval, signedRankGreater } from '../stats/wilcoxon.js';

/** A service "spent more CPU per request" when its change is at least this and its test says so. */
export const COST_ROSE = 0.1;
/** ... at this level (one-sided: Mann–Whitney over trials, signed-rank over pairs). */
export const COST_ALPHA = 0.05;
/** ... and its added CPU time a response is at least this share of the added mean latency: a service's
 * fixed cost a second spread over fewer responses (a slower phase serves fewer) is not more work. */
export const COST_SHARE = 0.25;

/** Each SUT service's CPU µs per successful response in a trial (services not sampled are left out). */
function perService(t: TrialSummary): Map<string, number> {
  const out = new Map<string, number>();
  for (const [service, usage] of Object.entries(t.resources)) {
    if (service === RUNNER_KEY || usage.samples === 0) continue;
    out.set(service, cpuPerSuccess([usage], t));
  }
  return out;
}

/** A phase's cost per request by service, this run's trials against the other side's; undefined where
 * no service was sampled on both sides. `paired`: trial i of each side is pair i (A/B). */
export function phaseCost(
  scenario: string,
  current: PhaseResult,
  other: PhaseResult,
  paired: boolean,
): PhaseCost | undefined {
  const now = current.trials.map(perService);
  const then = other.trials.map(perService);
  const services = [...new Set(now.flatMap((m) => [...m.keys()]))].filter((s) => then.some((m) => m.has(s)));
  // the latency a response gained, on average (µs): what more work per request would have to explain
  const added =
    current.merged.latency.count > 0 && other.merged.latency.count > 0
      ? current.merged.latency.mean - other.merged.latency.mean
      : undefined;
  const costs = services
    .map((service) => serviceCost(service, now, then, paired, added))
    .filter((c): c is ServiceCost => c !== undefined)
    .sort((a, b) => b.change - a.change);
  return costs.length > 0 ? { scenario, phase: current.name, services: costs } : undefined;
}

function serviceCost(
  service: string,
  now: ReadonlyArray<Map<string, number>>,
  then: ReadonlyArray<Map<string, number>>,
  paired: boolean,
  addedLatency: number | undefined,
): ServiceCost | undefined {
  const values = (side: ReadonlyArray<Map<string, number>>) =>
    side.map((m) => m.get(service)).filter((v): v is number => v !== undefined && v > 0);
  const after = values(now);
  const before = values(then);
  if (after.length === 0 || before.length === 0) return undefined;
  const base = { service, before: median(before), after: median(after) };
  // the share of the added latency the added CPU time accounts for (where latency rose)
  const share = addedLatency !== undefined && addedLatency > 0 ? (base.after - base.before) / addedLatency : undefined;
  const more = (change: number, pValue: number) =>
    change >= COST_ROSE && pValue <= COST_ALPHA && (share === undefined || share >= COST_SHARE);
  const said = share !== undefined ? { share } : {};
  if (paired) {
    const changes: number[] = [];
    for (let i = 0; i < Math.min(now.length, then.length); i++) {
      const a = now[i]?.get(service);
      const b = then[i]?.get(service);
      if (a !== undefined && b !== undefined && a > 0 && b > 0) changes.push(a / b - 1);
    }
    if (changes.length === 0) return undefined;
    const change = median(changes);
    const { low, high } = medianInterval(changes);
    const pValue = signedRankGreater(changes).pValue;
    return { ...base, ...said, change, interval: [low, high], pValue, rose: more(change, pValue) };
  }
  const change = base.after / base.before - 1;
  const pValue = mannWhitneyGreater(after, before).pValue;
  return { ...base, ...said, change, pValue, rose: more(change, pValue) };
}

/** A phase's key in failingPhases. */
export const phaseKey = (scenario: string, phase: string) => `${scenario}\u0000${phase}`;

/** The phases with a failing row (regression or inconclusive: an inconclusive row fails the check too),
 * by phaseKey; a mix entry's row (`phase.entry`) is its phase's (the entry has no resources of its own). */
export function failingPhases(comparisons: readonly Comparison[]): Set<string> {
  return new Set(comparisons.filter(failing).map((c) => phaseKey(c.scenario, c.phase.split('.')[0] as string)));
}

/**
 * The cost per request of every phase with a failing row (regression or inconclusive), this run's against the other side's
 * (`other`: the baseline's phase, or base's in A/B, where `base` is base's side and trial i of each
 * side is pair i).
 */
export function regressionCosts(
  results: ResultsFile,
  other: (scenario: string, phase: string) => PhaseResult | undefined,
  base: readonly ScenarioResult[] | undefined,
): PhaseCost[] {
  const paired = base !== undefined;
  const failed = failingPhases(results.comparisons);
  const out: PhaseCost[] = [];
  for (const s of results.scenarios) {
    for (const p of s.phases) {
      if (!failed.has(phaseKey(s.name, p.name))) continue;
      const then = other(s.name, p.name);
      // A/B: the pairs the verdict kept (a pair with a busy trial its repeats could not replace is left
      // out of its tests, and of these)
      const quiet =
        paired && base ? quietPairs(s.phases, base.find((b) => b.name === s.name)?.phases ?? [], p.name) : undefined;
      const cost =
        then &&
        (quiet ? phaseCost(s.name, quiet.keep(p), quiet.keep(then), paired) : phaseCost(s.name, p, then, paired));
      if (cost) out.push(cost);
    }
  }
  return out;
}

/** A judged results file with its regressed phases' costs (`costs`, absent when there are none): against
 * base's side where the run had one (A/B, pair by pair), else the baselines read. */
export function withCosts(
  results: ResultsFile,
  base: readonly ScenarioResult[] | undefined,
  baselines: ReadonlyMap<string, BaselineFile | undefined>,
): ResultsFile {
  const other = (scenario: string, phase: string) =>
    (base ? base.find((s) => s.name === scenario)?.phases : baselines.get(scenario)?.phases)?.find(
      (p) => p.name === phase,
    );
  const costs = regressionCosts(results, other, base);
  return costs.length > 0 ? { ...results, costs } : results;
}

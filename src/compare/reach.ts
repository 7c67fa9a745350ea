// Pure: what a config's trials can decide, checked before anything runs. A gate whose trials and
// confirmation cap together can never reach alpha cannot fail on a change (only on an absolute limit):
// that config is refused (exit 2, naming the keys). Weaker problems are notes `validate` prints: the
// configured trials alone cannot confirm (every row outside its band will need more trials), or a
// phase is too short for the percentiles it gates.
import { namedAndCounted } from '../common/named-and-counted.js';
import type { MetricName } from '../metrics/registry.js';
import {
  type Config,
  MAX_GROWN_CAP,
  type Scenario,
  type Threshold,
  type Thresholds,
  type Family,
} from '../config-parts/types.js';
import type { Phase } from '../runner-kit/plan.js';
import { protocolOf } from '../protocols/index.js';
import { rampSends } from '../runner-kit/ramp.js';
import { formatMs } from '../common/units.js';
import { hasBand } from './compare.js';
import { looksOf, spendAlpha } from './confirm.js';
import { jointReach, rowAlpha } from './family.js';
import { type Judging, judgedThresholds } from './judging.js';
import { samplesNeeded } from './metrics.js';

/** Every threshold set a scenario is gated with: its own (or the built-in ones), and its entries'. */
export function gatedSets(s: Scenario, judging: Judging): Thresholds[] {
  return [
    judgedThresholds(s, judging),
    ...protocolOf(s.target)
      .entries(s.target)
      .map((e) => e.thresholds),
  ];
}

/** A threshold set's rows with a relative band. */
function banded(set: Thresholds): Array<[MetricName, Threshold]> {
  return (Object.entries(set) as Array<[MetricName, Threshold]>).filter(([, t]) => hasBand(t));
}

/** The strictest alpha of the banded thresholds, or undefined when nothing is compared by a test. */
function strictestAlpha(
  rows: Array<[MetricName, Threshold]>,
  judging: Judging,
  family: Family | undefined,
): number | undefined {
  if (rows.length === 0) return undefined;
  return Math.min(...rows.map(([, t]) => rowAlpha(t, family, judging.defaultAlpha)));
}

const sig = (v: number) => +v.toPrecision(2);

/** "gate.run-alpha 0.01 over 12 gated phases": the run's budget as validate and the reach check say it */
export function budgetSaid(family: Family): string {
  return `gate.run-alpha ${family.alpha} over ${family.members} gated phase${family.members === 1 ? '' : 's'}`;
}

/** " (gate.run-alpha 0.01 over 12 gated phases)", or nothing without a run budget */
function budget(family: Family | undefined): string {
  return family ? ` (${budgetSaid(family)})` : '';
}

/** The metrics of the banded rows: "p50, p99, rps". */
function bandNames(rows: Array<[MetricName, Threshold]>): string {
  return [...new Set(rows.map(([m]) => m))].join(', ');
}

export interface Reach {
  /** the config cannot gate: exit 2 */
  problems: string[];
  /** worth knowing: `validate` prints them */
  notes: string[];
  /** scenarios whose confirmation cap grew beyond gate.confirm.max-trials: name → cap (the run sets
   * `Scenario.confirmCap` from it) */
  caps: Map<string, number>;
}

/** One set of rows a phase tests together (the scenario's thresholds, or an entry's), as the reach
 * check sees it: how many, and the strictest alpha they are tested at. */
interface RowSet {
  rows: Array<[MetricName, Threshold]>;
  alpha: number;
}

/** What a look at k trials (pairs) can give at best to a row of a set of `rows`: its own smallest p,
 * or, tested jointly under a run budget, what the joint test gives a row that moves alone. */
type Best = (k: number, rows: number) => number;

/** Whether every row of every set can reach its share when confirmation runs up to `cap`; else the
 * first set that cannot, with what its row gets at best and the alpha it needed. */
function shortfall(
  sets: RowSet[],
  n: number,
  cap: number,
  own: (k: number) => number,
  best: Best,
): { set: RowSet; at: number; p: number; needed: number } | undefined {
  const looks = looksOf(n, cap);
  for (const set of sets) {
    const spent = spendAlpha(set.alpha, looks, own(n));
    const at = looks.cap > looks.first ? looks.cap : looks.first;
    const needed = looks.cap > looks.first ? spent.final : spent.first;
    const p = best(at, set.rows.length);
    if (p > needed) return { set, at, p, needed };
  }
  return undefined;
}

/** The smallest cap above `from`, up to the key's bound (100), at which every row reaches; undefined
 * when none does. */
function reachingCap(
  sets: RowSet[],
  n: number,
  from: number,
  own: (k: number) => number,
  best: Best,
): number | undefined {
  for (let k = from + 1; k <= 100; k++) if (!shortfall(sets, n, k, own, best)) return k;
  return undefined;
}

/**
 * Whether each scenario's trials (A/B: `ab.pairs`) and `gate.confirm.max-trials` can reach its alpha,
 * for every row: under a run budget (gate.run-alpha) a phase's rows are tested jointly, and a row that
 * moves alone is charged for the others (compare/family.ts `jointReach`), so the check holds each set
 * of rows to what the verdict would give such a row. Where `gate.confirm.max-trials` is not given the
 * cap grows, scenario by scenario, to the smallest that reaches (at most MAX_GROWN_CAP); a scenario that
 * still cannot reach is a problem naming its rows, the gated phases and what would make them reach.
 * Against baselines the baseline is taken to have as many trials as the config asks for (what an
 * update run records).
 */
export function confirmationReach(config: Config, judging: Judging, pairs = config.ab.pairs): Reach {
  // scenarios alike (a config of dozens) say the same thing once, naming them: see `together`
  const problems: Said[] = [];
  const notes: Said[] = [];
  const caps = new Map<string, number>();
  const { maxTrials, grows } = config.gate.confirm;
  const inform = config.gate.bands === 'inform';
  config.scenarios.forEach((s, i) => {
    const perSet = gatedSets(s, judging)
      .map(banded)
      .filter((rows) => rows.length > 0);
    const allRows = perSet.flat();
    // relative bands as information: nothing to confirm, only absolute limits judge
    if (inform) {
      if (allRows.length > 0) {
        notes.push({
          name: s.name,
          text: `${SUBJECT}: the relative bands (${bandNames(allRows)}) are information (gate.bands: inform): shown, never failing; absolute limits and new error classes still fail the gate`,
        });
      }
      return;
    }
    if (perSet.length === 0) return;
    const setsAt = (family: Family | undefined): RowSet[] =>
      perSet.map((rows) => ({ rows, alpha: strictestAlpha(rows, judging, family) as number }));
    const sets = setsAt(s.family);
    const alpha = Math.min(...sets.map((set) => set.alpha));
    const first = judging.firstLook(s, i, pairs);
    const { n, key: countKey, unit, against } = first;
    const own = first.smallestAt;
    const best: Best = (k, rows) => (s.family ? jointReach(own(k), rows, first.exactAt(k)) : own(k));
    let cap = looksOf(n, maxTrials).cap;
    let missing = shortfall(sets, n, cap, own, best);
    // the cap `missing` was found at: the configured one, or the most it grows to
    let missingCap = cap;
    // where rows fall short at the cap: the cap that would reach, grown to where the key allows it,
    // else named in the refusal
    const reaching = missing ? reachingCap(sets, n, cap, own, best) : undefined;
    if (missing && grows && maxTrials > 0) {
      if (reaching !== undefined && reaching <= MAX_GROWN_CAP) {
        cap = reaching;
        missing = undefined;
        caps.set(s.name, cap);
        notes.push({
          name: s.name,
          text: `${SUBJECT}: confirmation runs up to ${cap} ${unit} (not ${maxTrials}): what ${s.family ? 'a row that moves alone needs to reach its share' : 'its rows need to reach p ≤ ' + sig(alpha)}${budget(s.family)}${against}; gate.confirm.max-trials sets the cap`,
        });
      } else if (cap < MAX_GROWN_CAP) {
        // grown as far as it goes: the refusal reports what the most it grows to gives
        missing = shortfall(sets, n, MAX_GROWN_CAP, own, best);
        missingCap = MAX_GROWN_CAP;
      }
    }
    if (missing) {
      // what the run's budget would need, by the same check at the same cap
      const reachesWith = (family: Family) => !shortfall(setsAt(family), n, missingCap, own, best);
      problems.push({
        name: s.name,
        key: countKey,
        text: refusal(s.family, missing, {
          countKey: KEY,
          unit,
          n,
          maxTrials,
          grows,
          against,
          reaching,
          ...(s.family ? budgetFixes(s.family, reachesWith) : {}),
        }),
      });
      return;
    }
    const spent = spendAlpha(alpha, looksOf(n, cap), own(n));
    if (spent.first === 0) {
      notes.push({
        name: s.name,
        text: `${SUBJECT}: ${n} ${unit} alone cannot reach p ≤ ${sig(alpha)}${budget(s.family)}${against} (the smallest p is ${sig(own(n))}); every row outside its band will run more ${unit}, up to ${cap} (gate.confirm.max-trials)`,
      });
    }
    for (const note of shortPhases(s, allRows)) notes.push({ text: note });
    if (cap > n)
      for (const note of slowCaps(s, n, cap, unit, config.gate.confirm.maxTimeMs)) notes.push({ text: note });
  });
  return { problems: together(problems), notes: together(notes), caps };
}

/** The problem of a scenario some row of which can never reach its share: the rows, the budget, and
 * what would make them reach (each figure enough on its own). */
function refusal(
  family: Family | undefined,
  missing: { set: RowSet; at: number; p: number; needed: number },
  c: {
    countKey: string;
    unit: 'trials' | 'pairs';
    n: number;
    maxTrials: number;
    grows: true | undefined;
    against: string;
    /** the smallest cap (up to 100) at which every row reaches, if any */
    reaching: number | undefined;
    /** the smallest gate.run-alpha (up to 0.5) and the most gated phases at which every row reaches */
    runAlpha?: number | undefined;
    phases?: number | undefined;
  },
): string {
  const { set, at, p, needed } = missing;
  const rows = set.rows.length;
  const { unit } = c;
  const why =
    family && rows > 1
      ? `tested together, a row that moves alone gets p ${sig(p)} at best at ${at} ${unit}, above ${sig(needed)}`
      : `the smallest p at ${at} is ${sig(p)}, above ${sig(needed)}`;
  // grown only where it could grow: a count at or beyond the most it grows to was not
  const grew = c.grows && Math.max(c.n, c.maxTrials) < MAX_GROWN_CAP;
  const capSaid = grew
    ? `gate.confirm.max-trials (${c.maxTrials}, grown as far as ${MAX_GROWN_CAP})`
    : `gate.confirm.max-trials (${c.maxTrials})`;
  const fixes: string[] = [];
  fixes.push(
    `raise ${c.countKey} or gate.confirm.max-trials${c.reaching !== undefined ? ` (max-trials ${c.reaching} reaches)` : ''}`,
  );
  // a threshold's own stricter alpha decides, not the run's budget: the budget cannot help
  const ownAlpha = family !== undefined && set.alpha < family.alpha / family.members;
  if (family && !ownAlpha) {
    if (c.runAlpha !== undefined) fixes.push(`raise gate.run-alpha (${c.runAlpha} reaches)`);
    if (c.phases !== undefined) fixes.push(`gate at most ${c.phases} phase${c.phases === 1 ? '' : 's'} with a band`);
  }
  if (ownAlpha) fixes.push(`raise the thresholds' own alpha (${sig(set.alpha)} decides here)`);
  if (family && rows > 1) fixes.push(`band fewer rows`);
  return `${c.countKey} (${c.n}) with ${capSaid}: ${OWNER} relative bands (${bandNames(set.rows)}) can never confirm a change at alpha ${sig(set.alpha)}${budget(family)}${c.against} (${why}); ${fixes.join(', ')}, or make the bands information: gate: { bands: inform } (absolute limits and new error classes still fail the gate)`;
}

/** gate.run-alpha's values the refusal may name: two significant digits, 0.0001 up to 0.5. */
const RUN_ALPHAS: number[] = [-4, -3, -2, -1]
  .flatMap((e) => Array.from({ length: 90 }, (_, i) => +((10 + i) * 10 ** (e - 1)).toPrecision(2)))
  .filter((a) => a <= 0.5);

/**
 * What the run's budget would need for a scenario's rows to reach, each on its own and by the reach
 * check itself (`reaches`, at the cap the refusal is about): the smallest gate.run-alpha of two
 * significant digits above the budget's (up to 0.5), and the most gated phases below its count (at
 * least one). Either is left out where none reaches. Scanned in order, not bisected: a larger share
 * can move the first look's half of it (spendAlpha), so reaching is not monotone in the share.
 */
export function budgetFixes(
  family: Family,
  reaches: (family: Family) => boolean,
): { runAlpha?: number; phases?: number } {
  const runAlpha = RUN_ALPHAS.find((a) => a > family.alpha && reaches({ ...family, alpha: a }));
  let phases: number | undefined;
  for (let m = family.members - 1; m >= 1 && phases === undefined; m--)
    if (reaches({ ...family, members: m })) phases = m;
  return { ...(runAlpha !== undefined ? { runAlpha } : {}), ...(phases !== undefined ? { phases } : {}) };
}

/** A line about one scenario: `name` fills SUBJECT ("scenario s") or OWNER ("scenario s's"). */
interface Said {
  name?: string;
  text: string;
  /** what KEY in the text stands for */
  key?: string;
}
const SUBJECT = '\u0000subject\u0000';
const OWNER = '\u0000owner\u0000';
/** a scenario's own key (`scenarios[3].trials`); scenarios alike name it without the index */
const KEY = '\u0000key\u0000';
/** names listed where scenarios share a line; the rest are counted */
const NAMED = 3;

/** Lines that differ only in their scenario's name, once, naming the first few: 60 scenarios alike
 * are one line, not 60. In the order each line first appears. */
export function together(said: readonly Said[]): string[] {
  const names = new Map<string, string[]>();
  const keys = new Map<string, string>();
  for (const { name, text, key } of said) {
    const list = names.get(text) ?? [];
    if (name !== undefined) list.push(name);
    names.set(text, list);
    if (key !== undefined && !keys.has(text)) keys.set(text, key);
  }
  return [...names].map(([text, list]) => {
    const many = list.length > 1;
    const listed = namedAndCounted(list, NAMED);
    const key = keys.get(text) ?? '';
    return text
      .replace(SUBJECT, many ? `scenarios ${listed}` : `scenario ${list[0]}`)
      .replace(OWNER, many ? `scenarios ${listed}, their` : `scenario ${list[0]}'s`)
      .replaceAll(KEY, many ? key.replace(/^scenarios\[\d+\]\./, '') : key);
  });
}

/** Successful responses a trial of `phase` will have at most, where the config says (open loop, a
 * request count); undefined where it depends on the service (closed loop for a duration). */
export function expectedSamples(phase: Phase): number | undefined {
  if (phase.kind === 'open') {
    return phase.ramp ? rampSends(phase.ramp, phase.durationMs) : Math.floor((phase.rate * phase.durationMs) / 1000);
  }
  if (phase.kind === 'closed') return phase.requests;
  return phase.peers * phase.messages;
}

/** Phases whose extra trials up to the cap would take longer than gate.confirm.max-time allows (where a
 * trial's time is known: a warm-up and a duration): the run lowers their cap to what fits, which may be
 * too few for a row moving alone to reach its share (it is then inconclusive). */
function slowCaps(s: Scenario, n: number, cap: number, unit: 'trials' | 'pairs', maxTimeMs: number): string[] {
  const out: string[] = [];
  for (const phase of s.phases) {
    const durationMs = phase.kind === 'ws' ? undefined : phase.durationMs;
    if (durationMs === undefined) continue;
    // A/B: a pair is a trial of each side
    const trialMs = (s.warmupMs + durationMs) * (unit === 'pairs' ? 2 : 1);
    const fits = Math.floor(maxTimeMs / trialMs);
    if (fits >= cap - n) continue;
    out.push(
      `scenario ${s.name}, phase ${phase.name}: gate.confirm.max-time (${formatMs(maxTimeMs)}) allows about ${fits} more ${unit} of ${formatMs(trialMs)}, fewer than the ${cap - n} up to its cap (${cap}); a change its rows could only confirm there would stay inconclusive — raise gate.confirm.max-time`,
    );
  }
  return out;
}

function shortPhases(s: Scenario, rows: Array<[MetricName, Threshold]>): string[] {
  const out: string[] = [];
  for (const phase of s.phases) {
    const expected = expectedSamples(phase);
    if (expected === undefined) continue;
    const tooShort = [...new Set(rows.map(([m]) => m))].filter((m) => samplesNeeded(m) > expected);
    if (tooShort.length === 0) continue;
    const need = Math.max(...tooShort.map(samplesNeeded));
    out.push(
      `scenario ${s.name}, phase ${phase.name}: at most ${expected} responses a trial, too few to gate ${tooShort.join(', ')} (needs ${need}); those rows will be invalid — lengthen the phase or gate a lower percentile`,
    );
  }
  return out;
}

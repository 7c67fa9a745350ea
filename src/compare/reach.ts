// Pure: what a config's trials can decide, checked before anything runs. A gate whose trials and
// confirmation cap together can never reach alpha cannot fail on a change (only on an absolute limit):
// that config is refused (exit 2, naming the keys). Weaker problems are notes `validate` prints: the
// configured trials alone cannot confirm (every row outside its band will need more trials), or a
// phase is too short for the percentiles it gates.
import { namedAndCounted } from '../common/named-and-counted.js';
import type { MetricName } from '../config/schema.js';
import type { Config, Phase, Scenario, Threshold, Thresholds } from '../config/types.js';
import { protocolOf } from '../protocols/index.js';
import { rampSends } from '../runner-kit/ramp.js';
import { hasBand } from './compare.js';
import { looksOf, spendAlpha, unreachable } from './confirm.js';
import { type Family, jointFloor, rowAlpha } from './family.js';
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

function banded(sets: Thresholds[]): Array<[MetricName, Threshold]> {
  return sets.flatMap((set) => (Object.entries(set) as Array<[MetricName, Threshold]>).filter(([, t]) => hasBand(t)));
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

const short = (v: number) => +v.toPrecision(2);

/** " (gate.run-alpha 0.01 over 12 gated phases)", or nothing without a run budget */
function budget(family: Family | undefined): string {
  return family ? ` (gate.run-alpha ${family.alpha} over ${family.members} gated phases)` : '';
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
}

/**
 * Whether each scenario's trials (A/B: `ab.pairs`) and `gate.confirm.max-trials` can reach its alpha.
 * Against baselines the baseline is taken to have as many trials as the config asks for (what an
 * update run records).
 */
export function confirmationReach(config: Config, judging: Judging, pairs = config.ab.pairs): Reach {
  // scenarios alike (a config of dozens) say the same thing once, naming them: see `together`
  const problems: Said[] = [];
  const notes: Said[] = [];
  const { maxTrials } = config.gate.confirm;
  const inform = config.gate.bands === 'inform';
  config.scenarios.forEach((s, i) => {
    const rows = banded(gatedSets(s, judging));
    // relative bands as information: nothing to confirm, only absolute limits judge
    if (inform) {
      if (rows.length > 0) {
        notes.push({
          name: s.name,
          text: `${SUBJECT}: the relative bands (${bandNames(rows)}) are information (gate.bands: inform): shown, never failing; absolute limits and new error classes still fail the gate`,
        });
      }
      return;
    }
    const alpha = strictestAlpha(rows, judging, s.family);
    if (alpha === undefined) return;
    const first = judging.firstLook(s, i, pairs);
    const { n, key: countKey, unit, against } = first;
    // rows tested together (gate.run-alpha) by a sampled permutation test cannot go below its resolution
    const smallestAt = (k: number) => (s.family ? Math.max(first.smallestAt(k), jointFloor) : first.smallestAt(k));
    const looks = looksOf(n, maxTrials);
    const why = unreachable(looks, alpha, smallestAt);
    if (why) {
      problems.push({
        name: s.name,
        text: `${countKey} (${n}) with gate.confirm.max-trials (${maxTrials}): ${OWNER} relative bands (${bandNames(rows)}) can never confirm a change at alpha ${short(alpha)}${budget(s.family)}${against} (${why}); raise ${countKey} or gate.confirm.max-trials${s.family ? ', raise gate.run-alpha' : ''}, or make the bands information: gate: { bands: inform } (absolute limits and new error classes still fail the gate)`,
      });
      return;
    }
    const spent = spendAlpha(alpha, looks, smallestAt(n));
    if (spent.first === 0) {
      notes.push({
        name: s.name,
        text: `${SUBJECT}: ${n} ${unit} alone cannot reach p ≤ ${short(alpha)}${budget(s.family)}${against} (the smallest p is ${short(smallestAt(n))}); every row outside its band will run more ${unit}, up to ${looks.cap} (gate.confirm.max-trials)`,
      });
    }
    for (const note of shortPhases(s, rows)) notes.push({ text: note });
  });
  return { problems: together(problems), notes: together(notes) };
}

/** A line about one scenario: `name` fills SUBJECT ("scenario s") or OWNER ("scenario s's"). */
interface Said {
  name?: string;
  text: string;
}
const SUBJECT = '\u0000subject\u0000';
const OWNER = '\u0000owner\u0000';
/** names listed where scenarios share a line; the rest are counted */
const NAMED = 3;

/** Lines that differ only in their scenario's name, once, naming the first few: 60 scenarios alike
 * are one line, not 60. In the order each line first appears. */
export function together(said: readonly Said[]): string[] {
  const names = new Map<string, string[]>();
  for (const { name, text } of said) {
    const list = names.get(text) ?? [];
    if (name !== undefined) list.push(name);
    names.set(text, list);
  }
  return [...names].map(([text, list]) => {
    const many = list.length > 1;
    const listed = namedAndCounted(list, NAMED);
    return text
      .replace(SUBJECT, many ? `scenarios ${listed}` : `scenario ${list[0]}`)
      .replace(OWNER, many ? `scenarios ${listed}, their` : `scenario ${list[0]}'s`);
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

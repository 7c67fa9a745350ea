// Pure: the report's one look at whether a run measured one side (gate, update: the run against its
// baselines) or two (A/B: head against base, in the same run). What the report says differently for
// A/B is here: the sides with their names, the words, and A/B's own parts (the line under the
// headline, the base's environment, the pair orders). src/report/markdown.ts reads this view and never
// `results.ab` itself.
import { markdownTable } from 'markdown-table';
import type { ResultsFile, ScenarioResult } from '../results/types.js';
import { capped } from './capped.js';
import { escapeMarkdown as esc } from './escape.js';

/** One measured side: `head` and `base` in A/B; the one side of any other run is named ''. */
export interface MeasuredSide {
  name: '' | 'head' | 'base';
  scenarios: ScenarioResult[];
}

export interface Sides {
  /** head then base in A/B; the one side otherwise */
  measured: MeasuredSide[];
  /** A/B's base: the scenarios head is compared with in the same run; undefined with one side */
  reference: ScenarioResult[] | undefined;
  /** the measured side's name where a line says whose figure it is ('head'), or '' with one side */
  current: '' | 'head';
  /** what a phase repeats */
  unit: 'pairs' | 'trials';
  /** after "no regression" in the headline */
  against: string;
  /** the comparison table's header */
  header: string[];
  /** the latency chart's legend, where there is a reference to draw */
  legend: string;
  /** the environment section's title */
  environmentTitle: string;
  /** the trials gate.busy repeated, as the busy line counts them */
  repeatedTrials: string;
  /** A/B's line under the headline: what head was compared with; undefined with one side */
  comparedWith: string | undefined;
  /** A/B's base side in the environment section (its ref, images, notes, what let both boot) */
  referenceLines: string[];
  /** A/B's pairs in the order they ran, with the seed; '' with one side or no orders */
  pairOrders: string;
}

const HEADER = ['scenario', 'phase', 'metric', 'baseline', 'current', 'Δ', 'band', 'result'];
const AB_HEADER = ['scenario', 'phase', 'metric', 'base', 'head', 'Δ [interval]', 'band', 'result'];

/** The sides of `results` as the report names them. */
export function sidesOf(results: ResultsFile): Sides {
  const ab = results.ab;
  if (!ab) {
    return {
      measured: [{ name: '', scenarios: results.scenarios }],
      reference: undefined,
      current: '',
      unit: 'trials',
      against: '',
      header: HEADER,
      legend: ' (bars: baseline, line: current)',
      environmentTitle: 'Environment and baselines',
      repeatedTrials: 'trials',
      comparedWith: undefined,
      referenceLines: [],
      pairOrders: '',
    };
  }
  const head = results.provenance.commit?.slice(0, 12) ?? 'workspace';
  const conf = results.comparisons.find((c) => c.confidence !== undefined)?.confidence;
  const order = ab.order === 'random' ? `each pair's order drawn at random, seed ${ab.seed ?? '?'}` : 'ABBA';
  const pairs = `${ab.pairs} interleaved pairs${ab.order === 'random' ? ' per phase, more where confirmation ran' : ''}`;
  const orders = (ab.orders ?? []).map((o) => [esc(o.scenario), esc(o.phase), o.order.join(' ')]);
  return {
    measured: [
      { name: 'head', scenarios: results.scenarios },
      { name: 'base', scenarios: ab.base },
    ],
    reference: ab.base,
    current: 'head',
    unit: 'pairs',
    against: ' against base',
    header: AB_HEADER,
    legend: ' (bars: base, line: head)',
    environmentTitle: 'Environment, head and base',
    repeatedTrials: "trials (either side's)",
    comparedWith: `Head \`${esc(head)}\` vs base \`${esc(ab.baseCommit.slice(0, 12))}\` (${esc(ab.baseRef)}), same run, ${pairs} (${order}): Δ is the median of per-pair changes${conf !== undefined ? `, [interval] its ${(conf * 100).toFixed(1)}% confidence interval` : ''}.`,
    referenceLines: [
      `- base ${esc(ab.baseRef)} at ${esc(ab.baseCommit)}`,
      ...Object.entries(ab.baseImages).map(
        ([svc, i]) => `- SUT (base) ${esc(svc)}: ${esc(i.image)} ${esc(i.digest ?? i.id)}`,
      ),
      ...ab.notes.map((n) => `- note: ${esc(n)}`),
      ...sideBySideLines(ab.sideBySide),
    ],
    pairOrders: orders.length
      ? [
          `Seed ${ab.seed ?? '?'} (\`perf-gate run --mode ab --seed ${ab.seed ?? '?'}\` draws the same orders). A = base, B = head.`,
          '',
          markdownTable([['scenario', 'phase', 'pairs in order'], ...orders]),
        ].join('\n')
      : '',
  };
}

/** What was changed so base and head could boot side by side: once when both sides agree, else per side;
 * at most ten lines a side (the rest are in the results file). */
function sideBySideLines(changes: { head: string[]; base: string[] } | undefined): string[] {
  if (!changes) return [];
  const same = changes.head.join('\n') === changes.base.join('\n');
  const lines = (label: string, l: string[]) =>
    capped(
      l.map((c) => `- side by side${label}: ${esc(c)}`),
      'changes',
    );
  return same ? lines('', changes.head) : [...lines(' (base)', changes.base), ...lines(' (head)', changes.head)];
}

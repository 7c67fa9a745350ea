// Pure: regressions accepted on purpose. A team that means a change to be slower says so with a reason
// (`--accept`, or a pull request comment `/perf-gate accept ROWS: REASON` from someone with write
// access, checked by the Action through the API); the rows it names that fail (regression, or
// inconclusive) become `accepted`, keep their values and p, and carry who accepted them and why. An
// accepted row does not fail the gate. What it names: `*` (every failing row), a scenario, a
// scenario/phase, or a scenario/phase and a metric (`api/c2 p99`).
import type { Comparison, ResultsFile, RowAcceptance } from '../results/types.js';

export interface Acceptance {
  /** `*`, `scenario`, `scenario/phase` or `scenario/phase metric` */
  rows: string;
  reason: string;
  /** who accepted: a GitHub login, or `--accept` */
  by: string;
}

/** The longest reason kept (a comment is anyone's text). */
export const MAX_REASON = 200;
/** The longest ROWS read: a scenario, a phase and a metric name. */
export const MAX_ROWS = 200;

/** The comment command, at the start of a line. */
const COMMAND = /^\/perf-gate\s+accept\b(.*)$/;

/**
 * `ROWS: REASON` as an acceptance by `by`, or the one line that says what is wrong with it. A reason is
 * required: an acceptance without one would read as a shrug in the report and the history.
 */
export function parseAcceptance(text: string, by: string): Acceptance | { problem: string } {
  const colon = text.indexOf(':');
  const rows = (colon < 0 ? text : text.slice(0, colon)).trim().replace(/\s+/g, ' ');
  const reason =
    colon < 0
      ? ''
      : text
          .slice(colon + 1)
          .trim()
          .replace(/\s+/g, ' ');
  if (!rows)
    return { problem: 'names no rows (ROWS: REASON; ROWS is *, a scenario, scenario/phase or scenario/phase metric)' };
  if (rows.length > MAX_ROWS) return { problem: `${rows.slice(0, 40)}…: more than ${MAX_ROWS} characters of rows` };
  if (!reason) return { problem: `${rows}: no reason (ROWS: REASON)` };
  if (rows !== '*' && !wellFormed(rows))
    return { problem: `${rows}: not *, a scenario, scenario/phase or scenario/phase metric` };
  return { rows, reason: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason, by };
}

/** `scenario`, `scenario/phase` or `scenario/phase metric`, each part non-empty. */
function wellFormed(rows: string): boolean {
  const [where = '', metric, ...more] = rows.split(' ');
  const segments = where.split('/');
  if (more.length > 0 || segments.length > 2 || segments.some((s) => s === '')) return false;
  return metric === undefined || segments.length === 2;
}

/** Every `/perf-gate accept` line of a comment's body, each parsed (a problem where it does not read). */
export function acceptanceLines(body: string, by: string): Array<Acceptance | { problem: string }> {
  const out: Array<Acceptance | { problem: string }> = [];
  for (const line of body.split(/\r?\n/)) {
    const m = COMMAND.exec(line.trim());
    if (m) out.push(parseAcceptance(m[1] ?? '', by));
  }
  return out;
}

/** Whether an acceptance names a row. */
export function names(a: Acceptance, c: Pick<Comparison, 'scenario' | 'phase' | 'metric'>): boolean {
  if (a.rows === '*') return true;
  const [where = '', metric] = a.rows.split(' ');
  const [scenario, phase] = where.split('/');
  return (
    scenario === c.scenario &&
    (phase === undefined || phase === c.phase) &&
    (metric === undefined || metric === c.metric)
  );
}

/** Whether a row's result fails the gate and so can be accepted. */
export function failing(c: Comparison): c is Comparison & { result: RowAcceptance['was'] } {
  return c.result === 'regression' || c.result === 'inconclusive';
}

export interface Accepted {
  comparisons: Comparison[];
  /** the acceptances that named no failing row (said as a warning: a typo, or a row that passed) */
  unused: Acceptance[];
}

/** The comparisons with each failing row that an acceptance names made `accepted` (the first naming it). */
export function acceptRows(comparisons: readonly Comparison[], acceptances: readonly Acceptance[]): Accepted {
  const out = comparisons.map((c) => {
    if (!failing(c)) return c;
    const a = acceptances.find((x) => names(x, c));
    if (!a) return c;
    const accepted: RowAcceptance = { by: a.by, reason: a.reason, was: c.result };
    return { ...c, result: 'accepted' as const, accepted };
  });
  // (one that names a failing row another acceptance carries is not unused: the row was accepted)
  const unused = acceptances.filter((a) => !comparisons.some((c) => failing(c) && names(a, c)));
  return { comparisons: out, unused };
}

/**
 * A results file's rows as measured, before anyone accepted them: what the fork flow's trusted half
 * does first with a fork's artifact, whose `accepted` rows are the fork's own word.
 */
export function withoutAcceptances(comparisons: readonly Comparison[]): Comparison[] {
  return comparisons.map((c) => {
    // (an acceptance on a row of another result is dropped too: it would still read as one)
    if (c.result !== 'accepted' && c.accepted === undefined) return c;
    const { accepted, ...rest } = c;
    return c.result === 'accepted' ? { ...rest, result: accepted?.was ?? 'regression' } : rest;
  });
}

/** A judged results file with its accepted rows, and a line for each acceptance that named no failing
 * row. */
export function acceptIn(
  results: ResultsFile,
  acceptances: readonly Acceptance[] | undefined,
): {
  results: ResultsFile;
  unused: string[];
} {
  if (!acceptances || acceptances.length === 0) return { results, unused: [] };
  const { comparisons, unused } = acceptRows(results.comparisons, acceptances);
  return {
    results: { ...results, comparisons },
    unused: unused.map((a) => `accept ${a.rows} (by ${a.by}): names no failing row`),
  };
}

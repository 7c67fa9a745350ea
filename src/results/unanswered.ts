// Pure: a target that is not there is not a pass (issue 20). A phase without a single successful
// response measured nothing: it is never a baseline and never a verdict. The run says so in one line,
// naming the URL and what came back instead.
import type { Scenario } from '../config-parts/types.js';
import { statusClass } from '../metrics/status.js';
import { failureKinds } from '../runner-kit/measurement.js';
import { protocolOf } from '../protocols/index.js';
import type { FailingRow, ScenarioResult } from './types.js';

/** The most frequent failure of a phase: an error kind or a failed status, with its count. */
function dominant(m: {
  statusCodes: Record<string, number>;
  errors: Record<string, number>;
  checks?: Record<string, number>;
}): string {
  const failures: Array<[string, number]> = [
    ...Object.entries(failureKinds(m)),
    ...Object.entries(m.statusCodes)
      .map(([code, n]): [string, number] => [statusClass(code) ?? code, n])
      .filter(([c]) => /^(HTTP|gRPC) /.test(c)),
  ].filter(([, n]) => n > 0);
  failures.sort((a, b) => b[1] - a[1]);
  const top = failures[0];
  return top ? `${top[0]} (${top[1]}×)` : 'no response at all';
}

/** The first phase (of a side, `side` naming it in A/B) without a successful response, in one line;
 * undefined when every phase had one. Mix entries are not checked on their own: an entry with no
 * share of the requests has none by design. */
export function unansweredPhase(
  results: readonly ScenarioResult[],
  scenarios: readonly Scenario[],
  side = '',
): string | undefined {
  for (const r of results) {
    const s = scenarios.find((x) => x.name === r.name);
    const url = s ? protocolOf(s.target).url(s.target) : '?';
    for (const p of r.phases.filter((x) => x.request === undefined)) {
      if (p.trials.length === 0 || p.merged.successes > 0) continue;
      const top = dominant(p.merged);
      // the service answered, and every answer failed the request's checks: the checks are the question
      const hint = top.startsWith('expect-')
        ? 'every answer failed the request’s expect checks (are they right?)'
        : /^(alpn-|h2-preface)/.test(top)
          ? `the server did not agree to HTTP/2 (request.http: 2): ${top.startsWith('alpn-') ? `TLS negotiated ${top.slice(5).replace(/ \(.*$/, '')} by ALPN` : 'it answered the HTTP/2 preface with something else'}`
          : 'is the URL right, and the service up?';
      return `${side}${r.name}/${p.name}: no successful response from ${url} in ${p.trials.length} trial${p.trials.length === 1 ? '' : 's'}: ${top}; nothing was measured (${hint})`;
    }
  }
  return undefined;
}

/** At least this share of a row's requests failed: "nearly every request" (SPEC §10). */
export const NEARLY_ALL_FAILED = 0.95;

/**
 * The phases, mix entries and flow steps (`phase.entry`) whose requests failed on nearly every request,
 * each in one line, and whether its scenario accepts that (`accept-failing`). An update records none
 * of them unless accepted: a baseline of a failing check would pass every later gate on itself.
 * Rows without a request (an entry with no share) are not failing.
 */
export function failingRows(results: readonly ScenarioResult[], scenarios: readonly Scenario[]): FailingRow[] {
  const out: FailingRow[] = [];
  for (const r of results) {
    const accepted = scenarios.find((x) => x.name === r.name)?.acceptFailing === true;
    for (const p of r.phases) {
      const m = p.merged;
      const errors = Object.values(m.errors).reduce((a, b) => a + b, 0);
      const attempts = m.successes + m.failures + errors;
      const failed = attempts - m.successes;
      if (attempts === 0 || failed < NEARLY_ALL_FAILED * attempts) continue;
      out.push({
        row: `${r.name}/${p.name}`,
        line: `${r.name}/${p.name}: ${failed} of ${attempts} requests failed, most as ${dominant(m)}`,
        ...(accepted ? { accepted: true as const } : {}),
      });
    }
  }
  return out;
}

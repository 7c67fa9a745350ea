// Pure: where in the code each failing phase's time went (sut.profile): per profiled service, the
// functions whose share of the profile rose most from base to head, and the profile files beside the
// results. Function and file names are the service's text: escaped here, bounded where recorded.
import { failingPhases, phaseKey } from '../compare/cost.js';
import type { ResultsFile } from '../results/types.js';
import { escapeMarkdown as esc } from './escape.js';

/** The functions a line names. */
const NAMED = 3;

const share = (v: number) => `${v < 0.1 ? (v * 100).toFixed(1) : Math.round(v * 100)}%`;

/** One line per failing phase and profiled service: its diff where both sides' profiles read, else
 * its files (or why there are none). */
export function profileLines(results: Pick<ResultsFile, 'comparisons' | 'profiles' | 'profileDiffs'>): string[] {
  const failing = failingPhases(results.comparisons);
  const records = (results.profiles ?? []).filter((r) => failing.has(phaseKey(r.scenario, r.phase)));
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    const id = `${phaseKey(r.scenario, r.phase)}\u0000${r.service}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const where = `${esc(r.scenario)}/${esc(r.phase)}, ${esc(r.service)}`;
    const mine = records.filter((x) => x.scenario === r.scenario && x.phase === r.phase && x.service === r.service);
    const files = mine
      .map(
        (x) =>
          `${x.side ? `${x.side} ` : ''}${x.file ? `\`${esc(x.file)}\`` : ''}${x.error ? ` (${esc(x.error)})` : ''}`,
      )
      .join(', ');
    const diff = (results.profileDiffs ?? []).find(
      (d) => d.scenario === r.scenario && d.phase === r.phase && d.service === r.service,
    );
    if (!diff) {
      lines.push(`- **profile of ${where}**: ${files}`);
      continue;
    }
    const risen = diff.functions
      .slice(0, NAMED)
      .map((f) => `${esc(f.name)} ${share(f.cum.base)} → ${share(f.cum.head)}`)
      .join('; ');
    const said = risen
      ? `the share of the samples (${esc(diff.sampleType)}) rose most under ${risen}`
      : 'no function took a larger share of the samples';
    lines.push(`- **where ${where}** (its profile, head against base): ${said}; files: ${files}`);
  }
  return lines;
}

// Pure: where in the code each failing phase's time went (sut.profile): per profiled service, the
// functions whose share of the profile rose most from base to head (in a gate run: from the profile
// the baseline kept to this run's), and the profile files (and the diff's flame graph). Function and file names are the service's text: escaped here, bounded where recorded.
import { failingPhases, phaseKey } from '../compare/cost.js';
import type { ResultsFile } from '../results/types.js';
import { escapeMarkdown as esc } from './escape.js';

/** The functions a line names. */
const NAMED = 3;

/** A file's path in a code span (no escape works there): the characters a profile's file name has
 * (src/profiles/record.ts), anything else replaced, bounded. */
const pathText = (file: string) => file.replace(/[^A-Za-z0-9_./-]/g, '_').slice(0, 300);

/** The longest line said (its names are bounded where recorded; a fork's file is not). */
const LINE_MAX = 2000;
const bounded = (line: string) => (line.length > LINE_MAX ? `${line.slice(0, LINE_MAX)}…` : line);

const share = (v: number) => `${v < 0.1 ? (v * 100).toFixed(1) : Math.round(v * 100)}%`;

/** One line per failing phase and profiled service: its diff where both sides' profiles read and the
 * service spent more CPU per request (or its cost is not known), else its files (or why there are
 * none). */
export function profileLines(
  results: Pick<ResultsFile, 'comparisons' | 'profiles' | 'profileDiffs' | 'costs'>,
): string[] {
  const failing = failingPhases(results.comparisons);
  const records = (results.profiles ?? []).filter((r) => failing.has(phaseKey(r.scenario, r.phase)));
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    const id = `${phaseKey(r.scenario, r.phase)}\u0000${r.service}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const where = `${esc(r.scenario)}/${esc(r.phase)}, ${esc(r.service)}`;
    // a side's one record each (a results file from a fork's artifact may hold any number)
    const mine = records
      .filter((x) => x.scenario === r.scenario && x.phase === r.phase && x.service === r.service)
      .slice(0, 2);
    const files = mine
      .map(
        (x) =>
          `${x.side ? `${x.side} ` : ''}${x.file ? `\`${pathText(x.file)}\`` : ''}${x.error ? ` (${esc(x.error)})` : ''}`,
      )
      .join(', ');
    const diff = (results.profileDiffs ?? []).find(
      (d) => d.scenario === r.scenario && d.phase === r.phase && d.service === r.service,
    );
    if (!diff) {
      lines.push(bounded(`- **profile of ${where}**: ${files}`));
      continue;
    }
    const drawn = diff.flame ? `, flame graph \`${pathText(diff.flame)}\`` : '';
    // the service spent no more CPU per request: its profile's shares move by noise, and naming a
    // function would send the reader to code that did no more work (waiting, not working)
    const cost = (results.costs ?? [])
      .find((c) => c.scenario === r.scenario && c.phase === r.phase)
      ?.services.find((x) => x.service === r.service);
    if (cost && !cost.rose) {
      lines.push(
        bounded(
          `- **where ${where}**: its CPU per request did not rise, so no function is named; files: ${files}${drawn}`,
        ),
      );
      continue;
    }
    const risen = diff.functions
      .slice(0, NAMED)
      .map((f) => `${esc(f.name)} ${share(f.cum.base)} → ${share(f.cum.head)}`)
      .join('; ');
    const said = risen
      ? `the share of the samples (${esc(diff.sampleType)}) rose most under ${risen}`
      : 'no function took a larger share of the samples';
    const against = diff.against === 'baseline' ? 'this run against the baseline' : 'head against base';
    lines.push(bounded(`- **where ${where}** (its profile, ${against}): ${said}; files: ${files}${drawn}`));
  }
  return lines;
}

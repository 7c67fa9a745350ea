// Pure: a list of report lines bounded, so notes never crowd out the verdict table.

/** At most `max` lines; the rest are counted in one last line that points to the results file. */
export function capped(lines: string[], what: string, max = 10): string[] {
  if (lines.length <= max) return lines;
  return [...lines.slice(0, max), `> … and ${lines.length - max} more ${what} (see the results file).`];
}

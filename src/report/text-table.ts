// Pure: a plain-text table with aligned columns (numbers right-aligned).
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,]+\s?[a-zµ%/A-Z]*$|^-$/.test(r[i] ?? '')),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

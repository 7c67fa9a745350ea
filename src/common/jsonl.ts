// Pure: JSONL text, one JSON value per non-empty line (request bodies, gRPC messages). `lineName`
// names a line in the error for one that is not JSON ("bodies.jsonl:3", "line 3").
export function parseJsonl(text: string, lineName: (n: number) => string): unknown[] {
  const values: unknown[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      values.push(JSON.parse(line));
    } catch {
      throw new Error(`${lineName(i + 1)}: not valid JSON`);
    }
  });
  return values;
}

/** The 1-based line numbers of JSONL text's values (its non-empty lines), in order: parseJsonl's
 * values skip the blank lines, a reader naming a value by its line in the file needs these. */
export function jsonlLineNumbers(text: string): number[] {
  return text.split(/\r?\n/).flatMap((line, i) => (line.trim() === '' ? [] : [i + 1]));
}

// Pure: "did you mean …?" for a word someone typed (a config key, a CLI option or command, a metric)
// among the words that are valid there. Edit distance with transpositions (optimal string alignment),
// case-insensitive; a suggestion must be close for the word's length, so a random word gets none.

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      let best = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[rows - 1] as number[])[cols - 1] as number;
}

/**
 * The candidate closest to `word`, when it is close enough: at most 1 edit for words of up to 4
 * characters, 2 up to 8, 3 beyond; or `word` is a prefix of it (`--conf` → `--config`). Ties go to
 * the candidate listed first.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const limit = w.length <= 4 ? 1 : w.length <= 8 ? 2 : 3;
  let best: { c: string; d: number } | undefined;
  for (const c of candidates) {
    const lc = c.toLowerCase();
    if (lc === w) return c;
    const d = w.length >= 3 && lc.startsWith(w) ? 1 : editDistance(w, lc);
    if (d <= limit && (best === undefined || d < best.d)) best = { c, d };
  }
  return best?.c;
}

/** " (did you mean X?)", or nothing. */
export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  quote: (s: string) => string = (s) => s,
): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : ` (did you mean ${quote(c)}?)`;
}

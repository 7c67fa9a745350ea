// Pure: a list in a line of text, bounded: the first few named, the rest counted.

/** Items in a line: at most `most` named ("a, b and 4 more"). */
export function namedAndCounted(items: readonly string[], most: number): string {
  const shown = items.slice(0, most).join(', ');
  return items.length > most ? `${shown} and ${items.length - most} more` : shown;
}

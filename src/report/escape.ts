// Pure: text from a results file (a fork's artifact in report mode), the config or the SUT made inert
// for the place it lands in a GitHub comment or job summary, and bounded in size. One helper per
// place: inline Markdown (table cells, headings, bullets), fenced code blocks, Mermaid labels.

/** The longest any one untrusted text may be once escaped (a name, a reason, a flag), characters. */
export const TEXT_LIMIT = 500;

/** `text` cut to `max` characters with an ellipsis. */
export function bounded(text: string, max = TEXT_LIMIT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Inline Markdown (a table cell, a heading, a bullet): one line, no HTML, no formatting, no mention,
 * at most TEXT_LIMIT characters. One argument only: it is passed to `map` as it is. */
export function escapeMarkdown(text: string): string {
  return bounded(text.replace(/[\r\n\u2028\u2029]+/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]|~#])/g, '\\$1')
    .replace(/@/g, '@\u200b');
}

/** The body of a fenced code block: no fence can end it early, and no mention reaches anyone. */
export function escapeCodeBlock(text: string): string {
  return text.replace(/`{3,}|~{3,}/g, (run) => run.split('').join('\u200b')).replace(/@/g, '@\u200b');
}

/** A Mermaid label or title (inside double quotes): a small safe alphabet, bounded; every chart
 * builder (the report's, the sweep's and the trend's) goes through it. */
export function mermaidText(text: string): string {
  return bounded(text.replace(/[^A-Za-z0-9 _.,:/()%+-]/g, '_'), 80);
}

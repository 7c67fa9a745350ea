// `${NAME}` in a request's text, shared by the host and the runner. The host fills a run's environment
// values into the runner's copy of the plan (src/config/env.ts); the runner fills the values its
// `setup` steps extracted (runner/src/setup.ts), the host having left those names, and every `$${`
// escape, for it. `$${` writes a literal `${`. Pure.

const PLACEHOLDER = /\$(\$?)\{([^}]*)\}/g;

/** What a name may be: letters, digits and _, not starting with a digit. */
export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The names a text refers to (escaped `$${…}` excluded), in order, repeats kept. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].filter((m) => m[1] === '').map((m) => m[2] as string);
}

/**
 * `text` with each `${name}` replaced by `value(name)`; a name it answers undefined for is left as
 * `${name}`. Values are inserted as they are, never read again. `keepEscapes`: `$${…}` stays escaped,
 * and `${` inside a value is escaped, for a second pass that fills the names left (the runner's);
 * without it `$${…}` becomes `${…}`.
 */
export function fillPlaceholders(
  text: string,
  value: (name: string) => string | undefined,
  keepEscapes = false,
): string {
  return text.replace(PLACEHOLDER, (all, escaped: string, name: string) => {
    if (escaped) return keepEscapes ? all : `\${${name}}`;
    const v = value(name);
    if (v === undefined) return all;
    // (a function: a replacement string would read `$$` as one `$`)
    return keepEscapes ? v.replaceAll('${', () => '$${') : v;
  });
}

// `${NAME}` in a request's text, shared by the host and the runner. The host fills a run's environment
// values into the runner's copy of the plan (src/config/env.ts); the runner fills the values its
// `setup` steps extracted (runner/src/setup.ts), the host having left those names for it. `$${` writes
// a literal `${`. Pure.
//
// With a setup, the text between the two passes is in a form of its own: every literal `$` doubled
// (from the config's text, from an environment value, from an escape), the names left for the runner
// as `${name}`. The runner's pass reads `$$` as `$`, so no `$` the host wrote can meet a `{` and be
// read again as a placeholder (a value ending in `$` before a literal `{token}`).

const PLACEHOLDER = /\$(\$?)\{([^}]*)\}/g;

/** The host's pass, written for the runner's: a placeholder, an escaped one, or any other `$`. */
const HOST_PASS = /\$(\$?)\{([^}]*)\}|\$/g;

/** The runner's pass over the host's form: a doubled `$` or a placeholder. */
const RUNNER_PASS = /\$\$|\$\{([^}]*)\}/g;

/** What a name may be: letters, digits and _, not starting with a digit. */
export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The names a text refers to (escaped `$${…}` excluded), in order, repeats kept. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].filter((m) => m[1] === '').map((m) => m[2] as string);
}

/** The names a text in the host's form (`'host'` below) refers to: `$$` there is a literal `$`. */
export function runnerPlaceholders(text: string): string[] {
  return [...text.matchAll(RUNNER_PASS)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

const doubled = (s: string): string => s.replaceAll('$', () => '$$');

/**
 * `text` with each `${name}` replaced by `value(name)`; a name it answers undefined for is left as
 * `${name}`. Values are inserted as they are, never read again. `pass`:
 * - `'only'` (no setup): `$${…}` becomes `${…}`; nothing reads the text again.
 * - `'host'`: the host's pass when a runner's follows: the result is in the runner's form (every
 *   literal `$` doubled, the names left as `${name}`).
 * - `'runner'`: reads the host's form: `$$` is `$`.
 */
export function fillPlaceholders(
  text: string,
  value: (name: string) => string | undefined,
  pass: 'only' | 'host' | 'runner' = 'only',
): string {
  // (functions as replacements: a replacement string would read `$$` as one `$`)
  if (pass === 'runner')
    return text.replace(RUNNER_PASS, (all, name: string | undefined) => {
      if (name === undefined) return '$';
      return value(name) ?? all;
    });
  if (pass === 'host')
    return text.replace(HOST_PASS, (all, escaped: string | undefined, name: string | undefined) => {
      if (name === undefined) return '$$';
      if (escaped) return doubled(`\${${name}}`);
      const v = value(name);
      return v === undefined ? all : doubled(v);
    });
  return text.replace(PLACEHOLDER, (all, escaped: string, name: string) => {
    if (escaped) return `\${${name}}`;
    return value(name) ?? all;
  });
}

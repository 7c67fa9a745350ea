// Every output behind one map (issue 32). The run, `perf-gate report` and the Action find a format here
// by name; none lists formats of its own.
import { usageError } from '../common/errors.js';
import { didYouMean } from '../text/did-you-mean.js';
import { csv } from './csv.js';
import { history } from './history.js';
import { html } from './html.js';
import { json } from './json.js';
import { junit } from './junit.js';
import { markdown } from './markdown.js';
import type { Output, OutputContext } from './output.js';
import { results } from './results.js';
import { terminal } from './terminal.js';

export type { Output, OutputContext } from './output.js';

/** Every output. Adding a format here is the one registration: its name is an OutputFormat. */
export const OUTPUTS = {
  results,
  markdown,
  json,
  junit,
  csv,
  history,
  terminal,
  html,
} as const satisfies Record<string, Output>;

/** A format's key in OUTPUTS. */
export type OutputFormat = keyof typeof OUTPUTS;

/** One output asked for: a format and where it goes. */
export interface OutputRequest {
  format: OutputFormat;
  path: string;
}

/** The context of an output printed on its own (`perf-gate report`, the terminal): no report id, no
 * history. */
export const STANDALONE: OutputContext = { reportId: '', history: undefined };

/** The format a name stands for (its own or another name), undefined for none. */
export function formatNamed(name: string): OutputFormat | undefined {
  const found = Object.entries(OUTPUTS).find(([, o]) => o.names.includes(name));
  return found?.[0] as OutputFormat | undefined;
}

/** Every name a format is asked for by, each format's own first. */
export function formatNames(): string[] {
  return Object.values(OUTPUTS).flatMap((o) => o.names);
}

/** `FORMAT=PATH` (`--out-format`, the Action's `out-format`) as a request; `what` names the option. */
export function parseOutFormat(text: string, what: string): OutputRequest {
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  const path = eq < 0 ? '' : text.slice(eq + 1);
  const format = formatNamed(name);
  if (!format) {
    throw usageError(
      `${what} ${text}: ${name ? `unknown format ${name}${didYouMean(name, formatNames())}` : 'no format'} (FORMAT=PATH; formats: ${Object.values(
        OUTPUTS,
      )
        .map((o) => o.names[0])
        .join(', ')})`,
    );
  }
  if (!path) throw usageError(`${what} ${text}: no path (FORMAT=PATH, e.g. ${name}=perf.${OUTPUTS[format].extension})`);
  return { format, path };
}

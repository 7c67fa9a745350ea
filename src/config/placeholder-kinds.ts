// Pure: one placeholder story (SPEC §10). `${NAME}` is a value known before the load starts: the
// environment's, or one a `setup` step extracted. `{{…}}` is a value made per request: a flow step's
// `{{name}}`, a data column's `{{data.COLUMN}}`, a function's `{{uuid()}}`. A name written in the other
// kind's braces, and a name no kind knows, is a mistake `validate` names before anything boots, with
// the spelling it most likely meant (Artillery writes setup values as `{{token}}`; a k6 user writes a
// flow value as `${id}`).
import { placeholders } from '../runner-kit/placeholders.js';
import { templateProblems } from '../runner-kit/template.js';
import { closest } from '../text/did-you-mean.js';
import type { Checked, Config, RequestSpec } from '../config-parts/types.js';
import { basename } from 'node:path';

/** `{{ name }}`: a bare name between double braces (a flow value's slot, or text sent as it is). */
const BARE_SLOT = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** What the names of one request's texts may be. */
interface Known {
  setup: ReadonlySet<string>;
  /** a flow's values (empty outside a flow) */
  flow: ReadonlySet<string>;
  /** the data file's columns (empty without one) */
  columns: readonly string[];
}

/** A `bodies` file's bodies, each with its line in the file (undefined: the file cannot be read or
 * parsed, which run's plan says). */
export type BodiesLines = (file: string) => ReadonlyArray<{ line: number; text: string }> | undefined;

/** The key a `bodies` file's line is named by: the `bodies` key, then where in the file. */
const BODIES_LINE = /\.bodies: line \d+ of /;

/** A request's texts, each with its key: what it sends, and what its checks compare with. */
function texts(r: RequestSpec, path: string, bodies?: BodiesLines): Array<[string, string]> {
  const e = r.expect;
  const file = r.bodiesFile;
  const lines = file !== undefined ? (bodies?.(file) ?? []) : [];
  return [
    [`${path}.url`, r.url],
    ...Object.entries(r.headers).map(([k, v]): [string, string] => [`${path}.headers.${k}`, v]),
    ...(r.body !== undefined ? [[`${path}.body`, r.body] as [string, string]] : []),
    // (the body's line in the file: a JSON string line is sent as its text, so counted among its bodies)
    ...lines.map((b): [string, string] => [`${path}.bodies: line ${b.line} of ${basename(file ?? '')}`, b.text]),
    ...(e?.body ?? []).map((b): [string, string] => [`${path}.expect.body`, b]),
    ...(e?.json ?? []).flatMap((c): Array<[string, string]> =>
      typeof c.equals === 'string' ? [[`${path}.expect.json`, c.equals]] : [],
    ),
  ];
}

/** What one request (a WebSocket or gRPC scenario: its connection) sends, by key, and the names it may
 * use. `templated`: keys whose own `{{…}}` names are the protocol's (a WebSocket message's `{{peer}}`),
 * not flow values: only their `${…}` are read. */
interface Source {
  path: string;
  texts: Array<[string, string]>;
  known: Known;
  templated?: ReadonlySet<string>;
  /** a bodies file's slots are read as run's plan reads them, against the data's columns (undefined:
   * the scenario has no data file); absent where they are not (not an HTTP scenario's, or its data
   * file's columns were not read) */
  slots?: { columns: readonly string[] | undefined };
}

/** Every request text of the config with its key and the names it may use: HTTP requests (setup's
 * too), a WebSocket scenario's URL, headers, hellos and message, a gRPC scenario's URL and metadata —
 * the texts run fills (runner-kit/fill.ts), and with `bodies` the lines of each `bodies` file. */
function sources(config: Checked, bodies?: BodiesLines): Source[] {
  const setup = new Set((config.setup ?? []).flatMap((s) => s.extract.map((e) => e.name)));
  const none = new Set<string>();
  const plain: Known = { setup, flow: none, columns: [] };
  const http = (path: string, request: RequestSpec, known: Known, slots?: Source['slots']): Source => ({
    path,
    texts: texts(request, path, bodies),
    known,
    ...(slots ? { slots } : {}),
  });
  const out = (config.setup ?? []).map((s, i) => http(`setup[${i}].request`, s.request, plain));
  config.scenarios.forEach((s, i) => {
    const t = s.target;
    const path = `scenarios[${config.at?.[i] ?? i}]`;
    const record = (at: string, r: Record<string, string>) =>
      Object.entries(r).map(([k, v]): [string, string] => [`${at}.${k}`, v]);
    if (t.kind === 'ws') {
      const w = t.websocket;
      const at = `${path}.websocket`;
      const hellos = w.hello.map((h, j): [string, string] => [`${at}.hello[${j}]`, h]);
      out.push({
        path: at,
        texts: [[`${at}.url`, w.url], ...record(`${at}.headers`, w.headers), ...hellos, [`${at}.message`, w.message]],
        known: plain,
        templated: new Set([`${at}.message`, ...hellos.map(([k]) => k)]),
      });
      return;
    }
    if (t.kind === 'grpc') {
      const at = `${path}.grpc`;
      out.push({
        path: at,
        texts: [[`${at}.url`, t.grpc.urlAsWritten], ...record(`${at}.metadata`, t.grpc.metadata)],
        known: plain,
      });
      return;
    }
    const known: Known = {
      setup,
      flow: t.flow ? new Set(t.flow.extract.flat().map((e) => e.name)) : none,
      columns: t.data?.columns ?? [],
    };
    // (a data file whose columns were not read, one that could not be, is said elsewhere)
    const slots = t.data && !t.data.columns ? undefined : { columns: t.data?.columns };
    if (t.flow) t.mix?.forEach((e, j) => out.push(http(`${path}.flow[${j}]`, e.request, known, slots)));
    else if (t.mix) t.mix.forEach((e, j) => out.push(http(`${path}.requests[${j}]`, e.request, known, slots)));
    else out.push(http(`${path}.request`, t.request, known, slots));
  });
  return out;
}

/** " (did you mean X?)" over every name the request may use, each written in its own kind's braces. */
function suggestion(name: string, known: Known): string {
  const spelled = new Map<string, string>([
    ...[...known.setup].map((n): [string, string] => [n, `\${${n}}`]),
    ...[...known.flow].map((n): [string, string] => [n, `{{${n}}}`]),
    ...known.columns.map((n): [string, string] => [n, `{{data.${n}}}`]),
  ]);
  const near = closest(name, spelled.keys());
  // a prefix (user → user_id) or another case is a name of its own, not a typo
  if (near === undefined || near.toLowerCase() === name.toLowerCase() || near.startsWith(name)) return '';
  return ` (did you mean ${spelled.get(near)}?)`;
}

/**
 * Each placeholder written in the wrong kind's braces, and each `{{name}}` in a flow that no step
 * extracts, as `key: message` lines. With `env` (validate, run): a `${NAME}` that is neither set there
 * nor extracted by a setup step, but close to a name that is, is a problem too (a typo); one close to
 * nothing is left to `unsetNames`. With `bodies`, the lines of each `bodies` file are read as a
 * `body` is (a line names its key, then its place in the file).
 */
export function placeholderKindProblems(
  config: Checked,
  env?: Readonly<Record<string, string | undefined>>,
  bodies?: BodiesLines,
): string[] {
  const problems: string[] = [];
  for (const { texts: sent, known, templated, slots, path } of sources(config, bodies)) {
    for (const [at, text] of sent) {
      // a bodies file's line: its slots read as run's plan reads them (data columns, functions), so
      // validate refuses what run would, naming the line
      if (slots && BODIES_LINE.test(at))
        for (const p of templateProblems(text, slots.columns)) problems.push(`${at}: ${p}`);
      // (a check's text is compared as it is: the environment fills only what is sent)
      for (const name of new Set(at.includes('.expect.') ? [] : placeholders(text))) {
        if (known.setup.has(name)) continue;
        if (known.flow.has(name))
          problems.push(
            `${at}: \${${name}} reads the environment, but ${name} is a value a flow step extracts: write {{${name}}}`,
          );
        else if (known.columns.includes(name))
          problems.push(
            `${at}: \${${name}} reads the environment, but ${name} is a data column: write {{data.${name}}}`,
          );
        else if (env !== undefined && env[name] === undefined && !/^[A-Z][A-Z0-9_]*$/.test(name)) {
          // (an upper-case name is an environment variable's by convention: set where the run runs)
          const hint = suggestion(name, known);
          if (hint)
            problems.push(`${at}: \${${name}} is not set in the environment and no setup step extracts it${hint}`);
        }
      }
      if (templated?.has(at)) continue;
      for (const m of new Set([...text.matchAll(BARE_SLOT)].map((x) => x[1] as string))) {
        if (known.flow.has(m)) continue;
        if (known.setup.has(m))
          problems.push(`${at}: {{${m}}} is sent as it is; ${m} is a value a setup step extracts: write \${${m}}`);
        else if (known.columns.includes(m))
          problems.push(`${at}: {{${m}}} is sent as it is; ${m} is a data column: write {{data.${m}}}`);
        else if (env?.[m] !== undefined && !at.endsWith('.body') && !BODIES_LINE.test(at) && !at.includes('.expect.'))
          problems.push(`${at}: {{${m}}} is sent as it is; ${m} is an environment variable: write \${${m}}`);
        else if (known.flow.size > 0 || path.includes('.flow['))
          problems.push(`${at}: {{${m}}} is not a value a step of the flow extracts${suggestion(m, known)}`);
      }
    }
  }
  return onceForBodies(problems);
}

/** A bodies file's problems, one line each however many of its bodies share it: the first, with how
 * many more lines say the same (a file of 10,000 bodies with one mistake each is one line). */
function onceForBodies(problems: string[]): string[] {
  const seen = new Map<string, { at: number; more: number }>();
  const out: string[] = [];
  for (const p of problems) {
    const m = /^(.*\.bodies): line \d+ of ([^:]+): (.*)$/.exec(p);
    if (!m) {
      out.push(p);
      continue;
    }
    const key = `${m[1]}\u0000${m[2]}\u0000${m[3]}`;
    const first = seen.get(key);
    if (first) first.more++;
    else {
      seen.set(key, { at: out.length, more: 0 });
      out.push(p);
    }
  }
  for (const { at, more } of seen.values())
    if (more > 0) out[at] = `${out[at]} (and ${more} more line${more === 1 ? '' : 's'} of the file)`;
  return out;
}

/** The `${NAME}`s no setup step extracts and `env` does not set, each once (run refuses them); with
 * `bodies`, those of the `bodies` files' lines too. */
export function unsetNames(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  bodies?: BodiesLines,
): string[] {
  const unset = new Set<string>();
  for (const { texts: sent, known } of sources(config, bodies))
    for (const [at, text] of sent)
      for (const name of at.includes('.expect.') ? [] : placeholders(text))
        if (!known.setup.has(name) && !known.flow.has(name) && !known.columns.includes(name) && env[name] === undefined)
          unset.add(name);
  return [...unset];
}

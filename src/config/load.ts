// Reads perf-gate.yml, validates the whole schema and returns a normalised Config, or throws a
// UserError (exit 2) listing one `key.path: problem` line per problem.
import { type BodiesLines, placeholderKindProblems } from './placeholder-kinds.js';
import { parseBodiesJsonl } from './bodies.js';
import { jsonlLineNumbers } from '../common/jsonl.js';
import type { ReadFs } from '../common/read-fs.js';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { usageError } from '../common/errors.js';
import { normalizeConfig } from './normalize.js';
import { readMessages } from '../config-parts/proto.js';
import { PROTOCOLS } from '../protocols/index.js';
import { K6_METRICS } from '../config-parts/k6-thresholds.js';
import { keysAt } from './known-keys.js';
import { locateProblems } from './lines.js';
import { configJsonSchema, configSchema } from './schema.js';
import { bareNumberHint, percentHint } from '../config-parts/schema-parts.js';
import { isMetricName, metricOf } from '../metrics/registry.js';
import { didYouMean } from '../text/did-you-mean.js';
import type { Checked, Config, Scenario } from '../config-parts/types.js';

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Keys users bring from k6 and autocannon that perf-gate spells, or places, otherwise. */
const ELSEWHERE: Record<string, string> = {
  timeout:
    "a request's own timeout is timeout under request (or a requests entry); request-timeout on the scenario or in defaults",
  amount: 'a fixed number of requests is a phase key: { connections: 10, requests: 5000 }',
  pipelining:
    'requests in flight per connection is a closed-loop phase key: { connections: 10, duration: 30s, pipelining: 4 }',
  vus: 'concurrent connections are a phase key: { connections: 10, duration: 30s }',
  streams: 'concurrent HTTP/2 streams per connection are a phase key: { connections: 2, duration: 30s, streams: 16 }',
  http: 'the HTTP version is a request key: request: { url: ..., http: 2 }',
  iterations: 'a fixed number of requests is a phase key: { connections: 10, requests: 5000 }',
  compose: 'the compose file goes under sut: sut: { compose: docker-compose.yml }',
  url: "a request's URL goes under request: request: { url: http://api:8080/items }",
  checks: 'checks of a response are request.expect: request: { url: …, expect: { status: 200, body: ok } }',
  check: 'checks of a response are request.expect: request: { url: …, expect: { status: 200, body: ok } }',
  expect: 'checks of a response are request.expect: request: { url: …, expect: { status: 200 } }',
  method: 'the method is a request key: request: { url: …, method: POST }',
  headers: 'headers are a request key: request: { url: …, headers: { authorization: Bearer … } }',
  body: 'the body is a request key: request: { url: …, body: { q: 1 } }',
  duration: 'a duration belongs to a phase: phases: [{ connections: 10, duration: 30s }]',
  connections: 'connections belong to a phase: phases: [{ connections: 10, duration: 30s }]',
  rate: 'a rate belongs to a phase: phases: [{ rate: 500, duration: 30s }]',
};

/** A value of the wrong kind that a user means one way: what it is read as, and how to write it. */
function shapeHint(path: ReadonlyArray<PropertyKey>, value: unknown): string | undefined {
  const last = path.at(-1);
  const text = typeof value === 'string' ? value : undefined;
  if (path.length === 2 && path[0] === 'sut' && last === 'ready' && text !== undefined) {
    return `must be a list of probes, like ready: [{ url: ${text} }]`;
  }
  if (last === 'request' && text !== undefined) {
    return `must be a mapping, like request: { url: ${text} } (method, headers and body go beside url)`;
  }
  if (last === 'phases' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return 'must be a list of phases, like phases: [{ connections: 10, duration: 30s }]';
  }
  // k6's object form of a threshold: { threshold: "p(95)<500", abortOnFail: true }
  if (
    typeof last === 'number' &&
    path.at(-3) === 'thresholds' &&
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { threshold?: unknown }).threshold === 'string'
  ) {
    const expr = (value as { threshold: string }).threshold;
    return `k6's object form { threshold, abortOnFail } is not read: write the expression alone, ${JSON.stringify(expr)} (perf-gate does not abort a run on a threshold)`;
  }
  return undefined;
}

/** The rules whose value is in the metric's own unit (a band's floor and the absolute limits). */
const LIMIT_RULES = new Set(['floor', 'below', 'above', 'max', 'min']);

/** Rules written as bare numbers: `regress: 25` (or 0.25) has no unit; perf-gate reads a percentage. */
function unitlessRules(data: unknown, path: ReadonlyArray<PropertyKey>): string[] {
  const rules = valueAt(data, path);
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) return [];
  const out: string[] = [];
  for (const [rule, v] of Object.entries(rules as Record<string, unknown>)) {
    if (typeof v !== 'number') continue;
    const at = formatPath([...path, rule]);
    // a value's unit is its metric's (the metric registry says which): a bare number is right for a count
    const metric = String(path.at(-1));
    const unit = isMetricName(metric) ? metricOf(metric).unit : 'latency';
    const hint = rule === 'regress' ? percentHint(v) : LIMIT_RULES.has(rule) ? bareNumberHint(unit, v) : undefined;
    if (hint) out.push(`${at}: ${hint}`);
  }
  return out;
}

/** What follows "unknown key": the key meant, when one is close, and the keys valid there. */
function unknownKeyHint(key: string, path: ReadonlyArray<PropertyKey>, schema: object): string {
  const known = keysAt(schema, path);
  if (known.length === 0) return '';
  if (known.includes('p99')) {
    // a map of metrics: p97 is one edit from p90, p95 and p99 alike; a list helps, a guess would not
    const k6 = known.filter((k) => k in K6_METRICS);
    const ours = known.filter((k) => !(k in K6_METRICS));
    return ` (metrics: ${ours.join(', ')}, or any percentile like p97.5 or p99.99${k6.length ? `; k6 metrics: ${k6.join(', ')}` : ''})`;
  }
  const elsewhere = ELSEWHERE[key];
  if (elsewhere && !known.includes(key)) return ` (${elsewhere})`;
  const meant = didYouMean(key, known);
  if (meant) return meant;
  return known.length <= 16 ? ` (keys here: ${known.join(', ')})` : '';
}

/** A mapping given as text: the threshold a k6 user writes as a string, above all. */
function stringForMapping(path: ReadonlyArray<PropertyKey>): string | undefined {
  if (path.at(-2) === 'thresholds' || (path.at(-1) === 'thresholds' && path.length > 1)) {
    return path.at(-1) === 'thresholds'
      ? 'must be a mapping of metric to rules, like { p99: { regress: 10%, floor: 1ms, below: 50ms } }'
      : 'must be a mapping of rules, like { regress: 10%, floor: 1ms, below: 50ms } (regress and floor: the band against the baseline; below/max, min: absolute limits)';
  }
  return undefined;
}

/** The value at `path` in the parsed YAML (undefined where the file has none). */
function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = data;
  for (const part of path)
    v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[part] : undefined;
  return v;
}

export function formatIssues(
  issues: ReadonlyArray<z.core.$ZodIssue>,
  data?: unknown,
  schema: object = configJsonSchema(),
): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        lines.push(`${formatPath([...issue.path, key])}: unknown key${unknownKeyHint(key, issue.path, schema)}`);
      }
      continue;
    }
    const at = formatPath(issue.path);
    // a mapping's key that fails its rule: the rule's own words, not zod's "Invalid key in record"
    let message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    // a key the file does not have: zod says so only where no message of ours replaced its own
    const missing =
      /received undefined/.test(message) || (data !== undefined && valueAt(data, issue.path) === undefined);
    const value = data === undefined ? undefined : valueAt(data, issue.path);
    const unitless = data === undefined ? [] : unitlessRules(data, issue.path);
    if (unitless.length > 0) {
      lines.push(...unitless);
      continue;
    }
    const shape = missing ? undefined : shapeHint(issue.path, value);
    // a key that is a mapping or a word (gate.busy: { others: 50 } or off): where the file holds a
    // mapping and nothing above says more, the mapping's own problems, not the union's one line
    const inner = shape === undefined ? mappingBranch(issue, data) : undefined;
    if (inner) {
      lines.push(...formatIssues(inner, data, schema));
      continue;
    }
    if (issue.code === 'invalid_type' && missing) message = 'is required';
    else if (shape !== undefined) message = shape;
    else if (issue.code === 'invalid_type' && issue.expected === 'object')
      message = stringForMapping(issue.path) ?? message;
    // zod's own words name a JavaScript type: say what the file holds instead
    message = message.replace(
      /^Invalid input: expected (\w+), received (\w+)$/,
      (_m, want: string, got: string) => `must be ${ARTICLE[want] ?? want}, not ${ARTICLE[got] ?? got}`,
    );
    lines.push(`${at || '(top level)'}: ${message}`);
  }
  return [...new Set(lines)];
}

/** An either-or key's problems as its mapping branch sees them, where the file holds a mapping there. */
function mappingBranch(issue: z.core.$ZodIssue, data: unknown): z.core.$ZodIssue[] | undefined {
  if (issue.code !== 'invalid_union' || data === undefined) return undefined;
  const value = valueAt(data, issue.path);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  // the branch whose problems are inside the mapping (the word's branch fails at its root)
  const branch = issue.errors.find((errs) => errs.length > 0 && errs.every((e) => e.path.length > 0));
  return branch?.map((e) => ({ ...e, path: [...issue.path, ...e.path] }) as z.core.$ZodIssue);
}

const ARTICLE: Record<string, string> = {
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

/** What to do about a YAML syntax error, by the parser's code. */
const YAML_HINTS: Record<string, string> = {
  BAD_INDENT: "check this key's indentation: the keys of one mapping start at the same column",
  MULTIPLE_DOCS: 'the file holds more than one YAML document (a --- line): keep one',
  BLOCK_IN_FLOW: 'if a value holds ": ", quote it: "Bearer: abc"',
  NESTED_MAPPING_IN_COMPACT: 'if a value holds ": ", quote it: "Bearer: abc"',
  MISSING_CHAR: 'a bracket or quote is not closed',
  TAB_AS_INDENT: 'indent with spaces, not tabs',
  DUPLICATE_KEY: 'a key is given twice in one mapping',
};

/** One YAML syntax error as one line: where, what (the parser's words without its own location), and
 * what to do. A file nested deeper than the parser can follow is said so, once. */
function yamlProblem(e: { code: string; message: string; linePos?: Array<{ line: number; col: number }> }): string {
  const pos = e.linePos?.[0];
  const where = pos ? `line ${pos.line}, column ${pos.col}` : 'YAML';
  if (/Maximum call stack/i.test(e.message)) return `${where}: YAML nested too deeply to read`;
  const words = (e.message.split('\n')[0] ?? '')
    .replace(/ at line \d+, column \d+:?$/, '')
    .replace(/; please use YAML\.parseAllDocuments\(\)/, '');
  const hint =
    YAML_HINTS[e.code] ??
    (/Nested mappings are not allowed/.test(words) ? YAML_HINTS.NESTED_MAPPING_IN_COMPACT : undefined);
  return `${where}: ${words}${hint ? ` (${hint})` : ''}`;
}

/** Parses and validates config text; pure but for the path resolver passed in. With problems, `partial`
 * is what could be read of the setup steps and scenarios (their texts are checked in the same pass), and
 * `pruned` the whole config without the keys the schema refused, where it reads without other problems
 * (what validate checks the compose project against in the same pass). */
export function parseConfigText(
  text: string,
  file: string,
  resolvePath: (relative: string) => string,
): { config?: Config; problems: string[]; partial?: Checked; pruned?: Config } {
  // `<<: *anchor` merges as compose reads it (YAML 1.1's merge key)
  const doc = parseDocument(text, { merge: true });
  if (doc.errors.length > 0) {
    const problems = [...new Set(doc.errors.map(yamlProblem))];
    // a file nested past the parser's depth fails at every level: once is enough
    const deep = problems.findIndex((p) => p.endsWith('YAML nested too deeply to read'));
    return { problems: deep >= 0 ? [problems[deep] as string] : problems.slice(0, 10) };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // an alias bomb (a billion laughs) and the like: the file's problem, not an internal error
    return { problems: [`YAML: ${(err as Error).message.split('\n')[0]}`] };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { problems: ['(top level): must be a mapping with version, sut (or target) and scenarios'] };
  }
  withoutExtensions(data as Record<string, unknown>);
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) {
    const problems = formatIssues(parsed.error.issues, data);
    // all in one pass: the config without the keys the schema refused (unknown ones, and values of
    // the wrong kind or out of range) is checked on (what a phase's values mean together, names used
    // twice, placeholders, ...), so fixing one round does not reveal the next. A problem of a list's
    // entry, or of a key the config needs, leaves nothing to check on without it: said alone.
    if (!parsed.error.issues.every(removable)) return { problems };
    const pruned = structuredClone(data);
    const parents = new Set<string>();
    const refused: string[] = [];
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) deleteAt(pruned, [...issue.path, key]);
        parents.add(formatPath(issue.path));
      } else {
        deleteAt(pruned, issue.path);
        parents.add(formatPath(issue.path.slice(0, -1)));
        // a refused value may be what the scenario's texts read (its data file, a step): the
        // placeholder check leaves its scenario (or, in setup, every scenario) alone; a scenario's
        // own count or duration changes none of its texts
        if (readByTexts(issue.path)) refused.push(formatPath(issue.path));
      }
    }
    const again = configSchema.safeParse(pruned);
    if (!again.success) return { problems };
    // what only the removal caused is not said: a problem of the mapping that held the key (a scenario
    // without its misplaced url), or a key required beside it (sut, when compose: was written above it)
    const caused = (line: string) => {
      const at = line.slice(0, line.indexOf(': '));
      return parents.has(at) || (parents.has(parentPath(at)) && line.slice(at.length + 2).startsWith('is required'));
    };
    const read = normalizeConfig(again.data, file, dirname(file), resolvePath);
    const semantic = read.problems.filter((l) => !caused(l));
    const partial = untouched(read.config ?? read.partial, [...parents, ...refused]);
    // the compose project is checked against the pruned config only where nothing of what it reads was
    // pruned (sut's files, env and ready, gate.against, target): a misspelt sut key would check another
    // project, or the project without its variables
    const project = [...parents].some((p) => /^(sut|gate|target)(\.|\[|$)/.test(p));
    return {
      problems: [...problems, ...semantic],
      ...(partial ? { partial } : {}),
      ...(read.config && !project ? { pruned: read.config } : {}),
    };
  }
  return normalizeConfig(parsed.data, file, dirname(file), resolvePath);
}

/**
 * What the placeholder story may read of a config an unknown key was removed from: not a scenario with
 * one inside it, nor any scenario when a setup step held one (a step's misspelt `extract` would make
 * every use of its values look unknown), so that only what the author wrote is said.
 */
function untouched(read: Checked | undefined, parents: string[]): Checked | undefined {
  // an unknown key of the scenario itself or of a phase (k6's `vus`) changes none of its texts; one
  // inside what its texts come from (a request's, a step's) may, and so may a refused value there
  // (whose path is among `parents`)
  if (!read || parents.some((p) => p === 'setup' || p.startsWith('setup['))) return undefined;
  // by place in the file (names may repeat): a full config's scenarios stand where they are written
  const at = read.at ?? read.scenarios.map((_, k) => k);
  const kept = read.scenarios.flatMap((s, k) => (parents.some((p) => holdsTexts(p, at[k] as number)) ? [] : [k]));
  return {
    ...read,
    scenarios: kept.map((k) => read.scenarios[k] as Scenario),
    at: kept.map((k) => at[k] as number),
  };
}

/** `x-` keys (compose's extension fields, a home for YAML anchors) at the top level and in each
 * scenario are the author's own: dropped before the schema reads the rest. */
function withoutExtensions(data: Record<string, unknown>): void {
  const drop = (o: unknown) => {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) return;
    for (const k of Object.keys(o)) if (k.startsWith('x-')) delete (o as Record<string, unknown>)[k];
  };
  drop(data);
  if (Array.isArray(data.scenarios)) for (const s of data.scenarios) drop(s);
}

/** Whether a schema problem goes away with one key removed: an unknown key, or a mapping's key whose
 * value is refused (a list's entry would shift the ones after it). Not what the SUT is (`sut`,
 * `target`): without it the rest reads otherwise (every path URL would want a target). */
function removable(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'unrecognized_keys') return true;
  const [top] = issue.path;
  return typeof issue.path.at(-1) === 'string' && top !== 'sut' && top !== 'target';
}

/** A scenario's keys its texts (or the names they may use) come from. */
const TEXT_KEYS = new Set(['data', 'flow', 'request', 'requests', 'websocket', 'grpc', 'hook']);

/** Whether `path` (a mapping an unknown key was in, or a refused value) is scenario `i`'s key its texts
 * come from (`request`, `flow`, ...) or inside it. */
function holdsTexts(path: string, i: number): boolean {
  const prefix = `scenarios[${i}].`;
  return path.startsWith(prefix) && TEXT_KEYS.has(/^[^.[]+/.exec(path.slice(prefix.length))?.[0] ?? '');
}

/** Whether a refused value at `path` may change what the placeholder check reads: anything in setup,
 * and a scenario's key its texts come from or anything inside it (not a phase's count or duration). */
function readByTexts(path: ReadonlyArray<PropertyKey>): boolean {
  if (path[0] === 'setup') return true;
  return path[0] === 'scenarios' && TEXT_KEYS.has(String(path[2]));
}

/** The path of the mapping or list holding `path`'s last key or index (`a.b[2]` → `a.b`, `a` → ``). */
function parentPath(path: string): string {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  return cut < 0 ? '' : path.slice(0, cut);
}

/** Deletes the key at `path` of `data` (a path of mapping keys and list indexes), if it is there. */
function deleteAt(data: unknown, path: ReadonlyArray<PropertyKey>): void {
  let at: unknown = data;
  for (const k of path.slice(0, -1)) {
    if (at === null || typeof at !== 'object') return;
    at = (at as Record<PropertyKey, unknown>)[k];
  }
  if (at !== null && typeof at === 'object') delete (at as Record<PropertyKey, unknown>)[path.at(-1) as PropertyKey];
}

/** A resolver that keeps config paths inside the workspace and requires the files to exist. */
export function workspaceResolver(baseDir: string, workspace: string, fs: ReadFs): (relative: string) => string {
  const root = fs.realpath(workspace);
  return (rel: string) => {
    const abs = resolve(baseDir, rel);
    if (!fs.exists(abs)) throw new Error(`file not found: ${rel} (looked at ${abs})`);
    const real = fs.realpath(abs);
    const inside = relative(root, real);
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      throw new Error(`${rel} resolves outside the workspace ${root}; perf-gate reads nothing outside it`);
    }
    if (!fs.isFile(real)) throw new Error(`${rel} is not a file`);
    return real;
  };
}

/** The repository root at or above `dir` (the nearest directory with .git), or undefined outside one. */
export function repositoryRoot(dir: string, exists: (p: string) => boolean): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (exists(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** The workspace config paths must stay inside: the Action's checkout, or where perf-gate was started. */
export function defaultWorkspace(env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  return env.GITHUB_WORKSPACE || cwd;
}

/** A `bodies` file's lines as `fs` reads them; undefined where it cannot be read or parsed (run's plan
 * and validate's runnable check refuse it, naming the file). */
export function bodiesLines(fs: ReadFs): BodiesLines {
  return (file) => {
    try {
      const text = fs.readText(file);
      const lines = jsonlLineNumbers(text);
      return parseBodiesJsonl(text, file).map((body, i) => ({ line: lines[i] as number, text: body }));
    } catch {
      return undefined;
    }
  };
}

/**
 * The config file, read and checked as `run` and `validate` read it (exit 2 with every problem). With
 * `env` (the run's environment), a `${NAME}` set nowhere but close to a name that is, is one of them.
 */
export function loadConfig(
  file: string,
  workspace: string,
  fs: ReadFs,
  env?: Readonly<Record<string, string | undefined>>,
): Config {
  const read = readConfig(file, workspace, fs, env);
  if (!read.config || read.problems.length > 0) throw configProblems(file, read.text, read.problems);
  return read.config;
}

/** Exit 2 with every problem, each at its line of `text`. */
export function configProblems(file: string, text: string, problems: readonly string[], what = 'in the config') {
  return usageError(
    `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} ${what}`,
    locateProblems(text, file, [...problems]).map((p) => `  ${p}`),
  );
}

/**
 * The config file read and checked, its problems returned rather than thrown: `config` when it has
 * none, and with some, the config to check further in the same pass where one could be read (`usable`:
 * what the problems left untouched, the compose project's hosts and sut among it).
 */
export function readConfig(
  file: string,
  workspace: string,
  fs: ReadFs,
  env?: Readonly<Record<string, string | undefined>>,
): { text: string; problems: string[]; config?: Config; usable?: Config } {
  const abs = resolve(file);
  let text: string;
  try {
    text = fs.readText(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(`config file ${file}: ${code === 'ENOENT' ? 'not found' : (err as Error).message}`);
  }
  const parsed = parseConfigText(text, abs, workspaceResolver(dirname(abs), workspace, fs));
  const { config } = parsed;
  let { problems } = parsed;
  if (config) {
    // what each protocol's scenarios read beyond the text (gRPC: protos and message files)
    const io = {
      resolveIn: (base: string, rel: string) => workspaceResolver(base, workspace, fs)(rel),
      readMessages: (f: string) => readMessages(f, fs),
      readText: (f: string) => fs.readText(f),
    };
    problems = Object.values(PROTOCOLS).flatMap((p) => p.resolve?.(config.scenarios, io) ?? []);
    // one placeholder story: a name in the other kind's braces, or in none (after the data files' columns),
    // the bodies files' lines included
    problems.push(...placeholderKindProblems(config, env, bodiesLines(fs)));
  } else if (parsed.partial) {
    // all in one pass: the placeholder story of what could be read, beside the other problems
    problems = [...problems, ...placeholderKindProblems(parsed.partial, env, bodiesLines(fs))];
  }
  if (config && problems.length === 0) return { text, problems, config };
  const usable = config ?? parsed.pruned;
  return { text, problems, ...(usable ? { usable } : {}) };
}

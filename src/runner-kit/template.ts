// Values that change from request to request (issue 34's data, functions and flows): `{{ data.COLUMN }}`
// from the scenario's data file (the row of the request's iteration), `{{ uuid() }}`, `{{ int(1, 100) }}`,
// `{{ now() }}`, `{{ base64(ARG) }}`, `{{ hmacSha256('KEY', ARG) }}` (ARG: a quoted text, data.COLUMN,
// a flow value, or `body`, the request's rendered body), and in a flow `{{ name }}`, a value an
// earlier step extracted. A request text is compiled once into literal parts and slots; a text without
// slots is sent as today (serialised once). Any other `{{…}}` is literal text, as it always was. The
// host checks every slot when the config is read (`templateProblems`); the runner renders them per
// request. Pure: randomness and the clock come in through `TemplateSources`.
import { createHmac } from 'node:crypto';

/** The functions, each with its argument count. */
export const TEMPLATE_FUNCTIONS = { uuid: 0, int: 2, now: 0, base64: 1, hmacSha256: 2 } as const;
export type TemplateFunction = keyof typeof TEMPLATE_FUNCTIONS;

export type Slot =
  | { kind: 'data'; column: number }
  /** a value an earlier step of the iteration's flow extracted */
  | { kind: 'value'; name: string }
  | { kind: 'uuid' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'now' }
  /** base64 of an argument's text (UTF-8) */
  | { kind: 'base64'; arg: SlotArg }
  /** HMAC-SHA256 of an argument's text under a key, in lowercase hex */
  | { kind: 'hmac'; key: string; arg: SlotArg };

/** What a function reads: a text as written, a data column, a flow value, or the request's body. */
export type SlotArg = { text: string } | { column: number } | { value: string } | { body: true };

/** A text as literal parts (even indexes) and slots (odd indexes). */
export interface CompiledText {
  parts: Array<string | Slot>;
}

/** Where a rendered value comes from: the iteration's data row, randomness, the clock. */
export interface TemplateSources {
  /** the iteration's data row (column values in the file's column order), if the scenario has data */
  row: readonly string[] | undefined;
  /** the values the iteration's earlier flow steps extracted */
  values?: ReadonlyMap<string, string> | undefined;
  uuid(): string;
  /** uniform in [0, 1) */
  random(): number;
  /** ms since the epoch */
  now(): number;
  /** the request's body, rendered (for `body` arguments in its URL and headers) */
  body?: string | undefined;
}

// `{{ data.name }}`, `{{ fn(args) }}` or `{{ name }}` (a flow's value: a slot only where the name is
// one); anything else between braces is not a slot
// (a call's arguments may hold an environment placeholder, `${NAME}`, which the host fills in first)
const SLOT =
  /\{\{\s*(?:data\.([A-Za-z_][A-Za-z0-9_-]*)|([a-z][A-Za-z0-9]*)\(((?:[^(){}$]|\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$(?!\{))*)\)|([A-Za-z_][A-Za-z0-9_]*))\s*\}\}/g;
const INTEGER = /^-?\d{1,15}$/;

/** A slot's text read, or why it cannot be (a column the data does not have, a function it does not know). */
function readSlot(
  m: RegExpMatchArray,
  columns: readonly string[] | undefined,
  values: ReadonlySet<string> | undefined,
): Slot | string | undefined {
  const [all, column, fn, rawArgs, value] = m;
  if (value !== undefined) return values?.has(value) ? { kind: 'value', name: value } : undefined;
  if (column !== undefined) {
    if (!columns) return `${all}: the scenario has no data file (give data: { file: ... })`;
    const i = columns.indexOf(column);
    return i >= 0
      ? { kind: 'data', column: i }
      : `${all}: the data has no column ${column} (it has ${columns.join(', ')})`;
  }
  const name = fn as string;
  if (!Object.hasOwn(TEMPLATE_FUNCTIONS, name))
    return `${all}: no such function (there are ${Object.keys(TEMPLATE_FUNCTIONS)
      .map((f) => `${f}()`)
      .join(', ')})`;
  const args = splitArgs(rawArgs as string);
  const want = TEMPLATE_FUNCTIONS[name as TemplateFunction];
  if (args.length !== want) return `${all}: ${name}() takes ${want === 0 ? 'no arguments' : `${want} arguments`}`;
  if (name === 'int') {
    if (!args.every((a) => INTEGER.test(a))) return `${all}: int(min, max) takes two integers`;
    const [min, max] = args.map(Number) as [number, number];
    if (min > max) return `${all}: int(min, max) needs min ≤ max`;
    return { kind: 'int', min, max };
  }
  if (name === 'base64') {
    const arg = readArg(args[0] as string, columns, values);
    return typeof arg === 'string' ? `${all}: ${arg}` : { kind: 'base64', arg };
  }
  if (name === 'hmacSha256') {
    const key = readArg(args[0] as string, undefined, undefined);
    if (typeof key === 'string' || !('text' in key))
      return `${all}: hmacSha256(key, text) takes the key as a quoted text ('\${SECRET}' fills it from the environment)`;
    const arg = readArg(args[1] as string, columns, values);
    return typeof arg === 'string' ? `${all}: ${arg}` : { kind: 'hmac', key: key.text, arg };
  }
  return { kind: name as 'uuid' | 'now' };
}

/** A call's arguments, split at the commas outside quotes. */
function splitArgs(raw: string): string[] {
  if (raw.trim() === '') return [];
  const out: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const ch of raw) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ',') {
      out.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  out.push(current.trim());
  return out;
}

/** One argument read, or why it cannot be. */
function readArg(
  raw: string,
  columns: readonly string[] | undefined,
  values: ReadonlySet<string> | undefined,
): SlotArg | string {
  const quoted = /^(['"])(.*)\1$/s.exec(raw);
  if (quoted) return { text: quoted[2] as string };
  if (raw === 'body') return { body: true };
  const column = /^data\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(raw)?.[1];
  if (column !== undefined) {
    const i = columns?.indexOf(column) ?? -1;
    return i >= 0 ? { column: i } : `${raw}: the data has no column ${column}`;
  }
  if (values?.has(raw)) return { value: raw };
  return `${raw} is not a quoted text, data.COLUMN, body, or a value a flow step extracts`;
}

/** The text compiled, or the problems of its slots (each a message without the key). */
export function compileText(
  text: string,
  columns: readonly string[] | undefined,
  /** the flow values the text may use (`{{ id }}`); other `{{ name }}` is literal text */
  values?: ReadonlySet<string>,
): { compiled: CompiledText; problems: string[] } {
  const parts: Array<string | Slot> = [];
  const problems: string[] = [];
  let last = 0;
  for (const m of text.matchAll(SLOT)) {
    const slot = readSlot(m, columns, values);
    if (slot === undefined) continue;
    if (typeof slot === 'string') {
      problems.push(slot);
      continue;
    }
    parts.push(text.slice(last, m.index), slot);
    last = (m.index ?? 0) + m[0].length;
  }
  parts.push(text.slice(last));
  // a call of a function of ours the slot pattern could not read (a brace or parenthesis inside it)
  const covered = parts.filter((p): p is string => typeof p === 'string').join('');
  const unread = new RegExp(`\\{\\{\\s*(?:${Object.keys(TEMPLATE_FUNCTIONS).join('|')})\\(`).exec(covered);
  if (unread && problems.length === 0)
    problems.push(`${unread[0]}…: a call perf-gate cannot read (no braces or parentheses inside its arguments)`);
  return { compiled: { parts }, problems };
}

/** Whether a compiled text has any slot (one without is sent as written). */
export const isDynamic = (c: CompiledText): boolean => c.parts.length > 1;

/** The problems of a text's slots, for the host's check of a config. */
export function templateProblems(
  text: string,
  columns: readonly string[] | undefined,
  values?: ReadonlySet<string>,
): string[] {
  return compileText(text, columns, values).problems;
}

/** The flow values a text's slots read. */
export function valuesUsed(text: string, values: ReadonlySet<string>): string[] {
  return compileText(text, undefined, values).compiled.parts.flatMap((p) =>
    typeof p !== 'string' && p.kind === 'value' ? [p.name] : [],
  );
}

/** One slot's value (a WebSocket template's functions use it: src/runner-kit/ws-template.ts). */
export function slotValue(slot: Slot, src: TemplateSources): string {
  switch (slot.kind) {
    case 'data':
      return src.row?.[slot.column] ?? '';
    case 'value':
      return src.values?.get(slot.name) ?? '';
    case 'uuid':
      return src.uuid();
    case 'int':
      return String(slot.min + Math.floor(src.random() * (slot.max - slot.min + 1)));
    case 'now':
      return String(Math.floor(src.now()));
    case 'base64':
      return Buffer.from(argText(slot.arg, src), 'utf8').toString('base64');
    case 'hmac':
      return createHmac('sha256', slot.key).update(argText(slot.arg, src), 'utf8').digest('hex');
  }
}

function argText(arg: SlotArg, src: TemplateSources): string {
  if ('text' in arg) return arg.text;
  if ('column' in arg) return src.row?.[arg.column] ?? '';
  if ('value' in arg) return src.values?.get(arg.value) ?? '';
  return src.body ?? '';
}

/** Whether a compiled text reads the request's rendered body (`body` as an argument). */
export function readsBody(c: CompiledText): boolean {
  return c.parts.some((p) => typeof p !== 'string' && (p.kind === 'base64' || p.kind === 'hmac') && 'body' in p.arg);
}

export function renderText(c: CompiledText, src: TemplateSources): string {
  let out = '';
  for (let i = 0; i < c.parts.length; i++) {
    const p = c.parts[i] as string | Slot;
    out += typeof p === 'string' ? p : slotValue(p, src);
  }
  return out;
}

/** The `{{ name }}` slots of a text that name no value in `values` (in a flow: a typo, or a value no
 * step extracts). */
export function unknownValues(text: string, values: ReadonlySet<string>): string[] {
  return [...text.matchAll(SLOT)].flatMap((m) => (m[4] !== undefined && !values.has(m[4]) ? [m[0]] : []));
}

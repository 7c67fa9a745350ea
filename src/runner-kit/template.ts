// Values that change from request to request (issue 34's data, functions and flows): `{{ data.COLUMN }}`
// from the scenario's data file (the row of the request's iteration), `{{ uuid() }}`, `{{ int(1, 100) }}`,
// `{{ now() }}`, and in a flow `{{ name }}`, a value an earlier step extracted. A request text is compiled once into literal
// parts and slots; a text without slots is sent as today (serialised once). Any other `{{…}}` is literal text, as it always was. The host checks
// every slot when the config is read (`templateProblems`); the runner renders them per request. Pure:
// randomness and the clock come in through `TemplateSources`.

/** The functions, each with its argument count. */
export const TEMPLATE_FUNCTIONS = { uuid: 0, int: 2, now: 0 } as const;
export type TemplateFunction = keyof typeof TEMPLATE_FUNCTIONS;

export type Slot =
  | { kind: 'data'; column: number }
  /** a value an earlier step of the iteration's flow extracted */
  | { kind: 'value'; name: string }
  | { kind: 'uuid' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'now' };

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
}

// `{{ data.name }}`, `{{ fn(args) }}` or `{{ name }}` (a flow's value: a slot only where the name is
// one); anything else between braces is not a slot
const SLOT =
  /\{\{\s*(?:data\.([A-Za-z_][A-Za-z0-9_-]*)|([a-z][A-Za-z0-9]*)\(([^(){}]*)\)|([A-Za-z_][A-Za-z0-9_]*))\s*\}\}/g;
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
  const args = (rawArgs as string).trim() === '' ? [] : (rawArgs as string).split(',').map((a) => a.trim());
  const want = TEMPLATE_FUNCTIONS[name as TemplateFunction];
  if (args.length !== want) return `${all}: ${name}() takes ${want === 0 ? 'no arguments' : `${want} arguments`}`;
  if (name === 'int') {
    if (!args.every((a) => INTEGER.test(a))) return `${all}: int(min, max) takes two integers`;
    const [min, max] = args.map(Number) as [number, number];
    if (min > max) return `${all}: int(min, max) needs min ≤ max`;
    return { kind: 'int', min, max };
  }
  return { kind: name as 'uuid' | 'now' };
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

function slotValue(slot: Slot, src: TemplateSources): string {
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
  }
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

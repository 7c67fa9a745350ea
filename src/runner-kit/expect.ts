// The runner↔host protocol, part 3: response checks (`expect`). The host validates a config's checks
// with the same path parser the runner evaluates them with; the runner imports nothing from the host
// but src/runner-kit/. Pure.

/** What a response must be to count as a success (SPEC: request `expect`). */
export interface PlanExpect {
  /** the status must be one of these (a listed 4xx is then a success); default: 2xx or 3xx */
  status?: number[];
  /** lower-case header name → text its value must contain (case-insensitive) */
  headers?: Record<string, string>;
  /** texts the body must contain, each of them */
  body?: string[];
  /** JSON paths of the body: `exists` (false: must be absent) or `equals` (a JSON value) */
  json?: JsonCheck[];
}

export interface JsonCheck {
  path: string;
  exists?: boolean;
  equals?: unknown;
  /** `equals` is text a flow rendered (`{{ id }}`): the value's text (a string itself, else its JSON) must equal it */
  asText?: boolean;
}

/**
 * The error kind a failed check is counted under (the response is a failure, not a success; its
 * status is still counted). A body larger than EXPECT_BODY_LIMIT cannot be checked: `expect-too-large`.
 */
export const CHECK_KINDS = [
  'expect-status',
  'expect-header',
  'expect-body',
  'expect-json',
  'expect-too-large',
] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/** The most body bytes kept for the body and JSON checks. */
export const EXPECT_BODY_LIMIT = 4 * 1024 * 1024;

/** The default rule: an HTTP status of 2xx/3xx, or gRPC's OK. */
export function isSuccess(status: number | string): boolean {
  return typeof status === 'number' ? status >= 200 && status < 400 : status === 'OK';
}

/** What of the response the checks read: the head's headers, the body. */
export function captures(e: PlanExpect | undefined): { headers: boolean; body: boolean } {
  return {
    headers: e?.headers !== undefined && Object.keys(e.headers).length > 0,
    body: (e?.body?.length ?? 0) > 0 || (e?.json?.length ?? 0) > 0,
  };
}

export interface CheckedResponse {
  status: number;
  /** lower-case name → value (repeated headers joined with ", "); when the checks read headers */
  headers?: ReadonlyMap<string, string>;
  /** the body (de-chunked), when the checks read it */
  body?: Buffer;
  /** more body than EXPECT_BODY_LIMIT came: `body` is its start */
  truncated?: boolean;
}

/**
 * A response's body read at most once each way: its text and its JSON, decoded on first use, so a
 * step's checks and its extract rules share one decoding and one parse (a flow's step reads both).
 */
export class BodyView {
  private decoded: string | undefined;
  private parsed: { ok: true; doc: unknown } | { ok: false } | undefined;
  constructor(private readonly source: Buffer | string | undefined) {}

  /** the body as UTF-8 text ('' when there is none) */
  text(): string {
    if (this.decoded === undefined)
      this.decoded = typeof this.source === 'string' ? this.source : (this.source?.toString('utf8') ?? '');
    return this.decoded;
  }

  /** the body as a JSON document, or `{ ok: false }` when it is not JSON */
  json(): { ok: true; doc: unknown } | { ok: false } {
    if (this.parsed === undefined) {
      try {
        this.parsed = { ok: true, doc: JSON.parse(this.text()) };
      } catch {
        this.parsed = { ok: false };
      }
    }
    return this.parsed;
  }
}

/**
 * Whether the response is a success, and the check that failed. Without checks, or without a status
 * list, the status must be 2xx/3xx; a status that fails that default is a plain failure (its status
 * class is the error), not a check failure. `body`: the response's body read once (a flow passes the
 * one its extract rules read next).
 */
export function checkResponse(
  e: PlanExpect | undefined,
  r: CheckedResponse,
  body?: BodyView,
): { ok: boolean; check?: CheckKind } {
  if (!e) return { ok: isSuccess(r.status) };
  if (e.status) {
    if (!e.status.includes(r.status))
      return isSuccess(r.status) ? { ok: false, check: 'expect-status' } : { ok: false };
  } else if (!isSuccess(r.status)) return { ok: false };
  if (e.headers !== undefined)
    for (const name in e.headers) {
      const text = e.headers[name] as string;
      const value = r.headers?.get(name);
      if (value === undefined || !value.toLowerCase().includes(text.toLowerCase()))
        return { ok: false, check: 'expect-header' };
    }
  const texts = e.body?.length ?? 0;
  const json = e.json?.length ?? 0;
  if (texts === 0 && json === 0) return { ok: true };
  if (r.truncated) return { ok: false, check: 'expect-too-large' };
  const view = body ?? new BodyView(r.body);
  if (texts > 0) {
    const text = view.text();
    for (const part of e.body as string[]) if (!text.includes(part)) return { ok: false, check: 'expect-body' };
  }
  if (json > 0) {
    const parsed = view.json();
    if (!parsed.ok) return { ok: false, check: 'expect-json' };
    for (const c of e.json as JsonCheck[])
      if (!jsonCheckHolds(c, parsed.doc)) return { ok: false, check: 'expect-json' };
  }
  return { ok: true };
}

function jsonCheckHolds(c: JsonCheck, doc: unknown): boolean {
  const steps = jsonPathSteps(c.path);
  if (!steps) return false;
  const found = jsonLookup(doc, steps);
  if (c.exists !== undefined) return found.found === c.exists;
  if (c.asText)
    return found.found && (typeof found.value === 'string' ? found.value : JSON.stringify(found.value)) === c.equals;
  return found.found && jsonEqual(found.value, c.equals);
}

/** the paths read so far (a config names few; bounded all the same) */
const PATH_STEPS = new Map<string, ReadonlyArray<string | number> | undefined>();
const PATH_STEPS_MAX = 1024;

/** parseJsonPath's answer, remembered: a check or a rule reads the same path on every response. */
export function jsonPathSteps(path: string): ReadonlyArray<string | number> | undefined {
  if (PATH_STEPS.has(path)) return PATH_STEPS.get(path);
  if (PATH_STEPS.size >= PATH_STEPS_MAX) PATH_STEPS.clear();
  const steps = parseJsonPath(path);
  PATH_STEPS.set(path, steps);
  return steps;
}

/**
 * A JSON path as steps: `$.data.items[0].id`, `data.items[0].id` (the `$.` may be left out),
 * `$['a.b']` / `$["a b"]` for keys with dots or spaces; `$` alone is the whole document. Undefined
 * when the path does not parse.
 */
export function parseJsonPath(path: string): Array<string | number> | undefined {
  let rest = path.trim();
  // no path at all names nothing (`$` is the whole document)
  if (rest === '') return undefined;
  if (rest === '$') return [];
  if (rest.startsWith('$')) {
    rest = rest.slice(1);
    if (!rest.startsWith('.') && !rest.startsWith('[')) return undefined;
  } else if (rest !== '' && !rest.startsWith('[')) rest = `.${rest}`;
  const steps: Array<string | number> = [];
  while (rest !== '') {
    const dot = /^\.([A-Za-z_$][\w$-]*)/.exec(rest);
    const index = /^\[(\d+)\]/.exec(rest);
    const quoted = /^\[(['"])((?:(?!\1)[^\\]|\\.)*)\1\]/.exec(rest);
    if (dot?.[1] !== undefined) {
      steps.push(dot[1]);
      rest = rest.slice(dot[0].length);
    } else if (index?.[1] !== undefined) {
      steps.push(Number(index[1]));
      rest = rest.slice(index[0].length);
    } else if (quoted?.[2] !== undefined) {
      steps.push(quoted[2].replace(/\\(.)/g, '$1'));
      rest = rest.slice(quoted[0].length);
    } else return undefined;
  }
  return steps;
}

/** The node `steps` (parseJsonPath's) lead to in a parsed document, if any. */
export function jsonLookup(doc: unknown, steps: ReadonlyArray<string | number>): { found: boolean; value?: unknown } {
  let node = doc;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(node) || step >= node.length) return { found: false };
      node = node[step];
    } else {
      if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, step))
        return { found: false };
      node = (node as Record<string, unknown>)[step];
    }
  }
  return { found: true, value: node };
}

/** Deep equality of JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

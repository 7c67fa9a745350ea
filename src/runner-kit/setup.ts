// A run's `setup`: HTTP requests the runner sends once, after the SUT's ready probes and before any
// load, whose extracted values the scenarios' requests use as `${name}` (filled in the runner's copy
// of the plan only: the host never holds them, so no results, baseline, report or log line can).
// Shared by the host (the plan it writes, the rules it checks) and the runner (extraction). Pure.
import { HTTP_TOKEN } from './connection-header.js';
import { type BodyView, jsonLookup, jsonPathSteps, parseJsonPath } from './expect.js';
import type { PlanRequest } from './plan.js';

/** Where a value is read from: a JSON path of the body, a response header, a regex's group over the
 * body, or a cookie the response sets. */
export type ExtractRule = { json: string } | { header: string } | { regex: string; group: number } | { cookie: string };

export interface PlanSetupStep {
  name: string;
  /** one request: no bodies file to rotate */
  request: Omit<PlanRequest, 'bodies'>;
  /** value name → where it is read from, in the order written */
  extract: Array<{ name: string; rule: ExtractRule }>;
}

/** What of a setup response extraction reads. */
export interface SetupResponse {
  /** lower-case name → value (repeated headers joined with ", ") */
  headers: ReadonlyMap<string, string>;
  /** each Set-Cookie header, whole */
  setCookies: readonly string[];
  body: string;
}

/** What extraction reads of an answer: its headers, its Set-Cookie headers, and its body, decoded and
 * parsed at most once however many rules (and checks) read it. */
export interface Extractable {
  headers: ReadonlyMap<string, string>;
  setCookies: readonly string[];
  body: BodyView;
}

/** The most body a setup step reads (a login answer is small). */
export const SETUP_BODY_LIMIT = 1024 * 1024;

/** How much of an answer a failed step shows. */
export const SETUP_PREVIEW_CHARS = 200;

/** The rule in words, for a message: `$.token`, `header x-token`, `regex id=(\d+)`, `cookie sid`. */
export function ruleText(rule: ExtractRule): string {
  if ('json' in rule) return `json ${rule.json}`;
  if ('header' in rule) return `header ${rule.header}`;
  if ('cookie' in rule) return `cookie ${rule.cookie}`;
  return `regex ${rule.regex}${rule.group !== 1 ? ` (group ${rule.group})` : ''}`;
}

/** Why a rule can never read anything (a path that does not parse, a regex that does not compile, a
 * group it does not have), or undefined. The host checks every rule with it when the config is read. */
export function ruleProblem(rule: ExtractRule): string | undefined {
  if ('json' in rule)
    return parseJsonPath(rule.json)
      ? undefined
      : "not a JSON path (like $.token, data.items[0].id or $['a.b']; no wildcards or ..)";
  if ('header' in rule) {
    if (!HTTP_TOKEN.test(rule.header)) return 'not a header name';
    // Set-Cookie is kept apart, one per cookie (a header rule never sees it)
    return rule.header.toLowerCase() === 'set-cookie' ? 'Set-Cookie is read with { cookie: NAME }' : undefined;
  }
  if ('cookie' in rule) return HTTP_TOKEN.test(rule.cookie) ? undefined : 'not a cookie name';
  let groups: number;
  try {
    new RegExp(rule.regex);
    // a regex's group count: the empty string's match array has one entry per group, plus the whole
    groups = new RegExp(`(?:${rule.regex})|`).exec('')!.length - 1;
  } catch (err) {
    return `not a regular expression (${(err as Error).message})`;
  }
  return rule.group > groups
    ? `group ${rule.group}: the regex has ${groups === 0 ? 'no groups' : `${groups} group${groups === 1 ? '' : 's'}`}`
    : undefined;
}

/** The value a rule reads from a response, or undefined when it finds none (or only an empty text or a
 * JSON null: a login that answers `"token": null` gave no token). A JSON string is its text; a number
 * or boolean its JSON; an object or array its JSON text. */
export function extractValue(rule: ExtractRule, res: Extractable): string | undefined {
  const value = readValue(rule, res);
  return value === '' ? undefined : value;
}

/** the rules' regular expressions, compiled once (no flags: `exec` keeps no state between calls) */
const REGEXES = new Map<string, RegExp>();
const REGEXES_MAX = 256;

function compiled(source: string): RegExp {
  let re = REGEXES.get(source);
  if (re === undefined) {
    if (REGEXES.size >= REGEXES_MAX) REGEXES.clear();
    re = new RegExp(source);
    REGEXES.set(source, re);
  }
  return re;
}

function readValue(rule: ExtractRule, res: Extractable): string | undefined {
  if ('header' in rule) return res.headers.get(rule.header.toLowerCase());
  if ('cookie' in rule) return cookieValue(res.setCookies, rule.cookie);
  if ('regex' in rule) {
    const m = compiled(rule.regex).exec(res.body.text());
    return m?.[rule.group] ?? undefined;
  }
  const steps = jsonPathSteps(rule.json);
  if (!steps) return undefined;
  const parsed = res.body.json();
  if (!parsed.ok) return undefined;
  const found = jsonLookup(parsed.doc, steps);
  if (!found.found || found.value === null) return undefined;
  return typeof found.value === 'string' ? found.value : JSON.stringify(found.value);
}

/** The value of the last Set-Cookie that sets `name` (RFC 6265: name=value before the first `;`,
 * a quoted value unquoted), or undefined. */
export function cookieValue(setCookies: readonly string[], name: string): string | undefined {
  let found: string | undefined;
  for (const header of setCookies) {
    const pair = header.split(';', 1)[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const value = pair.slice(eq + 1).trim();
    found = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return found;
}

/** The start of an answer's body for a message: at most SETUP_PREVIEW_CHARS characters, as a JSON
 * string (control characters escaped), marked when cut. */
export function bodyPreview(body: string): string {
  const cut = body.length > SETUP_PREVIEW_CHARS;
  return `${JSON.stringify(cut ? body.slice(0, SETUP_PREVIEW_CHARS) : body)}${cut ? ' …' : ''}`;
}

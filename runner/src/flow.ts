// A scenario's flow (issue 34): named steps that one iteration sends in order on one connection, each
// the next once the previous is answered; the values a step extracts (`extract`, as setup's rules)
// fill `{{ name }}` slots of the later steps and their checks. Each step is counted as a mix entry is;
// the iteration (first step's write to last step's answer) as one more entry, `iteration`. A step that
// fails (its status, a check, an extract that finds nothing: check `extract`, or no answer) ends the
// iteration as failed, counted on the iteration entry under `<step>-failed` (`closed-mid-iteration`
// when the connection closes between steps); the connection's next request starts a new iteration.
// Per connection, so iterations never share values. In a closed loop each connection runs iterations
// back to back; in an open loop the schedule starts iterations (each on a free connection, which it
// holds until its last step is answered), the first step's latency counted from the scheduled start as
// any open-loop send's, each later step's from its own write.
import { BodyView, captures, checkResponse, type PlanExpect } from '../../src/runner-kit/expect.js';
import type { PlanFlow, PlanRequest } from '../../src/runner-kit/plan.js';
import { type ExtractRule, extractValue } from '../../src/runner-kit/setup.js';
import {
  compileText,
  type CompiledText,
  isDynamic,
  renderText,
  type TemplateSources,
} from '../../src/runner-kit/template.js';
import type { Capture, ParsedResponse, RequestParts } from './http1.js';
import type { EngineConnection } from './transport.js';

const NO_HEADERS: ReadonlyMap<string, string> = new Map();

/** One iteration in progress on a connection. */
interface IterationState {
  step: number;
  values: Map<string, string>;
  startedAt: number;
  row: readonly string[] | undefined;
}

/** What the flow does at a step's answer, beside counting it. */
export type IterationEnd = { ok: true; latencyUs: number } | { ok: false; kind: string };

/** A step's expect with slots rendered per check; undefined when it has none (the plan's is used). */
interface ExpectTemplate {
  body?: CompiledText[];
  json?: Array<{ path: string; exists?: boolean; equals?: unknown; text?: CompiledText }>;
}

function expectTemplate(e: PlanExpect | undefined, values: ReadonlySet<string>): ExpectTemplate | undefined {
  if (!e) return undefined;
  const compile = (t: string) => compileText(t, undefined, values).compiled;
  const body = e.body?.map(compile);
  const json = e.json?.map((c) =>
    typeof c.equals === 'string' && isDynamic(compile(c.equals)) ? { ...c, text: compile(c.equals) } : c,
  );
  const dynamic = (body ?? []).some(isDynamic) || (json ?? []).some((c) => 'text' in c);
  return dynamic ? { ...(body ? { body } : {}), ...(json ? { json } : {}) } : undefined;
}

/** Set-Cookie headers as the parser joins repeats (", "): split where a new name=value begins. */
export function splitSetCookie(joined: string | undefined): string[] {
  return joined === undefined ? [] : joined.split(/,(?=\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=)/).map((c) => c.trim());
}

/** What of a response a step's checks and extract rules read. */
export function flowCapture(
  e: PlanExpect | undefined,
  extract: ReadonlyArray<{ rule: ExtractRule }>,
): Capture | undefined {
  const c = captures(e);
  const body = c.body || extract.some(({ rule }) => 'json' in rule || 'regex' in rule);
  const headers = c.headers || extract.some(({ rule }) => 'header' in rule || 'cookie' in rule);
  return body || headers ? { body, headers } : undefined;
}

export class Flow {
  private readonly states = new WeakMap<EngineConnection, IterationState>();
  private readonly steps: Array<{
    name: string;
    method: string;
    url: CompiledText;
    headers: Array<readonly [string, CompiledText]>;
    body: CompiledText | undefined;
    expect: PlanExpect | undefined;
    expectTemplate: ExpectTemplate | undefined;
    extract: Array<{ name: string; rule: ExtractRule }>;
  }>;
  /** the entry the iteration is counted under (after the steps) */
  readonly iteration: number;
  /** the last `next` began an iteration */
  startedIteration = false;
  /** iterations begun and not yet ended (at a stage's end: unfinished) */
  open = 0;
  /** the step (entry) the last `next` rendered, and whether it is a HEAD (no body in its answer) */
  entry = 0;
  head = false;
  private readonly src: TemplateSources;

  constructor(
    steps: ReadonlyArray<{ name: string; request: PlanRequest }>,
    flow: PlanFlow,
    columns: readonly string[] | undefined,
    private readonly serialize: (parts: RequestParts) => Buffer,
    /** the next iteration's data row, randomness and clock */
    private readonly sources: () => TemplateSources,
  ) {
    const known = new Set<string>();
    this.steps = steps.map((s, i) => {
      const compile = (t: string) => compileText(t, columns, known).compiled;
      const r = s.request;
      const step = {
        name: s.name,
        method: r.method,
        url: compile(r.url),
        headers: Object.entries(r.headers).map(([k, v]) => [k, compile(v)] as const),
        body: r.body === undefined ? undefined : compile(r.body),
        expect: r.expect,
        expectTemplate: expectTemplate(r.expect, known),
        extract: flow.extract[i] ?? [],
      };
      for (const e of step.extract) known.add(e.name);
      return step;
    });
    this.iteration = steps.length;
    this.src = { row: undefined, values: undefined, uuid: () => '', random: Math.random, now: Date.now };
  }

  private stateOf(c: EngineConnection): IterationState {
    let s = this.states.get(c);
    if (!s) {
      s = { step: 0, values: new Map(), startedAt: 0, row: undefined };
      this.states.set(c, s);
    }
    return s;
  }

  /**
   * The step `c` sends next (its entry), rendered with its iteration's row and values. `start`: when
   * an iteration this begins counts from (an open loop's accountable start: its scheduled time less
   * what the generator owes).
   */
  next(c: EngineConnection, start: number): { request: Buffer; entry: number } {
    const s = this.stateOf(c);
    this.startedIteration = s.step === 0;
    if (s.step === 0) {
      this.open++;
      const src = this.sources();
      s.row = src.row;
      s.values.clear();
      s.startedAt = start;
      Object.assign(this.src, { uuid: src.uuid, random: src.random, now: src.now });
    }
    const step = this.steps[s.step] as Flow['steps'][number];
    this.entry = s.step;
    this.head = step.method.toUpperCase() === 'HEAD';
    this.src.row = s.row;
    this.src.values = s.values;
    // the body first: the URL and headers may sign or encode it (`body` as an argument)
    this.src.body = step.body === undefined ? undefined : renderText(step.body, this.src);
    const parts: RequestParts = {
      url: renderText(step.url, this.src),
      method: step.method,
      headers: Object.fromEntries(step.headers.map(([k, v]) => [k, renderText(v, this.src)])),
    };
    if (this.src.body !== undefined) parts.body = this.src.body;
    return { request: this.serialize(parts), entry: s.step };
  }

  /** Where `c`'s iteration, begun by the last `next`, counts from: set once its first request is built
   * (building it is the generator's time). */
  startAt(c: EngineConnection, start: number): void {
    const s = this.states.get(c);
    if (s && this.startedIteration) s.startedAt = start;
  }

  /** A step's answer judged: its checks (slots rendered with the iteration's values), then its extract rules. */
  judge(c: EngineConnection, req: number, r: ParsedResponse): { ok: boolean; check?: string } {
    const step = this.steps[req];
    const s = this.states.get(c);
    if (!step || !s) return checkResponse(undefined, r);
    let expect = step.expect;
    if (step.expectTemplate) {
      this.src.row = s.row;
      this.src.values = s.values;
      expect = this.renderExpect(step.expect as PlanExpect, step.expectTemplate);
    }
    // the body is decoded and parsed once for the checks and the rules together
    const body = new BodyView(r.body);
    const verdict = checkResponse(expect, r, body);
    if (!verdict.ok || step.extract.length === 0) return verdict;
    const headers = r.headers ?? NO_HEADERS;
    const answer = { headers, setCookies: splitSetCookie(headers.get('set-cookie')), body };
    for (const { name, rule } of step.extract) {
      const value = extractValue(rule, answer);
      if (value === undefined) return { ok: false, check: 'extract' };
      s.values.set(name, value);
    }
    return verdict;
  }

  private renderExpect(e: PlanExpect, t: ExpectTemplate): PlanExpect {
    const out: PlanExpect = { ...e };
    if (t.body) out.body = t.body.map((b) => renderText(b, this.src));
    if (t.json) {
      out.json = t.json.map((c) => {
        const { text, ...check } = c;
        return text ? { ...check, equals: renderText(text, this.src), asText: true } : check;
      });
    }
    return out;
  }

  /** `c`'s step settled (answered `ok` or not, at `at`): the iteration's end when this was its last step or it failed. */
  settled(c: EngineConnection, ok: boolean, at: number): IterationEnd | undefined {
    const s = this.stateOf(c);
    const step = this.steps[s.step] as Flow['steps'][number];
    if (!ok) {
      s.step = 0;
      this.open--;
      return { ok: false, kind: `${step.name}-failed` };
    }
    if (s.step + 1 < this.steps.length) {
      s.step++;
      return undefined;
    }
    s.step = 0;
    this.open--;
    return { ok: true, latencyUs: (at - s.startedAt) * 1000 };
  }

  /** `c` is between the steps of an iteration (it must not be retired before the iteration ends). */
  midIteration(c: EngineConnection): boolean {
    return (this.states.get(c)?.step ?? 0) > 0;
  }

  /** `c`'s iteration is cut off (its connection closes between steps): true when one was under way. */
  abandon(c: EngineConnection): boolean {
    const s = this.states.get(c);
    if (!s || s.step === 0) return false;
    s.step = 0;
    this.open--;
    return true;
  }

  /** What each step's answer must keep for its checks and rules. */
  captures(): Array<Capture | undefined> {
    return this.steps.map((s) => flowCapture(s.expect, s.extract));
  }
}

// A run's `setup` (src/runner-kit/setup.ts), in the runner: each step's request sent once, in order,
// after the ready probes; the values it extracts fill the `${name}` placeholders of the later steps
// and of every scenario's requests. Steps are plain requests on Node's own HTTP client, not the load
// engine: they are not measured. A step that fails stops the runner with what it got.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BodyView, checkResponse } from '../../src/runner-kit/expect.js';
import { type Fill, fillRequest, fillTarget } from '../../src/runner-kit/fill.js';
import { UNSAFE_HEADER_VALUE } from '../../src/runner-kit/connection-header.js';
import { maskForms, maskText } from './mask.js';
import { fillPlaceholders, runnerPlaceholders } from '../../src/runner-kit/placeholders.js';
import { unreadableScenario } from '../../src/runner-kit/readable.js';
import { compileText } from '../../src/runner-kit/template.js';
import type { RunnerPlan } from '../../src/runner-kit/plan.js';
import {
  bodyPreview,
  extractValue,
  type PlanSetupStep,
  ruleText,
  SETUP_BODY_LIMIT,
  type SetupResponse,
} from '../../src/runner-kit/setup.js';

/** One setup request's answer, or why there was none. */
export type SetupAnswer = (SetupResponse & { status: number; truncated: boolean }) | { error: string };

export type SetupSend = (request: PlanSetupStep['request'], timeoutMs: number) => Promise<SetupAnswer>;

export type SetupOutcome =
  | { ok: true; values: Map<string, string>; steps: Array<{ name: string; status: number; elapsedMs: number }> }
  | { ok: false; step: string; message: string };

/** `${name}` filled from `values` in the host's form (`$$` is a literal `$`); a name without one stays. */
export function fillFrom(values: ReadonlyMap<string, string>): Fill {
  return (text) => fillPlaceholders(text, (name) => values.get(name), 'runner');
}

/** The names a header or metadata value of the plan (a setup step's or a scenario's, in the host's
 * form) sends as they are: not those inside a `{{…}}` call (`base64('${user}:${pass}')` sends base64). */
export function namesInHeaders(plan: RunnerPlan): Set<string> {
  const names = new Set<string>();
  const note: Fill = (text, _at, header) => {
    if (!header) return text;
    const outside = compileText(text, undefined).compiled.parts.filter((p) => typeof p === 'string');
    for (const name of outside.flatMap(runnerPlaceholders)) names.add(name);
    return text;
  };
  for (const step of plan.setup ?? []) fillRequest(step.request, note, step.name);
  for (const s of plan.scenarios) fillTarget(s.target, note, s.name);
  return names;
}

/** A scenario whose `{{…}}` call the setup's values made unreadable (a token holding a quote or a
 * parenthesis inside `hmacSha256('${token}', body)`), as a failure of the step that extracted the
 * first value it uses; or undefined. Never quotes the text: it holds the value. */
export function unreadableAfterSetup(
  before: RunnerPlan,
  after: RunnerPlan,
): { step: string; message: string } | undefined {
  const steps = before.setup ?? [];
  const i = unreadableScenario(after.scenarios);
  const s = i === undefined ? undefined : before.scenarios[i];
  if (i === undefined || !s) return undefined;
  const used = new Set<string>();
  fillTarget(s.target, (text) => (runnerPlaceholders(text).forEach((n) => used.add(n)), text), s.name);
  const step = steps.find((st) => st.extract.some((e) => used.has(e.name))) ?? steps[0];
  return {
    step: step?.name ?? 'setup',
    message: `scenarios[${i}] (${s.name}): a {{…}} call cannot be read once the setup's values are filled in (a value holding a quote, a brace or a parenthesis inside it)`,
  };
}

/** Why an extracted value cannot be used, or undefined. Never the value itself: it may be a secret. */
export function valueProblem(value: string, inHeader: boolean): string | undefined {
  // `{{` would be read as a template's slot in the scenarios' requests and messages
  if (value.includes('{{')) return 'the value holds "{{", which a request template would read as a slot';
  if (inHeader && UNSAFE_HEADER_VALUE.test(value))
    return 'the value holds a line break, a NUL or a character beyond Latin-1, which a header cannot carry';
  return undefined;
}

/** Every step in order, each request filled with the values so far; stops at the first that fails.
 * `headerNames`: the names a header uses (namesInHeaders), whose values a header must be able to carry. */
export async function runSetup(
  steps: readonly PlanSetupStep[],
  defaultTimeoutMs: number,
  send: SetupSend = sendOnce,
  now: () => number = () => performance.now(),
  headerNames: ReadonlySet<string> = new Set(),
): Promise<SetupOutcome> {
  const values = new Map<string, string>();
  const done: Array<{ name: string; status: number; elapsedMs: number }> = [];
  for (const step of steps) {
    const request = fillRequest(step.request, fillFrom(values), step.name);
    const started = now();
    const answer = await send(request, step.request.timeoutMs ?? defaultTimeoutMs);
    // the body shown may hold a value an earlier rule just read from it (the access token before the
    // missing refresh token): the values so far are masked, as every event is once setup is done
    const fail = (message: string): SetupOutcome => ({
      ok: false,
      step: step.name,
      message: bounded(maskText(message, maskForms(values.values()))),
    });
    if ('error' in answer) return fail(`${request.method}: no answer (${answer.error})`);
    const got = `HTTP ${answer.status}, body ${bodyPreview(answer.body)}`;
    if (answer.truncated) return fail(`${got}: an answer larger than ${SETUP_BODY_LIMIT / 1024 / 1024} MiB`);
    const body = new BodyView(answer.body);
    const checked = checkResponse(step.request.expect, { status: answer.status, headers: answer.headers }, body);
    if (!checked.ok) {
      const why = checked.check ? `failed its expect (${checked.check})` : 'not a 2xx or 3xx status';
      return fail(`${got}: ${why}`);
    }
    for (const { name, rule } of step.extract) {
      const value = extractValue(rule, { headers: answer.headers, setCookies: answer.setCookies, body });
      if (value === undefined) return fail(`${got}: extract ${name} (${ruleText(rule)}) found nothing`);
      const problem = valueProblem(value, headerNames.has(name));
      if (problem !== undefined) return fail(`HTTP ${answer.status}: extract ${name} (${ruleText(rule)}): ${problem}`);
      values.set(name, value);
    }
    done.push({ name: step.name, status: answer.status, elapsedMs: Math.round(now() - started) });
  }
  return { ok: true, values, steps: done };
}

/** The setup run against the plan's service, and the plan with its values filled in; or the step
 * that failed (its request, its answer, or a value that breaks a scenario's `{{…}}` call). */
export async function setUpPlan(
  plan: RunnerPlan,
  send: SetupSend = sendOnce,
): Promise<(Extract<SetupOutcome, { ok: true }> & { plan: RunnerPlan }) | Extract<SetupOutcome, { ok: false }>> {
  const done = await runSetup(plan.setup ?? [], plan.requestTimeoutMs, send, undefined, namesInHeaders(plan));
  if (!done.ok) return done;
  const filled = filledPlan(plan, done.values);
  const unreadable = unreadableAfterSetup(plan, filled);
  return unreadable ? { ok: false, ...unreadable } : { ...done, plan: filled };
}

/** A message the host accepts (src/runner-kit/validate.ts): a long regex or rule is cut. */
const bounded = (message: string): string => (message.length > 1500 ? `${message.slice(0, 1500)} …` : message);

/** The plan's scenarios with the setup's values filled in (and `$${` escapes read), for the engines. */
export function filledPlan(plan: RunnerPlan, values: ReadonlyMap<string, string>): RunnerPlan {
  const fill = fillFrom(values);
  return { ...plan, scenarios: plan.scenarios.map((s) => ({ ...s, target: fillTarget(s.target, fill, s.name) })) };
}

/** One request on Node's HTTP client: no redirect followed (a login's 302 sets its cookie), a body read
 * up to SETUP_BODY_LIMIT, a certificate not checked (a test service's own). */
export function sendOnce(request: PlanSetupStep['request'], timeoutMs: number): Promise<SetupAnswer> {
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined = undefined;
    const done = (a: SetupAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return done({ error: 'not a URL' });
    }
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const headers: Record<string, string> = { ...request.headers };
    if (body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length'))
      headers['content-length'] = String(body.length);
    let req: ReturnType<typeof make>;
    try {
      req = make(url, { method: request.method, headers, rejectUnauthorized: false }, (res) =>
        readAnswer(res).then(done, (err: Error) => done({ error: err.message })),
      );
    } catch (err) {
      // a header Node will not write (a line break in a value), a method that is not a token
      return done({ error: (err as Error).message });
    }
    timer = setTimeout(() => {
      done({ error: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => done({ error: err.code ?? err.message }));
    req.end(body);
  });
}

function readAnswer(res: IncomingMessage): Promise<SetupAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    res.on('data', (d: Buffer) => {
      if (truncated) return;
      size += d.length;
      if (size > SETUP_BODY_LIMIT) {
        truncated = true;
        res.destroy();
        finish();
      } else chunks.push(d);
    });
    res.on('end', () => finish());
    res.on('error', (err) => (truncated ? undefined : reject(err)));
    let finished = false;
    function finish(): void {
      if (finished) return;
      finished = true;
      const headers = new Map<string, string>();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined || name === 'set-cookie') continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      resolve({
        status: res.statusCode ?? 0,
        headers,
        setCookies: res.headers['set-cookie'] ?? [],
        body: Buffer.concat(chunks).toString('utf8'),
        truncated,
      });
    }
  });
}

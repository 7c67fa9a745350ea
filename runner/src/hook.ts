// A scenario's script hook (issue 34): a single-file ES module, loaded in each engine thread from the
// source the plan carries (a data: URL, so it can import Node's built-ins and nothing else), for what
// declarations cannot say. A WebSocket scenario's may export `hello(peer)`, `reply(peer, text)` and
// `message(peer, text)` (runner/src/ws.ts). An HTTP one's may export `request(ctx)`, called for every request to build it (its
// `path`, `method`, `headers` and `body` replace the scenario's; returning the very object it returned
// last reuses that request's bytes), and `check(response, ctx)`, called for every response that passed
// the request's own checks (false, or a text, fails it as check `hook`). Time inside the hook is summed
// apart (the trial's generator.hook) and is part of the generator's, never the service's latency. A
// hook that throws fails that request: `hook-error`, counted.
import type { PlanTarget } from '../../src/runner-kit/plan.js';
import { UnsendableRequest } from './http1.js';

export interface HookContext {
  /** the requests this engine instance asked the hook for, from 0 */
  n: number;
  /** an object of the hook's own, kept for the whole stage of this engine instance */
  state: Record<string, unknown>;
}

export interface HookRequest {
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HookResponse {
  status: number;
  headers: ReadonlyMap<string, string>;
  body: string;
}

/** A WebSocket peer as its hook sees it: its number and an object of the hook's own for the stage. */
export interface HookPeer {
  index: number;
  state: Record<string, unknown>;
}

export interface HookModule {
  /** HTTP: builds each request */
  request?: (ctx: HookContext) => HookRequest;
  /** HTTP: judges each response */
  check?: (response: HookResponse, ctx: HookContext) => unknown;
  /** WebSocket: a peer's hello messages (instead of the template's) */
  hello?: (peer: HookPeer) => unknown;
  /** WebSocket: the message that answered a peer's hello (hello-reply), before it counts as connected */
  reply?: (peer: HookPeer, text: string) => unknown;
  /** WebSocket: the text a peer sends, from the message its template rendered (the id must stay in it) */
  message?: (peer: HookPeer, text: string) => unknown;
}

/** The functions a hook may export. */
export const HOOK_EXPORTS = ['request', 'check', 'hello', 'reply', 'message'] as const;

/** A hook's request builder threw: that request fails as `hook-error`. */
export class HookError extends UnsendableRequest {
  override readonly kind = 'hook-error';
}

/** A hook's function returned a promise: hooks are synchronous (a promise would pass every check). */
function refuseThenable(value: unknown, name: string): void {
  if (value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') {
    // its rejection, if any, is the hook's, not an unhandled one that would stop the runner
    (value as Promise<unknown>).then(undefined, () => undefined);
    throw new Error(`${name}() returned a promise: a hook's functions are synchronous`);
  }
}

const loaded = new Map<string, HookModule>();

/** Imports a hook's source once per thread; throws with what is wrong with it. */
export async function loadHook(file: string, source: string): Promise<HookModule> {
  const known = loaded.get(source);
  if (known) return known;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(`data:text/javascript;base64,${Buffer.from(source, 'utf8').toString('base64')}`)) as Record<
      string,
      unknown
    >;
  } catch (err) {
    throw new Error(`hook ${file}: ${(err as Error).message}`);
  }
  const hook: HookModule = {};
  for (const name of HOOK_EXPORTS) {
    if (mod[name] === undefined) continue;
    if (typeof mod[name] !== 'function') throw new Error(`hook ${file}: its export ${name} is not a function`);
    if ((mod[name] as { constructor?: { name?: string } }).constructor?.name === 'AsyncFunction')
      throw new Error(`hook ${file}: ${name} is async; a hook's functions are synchronous`);
    hook[name] = mod[name] as never;
  }
  if (Object.keys(hook).length === 0) throw new Error(`hook ${file}: exports none of ${HOOK_EXPORTS.join(', ')}`);
  loaded.set(source, hook);
  return hook;
}

/** The hook of a scenario's target, imported in this thread (nothing when it has none). */
export async function loadHooksOf(target: PlanTarget): Promise<void> {
  const hook = target.kind === 'http' ? target.hook : target.kind === 'ws' ? target.websocket.hook : undefined;
  if (hook) await loadHook(hook.file, hook.source);
}

/** A hook loaded already in this thread (loadHook ran before the stage). */
export function hookOf(source: string): HookModule {
  const hook = loaded.get(source);
  if (!hook) throw new Error('a hook used before it was loaded in this thread');
  return hook;
}

/** One engine instance's calls into a hook, timed. */
export class HookCalls {
  private readonly ctx: HookContext = { n: 0, state: {} };
  calls = 0;
  us = 0;

  constructor(readonly hook: HookModule) {}

  /** The hook's request, or HookError when it throws or answers something that is not one. */
  request(): HookRequest {
    const fn = this.hook.request as NonNullable<HookModule['request']>;
    const started = performance.now();
    try {
      const r = fn(this.ctx);
      refuseThenable(r, 'request');
      if (r === null || typeof r !== 'object') throw new Error('request() must return an object');
      return r;
    } catch (err) {
      throw new HookError((err as Error)?.message ?? String(err));
    } finally {
      this.ctx.n++;
      this.calls++;
      this.us += (performance.now() - started) * 1000;
    }
  }

  /** The hook's verdict on a response: undefined when it passes, else the check it failed. */
  check(response: HookResponse): 'hook' | 'hook-error' | undefined {
    const fn = this.hook.check as NonNullable<HookModule['check']>;
    const started = performance.now();
    try {
      const verdict = fn(response, this.ctx);
      refuseThenable(verdict, 'check');
      return verdict === false || typeof verdict === 'string' ? 'hook' : undefined;
    } catch {
      return 'hook-error';
    } finally {
      this.calls++;
      this.us += (performance.now() - started) * 1000;
    }
  }

  /** A WebSocket peer's hello messages; HookError when it throws or answers something else than texts. */
  hello(peer: HookPeer): string[] {
    return this.timed(() => {
      const r = (this.hook.hello as NonNullable<HookModule['hello']>)(peer);
      if (!Array.isArray(r) || !r.every((m) => typeof m === 'string'))
        throw new Error('hello() must return a list of texts');
      return r as string[];
    });
  }

  /** The answer to a peer's hello, shown to the hook; HookError when it throws. */
  reply(peer: HookPeer, text: string): void {
    this.timed(() => (this.hook.reply as NonNullable<HookModule['reply']>)(peer, text));
  }

  /** The text a peer sends; HookError when it throws or answers something else than a text. */
  message(peer: HookPeer, text: string): string {
    return this.timed(() => {
      const r = (this.hook.message as NonNullable<HookModule['message']>)(peer, text);
      if (typeof r !== 'string') throw new Error('message() must return a text');
      return r;
    });
  }

  private timed<T>(call: () => T): T {
    const started = performance.now();
    try {
      const r = call();
      refuseThenable(r, 'a WebSocket hook');
      return r;
    } catch (err) {
      throw new HookError((err as Error)?.message ?? String(err));
    } finally {
      this.calls++;
      this.us += (performance.now() - started) * 1000;
    }
  }

  stats(): { calls: number; us: number } {
    return { calls: this.calls, us: Math.round(this.us) };
  }
}

// A scenario's script hook (issue 34): a single-file ES module, loaded in each engine thread from the
// source the plan carries (a data: URL, so it can import Node's built-ins and nothing else), for what
// declarations cannot say. It may export `request(ctx)`, called for every request to build it (its
// `path`, `method`, `headers` and `body` replace the scenario's; returning the very object it returned
// last reuses that request's bytes), and `check(response, ctx)`, called for every response that passed
// the request's own checks (false, or a text, fails it as check `hook`). Time inside the hook is summed
// apart (the trial's generator.hook) and is part of the generator's, never the service's latency. A
// hook that throws fails that request: `hook-error`, counted.
import type { PlanTarget } from '../../src/runner-kit/plan.js';

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

export interface HookModule {
  request?: (ctx: HookContext) => HookRequest;
  check?: (response: HookResponse, ctx: HookContext) => unknown;
}

/** A hook's request builder threw: that request fails as `hook-error`. */
export class HookError extends Error {}

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
  for (const name of ['request', 'check'] as const) {
    if (mod[name] === undefined) continue;
    if (typeof mod[name] !== 'function') throw new Error(`hook ${file}: its export ${name} is not a function`);
    hook[name] = mod[name] as never;
  }
  if (!hook.request && !hook.check) throw new Error(`hook ${file}: exports neither request nor check`);
  loaded.set(source, hook);
  return hook;
}

/** The hook of a scenario's target, imported in this thread (nothing when it has none). */
export async function loadHooksOf(target: PlanTarget): Promise<void> {
  if (target.kind === 'http' && target.hook) await loadHook(target.hook.file, target.hook.source);
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
      return verdict === false || typeof verdict === 'string' ? 'hook' : undefined;
    } catch {
      return 'hook-error';
    } finally {
      this.calls++;
      this.us += (performance.now() - started) * 1000;
    }
  }

  stats(): { calls: number; us: number } {
    return { calls: this.calls, us: Math.round(this.us) };
  }
}

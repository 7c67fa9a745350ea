// Pure: a WebSocket scenario's peers as the config writes them (templates, headers, drain, the push and
// connect gates) read into the normalised target, and its phases (peers, messages, rate).
import type { z } from 'zod';
import { headerProblem } from '../../config-parts/headers.js';
import { withAmount } from '../../config-parts/phases.js';
import type { RawPhase } from '../../config-parts/phase-schema.js';
import type { websocket } from './schema.js';
import { mergeThresholds } from '../../config-parts/thresholds.js';
import { DEFAULT_WS_DRAIN_MS, type Scenario, type WsSpec, type WsTarget } from '../../config-parts/types.js';
import type { Phase } from '../../runner-kit/plan.js';
import { compileTemplate, render } from '../../runner-kit/ws-template.js';
import { parseDurationMs } from '../../common/units.js';
import type { NormalizeContext, ResolveIo } from '../protocol.js';
import type { RawScenario } from '../schema.js';
import { readHook } from '../hook-source.js';

export function normalizeWsPhase(input: RawPhase, path: string, problems: string[]): Phase | undefined {
  const raw = withAmount(input, path, problems);
  for (const key of [
    'connections',
    'duration',
    'requests',
    'max-in-flight',
    'stages',
    'pipelining',
    'streams',
  ] as const) {
    if (raw[key] !== undefined) problems.push(`${path}.${key}: not a WebSocket phase key (peers, messages, rate)`);
  }
  if (raw.peers === undefined || raw.messages === undefined) {
    problems.push(`${path}: a WebSocket phase needs peers and messages`);
    return undefined;
  }
  if (raw.peers < 2) problems.push(`${path}.peers: must be at least 2 (messages go to another peer)`);
  const phase: Phase = {
    kind: 'ws',
    name: raw.name ?? `p${raw.peers}-m${raw.messages}`,
    peers: raw.peers,
    messages: raw.messages,
  };
  if (raw.rate !== undefined) phase.rate = raw.rate;
  return phase;
}

type RawWebSocket = z.infer<typeof websocket>;

/** A template as text: a string as written, an object or array as JSON. */
function templateText(t: RawWebSocket['message']): { text: string; json: boolean } {
  return typeof t === 'string' ? { text: t, json: false } : { text: JSON.stringify(t), json: true };
}

function normalizeWebSocket(raw: RawWebSocket, path: string, problems: string[]): WsSpec {
  const check = (text: string, json: boolean, at: string, needsId: boolean): void => {
    let compiled;
    try {
      compiled = compileTemplate(text);
    } catch (err) {
      problems.push(`${at}: ${(err as Error).message}`);
      return;
    }
    if (needsId && !compiled.uses.has('id')) {
      problems.push(`${at}: must contain {{id}} (acks and pushes are matched by it)`);
    }
    if (json) {
      try {
        JSON.parse(render(compiled, { id: 'pg-0-0-0', peer: 0, other: 1, n: 0 }));
      } catch (err) {
        problems.push(`${at}: not valid JSON once its placeholders are filled in (${(err as Error).message})`);
      }
    }
  };
  try {
    const url = compileTemplate(raw.url);
    const other = [...url.uses].find((u) => u !== 'peer');
    if (other) problems.push(`${path}.url: only {{peer}} can be used in the URL, not {{${other}}}`);
    else if (!URL.canParse(render(url, { id: '', peer: 0, other: 0, n: 0 }))) {
      problems.push(`${path}.url: not a valid URL`);
    }
  } catch (err) {
    problems.push(`${path}.url: ${(err as Error).message}`);
  }
  const headers: Record<string, string> = { ...(raw.headers ?? {}) };
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerProblem(name, value);
    if (problem) problems.push(`${path}.headers.${name}: ${problem}`);
  }
  const message = templateText(raw.message);
  check(message.text, message.json || raw.json === true, `${path}.message`, true);
  const hello = (raw.hello ?? []).map((h, i) => {
    const t = templateText(h);
    check(t.text, t.json || raw.json === true, `${path}.hello[${i}]`, false);
    return t.text;
  });
  if (raw['hello-reply'] && hello.length === 0) problems.push(`${path}.hello-reply: needs hello messages to answer`);
  const drainMs = raw.drain !== undefined ? (parseDurationMs(raw.drain) as number) : DEFAULT_WS_DRAIN_MS;
  if (raw.push === 'none' && raw.thresholds?.push !== undefined)
    problems.push(`${path}.thresholds.push: no push to gate with push: none (an echo server answers the sender only)`);
  const push = raw.push && raw.push !== 'one' ? { push: raw.push } : {};
  return {
    ...push,
    url: raw.url,
    headers,
    hello,
    helloReply: raw['hello-reply'] ?? false,
    message: message.text,
    drainMs,
    thresholds: {
      push: mergeThresholds(undefined, raw.thresholds?.push, `${path}.thresholds.push`, problems),
      connect: mergeThresholds(undefined, raw.thresholds?.connect, `${path}.thresholds.connect`, problems),
    },
  };
}

export function normalizeWsTarget(raw: RawScenario, path: string, ctx: NormalizeContext): WsTarget | undefined {
  if (!raw.websocket) return undefined;
  const websocket = normalizeWebSocket(raw.websocket, `${path}.websocket`, ctx.problems);
  if (raw.hook !== undefined) {
    const file = ctx.resolveAt(`${path}.hook`, raw.hook);
    if (file) websocket.hook = { file };
  }
  return { kind: 'ws', websocket };
}

/** Each WebSocket scenario's hook read (its source onto the target), each problem a `path: message` line. */
export function resolveWs(scenarios: readonly Scenario[], io: ResolveIo): string[] {
  return scenarios.flatMap((s, i) => {
    const hook = s.target.kind === 'ws' ? s.target.websocket.hook : undefined;
    const problem = hook ? readHook(hook, io, ['hello', 'reply', 'message']) : undefined;
    return problem ? [`scenarios[${i}].hook: ${problem}`] : [];
  });
}

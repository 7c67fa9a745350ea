// The message templates of WebSocket phases, shared by the host (validated when the config is read)
// and the runner (rendered per message). Placeholders: {{id}} the message's unique id (how acks and
// pushes are matched: the first message on a socket that contains it), {{peer}} the sender's number,
// {{other}} a random other peer's number, {{n}} the sender's message counter (from 0); and the request
// templates' functions (./template.ts): {{uuid()}}, {{int(a, b)}}, {{now()}}, {{base64('…')}},
// {{hmacSha256('KEY', '…')}}, made per message.
import { randomUUID } from 'node:crypto';
import { compileText, type Slot, slotValue, TEMPLATE_FUNCTIONS, type TemplateSources } from './template.js';
export const WS_PLACEHOLDERS = ['id', 'peer', 'other', 'n'] as const;
export type WsPlaceholder = (typeof WS_PLACEHOLDERS)[number];
export type WsValues = Record<WsPlaceholder, string | number>;

const PLACEHOLDER = /\{\{\s*([^}]*?)\s*\}\}/g;

/** A template split once into literal text and placeholders, rendered without a regex per message. */
export interface CompiledTemplate {
  parts: Array<string | WsPlaceholder | Slot>;
  uses: ReadonlySet<WsPlaceholder>;
}

/** Throws an Error naming the first unknown placeholder. */
export function compileTemplate(text: string): CompiledTemplate {
  const parts: Array<string | WsPlaceholder | Slot> = [];
  const uses = new Set<WsPlaceholder>();
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1] as string;
    parts.push(text.slice(last, m.index));
    if ((WS_PLACEHOLDERS as readonly string[]).includes(name)) {
      parts.push(name as WsPlaceholder);
      uses.add(name as WsPlaceholder);
    } else parts.push(functionSlot(m[0], name));
    last = (m.index ?? 0) + m[0].length;
  }
  parts.push(text.slice(last));
  return { parts, uses };
}

/** A placeholder that is a function call (`{{uuid()}}`); throws naming what it is not. */
function functionSlot(whole: string, name: string): Slot {
  const { compiled, problems } = compileText(whole, undefined);
  const [first, slot, rest] = compiled.parts;
  if (problems.length > 0) throw new Error(problems[0]);
  if (compiled.parts.length !== 3 || first !== '' || rest !== '' || typeof slot !== 'object')
    throw new Error(
      `unknown placeholder {{${name}}} (use ${WS_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}, or a function: ${Object.keys(
        TEMPLATE_FUNCTIONS,
      )
        .map((f) => `${f}()`)
        .join(', ')})`,
    );
  return slot;
}

/** Where a template's functions get their randomness and clock (no data, no flow values here). */
const SOURCES: TemplateSources = { row: undefined, uuid: randomUUID, random: Math.random, now: Date.now };

/** Literal text sits at even indexes, placeholders at odd ones. */
export function render(t: CompiledTemplate, values: WsValues): string {
  let out = '';
  for (let i = 0; i < t.parts.length; i++) {
    const part = t.parts[i] as string | WsPlaceholder | Slot;
    out +=
      i % 2 === 0
        ? (part as string)
        : typeof part === 'string'
          ? String(values[part as WsPlaceholder])
          : slotValue(part, SOURCES);
  }
  return out;
}

/** The id of a peer's n-th message in a stage; `nonce` tells one stage's messages from another's. */
export function messageId(nonce: string, peer: number, n: number): string {
  return `pg-${nonce}-${peer}-${n}`;
}

/** Every message id of the stage in a received text: [peer, n] pairs. */
export function* idsIn(text: string, nonce: string): Generator<[number, number]> {
  const marker = `pg-${nonce}-`;
  let at = text.indexOf(marker);
  while (at !== -1) {
    let i = at + marker.length;
    let peer = 0;
    let digits = 0;
    for (; i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57; i++, digits++) {
      peer = peer * 10 + text.charCodeAt(i) - 48;
    }
    if (digits > 0 && text[i] === '-') {
      let n = 0;
      let nd = 0;
      for (i++; i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57; i++, nd++) {
        n = n * 10 + text.charCodeAt(i) - 48;
      }
      if (nd > 0) yield [peer, n];
    }
    at = text.indexOf(marker, i);
  }
}

// Pure: a pprof profile (profile.proto, as Go's /debug/pprof/profile and every pprof-speaking profiler
// serve it, gzip-compressed or not) read into what a diff needs: the profile's total and each
// function's flat share (samples whose innermost frame it is) and cumulative share (samples with it
// anywhere on the stack, once each), and the samples' stacks merged into one tree (root first, as a flame
// graph draws them). The bytes come from the service under test: untrusted, so the
// decoding is bounded (sizes, counts, nesting) and every failure is a ProfileError, never a crash.
import { gunzipSync } from 'node:zlib';
import { PROFILE_MAX_BYTES } from '../runner-kit/profile.js';

/** The most a profile may take decompressed (compressed: PROFILE_MAX_BYTES, as the runner fetches it). */
export const PROFILE_MAX_DECODED_BYTES = 64 * 1024 * 1024;
/** The most fields a profile's messages may hold in all (each is an object in memory), the most frames
 * a sample's stack may have, and the most frames all samples may visit together (the work). */
export const PROFILE_MAX_FIELDS = 1_000_000;
export const PROFILE_MAX_STACK = 1024;
export const PROFILE_MAX_FRAME_VISITS = 20_000_000;
/** The most nodes the stacks' tree keeps: a sample whose path would need more adds its value to the
 * deepest node it has (the tree is then `truncated`). */
export const PROFILE_MAX_NODES = 100_000;

export class ProfileError extends Error {}

export interface ProfileFunction {
  /** the function's name as the profiler gave it (untrusted text: escape where it lands) */
  name: string;
  file: string;
  /** of the profile's total: samples whose innermost frame is this function */
  flat: number;
  /** samples with this function anywhere on their stack (counted once per sample) */
  cum: number;
}

/** A call path's node: samples whose stack starts (at its root) with the path to it. */
export interface StackNode {
  name: string;
  file: string;
  /** the samples' values with this path on their stack, added up */
  value: number;
  /** its callees, by name then file */
  children: StackNode[];
}

export interface ProfileSummary {
  /** what the values count, as the profile names it: `cpu` and `nanoseconds` for a Go CPU profile */
  sampleType: string;
  unit: string;
  /** every sample's value of that type, added up */
  total: number;
  /** by flat value, largest first */
  functions: ProfileFunction[];
  /** every sample's stack, root first, merged: the root is no function (its value is `total`) */
  root: StackNode;
  /** some sample's path was cut short at PROFILE_MAX_NODES nodes (its value stays at the deepest kept) */
  truncated: boolean;
}

/** A protobuf message's fields: field number → each occurrence (varints as numbers, the rest as bytes). */
type Fields = Map<number, Array<number | Uint8Array>>;

/** What decoding one profile may still spend: fields read, frames visited. */
interface Budget {
  fields: number;
  frames: number;
}

/** A base-128 varint of `buf` at `at.p` (moved past it), at most 10 bytes; `what` names it in errors. */
function varintAt(buf: Uint8Array, at: { p: number }, what: string): number {
  let v = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (at.p >= buf.length) throw new ProfileError(`profile: a ${what} runs past the end`);
    const b = buf[at.p++] as number;
    v += (b & 0x7f) * scale;
    if ((b & 0x80) === 0) return v;
    scale *= 128;
  }
  throw new ProfileError(`profile: a ${what} longer than 10 bytes`);
}

/** Reads one message's fields (wire types 0, 1, 2 and 5; groups are refused), each charged to `budget`. */
function fields(buf: Uint8Array, budget: Budget): Fields {
  const out: Fields = new Map();
  const at = { p: 0 };
  const varint = () => varintAt(buf, at, 'number');
  while (at.p < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    let value: number | Uint8Array;
    if (wire === 0) value = varint();
    else if (wire === 1 || wire === 5) {
      const n = wire === 1 ? 8 : 4;
      if (at.p + n > buf.length) throw new ProfileError('profile: a fixed-size field runs past the end');
      value = buf.subarray(at.p, at.p + n);
      at.p += n;
    } else if (wire === 2) {
      const n = varint();
      if (n > buf.length - at.p) throw new ProfileError('profile: a field longer than the message');
      value = buf.subarray(at.p, at.p + n);
      at.p += n;
    } else throw new ProfileError(`profile: wire type ${wire} is not read`);
    if (--budget.fields < 0) throw new ProfileError(`profile: more than ${PROFILE_MAX_FIELDS} fields`);
    const list = out.get(field);
    if (list) list.push(value);
    else out.set(field, [value]);
  }
  return out;
}

/** A field's numbers: each varint, and packed ones (a length-delimited run of varints) unpacked. */
function numbers(f: Fields, field: number): number[] {
  const out: number[] = [];
  for (const v of f.get(field) ?? []) {
    if (typeof v === 'number') out.push(v);
    else {
      // packed: the run is a message of varints without keys; read them in turn
      const at = { p: 0 };
      while (at.p < v.length) out.push(varintAt(v, at, 'packed number'));
    }
  }
  return out;
}

const one = (f: Fields, field: number): number => numbers(f, field)[0] ?? 0;
const messages = (f: Fields, field: number): Uint8Array[] =>
  (f.get(field) ?? []).filter((v): v is Uint8Array => typeof v !== 'number');

/** The profile's bytes as served: gzip-compressed (as Go serves it) or plain profile.proto. */
function decoded(bytes: Uint8Array): Uint8Array {
  if (bytes.length > PROFILE_MAX_BYTES) throw new ProfileError(`profile: larger than ${PROFILE_MAX_BYTES} bytes`);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    return gunzipSync(bytes, { maxOutputLength: PROFILE_MAX_DECODED_BYTES });
  } catch (err) {
    throw new ProfileError(`profile: not gzip or too large decompressed (${(err as Error).message.split('\n')[0]})`);
  }
}

/** A pprof profile's functions and their shares of the chosen sample type (the default one: the
 * profile's `default_sample_type` where it names one of its types, else its last, as `go tool pprof`
 * does). Functions of the same name and file are one (as pprof's function granularity counts them). */
export function readPprof(bytes: Uint8Array): ProfileSummary {
  const budget: Budget = { fields: PROFILE_MAX_FIELDS, frames: PROFILE_MAX_FRAME_VISITS };
  const read = (m: Uint8Array) => fields(m, budget);
  const top = read(decoded(bytes));
  const text = new TextDecoder('utf-8', { fatal: false });
  const strings = messages(top, 6).map((b) => text.decode(b));
  const str = (i: number) => strings[i] ?? '';
  const types = messages(top, 1).map((m) => {
    const f = read(m);
    return { type: str(one(f, 1)), unit: str(one(f, 2)) };
  });
  if (types.length === 0) throw new ProfileError('profile: no sample type');
  // default_sample_type: a string index (0, the empty string, is none)
  const named = one(top, 14);
  const preferred = named === 0 ? -1 : types.findIndex((t) => t.type === str(named));
  const at = preferred >= 0 ? preferred : types.length - 1;
  // function id → its name and file, and the key functions of the same name and file share
  const functions = new Map<number, { name: string; file: string; key: string }>();
  for (const m of messages(top, 5)) {
    const f = read(m);
    const name = str(one(f, 2));
    const file = str(one(f, 4));
    functions.set(one(f, 1), { name, file, key: `${name}\u0000${file}` });
  }
  const keyOf = (id: number) => functions.get(id)?.key ?? `function ${id}\u0000`;
  // a location's frames, innermost first (its lines: the last is the caller the others were inlined into)
  const locations = new Map<number, string[]>();
  for (const m of messages(top, 4)) {
    const f = read(m);
    locations.set(
      one(f, 1),
      messages(f, 4).map((line) => keyOf(one(read(line), 1))),
    );
  }
  const flat = new Map<string, number>();
  const cum = new Map<string, number>();
  let total = 0;
  // the tree as it is built: each node's children by key
  interface Building {
    key: string;
    value: number;
    children: Map<string, Building>;
  }
  const root: Building = { key: '', value: 0, children: new Map() };
  let nodes = 0;
  let truncated = false;
  for (const m of messages(top, 2)) {
    const f = read(m);
    const value = numbers(f, 2)[at] ?? 0;
    if (value === 0) continue;
    total += value;
    const frames: string[] = [];
    for (const id of numbers(f, 1))
      for (const key of locations.get(id) ?? []) {
        if (frames.length === PROFILE_MAX_STACK)
          throw new ProfileError(`profile: a stack of more than ${PROFILE_MAX_STACK} frames`);
        frames.push(key);
      }
    budget.frames -= frames.length;
    if (budget.frames < 0) throw new ProfileError(`profile: more than ${PROFILE_MAX_FRAME_VISITS} frames in all`);
    const leaf = frames[0];
    if (leaf !== undefined) flat.set(leaf, (flat.get(leaf) ?? 0) + value);
    for (const key of new Set(frames)) cum.set(key, (cum.get(key) ?? 0) + value);
    let node = root;
    node.value += value;
    for (let i = frames.length - 1; i >= 0; i--) {
      const key = frames[i] as string;
      let next = node.children.get(key);
      if (!next) {
        if (nodes === PROFILE_MAX_NODES) {
          truncated = true;
          break;
        }
        nodes++;
        next = { key, value: 0, children: new Map() };
        node.children.set(key, next);
      }
      next.value += value;
      node = next;
    }
  }
  const finished = (b: Building): StackNode => {
    const [name = '', file = ''] = b.key.split('\u0000');
    return {
      name,
      file,
      value: b.value,
      children: [...b.children.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0)).map(finished),
    };
  };
  const chosen = types[at] as { type: string; unit: string };
  const share = (v: number | undefined) => (total > 0 ? (v ?? 0) / total : 0);
  return {
    sampleType: chosen.type,
    unit: chosen.unit,
    total,
    functions: [...cum.keys()]
      .map((key) => {
        const [name = '', file = ''] = key.split('\u0000');
        return { name, file, flat: share(flat.get(key)), cum: share(cum.get(key)) };
      })
      .sort((a, b) => b.flat - a.flat || b.cum - a.cum || a.name.localeCompare(b.name)),
    root: finished(root),
    truncated,
  };
}

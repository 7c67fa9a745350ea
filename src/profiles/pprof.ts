// Pure: a pprof profile (profile.proto, as Go's /debug/pprof/profile and every pprof-speaking profiler
// serve it, gzip-compressed or not) read into what a diff needs (./stacks.ts: each function's flat and
// cumulative share, the stacks merged into one tree). The bytes come from the service under test:
// untrusted, so the decoding is bounded (sizes, counts, nesting) and every failure is a ProfileError,
// never a crash.
import { gunzipSync } from 'node:zlib';
import { PROFILE_MAX_BYTES } from '../runner-kit/profile.js';
import { frameKey, ProfileError, type ProfileSummary, pushFrame, stackAccumulator } from './stacks.js';

/** The most a profile may take decompressed (compressed: PROFILE_MAX_BYTES, as the runner fetches it). */
export const PROFILE_MAX_DECODED_BYTES = 64 * 1024 * 1024;
/** The most fields a profile's messages may hold in all (each is an object in memory). */
export const PROFILE_MAX_FIELDS = 1_000_000;

/** A protobuf message's fields: field number → each occurrence (varints as numbers, the rest as bytes). */
type Fields = Map<number, Array<number | Uint8Array>>;

/** What decoding one profile may still spend: fields read (the frames visited are the stacks'). */
interface Budget {
  fields: number;
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
  const budget: Budget = { fields: PROFILE_MAX_FIELDS };
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
    functions.set(one(f, 1), { name, file, key: frameKey(name, file) });
  }
  const keyOf = (id: number) => functions.get(id)?.key ?? frameKey(`function ${id}`, '');
  // a location's frames, innermost first (its lines: the last is the caller the others were inlined into)
  const locations = new Map<number, string[]>();
  for (const m of messages(top, 4)) {
    const f = read(m);
    locations.set(
      one(f, 1),
      messages(f, 4).map((line) => keyOf(one(read(line), 1))),
    );
  }
  const stacks = stackAccumulator();
  for (const m of messages(top, 2)) {
    const f = read(m);
    const value = numbers(f, 2)[at] ?? 0;
    if (value === 0) continue;
    const frames: string[] = [];
    for (const id of numbers(f, 1)) for (const key of locations.get(id) ?? []) pushFrame(frames, key);
    stacks.add(frames, value);
  }
  const chosen = types[at] as { type: string; unit: string };
  return stacks.summary(chosen.type, chosen.unit);
}

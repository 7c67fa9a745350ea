// The SUT's profiles (src/profiles/): pprof files read as `go tool pprof` reads them, and diffed.
// fixtures/pprof: two CPU profiles of fixtures/pprof/pprofgen.go.txt (head does 4x the parsing per
// request), each with `go tool pprof -top -nodecount=100000` of it (go 1.26.8): the reference.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { profileDiff } from '../../src/profiles/diff.js';
import { PROFILE_MAX_BYTES } from '../../src/runner-kit/profile.js';
import { PROFILE_MAX_FIELDS, readPprof } from '../../src/profiles/pprof.js';
import { PROFILE_MAX_NODES, PROFILE_MAX_STACK, ProfileError, type StackNode } from '../../src/profiles/stacks.js';

const DIR = resolve(import.meta.dirname, '../../fixtures/pprof');
const profile = (side: string) => readPprof(readFileSync(join(DIR, `${side}.pb.gz`)));

/** `go tool pprof -top`'s rows: a function's flat% and cum% (an inlined copy, "(inline)", kept apart). */
function top(side: string): Array<{ name: string; flat: number; cum: number }> {
  return readFileSync(join(DIR, `${side}.top.txt`), 'utf8')
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const m = /^\s*\S+\s+([\d.]+)%\s+[\d.]+%\s+\S+\s+([\d.]+)%\s+(.+)$/.exec(line);
      return m ? [{ name: m[3] as string, flat: Number(m[1]), cum: Number(m[2]) }] : [];
    });
}

describe('readPprof: as go tool pprof reads it', () => {
  it.each(['base', 'head'])('%s: every function’s flat and cumulative share within pprof’s rounding', (side) => {
    const ours = profile(side);
    expect([ours.sampleType, ours.unit]).toEqual(['cpu', 'nanoseconds']);
    const rows = top(side);
    expect(rows.length).toBeGreaterThan(50);
    // pprof lists an inlined copy of a function apart ("name (inline)"); we count a function once
    const byName = new Map<string, Array<{ flat: number; cum: number }>>();
    for (const r of rows) {
      const name = r.name.replace(/ \(inline\)$/, '');
      byName.set(name, [...(byName.get(name) ?? []), r]);
    }
    const mine = new Map(ours.functions.map((f) => [f.name, f]));
    expect([...mine.keys()].sort()).toEqual([...byName.keys()].sort());
    for (const [name, theirs] of byName) {
      const f = mine.get(name);
      const flat = theirs.reduce((a, r) => a + r.flat, 0);
      expect(Math.abs((f?.flat ?? 0) * 100 - flat), `${name} flat`).toBeLessThan(0.006 * theirs.length);
      // one row: its cumulative share is ours (with an inlined copy beside it, a sample may hold both)
      if (theirs.length === 1)
        expect(Math.abs((f?.cum ?? 0) * 100 - (theirs[0]?.cum ?? 0)), `${name} cum`).toBeLessThan(0.006);
    }
  });

  it('reads a profile not compressed too', () => {
    const plain = gunzipSync(readFileSync(join(DIR, 'base.pb.gz')));
    expect(readPprof(plain)).toEqual(profile('base'));
  });

  it.each<[string, Uint8Array]>([
    ['nothing', new Uint8Array(0)],
    ['not a profile (HTML)', Buffer.from('<html>404</html>')],
    ['a field longer than the message', Uint8Array.from([0x0a, 0x7f, 0x01])],
    ['a number past the end', Uint8Array.from([0x08, 0xff])],
    ['a group (wire type 3)', Uint8Array.from([0x0b])],
    ['gzip that is not', Uint8Array.from([0x1f, 0x8b, 0x00, 0x00])],
    ['too large', new Uint8Array(PROFILE_MAX_BYTES + 1)],
    ['a zip bomb', gzipSync(Buffer.alloc(80 * 1024 * 1024))],
  ])('%s: a ProfileError, never a crash', (_label, bytes) => {
    expect(() => readPprof(bytes)).toThrow(ProfileError);
  });
});

/** A profile.proto written by hand: varints, length-delimited fields, packed numbers. */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 128) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
const field = (no: number, v: number | number[]): number[] =>
  typeof v === 'number' ? [...varint(no * 8), ...varint(v)] : [...varint(no * 8 + 2), ...varint(v.length), ...v];
const packed = (no: number, ns: number[]) => field(no, ns.flatMap(varint));

/**
 * Functions 1 `f` and 2 `g`, one location each (ids 1, 2); `samples` are stacks of location ids, leaf
 * first, each with two values [count, cpu]; `defaultType`: the string index of the type to read.
 */
function handMade(samples: Array<{ stack: number[]; values: [number, number] }>, defaultType?: number): Uint8Array {
  const strings = ['', 'samples', 'count', 'cpu', 'nanoseconds', 'f', 'g', 'f.go'];
  const bytes = [
    ...field(1, [...field(1, 1), ...field(2, 2)]),
    ...field(1, [...field(1, 3), ...field(2, 4)]),
    ...samples.flatMap((s) => field(2, [...packed(1, s.stack), ...packed(2, s.values)])),
    ...field(4, [...field(1, 1), ...field(4, field(1, 1))]),
    ...field(4, [...field(1, 2), ...field(4, field(1, 2))]),
    ...field(5, [...field(1, 1), ...field(2, 5), ...field(4, 7)]),
    ...field(5, [...field(1, 2), ...field(2, 6), ...field(4, 7)]),
    ...strings.flatMap((t) => field(6, [...Buffer.from(t)])),
    ...(defaultType !== undefined ? field(14, defaultType) : []),
  ];
  return Uint8Array.from(bytes);
}

describe('readPprof on profiles made by hand', () => {
  it('a recursive function counts once per sample in its cumulative share; the last sample type by default', () => {
    const p = readPprof(
      handMade([
        { stack: [1, 1, 1, 2], values: [1, 30] },
        { stack: [2], values: [3, 10] },
      ]),
    );
    expect([p.sampleType, p.unit, p.total]).toEqual(['cpu', 'nanoseconds', 40]);
    expect(p.functions).toEqual([
      { name: 'f', file: 'f.go', flat: 0.75, cum: 0.75 },
      { name: 'g', file: 'f.go', flat: 0.25, cum: 1 },
    ]);
  });

  it('bounded: a stack deeper than the limit, and more fields than the limit, are a ProfileError', () => {
    const deep = handMade([{ stack: Array.from({ length: PROFILE_MAX_STACK + 1 }, () => 1), values: [1, 1] }]);
    expect(() => readPprof(deep)).toThrow(/a stack of more than 1024 frames/);
    expect(() =>
      readPprof(handMade([{ stack: Array.from({ length: PROFILE_MAX_STACK }, () => 1), values: [1, 1] }])),
    ).not.toThrow();
    // drop_frames (field 7) over and over: two bytes a field
    const many = Buffer.alloc(2 * (PROFILE_MAX_FIELDS + 1));
    for (let i = 0; i < many.length; i += 2) {
      many[i] = 0x38;
      many[i + 1] = 0x01;
    }
    expect(() => readPprof(many)).toThrow(/more than 1000000 fields/);
  });

  it('a packed number of 11 bytes is refused, as a field’s is', () => {
    const sample = (ids: number[]) => field(2, [...field(1, ids), ...packed(2, [1, 1])]);
    const types = [...field(1, [...field(1, 1)]), ...field(1, [...field(1, 1)])];
    const ten = [...Array.from({ length: 9 }, () => 0x81), 0x01];
    expect(() => readPprof(Uint8Array.from([...types, ...sample(ten)]))).not.toThrow();
    expect(() => readPprof(Uint8Array.from([...types, ...sample([0x81, ...ten])]))).toThrow(
      /a packed number longer than 10 bytes/,
    );
  });

  it("the profile's default sample type where it names one", () => {
    const p = readPprof(
      handMade(
        [
          { stack: [1], values: [1, 30] },
          { stack: [2], values: [3, 10] },
        ],
        1,
      ),
    );
    expect([p.sampleType, p.total]).toEqual(['samples', 4]);
    // a default that names no type of the profile: the last, as pprof reads it
    expect(readPprof(handMade([{ stack: [1], values: [1, 30] }], 5)).sampleType).toBe('cpu');
    expect(p.functions.map((f) => [f.name, f.flat])).toEqual([
      ['g', 0.75],
      ['f', 0.25],
    ]);
  });
});

/** Each path's own value (its samples that end there), root first, names joined by ';' as folded
 * stacks write them. */
function selfByPath(node: StackNode, prefix: string[] = [], out = new Map<string, number>()): Map<string, number> {
  const own = node.value - node.children.reduce((a, c) => a + c.value, 0);
  if (own > 0 && prefix.length > 0) out.set(prefix.join(';'), (out.get(prefix.join(';')) ?? 0) + own);
  for (const c of node.children) selfByPath(c, [...prefix, c.name], out);
  return out;
}

/** `go tool pprof -traces`: each sample's stack (leaf first) and its value, read as folded stacks
 * (root first; an inlined frame's " (inline)" left out, as the tree counts a function once), ns. */
function traces(side: string): Map<string, number> {
  const unit: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9 };
  const out = new Map<string, number>();
  const blocks = readFileSync(join(DIR, `${side}.traces.txt`), 'utf8')
    .split(/^-+\+-+$/m)
    .slice(1);
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    const m = /^\s*([\d.]+)(ns|us|µs|ms|s)\s+(.+)$/.exec(lines[0] ?? '');
    if (!m) continue;
    const frames = [m[3] as string, ...lines.slice(1).map((l) => l.trim())].map((f) => f.replace(/ \(inline\)$/, ''));
    const path = frames.reverse().join(';');
    out.set(path, (out.get(path) ?? 0) + Math.round(Number(m[1]) * (unit[m[2] as string] as number)));
  }
  return out;
}

describe('readPprof: the stacks merged into a tree, as go tool pprof -traces lists them', () => {
  it.each(['base', 'head'])('%s: every stack’s value, root first, equal to pprof’s', (side) => {
    const p = profile(side);
    const theirs = traces(side);
    expect(theirs.size).toBeGreaterThan(50);
    expect(selfByPath(p.root)).toEqual(theirs);
    expect(p.root.value).toBe(p.total);
    expect(p.truncated).toBe(false);
  });

  it('a recursive function is a node at each depth it is called at', () => {
    const p = readPprof(
      handMade([
        { stack: [1, 1, 1, 2], values: [1, 30] },
        { stack: [2], values: [3, 10] },
      ]),
    );
    expect(selfByPath(p.root)).toEqual(
      new Map([
        ['g;f;f;f', 30],
        ['g', 10],
      ]),
    );
  });

  it(`bounded: past ${PROFILE_MAX_NODES} nodes a path is cut, its value kept at the deepest node it has`, () => {
    // 100 stacks of 1,024 frames, each a different pattern of f and g in its 7 root-most frames: about
    // 101,700 distinct paths
    const samples = Array.from({ length: 100 }, (_, i) => ({
      stack: [
        ...Array.from({ length: PROFILE_MAX_STACK - 7 }, () => 1),
        ...Array.from({ length: 7 }, (_, b) => ((i >> b) & 1) + 1),
      ],
      values: [1, 1] as [number, number],
    }));
    const p = readPprof(handMade(samples));
    expect(p.truncated).toBe(true);
    expect(p.root.value).toBe(100);
    let nodes = 0;
    const count = (n: StackNode) => {
      nodes += n.children.length;
      n.children.forEach(count);
    };
    count(p.root);
    expect(nodes).toBe(PROFILE_MAX_NODES);
    // every sample's value is still in the tree, at the deepest node its path kept
    expect([...selfByPath(p.root).values()].reduce((a, v) => a + v, 0)).toBe(100);
  });
});

describe('profileDiff', () => {
  it('the function already holding most of the profile comes first, not its callers that rose as much', () => {
    // measured on the real engine (profile.test.ts): checksumBody 4x the rounds, at 87% of the base's
    // samples already; its callers hold it, so their shares rose as much (a little more, by noise)
    const f = (name: string, flat: number, cum: number) => ({ name, file: 'main.go', flat, cum });
    const base = {
      sampleType: 'cpu',
      unit: 'nanoseconds',
      total: 1,
      functions: [
        f('net/http.HandlerFunc.ServeHTTP', 0, 0.875),
        f('main.handler', 0.004, 0.875),
        f('main.checksumBody', 0.865, 0.868),
        f('syscall.write', 0.1, 0.1),
      ],
    };
    const head = {
      ...base,
      functions: [
        f('net/http.HandlerFunc.ServeHTTP', 0, 0.938),
        f('main.handler', 0, 0.938),
        f('main.checksumBody', 0.925, 0.925),
        f('syscall.write', 0.05, 0.05),
      ],
    };
    // then the callers, by their rise (alike here: the one whose own share fell last)
    expect(profileDiff(base, head).map((c) => c.name)).toEqual([
      'main.checksumBody',
      'net/http.HandlerFunc.ServeHTTP',
      'main.handler',
    ]);
  });

  it('with the call tree: an unrelated function that rose about as much is not taken for the deeper one', () => {
    const f = (name: string, flat: number, cum: number) => ({ name, file: 'main.go', flat, cum });
    const n = (name: string, value: number, children: StackNode[] = []): StackNode => ({
      name,
      file: 'main.go',
      value,
      children,
    });
    const base = {
      functions: [
        f('main.handler', 0.004, 0.875),
        f('main.checksumBody', 0.865, 0.868),
        f('runtime.gcBgMarkWorker', 0.01, 0.01),
      ],
    };
    // head: the handler's share rose most; checksumBody under it rose nearly as much; the garbage
    // collector's worker, called by nothing of the handler's, rose by 0.05 and holds the least share
    const head = {
      functions: [
        f('main.handler', 0, 0.938),
        f('main.checksumBody', 0.925, 0.925),
        f('runtime.gcBgMarkWorker', 0.06, 0.06),
      ],
      root: n('', 1, [n('main.handler', 0.938, [n('main.checksumBody', 0.925)]), n('runtime.gcBgMarkWorker', 0.06)]),
    };
    expect(profileDiff(base, head)[0]?.name).toBe('main.checksumBody');
    // without the tree, the least share among those that rose as much comes first: the unrelated one
    const { root: _tree, ...flatOnly } = head;
    expect(profileDiff(base, flatOnly)[0]?.name).toBe('runtime.gcBgMarkWorker');
  });

  it('the function head does more of comes first, and its callers do not', () => {
    const changes = profileDiff(profile('base'), profile('head'));
    expect(changes[0]?.name).toBe('main.parseWork');
    expect(changes.map((c) => c.name)).not.toContain('main.request');
    expect(changes.map((c) => c.name)).not.toContain('main.hashWork');
    // every change listed rose, most first
    const rises = changes.map((c) => c.cum.head - c.cum.base);
    expect(rises.every((r) => r > 0)).toBe(true);
    expect([...rises].sort((a, b) => b - a)).toEqual(rises);
  });

  it('with the CPU per request of both sides: what each function stands for, in µs per request', () => {
    const [first] = profileDiff(profile('base'), profile('head'), {
      cpuPerRequestUs: { base: 100, head: 160 },
      top: 1,
    });
    expect(first?.perRequestUs?.head).toBeCloseTo((first?.cum.head ?? 0) * 160, 9);
    expect(first?.perRequestUs?.base).toBeCloseTo((first?.cum.base ?? 0) * 100, 9);
  });

  it('the same profile on both sides: nothing rose', () => {
    expect(profileDiff(profile('head'), profile('head'))).toEqual([]);
  });
});

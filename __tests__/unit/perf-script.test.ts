// Linux perf's samples (`perf script`) read into the profile summary a pprof file gives
// (src/profiles/perf-script.ts): two real recordings (fixtures/perf: head does 4x the parsing per
// request), each checked against `perf report --children` of the same data; then hand-made cases in
// perf's format.
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { profileDiff } from '../../src/profiles/diff.js';
import { PERF_NAME_MAX_CHARS, PERF_SCRIPT_MAX_BYTES, readPerfScript } from '../../src/profiles/perf-script.js';
import { PROFILE_MAX_STACK, ProfileError } from '../../src/profiles/stacks.js';

const DIR = resolve(import.meta.dirname, '../../fixtures/perf');

const perf = (side: string) =>
  readPerfScript(gunzipSync(readFileSync(join(DIR, `${side}.perf.txt.gz`))).toString('utf8'));

/** `perf report --children --sort dso,sym`'s rows: a function's children% (cum) and self% (flat). */
function report(side: string): Array<{ dso: string; name: string; flat: number; cum: number }> {
  return readFileSync(join(DIR, `${side}.report.txt`), 'utf8')
    .split('\n')
    .flatMap((line) => {
      const m = /^\s*([\d.]+)%\s+([\d.]+)%\s+(\S+)\s+\[[.k]\] (.+)$/.exec(line);
      return m ? [{ dso: m[3] as string, name: m[4] as string, cum: Number(m[1]), flat: Number(m[2]) }] : [];
    });
}

describe('readPerfScript on two real recordings: as perf report reads them', () => {
  it.each(['base', 'head'])('%s: every function’s self and children share within perf’s rounding', (side) => {
    const ours = perf(side);
    expect([ours.sampleType, ours.unit]).toEqual(['cpu-clock', 'nanoseconds']);
    const rows = report(side);
    expect(rows.length).toBeGreaterThan(100);
    // perf names a DSO by its file's name ("perfgen" for /tmp/pg/perfgen); the kernel's as it is
    const key = (dso: string, name: string) => `${dso}\u0000${name}`;
    const mine = new Map(ours.functions.map((f) => [key(basename(f.file), f.name), f]));
    expect([...mine.keys()].sort()).toEqual(rows.map((r) => key(r.dso, r.name)).sort());
    for (const r of rows) {
      const f = mine.get(key(r.dso, r.name));
      expect(Math.abs((f?.flat ?? 0) * 100 - r.flat), `${r.name} self`).toBeLessThan(0.006);
      expect(Math.abs((f?.cum ?? 0) * 100 - r.cum), `${r.name} children`).toBeLessThan(0.006);
    }
  });

  it('the diff of the two names what head does more of, as with pprof’s profiles', () => {
    const changes = profileDiff(perf('base'), perf('head'));
    // parseWork's share rose 19.8 points, and FormatInt's under it 15.6 (79% of that, over the 75% a
    // deeper function must carry: DEEPEST_SHARE), so FormatInt comes first and parseWork second; in
    // fixtures/pprof's recording of the same change FormatInt carried 63% and parseWork came first
    expect(changes.slice(0, 2).map((c) => c.name)).toEqual(['internal/strconv.FormatInt', 'main.parseWork']);
    expect(changes.map((c) => c.name)).not.toContain('main.hashWork');
    expect(changes.every((c) => c.cum.head > c.cum.base)).toBe(true);
  });
});

/** A sample as `perf script` prints it: a header, then its frames innermost first. */
function sample(period: number, frames: string[], event = 'cpu-clock:pppH:'): string {
  return [
    `sut   4242/4243  [001] 12345.678901:   ${period} ${event} `,
    ...frames.map((f, i) => `\t    ${(0x4000 + i).toString(16)} ${f}`),
    '',
  ].join('\n');
}

describe('readPerfScript', () => {
  it('a sample is its period; flat goes to the innermost frame, cum to every frame once', () => {
    const p = readPerfScript(
      [
        sample(3_000_000, [
          'main.parseWork+0x23 (/app/sut)',
          'main.request+0x10 (/app/sut)',
          'main.main+0x5 (/app/sut)',
        ]),
        sample(1_000_000, ['main.hashWork+0x7 (/app/sut)', 'main.request+0x14 (/app/sut)', 'main.main+0x5 (/app/sut)']),
      ].join('\n'),
    );
    expect(p.sampleType).toBe('cpu-clock');
    expect(p.unit).toBe('nanoseconds');
    expect(p.total).toBe(4_000_000);
    const fn = (name: string) => p.functions.find((f) => f.name === name);
    expect(fn('main.parseWork')).toMatchObject({ file: '/app/sut', flat: 0.75, cum: 0.75 });
    expect(fn('main.hashWork')).toMatchObject({ flat: 0.25, cum: 0.25 });
    expect(fn('main.request')).toMatchObject({ flat: 0, cum: 1 });
    // the tree, root first
    expect(p.root.value).toBe(4_000_000);
    expect(p.root.children.map((c) => c.name)).toEqual(['main.main']);
    expect(p.root.children[0]?.children[0]?.children.map((c) => [c.name, c.value])).toEqual([
      ['main.hashWork', 1_000_000],
      ['main.parseWork', 3_000_000],
    ]);
  });

  it.each([
    [
      'a C++ symbol with brackets and spaces',
      'std::vector<int>::push_back(int const&)+0x1f (/usr/lib/libx.so)',
      'std::vector<int>::push_back(int const&)',
      '/usr/lib/libx.so',
    ],
    ['a DSO deleted after it was mapped', 'main.work+0x2 (/app/sut (deleted))', 'main.work', '/app/sut (deleted)'],
    ['no symbol', '[unknown] ([unknown])', '[unknown]', '[unknown]'],
    ['no DSO', 'main.work+0x2', 'main.work', ''],
    ['a kernel frame', 'do_syscall_64+0x5c ([kernel.kallsyms])', 'do_syscall_64', '[kernel.kallsyms]'],
  ])('%s', (_what, frame, name, file) => {
    const p = readPerfScript(sample(10, [frame]));
    expect(p.functions).toEqual([{ name, file, flat: 1, cum: 1 }]);
  });

  it('samples need no blank line between them, and CRLF is read as LF', () => {
    const text = sample(1, ['a+0x1 (/x)']).trimEnd() + '\n' + sample(1, ['b+0x1 (/x)']);
    expect(readPerfScript(text).total).toBe(2);
    expect(readPerfScript(text.replace(/\n/g, '\r\n')).functions.map((f) => f.name)).toEqual(['a', 'b']);
  });

  it('a header without a period counts 1; the event is the one named', () => {
    const p = readPerfScript(
      'sut 42 [001] 1.5: cycles:P:\n\t 1 a+0x1 (/x)\n\nsut 42 [001] 1.6: cycles:P:\n\t 1 b (/x)\n',
    );
    expect([p.sampleType, p.unit, p.total]).toEqual(['samples', 'events', 2]);
    expect(readPerfScript(sample(7, ['a (/x)'], 'cycles:P:')).sampleType).toBe('cycles');
  });

  it.each([
    ['no samples', '\n\n', /no samples/],
    ['a frame before any sample', '\t 4000 a (/x)\n', /line 1: a frame before any sample/],
    [
      'a frame line without a symbol',
      `${sample(1, ['a (/x)'])}\nsut 1 [0] 1.0: 5 cpu-clock:\n\t4000\n`,
      /line 5: not a frame/,
    ],
    ['two events', sample(1, ['a (/x)']) + sample(1, ['a (/x)'], 'cycles:'), /two events \(cpu-clock, cycles\)/],
    [
      'a stack past the bound',
      sample(
        1,
        Array.from({ length: PROFILE_MAX_STACK + 1 }, () => 'a (/x)'),
      ),
      new RegExp(`more than ${PROFILE_MAX_STACK} frames`),
    ],
  ])('refused: %s', (_what, text, message) => {
    expect(() => readPerfScript(text)).toThrow(ProfileError);
    expect(() => readPerfScript(text)).toThrow(message);
  });

  it('bounded: the text, and each name (a long line costs time linear in it)', () => {
    expect(() => readPerfScript('x'.repeat(PERF_SCRIPT_MAX_BYTES + 1))).toThrow(/larger than/);
    const long = 'n'.repeat(PERF_NAME_MAX_CHARS * 4);
    const p = readPerfScript(sample(1, [`${long}+0x1 (${long})`]));
    expect(p.functions[0]?.name).toBe(`${'n'.repeat(PERF_NAME_MAX_CHARS)}…`);
    expect(p.functions[0]?.file).toBe(`${'n'.repeat(PERF_NAME_MAX_CHARS)}…`);
    // a million spaces after an address: read at once (a backtracking pattern would take minutes)
    expect(
      readPerfScript(`${sample(1, ['a (/x)'])}\nsut 1 [0] 1.0: 5 cpu-clock:\n\t4000 ${' '.repeat(1_000_000)}b\n`).total,
    ).toBe(6);
  });
});

// The differential flame graph (src/profiles/flame.ts): head's stacks drawn, each frame coloured by the
// change of its share from base's; an SVG that is well-formed whatever the service named its functions.
// fixtures/pprof: head does 4x the parsing per request of base (see its README).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { diffFlameGraph, FLAME_MAX_FRAMES, flameFrames } from '../../src/profiles/flame.js';
import { readPprof } from '../../src/profiles/pprof.js';
import type { ProfileSummary, StackNode } from '../../src/profiles/stacks.js';

const DIR = resolve(import.meta.dirname, '../../fixtures/pprof');
const profile = (side: string) => readPprof(readFileSync(join(DIR, `${side}.pb.gz`)));
const where = { scenario: 'orders', phase: 'c4', service: 'api' };

/** The SVG's frames: each `<g>`'s tooltip and its rectangle's fill and width. */
function drawn(svg: string): Array<{ tip: string; fill: string; width: number }> {
  expect(XMLValidator.validate(svg)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'g' }).parse(svg);
  return (doc.svg.g ?? []).map((g: { title: string; rect: Record<string, string> }) => ({
    tip: String(g.title),
    fill: g.rect['@_fill'] as string,
    width: Number(g.rect['@_width']),
  }));
}

const node = (name: string, value: number, children: StackNode[] = []): StackNode => ({
  name,
  file: 'main.go',
  value,
  children,
});
const summary = (root: StackNode): ProfileSummary => ({
  sampleType: 'cpu',
  unit: 'nanoseconds',
  total: root.value,
  functions: [],
  root,
  truncated: false,
});

describe('diffFlameGraph on two real profiles (go 1.26.8, fixtures/pprof)', () => {
  const base = profile('base');
  const head = profile('head');
  const frames = drawn(diffFlameGraph(base, head, where));

  it('a frame for every path of at least 0.1% of head’s samples, each with both shares', () => {
    expect(frames.length).toBe(flameFrames(base, head).length);
    expect(frames.length).toBeGreaterThan(20);
    for (const f of frames) expect(f.tip).toMatch(/: head [\d.]+%, base [\d.]+%, [+−][\d.]+ points$/);
  });

  it('the function head does more of is red, the work it does as much of is blue (a smaller share)', () => {
    const parse = frames.find((f) => f.tip.startsWith('main.parseWork '));
    const hash = frames.find((f) => f.tip.startsWith('main.hashWork '));
    expect(parse?.fill).toMatch(/^rgb\(255,(\d+),\1\)$/);
    expect(parse?.fill).not.toBe('rgb(255,255,255)');
    expect(hash?.fill).toMatch(/^rgb\((\d+),\1,255\)$/);
    expect(hash?.fill).not.toBe('rgb(255,255,255)');
  });

  it('a frame’s width is its share of head’s samples, as the tree counts them', () => {
    const parse = frames.find((f) => f.tip.startsWith('main.parseWork '));
    const share = Number(/head ([\d.]+)%/.exec(parse?.tip ?? '')?.[1]) / 100;
    // 1,180 px across; the tooltip's share is rounded to 0.1 point
    expect(Math.abs((parse?.width ?? 0) - share * 1180)).toBeLessThan(0.001 * 1180);
  });
});

describe('diffFlameGraph, built by hand', () => {
  const same = summary(node('', 100, [node('main', 100, [node('a', 60), node('b', 40)])]));

  it('the same profile on both sides: every frame white', () => {
    const frames = drawn(diffFlameGraph(same, same, where));
    expect(frames.map((f) => f.fill)).toEqual(['rgb(255,255,255)', 'rgb(255,255,255)', 'rgb(255,255,255)']);
    expect(frames.map((f) => f.width)).toEqual([1180, 708, 472]);
  });

  it('a path head added is red at full strength; one base had and head lost is not drawn', () => {
    const head = summary(node('', 100, [node('main', 100, [node('a', 50), node('c', 50)])]));
    const base = summary(node('', 100, [node('main', 100, [node('a', 50), node('b', 50)])]));
    const frames = drawn(diffFlameGraph(base, head, where));
    expect(frames.map((f) => f.tip.split(' ')[0])).toEqual(['main', 'a', 'c']);
    expect(frames[2]?.fill).toBe('rgb(255,55,55)');
    expect(frames[2]?.tip).toBe('c (main.go): head 50.0%, base 0.00%, +50.00 points');
  });

  it('names that would break the SVG or run a script are text, and bounded', () => {
    const evil = '</text><script>alert(1)</script>&amp;"\'\u0001';
    const head = summary(node('', 10, [node(evil, 10, [node('x'.repeat(10_000), 10)])]));
    const svg = diffFlameGraph(head, head, { scenario: '<s>', phase: '&', service: ']]>' });
    expect(svg).not.toContain('<script');
    const frames = drawn(svg);
    expect(frames[0]?.tip).toContain('</text><script>alert(1)</script>&amp;"\'?');
    expect(frames[1]?.tip.length).toBeLessThan(400);
  });

  it(`bounded: at most ${FLAME_MAX_FRAMES} frames, the narrowest left out, none without its parent`, () => {
    // 10 chains of 1,000 frames under the root: 10,000 frames of 10% each
    const chain = (i: number): StackNode => {
      let n = node(`f${i}.999`, 10);
      for (let d = 998; d >= 0; d--) n = node(`f${i}.${d}`, 10, [n]);
      return n;
    };
    const wide = summary(
      node(
        '',
        100,
        Array.from({ length: 10 }, (_, i) => chain(i)),
      ),
    );
    const frames = flameFrames(wide, wide);
    expect(frames.length).toBe(FLAME_MAX_FRAMES);
    const at = new Set(frames.map((f) => `${f.depth}:${f.x.toFixed(6)}`));
    for (const f of frames) if (f.depth > 0) expect(at.has(`${f.depth - 1}:${f.x.toFixed(6)}`)).toBe(true);
  });

  it('a profile without samples draws no frame', () => {
    const empty = summary(node('', 0));
    expect(drawn(diffFlameGraph(same, empty, where))).toEqual([]);
  });
});

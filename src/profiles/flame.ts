// Pure: a differential flame graph of one service, base against head, as a self-contained SVG (no
// script, no external reference: it opens in a browser from the artifact, and GitHub shows it). Drawn
// from head's stacks, root at the bottom: a frame's width is its share of head's samples, its colour the
// change of that share from base's (red: a larger share in head, blue: a smaller one, white: none),
// as Brendan Gregg's differential flame graphs colour them. A path base had and head lost has no width
// in head: it shows as its parent's blue. Every name is the service's text: XML-escaped and bounded.
import type { ProfileSummary, StackNode } from './stacks.js';

const WIDTH = 1200;
const ROW = 17;
const PAD = 10;
const HEADER = 54;
/** The narrowest frame drawn, of head's samples (pixels: 0.1% of 1180 is about 1.2). */
const MIN_SHARE = 0.001;
/** The most frames drawn (a wide, deep profile is cut at its narrowest frames first). */
export const FLAME_MAX_FRAMES = 5000;
/** The longest name kept in a frame's tooltip and label. */
const NAME_MAX = 300;
/** About a character's width at the labels' 12 px. */
const CHAR_PX = 7;

const clip = (s: string) => (s.length > NAME_MAX ? `${s.slice(0, NAME_MAX)}…` : s);

/** A character XML 1.0 does not allow (controls but tab, newline and return; U+FFFE, U+FFFF) or DEL. */
const notXml = (c: number) => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f || c >= 0xfffe;

/** Text for an XML attribute or element: the five characters XML reserves, and what XML forbids, replaced. */
export function xml(text: string): string {
  return Array.from(text, (ch) => (notXml(ch.charCodeAt(0)) && ch.length === 1 ? '?' : ch))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

interface Frame {
  name: string;
  file: string;
  depth: number;
  /** of head's total, where the frame starts and how wide it is */
  x: number;
  share: number;
  /** its share of base's samples along the same path (0 where base had no such path) */
  baseShare: number;
}

const pct = (v: number) => `${(v * 100).toFixed(v < 0.1 ? 2 : 1)}%`;
const points = (d: number) => `${d >= 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(2)} points`;

/** The frames to draw: head's tree walked from its root, each node matched with base's along the same
 * path; the narrowest left out first where there are more than FLAME_MAX_FRAMES. */
export function flameFrames(base: ProfileSummary, head: ProfileSummary): Frame[] {
  const frames: Frame[] = [];
  if (head.total <= 0) return frames;
  const childOf = (n: StackNode | undefined, c: StackNode) =>
    n?.children.find((x) => x.name === c.name && x.file === c.file);
  const walk = (h: StackNode, b: StackNode | undefined, depth: number, x: number) => {
    let at = x;
    for (const c of h.children) {
      const share = c.value / head.total;
      if (share >= MIN_SHARE) {
        const bc = childOf(b, c);
        frames.push({
          name: c.name,
          file: c.file,
          depth,
          x: at,
          share,
          baseShare: bc && base.total > 0 ? bc.value / base.total : 0,
        });
        walk(c, bc, depth + 1, at);
      }
      at += share;
    }
  };
  walk(head.root, base.root, 0, 0);
  if (frames.length <= FLAME_MAX_FRAMES) return frames;
  // the widest FLAME_MAX_FRAMES: a parent is at least as wide as its child, so no frame loses its parent
  const least = [...frames].sort((a, b) => b.share - a.share)[FLAME_MAX_FRAMES - 1]?.share ?? 0;
  const wider = frames.filter((f) => f.share > least);
  const tied = frames.filter((f) => f.share === least).slice(0, FLAME_MAX_FRAMES - wider.length);
  const kept = new Set([...wider, ...tied]);
  return frames.filter((f) => kept.has(f));
}

/** A frame's fill: white at no change, red as its share rose, blue as it fell, deepest at `most`. */
function fill(delta: number, most: number): string {
  const k = most > 0 ? Math.round((Math.min(Math.abs(delta), most) / most) * 200) : 0;
  const v = 255 - k;
  return delta > 0 ? `rgb(255,${v},${v})` : delta < 0 ? `rgb(${v},${v},255)` : 'rgb(255,255,255)';
}

export interface FlameTitle {
  scenario: string;
  phase: string;
  service: string;
}

/** The SVG of `head` against `base` (both one service's profile of one phase). */
export function diffFlameGraph(base: ProfileSummary, head: ProfileSummary, title: FlameTitle): string {
  const frames = flameFrames(base, head);
  const depth = frames.reduce((a, f) => Math.max(a, f.depth + 1), 1);
  const height = HEADER + depth * ROW + PAD * 2;
  const span = WIDTH - 2 * PAD;
  const most = frames.reduce((a, f) => Math.max(a, Math.abs(f.share - f.baseShare)), 0);
  const what = `${xml(clip(head.sampleType))} ${xml(clip(head.unit))}`;
  const cut = head.truncated || base.truncated ? '; a stack deeper than the kept tree is cut short' : '';
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Verdana, sans-serif" font-size="12">`,
    `<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#f8f8f8"/>`,
    `<text x="${WIDTH / 2}" y="20" font-size="16" text-anchor="middle">perf-gate: ${xml(clip(title.service))} in ${xml(clip(title.scenario))}/${xml(clip(title.phase))}, head against base</text>`,
    `<text x="${WIDTH / 2}" y="40" text-anchor="middle" fill="#444">widths: head's share of its samples (${what}); red: a larger share than base's, blue: a smaller one; hover a frame for both${cut}</text>`,
  ];
  for (const f of frames) {
    const x = PAD + f.x * span;
    const w = f.share * span;
    const y = height - PAD - (f.depth + 1) * ROW;
    const delta = f.share - f.baseShare;
    const tip = `${clip(f.name)}${f.file ? ` (${clip(f.file)})` : ''}: head ${pct(f.share)}, base ${pct(f.baseShare)}, ${points(delta)}`;
    const chars = Math.floor((w - 6) / CHAR_PX);
    const label = chars < 3 ? '' : f.name.length <= chars ? f.name : `${f.name.slice(0, chars - 2)}..`;
    lines.push(
      `<g><title>${xml(tip)}</title><rect x="${x.toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${ROW - 1}" fill="${fill(delta, most)}" stroke="#bbb" stroke-width="0.5"/>` +
        (label ? `<text x="${(x + 3).toFixed(2)}" y="${y + ROW - 5}">${xml(label)}</text>` : '') +
        '</g>',
    );
  }
  lines.push('</svg>', '');
  return lines.join('\n');
}

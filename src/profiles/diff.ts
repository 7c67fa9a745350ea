// Pure: two profiles of one service compared, base against head: each function's change in its share of
// the samples, and — where the service's CPU time per request is known on both sides — in the CPU
// microseconds per request it stands for. Ranked by the rise of its cumulative share (itself and what
// it calls), so that the function a regression's extra work was added under comes first: its callees
// rise no more than it does. Its callers rise as much where they hold nearly all of the profile, or
// where it already did (their share holds its, and the rest of the profile shrinks): so the deepest
// function carrying most of the largest rise (the least cumulative share among those) comes first.
import { frameKey, type ProfileSummary, type StackNode } from './stacks.js';

export interface FunctionChange {
  name: string;
  file: string;
  /** flat shares (samples whose innermost frame it is), 0 where the side's profile lacks the function */
  flat: { base: number; head: number };
  /** cumulative shares (samples with it on the stack) */
  cum: { base: number; head: number };
  /** the CPU µs per request its cumulative share stands for on each side (only with both sides' CPU per
   * request) */
  perRequestUs?: { base: number; head: number };
}

export interface DiffOptions {
  /** the service's CPU µs per successful request on each side (its cost, compare/cost) */
  cpuPerRequestUs?: { base: number; head: number };
  /** how many functions to keep (default 10) */
  top?: number;
}

/** The rise of a change's cumulative share, then of its flat share. */
const rise = (c: FunctionChange) => c.cum.head - c.cum.base;

/** The functions whose share rose from base to head, most first (those that did not rise left out). */
export function profileDiff(
  base: Pick<ProfileSummary, 'functions'>,
  head: Pick<ProfileSummary, 'functions'> & Partial<Pick<ProfileSummary, 'root'>>,
  options: DiffOptions = {},
): FunctionChange[] {
  const key = (f: { name: string; file: string }) => frameKey(f.name, f.file);
  const before = new Map(base.functions.map((f) => [key(f), f]));
  const after = new Map(head.functions.map((f) => [key(f), f]));
  const cpu = options.cpuPerRequestUs;
  const changes = [...new Set([...before.keys(), ...after.keys()])].map((k): FunctionChange => {
    const b = before.get(k);
    const h = after.get(k);
    const named = (h ?? b) as { name: string; file: string };
    const cum = { base: b?.cum ?? 0, head: h?.cum ?? 0 };
    return {
      name: named.name,
      file: named.file,
      flat: { base: b?.flat ?? 0, head: h?.flat ?? 0 },
      cum,
      ...(cpu ? { perRequestUs: { base: cum.base * cpu.base, head: cum.head * cpu.head } } : {}),
    };
  });
  const flatRise = (c: FunctionChange) => c.flat.head - c.flat.base;
  const ranked = changes
    .filter((c) => rise(c) > 0)
    .sort((a, b) => rise(b) - rise(a) || flatRise(b) - flatRise(a) || a.name.localeCompare(b.name));
  // where the function doing the extra work already had most of the profile, its callers' shares rise
  // as much as its own (theirs hold it, and the rest shrinks): the deepest function that carries most
  // of the largest rise comes first, the one with the least share of its own (callers hold more)
  const top = ranked[0];
  if (top) {
    // with head's call tree, only what `top` calls (at any depth) can be the deeper one: a function
    // elsewhere in the profile that rose about as much is another change, not the work under `top`
    const under = head.root ? calledUnder(head.root, key(top)) : undefined;
    const carrying = ranked.filter(
      (c) => rise(c) >= DEEPEST_SHARE * rise(top) && (c === top || !under || under.has(key(c))),
    );
    const deepest = carrying.reduce((a, c) => (c.cum.head < a.cum.head ? c : a), top);
    ranked.splice(ranked.indexOf(deepest), 1);
    ranked.unshift(deepest);
  }
  return ranked.slice(0, options.top ?? 10);
}

/** The functions called under `caller` anywhere in the tree (by name and file), at any depth. */
function calledUnder(root: StackNode, caller: string): Set<string> {
  const out = new Set<string>();
  const walk = (n: StackNode, inside: boolean) => {
    for (const c of n.children) {
      const k = frameKey(c.name, c.file);
      if (inside) out.add(k);
      walk(c, inside || k === caller);
    }
  };
  walk(root, false);
  return out;
}

/** The least part of the largest rise the function put first must carry (see profileDiff). */
export const DEEPEST_SHARE = 0.75;

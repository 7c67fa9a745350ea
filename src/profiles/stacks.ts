// Pure: a CPU profile's samples (each a stack of frames and a value) summed into what a diff needs,
// whichever profiler took them (a pprof file, ./pprof.ts; Linux perf's `perf script`, ./perf-script.ts):
// the profile's total, each function's flat share (samples whose innermost frame it is) and cumulative
// share (samples with it anywhere on the stack, once each), and the stacks merged into one tree (root
// first, as a flame graph draws them). Frames name the service's code: untrusted text, bounded here
// (a stack's depth, the frames visited, the tree's nodes) and escaped where it lands.

/** The most frames a sample's stack may have, and the most frames all samples may visit together
 * (the work). */
export const PROFILE_MAX_STACK = 1024;
export const PROFILE_MAX_FRAME_VISITS = 20_000_000;
/** The most nodes the stacks' tree keeps: a sample whose path would need more adds its value to the
 * deepest node it has (the tree is then `truncated`). */
export const PROFILE_MAX_NODES = 100_000;

/** A profile that cannot be read, or is past a bound: what it says is the report's line. */
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

/** A frame's key: its function's name and file, which together are one function (as pprof's function
 * granularity counts them). */
export function frameKey(name: string, file: string): string {
  return `${name}\u0000${file}`;
}

/** A frame key's name and file (frameKey's inverse). */
function keyParts(key: string): { name: string; file: string } {
  const [name = '', file = ''] = key.split('\u0000');
  return { name, file };
}

/** A frame's key put under a stack being read (innermost first): past PROFILE_MAX_STACK frames the
 * profile is refused, before a longer stack is built. Every reader builds its stacks with this. */
export function pushFrame(frames: string[], key: string): void {
  if (frames.length === PROFILE_MAX_STACK)
    throw new ProfileError(`profile: a stack of more than ${PROFILE_MAX_STACK} frames`);
  frames.push(key);
}

export interface StackAccumulator {
  /** one sample: its frames' keys (frameKey), innermost first, as pushFrame built them (at most
   * PROFILE_MAX_STACK) */
  add(frames: readonly string[], value: number): void;
  /** the samples added so far, summed */
  summary(sampleType: string, unit: string): ProfileSummary;
}

/** The tree as it is built: each node's children by key. */
interface Building {
  key: string;
  value: number;
  children: Map<string, Building>;
}

/** Samples summed as they are added; a sample past a bound is a ProfileError. */
export function stackAccumulator(): StackAccumulator {
  const flat = new Map<string, number>();
  const cum = new Map<string, number>();
  const root: Building = { key: '', value: 0, children: new Map() };
  let total = 0;
  let frameVisits = PROFILE_MAX_FRAME_VISITS;
  let nodes = 0;
  let truncated = false;
  return {
    add(frames, value) {
      if (value === 0) return;
      frameVisits -= frames.length;
      if (frameVisits < 0) throw new ProfileError(`profile: more than ${PROFILE_MAX_FRAME_VISITS} frames in all`);
      total += value;
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
    },
    summary(sampleType, unit) {
      const share = (v: number | undefined) => (total > 0 ? (v ?? 0) / total : 0);
      return {
        sampleType,
        unit,
        total,
        functions: [...cum.keys()]
          .map((key) => ({ ...keyParts(key), flat: share(flat.get(key)), cum: share(cum.get(key)) }))
          .sort((a, b) => b.flat - a.flat || b.cum - a.cum || a.name.localeCompare(b.name)),
        root: finished(root),
        truncated,
      };
    },
  };
}

function finished(b: Building): StackNode {
  return {
    ...keyParts(b.key),
    value: b.value,
    children: [...b.children.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0)).map(finished),
  };
}

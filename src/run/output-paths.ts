// Pure: every path a run writes, checked before anything boots. Each would otherwise fail only after
// the whole load ran: a directory where a file is on its way (ENOTDIR), a file's path that is a
// directory, a place the run may not write (a read-only checkout, another user's directory). The CLI
// and the Action list their paths, each labelled as the user gave it (`--junit x.xml`, `input
// history`), and say every problem in one pass.
import { dirname } from 'node:path';
import { usageError } from '../common/errors.js';

/** What the check may ask of the file system (the entry points bind the real one). */
export interface PathProbe {
  exists(path: string): boolean;
  isDirectory(path: string): boolean;
  /** the process may create, replace and rename entries in this directory */
  writable(path: string): boolean;
}

/** One path a run writes: a directory it creates its files in, or one file. */
export interface OutputPath {
  /** as the user gave it, for the problem's line: `--out results`, `input junit: perf.xml` */
  given: string;
  path: string;
  kind: 'directory' | 'file';
  /** this run writes there (false: a path of a kind the mode only reads, as a gate reads the baselines
   * and the history: its shape is checked, not whether the run may write it) */
  writes: boolean;
}

/** `FORMAT=PATH`'s path (`--out-format`, the Action's `out-format`), where one is given. */
export function outFormatPath(spec: string): string | undefined {
  const at = spec.indexOf('=');
  return at > 0 && at < spec.length - 1 ? spec.slice(at + 1) : undefined;
}

/** `path` and each directory above it, nearest first. */
function upward(path: string): string[] {
  const chain: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    chain.push(p);
    if (dirname(p) === p) break;
  }
  return chain;
}

/** The problem with writing `o`, or undefined. Every file is written whole through a temporary file
 * renamed over it: what must be writable is the directory it is in (or the nearest one that exists,
 * where the run creates what is missing), never the file itself. */
function problemOf(probe: PathProbe, o: OutputPath): string | undefined {
  const chain = upward(o.kind === 'directory' ? o.path : dirname(o.path));
  // the first path on the way (outermost first) that exists and is not a directory
  const blocked = [...chain].reverse().find((p) => probe.exists(p) && !probe.isDirectory(p));
  if (o.kind === 'directory' && blocked === o.path) return `${o.given}: not a directory`;
  if (o.kind === 'file' && probe.exists(o.path) && probe.isDirectory(o.path))
    return `${o.given}: a directory, not a file`;
  if (blocked !== undefined) return `${o.given}: ${blocked} is a file, not a directory`;
  if (!o.writes) return undefined;
  const existing = chain.find((p) => probe.exists(p));
  if (existing !== undefined && !probe.writable(existing))
    return `${o.given}: ${existing === o.path ? 'the directory' : existing} is not writable`;
  return undefined;
}

/** Every problem with the paths a run writes, in the order given. */
export function outputPathProblems(probe: PathProbe, paths: readonly OutputPath[]): string[] {
  return paths.flatMap((o) => {
    const problem = problemOf(probe, o);
    return problem === undefined ? [] : [problem];
  });
}

/** The run refused (a usage error, exit 2) when any path it writes cannot be written: every problem in one error. */
export function refuseOutputPaths(probe: PathProbe, paths: readonly OutputPath[]): void {
  const problems = outputPathProblems(probe, paths);
  if (problems.length === 1) throw usageError(problems[0] as string);
  if (problems.length > 1)
    throw usageError(
      `${problems.length} output paths cannot be written`,
      problems.map((p) => `  ${p}`),
    );
}

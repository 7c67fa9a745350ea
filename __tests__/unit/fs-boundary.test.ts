// I/O through deps: the file system is touched by the entry points and by the few modules that bind the
// real one (each named here with why), nowhere else. Every import under src/ of `fs` (and of
// `node:fs`, `fs/promises`) is read as TypeScript's pre-processor reads it; a new one fails this test
// until it goes through deps or is named here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(resolve(import.meta.dirname, '../..'), 'src');

/** The modules that may import the file system, and why. */
const BINDERS: Record<string, string> = {
  'cli.ts': "the CLI's entry point: binds the real files, environment and streams",
  'action/index.ts': "the Action's entry point",
  'common/read-fs.ts': 'the real ReadFs (what config loading reads through)',
  'run/real-files.ts': 'the real RunFiles (what a run reads and writes through)',
  'run/deps.ts': "the real RunDeps (the runner script's bundle)",
  'results/files.ts': 'atomic writes of results and baselines, bound by real-files.ts',
  'history/file.ts': 'the real history reader, bound by cli.ts and real-files.ts',
  'docker/compose.ts': "compose's own override files, written where the compose CLI reads them",
  'docker/stack.ts': "a swarm stack's files, written where docker stack deploy reads them",
  'docker/fds.ts': "the engine host's /proc, read for the SUT's open file descriptors",
};

const FS = /^(node:)?fs(\/promises)?$/;

/** The entry points: where the real file system and environment are bound, and nothing below them. */
const ENTRIES: Record<string, string> = {
  'cli.ts': "the CLI's entry point",
  'action/index.ts': "the Action's entry point",
  'action/post.ts': "the Action's post step (reads its saved state from the environment)",
};

/** Below the entry points, the modules that bind the real environment, and why. */
const ENV_BINDERS: Record<string, string> = {
  'run/deps.ts': "the real RunDeps: the run's environment, compose's and the engine's address",
  'common/exec.ts': 'the real Exec: a command inherits the environment unless it is given one',
};

/** Below the entry points, the modules that may name the real ReadFs, and why. */
const READ_FS_BINDERS: Record<string, string> = {
  'common/read-fs.ts': 'defines it',
  'run/real-files.ts': "the real RunFiles are the real ReadFs and writes (bound by run/deps.ts's callers)",
};

function sources(): Array<[string, string]> {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [f, readFileSync(join(SRC, f), 'utf8')] as [string, string])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** A source's code, its comments left out. */
const codeOf = (text: string) => text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

/** The files whose code matches `pattern`. */
function codeMatching(pattern: RegExp): string[] {
  return sources()
    .filter(([, text]) => pattern.test(codeOf(text)))
    .map(([f]) => f);
}

function fsImporters(): string[] {
  const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  return files
    .filter((f) =>
      ts.preProcessFile(readFileSync(join(SRC, f), 'utf8'), true, true).importedFiles.some((i) => FS.test(i.fileName)),
    )
    .sort();
}

describe('the file system is bound at the edges', () => {
  it('only the entry points and the named binders import fs', () => {
    expect(fsImporters().filter((f) => !(f in BINDERS))).toEqual([]);
  });

  it('every binder named still imports it (the list does not rot)', () => {
    expect(Object.keys(BINDERS).sort()).toEqual(fsImporters());
  });
});

describe('nothing below the entry points reaches for the real world by default', () => {
  it('process.env is read only at the entry points and by the modules that bind the environment', () => {
    expect(codeMatching(/process\.env/).filter((f) => !(f in ENTRIES) && !(f in ENV_BINDERS))).toEqual([]);
  });

  it('the real ReadFs is named only at the entry points and by its binders (no default parameter)', () => {
    expect(codeMatching(/\brealReadFs\b/).filter((f) => !(f in ENTRIES) && !(f in READ_FS_BINDERS))).toEqual([]);
  });

  it('the lists do not rot: every module named still does what it is named for', () => {
    const env = codeMatching(/process\.env/);
    const readFs = codeMatching(/\brealReadFs\b/);
    expect(Object.keys(ENV_BINDERS).filter((f) => !env.includes(f))).toEqual([]);
    expect(Object.keys(READ_FS_BINDERS).filter((f) => !readFs.includes(f))).toEqual([]);
  });

  it('the checks see what they look for: a planted default would be found', () => {
    const planted = 'export function f(fs: ReadFs = realReadFs) { return process.env.X; }';
    expect(/\brealReadFs\b/.test(codeOf(planted)) && /process\.env/.test(codeOf(planted))).toBe(true);
    expect(/process\.env/.test(codeOf('// process.env in a comment'))).toBe(false);
  });
});

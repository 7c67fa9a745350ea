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

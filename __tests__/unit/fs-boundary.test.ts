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

/** Below the entry points, the modules that may name the real ReadFs or RunFiles, and why. */
const READ_FS_BINDERS: Record<string, string> = {
  'common/read-fs.ts': 'defines realReadFs',
  'run/real-files.ts': 'defines realFiles: the real ReadFs and writes',
  'run/deps.ts': 'the real RunDeps bind realFiles',
};

/** The real bindings a module below the entry points must be given, never name (nor take as a default). */
const REAL = new Set(['realReadFs', 'realFiles']);

/** What a source's code reaches for, read from its syntax tree (comments and strings are not code):
 * the environment (`process.env`, `process['env']`, `{ env } = process`, node:process's `env`), and
 * the real file bindings by name. */
function reaches(text: string): { env: boolean; real: boolean } {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const found = { env: false, real: false };
  const isProcess = (n: ts.Node) => ts.isIdentifier(n) && n.text === 'process';
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && isProcess(n.expression) && n.name.text === 'env') found.env = true;
    if (
      ts.isElementAccessExpression(n) &&
      isProcess(n.expression) &&
      ts.isStringLiteral(n.argumentExpression) &&
      n.argumentExpression.text === 'env'
    )
      found.env = true;
    if (
      ts.isVariableDeclaration(n) &&
      n.initializer &&
      isProcess(n.initializer) &&
      ts.isObjectBindingPattern(n.name) &&
      n.name.elements.some((e) => (e.propertyName ?? e.name).getText() === 'env')
    )
      found.env = true;
    if (
      ts.isImportDeclaration(n) &&
      ts.isStringLiteral(n.moduleSpecifier) &&
      /^(node:)?process$/.test(n.moduleSpecifier.text)
    )
      found.env = true;
    if (ts.isIdentifier(n) && REAL.has(n.text)) found.real = true;
    ts.forEachChild(n, visit);
  };
  visit(file);
  return found;
}

function sources(): Array<[string, string]> {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [f, readFileSync(join(SRC, f), 'utf8')] as [string, string])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** The modules that reach for the environment, and those that name a real file binding. */
function reaching(): { env: string[]; real: string[] } {
  const all = sources().map(([f, text]) => ({ f, ...reaches(text) }));
  return { env: all.filter((x) => x.env).map((x) => x.f), real: all.filter((x) => x.real).map((x) => x.f) };
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
  const { env, real } = reaching();

  it('the environment is read only at the entry points and by the modules that bind it', () => {
    expect(env.filter((f) => !(f in ENTRIES) && !(f in ENV_BINDERS))).toEqual([]);
  });

  it('the real ReadFs and RunFiles are named only at the entry points and by their binders (no default parameter)', () => {
    expect(real.filter((f) => !(f in ENTRIES) && !(f in READ_FS_BINDERS))).toEqual([]);
  });

  it('the lists do not rot: every module named still does what it is named for', () => {
    expect(Object.keys(ENV_BINDERS).filter((f) => !env.includes(f))).toEqual([]);
    expect(Object.keys(READ_FS_BINDERS).filter((f) => !real.includes(f))).toEqual([]);
  });

  it.each<[string, string, { env: boolean; real: boolean }]>([
    ['a default parameter', 'export function f(fs: ReadFs = realReadFs) { return 1; }', { env: false, real: true }],
    ['realFiles as a default', 'export function f(files = realFiles) { return files; }', { env: false, real: true }],
    ['process.env', 'export const x = process.env.X;', { env: true, real: false }],
    ["process['env']", "export const x = process['env'].X;", { env: true, real: false }],
    ['destructured', 'const { env } = process;', { env: true, real: false }],
    ['renamed', 'const { env: e } = process;', { env: true, real: false }],
    ['imported from node:process', "import { env } from 'node:process';", { env: true, real: false }],
    ['in a comment', '// process.env and realReadFs\n/* realFiles */', { env: false, real: false }],
    ['in a string', "const s = 'process.env realReadFs /* not code';", { env: false, real: false }],
    [
      'a string with a comment opener before real code',
      "const s = 'a/*b'; const x = process.env.Y;",
      { env: true, real: false },
    ],
    ['process.cwd() only', 'export const d = process.cwd();', { env: false, real: false }],
  ])('the check reads the code: %s', (_label, text, expected) => {
    expect(reaches(text)).toEqual(expected);
  });
});

// The drawing made executable: docs/architecture.md's Floors table places every folder of src/ on a
// floor, and its table of exceptions counts the imports that climb. Every import under src/ (static,
// type-only, re-export and dynamic, as TypeScript's own pre-processor reads them) is checked against
// both; a folder-level import cycle fails too.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** One import between two folders of src/: the importing file and the folder it reaches. */
interface Edge {
  file: string;
  from: string;
  to: string;
}

/** The folder a path under src/ is in: its first segment, `.` for a loose file. */
function folderOf(path: string): string {
  const parts = relative(SRC, path).split('/');
  return parts.length > 1 ? (parts[0] as string) : '.';
}

/** Every relative import of every .ts file under src/ that leaves its folder (targets outside src/,
 * the package manifest, are not folders of the house). */
function edgesOf(): Edge[] {
  const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  const edges: Edge[] = [];
  for (const f of files) {
    const path = join(SRC, f);
    const info = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    for (const i of info.importedFiles) {
      if (!i.fileName.startsWith('.')) continue;
      const target = resolve(dirname(path), i.fileName);
      if (relative(SRC, target).startsWith('..')) continue;
      const from = folderOf(path);
      const to = folderOf(target);
      if (from !== to) edges.push({ file: f, from, to });
    }
  }
  return edges;
}

/**
 * The names a file of src/ exports from another folder (`export { X } from '../other/x.js'`, `export *
 * from`, or an imported name exported again): each name has one home, and its importers import it
 * from there. As `file: name ← module`.
 */
export function reExports(file: string, text: string): string[] {
  const path = join(SRC, file);
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const leaves = (spec: string) => spec.startsWith('.') && folderOf(resolve(dirname(path), spec)) !== folderOf(path);
  const imported = new Map<string, string>();
  const out: string[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const spec = st.moduleSpecifier.text;
      const clause = st.importClause;
      if (clause?.name) imported.set(clause.name.text, spec);
      const nb = clause?.namedBindings;
      if (nb && ts.isNamedImports(nb)) for (const e of nb.elements) imported.set(e.name.text, spec);
      if (nb && ts.isNamespaceImport(nb)) imported.set(nb.name.text, spec);
    }
    // export default x, x imported from another folder
    if (ts.isExportAssignment(st) && ts.isIdentifier(st.expression)) {
      const from = imported.get(st.expression.text);
      if (from !== undefined && leaves(from)) out.push(`${file}: default ← ${from}`);
      continue;
    }
    if (!ts.isExportDeclaration(st)) continue;
    const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
    const names = st.exportClause && ts.isNamedExports(st.exportClause) ? st.exportClause.elements : undefined;
    if (spec !== undefined) {
      if (!leaves(spec)) continue;
      const ns = st.exportClause && ts.isNamespaceExport(st.exportClause) ? st.exportClause.name.text : '*';
      out.push(...(names ? names.map((e) => `${file}: ${e.name.text} ← ${spec}`) : [`${file}: ${ns} ← ${spec}`]));
      continue;
    }
    for (const e of names ?? []) {
      const from = imported.get((e.propertyName ?? e.name).text);
      if (from !== undefined && leaves(from)) out.push(`${file}: ${e.name.text} ← ${from}`);
    }
  }
  return out;
}

/** The Floors section's two tables: each folder's floor (0 at the top), and the climbs it counts. */
export function drawing(md: string): { floors: Map<string, number>; climbs: Map<string, number> } {
  const section = md.split(/^## Floors$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))
    .map((l) => l.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '')));
  const floors = new Map<string, number>();
  const climbs = new Map<string, number>();
  let floor = 0;
  for (const cells of rows) {
    if (cells[0] === 'floor' || cells[0] === 'from') continue;
    if (cells.length === 2) {
      for (const m of (cells[1] as string).matchAll(/`([^`]+)`/g)) {
        if (!(m[1] as string).includes('/')) floors.set(m[1] as string, floor);
      }
      floor++;
    } else {
      const [from, to, count] = cells.map((c) => c.replace(/`/g, ''));
      climbs.set(`${from} → ${to}`, Number(count));
    }
  }
  return { floors, climbs };
}

/** The imports that go up a floor, or sideways to a folder of the same floor that imports back,
 * counted by folder pair; and folders the drawing does not place. */
export function judge(
  edges: readonly Edge[],
  floors: ReadonlyMap<string, number>,
): { climbs: Map<string, string[]>; unplaced: string[] } {
  const climbs = new Map<string, string[]>();
  const unplaced = new Set<string>();
  const pairs = new Set(edges.map((e) => `${e.from} → ${e.to}`));
  for (const e of edges) {
    const a = floors.get(e.from);
    const b = floors.get(e.to);
    if (a === undefined) unplaced.add(e.from);
    if (b === undefined) unplaced.add(e.to);
    if (a === undefined || b === undefined) continue;
    const climbsUp = b < a || (a === b && pairs.has(`${e.to} → ${e.from}`));
    if (!climbsUp) continue;
    const key = `${e.from} → ${e.to}`;
    climbs.set(key, [...(climbs.get(key) ?? []), e.file]);
  }
  return { climbs, unplaced: [...unplaced].sort() };
}

/** Folder-level cycles: strongly connected sets of more than one folder. */
export function cycles(edges: readonly Pick<Edge, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  let i = 0;
  const visit = (v: string) => {
    index.set(v, i);
    low.set(v, i++);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        set.push(w);
      } while (w !== v);
      if (set.length > 1) out.push(set.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return out;
}

describe('the layers of docs/architecture.md, checked on every import under src/', () => {
  const { floors, climbs: allowed } = drawing(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
  const edges = edgesOf();
  const found = judge(edges, floors);

  it('every folder of src/ is placed, and every folder placed exists', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect([...floors.keys()].filter((f) => f !== '.').sort()).toEqual(folders.sort());
    expect(found.unplaced).toEqual([]);
  });

  it('imports point down: every climb is one the drawing counts, and its count is exact', () => {
    const counted = Object.fromEntries([...found.climbs].map(([k, files]) => [k, files.length]));
    const detail = [...found.climbs].map(([k, files]) => `${k}: ${[...new Set(files)].join(', ')}`).join('\n');
    expect(counted, detail).toEqual(Object.fromEntries(allowed));
  });

  it('one home per name: no file exports a name from another folder', () => {
    const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    expect(files.flatMap((f) => reExports(f, readFileSync(join(SRC, f), 'utf8')))).toEqual([]);
  });

  it('no import cycle between folders but through the climbs the drawing counts', () => {
    const down = edges.filter((e) => !allowed.has(`${e.from} → ${e.to}`));
    expect(cycles(down)).toEqual([]);
  });
});

describe('the checker itself', () => {
  const floors = new Map([
    ['run', 0],
    ['compare', 1],
    ['modes', 1],
    ['stats', 2],
  ]);
  it.each<[string, Edge[], Record<string, number>, string[]]>([
    ['down: nothing', [{ file: 'run/a.ts', from: 'run', to: 'stats' }], {}, []],
    [
      'a planted climb: stats → compare',
      [{ file: 'stats/x.ts', from: 'stats', to: 'compare' }],
      { 'stats → compare': 1 },
      [],
    ],
    [
      'sideways one way is allowed; both ways is a climb on each side',
      [
        { file: 'modes/a.ts', from: 'modes', to: 'compare' },
        { file: 'compare/b.ts', from: 'compare', to: 'modes' },
      ],
      { 'modes → compare': 1, 'compare → modes': 1 },
      [],
    ],
    ['a folder not placed', [{ file: 'new/a.ts', from: 'new', to: 'stats' }], {}, ['new']],
  ])('%s', (_label, edges, climbs, unplaced) => {
    const got = judge(edges, floors);
    expect(Object.fromEntries([...got.climbs].map(([k, v]) => [k, v.length]))).toEqual(climbs);
    expect(got.unplaced).toEqual(unplaced);
  });

  it.each<[string, string, string[]]>([
    [
      'a named re-export from another folder',
      "export { a, type B } from '../metrics/x.js';",
      ['config/t.ts: a ← ../metrics/x.js', 'config/t.ts: B ← ../metrics/x.js'],
    ],
    ['every name of another folder', "export * from '../metrics/x.js';", ['config/t.ts: * ← ../metrics/x.js']],
    ['its types', "export type * from '../metrics/x.js';", ['config/t.ts: * ← ../metrics/x.js']],
    ['as a namespace', "export * as m from '../metrics/x.js';", ['config/t.ts: m ← ../metrics/x.js']],
    ['its default', "export { default } from '../metrics/x.js';", ['config/t.ts: default ← ../metrics/x.js']],
    [
      'an imported default exported as ours',
      "import x from '../metrics/x.js';\nexport default x;",
      ['config/t.ts: default ← ../metrics/x.js'],
    ],
    [
      'an imported name exported again',
      "import { a } from '../metrics/x.js';\nexport { a };",
      ['config/t.ts: a ← ../metrics/x.js'],
    ],
    ['within the folder: allowed', "export { a } from './x.js';\nimport { b } from './y.js';\nexport { b };", []],
    ['a package: not a folder of the house', "export { z } from 'zod';", []],
  ])('re-exports: %s', (_label, text, want) => {
    expect(reExports('config/t.ts', text)).toEqual(want);
  });

  it('finds a cycle of three folders, and none in a chain', () => {
    const chain = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
    ];
    expect(cycles(chain)).toEqual([]);
    expect(cycles([...chain, { from: 'c', to: 'a' }])).toEqual([['a', 'b', 'c']]);
  });

  it('reads the drawing’s tables', () => {
    const md = [
      '## Floors',
      '',
      '| floor | folders |',
      '| --- | --- |',
      '| top | `run` |',
      '| bottom | `stats`, `common` (`src/common/x.ts`) |',
      '',
      '| from | to | imports | why |',
      '| --- | --- | --- | --- |',
      '| `stats` | `run` | 2 | a reason |',
      '',
      '## Next',
      '| x | `y` |',
    ].join('\n');
    const d = drawing(md);
    expect(Object.fromEntries(d.floors)).toEqual({ run: 0, stats: 1, common: 1 });
    expect(Object.fromEntries(d.climbs)).toEqual({ 'stats → run': 2 });
  });
});

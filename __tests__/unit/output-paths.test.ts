// The check of every path a run writes (src/run/output-paths.ts), on a file system in a table.
import { describe, expect, it } from 'vitest';
import { type OutputPath, outFormatPath, outputPathProblems, type PathProbe } from '../../src/run/output-paths.js';

/** /repo (writable) holds results/ (writable), ro/ (read-only), notes.txt, locked.json (read-only) */
const DIRS = new Set(['/', '/repo', '/repo/results', '/repo/ro']);
const FILES = new Set(['/repo/notes.txt', '/repo/locked.json']);
const READ_ONLY = new Set(['/', '/repo/ro', '/repo/locked.json']);
const probe: PathProbe = {
  exists: (p) => DIRS.has(p) || FILES.has(p),
  isDirectory: (p) => DIRS.has(p),
  writable: (p) => !READ_ONLY.has(p),
};

describe('outputPathProblems', () => {
  it.each<[string, OutputPath['kind'], string, string | undefined]>([
    ['a directory that exists', 'directory', '/repo/results', undefined],
    ['a directory to make in a writable one', 'directory', '/repo/new/deeper', undefined],
    ['a file to write in a writable directory', 'file', '/repo/results/j.xml', undefined],
    ['a file to make with its directories', 'file', '/repo/a/b/c.csv', undefined],
    ['a file that exists and may be written', 'file', '/repo/notes.txt', undefined],
    ['a directory that is a file', 'directory', '/repo/notes.txt', 'X: not a directory'],
    [
      'a file on the way to a directory',
      'directory',
      '/repo/notes.txt/a/b',
      'X: /repo/notes.txt is a file, not a directory',
    ],
    ['a file on the way to a file', 'file', '/repo/notes.txt/j.xml', 'X: /repo/notes.txt is a file, not a directory'],
    ['a file that is a directory', 'file', '/repo/results', 'X: a directory, not a file'],
    ['a read-only directory', 'directory', '/repo/ro', 'X: the directory is not writable'],
    ['a directory to make in a read-only one', 'directory', '/repo/ro/out', 'X: /repo/ro is not writable'],
    ['a file in a read-only directory', 'file', '/repo/ro/x/h.jsonl', 'X: /repo/ro is not writable'],
    // written through a temporary file renamed over it: the directory decides, not the file
    ['a read-only file in a writable directory', 'file', '/repo/locked.json', undefined],
    ['nothing exists but a read-only root', 'directory', '/elsewhere/out', 'X: / is not writable'],
  ])('%s', (_label, kind, path, problem) => {
    expect(outputPathProblems(probe, [{ given: 'X', path, kind, writes: true }])).toEqual(
      problem === undefined ? [] : [problem],
    );
  });

  it("a path the run only reads (a gate's baselines and history): its shape checked, not whether it may be written", () => {
    const read = (path: string, kind: OutputPath['kind']) =>
      outputPathProblems(probe, [{ given: 'X', path, kind, writes: false }]);
    expect(read('/repo/ro', 'directory')).toEqual([]);
    expect(read('/repo/ro/h.jsonl', 'file')).toEqual([]);
    expect(read('/repo/notes.txt/b', 'directory')).toEqual(['X: /repo/notes.txt is a file, not a directory']);
    expect(read('/repo/results', 'file')).toEqual(['X: a directory, not a file']);
  });

  it('every problem in the order given, one per path', () => {
    const paths: OutputPath[] = [
      { given: 'a', path: '/repo/ro/o', kind: 'directory', writes: true },
      { given: 'b', path: '/repo/results/ok.csv', kind: 'file', writes: true },
      { given: 'c', path: '/repo/results', kind: 'file', writes: true },
    ];
    expect(outputPathProblems(probe, paths)).toEqual(['a: /repo/ro is not writable', 'c: a directory, not a file']);
  });

  it.each([
    ['junit=out/j.xml', 'out/j.xml'],
    ['csv=a=b.csv', 'a=b.csv'],
    ['junit', undefined],
    ['junit=', undefined],
    ['=x', undefined],
  ])("FORMAT=PATH's path: %s", (spec, path) => expect(outFormatPath(spec)).toBe(path));
});

import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceResolver } from '../../src/config/load.js';
import { realReadFs } from '../../src/common/read-fs.js';

describe('workspaceResolver', () => {
  let root: string;
  let ws: string;

  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'perf-gate-unit-ws-')));
    ws = join(root, 'ws');
    mkdirSync(join(ws, 'sub', 'deeper'), { recursive: true });
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(ws, 'docker-compose.yml'), 'services: {}\n');
    writeFileSync(join(ws, 'sub', 'bodies.jsonl'), '"a"\n');
    writeFileSync(join(root, 'outside', 'secret.yml'), 'secret\n');
    symlinkSync(join(root, 'outside', 'secret.yml'), join(ws, 'link.yml'));
    symlinkSync(join(root, 'outside'), join(ws, 'linkdir'));
    symlinkSync(join(ws, 'docker-compose.yml'), join(ws, 'sub', 'inner-link.yml'));
    writeFileSync(join(ws, '..dotted.jsonl'), '"a"\n');
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ['.', 'docker-compose.yml', 'docker-compose.yml'],
    ['.', './sub/bodies.jsonl', 'sub/bodies.jsonl'],
    ['sub', 'bodies.jsonl', 'sub/bodies.jsonl'],
    ['sub/deeper', '../../docker-compose.yml', 'docker-compose.yml'],
    ['sub', 'inner-link.yml', 'docker-compose.yml'],
    // a name that merely starts with two dots is still inside
    ['.', '..dotted.jsonl', '..dotted.jsonl'],
  ])('from %j, %j inside the workspace resolves to its real path', (base, rel, expected) => {
    const resolve = workspaceResolver(join(ws, base), ws, realReadFs);
    expect(resolve(rel)).toBe(join(ws, expected));
  });

  it('accepts an absolute path inside the workspace', () => {
    const resolve = workspaceResolver(ws, ws, realReadFs);
    expect(resolve(join(ws, 'docker-compose.yml'))).toBe(join(ws, 'docker-compose.yml'));
  });

  it.each([
    ['..', '../outside/secret.yml'],
    ['.. from a subdirectory', '../../outside/secret.yml'],
    ['a symlink to a file', 'link.yml'],
    ['a symlinked directory', 'linkdir/secret.yml'],
  ])('rejects a path escaping the workspace via %s', (_label, rel) => {
    const resolve = workspaceResolver(join(ws, rel.startsWith('../../') ? 'sub' : '.'), ws, realReadFs);
    expect(() => resolve(rel)).toThrow(/resolves outside the workspace/);
  });

  it('rejects an absolute path outside the workspace', () => {
    const resolve = workspaceResolver(ws, ws, realReadFs);
    expect(() => resolve(join(root, 'outside', 'secret.yml'))).toThrow(/resolves outside the workspace/);
  });

  it.each([['missing.yml'], ['sub/missing.jsonl'], ['../outside/missing.yml']])(
    'a missing file %j gives `file not found`',
    (rel) => {
      const resolve = workspaceResolver(ws, ws, realReadFs);
      expect(() => resolve(rel)).toThrow(new RegExp(`^file not found: ${rel.replace(/\./g, '\\.')}`));
    },
  );

  it('rejects a directory', () => {
    const resolve = workspaceResolver(ws, ws, realReadFs);
    expect(() => resolve('sub')).toThrow(/sub is not a file/);
  });

  it('works when the workspace itself is given through a symlink', () => {
    const alias = join(root, 'ws-alias');
    symlinkSync(ws, alias);
    const resolve = workspaceResolver(alias, alias, realReadFs);
    expect(resolve('docker-compose.yml')).toBe(join(ws, 'docker-compose.yml'));
    expect(() => resolve('link.yml')).toThrow(/resolves outside the workspace/);
  });
});

// The real RunFiles' bytes (a baseline's profile is read through it): a regular file within its bound,
// and nothing else. A baseline is anyone's text in a fork: a profile committed as a link to /dev/zero
// or to a FIFO must not exhaust the runner's memory or block it, nor reach a file elsewhere.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realFiles } from '../../src/run/real-files.js';

const dir = mkdtempSync(join(tmpdir(), 'perf-gate-real-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('realFiles.readBytes', () => {
  it('a regular file within the bound: its bytes; a missing one: undefined', () => {
    writeFileSync(join(dir, 'p.pb.gz'), Buffer.from([1, 2, 3]));
    expect([...(realFiles.readBytes(join(dir, 'p.pb.gz'), 3) ?? [])]).toEqual([1, 2, 3]);
    expect(realFiles.readBytes(join(dir, 'none.pb.gz'), 3)).toBeUndefined();
  });

  it('a file over the bound is refused before it is read', () => {
    writeFileSync(join(dir, 'big.pb.gz'), Buffer.alloc(10));
    expect(() => realFiles.readBytes(join(dir, 'big.pb.gz'), 9)).toThrow(/^larger than 9 bytes \(10\)$/);
  });

  it.each<[string, () => string]>([
    [
      'a link to /dev/zero',
      () => {
        symlinkSync('/dev/zero', join(dir, 'zero.pb.gz'));
        return join(dir, 'zero.pb.gz');
      },
    ],
    [
      'a link to a regular file elsewhere',
      () => {
        writeFileSync(join(dir, 'secret'), 'x');
        symlinkSync(join(dir, 'secret'), join(dir, 'link.pb.gz'));
        return join(dir, 'link.pb.gz');
      },
    ],
    [
      'a FIFO (a read would block)',
      () => {
        const r = spawnSync('mkfifo', [join(dir, 'fifo.pb.gz')]);
        if (r.status !== 0) throw new Error(`mkfifo: ${r.stderr}`);
        return join(dir, 'fifo.pb.gz');
      },
    ],
    [
      'a directory',
      () => {
        spawnSync('mkdir', [join(dir, 'd.pb.gz')]);
        return join(dir, 'd.pb.gz');
      },
    ],
  ])('%s: refused, not read', (_label, make) => {
    expect(() => realFiles.readBytes(make(), 16 * 1024 * 1024)).toThrow(/^not a regular file$/);
  });
});

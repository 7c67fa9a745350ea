// The real file system as a run sees it (RunFiles): what the entry points bind.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realReadFs } from '../common/read-fs.js';
import { readHistoryFile } from '../history/file.js';
import { writeFileAtomic } from '../results/files.js';
import type { RunFiles } from './contract.js';

/** The real file system. */
export const realFiles: RunFiles = {
  ...realReadFs,
  read: readHistoryFile,
  readBytes: (path, max) => {
    if (!existsSync(path)) return undefined;
    const size = statSync(path).size;
    if (size > max) throw new Error(`larger than ${max} bytes (${size})`);
    return readFileSync(path);
  },
  write: writeFileAtomic,
  makeTempDir: (prefix) => mkdtempSync(join(tmpdir(), prefix)),
  removeDir: (dir) => rmSync(dir, { recursive: true, force: true }),
};

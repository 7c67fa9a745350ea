// The real file system as a run sees it (RunFiles): what the entry points bind.
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    // a regular file only, not a link (to /dev/zero, a FIFO, anywhere): its size is then what is read
    const st = lstatSync(path);
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > max) throw new Error(`larger than ${max} bytes (${st.size})`);
    const data = readFileSync(path);
    if (data.length > max) throw new Error(`larger than ${max} bytes (${data.length})`);
    return data;
  },
  write: writeFileAtomic,
  makeTempDir: (prefix) => mkdtempSync(join(tmpdir(), prefix)),
  removeDir: (dir) => rmSync(dir, { recursive: true, force: true }),
};

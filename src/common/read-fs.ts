// What reading a project needs of a file system: a file's text, whether a path exists, where a path
// really is (symlinks followed), and whether it is a file. The config, its bodies and protos' message
// files, and the baselines are read through it; the entry points bind the real one, tests an
// in-memory one.
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';

export interface ReadFs {
  /** a file's text; fails as readFileSync does (an error with code ENOENT when it does not exist) */
  readText(path: string): string;
  exists(path: string): boolean;
  /** the path with every symlink followed (the path must exist) */
  realpath(path: string): string;
  isFile(path: string): boolean;
}

export const realReadFs: ReadFs = {
  readText: (path) => readFileSync(path, 'utf8'),
  exists: existsSync,
  realpath: (path) => realpathSync(path),
  isFile: (path) => statSync(path).isFile(),
};

/** Whether the process may write `path` (a file) or create entries in it (a directory): access(2)
 * with W_OK, which also answers no on a read-only file system. For the check of a run's output paths. */
export function realWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

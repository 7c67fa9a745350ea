// What reading a project needs of a file system: a file's text, whether a path exists, where a path
// really is (symlinks followed), and whether it is a file. The config, its bodies and protos' message
// files, and the baselines are read through it; the entry points bind the real one, tests an
// in-memory one.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';

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

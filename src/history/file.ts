// Reading the trend history file (history.ts is the pure part).
import { readFileSync } from 'node:fs';
import { usageError } from '../common/errors.js';

/** The history file's text, undefined when it does not exist yet; any other failure is a usage error. */
export function readHistoryFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw usageError(`history file ${path}: ${(err as Error).message}`);
  }
}

// Reading baseline and results files back, with one clear line for anything that is not ours.
import type { ReadFs } from '../common/read-fs.js';
import { usageError } from '../common/errors.js';
import { baselinePath } from './files.js';
import { BASELINE_SCHEMA, type BaselineFile, RESULTS_SCHEMA, type ResultsFile } from './types.js';
import { baselineFileSchema, problemOf, resultsFileSchema } from './validate.js';

function readJson(path: string, what: string, fs: Pick<ReadFs, 'readText'>): unknown {
  let text: string;
  try {
    text = fs.readText(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(`${what} ${path}: ${code === 'ENOENT' ? 'not found' : (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw usageError(`${what} ${path}: not valid JSON (${(err as Error).message})`);
  }
}

function schemaOf(data: unknown): string | undefined {
  return data && typeof data === 'object' && typeof (data as { schema?: unknown }).schema === 'string'
    ? (data as { schema: string }).schema
    : undefined;
}

/** A baseline file; undefined when it does not exist (that scenario has no baseline yet). */
export function readBaseline(path: string, optional: boolean, fs: ReadFs): BaselineFile | undefined {
  let data: unknown;
  try {
    data = readJson(path, 'baseline', fs);
  } catch (err) {
    if (optional && /: not found$/.test((err as Error).message)) return undefined;
    throw err;
  }
  const schema = schemaOf(data);
  if (schema !== BASELINE_SCHEMA) {
    throw usageError(
      `baseline ${path}: schema ${schema ?? '(none)'} is not ${BASELINE_SCHEMA}; refresh it with perf-gate run --mode update`,
    );
  }
  const problem = problemOf(baselineFileSchema, data);
  if (problem) throw usageError(`baseline ${path}: corrupt (${problem}); refresh it with perf-gate run --mode update`);
  return data as BaselineFile;
}

/** Each named scenario's baseline in `dir` (undefined: none yet), and the error of each one that
 * cannot be read (corrupt, another schema), in the order of `names`: the caller decides whether that
 * refuses the run or is said and passed over. */
export function readBaselines(
  names: readonly string[],
  dir: string,
  fs: ReadFs,
): { baselines: Map<string, BaselineFile | undefined>; errors: Error[] } {
  const baselines = new Map<string, BaselineFile | undefined>();
  const errors: Error[] = [];
  for (const name of names) {
    try {
      baselines.set(name, readBaseline(baselinePath(dir, name), true, fs));
    } catch (err) {
      errors.push(err as Error);
    }
  }
  return { baselines, errors };
}

export function readResults(path: string, fs: Pick<ReadFs, 'readText'>): ResultsFile {
  const data = readJson(path, 'results file', fs);
  const schema = schemaOf(data);
  if (schema !== RESULTS_SCHEMA) {
    throw usageError(`results file ${path}: not a perf-gate results file (schema ${schema ?? '(none)'})`);
  }
  const problem = problemOf(resultsFileSchema, data);
  if (problem) throw usageError(`results file ${path}: corrupt (${problem})`);
  const results = data as ResultsFile;
  // files from before confirmation by more trials said `unconfirmed` for what is now `inconclusive`
  for (const c of results.comparisons) if ((c.result as string) === 'unconfirmed') c.result = 'inconclusive';
  return results;
}

// Results and baseline files are checked field by field when read back: report mode renders a file a
// fork's run produced, so nothing in it reaches Markdown without its type checked.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/common/errors.js';
import { stableStringify } from '../../src/results/files.js';
import { readBaseline, readResults } from '../../src/results/read.js';
import { comparison, phase, resultsFile } from './fixtures.js';
import { realReadFs } from '../../src/common/read-fs.js';

const dir = mkdtempSync(join(tmpdir(), 'perf-gate-read-'));
let n = 0;
function file(data: unknown): string {
  const path = join(dir, `f${n++}.json`);
  writeFileSync(path, typeof data === 'string' ? data : stableStringify(data));
  return path;
}
function error(read: () => unknown): string {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as UserError).exitCode).toBe(2);
    return (e as Error).message;
  }
  throw new Error('read accepted it');
}

const good = resultsFile([{ name: 'api', scenarioHash: 'h', phases: [phase('c10', {})] }], [comparison()]);

describe('readResults', () => {
  it('reads a results file perf-gate wrote', () => {
    expect(readResults(file(good), realReadFs).scenarios[0]?.name).toBe('api');
  });

  it('keeps keys it does not know (a newer file)', () => {
    expect(
      (readResults(file({ ...good, future: { x: 1 } }), realReadFs) as unknown as { future: unknown }).future,
    ).toEqual({
      x: 1,
    });
  });

  it.each<[string, (r: typeof good) => unknown, string]>([
    [
      'a number that is text',
      (r) => ({ ...r, comparisons: [{ ...r.comparisons[0], current: '<img src=x onerror=alert(1)>' }] }),
      'comparisons.0.current',
    ],
    [
      'a verdict that is not one',
      (r) => ({ ...r, comparisons: [{ ...r.comparisons[0], result: 'fine' }] }),
      'comparisons.0.result',
    ],
    ['comparisons not a list', (r) => ({ ...r, comparisons: 'none' }), 'comparisons'],
    [
      'a merged rate that is text',
      (r) => ({
        ...r,
        scenarios: [
          {
            ...r.scenarios[0],
            phases: [{ ...r.scenarios[0]!.phases[0], merged: { ...r.scenarios[0]!.phases[0]!.merged, rps: 'fast' } }],
          },
        ],
      }),
      'scenarios.0.phases.0.merged.rps',
    ],
    [
      'a status code count that is negative',
      (r) => ({
        ...r,
        scenarios: [
          {
            ...r.scenarios[0],
            phases: [
              {
                ...r.scenarios[0]!.phases[0],
                merged: { ...r.scenarios[0]!.phases[0]!.merged, statusCodes: { '200': -5 } },
              },
            ],
          },
        ],
      }),
      'scenarios.0.phases.0.merged.statusCodes.200',
    ],
    [
      'a flag that is not text',
      (r) => ({ ...r, scenarios: [{ ...r.scenarios[0], phases: [{ ...r.scenarios[0]!.phases[0], flags: [{}] }] }] }),
      'scenarios.0.phases.0.flags.0',
    ],
    ['no provenance', (r) => ({ ...r, provenance: undefined }), 'provenance'],
    // a smaller alpha means more shuffles: a file may not ask for an unbounded number
    [
      'a history alpha below 0.001',
      (r) => ({ ...r, shiftSettings: { minShift: 0.05, alpha: 1e-9 } }),
      'shiftSettings.alpha',
    ],
  ])('%s: corrupt, naming the field', (_label, mutate, field) => {
    const path = file(mutate(good));
    expect(error(() => readResults(path, realReadFs))).toMatch(
      new RegExp(`^results file ${path}: corrupt \\(${field.replace(/\./g, '\\.')}: `),
    );
  });

  it('another schema or none: not a results file', () => {
    const path = file({ ...good, schema: 'perf-gate/baseline@1' });
    expect(error(() => readResults(path, realReadFs))).toBe(
      `results file ${path}: not a perf-gate results file (schema perf-gate/baseline@1)`,
    );
  });
});

describe('readBaseline', () => {
  it('reads the committed quickstart baseline (written before p10/p25/p75 existed)', () => {
    expect(readBaseline(resolve(import.meta.dirname, '../../baselines/work.json'), true, realReadFs)?.scenario).toBe(
      'work',
    );
  });

  it('a missing optional baseline is undefined; a corrupt one names the field and the fix', () => {
    expect(readBaseline(join(dir, 'none.json'), true, realReadFs)).toBeUndefined();
    const path = file({
      schema: 'perf-gate/baseline@1',
      scenario: 'api',
      scenarioHash: 'h',
      provenance: good.provenance,
      phases: [{ name: 'c10' }],
    });
    expect(error(() => readBaseline(path, true, realReadFs))).toMatch(
      new RegExp(
        `^baseline ${path}: corrupt \\(phases\\.0\\.kind: .*\\); refresh it with perf-gate run --mode update$`,
      ),
    );
  });
});

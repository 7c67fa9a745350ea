// A gate run's baselines' profiles (src/run/kept-profiles.ts), read through the run's files: only the
// phases and services this run profiled, each once (a baseline listing one file 1,000 times reads it
// once), and a missing file said, never a failed run.
import { describe, expect, it } from 'vitest';
import type { TakenProfile } from '../../src/profiles/record.js';
import type { BaselineFile } from '../../src/results/types.js';
import { keptProfiles } from '../../src/run/kept-profiles.js';
import { MemoryFiles } from './run-harness.js';

const baseline = (profiles: BaselineFile['profiles']): BaselineFile =>
  ({ scenario: 'orders', profiles }) as unknown as BaselineFile;
const taken = (phase: string, service: string): TakenProfile => ({ scenario: 'orders', phase, service });

describe('keptProfiles', () => {
  it('reads only what this run profiled, each once; a file the baseline lists but lacks is said missing', () => {
    const files = new MemoryFiles();
    const dir = `${files.root}/baselines`;
    files.write(`${dir}/profiles/orders.c4.api.pb.gz`, 'profile-bytes');
    files.write(`${dir}/profiles/orders.c8.api.pb.gz`, 'other');
    let reads = 0;
    const counted = Object.assign(Object.create(files) as MemoryFiles, {
      readBytes: (p: string, max: number) => {
        reads++;
        return files.readBytes(p, max);
      },
    });
    const same = { phase: 'c4', service: 'api', file: 'profiles/orders.c4.api.pb.gz' };
    const b = baseline([
      ...Array.from({ length: 1000 }, () => same),
      { phase: 'c8', service: 'api', file: 'profiles/orders.c8.api.pb.gz' },
      { phase: 'c4', service: 'db', file: 'profiles/orders.c4.db.pb.gz' },
    ]);
    const out = keptProfiles(new Map([['orders', b]]), dir, counted, [taken('c4', 'api'), taken('c4', 'db')]);
    expect(reads).toBe(1);
    expect(out.map((k) => [k.phase, k.service, k.error ?? new TextDecoder().decode(k.data)])).toEqual([
      ['c4', 'api', 'profile-bytes'],
      ['c4', 'db', 'its file is missing'],
    ]);
    expect(out[0]?.file).toBe(`${dir}/profiles/orders.c4.api.pb.gz`);
  });

  it('a scenario without a baseline, or a baseline without profiles: nothing', () => {
    const files = new MemoryFiles();
    const out = keptProfiles(
      new Map([
        ['orders', undefined],
        ['b', baseline(undefined)],
      ]),
      `${files.root}/baselines`,
      files,
      [taken('c4', 'api')],
    );
    expect(out).toEqual([]);
  });
});

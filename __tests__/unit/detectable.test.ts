// What `validate` says each gated row can catch where a baseline exists (compare/detectable.ts): the
// baseline's trials stand in for the run's, compared with themselves by the gate's own comparison.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { detectableSaid } from '../../src/compare/detectable.js';
import { AGAINST_BASELINES } from '../../src/compare/judging.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config-parts/types.js';
import type { BaselineFile } from '../../src/results/types.js';
import { baselineOf, phase } from './fixtures.js';

/** One scenario `api`, one phase `c8`, 5 trials, p50 banded at +10%. */
function scenarios(): Config['scenarios'] {
  const raw = {
    version: 1,
    sut: { compose: 'docker-compose.yml' },
    scenarios: [
      {
        name: 'api',
        trials: 5,
        request: { url: 'http://api/' },
        thresholds: { p50: { regress: '10%' } },
        phases: [{ name: 'c8', connections: 8, duration: '1s' }],
      },
    ],
  };
  return (parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`).config as Config).scenarios;
}

/** A baseline of `api`/c8 whose 5 trials measured these p50s (µs). */
function baseline(p50s: number[], hash = 'h'): BaselineFile {
  const median = [...p50s].sort((a, b) => a - b)[2] as number;
  return baselineOf('api', hash, [
    phase(
      'c8',
      { latency: { p50: median } },
      p50s.map((v) => ({ latency: { p50: v } })),
    ),
  ]);
}

describe('detectableSaid: the smallest change each row catches, from the baseline’s spread', () => {
  it.each<[string, BaselineFile | undefined, RegExp]>([
    [
      'a tight baseline (±1%): a change well inside its band is caught',
      baseline([1000, 1010, 990, 1005, 995]),
      /^api\/c8 p50: catches \+(\d(\.\d)?)% or more \(band \+10%\)$/,
    ],
    [
      'a baseline spread over ×4: the band is below what it catches',
      baseline([500, 2000, 1000, 1500, 800]),
      /^api\/c8 p50: catches \+\d+% or more: its band \(\+10%\) is below it, so a change of its size passes$/,
    ],
    ['no baseline yet', undefined, /^api: no baseline yet \(known after the first update run\)$/],
    [
      'a baseline of another definition: stale, not used',
      baseline([1000, 1010, 990, 1005, 995], 'other'),
      /^api: its baseline was recorded for another definition of it \(stale\)/,
    ],
  ])('%s', (_label, b, want) => {
    const lines = detectableSaid(
      scenarios(),
      AGAINST_BASELINES,
      new Map(),
      new Map([['api', b]]),
      new Map([['api', 'h']]),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(want);
  });

  it('a wider spread catches less: the tight baseline’s change is smaller than the wide one’s', () => {
    const at = (p50s: number[]) => {
      const line = detectableSaid(
        scenarios(),
        AGAINST_BASELINES,
        new Map(),
        new Map([['api', baseline(p50s)]]),
        new Map([['api', 'h']]),
      )[0];
      return Number(/catches \+([\d.]+)%/.exec(line ?? '')?.[1]);
    };
    const tight = at([1000, 1010, 990, 1005, 995]);
    const wide = at([1000, 1100, 900, 1050, 950]);
    expect(tight).toBeGreaterThan(0);
    expect(wide).toBeGreaterThan(tight);
  });

  it('a confirmation cap catches a smaller change than the first look alone', () => {
    const at = (cap: number) => {
      const line = detectableSaid(
        scenarios(),
        AGAINST_BASELINES,
        new Map([['api', cap]]),
        new Map([['api', baseline([1000, 1100, 900, 1050, 950])]]),
        new Map([['api', 'h']]),
      )[0];
      return Number(/catches \+([\d.]+)%/.exec(line ?? '')?.[1]);
    };
    expect(at(24)).toBeLessThan(at(5));
  });
});

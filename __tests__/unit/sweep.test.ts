import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/config-parts/types.js';
import { sweepScenarios } from '../../src/modes/sweep.js';

const base: Scenario = {
  name: 's',
  target: { kind: 'http', request: { url: 'http://api/x', method: 'GET', headers: {} } },
  phases: [{ kind: 'closed', name: 'c1', connections: 1, durationMs: 1000 }],
  warmupMs: 5000,
  trials: 3,
  requestTimeoutMs: 10_000,
  thresholds: {},
};

describe('sweepScenarios', () => {
  it.each([
    [
      'a connections ladder becomes closed-loop phases',
      { kind: 'closed' as const, levels: [1, 8], durationMs: 2000, warmupMs: 500 },
      [
        { kind: 'closed', name: 'c1', connections: 1, durationMs: 2000 },
        { kind: 'closed', name: 'c8', connections: 8, durationMs: 2000 },
      ],
    ],
    [
      'a rate ladder becomes open-loop phases with the default max-in-flight',
      { kind: 'open' as const, levels: [100, 2.5], durationMs: 3000, warmupMs: 0 },
      [
        { kind: 'open', name: 'r100', rate: 100, durationMs: 3000, maxInFlight: 1000 },
        { kind: 'open', name: 'r2_5', rate: 2.5, durationMs: 3000, maxInFlight: 1000 },
      ],
    ],
  ])('%s', (_label, sweep, phases) => {
    const [out] = sweepScenarios([{ ...base, sweep }]);
    expect(out?.phases).toEqual(phases);
    expect(out?.trials).toBe(1);
    expect(out?.warmupMs).toBe(sweep.warmupMs);
  });

  it('leaves out scenarios without a ladder, and returns nothing when none has one (a sweep never fails)', () => {
    const sweep = { kind: 'open' as const, levels: [1], durationMs: 1000, warmupMs: 0 };
    expect(sweepScenarios([base, { ...base, name: 't', sweep }]).map((s) => s.name)).toEqual(['t']);
    expect(sweepScenarios([base])).toEqual([]);
  });
});

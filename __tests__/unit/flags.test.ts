import { describe, expect, it } from 'vitest';
import { compareScenario } from '../../src/compare/compare.js';
import { GENERATOR_LIMITS, generatorCapacity, phaseFlags } from '../../src/results/flags.js';
import type { BaselineFile, PhaseParams, PhaseResult } from '../../src/results/types.js';
import type { GeneratorUsage, OpenLoopCounts, TrialMeasurement } from '../../src/runner-kit/measurement.js';
import { latency } from './fixtures.js';

/** A healthy trial: little CPU on one of two threads, a quiet event loop, no closes. */
function trial(
  over: Partial<Omit<TrialMeasurement, 'generator'>> & { generator?: Partial<GeneratorUsage> } = {},
): TrialMeasurement {
  const { generator, ...rest } = over;
  return {
    trial: 1,
    durationMs: 10_000,
    sent: 1000,
    responses: 1000,
    successes: 1000,
    failures: 0,
    statusCodes: { '200': 1000 },
    errors: {},
    rps: 100,
    bytesPerSec: 10_000,
    latency: latency(),
    connectionCloses: 0,
    generator: { cpuPct: 20, eventLoopDelayP99Us: 1000, eventLoopDelayMaxUs: 2000, threads: 2, cores: 2, ...generator },
    ...rest,
  };
}

const openCounts = (c: Partial<OpenLoopCounts>): OpenLoopCounts => ({
  scheduled: 1000,
  late: 0,
  lateService: 0,
  lateGenerator: 0,
  unfinished: 0,
  maxSendDelayUs: 0,
  delayUs: { service: 0, timer: 0, generator: 0 },
  ...c,
});

const CLOSED = { kind: 'closed', params: { connections: 10, durationMs: 10_000 } } as const;
const OPEN = { kind: 'open', params: { rate: 200, durationMs: 10_000, maxInFlight: 50 } } as const;

type Kind = { kind: 'closed' | 'open'; params: PhaseParams };

const isBound = (flags: readonly string[]): boolean => flags[0]?.startsWith('generator-bound') ?? false;

describe('GENERATOR_LIMITS', () => {
  it('are 90% of the CPU, a thread 90% busy, 50 ms event-loop p99, and 1% and at least 10 late sends', () => {
    expect(GENERATOR_LIMITS).toEqual({
      cpuShare: 0.9,
      busyPct: 90,
      eventLoopDelayP99Us: 50_000,
      lateShare: 0.01,
      lateCount: 10,
    });
  });
});

describe('generatorCapacity', () => {
  it.each<[string, Partial<GeneratorUsage>, number | undefined, number]>([
    ['threads and cores agree', { threads: 2, cores: 2 }, undefined, 2],
    ['fewer threads than cores', { threads: 1, cores: 4 }, undefined, 1],
    ['fewer cores than threads', { threads: 8, cores: 2 }, undefined, 2],
    ['a runner.cpus quota below both', { threads: 4, cores: 4 }, 0.5, 0.5],
    ['a runner.cpus quota above both', { threads: 2, cores: 2 }, 8, 2],
    ['old files without threads or cores: one thread', { threads: undefined, cores: undefined }, undefined, 1],
    ['old files without threads, with a quota', { threads: undefined, cores: undefined }, 0.25, 0.25],
    ['cores only: still one thread', { threads: undefined, cores: 4 }, undefined, 1],
    ['threads only: cores taken as threads', { threads: 3, cores: undefined }, undefined, 3],
    ['a tiny quota has a floor', { threads: 1, cores: 1 }, 0.001, 0.01],
    ['with a per-thread busy measure, threads do not cap it', { threads: 1, cores: 4, busyPct: 50 }, undefined, 4],
    ['with a busy measure, the quota still does', { threads: 1, cores: 4, busyPct: 50 }, 1.5, 1.5],
  ])('%s → %d', (_label, generator, runnerCpus, capacity) => {
    expect(generatorCapacity(trial({ generator }), runnerCpus)).toBe(capacity);
  });
});

describe('phaseFlags: healthy trials', () => {
  it.each<[string, Kind, TrialMeasurement[], number | undefined]>([
    ['closed', CLOSED, [trial(), trial({ trial: 2 })], undefined],
    ['closed with a quota', CLOSED, [trial({ generator: { cpuPct: 40 } })], 1],
    ['open, on schedule', OPEN, [trial({ open: openCounts({}) })], undefined],
    ['open, a few late sends below 1%', OPEN, [trial({ open: openCounts({ late: 9 }) })], undefined],
    ['no trials', CLOSED, [], undefined],
  ])('%s: no flags', (_label, phase, trials, runnerCpus) => {
    expect(phaseFlags(phase, trials, runnerCpus)).toEqual([]);
  });
});

describe('phaseFlags: generator-bound by CPU', () => {
  it.each<[string, Partial<GeneratorUsage>, number | undefined, boolean]>([
    ['2 threads, 2 cores, 185% (over 90% of 200%)', { threads: 2, cores: 2, cpuPct: 185 }, undefined, true],
    ['2 threads, 2 cores, exactly 180%', { threads: 2, cores: 2, cpuPct: 180 }, undefined, true],
    ['2 threads, 2 cores, 179%', { threads: 2, cores: 2, cpuPct: 179 }, undefined, false],
    ['2 threads, 2 cores, 150%', { threads: 2, cores: 2, cpuPct: 150 }, undefined, false],
    ['1 thread on 4 cores, 95%', { threads: 1, cores: 4, cpuPct: 95 }, undefined, true],
    ['4 threads on 1 core, 95%', { threads: 4, cores: 1, cpuPct: 95 }, undefined, true],
    ['4 threads on 4 cores, 95%', { threads: 4, cores: 4, cpuPct: 95 }, undefined, false],
    ['runner.cpus 0.5, 46%', { threads: 2, cores: 2, cpuPct: 46 }, 0.5, true],
    ['runner.cpus 0.5, exactly 45%', { threads: 2, cores: 2, cpuPct: 45 }, 0.5, true],
    ['runner.cpus 0.5, 40%', { threads: 2, cores: 2, cpuPct: 40 }, 0.5, false],
    ['one engine thread 95% busy', { threads: 1, cores: 2, cpuPct: 60, busyPct: 95 }, undefined, true],
    ['one engine thread exactly 90% busy', { threads: 2, cores: 2, cpuPct: 60, busyPct: 90 }, undefined, true],
    [
      'engine threads 80% busy, GC threads on top: 95% process CPU of 2 cores is fine',
      { threads: 1, cores: 2, cpuPct: 95, busyPct: 80 },
      undefined,
      false,
    ],
    ['runner.cpus 0.8, exactly 72% (0.9 × 0.8 is not 0.72 in floats)', { threads: 1, cores: 2, cpuPct: 72 }, 0.8, true],
    ['runner.cpus 1.6, exactly 144%', { threads: 2, cores: 2, cpuPct: 144 }, 1.6, true],
    ['without a quota the same 46% is fine', { threads: 2, cores: 2, cpuPct: 46 }, undefined, false],
    [
      'old file (no threads/cores), 92%: one thread',
      { threads: undefined, cores: undefined, cpuPct: 92 },
      undefined,
      true,
    ],
    ['old file (no threads/cores), 85%', { threads: undefined, cores: undefined, cpuPct: 85 }, undefined, false],
  ])('%s → bound %s', (_label, generator, runnerCpus, bound) => {
    const flags = phaseFlags(CLOSED, [trial({ generator })], runnerCpus);
    expect(isBound(flags)).toBe(bound);
    expect(flags).toHaveLength(bound ? 1 : 0);
  });

  it('says which trial, how much CPU of how much, and what to do', () => {
    const flags = phaseFlags(CLOSED, [
      trial(),
      trial({ trial: 2, generator: { threads: 2, cores: 2, cpuPct: 185.4 } }),
    ]);
    expect(flags).toHaveLength(1);
    const [flag] = flags as [string];
    expect(flag).toMatch(/^generator-bound: /);
    expect(flag).toContain('trial 2: the runner used 185% CPU of 200% available');
    expect(flag).not.toContain('trial 1');
    expect(flag).toContain('runner.workers');
    expect(flag).toContain('runner.cpus');
  });

  it('lists every trial over the limit in one flag', () => {
    const flags = phaseFlags(CLOSED, [
      trial({ trial: 1, generator: { cpuPct: 190 } }),
      trial({ trial: 2, generator: { cpuPct: 100 } }),
      trial({ trial: 3, generator: { cpuPct: 199 } }),
    ]);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toContain('trial 1: the runner used 190% CPU');
    expect(flags[0]).toContain('trial 3: the runner used 199% CPU');
    expect(flags[0]).not.toContain('trial 2');
  });
});

describe('phaseFlags: generator-bound by event-loop delay', () => {
  it.each<[number, boolean]>([
    [1_000, false],
    [50_000, false],
    [50_001, true],
    [120_000, true],
  ])('event-loop p99 %i µs → bound %s', (p99, bound) => {
    const flags = phaseFlags(CLOSED, [trial({ generator: { eventLoopDelayP99Us: p99 } })]);
    expect(isBound(flags)).toBe(bound);
    if (bound) expect(flags[0]).toContain(`lagged ${Math.round(p99 / 1000)} ms at p99`);
  });

  it('names both reasons of one trial in one flag', () => {
    const flags = phaseFlags(CLOSED, [trial({ generator: { cpuPct: 195, eventLoopDelayP99Us: 80_000 } })]);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toContain('195% CPU');
    expect(flags[0]).toContain('lagged 80 ms');
  });
});

describe('phaseFlags: open-loop late sends', () => {
  it.each<[string, Partial<OpenLoopCounts>, { bound: boolean; service: boolean }]>([
    ['no late sends', { late: 0 }, { bound: false, service: false }],
    ['late sends for the timer only (not counted by cause)', { late: 300 }, { bound: false, service: false }],
    ['0.9% late for the generator', { late: 9, lateGenerator: 9 }, { bound: false, service: false }],
    ['exactly 1% late for the generator', { late: 10, lateGenerator: 10 }, { bound: true, service: false }],
    ['5% late for the generator', { late: 50, lateGenerator: 50 }, { bound: true, service: false }],
    ['50% late, all held by the service', { late: 500, lateService: 500 }, { bound: false, service: true }],
    [
      '50% held by the service, 0.9% also late for the generator',
      { late: 500, lateService: 500, lateGenerator: 9 },
      { bound: false, service: true },
    ],
    [
      '50% held by the service, 1% late for the generator: the generator’s lateness is judged alone',
      { late: 500, lateService: 500, lateGenerator: 10 },
      { bound: true, service: true },
    ],
    ['nothing scheduled', { scheduled: 0, late: 0 }, { bound: false, service: false }],
    // both are needed: 10 late sends, and 1% of the trial's scheduled sends
    [
      'a short trial: 1 of 75 late (1.3%), fewer than 10',
      { scheduled: 75, late: 1, lateGenerator: 1 },
      { bound: false, service: false },
    ],
    [
      'a short trial: 9 of 100 late (9%), fewer than 10',
      { scheduled: 100, late: 9, lateGenerator: 9 },
      { bound: false, service: false },
    ],
    [
      'a short trial: 10 of 100 late (10%)',
      { scheduled: 100, late: 10, lateGenerator: 10 },
      { bound: true, service: false },
    ],
    [
      'a long trial: 19 of 2000 late (0.95%), below 1%',
      { scheduled: 2000, late: 19, lateGenerator: 19 },
      { bound: false, service: false },
    ],
    [
      'a long trial: 20 of 2000 late (1%)',
      { scheduled: 2000, late: 20, lateGenerator: 20 },
      { bound: true, service: false },
    ],
  ])('%s', (_label, counts, expected) => {
    const flags = phaseFlags(OPEN, [trial({ open: openCounts(counts) })]);
    expect(isBound(flags)).toBe(expected.bound);
    expect(flags.some((f) => f.startsWith('the service held sends back'))).toBe(expected.service);
    expect(flags).toHaveLength(Number(expected.bound) + Number(expected.service));
  });

  it.each<[string, Partial<OpenLoopCounts>[], boolean]>([
    // CI at 38a0ea3+: the confirmation's trial 4 of 7 met a VM hiccup, and the phase's 80× p99
    // regression came out invalid
    [
      'one trial of 7 with 11 of 1000 late (1.1%), the others none: 11 of 7000 (0.16%)',
      [{ scheduled: 1000, late: 11, lateGenerator: 11 }, ...Array(6).fill({ scheduled: 1000 })],
      false,
    ],
    [
      '9 late in each of 3 trials of 1000: 27 of 3000 (0.9%)',
      Array(3).fill({ scheduled: 1000, late: 9, lateGenerator: 9 }),
      false,
    ],
    [
      '4 late in each of 3 trials of 300: 12 of 900 (1.3%)',
      Array(3).fill({ scheduled: 300, late: 4, lateGenerator: 4 }),
      true,
    ],
    [
      'one trial of 3 with 40 of 1000 late: 40 of 3000 (1.3%)',
      [{ scheduled: 1000, late: 40, lateGenerator: 40 }, { scheduled: 1000 }, { scheduled: 1000 }],
      true,
    ],
  ])('late sends are summed over the phase: %s', (_label, counts, bound) => {
    const flags = phaseFlags(
      OPEN,
      counts.map((c, i) =>
        trial({ trial: i + 1, open: openCounts({ late: 0, lateService: 0, lateGenerator: 0, ...c }) }),
      ),
    );
    expect(isBound(flags)).toBe(bound);
  });

  it('the late-sends reason over several trials names the worst one', () => {
    const flags = phaseFlags(OPEN, [
      trial({ trial: 1, open: openCounts({ scheduled: 1000, late: 5, lateGenerator: 5 }) }),
      trial({ trial: 2, open: openCounts({ scheduled: 1000, late: 30, lateGenerator: 30 }) }),
    ]);
    expect(flags[0]).toContain(
      '2 trials (most in trial 2: 30): 35 of 2000 sends (1.8%) started over 5 ms late while the generator was busy',
    );
  });

  it('the late-sends reason gives the count, the share and the rate', () => {
    const flags = phaseFlags(OPEN, [
      trial({ trial: 2, open: openCounts({ scheduled: 2000, late: 60, lateService: 10, lateGenerator: 50 }) }),
    ]);
    expect(flags[0]).toMatch(/^generator-bound: /);
    expect(flags[0]).toContain(
      'trial 2: 50 of 2000 sends (2.5%) started over 5 ms late while the generator was busy, it fell behind 200 req/s',
    );
  });

  it('the service flag gives the bound and the sums over trials', () => {
    const flags = phaseFlags(OPEN, [
      trial({ trial: 1, open: openCounts({ late: 30, lateService: 30 }) }),
      trial({ trial: 2, open: openCounts({ late: 20, lateService: 20 }) }),
    ]);
    expect(flags).toEqual([
      'the service held sends back: 50 of 2000 found every open connection busy with an unanswered request and waited over 5 ms for one (connections open on demand, a few at a time, up to 50: max-in-flight and connections); that wait counts in their latency',
    ]);
  });

  it.each([
    ['connections default to max-in-flight', { maxInFlight: 1000 }, ', up to 1000: '],
    ['explicit connections below max-in-flight', { maxInFlight: 1000, connections: 20 }, ', up to 20: '],
    ['explicit connections above max-in-flight', { maxInFlight: 10, connections: 20 }, ', up to 10: '],
  ])('the in-flight bound: %s', (_label, params, text) => {
    const flags = phaseFlags({ kind: 'open', params: { rate: 200, durationMs: 10_000, ...params } }, [
      trial({ open: openCounts({ late: 5, lateService: 5 }) }),
    ]);
    expect(flags[0]).toContain(text);
  });

  it('judges late sends over the phase: 2% in one trial of two is 1% of the phase', () => {
    const flags = phaseFlags(OPEN, [
      trial({ trial: 1, open: openCounts({ late: 0 }) }),
      trial({ trial: 2, open: openCounts({ late: 20, lateGenerator: 20 }) }),
    ]);
    expect(isBound(flags)).toBe(true);
    expect(flags[0]).toContain('2 trials (most in trial 2: 20): 20 of 2000 sends (1%)');
  });

  it('counts the 10 late sends over the phase too', () => {
    // 6 of 200 (3%) in each trial: fewer than 10 in either, 12 over the phase
    const flags = phaseFlags(OPEN, [
      trial({ trial: 1, open: openCounts({ scheduled: 200, late: 6, lateGenerator: 6 }) }),
      trial({ trial: 2, open: openCounts({ scheduled: 200, late: 6, lateGenerator: 6 }) }),
    ]);
    expect(isBound(flags)).toBe(true);
  });

  it('late counts in a closed phase do not make it bound', () => {
    expect(phaseFlags(CLOSED, [trial({ open: openCounts({ late: 500 }) })])).toEqual([]);
  });
});

describe('phaseFlags: unfinished and keep-alive', () => {
  it('flags unfinished requests with their count', () => {
    const flags = phaseFlags(OPEN, [
      trial({ open: openCounts({ unfinished: 3 }) }),
      trial({ trial: 2, open: openCounts({ unfinished: 4 }) }),
    ]);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toContain('unfinished');
    expect(flags[0]).toMatch(/^7 of 2000 scheduled requests/);
    expect(isBound(flags)).toBe(false);
  });

  it.each<[string, Kind, RegExp, RegExp]>([
    ['closed', CLOSED, /handshake the latency does not show/, /latencies include reconnecting/],
    ['open', OPEN, /latencies include reconnecting/, /handshake the latency does not show/],
  ])('connection closes in a %s phase → a keep-alive flag in its own words', (_label, phase, says, doesNotSay) => {
    const open = phase.kind === 'open' ? { open: openCounts({}) } : {};
    const flags = phaseFlags(phase, [
      trial({ connectionCloses: 5, ...open }),
      trial({ trial: 2, connectionCloses: 7, ...open }),
    ]);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toContain('keep-alive');
    // the count summed over trials (the wording around it is free)
    expect(flags[0]).toMatch(/\b12\b/);
    expect(flags[0]).toMatch(says);
    expect(flags[0]).not.toMatch(doesNotSay);
    expect(isBound(flags)).toBe(false);
  });

  it('puts the generator-bound flag first, then keep-alive, the service’s holds and unfinished', () => {
    const flags = phaseFlags(OPEN, [
      trial({
        connectionCloses: 1,
        generator: { cpuPct: 199 },
        open: openCounts({ late: 100, lateService: 40, lateGenerator: 60, unfinished: 2 }),
      }),
    ]);
    expect(flags).toHaveLength(4);
    expect(flags[0]).toMatch(/^generator-bound: /);
    expect(flags[1]).toMatch(/keep-alive/);
    expect(flags[2]).toMatch(/^the service held sends back: 40 of 1000 .*, up to 50: max-in-flight and connections\)/);
    expect(flags[3]).toMatch(/^2 of 1000 scheduled requests .*unfinished/);
    // only the first one makes the phase's comparisons invalid (compare.ts checks the prefix)
    expect(flags.filter((f) => f.startsWith('generator-bound'))).toHaveLength(1);
  });
});

describe('phaseFlags in compare: only generator-bound makes a phase invalid', () => {
  const provenance: BaselineFile['provenance'] = {
    time: '2024-01-02T03:04:05.000Z',
    commit: 'abc1234',
    ref: 'refs/heads/main',
    runner: { os: 'linux', cpuModel: 'cpu', cores: 2, memoryBytes: 8 * 1024 ** 3 },
    docker: { version: '27.0.0', apiVersion: '1.46' },
    runnerImage: 'node:22-slim',
    sut: { images: {} },
  };

  function phase(trials: TrialMeasurement[], runnerCpus?: number): PhaseResult {
    const t = trials[0] as TrialMeasurement;
    return {
      name: 'r200',
      kind: OPEN.kind,
      params: OPEN.params,
      warmupMs: 0,
      trials: trials.map((x) => ({ ...x, resources: {} })),
      merged: {
        trials: trials.length,
        durationMs: 10_000,
        sent: t.sent,
        responses: t.responses,
        successes: t.successes,
        failures: t.failures,
        statusCodes: t.statusCodes,
        errors: t.errors,
        errorRate: 0,
        rps: t.rps,
        bytesPerSec: t.bytesPerSec,
        latency: t.latency,
        connectionCloses: t.connectionCloses,
        resources: {},
        histogram: '',
      },
      flags: phaseFlags(OPEN, trials, runnerCpus),
    };
  }

  /** The verdicts of p99 and rps for `current` against a healthy baseline with the same numbers. */
  function verdicts(current: PhaseResult): string[][] {
    const baseline: BaselineFile = {
      schema: 'perf-gate/baseline@1',
      scenario: 's',
      scenarioHash: 'sha256:same',
      provenance,
      phases: [phase([trial({ open: openCounts({}) })])],
    };
    expect(baseline.phases[0]?.flags).toEqual([]);
    const { comparisons } = compareScenario(
      { name: 's', scenarioHash: 'sha256:same', phases: [current] },
      { p99: { regress: 0.1 }, rps: { regress: 0.1 } },
      baseline,
    );
    return comparisons.map((c) => [c.metric, c.result]);
  }

  it.each<[string, TrialMeasurement, 'invalid' | 'pass']>([
    ['generator-bound by CPU', trial({ generator: { cpuPct: 195 }, open: openCounts({}) }), 'invalid'],
    ['generator-bound by late sends', trial({ open: openCounts({ late: 200, lateGenerator: 200 }) }), 'invalid'],
    ['keep-alive closes', trial({ connectionCloses: 3, open: openCounts({}) }), 'pass'],
    ['held by the service', trial({ open: openCounts({ late: 200, lateService: 200 }) }), 'pass'],
    ['unfinished requests', trial({ open: openCounts({ unfinished: 5 }) }), 'pass'],
    ['healthy', trial({ open: openCounts({}) }), 'pass'],
  ])('phaseFlags for %s → %s', (_label, t, verdict) => {
    expect(verdicts(phase([t]))).toEqual([
      ['p99', verdict],
      ['rps', verdict],
    ]);
  });

  it.each<[string[], 'invalid' | 'pass']>([
    [['generator-bound'], 'invalid'],
    [['generator-bound: trial 1: ...'], 'invalid'],
    [['keep-alive', 'generator-bound: later in the list'], 'invalid'],
    [['not generator-bound: the prefix is what counts'], 'pass'],
    [['the generator fell behind (generator-bound elsewhere)'], 'pass'],
    [['Generator-bound'], 'pass'],
  ])('flags %j → %s: only the prefix generator-bound counts', (flags, verdict) => {
    const current = { ...phase([trial({ open: openCounts({}) })]), flags };
    expect(verdicts(current)).toEqual([
      ['p99', verdict],
      ['rps', verdict],
    ]);
  });
});

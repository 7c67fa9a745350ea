// warmup-later: settled (src/stats/settle.ts): when a first trial's warm-up settled, and what later
// trials are given.
import { describe, expect, it } from 'vitest';
import { laterWarmupMs, settledMs } from '../../src/stats/settle.js';

describe('settledMs: the start of the warm-up’s settled tail (every window at 80% of the measured rate)', () => {
  it.each<[string, number[], number, number | undefined]>([
    ['settled from the start', [900, 950, 1000, 980], 1000, 0],
    ['two cold windows, then settled', [100, 500, 850, 900, 1000, 990], 1000, 400],
    ['exactly 80% counts as settled', [100, 800, 800], 1000, 200],
    ['a dip late in the warm-up moves the settle time past it', [900, 950, 500, 950, 990], 1000, 600],
    ['the last window below: not settled', [900, 950, 1000, 700], 1000, undefined],
    ['one settled window at the end is not enough', [100, 200, 300, 900], 1000, undefined],
    ['a single window: not enough to say', [1000], 1000, undefined],
    ['no measured rate: nothing to compare with', [900, 950], 0, undefined],
  ])('%s', (_label, rps, measured, expected) => {
    expect(settledMs({ windowMs: 200, rps }, measured)).toBe(expected);
  });
});

describe('laterWarmupMs: twice the settle time and a window, within 500 ms and the configured warm-up', () => {
  it.each<[string, number, number | undefined, number | undefined]>([
    ['settled at 400 ms of 2 s: 1 s', 2000, 400, 1000],
    ['settled at once: the 500 ms floor', 2000, 0, 500],
    ['settled late: no shorter than configured, so the full one', 2000, 1000, undefined],
    ['did not settle: the full one', 2000, undefined, undefined],
    ['a configured warm-up at the floor: the full one', 500, 0, undefined],
  ])('%s', (_label, configured, settled, expected) => {
    expect(laterWarmupMs(configured, settled, 200)).toBe(expected);
  });
});

describe('the runner protocol carries it', () => {
  it('a trial command with a warm-up is read; a bad one is refused', async () => {
    const { parseCommand } = await import('../../runner/src/commands.js');
    const line = (o: object) => JSON.stringify({ c: 'trial', scenario: 's', phase: 'c10', trial: 2, trials: 5, ...o });
    expect(parseCommand(line({ warmupMs: 1000 }))).toEqual({
      c: 'trial',
      scenario: 's',
      phase: 'c10',
      trial: 2,
      trials: 5,
      warmupMs: 1000,
    });
    expect(parseCommand(line({}))).not.toHaveProperty('warmupMs');
    expect(() => parseCommand(line({ warmupMs: -1 }))).toThrow(/malformed command on stdin \(warmupMs\)/);
    expect(() => parseCommand(line({ warmupMs: '1s' }))).toThrow(/warmupMs/);
  });

  it('warmupWindowMs: 200 ms windows (400 ms with workers), longer for a long warm-up (at most 100 windows)', async () => {
    const { warmupWindowMs } = await import('../../src/runner-kit/plan.js');
    expect([500, 2000, 20_000, 60_000, 3_600_000].map((ms) => warmupWindowMs(ms))).toEqual([
      200, 200, 200, 600, 36_000,
    ]);
    // worker threads report their counts every 200 ms: a window spans two reports
    expect([2000, 60_000].map((ms) => warmupWindowMs(ms, 2))).toEqual([400, 600]);
  });

  it('a trial event with warm-up windows is valid; too many windows or a negative rate are not', async () => {
    const { runnerEventSchema } = await import('../../src/runner-kit/validate.js');
    const { trial } = await import('./fixtures.js');
    const { resources: _r, ...measurement } = trial({}, 1);
    const event = (warmup: unknown) => ({
      t: 'trial',
      scenario: 's',
      phase: 'c10',
      measurement,
      histogram: '',
      warmup,
    });
    expect(runnerEventSchema.safeParse(event({ windowMs: 200, rps: [1, 2.5] })).success).toBe(true);
    expect(runnerEventSchema.safeParse(event({ windowMs: 200, rps: Array(101).fill(1) })).success).toBe(false);
    expect(runnerEventSchema.safeParse(event({ windowMs: 200, rps: [-1] })).success).toBe(false);
  });
});

describe('warmup-later: the config key and the report', () => {
  it.each<[string, unknown, unknown, 'settled' | undefined, string[]]>([
    ['settled on the scenario', 'settled', undefined, 'settled', []],
    ['settled in defaults', undefined, 'settled', 'settled', []],
    ['full on the scenario over settled in defaults', 'full', 'settled', undefined, []],
    ['settled on the scenario over full in defaults', 'settled', 'full', 'settled', []],
    ['full in defaults', undefined, 'full', undefined, []],
    ['not given: settled, the default', undefined, undefined, 'settled', []],
    ['another word', 'auto', undefined, undefined, ['scenarios[0].warmup-later: must be full or settled']],
  ])('%s', async (_label, own, defaults, expected, problems) => {
    const { stringify } = await import('yaml');
    const { parseConfigText } = await import('../../src/config/load.js');
    const raw = {
      version: 1,
      sut: { compose: 'docker-compose.yml' },
      ...(defaults ? { defaults: { 'warmup-later': defaults } } : {}),
      scenarios: [
        {
          name: 's',
          request: { url: 'http://api/' },
          ...(own ? { 'warmup-later': own } : {}),
          phases: [{ name: 'c1', connections: 1, duration: '1s' }],
        },
      ],
    };
    const got = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    expect(got.problems).toEqual(problems);
    if (problems.length === 0) expect(got.config?.scenarios[0]?.warmupLater).toBe(expected);
  });

  it('leaves the scenario hash as it is: a baseline records what its later trials had', async () => {
    const { scenarioHash } = await import('../../src/results/files.js');
    const { stringify } = await import('yaml');
    const { parseConfigText } = await import('../../src/config/load.js');
    const hashOf = (extra: object) => {
      const raw = {
        version: 1,
        sut: { compose: 'docker-compose.yml' },
        scenarios: [
          {
            name: 's',
            request: { url: 'http://api/' },
            phases: [{ name: 'c1', connections: 1, duration: '1s' }],
            ...extra,
          },
        ],
      };
      const s = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`).config?.scenarios[0];
      return scenarioHash(s as never);
    };
    // baselines taken before settled was the default stay current (the run keeps their full warm-up)
    expect(hashOf({ 'warmup-later': 'full' })).toBe(hashOf({}));
    expect(hashOf({ 'warmup-later': 'settled' })).toBe(hashOf({}));
    expect(hashOf({ warmup: '9s' })).not.toBe(hashOf({}));
  });

  it('the report says what later trials were given, per phase', async () => {
    const { renderMarkdown } = await import('./render-markdown.js');
    const { phase, resultsFile } = await import('./fixtures.js');
    const shortened = { ...phase('c10', {}), warmupMs: 2000, warmupLater: { settledMs: 400, laterMs: 1000 } };
    const unsettled = { ...phase('c20', {}), warmupMs: 2000, warmupLater: {} };
    const late = { ...phase('c30', {}), warmupMs: 2000, warmupLater: { settledMs: 1400 } };
    const md = renderMarkdown(
      resultsFile([{ name: 'api', scenarioHash: 'h', phases: [shortened, unsettled, late, phase('c40', {})] }], []),
    );
    expect(md).toContain(
      "- warm-up of later trials (warmup-later: settled, from the first trial's): api/c10 1s (settled after 400ms of 2s), api/c20 the full 2s (did not settle), api/c30 the full 2s (settled after 1.4s: no shorter warm-up)",
    );
    expect(
      renderMarkdown(resultsFile([{ name: 'api', scenarioHash: 'h', phases: [phase('c40', {})] }], [])),
    ).not.toContain('warm-up of later trials');
  });
});

// sut.profile, the host's and the runner's halves: the URL asked for the window, the trial command and
// the events checked as the host checks them, the profiling trial left out of the phase's trials, the
// profiles made into files, records and A/B's diff (on fixtures/pprof's real Go profiles), and the
// report's lines (escaped: a profile's names are the service's text).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../runner/src/commands.js';
import {
  BASELINE_PROFILE_FILE,
  baselineProfileFile,
  profileFile,
  profileRecords,
  type KeptProfile,
  type TakenProfile,
} from '../../src/profiles/record.js';
import { baselineFileSchema, problemOf } from '../../src/results/validate.js';
import { profileLines } from '../../src/report/profile-lines.js';
import { EVENT_MARKER, type RunnerEvent } from '../../src/runner-kit/plan.js';
import { PROFILE_MAX_BYTES, profileSeconds, profileUrl } from '../../src/runner-kit/profile.js';
import { parseEventLine } from '../../src/runner-kit/validate.js';
import { TrialCollector } from '../../src/session/collect.js';
import type { Comparison } from '../../src/results/types.js';
import { evenHistogram } from './fixtures.js';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import type { Scenario } from '../../src/config-parts/types.js';
import { type MeasureContext, profileTrials, type TrialRunner } from '../../src/session/measure.js';

const DIR = resolve(import.meta.dirname, '../../fixtures/pprof');
const bytes = (side: string) => new Uint8Array(readFileSync(join(DIR, `${side}.pb.gz`)));

describe('profileUrl: the window asked for in whole seconds, unless the URL says', () => {
  it.each<[string, number, string]>([
    ['http://api:6060/debug/pprof/profile', 10_000, 'http://api:6060/debug/pprof/profile?seconds=10'],
    ['http://api:6060/debug/pprof/profile', 2_400, 'http://api:6060/debug/pprof/profile?seconds=2'],
    ['http://api:6060/debug/pprof/profile', 200, 'http://api:6060/debug/pprof/profile?seconds=1'],
    // a longer profile would outlast the trial: the window's seconds replace the URL's
    ['http://api:6060/debug/pprof/profile?seconds=120', 10_000, 'http://api:6060/debug/pprof/profile?seconds=10'],
    ['http://api:6060/pprof?debug=0', 30_000, 'http://api:6060/pprof?debug=0&seconds=30'],
  ])('%s over %i ms', (url, ms, asked) => {
    expect(profileUrl(url, ms)).toBe(asked);
  });

  it.each<[string, number]>([
    ['http://a/p?seconds=7', 7],
    ['http://a/p', 30],
    ['http://a/p?seconds=x', 30],
    ['http://a/p?seconds=-1', 30],
  ])('%s waits for %i s', (url, s) => {
    expect(profileSeconds(url)).toBe(s);
  });
});

describe('the trial command and the events, as each side reads them', () => {
  it('a trial command carries the services to profile; anything else there is refused', () => {
    const profile = [{ service: 'api', url: 'http://api:6060/debug/pprof/profile' }];
    const line = JSON.stringify({ c: 'trial', scenario: 's', phase: 'p', trial: 1, trials: 1, profile });
    expect(parseCommand(line)).toEqual({ c: 'trial', scenario: 's', phase: 'p', trial: 1, trials: 1, profile });
    for (const bad of [{ service: 'api' }, 'api', [{ service: 1, url: 'x' }]]) {
      const l = JSON.stringify({ c: 'trial', scenario: 's', phase: 'p', trial: 1, trials: 1, profile: bad });
      expect(() => parseCommand(l)).toThrow(/profile/);
    }
  });

  it('a profile event: base64 within the bound, or an error; anything else is the runner’s fault', () => {
    const ok = { t: 'profile', scenario: 's', phase: 'p', service: 'api', data: 'H4sIAAAA' };
    expect(parseEventLine(EVENT_MARKER + JSON.stringify(ok))).toEqual(ok);
    const none = { t: 'profile', scenario: 's', phase: 'p', service: 'api', error: 'HTTP 404' };
    expect(parseEventLine(EVENT_MARKER + JSON.stringify(none))).toEqual(none);
    for (const data of ['not base64!', 'A'.repeat(Math.ceil(PROFILE_MAX_BYTES / 3) * 4 + 4)]) {
      const e = parseEventLine(EVENT_MARKER + JSON.stringify({ ...ok, data }));
      expect(e?.t).toBe('fatal');
    }
  });
});

const measurement = (rps: number) => ({
  trial: 1,
  durationMs: 1000,
  sent: rps,
  responses: rps,
  successes: rps,
  failures: 0,
  statusCodes: { '200': rps },
  errors: {},
  rps,
  bytesPerSec: 0,
  latency: { count: rps, min: 1, mean: 1, p10: 1, p25: 1, p50: 1, p75: 1, p90: 1, p95: 1, p99: 1, 'p99.9': 1, max: 1 },
  connectionCloses: 0,
  generator: { cpuPct: 1, eventLoopDelayP99Us: 1, eventLoopDelayMaxUs: 1 },
});

describe('the collector: a profiling trial is none of the phase’s trials', () => {
  it('keeps the profiles, and leaves the profiled trial’s measurement out', () => {
    const c = new TrialCollector(undefined);
    const trial = (rps: number, profiled?: true): RunnerEvent => ({
      t: 'trial',
      scenario: 's',
      phase: 'p',
      measurement: measurement(rps),
      histogram: evenHistogram(900, 1100, 10),
      ...(profiled ? { profiled } : {}),
    });
    c.onEvent({ t: 'stage', scenario: 's', phase: 'p', trial: 1, trials: 1, stage: 'measure' }, 0);
    c.onEvent(trial(100), 1000);
    c.onEvent({ t: 'stage', scenario: 's', phase: 'p', trial: 1, trials: 1, stage: 'measure' }, 2000);
    c.onEvent(
      { t: 'profile', scenario: 's', phase: 'p', service: 'api', data: Buffer.from('abc').toString('base64') },
      3000,
    );
    c.onEvent({ t: 'profile', scenario: 's', phase: 'p', service: 'db', error: 'HTTP 404' }, 3000);
    c.onEvent(trial(50, true), 3000);
    expect(c.profiles).toEqual([
      { scenario: 's', phase: 'p', service: 'api', data: Buffer.from('abc') },
      { scenario: 's', phase: 'p', service: 'db', error: 'HTTP 404' },
    ]);
    const phase = c.results(scenarios(), new Map())[0]?.phases[0];
    expect(phase?.trials.map((t) => t.rps)).toEqual([100]);
  });
});

/** Scenario s (phases p and q, or the one `only` gives) as a config declares it, profiling api. */
function scenarios(only?: () => Record<string, unknown>): Scenario[] {
  const raw = {
    version: 1,
    sut: { compose: 'c.yml', profile: { api: 'http://api:6060/debug/pprof/profile' } },
    scenarios: [
      {
        name: 's',
        request: { url: 'http://api:8080/' },
        phases: only
          ? [only()]
          : [
              { name: 'p', connections: 1, duration: '1s' },
              { name: 'q', connections: 2, duration: '1s' },
            ],
      },
    ],
  };
  const { config, problems } = parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  expect(problems).toEqual([]);
  expect(config?.sut.profile).toEqual([{ service: 'api', url: 'http://api:6060/debug/pprof/profile' }]);
  return config?.scenarios ?? [];
}

describe('profileTrials: one more trial of every phase on every side, after the measured ones', () => {
  it('asks each side’s runner once per phase, with the services to profile', async () => {
    const asked: string[] = [];
    const side = (name: string) => ({
      runner: {
        trial: async (cmd: Parameters<TrialRunner['trial']>[0]) => {
          asked.push(`${name} ${cmd.scenario}/${cmd.phase} ${JSON.stringify(cmd.profile)}`);
        },
      },
      collector: new TrialCollector(undefined),
    });
    const logs: string[] = [];
    const ctx = { scenarios: scenarios(), log: (l: string) => logs.push(l) } as unknown as MeasureContext;
    const profile = [{ service: 'api', url: 'http://api:6060/debug/pprof/profile' }];
    await profileTrials(ctx, [side('base'), side('head')], profile);
    // each endpoint asked for the phase's window, in seconds
    const p = JSON.stringify([{ service: 'api', url: 'http://api:6060/debug/pprof/profile?seconds=1' }]);
    expect(asked).toEqual([`base s/p ${p}`, `head s/p ${p}`, `base s/q ${p}`, `head s/q ${p}`]);
    expect(logs).toEqual([
      '[perf-gate] s/p: one more trial a side, profiling api',
      '[perf-gate] s/q: one more trial a side, profiling api',
    ]);
    asked.length = 0;
    await profileTrials(ctx, [side('head')], []);
    expect(asked).toEqual([]);
  });

  it('a phase of a request count: the median length of its trials, in seconds', async () => {
    const [s] = scenarios(() => ({ name: 'n', connections: 1, requests: 100 }));
    const collector = new TrialCollector(undefined);
    for (const ms of [2_400, 3_600, 3_000]) {
      collector.onEvent({ t: 'stage', scenario: 's', phase: 'n', trial: 1, trials: 3, stage: 'measure' }, 0);
      const m = { ...measurement(100), durationMs: ms };
      collector.onEvent(
        { t: 'trial', scenario: 's', phase: 'n', measurement: m, histogram: evenHistogram(900, 1100, 10) },
        ms,
      );
    }
    const urls: string[] = [];
    const runner = {
      trial: async (cmd: Parameters<TrialRunner['trial']>[0]) => {
        urls.push(...(cmd.profile ?? []).map((p) => p.url));
      },
    };
    const ctx = { scenarios: [s], hashes: new Map(), log: () => undefined } as unknown as MeasureContext;
    await profileTrials(ctx, [{ runner, collector }], [{ service: 'api', url: 'http://api:6060/debug/pprof/profile' }]);
    expect(urls).toEqual(['http://api:6060/debug/pprof/profile?seconds=3']);
  });
});

describe('profileRecords: files, records, and A/B’s diff', () => {
  const taken = (service: string, data?: Uint8Array, error?: string): TakenProfile => ({
    scenario: 'orders',
    phase: 'c4',
    service,
    ...(data ? { data } : {}),
    ...(error ? { error } : {}),
  });

  it('A/B: each side’s file, and the function head does more of first in the diff', () => {
    const r = profileRecords([
      { side: 'base', profiles: [taken('api', bytes('base')), taken('db', undefined, 'HTTP 404')] },
      { side: 'head', profiles: [taken('api', bytes('head')), taken('db', undefined, 'HTTP 404')] },
    ]);
    expect(r.files.map((f) => f.file)).toEqual([
      'perf-gate-profiles/base.orders.c4.api.pb.gz',
      'perf-gate-profiles/head.orders.c4.api.pb.gz',
      'perf-gate-profiles/diff.orders.c4.api.svg',
    ]);
    // the diff's flame graph: an SVG beside the profiles, named in the diff's record
    expect(new TextDecoder().decode(r.files[2]?.data).startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(r.diffs[0]?.flame).toBe('perf-gate-profiles/diff.orders.c4.api.svg');
    expect(r.records).toEqual([
      {
        scenario: 'orders',
        phase: 'c4',
        service: 'api',
        side: 'base',
        file: r.files[0]?.file,
        bytes: bytes('base').length,
      },
      { scenario: 'orders', phase: 'c4', service: 'db', side: 'base', error: 'HTTP 404' },
      {
        scenario: 'orders',
        phase: 'c4',
        service: 'api',
        side: 'head',
        file: r.files[1]?.file,
        bytes: bytes('head').length,
      },
      { scenario: 'orders', phase: 'c4', service: 'db', side: 'head', error: 'HTTP 404' },
    ]);
    expect(r.diffs).toHaveLength(1);
    expect(r.diffs[0]?.functions[0]?.name).toBe('main.parseWork');
    expect(r.diffs[0]?.functions.length).toBeLessThanOrEqual(5);
    expect([r.diffs[0]?.sampleType, r.diffs[0]?.unit]).toEqual(['cpu', 'nanoseconds']);
  });

  it('gate: the one side’s file, no diff; bytes that are no profile are kept and said unread', () => {
    const junk = new Uint8Array([0x1f, 0x8b, 1, 2, 3]);
    const r = profileRecords([{ profiles: [taken('api', bytes('head')), taken('web', junk)] }]);
    expect(r.files.map((f) => f.file)).toEqual([
      'perf-gate-profiles/orders.c4.api.pb.gz',
      'perf-gate-profiles/orders.c4.web.pb.gz',
    ]);
    expect(r.records[1]?.error).toMatch(/^not read: /);
    expect(r.diffs).toEqual([]);
  });

  it.each<[string, string]>([
    ['../../etc/passwd', 'perf-gate-profiles/head.__.._etc_passwd.c4.api.pb'],
    ['a b/c\u0000d', 'perf-gate-profiles/head.a_b_c_d.c4.api.pb'],
    ['x'.repeat(300), `perf-gate-profiles/head.${'x'.repeat(80)}.c4.api.pb`],
  ])('a scenario named %j stays one file inside the folder', (scenario, file) => {
    expect(profileFile({ scenario, phase: 'c4', service: 'api', side: 'head' }, new Uint8Array([1]))).toBe(file);
  });

  it('two names one file name holds alike: the second is said to be left out, not written over the first', () => {
    const r = profileRecords([
      {
        profiles: [
          { ...taken('api', bytes('base')), scenario: 'a/b' },
          { ...taken('api', bytes('head')), scenario: 'a b' },
        ],
      },
    ]);
    expect(r.files).toHaveLength(1);
    expect(r.records[1]?.error).toMatch(/left out/);
  });
});

describe('a gate run against the profile its baseline kept', () => {
  const run = (service = 'api'): TakenProfile => ({ scenario: 'orders', phase: 'c4', service, data: bytes('head') });
  const kept = (over: Partial<KeptProfile> = {}): KeptProfile => ({
    scenario: 'orders',
    phase: 'c4',
    service: 'api',
    file: 'baselines/profiles/orders.c4.api.pb.gz',
    data: bytes('base'),
    ...over,
  });

  it('diffs this run’s profile against the baseline’s: the function this run does more of first, its flame graph', () => {
    const r = profileRecords([{ profiles: [run()] }], [kept()]);
    expect(r.files.map((f) => f.file)).toEqual([
      'perf-gate-profiles/orders.c4.api.pb.gz',
      'perf-gate-profiles/diff.orders.c4.api.svg',
    ]);
    expect(r.records).toEqual([
      { scenario: 'orders', phase: 'c4', service: 'api', file: r.files[0]?.file, bytes: bytes('head').length },
      {
        scenario: 'orders',
        phase: 'c4',
        service: 'api',
        side: 'baseline',
        file: 'baselines/profiles/orders.c4.api.pb.gz',
        bytes: bytes('base').length,
      },
    ]);
    expect(r.diffs).toHaveLength(1);
    expect(r.diffs[0]?.against).toBe('baseline');
    expect(r.diffs[0]?.functions[0]?.name).toBe('main.parseWork');
    expect(r.diffs[0]?.flame).toBe('perf-gate-profiles/diff.orders.c4.api.svg');
    const [line] = profileLines({
      comparisons: [{ scenario: 'orders', phase: 'c4', metric: 'p99', result: 'regression' } as Comparison],
      profiles: r.records,
      profileDiffs: r.diffs,
    });
    expect(line).toMatch(
      /^- \*\*where orders\/c4, api\*\* \(its profile, this run against the baseline\): the share of the samples \(cpu\) rose most under main\.parseWork /,
    );
    expect(line).toContain(
      'files: `perf-gate-profiles/orders.c4.api.pb.gz`, baseline `baselines/profiles/orders.c4.api.pb.gz`, flame graph',
    );
  });

  it('a baseline profile that is missing or is no profile: said, no diff; one of a service this run did not profile: not said', () => {
    const gone = profileRecords([{ profiles: [run()] }], [kept({ data: undefined, error: 'its file is missing' })]);
    expect(gone.records[1]).toMatchObject({ side: 'baseline', error: 'its file is missing' });
    expect(gone.diffs).toEqual([]);
    const junk = profileRecords([{ profiles: [run()] }], [kept({ data: new Uint8Array([1, 2, 3]) })]);
    expect(junk.records[1]?.error).toMatch(/^not read: /);
    expect(junk.diffs).toEqual([]);
    const other = profileRecords([{ profiles: [run()] }], [kept({ service: 'db' })]);
    expect(other.records.map((x) => x.side)).toEqual([undefined]);
    expect(other.diffs).toEqual([]);
    // A/B never reads the baselines' profiles
    const ab = profileRecords(
      [
        { side: 'base', profiles: [run()] },
        { side: 'head', profiles: [run()] },
      ],
      [kept()],
    );
    expect(ab.records.some((x) => x.side === 'baseline')).toBe(false);
  });

  it('the file a baseline keeps a profile in: in profiles/ beside it, named as the run’s', () => {
    expect(baselineProfileFile({ scenario: 'orders', phase: 'c4', service: 'api' }, bytes('base'))).toBe(
      'profiles/orders.c4.api.pb.gz',
    );
    expect(baselineProfileFile({ scenario: '../x', phase: 'c4', service: 'api' }, new Uint8Array([1]))).toBe(
      'profiles/__x.c4.api.pb',
    );
    // a scenario named as the config allows (a leading -): a file name the baseline's own rule takes
    for (const scenario of ['-x', '.x', '--', 'a'.repeat(300), 'ok_name-1']) {
      const file = baselineProfileFile({ scenario, phase: '-c4', service: '-api' }, bytes('base'));
      expect(BASELINE_PROFILE_FILE.test(file), file).toBe(true);
    }
  });

  it.each<[string, string, boolean]>([
    ['a file in profiles/', 'profiles/orders.c4.api.pb.gz', true],
    ['out of the baselines directory', 'profiles/../../etc/passwd', false],
    ['an absolute path', '/etc/passwd', false],
    ['another folder', 'other/orders.pb', false],
    ['a hidden name', 'profiles/.git', false],
  ])('a baseline file lists its profiles: %s', (_label, file, ok) => {
    // (a baseline is committed text, anyone's in a fork: its profiles stay in profiles/ beside it)
    const problem = problemOf(baselineFileSchema.shape.profiles, [{ phase: 'c4', service: 'api', file }]);
    expect(problem === undefined, problem).toBe(ok);
  });
});

describe('profileLines: the report’s line per failing phase and service', () => {
  const row = (result: Comparison['result']): Comparison =>
    ({ scenario: 'orders', phase: 'c4', metric: 'p99', result }) as Comparison;
  const base = profileRecords([
    { side: 'base', profiles: [{ scenario: 'orders', phase: 'c4', service: 'api', data: bytes('base') }] },
    { side: 'head', profiles: [{ scenario: 'orders', phase: 'c4', service: 'api', data: bytes('head') }] },
  ]);

  it('names the functions whose share rose, with both files; nothing for a phase that passed', () => {
    const results = { comparisons: [row('regression')], profiles: base.records, profileDiffs: base.diffs };
    const [line, ...rest] = profileLines(results);
    expect(rest).toEqual([]);
    expect(line).toMatch(
      /^- \*\*where orders\/c4, api\*\* \(its profile, head against base\): the share of the samples \(cpu\) rose most under main\.parseWork \d+(\.\d)?% → \d+(\.\d)?%/,
    );
    expect(line).toContain('base `perf-gate-profiles/base.orders.c4.api.pb.gz`');
    expect(profileLines({ ...results, comparisons: [row('pass')] })).toEqual([]);
  });

  it('a function named to ping people or break the comment is escaped', () => {
    const diffs = base.diffs.map((d) => ({
      ...d,
      functions: d.functions.map((f, i) => (i === 0 ? { ...f, name: '@org/team <img src=x> [x](http://e)' } : f)),
    }));
    const [line] = profileLines({ comparisons: [row('regression')], profiles: base.records, profileDiffs: diffs });
    expect(line).not.toMatch(/(^|[^`\\])@org/);
    expect(line).not.toContain('<img');
    expect(line).not.toMatch(/[^\\]\]\(http/);
  });

  it('a service that spent no more CPU per request: no function named (waiting, not working)', () => {
    const cost = (rose: boolean) => [
      {
        scenario: 'orders',
        phase: 'c4',
        services: [{ service: 'api', before: 100, after: 104, change: 0.04, pValue: 0.4, rose }],
      },
    ];
    const results = { comparisons: [row('regression')], profiles: base.records, profileDiffs: base.diffs };
    expect(profileLines({ ...results, costs: cost(false) })).toEqual([
      '- **where orders/c4, api**: its CPU per request did not rise, so no function is named; files: base `perf-gate-profiles/base.orders.c4.api.pb.gz`, head `perf-gate-profiles/head.orders.c4.api.pb.gz`, flame graph `perf-gate-profiles/diff.orders.c4.api.svg`',
    ]);
    expect(profileLines({ ...results, costs: cost(true) })[0]).toContain('rose most under main.parseWork');
  });

  it('without a diff (gate mode, or a side without a profile): the files, and why one is missing', () => {
    const r = profileRecords([
      { profiles: [{ scenario: 'orders', phase: 'c4', service: 'api', error: 'HTTP 404: 404 page not found' }] },
    ]);
    expect(profileLines({ comparisons: [row('inconclusive')], profiles: r.records })).toEqual([
      '- **profile of orders/c4, api**:  (HTTP 404: 404 page not found)',
    ]);
  });
});

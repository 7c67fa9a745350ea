// sut.profile's perf (issue 52): the config's keys and their refusals, the helper's end made into a
// profile or one line, the host's half of a profiling trial (perf started when the runner says the
// measured window began, beside the runner's trial), and perf's text made into files, records and a
// diff like a pprof profile's (on fixtures/perf's two real perf recordings).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import type { SutProfile } from '../../src/config-parts/types.js';
import { perfEngineFailure, perfHelperOutcome } from '../../src/docker/perf-helper.js';
import { formatOfFile, type KeptProfile, profileRecords, type TakenProfile } from '../../src/profiles/record.js';
import { TrialCollector } from '../../src/session/collect.js';
import { type MeasureContext, type PerfSampler, profileTrials, type TrialRunner } from '../../src/session/measure.js';

const DIR = resolve(import.meta.dirname, '../../fixtures/perf');
const perfText = (side: string) => new Uint8Array(gunzipSync(readFileSync(join(DIR, `${side}.perf.txt.gz`))));
const PPROF = (side: string) =>
  new Uint8Array(readFileSync(resolve(import.meta.dirname, `../../fixtures/pprof/${side}.pb.gz`)));

/** A config with these `sut` keys (and a compose file). */
function parsed(sut: Record<string, unknown>) {
  const raw = {
    version: 1,
    sut: { compose: 'c.yml', ...sut },
    scenarios: [
      {
        name: 's',
        request: { url: 'http://api:8080/' },
        phases: [{ name: 'p', connections: 1, duration: '1s' }],
      },
    ],
  };
  return parseConfigText(stringify(raw), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
}

describe('the config: sut.profile.<service>: perf, and sut.perf-image', () => {
  it('perf beside a pprof endpoint: each as the run takes it', () => {
    const { config, problems } = parsed({
      profile: { api: 'perf', web: 'http://web:6060/debug/pprof/profile' },
      'perf-image': 'perf-tools:6.1',
    });
    expect(problems).toEqual([]);
    expect(config?.sut.profile).toEqual<SutProfile[]>([
      { service: 'api', perf: { image: 'perf-tools:6.1' } },
      { service: 'web', url: 'http://web:6060/debug/pprof/profile' },
    ]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'perf without an image',
      { profile: { api: 'perf', db: 'perf' } },
      [
        'sut.perf-image: needed by sut.profile.api, sut.profile.db: perf: an image with Linux perf and a shell (docs/profiling.md)',
      ],
    ],
    [
      'an image without perf',
      { profile: { api: 'http://api:6060/debug/pprof/profile' }, 'perf-image': 'perf-tools:6.1' },
      ['sut.perf-image: no service of sut.profile is profiled with perf: leave it out, or set one to perf'],
    ],
    ['an empty image name', { profile: { api: 'perf' }, 'perf-image': '' }, ['sut.perf-image: must be an image name']],
    [
      'a value that is neither',
      { profile: { api: 'Perf', web: 'ftp://web/p' } },
      [
        'sut.profile.api: must be an http:// or https:// URL (a pprof endpoint), or perf',
        'sut.profile.web: must be an http:// or https:// URL (a pprof endpoint), or perf',
      ],
    ],
  ])('%s: refused, naming the key', (_name, sut, want) => {
    const { problems } = parsed(sut);
    expect(problems.map((p) => p.replace(/ \(perf-gate\.yml:\d+\)$/, '').replace(/^perf-gate\.yml:\d+: /, ''))).toEqual(
      want,
    );
  });
});

describe('perfHelperOutcome: the helper’s end as a profile, or one line', () => {
  const exit = (over: Partial<Parameters<typeof perfHelperOutcome>[1]> = {}) => ({
    code: 0,
    stdout: new TextEncoder().encode('perf script text'),
    stderr: '',
    truncated: false,
    ...over,
  });

  it.each<[string, Partial<Parameters<typeof perfHelperOutcome>[1]>, { data: string } | { error: RegExp }]>([
    ['exit 0: its stdout', {}, { data: 'perf script text' }],
    ['output past the bound: left out, never half a profile', { truncated: true }, { error: /passed 1000 bytes/ }],
    [
      'the kernel refuses',
      { code: 255, stderr: 'Error: No permission to enable cycles:u event.' },
      { error: /^sut\.profile\.api: perf: the kernel refused perf_event_open/ },
    ],
    ['no perf in the image', { code: 127, stderr: 'sh: perf: not found' }, { error: /has no `perf`/ }],
    ['stopped for running too long', { code: 137, timedOut: true }, { error: /ran past 16 s \(the window and 15 s\)/ }],
    ['output not read to its end', { cut: true }, { error: /did not arrive whole/ }],
    ['anything else: its exit and stderr', { code: 2, stderr: 'odd\nthing' }, { error: /exited 2: odd thing$/ }],
  ])('%s', (_name, over, want) => {
    const got = perfHelperOutcome('api', exit(over), 1000, 16_000);
    if ('data' in want) expect(new TextDecoder().decode((got as { data: Uint8Array }).data)).toBe(want.data);
    else expect((got as { error: string }).error).toMatch(want.error);
  });
});

describe('perfEngineFailure: the engine’s refusal as the profile’s one line', () => {
  it('its first line, bounded', () => {
    expect(perfEngineFailure('api', 'docker: running the perf helper: no such image: p:1\nmore')).toBe(
      'sut.profile.api: perf: docker: running the perf helper: no such image: p:1',
    );
    const long = perfEngineFailure('api', `x${'y'.repeat(500)}`);
    expect(long).toBe(`sut.profile.api: perf: x${'y'.repeat(299)}…`);
  });
});

describe('profileTrials with perf: the host samples from the window’s start, beside the runner’s trial', () => {
  /** A side whose runner says the window began (or not), and a sampler that logs when it was asked. */
  function side(log: string[], opts: { window?: boolean; sampler?: PerfSampler | null } = {}) {
    const collector = new TrialCollector(undefined);
    const runner: TrialRunner = {
      trial: async (cmd) => {
        log.push(`trial ${cmd.phase} ${JSON.stringify(cmd.profile)}`);
        await new Promise((r) => setTimeout(r, 5));
        if (opts.window !== false) {
          log.push('window');
          collector.onEvent(
            {
              t: 'stage',
              scenario: cmd.scenario,
              phase: cmd.phase,
              trial: 1,
              trials: 1,
              stage: 'measure',
              totalMs: 1000,
            },
            0,
          );
        }
        await new Promise((r) => setTimeout(r, 5));
        log.push('trial ends');
      },
    };
    const sampler: PerfSampler = async (service, image, windowMs, started) => {
      log.push(`helper ${service} ${image} up`);
      if (!(await started)) return { error: 'stopped' };
      log.push(`perf ${service} ${image} ${windowMs}`);
      return { data: new TextEncoder().encode(`samples of ${service}`) };
    };
    return {
      runner,
      collector,
      ...(opts.sampler === null ? {} : { perf: opts.sampler ?? sampler }),
    };
  }
  const ctx = { scenarios: [{ name: 's', phases: [{ name: 'p', durationMs: 3000 }] }], log: () => {} };
  const profile: SutProfile[] = [
    { service: 'api', perf: { image: 'perf-tools:6.1' } },
    { service: 'web', url: 'http://web:6060/debug/pprof/profile' },
  ];

  it('the helper is up with the trial, perf samples from the window; the endpoint goes to the runner; the text kept as perf', async () => {
    const log: string[] = [];
    const s = side(log);
    await profileTrials(ctx as unknown as MeasureContext, [s], profile);
    expect(log).toEqual([
      'trial p [{"service":"web","url":"http://web:6060/debug/pprof/profile?seconds=3"}]',
      // the helper is up before the window; it samples once the window began
      'helper api perf-tools:6.1 up',
      'window',
      'perf api perf-tools:6.1 3000',
      'trial ends',
    ]);
    expect(s.collector.profiles.map((p) => ({ ...p, data: new TextDecoder().decode(p.data) }))).toEqual([
      { scenario: 's', phase: 'p', service: 'api', format: 'perf', data: 'samples of api' },
    ]);
  });

  it('perf alone: still a profiling trial (an empty list marks it), sampled the same', async () => {
    const log: string[] = [];
    await profileTrials(ctx as unknown as MeasureContext, [side(log)], [profile[0] as SutProfile]);
    expect(log).toEqual([
      'trial p []',
      'helper api perf-tools:6.1 up',
      'window',
      'perf api perf-tools:6.1 3000',
      'trial ends',
    ]);
  });

  it('a trial that ends before its window began, or a side with nothing to join: said, no helper', async () => {
    const log: string[] = [];
    const early = side(log, { window: false });
    await profileTrials(ctx as unknown as MeasureContext, [early], [profile[0] as SutProfile]);
    expect(log).toEqual(['trial p []', 'helper api perf-tools:6.1 up', 'trial ends']);
    expect(early.collector.profiles).toEqual([
      {
        scenario: 's',
        phase: 'p',
        service: 'api',
        format: 'perf',
        error: 'sut.profile.api: perf: the trial ended before its window began',
      },
    ]);
    // nothing of that trial waits on: a later window wakes no wait it left
    expect((early.collector as unknown as { measureWaiters: unknown[] }).measureWaiters).toHaveLength(0);
    const { began, forget } = early.collector.measureStarts();
    forget();
    early.collector.onEvent(
      { t: 'stage', scenario: 's', phase: 'p', trial: 1, trials: 1, stage: 'measure', totalMs: 1000 },
      0,
    );
    const woke = await Promise.race([began.then(() => 'woke'), new Promise((r) => setTimeout(() => r('waits'), 20))]);
    expect(woke).toBe('waits');
    const none = side([], { sampler: null });
    await profileTrials(ctx as unknown as MeasureContext, [none], [profile[0] as SutProfile]);
    expect(none.collector.profiles[0]?.error).toBe('sut.profile.api: perf: no container of it to sample beside');
  });
});

describe('profileRecords with perf: files, records and the diff, as a pprof profile’s', () => {
  const taken = (data: Uint8Array, format?: 'perf'): TakenProfile => ({
    scenario: 'orders',
    phase: 'c4',
    service: 'api',
    ...(format ? { format } : {}),
    data,
  });

  it('A/B: each side’s text as a .perf.txt file, the function head does more of first', () => {
    const r = profileRecords([
      { side: 'base', profiles: [taken(perfText('base'), 'perf')] },
      { side: 'head', profiles: [taken(perfText('head'), 'perf')] },
    ]);
    expect(r.files.map((f) => f.file)).toEqual([
      'perf-gate-profiles/base.orders.c4.api.perf.txt',
      'perf-gate-profiles/head.orders.c4.api.perf.txt',
      'perf-gate-profiles/diff.orders.c4.api.svg',
    ]);
    expect(r.records.every((x) => x.error === undefined)).toBe(true);
    expect(r.diffs[0]?.sampleType).toBe('cpu-clock');
    // fixtures/perf/README.md: head parses 4x the numbers; strconv's formatting and parseWork rise most
    expect(r.diffs[0]?.functions.slice(0, 2).map((f) => f.name)).toEqual([
      'internal/strconv.FormatInt',
      'main.parseWork',
    ]);
  });

  it('text that is no perf output: kept and said unread, as a pprof file would be', () => {
    for (const [text, why] of [
      ['\t7f00 main.f+0x1 (/app)\n', 'not read: perf script: line 1: a frame before any sample'],
      ['', 'not read: perf script: no samples'],
    ]) {
      const r = profileRecords([{ profiles: [taken(new TextEncoder().encode(text), 'perf')] }]);
      expect(r.records[0]?.file).toBe('perf-gate-profiles/orders.c4.api.perf.txt');
      expect(r.records[0]?.error).toBe(why);
    }
  });

  it('a baseline keeps perf as perf (told by its file name); two formats are not diffed', () => {
    expect(formatOfFile('baselines/profiles/orders.c4.api.perf.txt')).toBe('perf');
    expect(formatOfFile('baselines/profiles/orders.c4.api.pb.gz')).toBe('pprof');
    const kept = (file: string, data: Uint8Array): KeptProfile => ({
      scenario: 'orders',
      phase: 'c4',
      service: 'api',
      file,
      data,
    });
    const same = profileRecords(
      [{ profiles: [taken(perfText('head'), 'perf')] }],
      [kept('b/profiles/orders.c4.api.perf.txt', perfText('base'))],
    );
    expect(same.diffs.map((d) => [d.against, d.functions[0]?.name])).toEqual([
      ['baseline', 'internal/strconv.FormatInt'],
    ]);
    // the baseline kept a pprof profile, this run took perf's: both read, no diff
    const mixed = profileRecords(
      [{ profiles: [taken(perfText('head'), 'perf')] }],
      [kept('b/profiles/orders.c4.api.pb.gz', PPROF('base'))],
    );
    expect(mixed.records.every((x) => x.error === undefined)).toBe(true);
    expect(mixed.diffs).toEqual([]);
  });
});

// The built runner (dist/runner.mjs) as the host drives it, against servers on 127.0.0.1 (no Docker):
// worker threads, sut.profile, setup and data rows, a script hook, runner replicas. One trial per
// command on its stdin; assertions are about the events it writes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_MARKER, type RunnerEvent, type RunnerPlan } from '../../src/runner-kit/plan.js';
import type { TrialMeasurement } from '../../src/runner-kit/measurement.js';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import { mergeReplicaTrials } from '../../src/runner-kit/replicas.js';

import { ROOT } from './helpers.js';
import { serve, closeServersAfterEach, request, builtRunner } from './engine-harness.js';

closeServersAfterEach();

describe('runner.workers through the built runner (dist/runner.mjs)', () => {
  it('runs one schedule across worker threads and merges their histograms', async () => {
    const { url } = await serve((_req, res) => setTimeout(() => res.end('ok'), 1));
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-workers-'));
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      workers: 3,
      ready: [],
      scenarios: [
        {
          name: 's',
          target: { kind: 'http', ...request(url) },
          warmupMs: 0,
          trials: 1,
          phases: [
            { kind: 'open', name: 'r150', rate: 150, durationMs: 2000, maxInFlight: 30 },
            { kind: 'closed', name: 'n300', connections: 5, requests: 300 },
          ],
        },
      ],
    };
    const out = await builtRunner(dir, plan, ['r150', 'n300']);
    const trials = out
      .split('\n')
      .filter((l) => l.startsWith(EVENT_MARKER))
      .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent)
      .filter((e): e is Extract<RunnerEvent, { t: 'trial' }> => e.t === 'trial');
    expect(trials.map((e) => e.phase)).toEqual(['r150', 'n300']);
    const [rate, count] = trials.map((e) => e.measurement) as [TrialMeasurement, TrialMeasurement];
    expect(rate.generator.threads).toBe(3);
    expect(rate.open).toMatchObject({ scheduled: 300, unfinished: 0 });
    expect(rate.responses).toBe(300);
    expect(decodeHistogram(trials[0]?.histogram ?? '').totalCount).toBe(300);
    expect(count.generator.threads).toBe(3);
    expect(count.responses).toBe(300);
    expect(count.latency.count).toBe(300);
  });
});

describe('sut.profile through the built runner (dist/runner.mjs)', () => {
  it('a profiling trial: each service’s profile over the window, or why not, before the trial it was taken in', async () => {
    const { url } = await serve((_req, res) => res.end('ok'));
    const profile = readFileSync(join(ROOT, 'fixtures/pprof/head.pb.gz'));
    const asked: string[] = [];
    // pprof's way: the answer comes once the seconds asked for are over
    const pprof = await serve((req, res) => {
      asked.push(req.url ?? '');
      if (!req.url?.startsWith('/debug/pprof/profile')) {
        res.statusCode = 404;
        res.end('404 page not found');
        return;
      }
      const seconds = Number(new URL(req.url, 'http://x').searchParams.get('seconds'));
      setTimeout(() => res.end(profile), seconds * 1000);
    });
    const origin = new URL(pprof.url).origin;
    const closed = await serve((_req, res) => res.end());
    closed.close();
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-profile-'));
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      ready: [],
      scenarios: [
        {
          name: 's',
          target: { kind: 'http', ...request(url) },
          warmupMs: 0,
          trials: 1,
          phases: [{ kind: 'open', name: 'r50', rate: 50, durationMs: 1000, maxInFlight: 10 }],
        },
      ],
    };
    const out = await builtRunner(dir, plan, ['r50'], {
      profile: [
        // the host asks for the window's seconds (session/measure.ts profileTrials)
        { service: 'api', url: `${origin}/debug/pprof/profile?seconds=1` },
        { service: 'web', url: `${origin}/nothing` },
        { service: 'db', url: `${new URL(closed.url).origin}/debug/pprof/profile` },
      ],
    });
    const events = out
      .split('\n')
      .filter((l) => l.startsWith(EVENT_MARKER))
      .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent)
      .filter((e) => e.t === 'profile' || e.t === 'trial');
    expect(events.map((e) => (e.t === 'profile' ? `profile ${e.service}` : e.t))).toEqual([
      'profile api',
      'profile web',
      'profile db',
      'trial',
    ]);
    const [api, web, db, trial] = events as [
      Extract<RunnerEvent, { t: 'profile' }>,
      Extract<RunnerEvent, { t: 'profile' }>,
      Extract<RunnerEvent, { t: 'profile' }>,
      Extract<RunnerEvent, { t: 'trial' }>,
    ];
    // the window's seconds asked for, and the bytes passed on as served
    expect(asked).toContain('/debug/pprof/profile?seconds=1');
    expect(Buffer.from(api.data ?? '', 'base64').equals(profile)).toBe(true);
    expect(web).toMatchObject({ error: 'HTTP 404: 404 page not found' });
    expect(db.error).toBe('ECONNREFUSED');
    expect(trial.profiled).toBe(true);
    expect(trial.measurement.responses).toBe(50);
  });
});

describe('setup and data rows through the built runner (dist/runner.mjs)', () => {
  it('logs in once, then 3 worker threads send every row once, each with the token', async () => {
    const seen: Array<{ url: string; auth?: string }> = [];
    let logins = 0;
    const { url } = await serve((req, res) => {
      if (req.url === '/login') {
        logins++;
        res.setHeader('content-type', 'application/json');
        return res.end('{"token":"T-9"}');
      }
      seen.push({ url: req.url as string, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
      res.end('ok');
    });
    const origin = new URL(url).origin;
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-setup-'));
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      workers: 3,
      ready: [],
      setup: [
        {
          name: 'login',
          request: { url: `${origin}/login`, method: 'POST', headers: {}, body: '{}' },
          extract: [{ name: 'token', rule: { json: '$.token' } }],
        },
      ],
      scenarios: [
        {
          name: 's',
          target: {
            kind: 'http',
            request: { url: `${origin}/row/{{data.n}}`, method: 'GET', headers: { authorization: 'Bearer ${token}' } },
            data: { columns: ['n'], rows: Array.from({ length: 30 }, (_, i) => [String(i)]), order: 'sequential' },
          },
          warmupMs: 0,
          trials: 1,
          phases: [{ kind: 'closed', name: 'n30', connections: 3, requests: 30 }],
        },
      ],
    };
    const out = await builtRunner(dir, plan, ['n30']);
    const events = out
      .split('\n')
      .filter((l) => l.startsWith(EVENT_MARKER))
      .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent);
    expect(events.find((e) => e.t === 'setup')).toMatchObject({ t: 'setup', values: ['token'] });
    // the runner says which values, never what they are
    expect(out).not.toContain('T-9');
    expect(logins).toBe(1);
    expect(seen).toHaveLength(30);
    expect(seen.every((s) => s.auth === 'Bearer T-9')).toBe(true);
    expect(seen.map((s) => Number(s.url.split('/').pop())).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
  });
});

describe('a script hook through the built runner (dist/runner.mjs)', () => {
  it('is imported in each of 2 worker threads; its time is reported as the generator’s', async () => {
    const seen: string[] = [];
    const { url } = await serve((req, res) => {
      seen.push(req.url as string);
      res.end('ok');
    });
    const source = `export function request(ctx) { return { path: '/h/' + ctx.n }; }`;
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-hook-'));
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      workers: 2,
      ready: [],
      scenarios: [
        {
          name: 's',
          target: { kind: 'http', ...request(url), hook: { file: 'h.mjs', source } },
          warmupMs: 0,
          trials: 1,
          phases: [{ kind: 'closed', name: 'n20', connections: 2, requests: 20 }],
        },
      ],
    };
    const out = await builtRunner(dir, plan, ['n20']);
    const trial = out
      .split('\n')
      .filter((l) => l.startsWith(EVENT_MARKER))
      .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent)
      .find((e): e is Extract<RunnerEvent, { t: 'trial' }> => e.t === 'trial');
    expect(trial?.measurement.successes).toBe(20);
    expect(trial?.measurement.generator.threads).toBe(2);
    expect(trial?.measurement.generator.hook?.calls).toBe(20);
    // each thread counts its own n from 0: two of each of /h/0 … /h/9
    expect(seen.filter((u) => u === '/h/0')).toHaveLength(2);
  });
});

describe('runner replicas through the built runner (dist/runner.mjs)', () => {
  /** runs one replica of `plan` (its index in `env`) to its end; its events */
  function replica(
    plan: RunnerPlan,
    env: Record<string, string>,
    args: string[] = [],
  ): Promise<{ code: number; events: RunnerEvent[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-replica-'));
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist/runner.mjs'), join(dir, 'plan.json'), ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, PERF_GATE_REPLICA: '', PERF_GATE_SWARM_SLOT: '', JOB_COMPLETION_INDEX: '', ...env },
      });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
      child.on('error', reject);
      child.on('close', (code) =>
        resolve({
          code: code ?? -1,
          events: text
            .split('\n')
            .filter((l) => l.startsWith(EVENT_MARKER))
            .map((l) => JSON.parse(l.slice(EVENT_MARKER.length)) as RunnerEvent),
        }),
      );
    });
  }

  function replicaPlan(url: string, phase: RunnerPlan['scenarios'][number]['phases'][number], startInMs: number) {
    const plan: RunnerPlan = {
      version: 1,
      progressIntervalMs: 1000,
      requestTimeoutMs: 2000,
      ready: [{ url, timeoutMs: 5000 }],
      scenarios: [{ name: 's', target: { kind: 'http', ...request(url) }, warmupMs: 300, trials: 1, phases: [phase] }],
      replicas: {
        count: 2,
        trial: { scenario: 's', phase: phase.name, trial: 1, trials: 1 },
        startAtEpochMs: Date.now() + startInMs,
      },
    };
    return plan;
  }

  const trialOf = (events: RunnerEvent[]) =>
    events.find((e): e is Extract<RunnerEvent, { t: 'trial' }> => e.t === 'trial');
  const measureStart = (events: RunnerEvent[]) =>
    events.find((e): e is Extract<RunnerEvent, { t: 'stage' }> => e.t === 'stage' && e.stage === 'measure')?.atEpochMs;

  it('two replicas split one open-loop schedule and one request count; their trials merge into the whole', async () => {
    let served = 0;
    const { url } = await serve((_req, res) => {
      served++;
      res.end('ok');
    });
    const openPlan = replicaPlan(
      url,
      { kind: 'open', name: 'r200', rate: 200, durationMs: 1000, maxInFlight: 20 },
      1500,
    );
    // swarm's slot 1 is replica 0; a Kubernetes index is the replica's
    const [a, b] = await Promise.all([
      replica(openPlan, { PERF_GATE_SWARM_SLOT: '1' }),
      replica(openPlan, { JOB_COMPLETION_INDEX: '1' }),
    ]);
    for (const r of [a, b]) expect(r.code).toBe(0);
    expect(a.events.find((e) => e.t === 'hello')).toMatchObject({ replica: 0 });
    expect(b.events.find((e) => e.t === 'hello')).toMatchObject({ replica: 1 });
    const [ta, tb] = [trialOf(a.events), trialOf(b.events)];
    // each replica kept half of the one schedule (stride 2), none of it twice
    expect(ta?.measurement.open?.scheduled).toBe(100);
    expect(tb?.measurement.open?.scheduled).toBe(100);
    const merged = mergeReplicaTrials([ta!, tb!], [measureStart(a.events)!, measureStart(b.events)!]);
    expect(merged.measurement.open?.scheduled).toBe(200);
    expect(merged.measurement.responses).toBe(ta!.measurement.responses + tb!.measurement.responses);
    expect(decodeHistogram(merged.histogram).totalCount).toBe(merged.measurement.successes);
    expect(merged.measurement.replicas?.count).toBe(2);
    expect(merged.measurement.replicas?.startSkewMs).toBeGreaterThanOrEqual(0);
    // both stages of both replicas said when they started
    for (const r of [a, b]) {
      const starts = r.events.filter((e) => e.t === 'stage').map((e) => (e as { atEpochMs?: number }).atEpochMs);
      expect(starts).toHaveLength(2);
      for (const at of starts) expect(at).toBeGreaterThanOrEqual(openPlan.replicas!.startAtEpochMs);
    }

    served = 0;
    const countPlan = replicaPlan(url, { kind: 'closed', name: 'n301', connections: 5, requests: 301 }, 1500);
    const [c, d] = await Promise.all([
      replica(countPlan, { PERF_GATE_REPLICA: '0' }),
      replica(countPlan, { PERF_GATE_REPLICA: '1' }),
    ]);
    const [tc, td] = [trialOf(c.events), trialOf(d.events)];
    // instance 0 (3 connections, 151 requests) in replica 0, instance 1 (2, 150) in replica 1: exactly 301
    expect(tc!.measurement.responses + td!.measurement.responses).toBe(301);
    expect(tc!.measurement.responses).toBeGreaterThan(td!.measurement.responses);
    expect(served).toBeGreaterThanOrEqual(301);
  });

  it('a replica ready after the common start is late: it says so and fails without sending', async () => {
    let served = 0;
    const { url } = await serve((_req, res) => {
      served++;
      res.end('ok');
    });
    const plan = replicaPlan(url, { kind: 'closed', name: 'c2', connections: 2, durationMs: 500 }, -1000);
    const r = await replica(plan, { PERF_GATE_REPLICA: '1' });
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      t: 'fatal',
      message: expect.stringMatching(/^late: ready \d+ ms after the common start/),
    });
    expect(r.events.some((e) => e.t === 'stage')).toBe(false);
    // only the ready probe reached the server
    expect(served).toBe(1);
  });

  it('a setup that fails is exit 3 with its event, before ready: a swarm task that failed, its account in its log', async () => {
    let served = 0;
    const { url } = await serve((req, res) => {
      served++;
      res.statusCode = req.url === '/login' ? 401 : 200;
      res.end(req.url === '/login' ? 'no' : 'ok');
    });
    const origin = new URL(url).origin;
    const plan: RunnerPlan = {
      ...replicaPlan(url, { kind: 'closed', name: 'c2', connections: 2, durationMs: 500 }, 3000),
      setup: [
        {
          name: 'login',
          request: { url: `${origin}/login`, method: 'POST', headers: {} },
          extract: [{ name: 'token', rule: { json: '$.token' } }],
        },
      ],
    };
    const r = await replica(plan, { PERF_GATE_REPLICA: '0' });
    expect(r.code).toBe(3);
    expect(r.events.at(-1)).toEqual({
      t: 'setup-failed',
      step: 'login',
      message: 'HTTP 401, body "no": not a 2xx or 3xx status',
    });
    expect(r.events.some((e) => e.t === 'ready')).toBe(false);
    // the ready probe and the login only
    expect(served).toBe(2);
  });

  it('an extracted value is masked in what the runner says: a WebSocket URL no peer could connect to', async () => {
    const token = 'tok-0123456789abcdef';
    // answers the login with a token; an upgrade it has no handler for is refused (the socket closed)
    const { url } = await serve((_req, res) => res.end(JSON.stringify({ token })));
    const origin = new URL(url).origin;
    const ws = origin.replace('http://', 'ws://');
    const { replicas: _one, ...plan }: RunnerPlan = {
      ...replicaPlan(url, { kind: 'ws', name: 'w2', peers: 2, messages: 1 }, 3000),
      setup: [
        {
          name: 'login',
          request: { url: `${origin}/login`, method: 'POST', headers: {} },
          extract: [{ name: 'token', rule: { json: '$.token' } }],
        },
      ],
    };
    plan.scenarios[0]!.target = {
      kind: 'ws',
      websocket: { url: `${ws}/room?t=\${token}`, headers: {}, hello: [], message: '{{id}}', drainMs: 100 },
    };
    // one runner, every trial of the plan in order (`--all`)
    const r = await replica(plan, {}, ['--all']);
    expect(r.code).toBe(1);
    const fatal = r.events.at(-1) as Extract<RunnerEvent, { t: 'fatal' }>;
    expect(fatal.message).toContain(`${ws}/room?t=***: no peer could connect`);
    expect(JSON.stringify(r.events)).not.toContain(token);
  });

  it('a replica without an index fails at once', async () => {
    const plan = replicaPlan(
      'http://127.0.0.1:9/x',
      { kind: 'closed', name: 'c2', connections: 2, durationMs: 500 },
      1000,
    );
    const r = await replica(plan, {});
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      t: 'fatal',
      message: expect.stringContaining('JOB_COMPLETION_INDEX are all unset'),
    });
  });
});

// The seed tests perf-gate was specified from, as configs in fixtures/seeds/, run end to end on the
// real engine with their durations and counts shortened (the shape stays; the test writes a copy).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { type CliResult, dockerAvailable, leftovers, ROOT, runCli, runFresh, runIdOf, tempDir } from './helpers.js';

/** A copy of a seed config beside it (paths stay relative to it) with `edit` applied to its text. */
function shortened(seed: string, edit: (text: string) => string): string {
  const dir = join(ROOT, 'fixtures/seeds', seed);
  const copy = join(dir, `.test-${process.pid}.yml`);
  writeFileSync(copy, edit(readFileSync(join(dir, 'perf-gate.yml'), 'utf8')));
  return copy;
}

/**
 * Gate runs of one trial that test absolute limits (no baseline exists): a config must be able to
 * confirm a change at alpha, and 1 trial against a 1-trial baseline needs 99 (1/C(100, 1) = 0.01), each
 * row at its own alpha: under the run's budget (gate.run-alpha, on by default) a row moving alone among
 * its phase's could never reach its share at any cap.
 */
const ONE_TRIAL_GATE = 'gate: { confirm: { max-trials: 99 }, run-alpha: off }';

/** Runs a shortened seed once (update mode) for a describe block; removes the copy and checks that
 * nothing is left afterwards. */
function seedRun(seed: string, edit: (text: string) => string, mode = 'update', expectCode = 0) {
  const out = tempDir();
  const state: { run?: CliResult; results?: ResultsFile; config?: string } = {};
  beforeAll(async () => {
    state.config = shortened(seed, edit);
    const run = await runCli([
      'run',
      '--config',
      state.config,
      '--mode',
      mode,
      '--baseline-dir',
      join(out, 'b'),
      '--out',
      out,
    ]);
    state.run = run;
    if (run.code !== expectCode) throw new Error(`perf-gate run failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
    state.results = JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
  }, 300_000);
  afterAll(() => {
    if (state.config) rmSync(state.config, { force: true });
    if (state.run) expect(leftovers(runIdOf(state.run.stderr))).toEqual([]);
  });
  return {
    out,
    run: () => state.run as CliResult,
    results: () => state.results as ResultsFile,
  };
}

describe.runIf(dockerAvailable())('seed: hey, one-shot gate (trials: 1, gate.bands: inform)', () => {
  // the service's error rate raised from 1% to 10%, above the seed's `error-rate: { max: 2% }`
  const seed = seedRun(
    'hey-distribution',
    (t) =>
      t
        .replace('requests: 50000', 'requests: 3000')
        .replace('duration: 30s', 'duration: 2s')
        .replace("API_ERROR_RATE: '0.01'", "API_ERROR_RATE: '0.10'"),
    'gate',
    1,
  );

  it('fails on its absolute limit with one trial, and says its relative rows were not judged', () => {
    const results = seed.results();
    const errorRate = results.comparisons.filter((c) => c.metric === 'error-rate');
    expect(errorRate.map((c) => c.result)).toEqual(['regression', 'regression']);
    expect(results.scenarios[0]?.phases.every((p) => p.trials.length === 1)).toBe(true);
    expect(seed.run().stdout).toMatch(/❌ perf-gate: 2 regressions in hey/);
  });
});

describe.runIf(dockerAvailable())('seed: hey-style full distribution (50k at 100, then 30 s at 200)', () => {
  const seed = seedRun('hey-distribution', (t) =>
    t.replace('requests: 50000', 'requests: 5000').replace('duration: 30s', 'duration: 3s'),
  );
  const results = () => seed.results();

  it('the fixed-count phase sends exactly its requests at 100 connections; the timed one runs at 200', () => {
    const [n, c] = results().scenarios[0]!.phases;
    expect(n?.params).toMatchObject({ connections: 100, requests: 5000 });
    expect(n?.merged.responses).toBe(5000);
    expect(c?.params).toMatchObject({ connections: 200, durationMs: 3000 });
    expect(c?.merged.responses).toBeGreaterThan(0);
  });

  it('every percentile hey prints, in order', () => {
    for (const p of results().scenarios[0]!.phases) {
      const l = p.merged.latency;
      const series = [l.p10, l.p25, l.p50, l.p75, l.p90, l.p95, l.p99];
      expect(series.every((v) => v > 0)).toBe(true);
      expect([...series].sort((a, b) => a - b)).toEqual(series);
    }
    expect(seed.run().stdout).toMatch(/p10\s+p25\s+p50\s+p75\s+p90\s+p99/);
  });

  it('the status-code distribution (about 1% 500s) and a latency histogram per phase in the report', () => {
    const [n] = results().scenarios[0]!.phases;
    expect(Object.keys(n!.merged.statusCodes).sort()).toEqual(['200', '500']);
    const report = readFileSync(join(seed.out, 'perf-gate-report.md'), 'utf8');
    const dist = report.slice(report.indexOf('<summary>Latency distribution per phase</summary>'));
    expect(dist).toContain('**hey/n50k**: ');
    expect(dist).toContain('**hey/c200**: ');
    expect(dist.match(/^≤ \S+ +█*\s+\d+\.\d%\s+\d+$/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(report).toMatch(/\| hey +\| n50k +\| 5000 +\| 200: \d+, 500: \d+ +\|/);
  });
});

describe.runIf(dockerAvailable())(
  'seed: six rotating POST bodies at concurrency 1 and 10, through a proxy and direct',
  () => {
    const seed = seedRun('proxy-bodies', (t) =>
      t.replaceAll('duration: 10s', 'duration: 2s').replace('trials: 3', 'trials: 1'),
    );
    const results = () => seed.results();

    it('both scenarios, both concurrencies, only 200s', () => {
      expect(
        results().scenarios.map(
          (s) => `${s.name}: ${s.phases.map((p) => `${p.name}@${p.params.connections}`).join(' ')}`,
        ),
      ).toEqual(['direct: c1@1 c10@10', 'proxied: c1@1 c10@10']);
      for (const s of results().scenarios)
        for (const p of s.phases) {
          expect(Object.keys(p.merged.statusCodes), `${s.name}/${p.name}`).toEqual(['200']);
          expect(p.merged.responses).toBeGreaterThan(0);
        }
    });

    it('the proxied scenario goes through the proxy container, the direct one does not', () => {
      const rx = (scenario: string) =>
        results()
          .scenarios.find((s) => s.name === scenario)!
          .phases.find((p) => p.name === 'c10')!.merged.resources.proxy!.rxBytes;
      // health checks are all the direct phase sends the proxy
      expect(rx('proxied')).toBeGreaterThan(10 * Math.max(1, rx('direct')));
    });
  },
);

describe.runIf(dockerAvailable())('seed: an embed + search mix through a proxy, 200 rotated bodies', () => {
  // the search SLO is set below what the service can do, so this run's per-request gate must fire
  const seed = seedRun(
    'embed-search',
    (t) =>
      t
        .replace('duration: 10s }', 'duration: 3s }')
        .replace('warmup: 2s\n  trials: 3', 'warmup: 1s\n  trials: 1')
        .replace('version: 1', `version: 1\n${ONE_TRIAL_GATE}`)
        .replace('p99: { regress: 50%, floor: 2ms, below: 100ms }', 'p99: { regress: 50%, floor: 2ms, below: 1us }'),
    'gate',
    1,
  );
  const scenario = () => seed.results().scenarios[0]!;

  it('the phase and each entry have results of their own; shares follow the weights 1:3', () => {
    expect(scenario().phases.map((p) => [p.name, p.request])).toEqual([
      ['c10', undefined],
      ['c10.embed', 'embed'],
      ['c10.search', 'search'],
    ]);
    const [all, embed, search] = scenario().phases;
    expect(embed!.merged.sent + search!.merged.sent).toBe(all!.merged.sent);
    expect(embed!.merged.responses + search!.merged.responses).toBe(all!.merged.responses);
    expect(Math.abs(search!.merged.sent - 3 * embed!.merged.sent)).toBeLessThanOrEqual(4);
    expect(Object.keys(all!.merged.statusCodes)).toEqual(['200']);
    // /embed burns 2 ms of CPU per call, /search 300 µs: each entry's latency is its own
    expect(embed!.merged.latency.p50).toBeGreaterThan(search!.merged.latency.p50);
    expect(embed!.merged.latency.min).toBeGreaterThanOrEqual(2000);
  });

  it('CPU and memory per daemon for the phase; none invented per request', () => {
    const [all, embed] = scenario().phases;
    expect(Object.keys(all!.merged.resources)).toEqual(expect.arrayContaining(['api', 'proxy']));
    expect(all!.merged.resources.api!.cpuMeanPct).toBeGreaterThan(0);
    expect(all!.merged.resources.proxy!.memoryPeakBytes).toBeGreaterThan(0);
    expect(embed!.merged.resources).toEqual({});
  });

  it('an entry is gated on its own thresholds: the search SLO fails the gate, embed’s holds', () => {
    const rows = seed.results().comparisons.filter((c) => c.phase !== 'c10');
    expect(rows.map((c) => `${c.phase} ${c.metric} ${c.result}`)).toEqual([
      'c10.embed p99 no-baseline',
      'c10.search p50 no-baseline',
      'c10.search p99 regression',
    ]);
    const report = readFileSync(join(seed.out, 'perf-gate-report.md'), 'utf8');
    expect(report).toMatch(/embed-search.*c10\.search.*p99/);
  });
});

describe.runIf(dockerAvailable())('seed: the embed + search mix swept over concurrency', () => {
  const seed = seedRun(
    'embed-search',
    (t) =>
      t.replace(
        'sweep: { connections: [10, 50, 100, 200], duration: 10s, warmup: 2s }',
        'sweep: { connections: [10, 50], duration: 2s, warmup: 500ms }',
      ),
    'sweep',
  );

  it('every level runs the whole mix; the curve is drawn from the levels, the entries stay in the JSON', () => {
    const phases = seed.results().scenarios[0]!.phases;
    expect(phases.map((p) => p.name)).toEqual(['c10', 'c10.embed', 'c10.search', 'c50', 'c50.embed', 'c50.search']);
    expect(phases.find((p) => p.name === 'c50.embed')!.merged.responses).toBeGreaterThan(0);
    const report = readFileSync(join(seed.out, 'perf-gate-report.md'), 'utf8');
    expect(report).toContain('x-axis "connections" [10, 50]');
  });
});

describe.runIf(dockerAvailable())('seed: a WebSocket broker, peers × messages, ack/push/delivery', () => {
  const seed = seedRun('ws-broker', (t) =>
    // 2 s per phase: the stats stream samples about once a second, so each phase gets a few samples
    t.replaceAll('messages: 100, rate: 10', 'messages: 20, rate: 10').replace('trials: 3', 'trials: 1'),
  );
  const phases = () => seed.results().scenarios[0]!.phases;
  const byName = (name: string) => phases().find((p) => p.name === name)!;

  it('every peer count, each with its ack (the phase), push and connect results', () => {
    expect(phases().map((p) => p.name)).toEqual(
      ['p10', 'p25', 'p50', 'p100'].flatMap((n) => [n, `${n}.push`, `${n}.connect`]),
    );
    for (const peers of [10, 25, 50, 100]) {
      const main = byName(`p${peers}`);
      const sent = peers * 20;
      expect(main.params).toMatchObject({ peers, messages: 20, rate: 10 });
      expect(main.merged).toMatchObject({ sent, responses: sent, successes: sent, errors: {} });
      expect(main.merged.delivery).toEqual({ sent, delivered: sent });
      expect(byName(`p${peers}.push`).merged).toMatchObject({ sent, responses: sent });
      expect(byName(`p${peers}.connect`).merged).toMatchObject({ sent: peers, responses: peers });
      // a push cannot arrive before its send: latencies are positive and come from the histogram
      expect(byName(`p${peers}.push`).merged.latency.min).toBeGreaterThan(0);
    }
  });

  it('the broker’s memory and open file descriptors per phase (one socket per peer)', () => {
    const broker = byName('p100').merged.resources.broker!;
    expect(broker.memoryPeakBytes).toBeGreaterThan(0);
    // one socket per peer at the peak; a sample can fall while the last peers connect, so with some slack
    expect(broker.fdsPeak).toBeGreaterThanOrEqual(90);
    expect(byName('p10').merged.resources.broker!.fdsPeak).toBeLessThan(broker.fdsPeak!);
  });

  it('the report shows delivery and the push and connect rows', () => {
    const report = readFileSync(join(seed.out, 'perf-gate-report.md'), 'utf8');
    expect(report).toMatch(/\| broker +\| p100 +\| delivery +\|/);
    expect(report).toMatch(/\| broker +\| p100\.push +\| p99 +\|/);
    expect(report).toMatch(/\| broker +\| p100\.connect +\| p99 +\|/);
  });
});

describe.runIf(dockerAvailable())('seed: the broker seed as its harness runs, a peer with a wrong key', () => {
  // the seed's own hook, but peer 3 signs its hello with a key it does not announce: the broker
  // (SEALED=1) closes it with 4003, and the phase counts it; the others' sealed messages all go through
  const hook = join(ROOT, 'fixtures/seeds/ws-broker', `.test-${process.pid}-wrong-key.mjs`);
  const seed = seedRun('ws-broker', (t) => {
    writeFileSync(
      hook,
      readFileSync(join(ROOT, 'fixtures/seeds/ws-broker/seal.mjs'), 'utf8').replace(
        'ed.privateKey).toString',
        "(peer.index === 3 ? generateKeyPairSync('ed25519').privateKey : ed.privateKey)).toString",
      ),
    );
    return t
      .replace('hook: seal.mjs', `hook: ${hook.split('/').pop()}`)
      .replace(/ {6}- \{ name: p(25|50|100),.*\n/g, '')
      .replace('messages: 100, rate: 10', 'messages: 20, rate: 20')
      .replace('drain: 5s', 'drain: 1s')
      .replace('trials: 3', 'trials: 1');
  });
  afterAll(() => rmSync(hook, { force: true }));

  it('9 of 10 peers connect and every sealed message is acked and pushed; the wrong key is close-4003', () => {
    const byName = (name: string) => seed.results().scenarios[0]!.phases.find((p) => p.name === name)!.merged;
    expect(byName('p10.connect')).toMatchObject({ sent: 10, responses: 9, errors: { 'close-4003': 1 } });
    expect(byName('p10')).toMatchObject({ sent: 180, responses: 180, successes: 180 });
    expect(byName('p10').errors).toEqual({ 'close-4003': 1 });
    // the hook's calls: 10 hellos, 9 replies, 180 messages (the measured stage's trial)
    const trial = seed.results().scenarios[0]!.phases.find((p) => p.name === 'p10')!.trials[0]!;
    expect(trial.generator.hook?.calls).toBe(10 + 9 + 180);
  });
});

describe.runIf(dockerAvailable())('seed: a lossy WebSocket broker fails the delivery minimum', () => {
  // the broker drops every 10th push: delivery 90% against the seed's minimum of 99.9%
  const seed = seedRun(
    'ws-broker',
    (t) =>
      t
        .replace('build: true', 'build: true\n  env: { DROP_EVERY: 10 }')
        .replace(/ {6}- \{ name: p(25|50|100),.*\n/g, '')
        .replace('messages: 100, rate: 10', 'messages: 20, rate: 20')
        .replace('drain: 5s', 'drain: 1s')
        .replace('trials: 3', 'trials: 1')
        .replace('version: 1', `version: 1\n${ONE_TRIAL_GATE}`),
    'gate',
    1,
  );

  it('delivery below the minimum is a regression without a baseline; the lost pushes are counted', () => {
    const row = seed.results().comparisons.find((c) => c.phase === 'p10' && c.metric === 'delivery')!;
    expect(row).toMatchObject({ result: 'regression', current: 0.9, reason: 'below the minimum 99.9%' });
    const push = seed.results().scenarios[0]!.phases.find((p) => p.name === 'p10.push')!;
    expect(push.merged.errors).toEqual({ 'no-push': 20 });
  });
});

describe.runIf(dockerAvailable())('seed: a WebSocket URL the server refuses to upgrade', () => {
  it('exit 3, one line naming the URL and the refusal; nothing left behind', async () => {
    const config = shortened('ws-broker', (t) =>
      t
        .replace('url: ws://broker:8080/ws', 'url: ws://broker:8080/nope')
        .replace(/ {6}- \{ name: p(25|50|100),.*\n/g, '')
        .replace('warmup: 1s', 'warmup: 0s'),
    );
    try {
      const run = await runCli(['run', '--config', config, '--mode', 'update', '--out', tempDir()]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('runner failed: ws://broker:8080/nope: no peer could connect (upgrade-404 ×10)');
      expect(leftovers(runIdOf(run.stderr))).toEqual([]);
    } finally {
      rmSync(config, { force: true });
    }
  }, 300_000);
});

describe.runIf(dockerAvailable())('seed: a gRPC vector database at 1000 calls/s, p50/p95/p99 SLOs', () => {
  const seed = seedRun('grpc-vectordb', (t) =>
    t.replace('duration: 60s', 'duration: 4s').replace('warmup: 5s', 'warmup: 1s').replace('trials: 3', 'trials: 1'),
  );
  const phase = () => seed.results().scenarios[0]!.phases[0]!;

  it('the open loop scheduled 1000 calls a second with at most 32 in flight; results by status name', () => {
    expect(phase().kind).toBe('open');
    expect(phase().params).toMatchObject({ rate: 1000, maxInFlight: 32 });
    expect(phase().merged.open?.scheduled).toBe(4000);
    expect(Object.keys(phase().merged.statusCodes)).toEqual(['OK']);
    expect(phase().merged.successes).toBe(phase().merged.statusCodes.OK);
    const l = phase().merged.latency;
    // a Search burns 200 µs of the service's CPU: no latency can be below it
    expect(l.min).toBeGreaterThanOrEqual(200);
    expect(l.p50).toBeLessThanOrEqual(l.p95);
    expect(l.p95).toBeLessThanOrEqual(l.p99);
  });

  it('the comparison rows carry the SLOs of p50, p95 and p99 (the verdicts are whatever this VM made of the run)', () => {
    const rows = seed.results().comparisons.map((c) => `${c.metric} ${c.band}`);
    expect(rows).toEqual(
      expect.arrayContaining([
        'p50 +25% and +200µs, ≤ 5ms',
        'p95 +50% and +500µs, ≤ 20ms',
        'p99 +50% and +1ms, ≤ 50ms',
      ]),
    );
  });
});

// issue 20, class 5: before, exit 0 and a baseline from 0 OK and ~100k UNAVAILABLE calls
describe.runIf(dockerAvailable())('seed: a gRPC URL on a port nothing listens on', () => {
  it('exit 3, one line naming the URL and the connect error (ECONNREFUSED); no baseline; nothing left behind', async () => {
    const config = shortened('grpc-vectordb', (t) =>
      t
        // the scenario's URL, not the ready probe's (grpc://vectordb:50051/vectordb.VectorDB)
        .replace('url: grpc://vectordb:50051\n', 'url: grpc://vectordb:50099\n')
        .replace('rate: 1000, duration: 60s', 'rate: 200, duration: 1s')
        .replace('warmup: 5s', 'warmup: 0s')
        .replace('trials: 3', 'trials: 2'),
    );
    try {
      const { r: run, out } = await runFresh(config, 'update');
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toMatch(
        /^perf-gate: search\/r1000: no successful response from grpc:\/\/vectordb:50099 in 2 trials: ECONNREFUSED \(\d+×\); nothing was measured/m,
      );
      expect(existsSync(join(out, 'b', 'search.json'))).toBe(false);
      expect(leftovers(runIdOf(run.stderr))).toEqual([]);
    } finally {
      rmSync(config, { force: true });
    }
  }, 300_000);
});

describe.runIf(dockerAvailable())('seed: gRPC failures are error classes by status name', () => {
  // every 50th Search answers UNAVAILABLE, and every 40th other one is held past its 1 s deadline
  // (the grpc-timeout the runner sends): errors max 0 fails the gate; the report names the statuses
  const seed = seedRun(
    'grpc-vectordb',
    (t) =>
      t
        .replace('build: true', 'build: true\n  env: { ERROR_EVERY: 50, DEADLINE_EVERY: 40 }')
        .replace('rate: 1000, duration: 60s', 'rate: 100, duration: 4s')
        .replace('warmup: 5s', 'warmup: 1s')
        .replace('trials: 3', 'trials: 1')
        .replace('version: 1', `version: 1\n${ONE_TRIAL_GATE}`),
    'gate',
    1,
  );

  it('UNAVAILABLE and the deadline counted apart from OK, and the errors limit fails the gate', () => {
    const m = seed.results().scenarios[0]!.phases[0]!.merged;
    expect(m.statusCodes.UNAVAILABLE).toBe(8);
    // calls 40, 80, …, 360 but 200: the server's deadline (from grpc-timeout) and the runner's race,
    // so each comes back DEADLINE_EXCEEDED, or CANCELLED when the server's reset arrives first
    expect((m.statusCodes.DEADLINE_EXCEEDED ?? 0) + (m.statusCodes.CANCELLED ?? 0)).toBe(8);
    expect(m.statusCodes.OK).toBe(384);
    expect(m.failures).toBe(16);
    const errors = seed.results().comparisons.find((c) => c.metric === 'errors')!;
    expect(errors).toMatchObject({ result: 'regression', current: 16 });
    const report = readFileSync(join(seed.out, 'perf-gate-report.md'), 'utf8');
    expect(report).toMatch(/\| search +\| r1000 +\| 400 +\| OK: 384, [^|]*UNAVAILABLE: 8/);
  });
});

describe.runIf(dockerAvailable())('seed: gRPC bad input is refused before anything starts', () => {
  it.each<[string, (t: string) => string, string]>([
    [
      'a proto that does not parse',
      (t) => t.replace('proto: ../../grpc-search/search.proto', 'proto: docker-compose.yml'),
      'scenarios[0].grpc.proto: docker-compose.yml: ',
    ],
    [
      'a method that does not exist',
      (t) => t.replace('method: Search', 'method: Lookup'),
      'scenarios[0].grpc.method: Lookup is not a method of vectordb.VectorDB (methods: Search)',
    ],
    [
      'a service without its package',
      (t) => t.replace('service: vectordb.VectorDB', 'service: VectorDB'),
      'scenarios[0].grpc.service: give the full name, package included: vectordb.VectorDB',
    ],
    [
      'a message field the request type does not have',
      (t) => t.replace('k: 10,', 'k: 10, topk: 3,'),
      'scenarios[0].grpc.message: topk: not a field of SearchRequest (fields: collection, vector, k)',
    ],
  ])('%s: exit 2 naming the key', async (_what, edit, line) => {
    const config = shortened('grpc-vectordb', edit);
    try {
      const run = await runCli(['validate', '--config', config]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(line);
    } finally {
      rmSync(config, { force: true });
    }
  });
});

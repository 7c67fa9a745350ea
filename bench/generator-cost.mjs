// zt. Where the load generator's time goes: the runner's CPU per response for each engine, and the
// split of its engine thread's CPU by what it does, from V8's CPU profile (node --cpu-prof).
// Each engine is run twice per round: once plain, for the CPU per response (the runner process's CPU
// over the measured window ÷ its responses, as the results file's `generatorCpuUs` gives it), and once
// under the profiler, for the split (the profiler's own cost inflates that run's CPU; its shares are
// read, never its totals). The runner is pinned to the generator core, the service to the target core.
// Engines: HTTP/1.1 closed loop and open loop at a fixed rate (nginx), HTTP/2 h2c and over TLS (nginx,
// `http: 2`, streams per connection), and a flow of two requests (create an order, read it back by the
// id the create answered) with a JSON extract and JSON checks against the same two requests without
// checks (the fixture service's ORDERS=1). Not in it yet: gRPC and WebSocket (their benches are
// bench/grpc.mjs and bench/ws.mjs).
// The split: every profile node's self time goes to the category of the source module it runs in (the
// bundle's `// runner/src/x.ts` markers map a line of dist/runner.mjs to its module), or of node's
// module (node:net …); a function of neither (a native call such as writev) goes to its caller's.
// With PERF_GATE_BEFORE=<an older dist/runner.mjs> (e.g. `git show <commit>:dist/runner.mjs`), each
// engine is also run plainly on that runner, in the same round, and the CPU a response compared.
// PERF_GATE_ENGINES=<a regular expression> runs only the engines whose name it matches.
// Usage: [PERF_GATE_BEFORE=…] node bench/generator-cost.mjs [rounds, default 3] [seconds per run, default 5]
// Needs nginx (bash bench/setup.sh) and the fixture service (fixtures/sut/bin/sut). Traffic stays on
// 127.0.0.1; every loop is bounded by the round count and every run by its duration.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmtUs, median, perfGate, printMachine, requireTools, ROOT, startNginx, startTarget, table } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 5);
const RUNNER = join(ROOT, 'dist/runner.mjs');
const BEFORE = process.env.PERF_GATE_BEFORE;
requireTools(['taskset', 'nginx']);
printMachine();
console.log(`## zt. The generator's CPU per response and where it goes: ${rounds} rounds, ${seconds} s a run\n`);

/** What a module of the bundle (or of node) does, for the split. */
const CATEGORIES = [
  [
    'schedule',
    /runner\/src\/(open-loop|schedule|closed-loop|parking|mix|engine|engines\/\w+)\.ts|runner-kit\/ramp\.ts/,
  ],
  [
    'serialise',
    /runner\/src\/connection\.ts|runner-kit\/(template|fill|placeholders|connection-header)\.ts|h2\/request\.ts/,
  ],
  [
    'parse',
    /runner\/src\/(http1|grpc|grpc-status|ws)\.ts|h2\/(connection|frames|hpack|http-streams)\.ts|node_modules\/ws\//,
  ],
  ['check and extract', /runner-kit\/expect\.ts|runner\/src\/flow\.ts|runner-kit\/readable\.ts/],
  ['record', /runner\/src\/(recorder|tally)\.ts|runner-kit\/(histogram|measurement)\.ts|hdr-histogram-js|pako/],
  ['socket I/O (node)', /^node:(net|tls|_tls_wrap|internal\/(stream_base_commons|net|tls|streams|js_stream_socket))/],
  [
    'timers and events (node)',
    /^node:(internal\/timers|timers|events|internal\/process\/task_queues|internal\/worker)/,
  ],
  ['other node', /^node:/],
  ['runner, other', /runner\/src\/|runner-kit\//],
];
const SPECIAL = { '(garbage collector)': 'garbage collection', '(program)': 'native (V8, libuv, syscalls)' };

/** Line → module of the bundle, from its `// path` markers. */
function bundleModules(file) {
  const marks = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((l, i) => {
      const m = /^\/\/ ((?:runner|src|node_modules)\/\S+)$/.exec(l);
      if (m) marks.push([i, m[1]]);
    });
  return (line) => {
    let found = 'bundle';
    for (const [at, mod] of marks) {
      if (at > line) break;
      found = mod;
    }
    return found;
  };
}
const moduleAt = bundleModules(RUNNER);

function categoryOf(frame) {
  if (SPECIAL[frame.functionName]) return SPECIAL[frame.functionName];
  if (frame.functionName === '(idle)') return 'idle';
  const where = frame.url.endsWith('runner.mjs') ? moduleAt(frame.lineNumber) : frame.url;
  if (!where) return undefined;
  return CATEGORIES.find(([, re]) => re.test(where))?.[0];
}

/** Self time by category over one .cpuprofile (µs), a node without one taking its caller's. */
function split(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const category = new Map();
  const cat = (id) => {
    if (category.has(id)) return category.get(id);
    const n = byId.get(id);
    const own = categoryOf(n.callFrame);
    const c = own ?? (parent.has(id) ? cat(parent.get(id)) : 'unattributed');
    category.set(id, c);
    return c;
  };
  const us = {};
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const c = cat(samples[i]);
    us[c] = (us[c] ?? 0) + (timeDeltas[i] ?? 0);
    // and by function, where it is (for the list of the costliest)
    const f = byId.get(samples[i]).callFrame;
    if (c !== 'idle') {
      const where = f.url.endsWith('runner.mjs') ? moduleAt(f.lineNumber) : f.url || c;
      const key = `fn ${f.functionName || '(anonymous)'} · ${where.replace(/^runner\/src\/|^src\//, '')}`;
      us[key] = (us[key] ?? 0) + (timeDeltas[i] ?? 0);
    }
  }
  return us;
}

/** The engine thread's profile: of the files written, the one with the most non-idle time. */
function engineThreadSplit(dir) {
  const splits = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => split(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
  const busy = (s) => Object.entries(s).reduce((a, [k, v]) => (k === 'idle' || k.startsWith('fn ') ? a : a + v), 0);
  return splits.reduce((a, s) => (busy(s) > busy(a) ? s : a), {});
}

const cpuPerResponse = (m) => ((m.generator.cpuPct / 100) * m.durationMs * 1000) / Math.max(1, m.responses);

const closed = (name, connections, extra = {}) => ({
  kind: 'closed',
  name,
  connections,
  durationMs: seconds * 1000,
  ...extra,
});
const flowTarget = (origin, checks) => {
  const create = {
    url: `${origin}/orders`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"item":"desk"}',
    ...(checks ? { expect: { status: [201], json: [{ path: '$.id', exists: true }] } } : {}),
  };
  const read = {
    url: `${origin}/orders/{{id}}`,
    method: 'GET',
    headers: {},
    ...(checks ? { expect: { json: [{ path: '$.order', equals: '{"item":"desk"}' }] } } : {}),
  };
  return checks
    ? {
        request: create,
        mix: [
          { name: 'create', weight: 1, request: create },
          { name: 'read', weight: 1, request: read },
        ],
        flow: { extract: [[{ name: 'id', rule: { json: '$.id' } }], []] },
      }
    : {
        request: create,
        mix: [
          { name: 'create', weight: 1, request: create },
          { name: 'read', weight: 1, request: { ...read, url: `${origin}/orders/1` } },
        ],
      };
};

// each engine: the service it needs (started per run) and the phase and target it runs
const ENGINES = {
  'HTTP/1.1 closed, 50 connections': { service: 'nginx', phase: closed('c50', 50) },
  'HTTP/1.1 open, 5,000 req/s': {
    service: 'nginx',
    phase: { kind: 'open', name: 'r5k', rate: 5000, durationMs: seconds * 1000, maxInFlight: 1000 },
  },
  'HTTP/1.1 open, 20,000 req/s': {
    service: 'nginx',
    phase: { kind: 'open', name: 'r20k', rate: 20_000, durationMs: seconds * 1000, maxInFlight: 1000 },
  },
  'HTTP/2 h2c, 10 connections × 10 streams': {
    service: 'h2c',
    phase: closed('h2', 10, { streams: 10 }),
    target: { http: 2 },
  },
  'HTTP/2 TLS, 10 connections × 10 streams': {
    service: 'tls',
    phase: closed('h2', 10, { streams: 10 }),
    target: { http: 2 },
  },
  'two requests, no checks, 8 connections': { service: 'orders', phase: closed('c8', 8), flow: false },
  'flow: JSON extract and checks, 8 connections': { service: 'orders', phase: closed('c8', 8), flow: true },
};

const only = process.env.PERF_GATE_ENGINES ? new RegExp(process.env.PERF_GATE_ENGINES) : undefined;
for (const name of Object.keys(ENGINES)) if (only && !only.test(name)) delete ENGINES[name];

let port = 18960;
async function start(service) {
  port += 1;
  if (service === 'orders') {
    const t = await startTarget(port, { ORDERS: '1' });
    return { url: `http://127.0.0.1:${port}/orders`, origin: `http://127.0.0.1:${port}`, stop: t.stop };
  }
  const n = await startNginx(port, service === 'nginx' ? {} : { http2: service });
  return { url: n.url, stop: n.stop };
}

const seen = Object.fromEntries(
  Object.keys(ENGINES).map((k) => [k, { cpu: [], rps: [], split: [], failed: 0, before: { cpu: [], rps: [] } }]),
);
// each engine's runs in a round: plain, profiled, and plain on the older runner (when given)
const RUNS = [{ profiled: false }, { profiled: true }, ...(BEFORE ? [{ profiled: false, runner: BEFORE }] : [])];
for (let r = 0; r < rounds; r++) {
  const names = r % 2 === 0 ? Object.keys(ENGINES) : Object.keys(ENGINES).reverse();
  for (const name of names) {
    const e = ENGINES[name];
    for (const { profiled, runner } of r % 2 === 0 ? RUNS : [...RUNS].reverse()) {
      const svc = await start(e.service);
      const dir = mkdtempSync(join(tmpdir(), 'perf-gate-prof-'));
      try {
        const target = e.flow === undefined ? (e.target ?? {}) : flowTarget(svc.origin, e.flow);
        const { measurement: m } = await perfGate(svc.url, e.phase, {
          warmupMs: 1000,
          target,
          nodeArgs: profiled ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'] : [],
          ...(runner ? { runner } : {}),
        });
        const failed = m.responses - m.successes;
        if (profiled) seen[name].split.push(engineThreadSplit(dir));
        else if (runner) {
          seen[name].before.cpu.push(cpuPerResponse(m));
          seen[name].before.rps.push(m.rps);
        } else {
          seen[name].cpu.push(cpuPerResponse(m));
          seen[name].rps.push(m.rps);
          seen[name].failed += failed;
        }
        process.stderr.write(
          `[generator-cost] round ${r + 1}/${rounds} ${name}${profiled ? ' (profiled)' : runner ? ' (before)' : ''}: ${Math.round(m.rps)} resp/s, ${fmtUs(cpuPerResponse(m))} CPU a response, cpu ${m.generator.cpuPct}%, busiest thread ${m.generator.busyPct}%, ${failed} failed\n`,
        );
      } finally {
        svc.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}

const shown = [
  'schedule',
  'serialise',
  'socket I/O (node)',
  'parse',
  'check and extract',
  'record',
  'timers and events (node)',
  'other node',
  'runner, other',
  'garbage collection',
  'native (V8, libuv, syscalls)',
];
/** A category's share of the engine thread's busy time, median over the rounds. */
const share = (splits, k) =>
  median(
    splits.map((s) => {
      const busy = Object.entries(s).reduce((a, [c, v]) => (c === 'idle' || c.startsWith('fn ') ? a : a + v), 0);
      return busy > 0 ? (s[k] ?? 0) / busy : 0;
    }),
  );
const pct = (x) => `${Math.round(x * 100)}%`;
table(
  ['engine', 'responses/s', 'CPU a response', 'failed', ...shown, 'unattributed'],
  Object.entries(seen).map(([name, s]) => [
    name,
    Math.round(median(s.rps)),
    fmtUs(median(s.cpu)),
    s.failed,
    ...[...shown, 'unattributed'].map((k) => pct(share(s.split, k))),
  ]),
);
if (BEFORE) {
  console.log(`\nThe same engines on ${BEFORE} (before), plain runs in the same rounds:\n`);
  table(
    ['engine', 'CPU a response now', 'before', 'now ÷ before', 'responses/s now', 'before', 'now ÷ before'],
    Object.entries(seen).map(([name, s]) => [
      name,
      fmtUs(median(s.cpu)),
      fmtUs(median(s.before.cpu)),
      (median(s.cpu) / median(s.before.cpu)).toFixed(2),
      Math.round(median(s.rps)),
      Math.round(median(s.before.rps)),
      (median(s.rps) / median(s.before.rps)).toFixed(2),
    ]),
  );
}
const flow = seen['flow: JSON extract and checks, 8 connections'];
const plain = seen['two requests, no checks, 8 connections'];
if (flow && plain) {
  console.log(
    `\nflow with extract and checks ÷ the same two requests without: ${(median(flow.rps) / median(plain.rps)).toFixed(2)} (target ≥ 0.8)`,
  );
}
console.log(
  "\nCPU a response: the runner process over the measured window (plain runs, median). The shares: of the engine thread's busy samples in the profiled runs (median per category; a column's medians need not sum to 100%).",
);
// the costliest functions of each engine's thread, summed over the profiled runs
const TOP = 8;
for (const [name, s] of Object.entries(seen)) {
  const total = {};
  for (const sp of s.split) for (const [k, v] of Object.entries(sp)) total[k] = (total[k] ?? 0) + v;
  const busy = Object.entries(total).reduce((a, [k, v]) => (k === 'idle' || k.startsWith('fn ') ? a : a + v), 0);
  const top = Object.entries(total)
    .filter(([k]) => k.startsWith('fn '))
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([k, v]) => `${k.slice(3)} ${pct(v / busy)}`);
  console.log(
    `\n${name}, the ${TOP} costliest functions (self time, share of the thread's busy time): ${top.join('; ')}`,
  );
}

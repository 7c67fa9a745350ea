// i. gRPC: unary calls per second on one core, perf-gate's gRPC engine (its own HTTP/2 client since
// the HTTP/2 work; @grpc/grpc-js before; a scenario with `grpc`) vs ghz on the same service: fixtures/grpc-search (`vectordb.VectorDB/Search`, Go,
// GOMAXPROCS=1) pinned to one core, the load tool to the other. Targets: calls/s ≥ 1.0× ghz,
// latency p50 within 15% of ghz's (before the HTTP/2 client: ≥ 0.5× and within 10%).
//   1. throughput: closed loop, 32 calls in flight on one HTTP/2 connection (ghz --connections=1
//      --concurrency=32, perf-gate channels 1 and a closed phase of 32 connections)
//   2. latency at a fixed 500 calls/s, well below both tools' limits (ghz --rps=500 -c 32,
//      perf-gate an open phase at 500/s with max-in-flight 32): p50 and p99
// The tools take turns (the order flips each round); medians over the rounds, ranges in brackets.
// "client CPU" is perf-gate's own generator CPU over its measured phase (warm-up excluded), and
// ghz's whole process (start-up, proto parsing and its JSON report included: about 10 ms of CPU);
// "µs/call" is that share × the window ÷ calls. "service CPU" is the service's share of its core
// over each measured window, and "other" the machine's busy CPU minus the service and the tool
// (from /proc), to show how much else ran meanwhile.
// Usage: node bench/grpc.mjs [seconds=5] [rounds=3]
// Needs ghz (bash bench/setup.sh) and fixtures/grpc-search/bin/server. BENCH_GRPC_BURN sets the
// service's CPU spin per call (Go duration, default 0). Traffic goes to 127.0.0.1 only; every run
// is bounded by its duration and a hard timeout. No timing is asserted anywhere.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import protobuf from 'protobufjs';
import {
  GENERATOR_CORE,
  ROOT,
  TARGET_CORE,
  fmtUs,
  generatorBoundReasons,
  median,
  printMachine,
  ratio,
  table,
  trialEvent,
} from './lib.mjs';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
const BURN = process.env.BENCH_GRPC_BURN ?? '0';
const CONCURRENCY = 32;
const RATE = 500;
const WARMUP_MS = 1000;
const DEADLINE_MS = 10_000;
const PORT = 18195;
const hardTimeoutMs = (seconds * 4 + 30) * 1000;

const SERVER = join(ROOT, 'fixtures/grpc-search/bin/server');
const PROTO = join(ROOT, 'fixtures/grpc-search/search.proto');
const RUNNER = join(ROOT, 'dist/runner.mjs');
const MESSAGE = { collection: 'docs', k: 10, vector: [0.12, -0.5, 0.33, 0.9, -0.07, 0.41, 0.05, -0.66] };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function findGhz() {
  const onPath = spawnSync('sh', ['-c', 'command -v ghz'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  const gopath = spawnSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).stdout?.trim();
  const f = gopath ? join(gopath, 'bin/ghz') : '';
  return f && existsSync(f) ? f : '';
}

const GHZ = findGhz();
for (const [what, f, fix] of [
  ['ghz', GHZ, 'bash bench/setup.sh'],
  ['the gRPC service', SERVER, 'cd fixtures/grpc-search && CGO_ENABLED=0 go build -trimpath -o bin/server .'],
  ['dist/runner.mjs', RUNNER, 'npm run build'],
]) {
  if (!f || !existsSync(f)) {
    console.error(`bench: ${what} is missing: ${fix}`);
    process.exit(2);
  }
}
/** ghz built by `go install` reports "dev": the module version comes from the binary's build info */
const ghzVersion =
  /\bmod\s+github\.com\/bojand\/ghz\s+(\S+)/.exec(
    spawnSync('go', ['version', '-m', GHZ], { encoding: 'utf8' }).stdout ?? '',
  )?.[1] ?? 'unknown version';

// one copy of the runner for the whole bench: a rebuild of dist/ meanwhile changes no round's code
const RUNNER_COPY = join(mkdtempSync(join(tmpdir(), 'perf-gate-bench-grpc-')), 'runner.mjs');
copyFileSync(RUNNER, RUNNER_COPY);
const runnerBuilt = statSync(RUNNER).mtime.toISOString().slice(0, 16).replace('T', ' ');

// the call as the host hands it to the runner (src/config-parts/proto.ts, encodeGrpcCalls): the method's
// path and the message serialised by protobufjs, base64
const root = new protobuf.Root();
root.loadSync(PROTO, { keepCase: true });
root.resolveAll();
const requestType = root.lookupService('vectordb.VectorDB').methods.Search.resolvedRequestType;
const ENCODED = Buffer.from(requestType.encode(requestType.fromObject(MESSAGE)).finish()).toString('base64');

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc: the service, the tool, and the rest of the machine (other work)

/** busy and total clock ticks (10 ms) of all CPUs */
function machineTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, _idle, _iowait, irq, softirq, steal] = f;
  return { busy: user + nice + system + irq + softirq + steal, total: f.slice(0, 8).reduce((a, b) => a + b, 0) };
}

/** utime + stime of a process, µs */
function procCpuUs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10_000;
}

/** A window's snapshot: wall time, the service's CPU, the machine's ticks. */
const snap = () => ({ at: performance.now(), server: procCpuUs(server.pid), m: machineTicks() });

/** % of one core over a window: the service's, and the machine's busy CPU minus the service and the tool */
function windowUse(a, b, toolPct) {
  const ms = b.at - a.at;
  const serverPct = (b.server - a.server) / 10 / ms;
  const busyPct = ((b.m.busy - a.m.busy) / (b.m.total - a.m.total)) * cpus().length * 100;
  return { serverPct, machinePct: busyPct, otherPct: Math.max(0, busyPct - serverPct - toolPct) };
}

// ---------------------------------------------------------------------------------------------
// the service

async function startServer(port) {
  const child = spawn('taskset', ['-c', TARGET_CORE, SERVER], {
    env: { ...process.env, GOMAXPROCS: '1', LISTEN: `127.0.0.1:${port}`, BURN },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (log += d));
  const addr = `127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`grpc-search exited: ${log}`);
    if (spawnSync(SERVER, ['-health', addr], { timeout: 3000 }).status === 0) break;
    if (i >= 50) {
      child.kill('SIGKILL');
      throw new Error(`grpc-search on ${addr} did not answer: ${log}`);
    }
    await sleep(100);
  }
  // taskset execs the server: the child's pid is the server's
  return { addr, pid: child.pid, stop: () => child.kill('SIGKILL') };
}

// ---------------------------------------------------------------------------------------------
// the tools, each pinned to the generator core with a hard timeout

/** Runs a command pinned to the generator core; resolves { out, err, wallMs }; `onData` sees stdout. */
function bounded(cmd, args, { env, onData } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', GENERATOR_CORE, cmd, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: env ?? process.env,
    });
    const at = performance.now();
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), hardTimeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      onData?.(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ out, err, wallMs: performance.now() - at });
      else reject(new Error(`${cmd} exited ${code}: ${err.slice(-2000)}`));
    });
  });
}

/**
 * ghz, one connection, `concurrency` workers; `rps` > 0 rate-limits it. Run under `sh` so that the
 * shell's children-CPU times (after it has waited for ghz) give ghz's CPU. In-flight calls at the end
 * of the duration are left out (--duration-stop=ignore) instead of failing as UNAVAILABLE.
 */
async function ghz({ rps = 0, secs = seconds } = {}) {
  const args = [
    '--insecure',
    '--proto',
    PROTO,
    '--call',
    'vectordb.VectorDB.Search',
    '-d',
    JSON.stringify(MESSAGE),
    '--connections=1',
    `--concurrency=${CONCURRENCY}`,
    `--duration=${secs}s`,
    '--duration-stop=ignore',
    `--timeout=${DEADLINE_MS / 1000}s`,
    '--format=json',
    ...(rps > 0 ? [`--rps=${rps}`] : []),
    server.addr,
  ];
  const script = '"$0" "$@"; rc=$?; cat /proc/$$/stat >&2; exit $rc';
  const a = snap();
  // GOMAXPROCS=1: one core, as the pinning gives (the Go runtime reads the affinity mask anyway)
  const { out, err, wallMs } = await bounded('sh', ['-c', script, GHZ, ...args], {
    env: { ...process.env, GOMAXPROCS: '1' },
  });
  const b = snap();
  const stat = err.trim().split('\n').pop().split(') ')[1].split(' ');
  // cutime + cstime: the children the shell has waited for (ghz), ticks of 10 ms
  const cpuUs = (Number(stat[13]) + Number(stat[14])) * 10_000;
  const j = JSON.parse(out);
  const ok = j.statusCodeDistribution?.OK ?? 0;
  const totalMs = j.total / 1e6;
  const pct = (p) => (j.latencyDistribution?.find((d) => d.percentage === p)?.latency ?? NaN) / 1000;
  const cpuPct = cpuUs / 10 / wallMs;
  return {
    tool: 'ghz',
    calls: j.count,
    ok,
    notOk: Object.entries(j.statusCodeDistribution ?? {}).filter(([k]) => k !== 'OK'),
    rps: ok / (totalMs / 1000),
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    cpuPct,
    cpuPerCallUs: ok > 0 ? cpuUs / j.count : NaN,
    ...windowUse(a, b, cpuPct),
    bound: [],
  };
}

/** perf-gate's runner (dist/runner.mjs as copied at the start) with one gRPC scenario of one phase. */
async function perfGate(phase) {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-grpc-'));
  const url = `grpc://${server.addr}`;
  const plan = {
    version: 1,
    progressIntervalMs: 60_000,
    requestTimeoutMs: DEADLINE_MS,
    workers: 1,
    ready: [],
    scenarios: [
      {
        name: 'bench',
        target: {
          kind: 'grpc',
          grpc: {
            url,
            service: 'vectordb.VectorDB',
            method: 'Search',
            path: '/vectordb.VectorDB/Search',
            messages: [ENCODED],
            metadata: {},
            channels: 1,
            deadlineMs: DEADLINE_MS,
          },
        },
        warmupMs: WARMUP_MS,
        trials: 1,
        phases: [phase],
      },
    ],
  };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  // the service and the machine over the measured stage only (not the warm-up)
  let a;
  let b;
  const { out } = await bounded(process.execPath, [RUNNER_COPY, join(dir, 'plan.json'), '--all'], {
    onData: (d) => {
      if (!a && d.includes('"stage":"measure"')) a = snap();
      if (a && !b && d.includes('"t":"trial"')) b = snap();
    },
  });
  const trial = trialEvent(out);
  const m = trial.measurement;
  const g = m.generator;
  const bound = generatorBoundReasons(m);
  const ok = m.statusCodes?.OK ?? 0;
  const use = a && b ? windowUse(a, b, g.cpuPct) : { serverPct: NaN, machinePct: NaN, otherPct: NaN };
  return {
    tool: 'perf-gate',
    calls: m.responses,
    ok,
    notOk: [...Object.entries(m.statusCodes ?? {}).filter(([k]) => k !== 'OK'), ...Object.entries(m.errors ?? {})],
    rps: ok / (m.durationMs / 1000),
    p50: m.latency.p50,
    p90: m.latency.p90,
    p99: m.latency.p99,
    cpuPct: g.cpuPct,
    busyPct: g.busyPct,
    cpuPerCallUs: m.responses > 0 ? ((g.cpuPct / 100) * m.durationMs * 1000) / m.responses : NaN,
    ...use,
    bound,
    m,
  };
}

// ---------------------------------------------------------------------------------------------
// the bench

const errText = (x) => x.notOk.map(([k, n]) => `${k} ×${n}`).join(', ');
const range = (xs, f = (v) => v.toFixed(2)) => {
  const v = xs.filter(Number.isFinite).sort((p, q) => p - q);
  return v.length ? `${f(v[0])}–${f(v[v.length - 1])}` : '—';
};
const withRange = (xs, f) => `${f(median(xs))} (${range(xs, f)})`;
const n0 = (v) => (Number.isFinite(v) ? v.toFixed(0) : '—');
const logLine = (label, x) =>
  console.log(
    `  ${label} ${x.tool.padEnd(9)}: ${x.rps.toFixed(0)} calls/s OK (${x.calls} calls), p50 ${fmtUs(x.p50)}, p90 ${fmtUs(x.p90)}, ` +
      `p99 ${fmtUs(x.p99)}, client CPU ${n0(x.cpuPct)}% (${n0(x.cpuPerCallUs)} µs/call)` +
      (x.busyPct !== undefined ? `, busy ${n0(x.busyPct)}%` : '') +
      `, service ${n0(x.serverPct)}%, machine ${n0(x.machinePct)}% (other ${n0(x.otherPct)}%)` +
      (x.bound.length ? `, generator-bound (${x.bound.join(', ')})` : '') +
      (errText(x) ? `, not OK: ${errText(x)}` : ''),
  );

printMachine();
console.log(
  `## i. gRPC: perf-gate vs ghz ${ghzVersion}, unary vectordb.VectorDB/Search (BURN=${BURN}), ${seconds} s runs, ` +
    `${rounds} rounds, medians (dist/runner.mjs built ${runnerBuilt} UTC)\n`,
);

const server = await startServer(PORT);
const results = { closed: { pg: [], ghz: [] }, open: { pg: [], ghz: [] } };
try {
  // the service's warm-up, so that the first tool does not pay for it
  await ghz({ secs: 2 });
  const closedPhase = { kind: 'closed', name: `c${CONCURRENCY}`, connections: CONCURRENCY, durationMs: seconds * 1000 };
  const openPhase = {
    kind: 'open',
    name: `r${RATE}`,
    rate: RATE,
    durationMs: seconds * 1000,
    maxInFlight: CONCURRENCY,
  };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ['pg', 'ghz'] : ['ghz', 'pg'];
    console.log(`round ${r + 1}`);
    for (const tool of order) {
      const x = tool === 'pg' ? await perfGate(closedPhase) : await ghz();
      results.closed[tool].push(x);
      logLine(`closed c${CONCURRENCY}`, x);
    }
    for (const tool of order) {
      const x = tool === 'pg' ? await perfGate(openPhase) : await ghz({ rps: RATE });
      results.open[tool].push(x);
      logLine(`${RATE}/s     `, x);
    }
  }
  console.log('');

  const ratios = (kind, key) => results[kind].pg.map((x, i) => x[key] / results[kind].ghz[i][key]);
  const pctf = (v) => `${v.toFixed(0)}%`;
  const row = (x) => [
    x[0].tool,
    withRange(
      x.map((y) => y.rps),
      (v) => v.toFixed(0),
    ),
    fmtUs(median(x.map((y) => y.p50))),
    fmtUs(median(x.map((y) => y.p99))),
    withRange(
      x.map((y) => y.cpuPct),
      pctf,
    ),
    median(x.map((y) => y.cpuPerCallUs)).toFixed(0),
    pctf(median(x.map((y) => y.serverPct))),
    x[0].tool === 'perf-gate' ? `${x.filter((y) => y.bound.length).length} of ${x.length}` : '—',
    String(x.reduce((s, y) => s + y.notOk.reduce((t, [, n]) => t + n, 0), 0)),
  ];
  const header = (first) => [
    'tool',
    first,
    'p50',
    'p99',
    'client CPU',
    'client CPU µs/call',
    'service CPU',
    'generator-bound',
    'not OK',
  ];

  console.log(`1. throughput: closed loop, ${CONCURRENCY} calls in flight on 1 connection, ${seconds} s\n`);
  table(header('calls/s OK (range)'), [row(results.closed.pg), row(results.closed.ghz)]);
  const tr = ratios('closed', 'rps');
  console.log(
    `perf-gate ÷ ghz calls/s: ${ratio(median(results.closed.pg.map((x) => x.rps)), median(results.closed.ghz.map((x) => x.rps)))} ` +
      `from the medians; round by round ${median(tr).toFixed(2)} (${range(tr)}) (target ≥ 1.0)\n`,
  );

  console.log(
    `2. latency at ${RATE} calls/s (perf-gate open loop, max in flight ${CONCURRENCY}; ghz --rps=${RATE} -c ${CONCURRENCY}), ${seconds} s\n`,
  );
  table(header('achieved calls/s (range)'), [row(results.open.pg), row(results.open.ghz)]);
  const p50r = ratios('open', 'p50');
  const p99r = ratios('open', 'p99');
  const medP = (k, t) => median(results.open[t].map((x) => x[k]));
  console.log(
    `perf-gate ÷ ghz p50: ${ratio(medP('p50', 'pg'), medP('p50', 'ghz'))} from the medians; ` +
      `round by round ${median(p50r).toFixed(2)} (${range(p50r)}) (target 0.85–1.15, within 15%)`,
  );
  console.log(
    `perf-gate ÷ ghz p99: ${ratio(medP('p99', 'pg'), medP('p99', 'ghz'))} from the medians; ` +
      `round by round ${median(p99r).toFixed(2)} (${range(p99r)})\n`,
  );

  const all = [...results.closed.pg, ...results.closed.ghz, ...results.open.pg, ...results.open.ghz];
  console.log(
    `other work on the machine during the runs (busy CPU minus the service and the tool, % of one core of ${cpus().length}): ` +
      `median ${n0(median(all.map((x) => x.otherPct)))}%, ${range(
        all.map((x) => x.otherPct),
        (v) => `${v.toFixed(0)}%`,
      )}`,
  );
} finally {
  server.stop();
}

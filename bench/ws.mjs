// h. WebSocket: the messages per second (acks per second) one core sustains against the Go broker
// (fixtures/broker, pinned to the other core), perf-gate's runner (a `ws` phase, closed loop, with
// its ack/push/connect histograms) against a plain `ws` client loop written here: the same peers,
// the same hello, the same signed dm (same size), each peer sending its next dm right after its
// ack; pushes are counted but not timed, no histograms. The two take turns over the rounds (the
// order flips each round) and the table shows medians: this 2-core machine is noisy.
// Usage: node bench/ws.mjs [seconds=5] [peers=10,50] [rounds=3]
// `seconds` sizes the message count per peer from a 2 s calibration of the plain loop, so the plain
// loop takes about that long and perf-gate as long as it needs. Traffic goes to 127.0.0.1 only;
// every run is bounded by its message count and a hard timeout. No timing is asserted anywhere.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import {
  GENERATOR_CORE,
  ROOT,
  TARGET_CORE,
  fmtUs,
  generatorBoundReasons,
  median,
  printMachine,
  ratio,
  run,
  table,
  trialEvent,
} from './lib.mjs';

const BROKER = join(ROOT, 'fixtures/broker/bin/broker');
const RUNNER = join(ROOT, 'dist/runner.mjs');
// a body and the hex SHA-256 of its raw JSON bytes (quotes included): the broker checks it
const BODY = '"sealed:8f1c0e7a4b9d2f3e6a5c1b0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f"';
const SIG = '434d223b7313e2631be67fa05a8deae80002ac3ceb3d55de7dbd7131ffbe2a5a';
const WARMUP_MS = 1000;
const DRAIN_MS = 2000;
const TIMEOUT_MS = 10_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// The plain client loop (run as a child: `node bench/ws.mjs --plain JSON`, pinned like the runner)

function connectPeer(url, index, timeoutMs) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`peer ${index}: no welcome within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once('open', () => {
      socket.send(`{"type":"hello","peer":${index}}`);
      // the first message answers the hello: the broker has registered the peer
      socket.once('message', () => {
        clearTimeout(timer);
        resolve(socket);
      });
    });
  });
}

const ACK = '{"type":"ack","id":"';
const PUSH = '{"type":"push"';

/**
 * `peers` sockets, each sending `messages` dms to random other peers, the next right after the
 * last one's ack (or after `timeoutMs` without it); stops early after `sendForMs` (a warm-up).
 * Returns counts and the time from the first send to the last ack.
 */
async function plainPhase({ url, peers, messages, sendForMs, drainMs, timeoutMs }) {
  // CPU over the whole phase, connects to close, as the runner's generator.cpuPct
  const cpuAt = process.cpuUsage();
  const wallAt = performance.now();
  const sockets = await Promise.all(Array.from({ length: peers }, (_, i) => connectPeer(url, i, timeoutMs)));
  const nonce = randomBytes(4).toString('hex');
  let sent = 0;
  let acked = 0;
  let pushed = 0;
  let lastAckAt = 0;
  let sending = peers;
  const errors = {};
  const start = performance.now();
  return new Promise((resolve) => {
    let drainTimer;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(drainTimer);
      clearInterval(sweeper);
      for (const s of sockets) {
        s.removeAllListeners('message');
        s.on('error', () => undefined);
        s.close(1000);
      }
      if (sent > acked) errors['no-ack'] = sent - acked;
      const cpu = process.cpuUsage(cpuAt);
      const cpuPct = (cpu.user + cpu.system) / 10 / (performance.now() - wallAt);
      resolve({ sent, acked, pushed, durationMs: lastAckAt - start, cpuPct, errors });
    };
    const maybeDone = () => {
      if (sending > 0) return;
      if (pushed >= sent && acked >= sent) finish();
      else drainTimer ??= setTimeout(finish, drainMs);
    };
    const state = sockets.map((socket, index) => ({ socket, index, next: 0, waiting: '', since: 0, done: false }));
    const sendNext = (p, now) => {
      p.waiting = '';
      if (p.next >= messages || (sendForMs !== undefined && now - start >= sendForMs)) {
        p.done = true;
        sending--;
        maybeDone();
        return;
      }
      const id = `pg-${nonce}-${p.index}-${p.next++}`;
      let other = Math.floor(Math.random() * (peers - 1));
      if (other >= p.index) other++;
      p.waiting = id;
      p.since = now;
      sent++;
      p.socket.send(`{"type":"dm","id":"${id}","to":${other},"sig":"${SIG}","body":${BODY}}`);
    };
    for (const p of state) {
      p.socket.on('message', (data) => {
        const text = data.toString();
        if (text.startsWith(ACK)) {
          // {"type":"ack","id":"ID"}
          if (!p.done && text.slice(ACK.length, -2) === p.waiting) {
            acked++;
            lastAckAt = performance.now();
            sendNext(p, lastAckAt);
          }
        } else if (text.startsWith(PUSH)) {
          pushed++;
          if (sending === 0) maybeDone();
        } else {
          errors.unexpected = (errors.unexpected ?? 0) + 1;
        }
      });
      p.socket.on('close', () => {
        if (finished || p.done) return;
        errors.close = (errors.close ?? 0) + 1;
        p.done = true;
        sending--;
        maybeDone();
      });
    }
    // a lost ack lets its peer go on after the timeout, as perf-gate's sweep does
    const sweeper = setInterval(() => {
      const now = performance.now();
      for (const p of state) if (p.waiting && now - p.since > timeoutMs) sendNext(p, now);
    }, 100);
    for (const p of state) sendNext(p, performance.now());
  });
}

if (process.argv[2] === '--plain') {
  const o = JSON.parse(process.argv[3]);
  // a hard bound on the whole child, whatever happens
  setTimeout(() => {
    console.error('plain ws loop: hard timeout');
    process.exit(3);
  }, o.hardTimeoutMs).unref();
  if (o.warmupMs > 0) await plainPhase({ ...o, sendForMs: o.warmupMs, drainMs: Math.min(o.drainMs, 1000) });
  console.log('@@measure');
  const r = await plainPhase({ ...o, sendForMs: o.sendForMs });
  console.log(JSON.stringify(r));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// The bench

const seconds = Number(process.argv[2] ?? 5);
const peerCounts = String(process.argv[3] ?? '10,50')
  .split(',')
  .map(Number);
const rounds = Number(process.argv[4] ?? 3);
const hardTimeoutMs = (seconds * 10 + 60) * 1000;

for (const [what, f] of [
  ['the broker', BROKER],
  ['dist/runner.mjs', RUNNER],
]) {
  if (!existsSync(f)) {
    console.error(
      `bench: ${what} (${f}) is missing: cd fixtures/broker && CGO_ENABLED=0 go build -trimpath -o bin/broker . ; npm run build`,
    );
    process.exit(2);
  }
}

// one copy of the runner for the whole bench: a rebuild of dist/ meanwhile changes no round's code
const RUNNER_COPY = join(mkdtempSync(join(tmpdir(), 'perf-gate-bench-ws-')), 'runner.mjs');
copyFileSync(RUNNER, RUNNER_COPY);
const runnerBuilt = statSync(RUNNER).mtime.toISOString().slice(0, 16).replace('T', ' ');

/** The broker on 127.0.0.1:port, GOMAXPROCS=1, pinned to the target core. */
async function startBroker(port) {
  const child = spawn('taskset', ['-c', TARGET_CORE, BROKER], {
    env: { ...process.env, GOMAXPROCS: '1', LISTEN: `127.0.0.1:${port}` },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (log += d));
  for (let i = 0; i < 100 && !log.includes('listening on'); i++) {
    if (child.exitCode !== null) throw new Error(`broker exited: ${log}`);
    await sleep(50);
  }
  for (let i = 0; i < 100; i++) {
    try {
      if ((await globalThis.fetch(`http://127.0.0.1:${port}/health`)).ok) break;
    } catch {
      await sleep(50);
    }
  }
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    /** utime + stime from /proc (clock ticks of 10 ms), µs */
    cpuUs: () => {
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) * 10_000;
    },
    stop: () => child.kill('SIGKILL'),
  };
}

/** Runs a child with a hard timeout (SIGKILL), pinned to the generator core; `onData` sees its stdout as it comes. */
function bounded(args, onData) {
  let timer;
  return run('taskset', ['-c', GENERATOR_CORE, process.execPath, ...args], {
    onSpawn: (child) => {
      if (onData) child.stdout.on('data', onData);
      timer = setTimeout(() => child.kill('SIGKILL'), hardTimeoutMs);
      child.on('close', () => clearTimeout(timer));
    },
  });
}

/**
 * The broker's CPU (% of its core) over a tool's measured window: from the line that starts it to the
 * line that reports it, as they reach us (a pipe's delay, well under 1% of a 5 s window).
 */
function brokerWindow(startMark, endMark) {
  let a;
  let b;
  const snap = () => ({ cpu: broker.cpuUs(), at: performance.now() });
  return {
    onData: (d) => {
      if (!a && d.includes(startMark)) a = snap();
      if (a && !b && d.includes(endMark)) b = snap();
    },
    pct: () => (a && b && b.at > a.at ? (b.cpu - a.cpu) / 10 / (b.at - a.at) : NaN),
  };
}

async function plain(url, peers, messages, { warmupMs = WARMUP_MS, sendForMs } = {}) {
  const opts = { url, peers, messages, warmupMs, sendForMs, drainMs: DRAIN_MS, timeoutMs: TIMEOUT_MS, hardTimeoutMs };
  const w = brokerWindow('@@measure', '{"sent"');
  const r = JSON.parse(
    (await bounded([join(ROOT, 'bench/ws.mjs'), '--plain', JSON.stringify(opts)], w.onData))
      .split('\n')
      .find((l) => l.startsWith('{')),
  );
  return {
    rps: r.durationMs > 0 ? (r.acked / r.durationMs) * 1000 : NaN,
    cpuPct: r.cpuPct,
    cpuPerMsgUs: perMessageUs(r.cpuPct, r.durationMs, r.acked),
    brokerPct: w.pct(),
    delivery: r.sent > 0 ? r.pushed / r.sent : NaN,
    errors: r.errors,
    raw: r,
  };
}

async function perfGateWs(url, peers, messages) {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-ws-'));
  const plan = {
    version: 1,
    progressIntervalMs: 60_000,
    requestTimeoutMs: TIMEOUT_MS,
    workers: 1,
    ready: [],
    scenarios: [
      {
        name: 'bench',
        target: {
          kind: 'ws',
          websocket: {
            url,
            headers: {},
            hello: ['{"type":"hello","peer":{{peer}}}'],
            helloReply: true,
            message: `{"type":"dm","id":"{{id}}","to":{{other}},"sig":"${SIG}","body":${BODY}}`,
            drainMs: DRAIN_MS,
          },
        },
        warmupMs: WARMUP_MS,
        trials: 1,
        phases: [{ kind: 'ws', name: `p${peers}`, peers, messages }],
      },
    ],
  };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  const w = brokerWindow('"stage":"measure"', '"t":"trial"');
  const out = await bounded([RUNNER_COPY, join(dir, 'plan.json'), '--all'], w.onData);
  const trial = trialEvent(out);
  const m = trial.measurement;
  const g = m.generator;
  const bound = generatorBoundReasons(m);
  const push = trial.requests?.find((r) => r.name === 'push')?.measurement;
  return {
    rps: m.rps,
    p50: m.latency.p50,
    p99: m.latency.p99,
    pushP99: push?.latency.p99,
    cpuPct: g.cpuPct,
    cpuPerMsgUs: perMessageUs(g.cpuPct, m.durationMs, m.responses),
    brokerPct: w.pct(),
    busyPct: g.busyPct,
    delivery: m.delivery && m.delivery.sent > 0 ? m.delivery.delivered / m.delivery.sent : NaN,
    errors: m.errors,
    bound,
    m,
  };
}

/** generator CPU per acked message, µs: its CPU share over the phase × the measured window ÷ acks */
const perMessageUs = (cpuPct, durationMs, acks) => (acks > 0 ? ((cpuPct / 100) * durationMs * 1000) / acks : NaN);
const pct = (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(2)}%` : '—');
const errText = (e) =>
  Object.entries(e ?? {})
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');

printMachine();
const wsVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules/ws/package.json'), 'utf8')).version;
console.log(
  `## h. WebSocket broker, closed loop: perf-gate's runner vs a plain ws ${wsVersion} loop, ` +
    `~${seconds} s, peers ${peerCounts.join(', ')}, ${rounds} rounds, medians (dist/runner.mjs built ${runnerBuilt} UTC)\n`,
);
const broker = await startBroker(18190);
const rows = [];
const odd = [];
try {
  for (const peers of peerCounts) {
    // calibration (and the broker's warm-up): the plain loop's rate over 2 s sizes the phase
    const cal = await plain(broker.url, peers, 1e9, { warmupMs: 0, sendForMs: 2000 });
    const messages = Math.max(100, Math.round((cal.rps * seconds) / peers));
    console.log(`${peers} peers: calibration ${cal.rps.toFixed(0)} msg/s → ${messages} messages per peer`);
    const pg = [];
    const pl = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? ['pg', 'plain'] : ['plain', 'pg'];
      for (const tool of order) {
        if (tool === 'pg') {
          const x = await perfGateWs(broker.url, peers, messages);
          pg.push(x);
          console.log(
            `  round ${r + 1} perf-gate: ${x.rps.toFixed(0)} msg/s, p50 ${fmtUs(x.p50)}, p99 ${fmtUs(x.p99)}, ` +
              `push p99 ${fmtUs(x.pushP99)}, cpu ${x.cpuPct}% (${x.cpuPerMsgUs.toFixed(1)} µs/msg), busy ${x.busyPct}%, ` +
              `broker ${x.brokerPct.toFixed(0)}%, delivery ${pct(x.delivery)}` +
              (x.bound.length ? `, generator-bound (${x.bound.join(', ')})` : '') +
              (errText(x.errors) ? `, errors ${errText(x.errors)}` : ''),
          );
          if (x.delivery < 1 || errText(x.errors))
            odd.push(`perf-gate ${peers} peers round ${r + 1}: delivery ${pct(x.delivery)} ${errText(x.errors)}`);
        } else {
          const x = await plain(broker.url, peers, messages);
          pl.push(x);
          console.log(
            `  round ${r + 1} plain ws:  ${x.rps.toFixed(0)} msg/s, cpu ${x.cpuPct.toFixed(2)}% (${x.cpuPerMsgUs.toFixed(1)} µs/msg), ` +
              `broker ${x.brokerPct.toFixed(0)}%, delivery ${pct(x.delivery)}` +
              (errText(x.errors) ? `, errors ${errText(x.errors)}` : ''),
          );
          if (x.delivery < 1 || errText(x.errors))
            odd.push(`plain ${peers} peers round ${r + 1}: delivery ${pct(x.delivery)} ${errText(x.errors)}`);
        }
      }
    }
    const pgRps = median(pg.map((x) => x.rps));
    const plRps = median(pl.map((x) => x.rps));
    const ratios = pg.map((x, i) => x.rps / pl[i].rps).sort((a, b) => a - b);
    rows.push([
      String(peers),
      String(messages),
      pgRps.toFixed(0),
      plRps.toFixed(0),
      `${ratio(pgRps, plRps)} (${ratios[0].toFixed(2)}–${ratios[ratios.length - 1].toFixed(2)})`,
      fmtUs(median(pg.map((x) => x.p50))),
      fmtUs(median(pg.map((x) => x.p99))),
      `${median(pg.map((x) => x.cpuPerMsgUs)).toFixed(1)} / ${median(pl.map((x) => x.cpuPerMsgUs)).toFixed(1)}`,
      `${median(pg.map((x) => x.brokerPct)).toFixed(0)}% / ${median(pl.map((x) => x.brokerPct)).toFixed(0)}%`,
      `${pg.filter((x) => x.bound.length).length} of ${rounds}`,
      `${pct(Math.min(...pg.map((x) => x.delivery)))} / ${pct(Math.min(...pl.map((x) => x.delivery)))}`,
    ]);
  }
  console.log('');
  table(
    [
      'peers',
      'messages per peer',
      'perf-gate msg/s',
      'plain ws msg/s',
      'perf-gate ÷ plain (range)',
      'perf-gate ack p50',
      'perf-gate ack p99',
      'client CPU µs/msg pg / plain',
      'broker CPU pg / plain',
      'perf-gate generator-bound',
      'delivery pg / plain (min)',
    ],
    rows,
  );
  if (odd.length) console.log(`odd:\n${odd.map((o) => `- ${o}`).join('\n')}`);
} finally {
  broker.stop();
}

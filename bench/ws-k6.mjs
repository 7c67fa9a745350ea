// n. WebSocket ack latency at a per-peer rate, perf-gate vs k6, on the same echo server: `peers`
// sockets each sending `rate` messages per second for `seconds`, every message echoed by the server
// (a plain `ws` echo server in its own Node process, pinned to the target core; the load tools to the
// other). perf-gate runs a `ws` phase with `rate` and `push: none` (its runner, as the host hands
// it a plan); k6 runs k6/ws with one VU per peer and `socket.setInterval`, twice: (1) "k6 ping":
// each tick a ping, its round trip measured by k6 itself in Go (the built-in `ws_ping` Trend,
// sub-millisecond) — the server's pong answers it as the echo answers a message, so this is k6's
// µs-resolution round trip at the same rate; (2) "k6 message": each tick a message, its echo timed
// in the script — k6 gives a script no `performance.now()`, only `Date.now()`, so these are whole
// milliseconds (shown for reference, not for the ratio). Target: perf-gate's ack p50 ≤ 1.5× k6's
// (against k6 ping). Rounds interleaved (the order rotates), medians printed.
// Usage: node bench/ws-k6.mjs [seconds=10] [peers=20] [rate=50] [rounds=3]
// Needs k6 (bash bench/setup.sh: go install go.k6.io/k6). Traffic to 127.0.0.1 only; every run is
// bounded by its message count and a hard timeout. No timing is asserted anywhere.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GENERATOR_CORE,
  ROOT,
  TARGET_CORE,
  fmtUs,
  median,
  printMachine,
  ratio,
  run,
  table,
  trialEvent,
} from './lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const peers = Number(process.argv[3] ?? 20);
const rate = Number(process.argv[4] ?? 50);
const rounds = Number(process.argv[5] ?? 3);
const messages = Math.round(seconds * rate);
const PORT = 18291;
const URL_ = `ws://127.0.0.1:${PORT}/`;
const K6 = [process.env.K6, join(homedir(), 'go/bin/k6'), 'k6'].find(
  (k) => k && spawnSync(k, ['version'], { encoding: 'utf8' }).status === 0,
);
if (!K6) {
  console.error('k6 not found: bash bench/setup.sh (go install go.k6.io/k6), or K6=/path/to/k6');
  process.exit(2);
}
const k6Version = spawnSync(K6, ['version'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];

printMachine();
console.log(
  `## n. WebSocket ack at a per-peer rate: ${peers} peers × ${rate} msg/s for ${seconds} s (${messages} messages each), ${rounds} rounds; ${k6Version}\n`,
);

// the echo server: every text message straight back to its sender
const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-ws-k6-'));
writeFileSync(
  join(dir, 'echo.mjs'),
  `import { WebSocketServer } from ${JSON.stringify(join(ROOT, 'node_modules/ws/wrapper.mjs'))};\n` +
    `const wss = new WebSocketServer({ host: '127.0.0.1', port: ${PORT}, perMessageDeflate: false });\n` +
    `wss.on('connection', (ws) => ws.on('message', (d, binary) => ws.send(d, { binary })));\n` +
    `wss.on('listening', () => console.log('listening'));\n`,
);
const echo = spawn('taskset', ['-c', TARGET_CORE, process.execPath, join(dir, 'echo.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((resolve) => echo.stdout.once('data', resolve));

async function perfGate() {
  const plan = {
    version: 1,
    progressIntervalMs: 60_000,
    requestTimeoutMs: 10_000,
    workers: 1,
    ready: [],
    scenarios: [
      {
        name: 'bench',
        target: {
          kind: 'ws',
          websocket: {
            url: URL_,
            headers: {},
            hello: [],
            message: '{"id":"{{id}}","n":{{n}}}',
            drainMs: 2000,
            push: 'none',
          },
        },
        warmupMs: 1000,
        trials: 1,
        phases: [{ kind: 'ws', name: 'p', peers, messages, rate }],
      },
    ],
  };
  const file = join(dir, 'plan.json');
  writeFileSync(file, JSON.stringify(plan));
  const out = await run(
    'taskset',
    ['-c', GENERATOR_CORE, process.execPath, join(ROOT, 'dist/runner.mjs'), file, '--all'],
    {
      timeout: (seconds + 60) * 1000,
    },
  );
  const m = trialEvent(out).measurement;
  const timerUs = m.open ? m.open.delayUs.timer / Math.max(1, m.open.scheduled) : NaN;
  return { p50: m.latency.p50, p99: m.latency.p99, acks: m.responses, timerUs };
}

const K6_SCRIPT = join(dir, 'ws.js');
writeFileSync(
  K6_SCRIPT,
  `import ws from 'k6/ws';
import { Trend, Counter } from 'k6/metrics';
const ack = new Trend('ack', true);
const acks = new Counter('acks');
const HIRES = typeof performance !== 'undefined' && typeof performance.now === 'function';
const now = HIRES ? () => performance.now() : () => Date.now();
export const options = {
  scenarios: { peers: { executor: 'per-vu-iterations', vus: ${peers}, iterations: 1, maxDuration: '${seconds + 30}s' } },
  summaryTrendStats: ['p(50)', 'p(99)', 'avg', 'max'],
};
export default function () {
  ws.connect('${URL_}', {}, (socket) => {
    const sent = {};
    let n = 0;
    let got = 0;
    socket.on('open', () => {
      socket.setInterval(() => {
        if (n >= ${messages}) return;
        if (__ENV.MODE === 'ping') {
          n++;
          socket.ping();
          return;
        }
        const id = __VU + '-' + n;
        sent[id] = now();
        socket.send(JSON.stringify({ id, n: n++ }));
      }, ${1000 / rate});
    });
    socket.on('pong', () => {
      acks.add(1);
      if (++got >= ${messages}) socket.close();
    });
    socket.on('message', (d) => {
      const m = JSON.parse(d);
      const at = sent[m.id];
      if (at === undefined) return;
      ack.add(now() - at);
      acks.add(1);
      delete sent[m.id];
      if (++got >= ${messages}) socket.close();
    });
    socket.setTimeout(() => socket.close(), ${(seconds + 10) * 1000});
  });
}
`,
);

async function k6(mode) {
  const summary = join(dir, 'k6-summary.json');
  await run('taskset', ['-c', GENERATOR_CORE, K6, 'run', '--quiet', '--summary-export', summary, K6_SCRIPT], {
    timeout: (seconds + 60) * 1000,
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true', MODE: mode },
  });
  const s = JSON.parse(readFileSync(summary, 'utf8')).metrics;
  // Trend values in ms: the ping's round trip (k6's own, in Go), or the script's echo timing
  const t = mode === 'ping' ? s.ws_ping : s.ack;
  return { p50: t['p(50)'] * 1000, p99: t['p(99)'] * 1000, acks: s.acks.count };
}

const TOOLS = ['perf-gate', 'k6 ping', 'k6 message'];
const seen = Object.fromEntries(TOOLS.map((t) => [t, []]));
try {
  for (let r = 0; r < rounds; r++) {
    const order = TOOLS.map((_, i) => TOOLS[(i + r) % TOOLS.length]);
    for (const tool of order) {
      const res =
        tool === 'k6 ping' ? await k6('ping') : tool === 'k6 message' ? await k6('message') : await perfGate();
      seen[tool].push(res);
      console.log(
        `round ${r + 1} ${tool.padEnd(10)}: ack p50 ${fmtUs(res.p50)}, p99 ${fmtUs(res.p99)}, ${res.acks} acks` +
          (Number.isFinite(res.timerUs) ? `, timer lateness not charged ${fmtUs(res.timerUs)} a send` : ''),
      );
    }
  }
} finally {
  echo.kill('SIGTERM');
}
console.log(`\nk6 gives a script Date.now() only (no performance.now()): the k6 message rows are whole milliseconds\n`);
const row = (tool) => [
  tool,
  fmtUs(median(seen[tool].map((x) => x.p50))),
  fmtUs(median(seen[tool].map((x) => x.p99))),
  String(median(seen[tool].map((x) => x.acks))),
];
table(['tool', 'round trip p50 (median)', 'p99 (median)', 'answers'], TOOLS.map(row));
const p50s = seen['perf-gate'].map((x, i) => x.p50 / seen['k6 ping'][i].p50);
const r50 = ratio(median(seen['perf-gate'].map((x) => x.p50)), median(seen['k6 ping'].map((x) => x.p50)));
console.log(
  `\nperf-gate ack p50 ÷ k6 ping p50: ${r50} from the medians; round by round ${median(p50s).toFixed(2)} (${Math.min(...p50s).toFixed(2)}–${Math.max(...p50s).toFixed(2)}) (target ≤ 1.5: ${Number(r50) <= 1.5 ? 'met' : 'not met'})`,
);

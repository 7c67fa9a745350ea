// HTTP/2 closed loop: perf-gate's runner (an HTTP/2 plan: target `http: 2`, a closed phase with
// `streams` concurrent requests per connection) beside h2load (nghttp2-client, `-t 1 -c C -m S -D s`),
// both against nginx serving HTTP/2 twice: h2c (plaintext, prior knowledge) and h2 over TLS (ALPN, a
// self-signed certificate made at run time). nginx (one worker) on the target core, each client in
// turn on the generator core, on 127.0.0.1; rounds interleaved, medians printed. The nginx servers
// answer 505 to anything but HTTP/2, so a client that falls back to HTTP/1.1 fails instead of
// measuring the wrong protocol; a perf-gate run with any failure counts as failed. h2load's
// "Application protocol: h2c" is its own assumption (it prints it against an HTTP/1.1 server too);
// its requests succeeding against these servers is the proof that it spoke HTTP/2.
// Latency: perf-gate gives percentiles (p50, p99) and a mean; h2load's "time for request" row gives
// only min, max, mean and sd, no percentiles: its p50/p99 cells print "—", its mean and max are
// h2load's own (medians of the rounds'). perf-gate's 1 s warm-up is outside its window; h2load's -D
// window starts with its connections (TLS handshakes included).
// A failed perf-gate run (until the runner speaks HTTP/2) prints its error line and leaves its cells
// empty; h2load's rows are printed regardless.
// Target recorded later: HTTP/2 closed loop ≥ 0.6× h2load's req/s.
// Usage: node bench/h2.mjs [seconds=5] [connections=10] [streams=10] [rounds=3]
import { spawnSync } from 'node:child_process';
import { fmtUs, h2load, median, perfGate, printMachine, ratio, requireTools, startNginx, table } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 10);
const streams = Number(process.argv[4] ?? 10);
const rounds = Number(process.argv[5] ?? 3);
const TARGET = 0.6;
requireTools(['taskset', 'nginx', 'h2load', 'openssl']);
printMachine();
const h2loadVersion = spawnSync('h2load', ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(
  `## HTTP/2 closed loop: ${connections} connections × ${streams} streams, ${seconds} s each, ${rounds} rounds; ${h2loadVersion}\n`,
);

const phase = { kind: 'closed', name: 'h2', connections, streams, durationMs: seconds * 1000 };

/** perf-gate with an HTTP/2 plan; a run with failures or socket errors is not a measurement. */
async function perfGateH2(url) {
  const r = await perfGate(url, phase, { target: { http: 2 } });
  const m = r.measurement;
  const errors = Object.entries(m.errors ?? {});
  if (m.failures > 0 || errors.length > 0 || m.successes === 0)
    throw new Error(
      `perf-gate: ${m.successes} successes, ${m.failures} failures, status codes ${JSON.stringify(m.statusCodes)}, errors ${JSON.stringify(m.errors)}`,
    );
  return { ...r, mean: m.latency.mean, max: m.latency.max };
}

/** The first line of a failure worth printing (the runner's stderr tail starts after "exited N:"). */
const errorLine = (e) =>
  String(e?.message ?? e)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(' ')
    .slice(0, 400);

const modes = [
  { mode: 'h2c', label: 'h2c', port: 18193 },
  { mode: 'tls', label: 'TLS', port: 18194 },
];
const servers = {};
try {
  for (const { mode, port } of modes) servers[mode] = await startNginx(port, { http2: mode });
  const clients = {
    h2load: (url) => h2load(url, { connections, streams, seconds }),
    'perf-gate': perfGateH2,
  };
  const seen = {};
  const failed = {};
  const protocols = {};
  for (let r = 0; r < rounds; r++)
    for (const { mode, label } of modes)
      for (const [tool, go] of Object.entries(clients)) {
        const key = `${tool} (${label})`;
        seen[key] ??= [];
        try {
          const res = await go(servers[mode].url);
          seen[key].push(res);
          if (tool === 'h2load') {
            protocols[label] ??= `${res.protocol}${res.tls ? ` over ${res.tls}, ${res.cipher}` : ''}`;
            if (res.failed > 0) console.log(`${key}, round ${r + 1}: ${res.failed} of its requests failed`);
          }
        } catch (e) {
          failed[key] = errorLine(e);
          console.log(`${key}, round ${r + 1}: failed: ${failed[key]}`);
        }
      }
  if (Object.keys(failed).length) console.log('');
  console.log(
    `h2load's application protocol: ${modes.map(({ label }) => `${label}: ${protocols[label] ?? 'no run succeeded'}`).join('; ')}\n`,
  );

  const rows = Object.entries(seen).map(([name, rs]) => ({
    name,
    runs: rs.length,
    rps: median(rs.map((x) => x.rps)),
    p50: median(rs.map((x) => x.p50)),
    p99: median(rs.map((x) => x.p99)),
    mean: median(rs.map((x) => x.mean)),
    max: median(rs.map((x) => x.max)),
  }));
  table(
    ['run', 'runs', 'req/s (median)', 'p50', 'p99', 'mean', 'max'],
    rows.map((x) => [
      x.name,
      `${x.runs}/${rounds}`,
      Number.isFinite(x.rps) ? x.rps.toFixed(0) : '—',
      fmtUs(x.p50),
      fmtUs(x.p99),
      fmtUs(x.mean),
      fmtUs(x.max),
    ]),
  );
  const by = Object.fromEntries(rows.map((x) => [x.name, x.rps]));
  for (const { label } of modes) {
    const x = ratio(by[`perf-gate (${label})`], by[`h2load (${label})`]);
    const verdict = x === '—' ? 'not measured' : Number(x) >= TARGET ? 'met' : 'not met';
    console.log(`perf-gate ÷ h2load req/s (${label}) = ${x} (target ≥ ${TARGET}: ${verdict})`);
  }
} finally {
  for (const s of Object.values(servers)) s.stop();
}

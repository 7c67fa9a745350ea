// c. Coordinated omission: a service that holds every request for 1 s in every 5 s, driven at
// 200 req/s. A fifth of arrivals wait 0–1 s (uniformly), so the truth is p90 ≈ 500 ms, p99 ≈ 950 ms.
// perf-gate's open loop (latency from the scheduled send time) vs closed loops on the same service.
// Target: perf-gate open loop within 10% of the truth.
// Usage: node bench/coordinated-omission.mjs [seconds=30]
import { autocannon, fmtUs, perfGate, printMachine, ratio, requireTools, startTarget, table } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 30);
requireTools(['taskset']);
printMachine();
console.log(`## c. coordinated omission: stall 1 s every 5 s, ${seconds} s runs\n`);
const truth = { p90: 500_000, p99: 950_000 };
const target = await startTarget(18183, { STALL_EVERY: '5s', STALL_FOR: '1s' });
try {
  const open = await perfGate(
    target.url,
    { kind: 'open', name: 'r200', rate: 200, durationMs: seconds * 1000, maxInFlight: 1000 },
    { warmupMs: 0 },
  );
  const closed = await perfGate(
    target.url,
    { kind: 'closed', name: 'c10', connections: 10, durationMs: seconds * 1000 },
    { warmupMs: 0 },
  );
  const ac = await autocannon(target.url, { connections: 10, seconds });
  table(
    ['measured by', 'req/s', 'p50', 'p90', 'p99', 'p90 ÷ truth', 'p99 ÷ truth'],
    [
      ['truth (analytical)', '200', '≈ 0', fmtUs(truth.p90), fmtUs(truth.p99), '1.00', '1.00'],
      ...[open, closed, ac].map((r) => [
        r.tool === 'autocannon'
          ? 'autocannon -c 10 (closed loop)'
          : r.tool === 'perf-gate open loop'
            ? 'perf-gate open loop, 200 req/s'
            : 'perf-gate closed loop, 10 connections',
        r.rps.toFixed(0),
        fmtUs(r.p50),
        fmtUs(r.p90),
        fmtUs(r.p99),
        ratio(r.p90, truth.p90),
        ratio(r.p99, truth.p99),
      ]),
    ],
  );
  const o = open.measurement.open;
  console.log(`open loop: ${o.scheduled} scheduled, ${o.late} late, ${o.unfinished} unfinished`);
} finally {
  target.stop();
}

// a. Throughput on one core: perf-gate's closed-loop engine vs wrk, hey and plain autocannon against
// one fast target (the fixture service, no delay), generator on one core, target on the other.
// Target: perf-gate ≥ 0.6× wrk and within 10% of plain autocannon.
// Usage: node bench/throughput.mjs [seconds=10] [connections=50]
import { autocannon, hey, perfGate, printMachine, ratio, requireTools, startTarget, table, wrk } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
requireTools(['wrk', 'hey', 'taskset']);
printMachine();
console.log(`## a. throughput: ${connections} connections, ${seconds} s each, same target\n`);
const target = await startTarget(18181);
try {
  // one short warm-up of the target so that the first tool does not pay for it
  await wrk(target.url, { connections, seconds: 2 });
  const results = [];
  results.push(await wrk(target.url, { connections, seconds }));
  results.push(await hey(target.url, { connections, seconds }));
  results.push(await autocannon(target.url, { connections, seconds }));
  results.push(await perfGate(target.url, { kind: 'closed', name: 'c', connections, durationMs: seconds * 1000 }));
  const byTool = Object.fromEntries(results.map((r) => [r.tool, r.rps]));
  const pg = byTool['perf-gate closed loop'];
  table(
    ['tool', 'req/s', 'perf-gate ÷ tool'],
    results.map((r) => [r.tool, r.rps.toFixed(0), ratio(pg, r.rps)]),
  );
  console.log(`perf-gate ÷ wrk = ${ratio(pg, byTool.wrk)} (target ≥ 0.6)`);
  console.log(`perf-gate ÷ autocannon = ${ratio(pg, byTool.autocannon)} (target ≥ 0.9)`);
} finally {
  target.stop();
}

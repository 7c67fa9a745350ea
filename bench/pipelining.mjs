// l. Pipelining on the socket engine: perf-gate's closed loop without pipelining and with
// `pipelining: N`, beside autocannon with the same -p, against one fast target (the fixture
// service), generator on one core, target on the other; rounds interleaved, medians printed.
// With PERF_GATE_BEFORE=<an older dist/runner.mjs> it also runs that build without pipelining: the
// ratio says whether the pipelining queue cost the one-request-per-connection hot path anything.
// Usage: node bench/pipelining.mjs [seconds=5] [connections=10] [pipelining=10] [rounds=3]
import { autocannon, perfGate, printMachine, ratio, requireTools, startTarget, table } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 10);
const depth = Number(process.argv[4] ?? 10);
const rounds = Number(process.argv[5] ?? 3);
const before = process.env.PERF_GATE_BEFORE;
requireTools(['taskset']);
printMachine();
console.log(`## l. pipelining: ${connections} connections, ${seconds} s each, ${rounds} rounds, same target\n`);

const phase = (pipelining) => ({
  kind: 'closed',
  name: 'c',
  connections,
  durationMs: seconds * 1000,
  ...(pipelining > 1 ? { pipelining } : {}),
});
const runs = {
  'perf-gate, no pipelining': () => perfGate(target.url, phase(1)),
  [`perf-gate, pipelining ${depth}`]: () => perfGate(target.url, phase(depth)),
  'autocannon, no pipelining': () => autocannon(target.url, { connections, seconds }),
  [`autocannon, -p ${depth}`]: () => autocannon(target.url, { connections, seconds, pipelining: depth }),
};
if (before)
  runs['perf-gate before (PERF_GATE_BEFORE), no pipelining'] = () => perfGate(target.url, phase(1), { runner: before });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const target = await startTarget(18182);
try {
  await perfGate(target.url, phase(1));
  const seen = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) for (const [name, go] of Object.entries(runs)) seen[name].push(await go());
  const rows = Object.entries(seen).map(([name, rs]) => ({
    name,
    rps: median(rs.map((x) => x.rps)),
    p50: median(rs.map((x) => x.p50)),
    p99: median(rs.map((x) => x.p99)),
  }));
  table(
    ['run', 'req/s (median)', 'p50 µs', 'p99 µs'],
    rows.map((x) => [x.name, x.rps.toFixed(0), x.p50.toFixed(0), x.p99.toFixed(0)]),
  );
  const by = Object.fromEntries(rows.map((x) => [x.name, x.rps]));
  console.log(
    `perf-gate pipelining ${depth} ÷ no pipelining = ${ratio(by[`perf-gate, pipelining ${depth}`], by['perf-gate, no pipelining'])}`,
  );
  console.log(
    `perf-gate ÷ autocannon, both -p ${depth} = ${ratio(by[`perf-gate, pipelining ${depth}`], by[`autocannon, -p ${depth}`])}`,
  );
  if (before) {
    console.log(
      `perf-gate now ÷ before, no pipelining = ${ratio(by['perf-gate, no pipelining'], by['perf-gate before (PERF_GATE_BEFORE), no pipelining'])}`,
    );
  }
} finally {
  target.stop();
}

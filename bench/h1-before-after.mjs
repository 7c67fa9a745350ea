// o. HTTP/1.1 on the socket engine before and after a change: the runner of this tree
// (dist/runner.mjs) beside an older build (PERF_GATE_BEFORE=<its runner.mjs>, e.g. from
// `git show <commit>:dist/runner.mjs`), on section e's nginx (one worker pinned to the target core,
// the runners to the other): a closed loop (req/s) and an open loop at a fixed rate (p50, p99),
// rounds interleaved (the order flips each round), medians and the ratios now ÷ before printed.
// Section e's target for a change of the engine: HTTP/1.1 figures unchanged or better.
// Usage: PERF_GATE_BEFORE=/tmp/runner-before.mjs node bench/h1-before-after.mjs [seconds=5] [connections=50] [rate=10000] [rounds=3]
// Traffic to 127.0.0.1 only; every run bounded by its duration. No timing is asserted anywhere.
import { fmtUs, median, perfGate, printMachine, ratio, requireTools, startNginx, table } from './lib.mjs';

const before = process.env.PERF_GATE_BEFORE;
if (!before) {
  console.error('PERF_GATE_BEFORE=<an older dist/runner.mjs> is required');
  process.exit(2);
}
const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 50);
const rate = Number(process.argv[4] ?? 10_000);
const rounds = Number(process.argv[5] ?? 3);
requireTools(['taskset', 'nginx']);
printMachine();
console.log(
  `## o. HTTP/1.1 before and after: closed loop ${connections} connections and open loop ${rate}/s, ${seconds} s each, ${rounds} rounds\n`,
);

const closed = { kind: 'closed', name: 'c', connections, durationMs: seconds * 1000 };
const open = { kind: 'open', name: 'r', rate, durationMs: seconds * 1000, maxInFlight: 1000 };
const nginx = await startNginx(18183);
const seen = { now: { closed: [], open: [] }, before: { closed: [], open: [] } };
try {
  await perfGate(nginx.url, closed);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ['now', 'before'] : ['before', 'now'];
    for (const which of order) {
      const runner = which === 'before' ? { runner: before } : {};
      const c = await perfGate(nginx.url, closed, runner);
      const o = await perfGate(nginx.url, open, runner);
      seen[which].closed.push(c);
      seen[which].open.push(o);
      console.log(
        `round ${r + 1} ${which.padEnd(6)}: closed ${c.rps.toFixed(0)} req/s p50 ${fmtUs(c.p50)}; open p50 ${fmtUs(o.p50)} p99 ${fmtUs(o.p99)}`,
      );
    }
  }
} finally {
  await nginx.stop();
}
const m = (xs, k) => median(xs.map((x) => x[k]));
table(
  ['runner', 'closed req/s', 'closed p50', `open ${rate}/s p50`, `open ${rate}/s p99`],
  ['now', 'before'].map((w) => [
    w,
    m(seen[w].closed, 'rps').toFixed(0),
    fmtUs(m(seen[w].closed, 'p50')),
    fmtUs(m(seen[w].open, 'p50')),
    fmtUs(m(seen[w].open, 'p99')),
  ]),
);
console.log(
  `\nnow ÷ before, closed req/s: ${ratio(m(seen.now.closed, 'rps'), m(seen.before.closed, 'rps'))} (≥ 1 is unchanged or better)`,
);
console.log(
  `now ÷ before, open p50: ${ratio(m(seen.now.open, 'p50'), m(seen.before.open, 'p50'))} (≤ 1 is unchanged or better)`,
);
console.log(`now ÷ before, open p99: ${ratio(m(seen.now.open, 'p99'), m(seen.before.open, 'p99'))}`);

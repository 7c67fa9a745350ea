// b. Accuracy on fixed-latency services (1 ms and 5 ms): perf-gate's p50/p99 (µs histograms) vs wrk's,
// same connections and duration. The service's own latency drifts from run to run, so the tools take
// turns over several rounds and each row is the median of its rounds. Target: p50 within 5% of wrk's.
// Usage: node bench/accuracy.mjs [seconds=5] [connections=2,10] [rounds=5]
import { autocannon, fmtUs, perfGate, printMachine, ratio, requireTools, startTarget, table, wrk } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 5);
const ladder = String(process.argv[3] ?? '2,10')
  .split(',')
  .map(Number);
const rounds = Number(process.argv[4] ?? 5);
requireTools(['wrk', 'taskset']);
printMachine();
console.log(`## b. accuracy: ${ladder.join(' and ')} connections, ${seconds} s per run, median of ${rounds} rounds\n`);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const toolsFor = (connections) => ({
  wrk: (url) => wrk(url, { connections, seconds }),
  'perf-gate closed loop': (url) =>
    perfGate(url, { kind: 'closed', name: 'c', connections, durationMs: seconds * 1000 }),
  autocannon: (url) => autocannon(url, { connections, seconds }),
});
const rows = [];
for (const [delay, connections] of ['1ms', '5ms'].flatMap((d) => ladder.map((c) => [d, c]))) {
  const tools = toolsFor(connections);
  const target = await startTarget(18182, { DELAY: delay });
  const got = Object.fromEntries(Object.keys(tools).map((t) => [t, []]));
  try {
    for (let r = 0; r < rounds; r++) {
      // alternate the order so that no tool always runs first after a change of the service's mood
      const order = r % 2 ? Object.keys(tools).reverse() : Object.keys(tools);
      for (const name of order) got[name].push(await tools[name](target.url));
    }
  } finally {
    target.stop();
  }
  const med = (name, key) => median(got[name].map((x) => x[key]));
  const pairs = got['wrk'].map((w, i) => got['perf-gate closed loop'][i].p50 / w.p50);
  for (const name of Object.keys(tools)) {
    rows.push([
      delay,
      String(connections),
      name,
      fmtUs(med(name, 'p50')),
      fmtUs(med(name, 'p99')),
      ratio(med(name, 'p50'), med('wrk', 'p50')),
      ratio(med(name, 'p99'), med('wrk', 'p99')),
    ]);
  }
  console.log(
    `${delay}, ${connections} connections: perf-gate p50 ÷ wrk p50 per round: ${pairs.map((x) => x.toFixed(2)).join(', ')}`,
  );
}
console.log('');
table(['service', 'connections', 'tool', 'p50 (median)', 'p99 (median)', 'p50 ÷ wrk', 'p99 ÷ wrk'], rows);
console.log('target: perf-gate p50 ÷ wrk within 0.95–1.05 (autocannon shown for its whole-millisecond truncation)');

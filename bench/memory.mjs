// d. Memory: the runner's RSS over a long open-loop phase at the highest rate it sustains here.
// First finds that rate (short probes, doubling: sustained = under 1% late sends, no unfinished
// requests, under 90% of one core), then runs one phase of `minutes` and samples VmRSS every 5 s.
// Target: RSS growth under 20 MB over 5 minutes (from the first sample after 10 s).
// Usage: node bench/memory.mjs [minutes=5] [startRate=1000]
import { readFileSync } from 'node:fs';
import { perfGate, printMachine, requireTools, startTarget, table } from './lib.mjs';

const minutes = Number(process.argv[2] ?? 5);
let rate = Number(process.argv[3] ?? 1000);
requireTools(['taskset']);
printMachine();
const target = await startTarget(18184);

function sustained(m) {
  const o = m.open;
  return o.lateGenerator / o.scheduled < 0.01 && o.unfinished === 0 && m.generator.cpuPct < 90;
}

function rssMiB(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

try {
  console.log('## d. memory: finding the highest sustained open-loop rate (5 s probes)\n');
  const probes = [];
  let best = 0;
  for (let i = 0; i < 8; i++) {
    const r = await perfGate(target.url, { kind: 'open', name: 'p', rate, durationMs: 5000, maxInFlight: 1000 });
    const ok = sustained(r.measurement);
    probes.push([
      String(rate),
      r.rps.toFixed(0),
      String(r.measurement.open.lateGenerator),
      `${r.measurement.generator.cpuPct}%`,
      ok ? 'yes' : 'no',
    ]);
    if (!ok) break;
    best = rate;
    rate *= 2;
  }
  table(['offered req/s', 'achieved', 'late sends', 'runner CPU', 'sustained'], probes);
  if (best === 0) throw new Error('no probe rate was sustained; start lower');
  // the run itself at 80% of the last sustained doubling's rate would leave margin; use the rate itself
  console.log(`## d. memory: ${minutes} min at ${best} req/s, VmRSS every 5 s\n`);
  const samples = [];
  let timer;
  const r = await perfGate(
    target.url,
    { kind: 'open', name: 'long', rate: best, durationMs: minutes * 60_000, maxInFlight: 1000 },
    {
      warmupMs: 0,
      onSpawn: (child) => {
        const t0 = Date.now();
        timer = setInterval(() => samples.push([(Date.now() - t0) / 1000, rssMiB(child.pid)]), 5000);
      },
    },
  );
  clearInterval(timer);
  const valid = samples.filter(([, v]) => Number.isFinite(v));
  const after10 = valid.find(([t]) => t >= 10) ?? valid[0];
  const last = valid[valid.length - 1];
  const peak = Math.max(...valid.map(([, v]) => v));
  const every = valid.filter((_, i) => i % 6 === 0 || i === valid.length - 1);
  table(
    ['t (s)', 'RSS (MiB)'],
    every.map(([t, v]) => [t.toFixed(0), v.toFixed(1)]),
  );
  console.log(
    `achieved ${r.rps.toFixed(0)} req/s, p99 ${(r.p99 / 1000).toFixed(2)} ms, late (generator) ${r.measurement.open.lateGenerator}, unfinished ${r.measurement.open.unfinished}`,
  );
  console.log(
    `RSS at 10 s ${after10[1].toFixed(1)} MiB, at end ${last[1].toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB: growth ${(last[1] - after10[1]).toFixed(1)} MiB (target < 20 MB)`,
  );
} finally {
  target.stop();
}

// Issue 8's table, side by side in one run: perf-gate's socket engine against oha (open loop, latency
// corrected) and wrk (closed loop) on nginx, plus the 300 µs-of-CPU Go service against wrk.
//   a. highest open-loop rate each sustains on one core (under 1% late, p99 under 10 ms)
//   b. p50/p99 at 2k/10k/20k req/s, perf-gate and oha taking turns (median over rounds)
//   c. closed loop, 50 connections: wrk, perf-gate, autocannon, hey
//   d. the 300 µs-CPU service on one connection: wrk, perf-gate closed loop, perf-gate open loop
//   e. runner.workers 1 → 2 (two cores: the target shares one with a worker)
// Usage: node bench/open-loop.mjs [seconds] [rounds]. Traffic goes to 127.0.0.1 only; every run is
// bounded by its duration. No timing is asserted anywhere; these are measurements.
import {
  autocannon,
  fmtUs,
  hey,
  median,
  oha,
  perfGate,
  printMachine,
  ratio,
  requireTools,
  startNginx,
  startTarget,
  table,
  wrk,
} from './lib.mjs';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
requireTools(['wrk', 'hey', 'oha', 'nginx', 'taskset']);
printMachine();

const openPhase = (rate, workersNote = '') => ({
  kind: 'open',
  name: `r${rate}${workersNote}`,
  rate,
  durationMs: seconds * 1000,
  maxInFlight: 1000,
});

/** perf-gate sustained a rate: its generator kept the schedule (under 1% late for itself), nothing unfinished, p99 < 10 ms */
function pgSustained(r) {
  const o = r.measurement.open;
  return o.lateGenerator / o.scheduled < 0.01 && o.unfinished === 0 && r.p99 < 10_000;
}
/** oha sustained a rate: it achieved 99% of it with p99 < 10 ms */
const ohaSustained = (r, rate) => r.rps >= 0.99 * rate && r.p99 < 10_000;

const nginx = await startNginx(18088);
const go = await startTarget(18089, { BURN: '300us' });
try {
  // a. highest sustained rate on one core
  const ladder = [5000, 10_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000];
  const top = { pg: 0, oha: 0 };
  const rows = [];
  let pgStopped = false;
  let ohaStopped = false;
  for (const rate of ladder) {
    // each tool climbs until its first rate not sustained
    const pg = pgStopped ? undefined : await perfGate(nginx.url, openPhase(rate));
    const o = ohaStopped ? undefined : await oha(nginx.url, { rate, seconds });
    const pgOk = pg ? pgSustained(pg) : false;
    const ohaOk = o ? ohaSustained(o, rate) : false;
    if (pgOk) top.pg = rate;
    else pgStopped = true;
    if (ohaOk) top.oha = rate;
    else ohaStopped = true;
    rows.push([
      String(rate),
      pg
        ? `${fmtUs(pg.p99)}, ${((pg.measurement.open.lateGenerator / pg.measurement.open.scheduled) * 100).toFixed(2)}% late (generator), busy ${Math.round(pg.measurement.generator.busyPct)}%`
        : '—',
      o ? `${Math.round(o.rps)} req/s, p99 ${fmtUs(o.p99)}` : '—',
      o ? (ohaOk ? 'yes' : 'no') : '—',
      pg ? (pgOk ? 'yes' : 'no') : '—',
    ]);
    if (pgStopped && ohaStopped) break;
  }
  console.log('a. highest open-loop rate sustained on one core (nginx on the other)\n');
  table(
    [
      'offered req/s',
      'perf-gate p99, late, busiest thread',
      'oha achieved, p99',
      'oha sustained',
      'perf-gate sustained',
    ],
    rows,
  );
  console.log(`highest sustained: perf-gate ${top.pg} req/s, oha ${top.oha} req/s\n`);

  // b. p50/p99 at fixed rates, taking turns
  const rateRows = [];
  for (const rate of [2000, 10_000, 20_000]) {
    const pgs = [];
    const ohas = [];
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? ['pg', 'oha'] : ['oha', 'pg'];
      for (const t of order) {
        if (t === 'pg') pgs.push(await perfGate(nginx.url, openPhase(rate)));
        else ohas.push(await oha(nginx.url, { rate, seconds }));
      }
    }
    const m = (xs, k) => median(xs.map((x) => x[k]));
    const flagged = pgs.filter((r) => !pgSustained(r)).length;
    rateRows.push([
      String(rate),
      `${fmtUs(m(ohas, 'p50'))} / ${fmtUs(m(ohas, 'p99'))}`,
      `${fmtUs(m(pgs, 'p50'))} / ${fmtUs(m(pgs, 'p99'))}`,
      ratio(m(pgs, 'p50'), m(ohas, 'p50')),
      ratio(m(pgs, 'p99'), m(ohas, 'p99')),
      `${flagged} of ${rounds}`,
      pgs.map((r) => `${fmtUs(r.p99)}`).join(', '),
      ohas.map((r) => `${fmtUs(r.p99)}`).join(', '),
    ]);
  }
  console.log(`b. open loop on nginx, ${rounds} rounds of ${seconds} s, taking turns; medians\n`);
  table(
    [
      'req/s',
      'oha p50 / p99',
      'perf-gate p50 / p99',
      'p50 ÷ oha',
      'p99 ÷ oha',
      'perf-gate rounds not sustained',
      'perf-gate p99 per round',
      'oha p99 per round',
    ],
    rateRows,
  );

  // c. closed loop on nginx
  const closedRows = [];
  const res = { wrk: [], pg: [], ac: [], hey: [] };
  for (let i = 0; i < Math.max(2, rounds - 1); i++) {
    res.wrk.push(await wrk(nginx.url, { connections: 50, seconds }));
    res.pg.push(
      await perfGate(nginx.url, { kind: 'closed', name: 'c50', connections: 50, durationMs: seconds * 1000 }),
    );
    res.ac.push(await autocannon(nginx.url, { connections: 50, seconds }));
    res.hey.push(await hey(nginx.url, { connections: 50, seconds }));
  }
  const rps = (k) => median(res[k].map((r) => r.rps));
  for (const [k, name] of [
    ['wrk', 'wrk'],
    ['pg', 'perf-gate closed loop (socket engine)'],
    ['ac', 'autocannon'],
    ['hey', 'hey'],
  ])
    closedRows.push([
      name,
      String(Math.round(rps(k))),
      ratio(rps('pg'), rps(k)),
      res[k].map((r) => Math.round(r.rps)).join(', '),
    ]);
  console.log('c. closed loop on nginx, 50 connections, one core; medians\n');
  table(['tool', 'req/s', 'perf-gate ÷ tool', 'per round'], closedRows);

  // d. the 300 µs-CPU service, one connection
  const w1 = [];
  const pc1 = [];
  const po1 = [];
  for (let i = 0; i < rounds; i++) {
    w1.push(await wrk(go.url, { connections: 1, seconds }));
    pc1.push(await perfGate(go.url, { kind: 'closed', name: 'c1', connections: 1, durationMs: seconds * 1000 }));
    po1.push(await perfGate(go.url, openPhase(1000)));
  }
  const p50 = (xs) => median(xs.map((x) => x.p50));
  console.log('d. Go service burning 300 µs of CPU per request; medians\n');
  table(
    ['tool', 'p50', 'p50 ÷ wrk'],
    [
      ['wrk, 1 connection', fmtUs(p50(w1)), '1.00'],
      ['perf-gate closed loop, 1 connection', fmtUs(p50(pc1)), ratio(p50(pc1), p50(w1))],
      ['perf-gate open loop, 1000 req/s', fmtUs(p50(po1)), ratio(p50(po1), p50(w1))],
    ],
  );

  // e. workers 1 → 2: the highest sustained rate with one worker on one core, two workers on both
  const scale = [];
  let one = 0;
  let two = 0;
  let oneStopped = false;
  let twoStopped = false;
  for (const rate of [10_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 60_000]) {
    const r1 = oneStopped ? undefined : await perfGate(nginx.url, openPhase(rate));
    const r2 = twoStopped ? undefined : await perfGate(nginx.url, openPhase(rate, 'w2'), { workers: 2, cores: '0,1' });
    if (r1 && pgSustained(r1)) one = rate;
    else oneStopped = true;
    if (r2 && pgSustained(r2)) two = rate;
    else twoStopped = true;
    scale.push([
      String(rate),
      r1 ? (pgSustained(r1) ? 'yes' : 'no') : '—',
      r2 ? (pgSustained(r2) ? 'yes' : 'no') : '—',
      r1 ? fmtUs(r1.p99) : '—',
      r2 ? fmtUs(r2.p99) : '—',
    ]);
    if (oneStopped && twoStopped) break;
  }
  console.log('e. runner.workers: 1 worker on core 0, 2 workers on cores 0 and 1 (nginx shares core 1)\n');
  table(['offered req/s', '1 worker sustained', '2 workers sustained', '1 worker p99', '2 workers p99'], scale);
  console.log(`workers 1 → 2: ${one} → ${two} req/s (${ratio(two, one)}×; the target shares a core with a worker)\n`);
} finally {
  nginx.stop();
  go.stop();
}

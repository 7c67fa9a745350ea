// Runner replicas on a nested Docker Swarm (scripts/dind-swarm.sh): three nodes on this one machine,
// the SUT (the Go test service, no delay) on node 1, runner replicas on nodes 2 and 3, each replica
// limited to one CPU. Side by side in one run:
//   1. the highest open-loop rate sustained by 1 replica and by 2 (a sweep of rates; sustained: no
//      errors, every scheduled send answered, not generator-bound);
//   2. merged percentiles of 2 replicas against 1 generator at the same total rate, rounds alternating;
//   3. the start skew between replicas, over every trial with 2.
// All of it shares this machine's cores: the nodes are containers, so 2 replicas against 1 is bounded
// by the cores, not by the swarm. Traffic stays inside the test swarm's own networks.
// Usage: node bench/distributed.mjs [--rounds 3] [--skip-sweep]   (needs the node image: scripts/provision-dind-node.sh)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 3) || 3;
// --skip-sweep: only parts 2 and 3 (the sweep takes about 5 minutes)
const skipSweep = process.argv.includes('--skip-sweep');
const NAME = `pgbench${process.pid}`;
const CLI = join(ROOT, 'dist/cli.js');

function sh(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 900_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bench-dist-'));
writeFileSync(
  join(dir, 'docker-compose.yml'),
  `version: '3.8'
services:
  api:
    image: perf-gate/sut:local
    deploy:
      endpoint_mode: dnsrr
      placement: { constraints: ['node.labels.bench==sut'] }
`,
);

function config(file, replicas, scenario) {
  writeFileSync(
    join(dir, file),
    `version: 1
sut:
  compose: docker-compose.yml
  orchestrator: swarm
  ready: [{ url: http://api:8080/health }]
runner:
  image: perf-gate/node:local
  replicas: ${replicas}
  cpus: 1
  placement: { constraints: ['node.labels.bench==load'], max-per-node: 1 }
scenarios:
${scenario}
`,
  );
  return join(dir, file);
}

const LADDER = [4000, 8000, 12000, 16000, 20000, 24000, 28000, 32000, 36000, 40000];
const sweepScenario = `  - name: rate
    request: { url: http://api:8080/work }
    warmup: 1s
    phases: [{ name: r1000, rate: 1000, duration: 2s }]
    sweep: { rate: [${LADDER.join(', ')}], duration: 3s, warmup: 1s }`;
const SAME_RATE = 2000;
const latencyScenario = `  - name: same
    request: { url: http://api:8080/work }
    warmup: 1s
    trials: 3
    phases: [{ name: r${SAME_RATE}, rate: ${SAME_RATE}, duration: 5s, max-in-flight: 200 }]`;

function run(configFile, mode, env, tag) {
  const out = join(dir, tag);
  const r = spawnSync(
    process.execPath,
    [CLI, 'run', '--config', configFile, '--mode', mode, '--baseline-dir', join(dir, `b-${tag}`), '--out', out],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env, GITHUB_EVENT_NAME: '' }, timeout: 1_800_000 },
  );
  if (r.status !== 0) throw new Error(`${tag}: exit ${r.status}: ${r.stderr.split('\n').slice(-3).join(' | ')}`);
  return JSON.parse(readFileSync(join(out, 'perf-gate-results.json'), 'utf8'));
}

const sustained = (phase) => {
  const t = phase.trials[0];
  const open = t?.open;
  const errors = Object.values(t?.errors ?? {}).reduce((a, b) => a + b, 0);
  const bound = phase.flags.some((f) => f.startsWith('generator-bound'));
  return Boolean(open) && errors === 0 && !bound && t.responses >= open.scheduled * 0.999;
};

let dockerHost = '';
try {
  dockerHost = /DOCKER_HOST=(\S+)/.exec(
    sh('bash', [join(ROOT, 'scripts/dind-swarm.sh'), 'up', NAME, '3', 'perf-gate/node:local perf-gate/sut:local']),
  )[1];
  const env = { DOCKER_HOST: dockerHost };
  sh('docker', ['node', 'update', '--label-add', 'bench=sut', `${NAME}-node1`], env);
  for (const i of [2, 3]) sh('docker', ['node', 'update', '--label-add', 'bench=load', `${NAME}-node${i}`], env);

  // 1. the sustained open-loop rate, 1 replica and 2
  const ceilings = {};
  const ladders = {};
  for (const n of skipSweep ? [] : [1, 2]) {
    const res = run(config(`sweep${n}.yml`, n, sweepScenario), 'sweep', env, `sweep${n}`);
    const phases = res.scenarios[0].phases;
    ladders[n] = phases.map((p) => ({
      rate: p.params.rate,
      rps: p.merged.rps,
      sustained: sustained(p),
      lateGenerator: p.trials[0]?.open?.lateGenerator,
      unfinished: p.trials[0]?.open?.unfinished,
      p99Us: p.merged.latency.p99,
    }));
    ceilings[n] = Math.max(0, ...ladders[n].filter((l) => l.sustained).map((l) => l.rate));
    console.log(`replicas ${n}: sustained up to ${ceilings[n]}/s`, JSON.stringify(ladders[n]));
  }

  // 2. merged percentiles at one total rate, 2 replicas vs 1, rounds alternating; 3. the skew
  const latency = { 1: [], 2: [] };
  const skews = [];
  for (let round = 1; round <= rounds; round++) {
    for (const n of round % 2 ? [1, 2] : [2, 1]) {
      const res = run(config(`same${n}.yml`, n, latencyScenario), 'update', env, `same${n}-${round}`);
      const phase = res.scenarios[0].phases[0];
      latency[n].push({ p50: phase.merged.latency.p50, p99: phase.merged.latency.p99 });
      if (n === 2) for (const t of phase.trials) skews.push(t.replicas?.startSkewMs);
      console.log(
        `round ${round}, replicas ${n}: p50 ${phase.merged.latency.p50} µs, p99 ${phase.merged.latency.p99} µs`,
      );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = (k) => median(latency[2].map((x) => x[k])) / median(latency[1].map((x) => x[k]));
  const summary = {
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, date: new Date().toISOString() },
    sustainedRate: { one: ceilings[1], two: ceilings[2], ratio: ceilings[1] ? ceilings[2] / ceilings[1] : null },
    sameRate: { rate: SAME_RATE, rounds, p50Ratio: ratio('p50'), p99Ratio: ratio('p99'), latency },
    startSkewMs: { trials: skews.length, max: Math.max(...skews), median: median(skews) },
  };
  console.log(JSON.stringify(summary, null, 2));
  console.log(
    `2 replicas / 1: sustained ${summary.sustainedRate.ratio?.toFixed(2)}× (target ≥ 1.5×); p50 ${summary.sameRate.p50Ratio.toFixed(2)}× (within 10%), p99 ${summary.sameRate.p99Ratio.toFixed(2)}× (within 25%); start skew max ${summary.startSkewMs.max} ms over ${skews.length} trials (≤ 50 ms)`,
  );
} finally {
  sh('bash', [join(ROOT, 'scripts/dind-swarm.sh'), 'down', NAME]);
}

// Nightly-style soak (issue 12): N consecutive gate runs of the quickstart through the CLI. Counts
// failures by exit code, runner deaths, and what each run left behind (containers, networks, volumes
// and images labelled with its run id), and whether anything of perf-gate's is left at the end.
// Usage: node bench/soak.mjs [runs=30]. The quickstart's SUT is a container this script starts; every
// loop is bounded by the run count.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printMachine, ROOT, table } from './lib.mjs';

const runs = Number(process.argv[2] ?? 30);
const CONFIG = join(ROOT, 'fixtures/quickstart/perf-gate.yml');
// the quickstart's service and runner image (scripts/provision-node-image.sh builds the default)
const IMAGE = process.env.PERF_GATE_NODE_IMAGE || 'perf-gate/node:local';

function cli(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), ...args, '--runner-image', IMAGE], {
      cwd: ROOT,
      env: { ...process.env, GITHUB_EVENT_NAME: '', PERF_GATE_NODE_IMAGE: IMAGE },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function labelled(filter) {
  const out = [];
  const label = `label=${filter}`;
  const list = (args) => spawnSync('docker', args, { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  for (const n of list(['ps', '-a', '--filter', label, '--format', '{{.Names}}'])) out.push(`container ${n}`);
  for (const n of list(['network', 'ls', '--filter', label, '--format', '{{.Name}}'])) out.push(`network ${n}`);
  for (const n of list(['volume', 'ls', '--filter', label, '--format', '{{.Name}}'])) out.push(`volume ${n}`);
  for (const n of list(['images', '--filter', label, '--format', '{{.Repository}}:{{.Tag}}'])) out.push(`image ${n}`);
  return out;
}

printMachine();
const baselineDir = mkdtempSync(join(tmpdir(), 'perf-gate-soak-'));
const tally = { pass: 0, regression: 0, usage: 0, environment: 0, other: 0, runnerDeaths: 0, leftovers: 0 };
const failures = [];
const fired = [];
const started = Date.now();
try {
  const first = await cli([
    'run',
    '--config',
    CONFIG,
    '--mode',
    'update',
    '--baseline-dir',
    baselineDir,
    '--out',
    baselineDir,
  ]);
  if (first.code !== 0) throw new Error(`the baseline run failed: ${first.stderr}`);
  for (let i = 0; i < runs; i++) {
    const r = await cli([
      'run',
      '--config',
      CONFIG,
      '--mode',
      'gate',
      '--baseline-dir',
      baselineDir,
      '--out',
      baselineDir,
    ]);
    const key = { 0: 'pass', 1: 'regression', 2: 'usage', 3: 'environment' }[r.code] ?? 'other';
    tally[key]++;
    if (r.code === 1) {
      // which rows fired, so a false alarm can be traced to a metric
      const results = JSON.parse(readFileSync(join(baselineDir, 'perf-gate-results.json'), 'utf8'));
      for (const c of results.comparisons.filter((x) => x.result === 'regression')) {
        const delta = c.delta === null ? 'new' : `${(c.delta * 100).toFixed(1)}%`;
        fired.push(
          `run ${i + 1}: ${c.scenario}/${c.phase} ${c.metric} ${delta} (band ${c.band}${c.pValue === undefined ? '' : `, p=${c.pValue}`})`,
        );
      }
    }
    if (/runner died|runner failed/.test(r.stderr)) tally.runnerDeaths++;
    if (r.code !== 0 && r.code !== 1)
      failures.push(
        `run ${i + 1}: exit ${r.code}: ${r.stderr.split('\n').find((l) => l.startsWith('perf-gate:')) ?? ''}`,
      );
    const runId = /\[perf-gate\] run ([0-9a-f]{8}):/.exec(r.stderr)?.[1];
    const left = runId ? labelled(`dev.perf-gate.run-id=${runId}`) : [];
    tally.leftovers += left.length;
    for (const l of left) failures.push(`run ${i + 1} (${runId}) left ${l}`);
    process.stderr.write(
      `[soak] ${i + 1}/${runs}: exit ${r.code}${left.length ? `, ${left.length} left behind` : ''}\n`,
    );
  }
} finally {
  rmSync(baselineDir, { recursive: true, force: true });
}
const after = labelled('dev.perf-gate.managed=true');
console.log(`\n${runs} gate runs of the quickstart in ${((Date.now() - started) / 60_000).toFixed(1)} min\n`);
table(
  [
    'pass',
    'regression (exit 1)',
    'usage (exit 2)',
    'environment (exit 3)',
    'other',
    'runner deaths',
    'left behind by runs',
    'perf-gate objects left at the end',
  ],
  [
    [
      tally.pass,
      tally.regression,
      tally.usage,
      tally.environment,
      tally.other,
      tally.runnerDeaths,
      tally.leftovers,
      after.length,
    ].map(String),
  ],
);
for (const f of failures) console.log(`- ${f}`);
if (fired.length)
  console.log(`\nRegression rows (unchanged code: false alarms):\n${fired.map((f) => `- ${f}`).join('\n')}`);
for (const a of after) console.log(`- left at the end: ${a}`);

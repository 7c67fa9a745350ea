// The distributed runner on a real multi-node Docker Swarm: three nested Docker nodes
// (scripts/dind-swarm.sh; the node image from scripts/provision-dind-node.sh) on a network this test
// creates, a swarm formed inside them (the host engine's own swarm state is never touched), the SUT
// deployed as a stack, three runner replicas spread over the nodes. A gate passes on the merged
// trials; a replica killed mid-phase fails the run with exit 3 naming it; nothing is left on any node.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerAvailable, ROOT, runCli, startCli, tempDir } from '../integration/helpers.js';
import type { ResultsFile } from '../../src/results/types.js';
import { readFileSync } from 'node:fs';

const NAME = `pgsw${randomBytes(3).toString('hex')}`;
const NODES = 3;
const FIXTURE = join(ROOT, 'fixtures/tests/swarm');
let dockerHost = '';

function sh(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

/** a command on the manager's engine */
const onSwarm = (args: string[]) => sh('docker', args, { DOCKER_HOST: dockerHost });
/** a command on node i's own engine */
const onNode = (i: number, args: string[]) => sh('docker', ['exec', `${NAME}-node${i}`, 'docker', ...args]);

/** Everything of perf-gate's on the swarm and on every node: should be nothing. */
function leftovers(): string[] {
  const out: string[] = [];
  const lines = (s: string) => s.split('\n').filter(Boolean);
  out.push(...lines(onSwarm(['service', 'ls', '--format', 'service {{.Name}}'])));
  out.push(...lines(onSwarm(['config', 'ls', '--format', 'config {{.Name}}'])));
  out.push(
    ...lines(onSwarm(['network', 'ls', '--filter', 'driver=overlay', '--format', 'network {{.Name}}'])).filter(
      (n) => n !== 'network ingress',
    ),
  );
  for (let i = 1; i <= NODES; i++) {
    out.push(...lines(onNode(i, ['ps', '-a', '--format', `node${i} container {{.Names}}`])));
  }
  return out;
}

/**
 * Waits until nothing of perf-gate's is on the swarm or any node, and returns what is left after
 * 60 s. The manager forgets a removed service at once; each node stops and removes its tasks'
 * containers after that, within their stop grace period (a runner's is 2 s, the SUT's default 10 s).
 */
async function settledLeftovers(): Promise<string[]> {
  await until(() => leftovers().length === 0, 60_000).catch(() => undefined);
  return leftovers();
}

/** perf-gate on the long-phase fixture (one 30 s phase), to be cut short mid-trial */
function startLongPhase(): ReturnType<typeof startCli> {
  const dir = tempDir();
  return startCli(
    [
      'run',
      '--config',
      join(FIXTURE, 'perf-gate.kill.yml'),
      '--mode',
      'update',
      '--baseline-dir',
      join(dir, 'baselines'),
      '--out',
      dir,
    ],
    { DOCKER_HOST: dockerHost },
  );
}

/** waits (bounded) until `probe` is true */
async function until(probe: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const available = dockerAvailable();
const nodeImage = available && spawnSync('docker', ['image', 'inspect', 'perf-gate/dind-node:local']).status === 0;
if (available && !nodeImage && process.env.CI) {
  throw new Error('CI is set but perf-gate/dind-node:local is missing: run scripts/provision-dind-node.sh');
}

describe.skipIf(!nodeImage)('runner replicas on a three-node nested Docker Swarm', () => {
  beforeAll(() => {
    const out = sh('bash', [
      join(ROOT, 'scripts/dind-swarm.sh'),
      'up',
      NAME,
      String(NODES),
      'perf-gate/node:local perf-gate/sut:local',
    ]);
    dockerHost = /DOCKER_HOST=(\S+)/.exec(out)?.[1] ?? '';
    expect(dockerHost).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
  }, 300_000);

  afterAll(() => {
    sh('bash', [join(ROOT, 'scripts/dind-swarm.sh'), 'down', NAME]);
  });

  it('the swarm is its own: three ready nodes; the host engine is no swarm member', () => {
    expect(onSwarm(['node', 'ls', '--format', '{{.Hostname}} {{.Status}}']).split('\n').sort()).toEqual(
      [1, 2, 3].map((i) => `${NAME}-node${i} Ready`),
    );
    expect(sh('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}'])).toBe('inactive');
  });

  it('update, then gate: three replicas on three nodes, their trials merged and gated once; nothing left behind', async () => {
    const dir = tempDir();
    const env = { DOCKER_HOST: dockerHost };
    const common = ['--config', join(FIXTURE, 'perf-gate.yml'), '--baseline-dir', join(dir, 'baselines')];
    const update = await runCli(['run', ...common, '--mode', 'update', '--out', join(dir, 'update')], env);
    expect(update.code, update.stderr).toBe(0);
    const spread = /3 runner replicas on 3 nodes \(([^)]+)\) measured work\/c6/.exec(update.stderr);
    expect(spread?.[1]).toBe([1, 2, 3].map((i) => `${NAME}-node${i}`).join(', '));
    const results = JSON.parse(readFileSync(join(dir, 'update/perf-gate-results.json'), 'utf8')) as ResultsFile;
    const [c6, r300] = results.scenarios[0]?.phases ?? [];
    expect(c6?.trials[0]?.replicas).toMatchObject({ count: 3 });
    // the generator figures are the busiest replica's: one engine thread
    expect(c6?.trials[0]?.generator.threads).toBe(1);
    // the open loop's one schedule, split three ways and merged: every send the schedule called for
    expect(r300?.trials[0]?.open?.scheduled).toBe(300);
    expect(r300?.merged.responses).toBe(300);
    expect(await settledLeftovers()).toEqual([]);

    const gate = await runCli(['run', ...common, '--mode', 'gate', '--out', join(dir, 'gate')], env);
    expect(gate.code, gate.stderr).toBe(0);
    expect(await settledLeftovers()).toEqual([]);
  }, 240_000);

  it('a replica killed mid-phase fails the run with exit 3 naming it, its task and its node; nothing left on any node', async () => {
    const run = startLongPhase();
    // the trial's job, running on node 3: kill its container there, mid-phase
    let container = '';
    await until(() => {
      container = onNode(3, ['ps', '-q', '--filter', 'label=com.docker.swarm.service.name']).split('\n')[0] ?? '';
      return (
        container !== '' &&
        onNode(3, ['inspect', '-f', '{{index .Config.Labels "com.docker.swarm.service.name"}}', container]).includes(
          '-runner-',
        )
      );
    }, 120_000);
    // past the common start (15 s ahead of the job) and into the 30 s phase
    await until(() => run.output().includes('measure started'), 60_000);
    await new Promise((r) => setTimeout(r, 19_000));
    onNode(3, ['kill', container]);
    const result = await run.done;
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      new RegExp(
        `^perf-gate: runner replica \\d \\(task \\w{12} on node ${NAME}-node3\\) failed: task: non-zero exit \\(137\\)`,
        'm',
      ),
    );
    expect(await settledLeftovers()).toEqual([]);
  }, 240_000);

  it('SIGTERM mid-trial: exit 143 after the teardown, nothing left on the swarm or any node', async () => {
    const run = startLongPhase();
    await until(() => run.output().includes('measure started'), 120_000);
    // past the common start (15 s ahead): the replicas are running their share of the 30 s phase
    await new Promise((r) => setTimeout(r, 19_000));
    run.child.kill('SIGTERM');
    const result = await run.done;
    expect(result.code).toBe(143);
    expect(result.stderr).toContain('SIGTERM: tearing down');
    expect(await settledLeftovers()).toEqual([]);
  }, 240_000);
});

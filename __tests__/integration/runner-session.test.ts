// One long-lived runner container per SUT session, on the real engine and real compose: trials run on
// command over the container's stdin (one container for all of them), and a runner killed between
// trials fails the next one (exit 3, naming the death) with nothing of the run left behind.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeClient, dockerClient } from '../../src/docker/clients.js';
import { connectDocker } from '../../src/docker/engine.js';
import { LABEL_RUN_ID, projectName, runLabels } from '../../src/docker/labels.js';
import { EXIT_ENVIRONMENT, UserError } from '../../src/common/errors.js';
import { execCommand } from '../../src/common/exec.js';
import type { RunnerEvent, RunnerPlan } from '../../src/runner-kit/plan.js';
import { SutSession } from '../../src/session/sut-session.js';
import { docker, dockerAvailable, leftovers, ROOT } from './helpers.js';

const hasDocker = dockerAvailable();

/** the test service from the prebuilt perf-gate/sut:local image: nothing to build */
const FIXTURE = join(ROOT, 'fixtures/tests/ab');
const IMAGE = 'perf-gate/node:local';

/** The runner bundle CI builds into dist/ (PERF_GATE_TEST_RUNNER_SCRIPT: another build, for a local check). */
const runnerScript = () =>
  readFileSync(process.env.PERF_GATE_TEST_RUNNER_SCRIPT ?? join(ROOT, 'dist/runner.mjs'), 'utf8');

const plan: RunnerPlan = {
  version: 1,
  progressIntervalMs: 1000,
  requestTimeoutMs: 2000,
  ready: [{ url: 'http://api:8080/health', timeoutMs: 30_000 }],
  scenarios: [
    {
      name: 'api',
      target: { kind: 'http', request: { url: 'http://api:8080/work', method: 'GET', headers: {} } },
      warmupMs: 0,
      // the plan's count is the host's to use: a runner that ran it on its own would run c1 once and exit
      trials: 1,
      phases: [
        { kind: 'closed', name: 'c1', connections: 1, durationMs: 300 },
        { kind: 'closed', name: 'c2', connections: 2, durationMs: 300 },
      ],
    },
  ],
};
/** the second phase only, twice: what the runner runs must be what it is told */
const trial = (n: number) => ({ scenario: 'api', phase: 'c2', trial: n, trials: 2 });

/** This run's runner containers that exist now (ids). */
const runnerContainers = (runId: string) =>
  docker(['ps', '-a', '--filter', `label=${LABEL_RUN_ID}=${runId}`, '--filter', 'name=-runner', '--format', '{{.ID}}'])
    .split('\n')
    .filter(Boolean);

const isRunning = (id: string) => docker(['inspect', '--format', '{{.State.Running}}', id]).trim() === 'true';

describe.runIf(hasDocker)('a SUT session with one long-lived runner', () => {
  const opened: Array<{ runId: string; session: SutSession }> = [];
  const engine = hasDocker ? dockerClient(connectDocker(), process.env.DOCKER_HOST) : undefined;

  afterEach(async () => {
    // whatever an assertion left running
    for (const { runId, session } of opened.splice(0)) {
      await session.close();
      await engine?.sweep(runId);
    }
  }, 300_000);

  async function open(): Promise<{ runId: string; session: SutSession }> {
    const runId = randomBytes(4).toString('hex');
    const labels = runLabels(runId);
    const compose = composeClient(
      execCommand,
      {
        project: projectName(runId),
        files: ['docker-compose.yml'],
        cwd: FIXTURE,
        env: {},
        labels,
      },
      process.env,
    );
    const session = await SutSession.open(
      { runId, labels, services: [], build: false, healthTimeoutS: 120 },
      { docker: engine!, compose, sample: () => {}, log: () => {} },
    );
    opened.push({ runId, session });
    return { runId, session };
  }

  it('runs two trials on command in one runner container, then ends it: nothing left', async () => {
    const { runId, session } = await open();
    const events: RunnerEvent[] = [];
    const runner = await session.startRunner({ image: IMAGE, cpus: undefined, script: runnerScript(), plan }, (e) =>
      events.push(e),
    );
    const containers = runnerContainers(runId);
    expect(containers).toHaveLength(1);

    await runner.trial(trial(1));
    expect(runnerContainers(runId)).toEqual(containers);
    // an idle runner waits for its next command
    await new Promise((r) => setTimeout(r, 1000));
    await runner.trial(trial(2));
    expect(runnerContainers(runId)).toEqual(containers);
    await runner.end();

    expect(events.filter((e) => e.t === 'hello')).toHaveLength(1);
    const trials = events.flatMap((e) => (e.t === 'trial' ? [e] : []));
    expect(trials.map((t) => [t.scenario, t.phase, t.measurement.trial])).toEqual([
      ['api', 'c2', 1],
      ['api', 'c2', 2],
    ]);
    for (const t of trials) {
      expect(t.measurement.responses).toBeGreaterThan(0);
      expect(t.measurement.failures).toBe(0);
    }
    const stages = events.flatMap((e) => (e.t === 'stage' ? [[e.stage, e.trial, e.trials]] : []));
    expect(stages).toEqual([
      ['measure', 1, 2],
      ['measure', 2, 2],
    ]);
    expect(events.at(-1)).toEqual({ t: 'done' });
    expect(runnerContainers(runId)).toEqual([]);

    await session.close();
    expect(leftovers(runId)).toEqual([]);
  }, 300_000);

  it('a runner killed between trials: the next trial rejects (exit 3, runner death), nothing left', async () => {
    const { runId, session } = await open();
    const runner = await session.startRunner({ image: IMAGE, cpus: undefined, script: runnerScript(), plan }, () => {});
    await runner.trial(trial(1));
    const [id] = runnerContainers(runId);
    expect(id).toBeDefined();
    docker(['kill', id as string]);
    // the kill has landed before the next command goes out (bounded: 10 s)
    for (let i = 0; i < 100 && isRunning(id as string); i++) await new Promise((r) => setTimeout(r, 100));

    const err = await runner.trial(trial(2)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(EXIT_ENVIRONMENT);
    expect((err as UserError).message).toBe('runner died (exit code 137) between trials');
    expect(runnerContainers(runId)).toEqual([]);

    await runner.end();
    await session.close();
    expect(leftovers(runId)).toEqual([]);
  }, 300_000);

  it('a trial of a phase the plan does not have: the runner reports fatal, the trial rejects (exit 3), nothing left', async () => {
    const { runId, session } = await open();
    const runner = await session.startRunner({ image: IMAGE, cpus: undefined, script: runnerScript(), plan }, () => {});
    const err = await runner.trial({ ...trial(1), phase: 'nope' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(EXIT_ENVIRONMENT);
    expect((err as UserError).message).toBe('runner failed: unknown phase "nope" of scenario "api" in a trial command');
    expect(runnerContainers(runId)).toEqual([]);
    await runner.end();
    await session.close();
    expect(leftovers(runId)).toEqual([]);
  }, 300_000);
});

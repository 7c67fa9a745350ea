import type { StatsSample } from '../../src/stats/resources.js';
import { describe, expect, it } from 'vitest';
import { failure } from './fixtures.js';
import type { ComposeClient, DockerClient } from '../../src/docker/clients.js';
import type { SutContainer } from '../../src/docker/engine.js';
import type { RunnerOptions, RunningRunner } from '../../src/docker/runner-container.js';
import { EXIT_ENVIRONMENT, UserError } from '../../src/common/errors.js';
import type { RunnerEvent, RunnerPlan } from '../../src/runner-kit/plan.js';
import type { TrialMeasurement } from '../../src/runner-kit/measurement.js';
import type { PlanGrpc, PlanScenario, RunnerCommand } from '../../src/runner-kit/plan.js';
import { SutSession, type SutSessionOptions, trialDeadlineMs } from '../../src/session/sut-session.js';
import { withSessions } from '../../src/session/with-sessions.js';

/** What a fake runner does on a trial command: answer, exit, report fatal, crash the SUT, or hang. */
type TrialAct = 'ok' | 'ok-crash-sut' | 'crash-sut' | 'hang' | { exit: number; afterStage?: boolean };

/** What a fake runner does once started: its events at start, then its answer to each command. */
interface Script {
  /** events right after start (default: hello, ready) */
  start?: RunnerEvent[];
  /** exits with this code after its start events (a runner that never gets ready) */
  exitAtStart?: number;
  /** the SUT container stops right after start */
  crashSutAtStart?: boolean;
  /** what it does on the nth trial command (default 'ok') */
  trials?: TrialAct[];
  /** its answer to `end` (default: done, exit 0); crashSut: the SUT stops just before that answer */
  end?: { events: RunnerEvent[]; exitCode: number; crashSut?: boolean };
  stderr?: string[];
}

/** One fake runner container: takes commands like the real one (one at a time, checked against its plan). */
class FakeRunner {
  readonly commands: RunnerCommand[] = [];
  exitCode: number | undefined;
  private resolveExit: (code: number) => void = () => {};
  readonly exited = new Promise<number>((resolve) => (this.resolveExit = resolve));
  private trialsSeen = 0;

  constructor(
    readonly opts: RunnerOptions,
    private readonly script: Script,
    private readonly emit: (e: RunnerEvent) => void,
    private readonly crashSut: () => void,
  ) {
    setTimeout(() => {
      for (const e of script.start ?? [{ t: 'hello', node: 'v20' }, { t: 'ready' }]) emit(e);
      if (script.crashSutAtStart) crashSut();
      if (script.exitAtStart !== undefined) this.exit(script.exitAtStart);
    }, 1);
  }

  /** the container stops (its own exit, `docker kill`, an OOM kill) */
  exit(code: number): void {
    if (this.exitCode !== undefined) return;
    this.exitCode = code;
    this.resolveExit(code);
  }

  send(command: RunnerCommand): void {
    // a dead container's stdin swallows the line, as the real socket does
    if (this.exitCode !== undefined) return;
    this.commands.push(command);
    setTimeout(() => (command.c === 'end' ? this.end() : this.trial(command)), 1);
  }

  private trial(cmd: Extract<RunnerCommand, { c: 'trial' }>): void {
    const act = this.script.trials?.[this.trialsSeen++] ?? 'ok';
    const phase = this.opts.plan.scenarios
      .find((s) => s.name === cmd.scenario)
      ?.phases.find((p) => p.name === cmd.phase);
    if (!phase) {
      this.emit({
        t: 'fatal',
        message: `unknown phase "${cmd.phase}" of scenario "${cmd.scenario}" in a trial command`,
      });
      return this.exit(1);
    }
    const where = { scenario: cmd.scenario, phase: cmd.phase };
    if (typeof act === 'object' && !act.afterStage) return this.exit(act.exit);
    this.emit({ t: 'stage', ...where, trial: cmd.trial, trials: cmd.trials, stage: 'measure', totalMs: 300 });
    if (typeof act === 'object') return this.exit(act.exit);
    if (act === 'crash-sut') return this.crashSut();
    if (act === 'hang') return;
    const measurement = { trial: cmd.trial } as TrialMeasurement;
    this.emit({ t: 'trial', ...where, measurement, histogram: '' });
    if (act === 'ok-crash-sut') this.crashSut();
  }

  private end(): void {
    const answer = this.script.end ?? { events: [{ t: 'done' }], exitCode: 0 };
    if (answer.crashSut) this.crashSut();
    for (const e of answer.events) this.emit(e);
    this.exit(answer.exitCode);
  }
}

class FakeDocker implements DockerClient {
  readonly calls: string[] = [];
  containersList: SutContainer[] = [
    { id: 'c1', service: 'api', state: 'running', image: 'api:1', imageId: 'sha256:a' },
  ];
  scripts: Script[] = [];
  started: RunnerOptions[] = [];
  runners: FakeRunner[] = [];
  statsOpen = 0;

  async version() {
    return { version: '27.0.0', apiVersion: '1.46' };
  }
  async containers(project: string) {
    this.calls.push(`containers ${project}`);
    return this.containersList.map((c) => ({ ...c }));
  }
  async networks(project: string) {
    return [`${project}_default`];
  }
  async stats(id: string, onSample: (s: StatsSample) => void) {
    this.statsOpen++;
    if (id) onSample({ at: 0, cpuPct: 1, memoryBytes: 1, rxBytes: 0, txBytes: 0 });
    return { stop: () => void this.statsOpen-- };
  }
  async ensureImage() {}
  async imageDigests(containers: SutContainer[]) {
    return Object.fromEntries(containers.map((c) => [c.service, { image: c.image, id: c.imageId, digest: null }]));
  }
  async startRunner(opts: RunnerOptions, onEvent: (e: RunnerEvent) => void): Promise<RunningRunner> {
    this.started.push(opts);
    this.calls.push(`start ${opts.name}`);
    const script = this.scripts.shift() ?? {};
    const runner = new FakeRunner(opts, script, onEvent, () => this.crashSut());
    this.runners.push(runner);
    return {
      containerId: `runner-${this.started.length}`,
      volumeName: opts.name ?? 'v',
      exited: runner.exited,
      stderrTail: () => script.stderr ?? [],
      send: (c) => runner.send(c),
    };
  }
  async removeRunner(r: RunningRunner) {
    this.calls.push(`remove ${r.containerId}`);
    // a forced removal kills a container still running
    this.runners[Number(r.containerId.split('-')[1]) - 1]?.exit(137);
  }
  async sweep(runId: string) {
    this.calls.push(`sweep ${runId}`);
    return [];
  }
  async runPerfHelper(): Promise<never> {
    throw new Error('no perf helper in these tests');
  }
  crashSut() {
    this.containersList = this.containersList.map((c) => ({ ...c, state: 'exited' }));
  }
}

class FakeCompose implements ComposeClient {
  readonly calls: string[] = [];
  upError: string | undefined;
  prepareError: Error | undefined;
  constructor(readonly project = 'perfgate-r1') {}
  async prepare() {
    this.calls.push('prepare');
    if (this.prepareError) throw this.prepareError;
    return { services: { api: { image: 'api:1' } } };
  }
  async up() {
    this.calls.push('up');
    return this.upError;
  }
  async logs() {
    return ['api  | listening on :8080', 'api  | boom'];
  }
  async down() {
    this.calls.push('down');
  }
}

const plan: RunnerPlan = { version: 1, progressIntervalMs: 1000, requestTimeoutMs: 1000, ready: [], scenarios: [] };
const spec = { image: 'node:test', cpus: undefined, script: '', plan };
const closed = (name: string) => ({ kind: 'closed' as const, name, connections: 1, durationMs: 300 });
const scenario = (name: string, trials: number, phases: string[]): PlanScenario => ({
  name,
  target: { kind: 'http', request: { url: 'http://api:8080/', method: 'GET', headers: {} } },
  warmupMs: 0,
  trials,
  phases: phases.map(closed),
});
const planSpec = {
  ...spec,
  plan: { ...plan, scenarios: [scenario('a', 2, ['p1', 'p2']), scenario('b', 1, ['q'])] },
};
const cmd = (scenario: string, phase: string, trial: number, trials: number) => ({ scenario, phase, trial, trials });
const options = (o: Partial<SutSessionOptions> = {}): SutSessionOptions => ({
  runId: 'r1',
  labels: {},
  services: [],
  build: false,
  healthTimeoutS: 5,
  pollMs: 5,
  ...o,
});

function setup(o: Partial<SutSessionOptions> = {}) {
  const docker = new FakeDocker();
  const compose = new FakeCompose();
  const open = () => SutSession.open(options(o), { docker, compose, sample: () => {}, log: () => {} });
  return { docker, compose, open };
}

describe('SutSession', () => {
  it('runs a runner to its end, then removes it; close takes the project down once', async () => {
    const { docker, compose, open } = setup();
    const session = await open();
    await session.run(spec, () => {});
    expect(docker.calls).toContain('start perfgate-r1-runner');
    expect(docker.calls).toContain('remove runner-1');
    await session.close();
    await session.close();
    expect(compose.calls).toEqual(['prepare', 'up', 'down']);
    expect(docker.statsOpen).toBe(0);
  });

  it('each resource sample names its container: the machine reading counts only the run’s own', async () => {
    const docker = new FakeDocker();
    const compose = new FakeCompose();
    const got: Array<[string, string | undefined]> = [];
    const session = await SutSession.open(options(), {
      docker,
      compose,
      sample: (key, _s, container) => got.push([key, container]),
      log: () => {},
    });
    await session.run(spec, () => {});
    await session.close();
    expect(got).toEqual([
      ['api', 'c1'],
      ['perf-gate-runner', 'runner-1'],
    ]);
  });

  it('names each launch of an A/B side uniquely', async () => {
    const { docker, open } = setup({ side: 'base' });
    const session = await open();
    await session.run(spec, () => {});
    await session.run(spec, () => {});
    await session.close();
    expect(docker.started.map((s) => s.name)).toEqual(['perfgate-r1-base-runner', 'perfgate-r1-base-runner-1']);
  });

  it.each<[string, Script, RegExp, string[]]>([
    [
      'the SUT never ready',
      { start: [{ t: 'not-ready', url: 'http://api:8080/', error: 'ECONNREFUSED', timeoutMs: 2000 }], exitAtStart: 0 },
      /^SUT never ready: http:\/\/api:8080\/ did not answer 2xx\/3xx within 2s \(last: ECONNREFUSED\)$/,
      ['  api  | listening on :8080', '  api  | boom'],
    ],
    [
      'the runner reports a fatal error',
      { start: [{ t: 'fatal', message: 'plan.json: bad version' }], exitAtStart: 1, stderr: ['trace'] },
      /^runner failed: plan\.json: bad version$/,
      ['  trace'],
    ],
    [
      'the runner exits non-zero without finishing',
      { start: [], exitAtStart: 9, stderr: ['node: bad option: --bogus-flag'] },
      /^runner died \(exit code 9\) before finishing$/,
      ['  node: bad option: --bogus-flag'],
    ],
    [
      'the runner exits 0 without saying done',
      { start: [], exitAtStart: 0 },
      /^runner died \(exit code 0\) before finishing$/,
      [],
    ],
    [
      'the SUT crashes during the run',
      { start: [], crashSutAtStart: true },
      /^SUT crashed: service api stopped \(exited\) during the run$/,
      ['  api  | listening on :8080', '  api  | boom'],
    ],
  ])(
    '%s: one line, exit 3, SUT logs or runner stderr as details, runner removed',
    async (_l, script, message, details) => {
      const { docker, open } = setup();
      docker.scripts.push(script);
      const session = await open();
      const err = await failure(session.run(spec, () => {}));
      expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
      expect(err.message).toMatch(message);
      expect(err.details).toEqual(details);
      expect(docker.calls).toContain('remove runner-1');
      await session.close();
      expect(docker.statsOpen).toBe(0);
    },
  );

  it('a service that stops just before the runner finishes is a crash, not a result', async () => {
    // the watcher polls far too rarely to see it: only the check after the runner's exit can
    const { docker, open } = setup({ pollMs: 60_000 });
    docker.scripts.push({ end: { events: [{ t: 'done' }], exitCode: 0, crashSut: true } });
    const session = await open();
    const err = await failure(session.run(spec, () => {}));
    expect(err.message).toBe('SUT crashed: service api stopped (exited) during the run');
    await session.close();
  });

  it('names the side in A/B errors', async () => {
    const { docker, open } = setup({ side: 'head' });
    docker.scripts.push({ start: [], exitAtStart: 137 });
    const session = await open();
    const err = await failure(session.run(spec, () => {}));
    expect(err.message).toBe('head: runner died (exit code 137) before finishing');
    await session.close();
  });

  it('a runner that finishes its trials but ends without done or with a non-zero exit did not finish', async () => {
    for (const end of [
      { events: [], exitCode: 0 },
      { events: [{ t: 'done' } as const], exitCode: 1 },
    ]) {
      const { docker, open } = setup();
      docker.scripts.push({ end, stderr: ['bye'] });
      const session = await open();
      const err = await failure(session.run(planSpec, () => {}));
      expect(err.message).toBe(`runner died (exit code ${end.exitCode}) before finishing`);
      expect(err.details).toEqual(['  bye']);
      expect(docker.calls).toContain('remove runner-1');
      await session.close();
    }
  });

  it('a compose up failure is exit 3 with the last line and the logs, and tears down', async () => {
    const { compose, open } = setup({ side: 'base' });
    compose.upError = 'pulling...\ndependency failed to start: container api is unhealthy\n';
    const err = await failure(open());
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe(
      'base: SUT failed to start or become healthy: dependency failed to start: container api is unhealthy',
    );
    expect(err.details).toHaveLength(2);
    expect(compose.calls).toEqual(['prepare', 'up', 'down']);
  });

  it('a rejected compose file names the side and tears down', async () => {
    const { compose, open } = setup({ side: 'base' });
    compose.prepareError = new UserError(
      'compose file rejected by docker compose: services.api.image must be a string',
      3,
    );
    const err = await failure(open());
    expect(err.message).toBe('base: compose file rejected by docker compose: services.api.image must be a string');
    expect(compose.calls).toEqual(['prepare', 'down']);
  });

  it('no running container after up is an error, not a hang', async () => {
    const { docker, open } = setup();
    docker.containersList = [];
    const err = await failure(open());
    expect(err.message).toBe('SUT has no running container after docker compose up');
  });
});

describe('SutSession runner handle', () => {
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('run sends every scenario × phase × trial as one command, in plan order, to one runner, then end', async () => {
    const { docker, open } = setup();
    const session = await open();
    const events: RunnerEvent[] = [];
    await session.run(planSpec, (e) => events.push(e));
    await session.close();
    expect(docker.started).toHaveLength(1);
    expect(docker.runners[0]?.commands).toEqual([
      { c: 'trial', ...cmd('a', 'p1', 1, 2) },
      { c: 'trial', ...cmd('a', 'p1', 2, 2) },
      { c: 'trial', ...cmd('a', 'p2', 1, 2) },
      { c: 'trial', ...cmd('a', 'p2', 2, 2) },
      { c: 'trial', ...cmd('b', 'q', 1, 1) },
      { c: 'end' },
    ]);
    expect(events.filter((e) => e.t === 'trial')).toHaveLength(5);
    expect(events.at(-1)).toEqual({ t: 'done' });
    expect(docker.calls.filter((c) => c.startsWith('remove'))).toEqual(['remove runner-1']);
  });

  it('startRunner resolves on ready; each trial resolves on its trial event; end removes the runner', async () => {
    const { docker, open } = setup();
    const session = await open();
    const events: RunnerEvent[] = [];
    const runner = await session.startRunner(planSpec, (e) => events.push(e));
    expect(events.map((e) => e.t)).toEqual(['hello', 'ready']);
    await runner.trial(cmd('b', 'q', 1, 2));
    expect(events.at(-1)).toMatchObject({ t: 'trial', scenario: 'b', phase: 'q', measurement: { trial: 1 } });
    await runner.trial(cmd('b', 'q', 2, 2));
    expect(events.at(-1)).toMatchObject({ t: 'trial', measurement: { trial: 2 } });
    expect(docker.calls).not.toContain('remove runner-1');
    expect(docker.statsOpen).toBe(2);
    await runner.end();
    expect(events.at(-1)).toEqual({ t: 'done' });
    expect(docker.calls).toContain('remove runner-1');
    expect(docker.statsOpen).toBe(1);
    await runner.end();
    expect(docker.calls.filter((c) => c.startsWith('remove'))).toHaveLength(1);
    await session.close();
    expect(docker.started).toHaveLength(1);
  });

  it('trial calls made at once are sent one at a time, in call order', async () => {
    const { docker, open } = setup();
    const session = await open();
    const runner = await session.startRunner(planSpec, () => {});
    const sentWhileBusy: number[] = [];
    const fake = docker.runners[0] as FakeRunner;
    const send = fake.send.bind(fake);
    let answered = 0;
    const pending = [1, 2, 3].map((n) =>
      runner.trial(cmd('a', 'p1', n, 3)).then(() => {
        answered++;
      }),
    );
    fake.send = (c) => {
      sentWhileBusy.push(fake.commands.length - answered);
      send(c);
    };
    await Promise.all(pending);
    await runner.end();
    await session.close();
    expect(fake.commands.map((c) => (c.c === 'trial' ? c.trial : c.c))).toEqual([1, 2, 3, 'end']);
    // every later command went out only once the one before it was answered
    expect(sentWhileBusy.slice(0, 2)).toEqual([0, 0]);
  });

  it('a runner killed between trials: the next trial rejects (exit 3, side, exit code), runner removed, end still safe', async () => {
    const { docker, open } = setup({ side: 'head' });
    docker.scripts.push({ stderr: ['Killed'] });
    const session = await open();
    const runner = await session.startRunner(planSpec, () => {});
    await runner.trial(cmd('a', 'p1', 1, 2));
    docker.runners[0]?.exit(137);
    await tick();
    const err = await failure(runner.trial(cmd('a', 'p1', 2, 2)));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe('head: runner died (exit code 137) between trials');
    expect(err.details).toEqual(['  Killed']);
    expect(docker.calls).toContain('remove runner-1');
    expect(docker.statsOpen).toBe(1);
    // the failure sticks, and end after it only cleans up (once)
    expect(await failure(runner.trial(cmd('a', 'p1', 2, 2)))).toBe(err);
    await runner.end();
    expect(docker.calls.filter((c) => c.startsWith('remove'))).toHaveLength(1);
    expect(docker.runners[0]?.commands).toHaveLength(1);
    await session.close();
    expect(docker.statsOpen).toBe(0);
  });

  it('a runner killed after its last trial: end rejects naming the death', async () => {
    const { docker, open } = setup({ side: 'base' });
    const session = await open();
    const runner = await session.startRunner(planSpec, () => {});
    await runner.trial(cmd('a', 'p1', 1, 1));
    docker.runners[0]?.exit(137);
    await tick();
    const err = await failure(runner.end());
    expect(err.message).toBe('base: runner died (exit code 137) between trials');
    expect(docker.calls).toContain('remove runner-1');
    await runner.end();
    await session.close();
  });

  it.each<[string, TrialAct, string, string[]]>([
    [
      'the runner dies in the middle of the trial',
      { exit: 137, afterStage: true },
      'head: runner died (exit code 137) before finishing',
      ['  oom'],
    ],
    [
      'the runner dies as it takes the command',
      { exit: 137 },
      'head: runner died (exit code 137) between trials',
      ['  oom'],
    ],
    [
      'the SUT crashes during the trial',
      'crash-sut',
      'head: SUT crashed: service api stopped (exited) during the run',
      ['  api  | listening on :8080', '  api  | boom'],
    ],
  ])('%s: the pending trial rejects at once (exit 3), runner removed', async (_l, act, message, details) => {
    const { docker, open } = setup({ side: 'head' });
    docker.scripts.push({ trials: ['ok', act], stderr: ['oom'] });
    const session = await open();
    const runner = await session.startRunner(planSpec, () => {});
    await runner.trial(cmd('a', 'p1', 1, 2));
    const err = await failure(runner.trial(cmd('a', 'p1', 2, 2)));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe(message);
    expect(err.details).toEqual(details);
    expect(docker.calls).toContain('remove runner-1');
    await runner.end();
    await session.close();
    expect(docker.statsOpen).toBe(0);
  });

  it('a service that stops just as a trial ends fails that trial, though the poll never saw it', async () => {
    const { docker, open } = setup({ pollMs: 60_000 });
    docker.scripts.push({ trials: ['ok-crash-sut'] });
    const session = await open();
    const runner = await session.startRunner(planSpec, () => {});
    const err = await failure(runner.trial(cmd('a', 'p1', 1, 1)));
    expect(err.message).toBe('SUT crashed: service api stopped (exited) during the run');
    expect(docker.calls).toContain('remove runner-1');
    await session.close();
  });

  it('a trial of a phase the plan does not have: the runner reports fatal, the trial rejects with it', async () => {
    const { docker, open } = setup({ side: 'base' });
    docker.scripts.push({ stderr: ['at main'] });
    const session = await open();
    const runner = await session.startRunner(planSpec, () => {});
    const err = await failure(runner.trial(cmd('a', 'nope', 1, 1)));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe('base: runner failed: unknown phase "nope" of scenario "a" in a trial command');
    expect(err.details).toEqual(['  at main']);
    expect(docker.calls).toContain('remove runner-1');
    await runner.end();
    await session.close();
  });

  it('startRunner fails like run before ready, and removes the container', async () => {
    const { docker, open } = setup({ side: 'head' });
    docker.scripts.push({ start: [{ t: 'hello', node: 'v20' }], exitAtStart: 9, stderr: ['boom'] });
    const session = await open();
    const err = await failure(session.startRunner(planSpec, () => {}));
    expect(err.message).toBe('head: runner died (exit code 9) before finishing');
    expect(err.details).toEqual(['  boom']);
    expect(docker.calls).toContain('remove runner-1');
    await session.close();
    expect(docker.statsOpen).toBe(0);
  });

  it('close removes a runner that was never ended, and a trial pending then rejects', async () => {
    const { docker, open } = setup();
    docker.scripts.push({ trials: ['hang'] });
    const session = await open();
    const runner = await session.startRunner(planSpec, () => {});
    const pending = failure(runner.trial(cmd('a', 'p1', 1, 1)));
    await tick();
    await session.close();
    expect(docker.calls).toContain('remove runner-1');
    expect((await pending).message).toBe('runner died (exit code 137) before finishing');
    expect(docker.statsOpen).toBe(0);
  });
});

describe('SutSession: a wedged or late runner', () => {
  it('a trial past warm-up + duration + request timeout + slack: exit 3 naming the trial, the runner removed', async () => {
    const { docker, open } = setup({ side: 'base', trialSlackMs: 20 });
    docker.scripts.push({ trials: ['hang'] });
    const session = await open();
    const runner = await session.startRunner(planSpec, () => {});
    const err = await failure(runner.trial(cmd('a', 'p1', 1, 2)));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    // the phase's 300 ms, the plan's 1 s request timeout and 20 ms of slack
    expect(err.message).toBe(
      'base: runner did not finish trial 1 of a/p1 within 1s (warm-up, duration and a minute of slack)',
    );
    expect(docker.calls).toContain('remove runner-1');
    // the failure is kept: the next trial gets it at once
    expect((await failure(runner.trial(cmd('a', 'p1', 2, 2)))).message).toBe(err.message);
    await session.close();
  });

  it('a runner whose start finishes after the session closed is removed, and its start rejects', async () => {
    const { docker, open } = setup();
    const session = await open();
    const starting = failure(session.startRunner(planSpec, () => {}));
    await session.close();
    const err = await starting;
    expect(err.message).toMatch(/^the run was torn down while its runner started$|^runner died/);
    expect(docker.calls).toContain('remove runner-1');
  });

  it.each<[string, Partial<PlanScenario>, number | undefined]>([
    ['a phase given by duration: warm-up + duration + request timeout + a minute', {}, 0 + 300 + 1000 + 60_000],
    ['the scenario’s own request timeout', { requestTimeoutMs: 250 }, 0 + 300 + 250 + 60_000],
    [
      'with a warm-up, both stages wait for their requests in flight',
      { warmupMs: 2000, requestTimeoutMs: 250 },
      2000 + 300 + 2 * 250 + 60_000,
    ],
    [
      'a gRPC deadline longer than the request timeout',
      { requestTimeoutMs: 250, target: { kind: 'grpc', grpc: { deadlineMs: 5000 } as PlanGrpc } },
      0 + 300 + 5000 + 60_000,
    ],
    [
      'a mix entry’s own timeout longer than the scenario’s',
      {
        requestTimeoutMs: 250,
        target: {
          kind: 'http',
          request: { url: 'http://a/x', method: 'GET', headers: {} },
          mix: [
            { name: 'x', weight: 1, request: { url: 'http://a/x', method: 'GET', headers: {} } },
            { name: 'y', weight: 1, request: { url: 'http://a/y', method: 'GET', headers: {}, timeoutMs: 4000 } },
          ],
        },
      },
      0 + 300 + 4000 + 60_000,
    ],
  ])('trialDeadlineMs: %s', (_l, edit, expected) => {
    const plan = { ...planSpec.plan, scenarios: planSpec.plan.scenarios.map((x) => ({ ...x, ...edit })) };
    expect(trialDeadlineMs(plan, { scenario: 'a', phase: 'p1' })).toBe(expected);
  });

  it('trialDeadlineMs: no bound for a request count, an unknown phase', () => {
    const plan = {
      ...planSpec.plan,
      scenarios: [
        { ...scenario('n', 1, []), phases: [{ kind: 'closed' as const, name: 'n2k', connections: 1, requests: 2000 }] },
      ],
    };
    expect(trialDeadlineMs(plan, { scenario: 'n', phase: 'n2k' })).toBeUndefined();
    expect(trialDeadlineMs(plan, { scenario: 'n', phase: 'nope' })).toBeUndefined();
  });
});

describe('withSessions', () => {
  const lifecycle = (docker: FakeDocker, signals: Array<() => Promise<void>> = []) => ({
    docker,
    log: () => {},
    onSignal: (teardown: () => Promise<void>) => {
      signals.push(teardown);
      return () => void signals.splice(signals.indexOf(teardown), 1);
    },
  });

  it('opens two sessions, tears both down and sweeps the run after the body', async () => {
    const docker = new FakeDocker();
    const base = new FakeCompose('perfgate-r1-base');
    const head = new FakeCompose('perfgate-r1-head');
    const signals: Array<() => Promise<void>> = [];
    const out = await withSessions(
      'r1',
      [
        { opts: options({ side: 'base' }), compose: base, sample: () => {} },
        { opts: options({ side: 'head' }), compose: head, sample: () => {} },
      ],
      lifecycle(docker, signals),
      async (sessions) => {
        expect(signals).toHaveLength(1);
        return sessions.map((s) => (s as SutSession).project);
      },
    );
    expect(out).toEqual(['perfgate-r1-base', 'perfgate-r1-head']);
    expect(base.calls.at(-1)).toBe('down');
    expect(head.calls.at(-1)).toBe('down');
    expect(docker.calls.at(-1)).toBe('sweep r1');
    expect(signals).toHaveLength(0);
  });

  it('when the second side fails to boot, the first is torn down too and the error names the side', async () => {
    const docker = new FakeDocker();
    const base = new FakeCompose('perfgate-r1-base');
    const head = new FakeCompose('perfgate-r1-head');
    head.upError = 'container api exited (1)';
    const err = await failure(
      withSessions(
        'r1',
        [
          { opts: options({ side: 'base' }), compose: base, sample: () => {} },
          { opts: options({ side: 'head' }), compose: head, sample: () => {} },
        ],
        lifecycle(docker),
        async () => 'never',
      ),
    );
    expect(err.message).toBe('head: SUT failed to start or become healthy: container api exited (1)');
    expect(base.calls).toEqual(['prepare', 'up', 'down']);
    // the failed side cleaned up after itself: taken down once, not twice
    expect(head.calls).toEqual(['prepare', 'up', 'down']);
    expect(docker.calls.at(-1)).toBe('sweep r1');
  });

  it('both sides boot at once; when the first fails, the error is its, and the second is taken down once', async () => {
    const docker = new FakeDocker();
    const base = new FakeCompose('perfgate-r1-base');
    const head = new FakeCompose('perfgate-r1-head');
    base.upError = 'container api exited (1)';
    // head's boot starts before base's has failed: they run at once
    let headUpBeforeBaseFailed = false;
    const up = base.up.bind(base);
    base.up = async () => {
      await new Promise((r) => setTimeout(r, 5));
      headUpBeforeBaseFailed = head.calls.includes('up');
      return up();
    };
    const err = await failure(
      withSessions(
        'r1',
        [
          { opts: options({ side: 'base' }), compose: base, sample: () => {} },
          { opts: options({ side: 'head' }), compose: head, sample: () => {} },
        ],
        lifecycle(docker),
        async () => 'never',
      ),
    );
    expect(err.message).toBe('base: SUT failed to start or become healthy: container api exited (1)');
    expect(headUpBeforeBaseFailed).toBe(true);
    expect(base.calls).toEqual(['prepare', 'up', 'down']);
    expect(head.calls).toEqual(['prepare', 'up', 'down']);
    expect(docker.calls.at(-1)).toBe('sweep r1');
  });

  it('a signal while a side is still booting takes that side down', async () => {
    const docker = new FakeDocker();
    const compose = new FakeCompose();
    const signals: Array<() => Promise<void>> = [];
    let release: () => void = () => {};
    compose.up = async () => {
      compose.calls.push('up');
      // the signal arrives mid-boot; the boot then ends as a killed compose would
      await signals[0]?.();
      await new Promise<void>((r) => (release = r));
      return 'interrupted';
    };
    const run = withSessions(
      'r1',
      [{ opts: options(), compose, sample: () => {} }],
      lifecycle(docker, signals),
      async () => 'never',
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(compose.calls).toEqual(['prepare', 'up', 'down']);
    release();
    await run.catch(() => {});
  });

  it('a body that throws still tears everything down', async () => {
    const docker = new FakeDocker();
    const compose = new FakeCompose();
    await expect(
      withSessions('r1', [{ opts: options(), compose, sample: () => {} }], lifecycle(docker), async () => {
        throw new Error('a bug');
      }),
    ).rejects.toThrow('a bug');
    expect(compose.calls.at(-1)).toBe('down');
    expect(docker.calls.at(-1)).toBe('sweep r1');
  });

  it('a signal during the body tears down right away, and only once', async () => {
    const docker = new FakeDocker();
    const compose = new FakeCompose();
    const signals: Array<() => Promise<void>> = [];
    let downBeforeBodyEnded = false;
    await withSessions('r1', [{ opts: options(), compose, sample: () => {} }], lifecycle(docker, signals), async () => {
      expect(signals).toHaveLength(1);
      await signals[0]?.();
      downBeforeBodyEnded = compose.calls.includes('down') && docker.calls.includes('sweep r1');
    });
    expect(downBeforeBodyEnded).toBe(true);
    expect(compose.calls.filter((c) => c === 'down')).toHaveLength(1);
    expect(docker.calls.filter((c) => c === 'sweep r1')).toHaveLength(1);
    expect(signals).toHaveLength(0);
  });
});

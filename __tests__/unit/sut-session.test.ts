import { describe, expect, it } from 'vitest';
import { failure } from './fixtures.js';
import type { ComposeClient, DockerClient } from '../../src/docker/clients.js';
import type { SutContainer } from '../../src/docker/engine.js';
import type { RunnerOptions, RunningRunner } from '../../src/docker/runner-container.js';
import { EXIT_ENVIRONMENT, UserError } from '../../src/errors.js';
import type { RunnerEvent, RunnerPlan } from '../../src/plan.js';
import { SutSession, type SutSessionOptions } from '../../src/session/sut-session.js';
import { withSessions } from '../../src/session/with-sessions.js';

/** What a fake runner does once started: the events it emits and its exit code. */
interface Script {
  events: RunnerEvent[];
  exitCode: number;
  /** the SUT container stops while this runner runs */
  crashSut?: boolean;
  /** never exits on its own */
  hang?: boolean;
  stderr?: string[];
}

class FakeDocker implements DockerClient {
  readonly calls: string[] = [];
  containersList: SutContainer[] = [
    { id: 'c1', service: 'api', state: 'running', image: 'api:1', imageId: 'sha256:a' },
  ];
  scripts: Script[] = [];
  started: RunnerOptions[] = [];
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
  async stats() {
    this.statsOpen++;
    return { stop: () => void this.statsOpen-- };
  }
  async imageDigests(containers: SutContainer[]) {
    return Object.fromEntries(containers.map((c) => [c.service, { image: c.image, id: c.imageId, digest: null }]));
  }
  async startRunner(opts: RunnerOptions, onEvent: (e: RunnerEvent) => void): Promise<RunningRunner> {
    this.started.push(opts);
    this.calls.push(`start ${opts.name}`);
    const script = this.scripts.shift() ?? { events: [{ t: 'done' }], exitCode: 0 };
    const exited = new Promise<number>((resolve) => {
      setTimeout(() => {
        for (const e of script.events) onEvent(e);
        if (script.crashSut) this.containersList = this.containersList.map((c) => ({ ...c, state: 'exited' }));
        if (!script.hang) setTimeout(() => resolve(script.exitCode), script.crashSut ? 50 : 0);
      }, 1);
    });
    return {
      containerId: `runner-${this.started.length}`,
      volumeName: opts.name ?? 'v',
      exited,
      stderrTail: () => script.stderr ?? [],
    };
  }
  async removeRunner(r: RunningRunner) {
    this.calls.push(`remove ${r.containerId}`);
  }
  async sweep(runId: string) {
    this.calls.push(`sweep ${runId}`);
    return [];
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
      { events: [{ t: 'not-ready', url: 'http://api:8080/', error: 'ECONNREFUSED', timeoutMs: 2000 }], exitCode: 0 },
      /^SUT never ready: http:\/\/api:8080\/ did not answer 2xx\/3xx within 2s \(last: ECONNREFUSED\)$/,
      ['  api  | listening on :8080', '  api  | boom'],
    ],
    [
      'the runner reports a fatal error',
      { events: [{ t: 'fatal', message: 'plan.json: bad version' }], exitCode: 1, stderr: ['trace'] },
      /^runner failed: plan\.json: bad version$/,
      ['  trace'],
    ],
    [
      'the runner exits non-zero without finishing',
      { events: [], exitCode: 9, stderr: ['node: bad option: --bogus-flag'] },
      /^runner died \(exit code 9\) before finishing$/,
      ['  node: bad option: --bogus-flag'],
    ],
    [
      'the runner exits 0 without saying done',
      { events: [], exitCode: 0 },
      /^runner died \(exit code 0\) before finishing$/,
      [],
    ],
    [
      'the SUT crashes during the run',
      { events: [], exitCode: 0, crashSut: true, hang: true },
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
    docker.scripts.push({ events: [{ t: 'done' }], exitCode: 0, crashSut: true });
    const session = await open();
    const err = await failure(session.run(spec, () => {}));
    expect(err.message).toBe('SUT crashed: service api stopped (exited) during the run');
    await session.close();
  });

  it('names the side in A/B errors', async () => {
    const { docker, open } = setup({ side: 'head' });
    docker.scripts.push({ events: [], exitCode: 137 });
    const session = await open();
    const err = await failure(session.run(spec, () => {}));
    expect(err.message).toBe('head: runner died (exit code 137) before finishing');
    await session.close();
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
        return sessions.map((s) => s.project);
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

  it('when the first side fails to boot, the second is never started or taken down', async () => {
    const docker = new FakeDocker();
    const base = new FakeCompose('perfgate-r1-base');
    const head = new FakeCompose('perfgate-r1-head');
    base.upError = 'container api exited (1)';
    await failure(
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
    expect(base.calls).toEqual(['prepare', 'up', 'down']);
    expect(head.calls).toEqual([]);
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

// One SUT under test: its compose project, resource sampling, the crash watcher and teardown. A gate,
// update or sweep run opens one; an A/B run opens two (base and head). `startRunner` starts one
// long-lived runner container against it that then runs one trial per command (`run` drives a whole
// plan through one); every way that can go wrong becomes one clear line (exit 3) naming the side;
// `close` tears everything down and is safe to call twice or after a failed `open`.
import { environmentError, EXIT_USAGE, usageError, UserError } from '../common/errors.js';
import { upFailure } from '../docker/compose.js';
import { setupFailure } from './replica-tasks.js';
import type { RunnerEvent, RunnerPlan } from '../runner-kit/plan.js';
import type { StatsSample } from '../stats/resources.js';
import type { ComposeClient, DockerClient } from '../docker/clients.js';
import type { SutContainer } from '../docker/engine.js';
import type { RunningRunner } from '../docker/runner-container.js';
import { RUNNER_KEY } from '../metrics/registry.js';
import { planProtocolOf } from '../protocols/index.js';
import { probeExpectation, type RunnerCommand, type TrialOrder } from '../runner-kit/plan.js';

export type Side = 'base' | 'head';

export interface SutSessionOptions {
  runId: string;
  labels: Record<string, string>;
  /** set in A/B runs: named in every error and in the runner's container name */
  side?: Side;
  services: string[];
  build: boolean;
  healthTimeoutS: number;
  /** how often the crash watcher looks at the SUT's containers, ms */
  pollMs?: number;
  /** slack past a trial's warm-up, duration and request timeout before its runner counts as wedged, ms */
  trialSlackMs?: number;
  /** a target (a service already running): nothing is booted or watched; the runner joins `network` */
  external?: { network: string };
}

export interface SessionDeps {
  docker: DockerClient;
  compose: ComposeClient;
  /** receives resource samples of the SUT's services and of the runner, with the container's id */
  sample: (key: string, s: StatsSample, container?: string) => void;
  log: (line: string) => void;
}

export interface RunnerSpec {
  image: string;
  cpus: number | undefined;
  script: string;
  plan: RunnerPlan;
}

export interface RunnerHandle {
  /**
   * Runs one trial (warm-up + measured run); resolves once the runner's `trial` event for it arrived.
   * Rejects (exit 3, naming the side) when the runner dies, reports fatal, or the SUT crashes while
   * the trial runs, or when the runner died since the last trial; the container is then removed.
   * Calls are run one at a time, in call order.
   */
  trial(cmd: TrialCommand): Promise<void>;
  /**
   * Sends `end`, waits for `done` and exit code 0 (anything else: exit 3), stops the runner's stats
   * and removes the container. Safe to call after a failure (then it only cleans up) and twice.
   */
  end(): Promise<void>;
}

export type TrialCommand = TrialOrder;

export class SutSession {
  private readonly stops: Array<() => void> = [];
  private readonly links = new Set<RunnerLink>();
  private containers: SutContainer[] = [];
  private networks: string[] = [];
  private watcher: CrashWatcher | undefined;
  private launches = 0;
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly opts: SutSessionOptions,
    private readonly deps: SessionDeps,
  ) {}

  /** "base: " / "head: " in A/B, nothing otherwise */
  private get prefix(): string {
    return this.opts.side ? `${this.opts.side}: ` : '';
  }

  get project(): string {
    return this.deps.compose.project;
  }

  /** Boots the SUT and waits for it to be healthy; on any failure tears down what it started and throws. */
  static async open(opts: SutSessionOptions, deps: SessionDeps): Promise<SutSession> {
    const session = new SutSession(opts, deps);
    try {
      await session.boot();
      return session;
    } catch (err) {
      await session.close();
      throw err;
    }
  }

  private async boot(): Promise<void> {
    if (this.opts.external) {
      // nothing of ours runs there: no containers to sample, nothing that can crash under our watch
      this.networks = [this.opts.external.network];
      this.watcher = { promise: new Promise<SutContainer>(() => {}), check: async () => undefined, stop: () => {} };
      return;
    }
    const { compose, docker } = this.deps;
    const model = await compose.prepare().catch((err: Error) => {
      // a compose file that cannot boot twice is the user's to fix (exit 2), not the environment's
      if (err instanceof UserError && err.exitCode === EXIT_USAGE) throw usageError(`${this.prefix}${err.message}`);
      throw environmentError(`${this.prefix}${err.message}`);
    });
    const upError = await compose.up(this.opts.services, this.opts.build, this.opts.healthTimeoutS);
    if (upError !== undefined) {
      throw environmentError(
        `${this.prefix}SUT failed to start or become healthy: ${upFailure(upError, model)}`,
        await this.sutLogs(),
      );
    }
    this.containers = (await docker.containers(compose.project)).filter((c) => c.state === 'running');
    if (this.containers.length === 0) {
      throw environmentError(
        `${this.prefix}SUT has no running container after docker compose up`,
        await this.sutLogs(),
      );
    }
    this.networks = await docker.networks(compose.project);
    for (const c of this.containers) {
      const s = await docker.stats(c.id, (sample) => this.deps.sample(c.service, sample, c.id));
      this.stops.push(s.stop);
    }
    this.watcher = watchContainers(docker, compose.project, this.containers, this.opts.pollMs ?? 1000);
    this.stops.push(this.watcher.stop);
  }

  async sutLogs(): Promise<string[]> {
    return (await this.deps.compose.logs(20).catch(() => [])).map((l) => `  ${l}`);
  }

  /**
   * Runs `plan` to its end on one runner container: every scenario's phases, `trials` trials each, in
   * plan order; throws (exit 3) when anything but a clean finish happened.
   */
  async run(spec: RunnerSpec, onEvent: (e: RunnerEvent) => void): Promise<void> {
    const runner = await this.startRunner(spec, onEvent);
    try {
      for (const s of spec.plan.scenarios) {
        for (const phase of s.phases) {
          for (let trial = 1; trial <= s.trials; trial++) {
            await runner.trial({ scenario: s.name, phase: phase.name, trial, trials: s.trials });
          }
        }
      }
      await runner.end();
    } finally {
      // after a failure: only the cleanup (a no-op after a clean end)
      await runner.end();
    }
  }

  /**
   * Starts a runner container with `spec`'s plan and resolves once it is ready (its probes passed); it
   * then runs one trial per `trial` call. Every way it can fail before that throws (exit 3), the
   * container removed.
   */
  async startRunner(spec: RunnerSpec, onEvent: (e: RunnerEvent) => void): Promise<RunnerHandle> {
    const { docker } = this.deps;
    const launch = this.launches++;
    const name = `perfgate-${this.opts.runId}${this.opts.side ? `-${this.opts.side}` : ''}-runner${launch ? `-${launch}` : ''}`;
    const link = new RunnerLink(
      {
        ...this.runnerContext(),
        deadlineMs: (cmd) => trialDeadlineMs(spec.plan, cmd, this.opts.trialSlackMs),
      },
      onEvent,
    );
    const running = await docker.startRunner(
      { ...spec, name, runId: this.opts.runId, labels: this.opts.labels, networks: this.networks },
      (e) => link.event(e),
      this.deps.log,
    );
    this.links.add(link);
    try {
      await link.attach(running);
      // torn down while the container was being created (a signal, the other A/B side failing)
      if (this.closed) throw environmentError(`${this.prefix}the run was torn down while its runner started`);
      await link.ready();
    } catch (err) {
      await link.release();
      throw err;
    }
    return link;
  }

  private runnerContext(): Omit<RunnerContext, 'deadlineMs'> {
    return {
      prefix: this.prefix,
      docker: this.deps.docker,
      watcher: this.watcher as CrashWatcher,
      sample: (s, container) => this.deps.sample(RUNNER_KEY, s, container),
      crashError: (c) => this.crashError(c),
      sutLogs: () => this.sutLogs(),
      forget: (link) => void this.links.delete(link),
    };
  }

  private async crashError(c: SutContainer) {
    return environmentError(
      `${this.prefix}SUT crashed: service ${c.service} stopped (${c.state}) during the run`,
      await this.sutLogs(),
    );
  }

  imageDigests() {
    return this.deps.docker.imageDigests(this.containers);
  }

  /** The running container of a compose service (sut.profile's perf joins it), if it has one. */
  containerOf(service: string): string | undefined {
    return this.containers.find((c) => c.service === service)?.id;
  }

  /** Stops sampling, removes runner containers and takes the compose project down. Never throws. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      for (const stop of this.stops) stop();
      for (const link of [...this.links]) await link.release();
      await this.deps.compose.down().catch(() => {});
    })();
    return this.closed;
  }
}

interface CrashWatcher {
  /** resolves when a container that was running after `up` is no longer running */
  promise: Promise<SutContainer>;
  check: () => Promise<SutContainer | undefined>;
  stop: () => void;
}

/** Polls the SUT containers that were running after `up`; resolves when one of them stops. */
function watchContainers(docker: DockerClient, project: string, running: SutContainer[], pollMs: number): CrashWatcher {
  const ids = new Set(running.map((c) => c.id));
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const check = async (): Promise<SutContainer | undefined> => {
    const now = await docker.containers(project).catch(() => undefined);
    if (!now) return undefined;
    const byId = new Map(now.map((c) => [c.id, c]));
    for (const id of ids) {
      const c = byId.get(id);
      if (c?.state !== 'running')
        return c ?? { ...(running.find((r) => r.id === id) as SutContainer), state: 'removed' };
    }
    return undefined;
  };
  const promise = new Promise<SutContainer>((resolvePromise) => {
    const tick = async () => {
      const c = await check();
      if (stopped) return;
      if (c) resolvePromise(c);
      else timer = setTimeout(tick, pollMs);
    };
    timer = setTimeout(tick, pollMs);
  });
  return {
    promise,
    check,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** What a runner's handle needs of its session. */
interface RunnerContext {
  prefix: string;
  docker: DockerClient;
  watcher: CrashWatcher;
  sample: (s: StatsSample, container?: string) => void;
  crashError: (c: SutContainer) => Promise<Error>;
  sutLogs: () => Promise<string[]>;
  forget: (link: RunnerLink) => void;
  /** the longest a trial may take, ms; undefined where the plan sets no time (a request count) */
  deadlineMs: (cmd: TrialCommand) => number | undefined;
}

/** Slack past a trial's warm-up, duration and request timeout before its runner is judged wedged. */
const TRIAL_SLACK_MS = 60_000;

/** How long a trial of `cmd`'s phase may take: warm-up + duration + a request timeout per stage + slack. */
export function trialDeadlineMs(
  plan: RunnerPlan,
  cmd: Pick<TrialCommand, 'scenario' | 'phase'>,
  slackMs = TRIAL_SLACK_MS,
): number | undefined {
  const s = plan.scenarios.find((x) => x.name === cmd.scenario);
  const phase = s?.phases.find((p) => p.name === cmd.phase);
  if (!s || !phase || phase.kind === 'ws' || (phase.kind === 'closed' && phase.requests !== undefined))
    return undefined;
  const duration = phase.durationMs ?? 0;
  // the warm-up and the measured stage each wait for their requests in flight, up to the timeout
  const scenarioTimeout = s.requestTimeoutMs ?? plan.requestTimeoutMs;
  const timeout = planProtocolOf(s.target).longestTimeoutMs(s.target, scenarioTimeout);
  return s.warmupMs + duration + (s.warmupMs > 0 ? 2 : 1) * timeout + slackMs;
}

/**
 * How long a runner that reported `fatal` or `not-ready` gets to exit (its stderr read to the end)
 * before it is judged anyway: it exits right after, but a wedged one must not hang the run.
 */
const LAST_WORDS_MS = 5000;

/**
 * The host's side of one runner container: what it said (events) and did (its exit), the SUT's
 * crash watcher, and one waiting primitive over all three (`until`), so that a trial, the start and
 * the end each wait for "my answer, or anything that means there will be none".
 */
class RunnerLink implements RunnerHandle {
  private runner: RunningRunner | undefined;
  private stopStats = () => {};
  private isReady = false;
  private done = false;
  private notReady: Extract<RunnerEvent, { t: 'not-ready' }> | undefined;
  private setupFailed: Extract<RunnerEvent, { t: 'setup-failed' }> | undefined;
  private fatal: string | undefined;
  private exit: { code: number } | { error: string } | undefined;
  private crashed: SutContainer | undefined;
  private lastWords: NodeJS.Timeout | undefined;
  private lastWordsOver = false;
  /** the trial in flight: `started` once its first `stage` event arrived, `finished` with its `trial` event */
  private pending: { started: boolean; finished: boolean } | undefined;
  private failure: Error | undefined;
  private released: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly ctx: RunnerContext,
    private readonly onEvent: (e: RunnerEvent) => void,
  ) {}

  event(e: RunnerEvent): void {
    if (e.t === 'ready') this.isReady = true;
    else if (e.t === 'done') this.done = true;
    else if (e.t === 'stage' && this.pending) this.pending.started = true;
    else if (e.t === 'trial' && this.pending) this.pending.finished = true;
    else if (e.t === 'not-ready') this.notReady = e;
    else if (e.t === 'setup-failed') this.setupFailed = e;
    else if (e.t === 'fatal') this.fatal = e.message;
    if (e.t === 'not-ready' || e.t === 'setup-failed' || e.t === 'fatal') this.awaitLastWords();
    this.onEvent(e);
    this.wake();
  }

  /** Watches the started container's exit and the SUT, and samples the runner's resources. */
  async attach(runner: RunningRunner): Promise<void> {
    this.runner = runner;
    void runner.exited.then(
      (code) => this.settle({ code }),
      (err: Error) => this.settle({ error: err.message.split('\n')[0] ?? '' }),
    );
    void this.ctx.watcher.promise.then((c) => {
      this.crashed = c;
      this.wake();
    });
    this.stopStats = (
      await this.ctx.docker.stats(runner.containerId, (s) => this.ctx.sample(s, runner.containerId))
    ).stop;
  }

  /** Resolves on `ready`; throws (and releases) on anything that means the runner will never be. */
  async ready(): Promise<void> {
    await this.until(() => this.isReady || this.over());
    if (this.over()) throw await this.fail(await this.verdict('start'));
  }

  trial(cmd: TrialCommand): Promise<void> {
    return this.serial(async () => {
      if (this.failure) throw this.failure;
      if (this.released) throw new Error('runner handle used after end() or the session closed');
      if (this.over()) throw await this.fail(await this.verdict('idle'));
      const pending = { started: false, finished: false };
      this.pending = pending;
      // a trial of a phase given by duration has a bound: a runner that overruns it far is wedged
      const limitMs = this.ctx.deadlineMs(cmd);
      let overdue = false;
      const timer =
        limitMs === undefined
          ? undefined
          : setTimeout(() => {
              overdue = true;
              this.wake();
            }, limitMs);
      try {
        this.send({ c: 'trial', ...cmd });
        await this.until(() => pending.finished || overdue || this.over());
      } finally {
        clearTimeout(timer);
        this.pending = undefined;
      }
      if (overdue && !pending.finished && !this.over()) {
        throw await this.fail(
          environmentError(
            `${this.ctx.prefix}runner did not finish trial ${cmd.trial} of ${cmd.scenario}/${cmd.phase} within ${Math.round((limitMs as number) / 1000)}s (warm-up, duration and a minute of slack)`,
            (this.runner?.stderrTail() ?? []).map((l) => `  ${l}`),
          ),
        );
      }
      if (!pending.finished || this.over())
        throw await this.fail(await this.verdict(pending.started ? 'busy' : 'idle'));
      // a service that stopped within the last poll interval: its errors are not the service's verdict
      const late = await this.ctx.watcher.check();
      if (late) throw await this.fail(await this.ctx.crashError(late));
    });
  }

  end(): Promise<void> {
    return this.serial(async () => {
      if (this.failure || this.released) return this.release();
      try {
        if (this.over()) throw await this.verdict('idle');
        this.send({ c: 'end' });
        await this.until(() => this.over());
        const clean = !this.crashed && this.done && this.fatal === undefined && this.exitCode() === 0;
        if (!clean) throw await this.verdict('busy');
        const late = await this.ctx.watcher.check();
        if (late) throw await this.ctx.crashError(late);
      } catch (err) {
        this.failure = err as Error;
        throw err;
      } finally {
        await this.release();
      }
    });
  }

  /** Stops the runner's stats and removes its container; once, however often it is called. */
  release(): Promise<void> {
    this.released ??= (async () => {
      clearTimeout(this.lastWords);
      this.stopStats();
      if (this.runner) await this.ctx.docker.removeRunner(this.runner);
      this.ctx.forget(this);
    })();
    return this.released;
  }

  private send(command: RunnerCommand): void {
    (this.runner as RunningRunner).send(command);
  }

  /** Nothing more will come from this runner: it exited, the SUT crashed, or it gave up and had time to exit. */
  private over(): boolean {
    return (
      this.exit !== undefined ||
      this.crashed !== undefined ||
      ((this.notReady !== undefined || this.setupFailed !== undefined || this.fatal !== undefined) &&
        this.lastWordsOver)
    );
  }

  private exitCode(): number | undefined {
    return this.exit && 'code' in this.exit ? this.exit.code : undefined;
  }

  /**
   * Why this runner cannot go on, in the order that names the cause: a SUT crash (seen now or within
   * the last poll) before the runner's own account, which comes before its exit code. `idle`: it died
   * with no trial under way (after the last one, or before it took the next); `start`/`busy`: before
   * finishing what it was doing.
   */
  private async verdict(when: 'start' | 'idle' | 'busy'): Promise<Error> {
    const { prefix } = this.ctx;
    if (this.crashed) return this.ctx.crashError(this.crashed);
    if (this.exit && 'error' in this.exit) {
      return environmentError(`${prefix}docker: waiting for the runner: ${this.exit.error}`);
    }
    const late = await this.ctx.watcher.check();
    if (late) return this.ctx.crashError(late);
    if (this.notReady) {
      const { url, timeoutMs, error } = this.notReady;
      return environmentError(
        `${prefix}SUT never ready: ${url} did not ${probeExpectation(url)} within ${timeoutMs / 1000}s (last: ${error})`,
        await this.ctx.sutLogs(),
      );
    }
    if (this.setupFailed) return environmentError(setupFailure(prefix, this.setupFailed));
    const stderr = (this.runner?.stderrTail() ?? []).map((l) => `  ${l}`);
    if (this.fatal !== undefined) return environmentError(`${prefix}runner failed: ${this.fatal}`, stderr);
    const code = this.exitCode() ?? 'unknown';
    const what = when === 'idle' ? 'between trials' : 'before finishing';
    return environmentError(`${prefix}runner died (exit code ${code}) ${what}`, stderr);
  }

  private async fail(err: Error): Promise<Error> {
    this.failure = err;
    await this.release();
    return err;
  }

  private settle(exit: { code: number } | { error: string }): void {
    this.exit = exit;
    clearTimeout(this.lastWords);
    this.wake();
  }

  private awaitLastWords(): void {
    if (this.lastWords) return;
    this.lastWords = setTimeout(() => {
      this.lastWordsOver = true;
      this.wake();
    }, LAST_WORDS_MS);
    this.lastWords.unref();
  }

  /** Resolves once `probe` holds; it is checked now and after every event, exit or crash. */
  private until(probe: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!probe()) return;
        this.wakers.delete(check);
        resolve();
      };
      this.wakers.add(check);
      check();
    });
  }

  private wake(): void {
    for (const check of [...this.wakers]) check();
  }

  /** One call at a time, in call order: the runner takes one command at a time. */
  private serial<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step);
    this.queue = next.catch(() => {});
    return next;
  }
}

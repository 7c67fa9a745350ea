// One SUT under test: its compose project, resource sampling, the crash watcher and teardown. A gate,
// update or sweep run opens one; an A/B run opens two (base and head). `run` drives one runner
// container against it and turns every way that can go wrong into one clear line (exit 3) naming the
// side; `close` tears everything down and is safe to call twice or after a failed `open`.
import { environmentError } from '../errors.js';
import { lastLine } from '../exec.js';
import type { RunnerEvent, RunnerPlan } from '../plan.js';
import type { StatsSample } from '../stats/resources.js';
import type { ComposeClient, DockerClient } from '../docker/clients.js';
import type { SutContainer } from '../docker/engine.js';
import type { RunningRunner } from '../docker/runner-container.js';

export type Side = 'base' | 'head';

/** the resources key of perf-gate's own runner container */
export const RUNNER_RESOURCE_KEY = 'perf-gate-runner';

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
}

export interface SessionDeps {
  docker: DockerClient;
  compose: ComposeClient;
  /** receives resource samples of the SUT's services and of the runner */
  sample: (key: string, s: StatsSample) => void;
  log: (line: string) => void;
}

export interface RunnerSpec {
  image: string;
  cpus: number | undefined;
  script: string;
  plan: RunnerPlan;
}

export class SutSession {
  private readonly stops: Array<() => void> = [];
  private readonly runners: RunningRunner[] = [];
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
    const { compose, docker } = this.deps;
    await compose.prepare().catch((err: Error) => {
      throw environmentError(`${this.prefix}${err.message}`);
    });
    const upError = await compose.up(this.opts.services, this.opts.build, this.opts.healthTimeoutS);
    if (upError !== undefined) {
      throw environmentError(
        `${this.prefix}SUT failed to start or become healthy: ${lastLine(upError)}`,
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
      const s = await docker.stats(c.id, (sample) => this.deps.sample(c.service, sample));
      this.stops.push(s.stop);
    }
    this.watcher = watchContainers(docker, compose.project, this.containers, this.opts.pollMs ?? 1000);
    this.stops.push(this.watcher.stop);
  }

  async sutLogs(): Promise<string[]> {
    return (await this.deps.compose.logs(20).catch(() => [])).map((l) => `  ${l}`);
  }

  /** Runs one runner container with `plan` to its end; throws (exit 3) when anything but a clean finish happened. */
  async run(spec: RunnerSpec, onEvent: (e: RunnerEvent) => void): Promise<void> {
    const { docker } = this.deps;
    const watcher = this.watcher as CrashWatcher;
    let notReady: Extract<RunnerEvent, { t: 'not-ready' }> | undefined;
    let fatal: string | undefined;
    let done = false;
    const launch = this.launches++;
    const name = `perfgate-${this.opts.runId}${this.opts.side ? `-${this.opts.side}` : ''}-runner${launch ? `-${launch}` : ''}`;
    const runner = await docker.startRunner(
      { ...spec, name, runId: this.opts.runId, labels: this.opts.labels, networks: this.networks },
      (e) => {
        if (e.t === 'not-ready') notReady = e;
        else if (e.t === 'fatal') fatal = e.message;
        else if (e.t === 'done') done = true;
        onEvent(e);
      },
      this.deps.log,
    );
    this.runners.push(runner);
    let stopStats = () => {};
    try {
      stopStats = (await docker.stats(runner.containerId, (s) => this.deps.sample(RUNNER_RESOURCE_KEY, s))).stop;
      const outcome = await Promise.race([
        runner.exited.then(
          (code) => ({ kind: 'exited' as const, code }),
          (err: Error) => {
            throw environmentError(`${this.prefix}docker: waiting for the runner: ${err.message.split('\n')[0]}`);
          },
        ),
        watcher.promise.then((c) => ({ kind: 'crashed' as const, container: c })),
      ]);
      if (outcome.kind === 'crashed') throw await this.crashError(outcome.container);
      // a service that stopped within the last poll interval: its errors are not the service's verdict
      const late = await watcher.check();
      if (late) throw await this.crashError(late);
      if (notReady) {
        throw environmentError(
          `${this.prefix}SUT never ready: ${notReady.url} did not answer 2xx/3xx within ${notReady.timeoutMs / 1000}s (last: ${notReady.error})`,
          await this.sutLogs(),
        );
      }
      if (fatal !== undefined) {
        throw environmentError(
          `${this.prefix}runner failed: ${fatal}`,
          runner.stderrTail().map((l) => `  ${l}`),
        );
      }
      if (!done || outcome.code !== 0) {
        throw environmentError(
          `${this.prefix}runner died (exit code ${outcome.code}) before finishing`,
          runner.stderrTail().map((l) => `  ${l}`),
        );
      }
    } finally {
      stopStats();
      await docker.removeRunner(runner);
      this.runners.splice(this.runners.indexOf(runner), 1);
    }
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

  /** Stops sampling, removes runner containers and takes the compose project down. Never throws. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      for (const stop of this.stops) stop();
      for (const r of this.runners) await this.deps.docker.removeRunner(r);
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

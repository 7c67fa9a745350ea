// One SUT on a Docker Swarm: a stack deployed from the compose files (sut.orchestrator: swarm), or a
// target already running on an overlay network; its runners are replicated jobs (./swarm-runner.ts).
// The same surface as a compose session: open (boot and converge, or fail naming the service), start
// runners, close (stack rm, services and configs removed) — safe twice and after a failed open.
import { environmentError } from '../common/errors.js';
import type { SwarmClient } from '../docker/swarm.js';
import type { StackClient } from '../docker/stack.js';
import { unconverged } from '../docker/stack.js';
import type { RunnerEvent } from '../runner-kit/plan.js';
import type { ImageDigests } from '../docker/clients.js';
import { SwarmRunner } from './swarm-runner.js';
import { type RunnerSpec, type Side, trialDeadlineMs } from './sut-session.js';

export interface SwarmSessionOptions {
  runId: string;
  labels: Record<string, string>;
  side?: Side;
  healthTimeoutS: number;
  /** a target already running: the replicas join this overlay network; nothing is deployed */
  external?: { network: string };
  replicas: number;
  placement?: { constraints: string[]; maxPerNode?: number };
  /** how far ahead a trial's common start lies, ms (default 15 s: schedule, start, probe) */
  leadMs?: number;
  /** past the common start, how long a replica may still be unscheduled, ms (default 5 s) */
  graceMs?: number;
  pollMs?: number;
  trialSlackMs?: number;
}

export interface SwarmSessionDeps {
  swarm: SwarmClient;
  stack: StackClient;
  log: (line: string) => void;
  now: () => number;
}

export class SwarmSession {
  private networks: string[] = [];
  private readonly runners = new Set<SwarmRunner>();
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly opts: SwarmSessionOptions,
    private readonly deps: SwarmSessionDeps,
  ) {}

  private get prefix(): string {
    return this.opts.side ? `${this.opts.side}: ` : '';
  }

  /** Deploys the stack and waits for it to converge; on any failure removes what it started and throws. */
  static async open(opts: SwarmSessionOptions, deps: SwarmSessionDeps): Promise<SwarmSession> {
    const session = new SwarmSession(opts, deps);
    try {
      await deps.swarm.manager();
      await session.boot();
      return session;
    } catch (err) {
      await session.close();
      throw err;
    }
  }

  private async boot(): Promise<void> {
    if (this.opts.external) {
      this.networks = [this.opts.external.network];
      return;
    }
    const { stack } = this.deps;
    await stack.prepare().catch((err: Error) => {
      throw environmentError(`${this.prefix}${err.message}`);
    });
    const upError = await stack.up([], false, this.opts.healthTimeoutS);
    if (upError !== undefined) {
      throw environmentError(
        `${this.prefix}SUT stack failed to start: ${upError.trim().split('\n').at(-1)}`,
        await this.sutLogs(),
      );
    }
    this.networks = await stack.networks();
    if (this.networks.length === 0)
      throw environmentError(`${this.prefix}the SUT stack has no overlay network for the runners to join`);
  }

  async sutLogs(): Promise<string[]> {
    return (await this.deps.stack.logs(20).catch(() => [])).map((l) => `  ${l}`);
  }

  /** A service of the stack no longer running all its tasks, as the error to report. */
  private async crashed(): Promise<Error | undefined> {
    if (this.opts.external) return undefined;
    const services = await this.deps.stack.services().catch(() => undefined);
    const down = services ? unconverged(services) : [];
    if (down.length === 0) return undefined;
    return environmentError(`${this.prefix}SUT crashed: ${down[0]} during the run`, await this.sutLogs());
  }

  async startRunner(spec: RunnerSpec, onEvent: (e: RunnerEvent) => void): Promise<SwarmRunner> {
    if (this.closed) throw environmentError(`${this.prefix}the run was torn down while its runner started`);
    const runner = await SwarmRunner.start(
      {
        swarm: this.deps.swarm,
        runId: this.opts.side ? `${this.opts.runId}-${this.opts.side}` : this.opts.runId,
        labels: this.opts.labels,
        networks: this.networks,
        image: spec.image,
        ...(spec.cpus !== undefined ? { cpus: spec.cpus } : {}),
        replicas: this.opts.replicas,
        ...(this.opts.placement ? { placement: this.opts.placement } : {}),
        script: spec.script,
        plan: spec.plan,
        prefix: this.prefix,
        leadMs: this.opts.leadMs ?? 15_000,
        graceMs: this.opts.graceMs ?? 5000,
        pollMs: this.opts.pollMs ?? 250,
        deadlineMs: (cmd) => trialDeadlineMs(spec.plan, cmd, this.opts.trialSlackMs),
        crashed: () => this.crashed(),
        now: this.deps.now,
        log: this.deps.log,
      },
      onEvent,
    );
    this.runners.add(runner);
    return runner;
  }

  /** The SUT images are the nodes' to know; a swarm run records none. */
  imageDigests(): Promise<ImageDigests> {
    return Promise.resolve({});
  }

  /** A stack's tasks run on the nodes: no container here to join (sut.profile is refused on a swarm). */
  containerOf(): undefined {
    return undefined;
  }

  /** Removes every runner's services and configs and the stack. Never throws. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      for (const r of this.runners) await r.cleanup().catch(() => {});
      if (!this.opts.external) await this.deps.stack.down().catch(() => {});
    })();
    return this.closed;
  }
}

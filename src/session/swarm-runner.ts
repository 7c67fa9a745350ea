// Runner replicas on a Docker Swarm: each trial is one replicated service of `replicas` tasks, never
// restarted, on
// the SUT's overlay network(s). The plan (with the trial and a common start time) and the runner
// script go in as swarm configs; each task runs its share and exits; the host watches the tasks and
// their nodes, reads every replica's events from its task's log, merges them into one trial and hands
// that on as if one runner had measured it. Every service and config is removed after its trial, and
// whatever a failure or a signal left is swept by the run's label.
import { gzipSync } from 'node:zlib';
import { environmentError } from '../common/errors.js';
import { parseEventLine } from '../runner-kit/validate.js';
import type { RunnerEvent, RunnerPlan, TrialOrder } from '../runner-kit/plan.js';
import type { SwarmClient, SwarmNode } from '../docker/swarm.js';
import {
  judgeTasks,
  ownFailure,
  placementProblem,
  replicaTrial,
  replicaName,
  type ReplicaOutput,
} from './replica-tasks.js';
import { PLAN_PATH, REPLICA_BOOT, SCRIPT_PATH } from './replica-boot.js';
import type { RunnerHandle } from './sut-session.js';

/** The most of one task's log read back (events, progress and a histogram per trial). */
const MAX_LOG_BYTES = 32 * 1024 * 1024;

export interface SwarmRunnerOptions {
  swarm: SwarmClient;
  runId: string;
  labels: Record<string, string>;
  /** the overlay networks the replicas join */
  networks: string[];
  image: string;
  cpus?: number;
  replicas: number;
  placement?: { constraints: string[]; maxPerNode?: number };
  script: string;
  plan: RunnerPlan;
  /** "base: " / "head: " in A/B */
  prefix: string;
  /** how far ahead of its creation a trial's job starts: time to schedule, start and probe, ms */
  leadMs: number;
  /** how long past the common start a replica may still be unscheduled before it counts as missing, ms */
  graceMs: number;
  pollMs: number;
  /** the longest a trial of `cmd` may take (warm-up, duration, timeouts, slack); undefined: no bound */
  deadlineMs: (cmd: TrialOrder) => number | undefined;
  /** a crashed SUT service, as the error to report; undefined while it runs */
  crashed: () => Promise<Error | undefined>;
  now: () => number;
  log: (line: string) => void;
}

/** The runner events among a replica's stdout lines (each checked as the host checks a runner's). */
function eventsOf(stdout: readonly string[]): RunnerEvent[] {
  return stdout.map(parseEventLine).filter((e): e is RunnerEvent => e !== undefined);
}

export class SwarmRunner implements RunnerHandle {
  private scriptConfig: { id: string; name: string } | undefined;
  /** the manager's clock ahead of ours, ms: start times are set and judged by the swarm's clock */
  private clockOffsetMs = 0;
  private trials = 0;
  private failure: Error | undefined;
  private ended = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** what a trial has created, removed when it ends (or by `end` after a signal) */
  private readonly live = new Set<() => Promise<void>>();

  private constructor(
    private readonly opts: SwarmRunnerOptions,
    private readonly onEvent: (e: RunnerEvent) => void,
  ) {}

  /** Checks the engine is a swarm manager and puts the runner script in a config. */
  static async start(opts: SwarmRunnerOptions, onEvent: (e: RunnerEvent) => void): Promise<SwarmRunner> {
    const runner = new SwarmRunner(opts, onEvent);
    const { clockOffsetMs } = await opts.swarm.manager();
    runner.clockOffsetMs = clockOffsetMs;
    const problem = placementProblem(await opts.swarm.nodes(), opts.replicas, opts.placement?.maxPerNode);
    if (problem) throw environmentError(`${opts.prefix}${problem}`);
    const name = `perfgate-${opts.runId}-runner-script`;
    const id = await opts.swarm.createConfig(name, gzipSync(opts.script), opts.labels);
    runner.scriptConfig = { id, name };
    onEvent({ t: 'ready' });
    return runner;
  }

  trial(cmd: TrialOrder): Promise<void> {
    return this.serial(async () => {
      if (this.failure) throw this.failure;
      if (this.ended) throw new Error('runner handle used after end()');
      try {
        await this.runTrial(cmd);
      } catch (err) {
        this.failure = err as Error;
        throw err;
      }
    });
  }

  /** Removes what is left (the script's config; a trial's service and config after a failure). Never throws. */
  end(): Promise<void> {
    return this.serial(async () => {
      this.ended = true;
      await this.cleanup();
    });
  }

  /** Removes what the trials left, whatever is running; for a signal's teardown. */
  async cleanup(): Promise<void> {
    for (const remove of [...this.live]) await remove();
    if (this.scriptConfig) await this.opts.swarm.removeConfig(this.scriptConfig.id);
    this.scriptConfig = undefined;
  }

  private async runTrial(cmd: TrialOrder): Promise<void> {
    const { swarm, runId, labels, replicas, prefix } = this.opts;
    const n = ++this.trials;
    const startAtEpochMs = this.swarmNow() + this.opts.leadMs;
    const plan: RunnerPlan = { ...this.opts.plan, replicas: { count: replicas, trial: cmd, startAtEpochMs } };
    const planName = `perfgate-${runId}-plan-${n}`;
    const planId = await swarm.createConfig(planName, Buffer.from(JSON.stringify(plan)), labels);
    let serviceId: string | undefined;
    const remove = async (): Promise<void> => {
      this.live.delete(remove);
      if (serviceId) await swarm.removeService(serviceId);
      await swarm.removeConfig(planId);
    };
    this.live.add(remove);
    try {
      const script = this.scriptConfig as { id: string; name: string };
      serviceId = await swarm.createJob({
        name: `perfgate-${runId}-runner-${n}`,
        image: this.opts.image,
        labels,
        networks: this.opts.networks,
        replicas,
        constraints: this.opts.placement?.constraints ?? [],
        ...(this.opts.placement?.maxPerNode !== undefined ? { maxPerNode: this.opts.placement.maxPerNode } : {}),
        ...(this.opts.cpus !== undefined ? { cpus: this.opts.cpus } : {}),
        configs: [
          { ...script, path: SCRIPT_PATH },
          { id: planId, name: planName, path: PLAN_PATH },
        ],
        // PERF_GATE_REPLICA set empty: an image's own ENV must not give every replica one index
        env: [
          'NODE_ENV=production',
          'PERF_GATE_REPLICA=',
          'JOB_COMPLETION_INDEX=',
          'PERF_GATE_SWARM_SLOT={{.Task.Slot}}',
        ],
        command: ['node', '-e', REPLICA_BOOT],
      });
      this.onEvent({ t: 'stage', ...cmd, stage: 'measure' });
      const { tasks, nodes } = await this.watch(serviceId, cmd, startAtEpochMs);
      const outputs: ReplicaOutput[] = [];
      const byId = new Map(nodes.map((node) => [node.id, node]));
      for (const task of tasks) {
        const logs = await swarm.taskLogs(task.id, MAX_LOG_BYTES);
        const events = eventsOf(logs.stdout);
        for (const e of events) {
          if (e.t === 'warning') this.onEvent({ t: 'warning', message: `${replicaName(task, byId)}: ${e.message}` });
        }
        outputs.push({ task, events, ...(logs.error ? { logError: logs.error } : {}) });
      }
      let merged: ReturnType<typeof replicaTrial>;
      try {
        merged = replicaTrial(outputs, nodes, replicas);
      } catch (err) {
        throw environmentError(`${prefix}${(err as Error).message}`);
      }
      const skew = merged.trial.measurement.replicas?.startSkewMs ?? 0;
      const where = [...new Set(tasks.map((t) => nodes.find((n) => n.id === t.nodeId)?.hostname ?? '?'))].sort();
      this.opts.log(
        `${prefix}${replicas} runner replicas on ${where.length} node${where.length === 1 ? '' : 's'} (${where.join(', ')}) measured ${cmd.scenario}/${cmd.phase} trial ${cmd.trial}; start skew ${skew} ms`,
      );
      const crash = await this.opts.crashed();
      if (crash) throw crash;
      this.onEvent({
        t: 'trial',
        scenario: merged.scenario,
        phase: merged.phase,
        measurement: merged.trial.measurement,
        histogram: merged.trial.histogram,
        ...(merged.trial.requests ? { requests: merged.trial.requests } : {}),
      });
    } finally {
      await remove();
    }
  }

  /** Polls the job's tasks and their nodes until every replica completed; throws naming the first that did not. */
  private async watch(
    serviceId: string,
    cmd: TrialOrder,
    startAtEpochMs: number,
  ): Promise<{ tasks: Awaited<ReturnType<SwarmClient['tasks']>>; nodes: SwarmNode[] }> {
    const { swarm, prefix, replicas } = this.opts;
    const now = () => this.swarmNow();
    const limit = this.opts.deadlineMs(cmd);
    const deadline = limit === undefined ? undefined : startAtEpochMs + limit;
    for (;;) {
      const [tasks, nodes] = await Promise.all([swarm.tasks(serviceId), swarm.nodes()]);
      const verdict = judgeTasks(tasks, nodes, replicas, now(), startAtEpochMs, this.opts.graceMs);
      if (verdict.state === 'complete') return { tasks: verdict.tasks, nodes };
      if (verdict.state === 'failed') {
        const crash = await this.opts.crashed();
        if (crash) throw crash;
        // a replica that failed on its own says why in its log (late, a fatal error, the SUT never ready)
        const said = verdict.task ? await this.lastWords(verdict.task, nodes) : undefined;
        throw environmentError(`${prefix}${said ?? verdict.why}`);
      }
      if (deadline !== undefined && now() > deadline) {
        const byId = new Map(nodes.map((node) => [node.id, node]));
        const open = tasks.filter((t) => t.state !== 'complete').map((t) => `${replicaName(t, byId)} (${t.state})`);
        throw environmentError(
          `${prefix}runner replicas did not finish trial ${cmd.trial} of ${cmd.scenario}/${cmd.phase} within ${Math.round((limit as number) / 1000)}s of its start: ${open.join(', ') || 'every task ended, but not as complete'}`,
        );
      }
      const crash = await this.opts.crashed();
      if (crash) throw crash;
      await new Promise((r) => setTimeout(r, this.opts.pollMs));
    }
  }

  /** A failed replica's own account (its fatal or not-ready event), if it left one. */
  private async lastWords(
    task: Awaited<ReturnType<SwarmClient['tasks']>>[number],
    nodes: SwarmNode[],
  ): Promise<string | undefined> {
    const logs = await this.opts.swarm.taskLogs(task.id, MAX_LOG_BYTES).catch(() => undefined);
    if (!logs) return undefined;
    return ownFailure(replicaName(task, new Map(nodes.map((n) => [n.id, n]))), eventsOf(logs.stdout));
  }

  private swarmNow(): number {
    return this.opts.now() + this.clockOffsetMs;
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step);
    this.queue = next.catch(() => {});
    return next;
  }
}

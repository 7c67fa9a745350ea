// Pure: what the tasks of a trial's replicated job say, read against the nodes they run on; and the
// replicas' output read into one trial. Every way a replica can let the trial down (never scheduled,
// late, failed, its node gone, silent, a share taken twice) becomes one line naming it.
import type { RunnerEvent } from '../runner-kit/plan.js';
import { mergeReplicaTrials, type ReplicaTrial } from '../runner-kit/replicas.js';
import type { SwarmNode, SwarmTask } from '../docker/swarm.js';

/** States a task reaches before it runs. */
const WAITING = new Set(['new', 'allocated', 'pending', 'assigned', 'accepted', 'ready', 'preparing', 'starting']);
/** States of a task that ended badly. */
const FAILED = new Set(['failed', 'rejected', 'shutdown', 'orphaned', 'remove']);

export type TasksVerdict =
  | { state: 'waiting' | 'running' }
  | { state: 'complete'; tasks: SwarmTask[] }
  | { state: 'failed'; task?: SwarmTask; why: string };

/**
 * Whether `replicas` runners can all run at once: with at most `maxPerNode` on a node, the nodes that
 * take tasks (ready, active) must hold them all, or the last would start only when another finished
 * (late). Constraints can only narrow this further; the trial finds those. A problem line, or undefined.
 */
export function placementProblem(
  nodes: readonly SwarmNode[],
  replicas: number,
  maxPerNode: number | undefined,
): string | undefined {
  const usable = nodes.filter((n) => n.state === 'ready' && n.availability === 'active').length;
  if (usable === 0) return 'the swarm has no ready, active node to run runner replicas on';
  if (maxPerNode !== undefined && usable * maxPerNode < replicas) {
    return `runner.placement.max-per-node: ${maxPerNode} on each of the swarm's ${usable} ready, active node${usable === 1 ? '' : 's'} holds ${usable * maxPerNode} runner replicas, not runner.replicas ${replicas}`;
  }
  return undefined;
}

/** How a replica is named in a message: its index (its swarm slot less 1), its task and its node. */
export function replicaName(task: SwarmTask, nodes: ReadonlyMap<string, SwarmNode>): string {
  const node = task.nodeId ? (nodes.get(task.nodeId)?.hostname ?? task.nodeId.slice(0, 12)) : undefined;
  return `runner replica ${task.slot !== undefined ? task.slot - 1 : '?'} (task ${task.id.slice(0, 12)}${node ? ` on node ${node}` : ''})`;
}

/**
 * The job's tasks now. `startAtEpochMs`: the common start; a replica not running by then plus
 * `graceMs` is missing (it could not be scheduled, or its image not pulled, in time).
 */
export function judgeTasks(
  tasks: readonly SwarmTask[],
  nodes: readonly SwarmNode[],
  replicas: number,
  now: number,
  startAtEpochMs: number,
  graceMs: number,
): TasksVerdict {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const t of tasks) {
    if (FAILED.has(t.state)) {
      const how = t.error ?? (t.exitCode !== undefined ? `exit code ${t.exitCode}` : t.state);
      return { state: 'failed', task: t, why: `${replicaName(t, byId)} ${t.state}: ${how}` };
    }
  }
  for (const t of tasks) {
    const node = t.nodeId ? byId.get(t.nodeId) : undefined;
    // swarm keeps a dead node's task "running" until the node is removed: the node's state says it
    if (t.state !== 'complete' && t.nodeId && (!node || node.state !== 'ready')) {
      return {
        state: 'failed',
        task: t,
        why: `${replicaName(t, byId)}: its node is ${node ? node.state : 'gone'} (the replica died with it)`,
      };
    }
  }
  const complete = tasks.filter((t) => t.state === 'complete');
  if (complete.length === replicas) return { state: 'complete', tasks: complete };
  const late = now > startAtEpochMs + graceMs;
  if (late) {
    const waiting = tasks.filter((t) => WAITING.has(t.state));
    const first = waiting[0];
    if (first) {
      return {
        state: 'failed',
        task: first,
        why: `${replicaName(first, byId)} missing: still ${first.state} ${Math.round((now - startAtEpochMs) / 1000)}s after the common start${first.error ? ` (${first.error})` : ''}`,
      };
    }
    if (tasks.length < replicas) {
      return {
        state: 'failed',
        why: `runner replicas missing: ${replicas - tasks.length} of ${replicas} never got a task`,
      };
    }
  }
  return { state: tasks.some((t) => t.state === 'running') ? 'running' : 'waiting' };
}

/** A setup step that failed, in one line: the step and what it got (the runner bounds and escapes it). */
export function setupFailure(prefix: string, e: { step: string; message: string }): string {
  return `${prefix}setup step ${e.step} failed: ${e.message}`;
}

/** A replica's own account of its failure (its `fatal`, else its `not-ready` or `setup-failed` event), as the line naming it. */
export function ownFailure(name: string, events: readonly RunnerEvent[]): string | undefined {
  const fatal = events.find((e): e is Extract<RunnerEvent, { t: 'fatal' }> => e.t === 'fatal');
  if (fatal) return `${name} failed: ${fatal.message}`;
  const notReady = events.find((e): e is Extract<RunnerEvent, { t: 'not-ready' }> => e.t === 'not-ready');
  if (notReady) return `${name}: SUT never ready: ${notReady.url} (last: ${notReady.error})`;
  const setup = events.find((e): e is Extract<RunnerEvent, { t: 'setup-failed' }> => e.t === 'setup-failed');
  if (setup) return setupFailure(`${name}: `, setup);
  return undefined;
}

export type ReplicaOutput = {
  task: SwarmTask;
  events: RunnerEvent[];
  /** why its log may be incomplete (the engine's complaint, a timeout) */
  logError?: string;
};

/**
 * The replicas' events as one trial: each must have said hello with a distinct index 0..count-1,
 * reported one trial and said done; their trials merged in index order, with where each measured
 * stage started. Throws a message naming the replica that did not.
 */
export function replicaTrial(
  outputs: readonly ReplicaOutput[],
  nodes: readonly SwarmNode[],
  count: number,
): { trial: ReplicaTrial; scenario: string; phase: string } {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const slots: Array<{ trial: Extract<RunnerEvent, { t: 'trial' }>; startedAt: number } | undefined> = Array.from(
    { length: count },
    () => undefined,
  );
  for (const { task, events, logError } of outputs) {
    const name = replicaName(task, byId);
    const unread = logError ? ` (its log could not be read whole: ${logError})` : '';
    const failed = ownFailure(name, events);
    if (failed) throw new Error(failed);
    const hello = events.find((e): e is Extract<RunnerEvent, { t: 'hello' }> => e.t === 'hello');
    const index = hello?.replica;
    if (index === undefined || index >= count) throw new Error(`${name} did not say which replica it is${unread}`);
    if (slots[index]) throw new Error(`${name} took replica ${index}'s share, which another replica ran too`);
    const trial = events.find((e): e is Extract<RunnerEvent, { t: 'trial' }> => e.t === 'trial');
    if (!trial || !events.some((e) => e.t === 'done'))
      throw new Error(`${name} ended without reporting its trial${unread}`);
    const measure = events.find(
      (e): e is Extract<RunnerEvent, { t: 'stage' }> => e.t === 'stage' && e.stage === 'measure',
    );
    if (measure?.atEpochMs === undefined) throw new Error(`${name} did not say when its measured stage started`);
    slots[index] = { trial, startedAt: measure.atEpochMs };
  }
  const missing = slots.findIndex((s) => s === undefined);
  if (missing >= 0) throw new Error(`runner replica ${missing} reported nothing`);
  const done = slots as Array<{ trial: Extract<RunnerEvent, { t: 'trial' }>; startedAt: number }>;
  const first = done[0] as (typeof done)[number];
  const trial = mergeReplicaTrials(
    done.map(({ trial: t }) => ({
      measurement: t.measurement,
      histogram: t.histogram,
      ...(t.requests ? { requests: t.requests } : {}),
    })),
    done.map((d) => d.startedAt),
  );
  return { trial, scenario: first.trial.scenario, phase: first.trial.phase };
}

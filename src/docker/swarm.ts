// The Docker Swarm the engine manages, through its API (dockerode): runner replicas as one
// replicated service whose tasks are never restarted, their plan and script as swarm configs, the tasks and nodes a trial
// watches, task logs, and the label sweep. Nothing here touches a swarm's own state (join, leave,
// node updates): perf-gate uses a swarm that exists.
import type Docker from 'dockerode';
import { environmentError } from '../common/errors.js';
import { LABEL_RUN_ID } from './labels.js';

export interface SwarmNode {
  id: string;
  hostname: string;
  /** ready, down, unknown, disconnected */
  state: string;
  /** active, pause, drain */
  availability: string;
}

export interface SwarmTask {
  id: string;
  serviceId: string;
  /** the task's slot: 1..replicas in a replicated service */
  slot?: number;
  nodeId?: string;
  /** new, pending, assigned, accepted, preparing, starting, running, complete, failed, rejected, shutdown, orphaned, ... */
  state: string;
  desiredState: string;
  /** swarm's account of a failure (no suitable node, task: non-zero exit (1)) */
  error?: string;
  exitCode?: number;
}

/**
 * Runner replicas as one replicated service whose tasks are never restarted: a job in all but name.
 * Not a replicated-job service: once removed, a replicated job leaves its exited task containers on
 * every node (Docker 20.10, seen on the nested test swarm), where a replicated service's go with it.
 */
export interface JobSpec {
  name: string;
  image: string;
  labels: Record<string, string>;
  networks: string[];
  replicas: number;
  constraints: string[];
  maxPerNode?: number;
  /** CPUs each replica may use */
  cpus?: number;
  /** swarm configs mounted as files (read-only) */
  configs: Array<{ id: string; name: string; path: string }>;
  env: string[];
  command: string[];
}

export interface SwarmClient {
  /**
   * The engine is a manager of an active swarm (else an environment error saying what it is); and how
   * far its clock is ahead of this process's, ms (replicas start by the nodes' clocks, not the host's)
   */
  manager(): Promise<{ nodeId: string; clockOffsetMs: number }>;
  createConfig(name: string, data: Buffer, labels: Record<string, string>): Promise<string>;
  createJob(spec: JobSpec): Promise<string>;
  tasks(serviceId: string): Promise<SwarmTask[]>;
  nodes(): Promise<SwarmNode[]>;
  /** a task's output: its last lines, at most `maxBytes` of each stream, read for at most 30 s */
  taskLogs(taskId: string, maxBytes: number): Promise<TaskLog>;
  /** removes a service; never throws */
  removeService(id: string): Promise<void>;
  /** removes a config; never throws (a config still in use by a service going away is retried) */
  removeConfig(id: string): Promise<void>;
  /** removes the services and configs labelled with the run id; never throws */
  sweep(runId: string): Promise<string[]>;
}

/** A task's log as read: the last lines of each stream, and why it may be incomplete. */
export interface TaskLog {
  stdout: string[];
  stderr: string[];
  /** the engine's own complaint (its stream 3: "incomplete log stream"), a cut-off read, or a timeout */
  error?: string;
}

/**
 * A non-TTY log body read frame by frame as it arrives, keeping the last `maxBytes` of each stream as
 * whole lines: a replica's trial is the last thing it writes, and a runner image that writes a
 * gigabyte must not make the host hold it.
 */
export class LogTail {
  private pending: Buffer = Buffer.alloc(0);
  /** each stream's kept lines, their size, and the bytes of its unfinished line (a character may span frames) */
  private readonly kept: Record<'out' | 'err', { lines: string[]; bytes: number; partial: Buffer }> = {
    out: { lines: [], bytes: 0, partial: Buffer.alloc(0) },
    err: { lines: [], bytes: 0, partial: Buffer.alloc(0) },
  };
  private daemon: string | undefined;

  constructor(private readonly maxBytes: number) {}

  feed(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    while (at + 8 <= this.pending.length) {
      const size = this.pending.readUInt32BE(at + 4);
      if (at + 8 + size > this.pending.length) break;
      const stream = this.pending[at] as number;
      const body = this.pending.subarray(at + 8, at + 8 + size);
      if (stream === 3) this.daemon = body.toString('utf8').trim().slice(0, 300);
      else this.bytes(stream === 2 ? 'err' : 'out', body);
      at += 8 + size;
    }
    this.pending = this.pending.subarray(at);
  }

  /** Lines are cut at newline bytes and only then decoded, so a character split across frames stays whole. */
  private bytes(which: 'out' | 'err', body: Buffer): void {
    const k = this.kept[which];
    let rest = k.partial.length ? Buffer.concat([k.partial, body]) : body;
    for (let nl = rest.indexOf(10); nl >= 0; nl = rest.indexOf(10)) {
      const line = rest.subarray(0, nl).toString('utf8');
      rest = rest.subarray(nl + 1);
      if (line.length === 0) continue;
      k.lines.push(line);
      k.bytes += line.length;
      while (k.bytes > this.maxBytes && k.lines.length > 1) k.bytes -= (k.lines.shift() as string).length;
    }
    k.partial =
      rest.length > this.maxBytes ? Buffer.from(rest.subarray(rest.length - this.maxBytes)) : Buffer.from(rest);
  }

  result(cut?: string): TaskLog {
    const lines = (which: 'out' | 'err') => {
      const k = this.kept[which];
      return k.partial.length ? [...k.lines, k.partial.toString('utf8')] : [...k.lines];
    };
    const error = this.daemon ?? cut ?? (this.pending.length > 0 ? 'the log ended inside a frame' : undefined);
    return { stdout: lines('out'), stderr: lines('err'), ...(error ? { error } : {}) };
  }
}

/** How long reading one task's log may take. */
const LOG_READ_MS = 30_000;

type RawTask = {
  ID: string;
  ServiceID: string;
  Slot?: number;
  NodeID?: string;
  DesiredState: string;
  Status?: { State?: string; Err?: string; ContainerStatus?: { ExitCode?: number } };
};

function taskOf(t: RawTask): SwarmTask {
  const task: SwarmTask = {
    id: t.ID,
    serviceId: t.ServiceID,
    state: t.Status?.State ?? 'unknown',
    desiredState: t.DesiredState,
  };
  if (t.Slot !== undefined) task.slot = t.Slot;
  if (t.NodeID) task.nodeId = t.NodeID;
  if (t.Status?.Err) task.error = t.Status.Err;
  if (t.Status?.ContainerStatus?.ExitCode !== undefined) task.exitCode = t.Status.ContainerStatus.ExitCode;
  return task;
}

/** Wraps a swarm API call: its failure is the environment's (exit 3). */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw environmentError(`docker swarm: ${what}: ${(err as Error).message.split('\n')[0]}`);
  }
}

export function swarmClient(docker: Docker): SwarmClient {
  return {
    async manager() {
      const asked = Date.now();
      const info = (await call('reading the engine info', () => docker.info())) as {
        Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean; NodeID?: string };
        SystemTime?: string;
      };
      const answered = Date.now();
      const engineTime = info.SystemTime ? Date.parse(info.SystemTime) : NaN;
      const clockOffsetMs = Number.isFinite(engineTime) ? Math.round(engineTime - (asked + answered) / 2) : 0;
      const state = info.Swarm?.LocalNodeState ?? 'inactive';
      if (state !== 'active' || !info.Swarm?.ControlAvailable) {
        throw environmentError(
          `docker swarm: runner replicas and swarm stacks need a swarm manager; this engine's swarm state is ${state}${state === 'active' ? ' (a worker)' : ''} (docker swarm init, or point DOCKER_HOST at a manager)`,
        );
      }
      return { nodeId: info.Swarm.NodeID ?? '', clockOffsetMs };
    },
    async createConfig(name, data, labels) {
      const created = (await call(`creating config ${name}`, () =>
        docker.createConfig({ Name: name, Labels: labels, Data: data.toString('base64') }),
      )) as { id?: string; ID?: string };
      return (created.id ?? created.ID) as string;
    },
    async createJob(spec) {
      const service = await call(`creating service ${spec.name}`, () =>
        docker.createService({
          Name: spec.name,
          Labels: spec.labels,
          TaskTemplate: {
            ContainerSpec: {
              Image: spec.image,
              Command: spec.command,
              Env: spec.env,
              Labels: spec.labels,
              ReadOnly: true,
              // a replica asked to stop (the trial failed elsewhere) exits on SIGTERM; 2 s, then SIGKILL
              StopGracePeriod: 2_000_000_000,
              CapabilityDrop: ['ALL'],
              Mounts: [{ Type: 'tmpfs', Target: '/tmp', TmpfsOptions: { SizeBytes: 64 * 1024 * 1024 } }],
              Configs: spec.configs.map((c) => ({
                ConfigID: c.id,
                ConfigName: c.name,
                File: { Name: c.path, UID: '0', GID: '0', Mode: 0o444 },
              })),
            },
            Resources: spec.cpus !== undefined ? { Limits: { NanoCPUs: Math.round(spec.cpus * 1e9) } } : {},
            RestartPolicy: { Condition: 'none' },
            Placement: {
              Constraints: spec.constraints,
              ...(spec.maxPerNode !== undefined ? { MaxReplicas: spec.maxPerNode } : {}),
            },
            Networks: spec.networks.map((n) => ({ Target: n })),
          },
          Mode: { Replicated: { Replicas: spec.replicas } },
          // no VIP: a job takes no traffic, and kernels without IPVS cannot make one
          EndpointSpec: { Mode: 'dnsrr' },
        } as unknown as Docker.CreateServiceOptions),
      );
      return (service as unknown as { id: string }).id;
    },
    async tasks(serviceId) {
      const raw = (await call('listing tasks', () =>
        docker.listTasks({ filters: { service: [serviceId] } }),
      )) as unknown as RawTask[];
      return raw.map(taskOf);
    },
    async nodes() {
      const raw = (await call('listing nodes', () => docker.listNodes())) as unknown as Array<{
        ID: string;
        Description?: { Hostname?: string };
        Status?: { State?: string };
        Spec?: { Availability?: string };
      }>;
      return raw.map((n) => ({
        id: n.ID,
        hostname: n.Description?.Hostname ?? n.ID,
        state: n.Status?.State ?? 'unknown',
        availability: n.Spec?.Availability ?? 'active',
      }));
    },
    async taskLogs(taskId, maxBytes) {
      const stream = await call(
        'reading task logs',
        () =>
          new Promise<NodeJS.ReadableStream>((resolve, reject) => {
            // streamed, not buffered (dockerode buffers a log that is not followed, whatever its size)
            docker.modem.dial(
              {
                path: `/tasks/${taskId}/logs?`,
                method: 'GET',
                options: { stdout: true, stderr: true, follow: false },
                isStream: true,
                statusCodes: {
                  200: true,
                  404: 'no such task',
                  500: 'server error',
                  503: 'node is not part of a swarm',
                },
              },
              (err: Error | null, data: unknown) => (err ? reject(err) : resolve(data as NodeJS.ReadableStream)),
            );
          }),
      );
      const tail = new LogTail(maxBytes);
      const cut = await new Promise<string | undefined>((resolve) => {
        const timer = setTimeout(() => {
          (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
          resolve(`reading it took more than ${LOG_READ_MS / 1000}s`);
        }, LOG_READ_MS);
        stream.on('data', (chunk: Buffer) => tail.feed(chunk));
        stream.on('end', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
        stream.on('error', (err: Error) => {
          clearTimeout(timer);
          resolve(err.message.split('\n')[0]);
        });
      });
      return tail.result(cut);
    },
    async removeService(id) {
      await docker
        .getService(id)
        .remove()
        .catch(() => {});
    },
    removeConfig: (id) => removeConfig(docker, id),
    async sweep(runId) {
      const removed: string[] = [];
      const filters = { label: [`${LABEL_RUN_ID}=${runId}`] };
      const services = (await docker.listServices({ filters }).catch(() => [])) as Array<{
        ID: string;
        Spec?: { Name?: string };
      }>;
      for (const s of services) {
        await docker
          .getService(s.ID)
          .remove()
          .then(() => removed.push(`service ${s.Spec?.Name ?? s.ID}`))
          .catch(() => {});
      }
      const configs = (await docker.listConfigs({ filters }).catch(() => [])) as Array<{
        ID: string;
        Spec?: { Name?: string };
      }>;
      for (const c of configs) {
        await removeConfig(docker, c.ID);
        removed.push(`config ${c.Spec?.Name ?? c.ID}`);
      }
      return removed;
    },
  };
}

/** Removes a config, retrying while the tasks of a service going away still hold it; never throws. */
async function removeConfig(docker: Docker, id: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    try {
      await docker.getConfig(id).remove();
      return;
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

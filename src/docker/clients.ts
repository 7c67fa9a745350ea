// The two small interfaces a SUT session needs from Docker, and their real implementations: the
// engine API through dockerode, and a compose project through the `docker compose` v2 CLI. Unit tests
// pass fakes; integration tests use these. Only failures of these calls become "docker: …" (exit 3).
import type Docker from 'dockerode';
import { environmentError, UserError } from '../common/errors.js';
import type { Exec } from '../common/exec.js';
import type { StatsSample } from '../stats/resources.js';
import { type ComposeModel, type ComposeOptions, ComposeProject } from './compose.js';
import type { SideBySide } from './side-by-side.js';
import {
  engineVersion,
  type HelperExit,
  imageDigests,
  projectContainers,
  projectNetworks,
  type SutContainer,
  streamStats,
  runHelper,
  sweepRun,
} from './engine.js';
import { perfHelperCreate, type PerfHelperOptions } from './perf-helper.js';
import { ensureImage, type RunnerOptions, type RunningRunner, startRunner } from './runner-container.js';
import type { RunnerEvent } from '../runner-kit/plan.js';

export type ImageDigests = Record<string, { image: string; id: string; digest: string | null }>;

export interface DockerClient {
  version(): Promise<{ version: string; apiVersion: string }>;
  containers(project: string): Promise<SutContainer[]>;
  networks(project: string): Promise<string[]>;
  stats(containerId: string, onSample: (s: StatsSample) => void): Promise<{ stop: () => void }>;
  imageDigests(containers: SutContainer[]): Promise<ImageDigests>;
  /** starts a long-lived runner container; its `send` takes the commands (one trial each, then `end`) */
  startRunner(
    opts: RunnerOptions,
    onEvent: (e: RunnerEvent) => void,
    onLog: (line: string) => void,
  ): Promise<RunningRunner>;
  /** the runner image is here, or pulled; an environment error naming it otherwise */
  ensureImage(image: string): Promise<void>;
  /** removes a container and the runner volume named after it; never throws */
  removeRunner(runner: RunningRunner): Promise<void>;
  /** removes everything labelled with the run id; never throws */
  sweep(runId: string): Promise<string[]>;
  /** sut.profile's perf: the helper container beside a service (./perf-helper.ts), started at once,
   * sampling from when `go` resolves true (stopped when false), its output bounded to `maxBytes`,
   * killed `timeoutMs` after it began, removed */
  runPerfHelper(
    opts: PerfHelperOptions,
    maxBytes: number,
    timeoutMs: number,
    go: Promise<boolean>,
  ): Promise<HelperExit>;
}

export interface ComposeClient {
  readonly project: string;
  /** validates the compose files and writes the label override; the files' model, as compose read it */
  prepare(): Promise<ComposeModel>;
  /** `up --wait`; the error output on failure, undefined on success */
  up(services: string[], build: boolean, waitTimeoutS: number): Promise<string | undefined>;
  logs(tail: number): Promise<string[]>;
  down(): Promise<void>;
  /** what the side-by-side boot changed, after `prepare` (compose projects of an A/B side only) */
  neutralised?: () => string[];
  /** an A/B side's changes and blockers, from `docker compose config` alone: nothing is written or
   * started, nothing needs taking down (compose projects only) */
  collisions?: () => Promise<SideBySide>;
}

/** Wraps an engine call: its failure is the environment's (exit 3), a UserError stays what it is. */
async function engineCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw environmentError(`docker: ${what}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** `where`: the engine's address as the environment gives it (DOCKER_HOST), for the unreachable line. */
export function dockerClient(docker: Docker, where: string | undefined): DockerClient {
  return {
    version: () => engineVersion(docker, where),
    containers: (project) => engineCall('listing containers', () => projectContainers(docker, project)),
    networks: (project) => engineCall('listing networks', () => projectNetworks(docker, project)),
    stats: (id, onSample) => engineCall('streaming stats', () => streamStats(docker, id, onSample)),
    imageDigests: (containers) => engineCall('inspecting images', () => imageDigests(docker, containers)),
    startRunner: (opts, onEvent, onLog) =>
      engineCall('starting the runner', () => startRunner(docker, opts, onEvent, onLog)),
    ensureImage: (image) =>
      engineCall('checking the runner image', async () => void (await ensureImage(docker, image))),
    removeRunner: async (runner) => {
      await docker
        .getContainer(runner.containerId)
        .remove({ force: true, v: true })
        .catch(() => {});
      await docker
        .getVolume(runner.volumeName)
        .remove()
        .catch(() => {});
    },
    sweep: (runId) => sweepRun(docker, runId),
    runPerfHelper: (opts, maxBytes, timeoutMs, go) =>
      engineCall('running the perf helper', () => runHelper(docker, perfHelperCreate(opts), maxBytes, timeoutMs, go)),
  };
}

export function composeClient(exec: Exec, opts: ComposeOptions, env: NodeJS.ProcessEnv): ComposeClient {
  const project = new ComposeProject(exec, opts, env);
  return {
    project: opts.project,
    prepare: () => project.prepare(),
    up: (services, build, waitTimeoutS) => project.up(services, build, waitTimeoutS),
    logs: (tail) => project.logs(tail),
    down: () => project.down(),
    neutralised: () => project.changes,
    collisions: () => project.collisions(),
  };
}

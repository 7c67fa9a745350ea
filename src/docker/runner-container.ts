// The runner container: started through the Docker API from `runner.image`, attached to the SUT
// network(s), no Docker socket, no privileges, read-only root filesystem. The runner script and the
// plan go in with putArchive into a labelled volume (the only writable path besides a /tmp tmpfs);
// commands go in on its stdin and events come back on its stdout, both over one hijacked attach
// connection. No bind mounts, so a remote DOCKER_HOST works.
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import { environmentError } from '../common/errors.js';
import { onLines } from '../common/stream-lines.js';
import type { RunnerEvent, RunnerPlan } from '../runner-kit/plan.js';
import { parseEventLine } from '../runner-kit/validate.js';
import { commandLine, type RunnerCommand } from '../runner-kit/plan.js';

export const RUNNER_DIR = '/perf-gate';

/** How long after its connection closed a runner container may still run before it counts as lost. */
const LOST_AFTER_MS = 5000;

export interface RunnerOptions {
  image: string;
  runId: string;
  labels: Record<string, string>;
  networks: string[];
  cpus?: number;
  script: string;
  plan: RunnerPlan;
  /** the container's name, unique on the host (`perfgate-<run>-runner`, with the side and launch in A/B) */
  name?: string;
}

/** An image on this host: inspected, else pulled (its failure, an air-gapped host's, thrown as is). */
export async function imageHere(docker: Docker, image: string): Promise<Docker.ImageInspectInfo> {
  try {
    return await docker.getImage(image).inspect();
  } catch {
    // not local: try to pull it
  }
  const stream = await docker.pull(image);
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (err: Error | null) => (err ? reject(err) : resolve())),
  );
  return await docker.getImage(image).inspect();
}

/**
 * A created container's stdin, stdout and stderr over one hijacked connection (a net.Socket, writable
 * for stdin, stdout and stderr multiplexed on its read side with Tty false), its output split into
 * `stdout` and `stderr`; `drained` resolves once all of it has been read (the stream can lag behind
 * the container's exit, so an exit code counts only after it).
 */
export async function attachAll(
  docker: Docker,
  container: Docker.Container,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<{ stream: NodeJS.ReadWriteStream; drained: Promise<void> }> {
  const stream = (await container.attach({
    stream: true,
    stdin: true,
    stdout: true,
    stderr: true,
    hijack: true,
  })) as NodeJS.ReadWriteStream;
  docker.modem.demuxStream(stream, stdout, stderr);
  const drained = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
  return { stream, drained };
}

/** Pure: how to start node in this image. Images whose entrypoint is node itself (distroless) keep it. */
export function nodeCommand(
  entrypoint: string[] | string | null | undefined,
  args: string[],
): { Entrypoint: string[]; Cmd: string[] } {
  const ep = Array.isArray(entrypoint) ? entrypoint : entrypoint ? [entrypoint] : [];
  const first = ep[0] ?? '';
  if (ep.length > 0 && /(^|\/)node(js)?$/.test(first)) return { Entrypoint: ep, Cmd: args };
  return { Entrypoint: ['node'], Cmd: args };
}

async function tarOf(files: Record<string, string>): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    p.on('end', resolve);
    p.on('error', reject);
  });
  for (const [name, content] of Object.entries(files)) {
    p.entry({ name, mode: 0o644 }, content);
  }
  p.finalize();
  await done;
  return Buffer.concat(chunks);
}

export async function ensureImage(docker: Docker, image: string): Promise<Docker.ImageInspectInfo> {
  try {
    return await imageHere(docker, image);
  } catch (err) {
    throw environmentError(
      `runner image ${image} is not on this host and could not be pulled (${(err as Error).message.split('\n')[0]}); set runner.image to an image with Node >= 20 that is available here`,
    );
  }
}

export interface RunningRunner {
  containerId: string;
  /** the labelled volume holding the script and plan */
  volumeName: string;
  /** resolves with the exit code once the container stops */
  exited: Promise<number>;
  stderrTail: () => string[];
  /** writes one command line to the runner's stdin; a no-op once the connection has closed (a dead runner shows in `exited`) */
  send: (command: RunnerCommand) => void;
}

/**
 * The write side of the attach connection as a `send`. Never throws: a runner that died leaves a
 * closed socket, and its death is reported through `exited`, not by the write. Never ends the socket
 * either: with StdinOnce false the runner would not see EOF, and Docker closes the whole attach
 * (stdout too) when the client half-closes it.
 */
function commandSender(stream: NodeJS.ReadWriteStream & { destroyed?: boolean }): (command: RunnerCommand) => void {
  return (command) => {
    if (stream.destroyed || !stream.writable) return;
    try {
      stream.write(commandLine(command));
    } catch {
      // a socket closing under the write: same as above
    }
  };
}

export async function startRunner(
  docker: Docker,
  opts: RunnerOptions,
  onEvent: (e: RunnerEvent) => void,
  onLog: (line: string) => void,
): Promise<RunningRunner> {
  const info = await ensureImage(docker, opts.image);
  const name = opts.name ?? `perfgate-${opts.runId}-runner`;
  const volumeName = name;
  await docker.createVolume({ Name: volumeName, Labels: opts.labels });
  const [firstNet, ...otherNets] = opts.networks;
  if (!firstNet) throw environmentError('the SUT has no network to attach the runner to');
  const { Entrypoint, Cmd } = nodeCommand(info.Config?.Entrypoint, [
    `${RUNNER_DIR}/runner.mjs`,
    `${RUNNER_DIR}/plan.json`,
  ]);
  const hostConfig: Docker.HostConfig = {
    NetworkMode: firstNet,
    ReadonlyRootfs: true,
    Privileged: false,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    Mounts: [{ Type: 'volume', Source: volumeName, Target: RUNNER_DIR, ReadOnly: false }],
    Tmpfs: { '/tmp': 'rw,noexec,nosuid,size=64m' },
  };
  if (opts.cpus !== undefined) hostConfig.NanoCpus = Math.round(opts.cpus * 1e9);
  const container = await docker.createContainer({
    name,
    Image: opts.image,
    Entrypoint,
    Cmd,
    WorkingDir: RUNNER_DIR,
    Labels: opts.labels,
    Env: ['NODE_ENV=production'],
    // stdin stays open for the whole session: the host sends one command per trial. StdinOnce: when
    // the host's attach goes (it died, was killed, lost the connection), Docker closes stdin, the
    // runner reads EOF and ends instead of waiting for commands forever
    OpenStdin: true,
    StdinOnce: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    HostConfig: hostConfig,
  });
  for (const net of otherNets) await docker.getNetwork(net).connect({ Container: container.id });
  await container.putArchive(await tarOf({ 'runner.mjs': opts.script, 'plan.json': JSON.stringify(opts.plan) }), {
    path: RUNNER_DIR,
  });

  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const tail: string[] = [];
  const { stream, drained } = await attachAll(docker, container, stdout, stderr);
  onLines(stdout, (line) => {
    const event = parseEventLine(line);
    if (event) onEvent(event);
    else onLog(line);
  });
  onLines(stderr, (line) => {
    tail.push(line);
    if (tail.length > 30) tail.shift();
    onLog(line);
  });
  await container.start();
  // wait only after start: a wait on a created, never started container answers at once with
  // StatusCode 0, which hid every runner crash. `not-running` after start also covers a container
  // that already exited.
  const waited = container.wait({ condition: 'not-running' });
  // the connection closed but the container goes on: no command can reach it and no event come back
  const lost = drained.then(
    () =>
      new Promise<number>((_resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error('the connection to the runner container closed while it still ran')),
          LOST_AFTER_MS,
        );
        t.unref();
        waited.then(
          () => clearTimeout(t),
          () => clearTimeout(t),
        );
      }),
  );
  const exited = Promise.race([
    Promise.all([waited, drained]).then(([r]) => (r as { StatusCode: number }).StatusCode),
    lost,
  ]);
  return { containerId: container.id, volumeName, exited, stderrTail: () => [...tail], send: commandSender(stream) };
}

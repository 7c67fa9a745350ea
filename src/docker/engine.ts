// The Docker engine API (dockerode): reachability, SUT containers, image digests, stats streams and
// the label sweep that removes whatever a run left behind.
import Docker from 'dockerode';
import { Writable } from 'node:stream';
import { environmentError } from '../common/errors.js';
import { onLines } from '../common/stream-lines.js';
import { type StatsSample, sampleFromStats } from '../stats/resources.js';
import { isLocalProcess, openFds } from './fds.js';
import { LABEL_RUN_ID } from './labels.js';
import { attachAll, imageHere } from './runner-container.js';

export function connectDocker(): Docker {
  // honours DOCKER_HOST (unix://, tcp://), DOCKER_TLS_VERIFY, DOCKER_CERT_PATH
  return new Docker();
}

export async function engineVersion(
  docker: Docker,
  dockerHost: string | undefined,
): Promise<{ version: string; apiVersion: string }> {
  try {
    const v = await docker.version();
    return { version: v.Version, apiVersion: v.ApiVersion };
  } catch (err) {
    const where = dockerHost || 'unix:///var/run/docker.sock';
    throw environmentError(`Docker engine unreachable at ${where}: ${(err as Error).message.split('\n')[0]}`);
  }
}

export interface SutContainer {
  id: string;
  service: string;
  state: string;
  image: string;
  imageId: string;
}

export async function projectContainers(docker: Docker, project: string): Promise<SutContainer[]> {
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`com.docker.compose.project=${project}`] },
  });
  return list.map((c) => ({
    id: c.Id,
    service: c.Labels['com.docker.compose.service'] ?? c.Names[0]?.replace(/^\//, '') ?? c.Id.slice(0, 12),
    state: c.State,
    image: c.Image,
    imageId: c.ImageID,
  }));
}

export async function projectNetworks(docker: Docker, project: string): Promise<string[]> {
  const nets = await docker.listNetworks({ filters: { label: [`com.docker.compose.project=${project}`] } });
  return nets.map((n) => n.Name).sort();
}

export async function imageDigests(
  docker: Docker,
  containers: SutContainer[],
): Promise<Record<string, { image: string; id: string; digest: string | null }>> {
  const out: Record<string, { image: string; id: string; digest: string | null }> = {};
  for (const c of [...containers].sort((a, b) => a.service.localeCompare(b.service))) {
    let digest: string | null = null;
    try {
      const info = await docker.getImage(c.imageId).inspect();
      digest = info.RepoDigests?.[0] ?? null;
    } catch {
      digest = null;
    }
    out[c.service] = { image: c.image, id: c.imageId, digest };
  }
  return out;
}

/** Streams stats documents of one container into `onSample` until `stop()` is called. */
export async function streamStats(
  docker: Docker,
  containerId: string,
  onSample: (s: StatsSample) => void,
): Promise<{ stop: () => void }> {
  const stream = (await docker
    .getContainer(containerId)
    .stats({ stream: true })) as unknown as NodeJS.ReadableStream & {
    destroy?: () => void;
  };
  // open file descriptors where the engine's processes are visible from here (a local engine)
  const pid = await docker
    .getContainer(containerId)
    .inspect()
    .then((i) => i.State?.Pid ?? 0)
    .catch(() => 0);
  const local = isLocalProcess(pid, containerId);
  onLines(stream, (raw) => {
    const line = raw.trim();
    if (!line) return;
    try {
      const sample = sampleFromStats(JSON.parse(line), Date.now());
      const fds = local ? openFds(pid) : undefined;
      onSample(fds === undefined ? sample : { ...sample, fds });
    } catch {
      // a partial or foreign document; skip it
    }
  });
  stream.on('error', () => {});
  return { stop: () => stream.destroy?.() };
}

/** Removes every container, network, volume and built image labelled with this run id. Never throws. */
export async function sweepRun(docker: Docker, runId: string): Promise<string[]> {
  const removed: string[] = [];
  const filters = { label: [`${LABEL_RUN_ID}=${runId}`] };
  try {
    for (const c of await docker.listContainers({ all: true, filters })) {
      await docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .then(() => removed.push(`container ${c.Names[0] ?? c.Id}`))
        .catch(() => {});
    }
    for (const n of await docker.listNetworks({ filters })) {
      await docker
        .getNetwork(n.Id)
        .remove()
        .then(() => removed.push(`network ${n.Name}`))
        .catch(() => {});
    }
    const vols = await docker.listVolumes({ filters });
    for (const v of vols.Volumes ?? []) {
      await docker
        .getVolume(v.Name)
        .remove()
        .then(() => removed.push(`volume ${v.Name}`))
        .catch(() => {});
    }
    // images compose built for this run (labelled through the build section of the override)
    for (const img of await docker.listImages({ filters })) {
      await docker
        .getImage(img.Id)
        .remove({ force: true })
        .then(() => removed.push(`image ${img.RepoTags?.[0] ?? img.Id}`))
        .catch(() => {});
    }
  } catch {
    // engine gone: nothing more we can do
  }
  return removed;
}

/** A helper container's end: its exit code, its stdout (at most the bytes asked for: `truncated` when
 * it wrote more, and it was then stopped) and the start of its stderr; `timedOut` when it was stopped
 * for running too long, `cut` when its output did not arrive whole after it ended. */
export interface HelperExit {
  code: number;
  stdout: Uint8Array;
  stderr: string;
  truncated: boolean;
  timedOut?: boolean;
  cut?: boolean;
}

/** The most of a helper's stderr kept (its refusal's line quotes part of it). */
const HELPER_STDERR_MAX = 8192;

/**
 * Creates a helper container (its image pulled where it is not here), starts it, and once `go`
 * settles writes one line to its stdin (true: what it waits for to begin) or stops it (false); runs it
 * to its end (killed `timeoutMs` after the line, or once its stdout passes `maxBytes`) and removes it,
 * whatever happens: its exit code and its output, bounded. Started before `go`, it is up when asked.
 */
export async function runHelper(
  docker: Docker,
  create: Docker.ContainerCreateOptions,
  maxBytes: number,
  timeoutMs: number,
  go: Promise<boolean>,
): Promise<HelperExit> {
  if (create.Image) await imageHere(docker, create.Image);
  const container = await docker.createContainer({
    ...create,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    // the host's attach gone, stdin closes: the helper reads EOF and ends without sampling
    StdinOnce: true,
    Tty: false,
  });
  const out: Buffer[] = [];
  let outBytes = 0;
  let truncated = false;
  let stderr = '';
  let timedOut = false;
  const stop = () => void container.kill().catch(() => {});
  try {
    const stdoutSink = new Writable({
      write(chunk: Buffer, _enc, done) {
        if (!truncated && outBytes + chunk.length > maxBytes) {
          truncated = true;
          stop();
        } else if (!truncated) {
          out.push(chunk);
          outBytes += chunk.length;
        }
        done();
      },
    });
    const stderrSink = new Writable({
      write(chunk: Buffer, _enc, done) {
        if (stderr.length < HELPER_STDERR_MAX)
          stderr += chunk.toString('utf8').slice(0, HELPER_STDERR_MAX - stderr.length);
        done();
      },
    });
    const { stream, drained } = await attachAll(docker, container, stdoutSink, stderrSink);
    await container.start();
    let timer: NodeJS.Timeout | undefined;
    void go.then(
      (begin) => {
        if (!begin) return stop();
        stream.write('go\n');
        timer = setTimeout(() => {
          timedOut = true;
          stop();
        }, timeoutMs);
      },
      () => stop(),
    );
    try {
      // after start: a wait on a created container answers at once (see runner-container.ts)
      const { StatusCode } = (await container.wait({ condition: 'not-running' })) as { StatusCode: number };
      // the output can lag behind the exit: read to its end, a short while at most (else it is cut)
      const whole = await Promise.race([
        drained.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 5000).unref()),
      ]);
      return {
        code: StatusCode,
        stdout: Buffer.concat(out),
        stderr,
        truncated,
        ...(timedOut ? { timedOut } : {}),
        ...(whole ? {} : { cut: true }),
      };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await container.remove({ force: true }).catch(() => {});
  }
}

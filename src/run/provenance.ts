// Where and on what a run happened (SPEC §5 provenance).
import { cpus, platform, release, totalmem } from 'node:os';
import type { Exec } from '../common/exec.js';
import type { ImageDigests } from '../docker/clients.js';
import type { Provenance } from '../results/types.js';
import type { RunDeps } from './contract.js';

export async function gitInfo(
  exec: Exec,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ commit: string | null; ref: string | null }> {
  const commit = env.GITHUB_SHA || (await exec('git', ['rev-parse', 'HEAD'], { cwd })).stdout.trim() || null;
  let ref = env.GITHUB_REF || null;
  if (!ref) {
    const r = await exec('git', ['symbolic-ref', '-q', 'HEAD'], { cwd });
    ref = r.code === 0 ? r.stdout.trim() || null : null;
  }
  return { commit: commit && /^[0-9a-f]{7,64}$/.test(commit) ? commit : null, ref };
}

export function machineInfo(): Provenance['runner'] {
  const list = cpus();
  return {
    os: `${platform()} ${release()}`,
    cpuModel: list[0]?.model?.trim() ?? 'unknown',
    cores: list.length,
    memoryBytes: totalmem(),
  };
}

/** Where and on what this run happened: git, this machine, the engine, the runner image, the SUT images. */
export async function provenanceOf(
  deps: Pick<RunDeps, 'exec' | 'env' | 'calibrate'>,
  dir: string,
  startedAt: string,
  engine: { version: string; apiVersion: string },
  image: string,
  images: ImageDigests,
): Promise<Provenance> {
  const git = await gitInfo(deps.exec, dir, deps.env);
  // timed here, once the trials are over (never during a measured window)
  const calibration = deps.calibrate?.();
  return {
    time: startedAt,
    commit: git.commit,
    ref: git.ref,
    runner: { ...machineInfo(), ...(calibration !== undefined ? { calibrationUs: calibration } : {}) },
    docker: { version: engine.version, apiVersion: engine.apiVersion },
    runnerImage: image,
    sut: { images },
  };
}

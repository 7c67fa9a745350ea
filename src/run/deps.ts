// The real dependencies of a run, as the CLI and the Action build them.
import { composeClient, dockerClient } from '../docker/clients.js';
import { connectDocker } from '../docker/engine.js';
import { stackClient } from '../docker/stack.js';
import { swarmClient } from '../docker/swarm.js';
import { execCommand } from '../common/exec.js';
import type { Progress } from './progress.js';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { environmentError } from '../common/errors.js';
import { defaultWorkspace } from '../config/load.js';
import type { RunDeps } from './contract.js';
import { realFiles } from './real-files.js';
import { containersCpuUs, type MachineReading, parseProcStat } from '../stats/machine.js';
import { performance } from 'node:perf_hooks';
import { calibrate } from '../stats/calibration.js';

export function realRunDeps(
  progress: Progress,
  onSignal: RunDeps['onSignal'],
  maskSecret: RunDeps['maskSecret'] = () => {},
): RunDeps {
  const docker = connectDocker();
  return {
    docker: dockerClient(docker, process.env.DOCKER_HOST),
    compose: (opts) => composeClient(execCommand, opts, process.env),
    swarm: { client: swarmClient(docker), stack: (opts) => stackClient(execCommand, docker, opts, process.env) },
    exec: execCommand,
    progress,
    onSignal,
    runnerScript: defaultRunnerScript,
    env: process.env,
    maskSecret,
    files: realFiles,
    workspace: defaultWorkspace(process.env, process.cwd()),
    now: Date.now,
    // this machine's readings and calibration speak for the engine's only where the engine runs here
    ...(engineIsLocal(process.env)
      ? { machine: readMachine, calibrate: () => calibrate(() => performance.now()) }
      : {}),
  };
}

/** The engine runs on this machine: no DOCKER_HOST, or a unix socket (tcp:// and ssh:// are elsewhere). */
export function engineIsLocal(env: NodeJS.ProcessEnv): boolean {
  const host = env.DOCKER_HOST ?? '';
  return host === '' || host.startsWith('unix://');
}

/** This machine's CPU times (/proc/stat) and this process's CPU; undefined where /proc is not Linux's. */
function readMachine(): MachineReading | undefined {
  try {
    const cpu = parseProcStat(readFileSync('/proc/stat', 'utf8'));
    if (!cpu) return undefined;
    const self = process.cpuUsage();
    const containers = containersCpuUs(
      (path) => {
        try {
          return readFileSync(path, 'utf8');
        } catch {
          return undefined;
        }
      },
      (dir) => {
        try {
          return readdirSync(dir);
        } catch {
          return [];
        }
      },
    );
    return {
      cpu,
      selfCpuUs: self.user + self.system,
      ...(containers !== undefined ? { containersCpuUs: containers } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The runner script beside this bundle (dist/runner.mjs), or in dist/ from the sources. */
export function defaultRunnerScript(): string {
  const here = dirname(new URL(import.meta.url).pathname);
  // beside the bundle (dist/cli.js), or from the sources (src/run/)
  for (const candidate of [join(here, 'runner.mjs'), join(here, '..', '..', 'dist', 'runner.mjs')]) {
    try {
      return readFileSync(candidate, 'utf8');
    } catch {
      // try the next place
    }
  }
  throw environmentError('runner script dist/runner.mjs not found (run `npm run build`)');
}

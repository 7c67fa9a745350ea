// The real dependencies of a run, as the CLI and the Action build them.
import { composeClient, dockerClient } from '../docker/clients.js';
import { connectDocker } from '../docker/engine.js';
import { stackClient } from '../docker/stack.js';
import { swarmClient } from '../docker/swarm.js';
import { execCommand } from '../common/exec.js';
import type { Progress } from './progress.js';
import { defaultRunnerScript, realFiles, type RunDeps } from './steps.js';

export function realRunDeps(
  progress: Progress,
  onSignal: RunDeps['onSignal'],
  maskSecret: RunDeps['maskSecret'] = () => {},
): RunDeps {
  const docker = connectDocker();
  return {
    docker: dockerClient(docker),
    compose: (opts) => composeClient(execCommand, opts),
    swarm: { client: swarmClient(docker), stack: (opts) => stackClient(execCommand, docker, opts) },
    exec: execCommand,
    progress,
    onSignal,
    runnerScript: defaultRunnerScript,
    env: process.env,
    maskSecret,
    files: realFiles,
    now: Date.now,
  };
}

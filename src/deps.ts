// The real dependencies of a run, as the CLI and the Action build them.
import { composeClient, dockerClient } from './docker/clients.js';
import { connectDocker } from './docker/engine.js';
import { execCommand } from './exec.js';
import type { Progress } from './progress.js';
import { defaultRunnerScript, realFiles, type RunDeps } from './run-steps.js';

export function realRunDeps(
  progress: Progress,
  onSignal: RunDeps['onSignal'],
  maskSecret: RunDeps['maskSecret'] = () => {},
): RunDeps {
  return {
    docker: dockerClient(connectDocker()),
    compose: (opts) => composeClient(execCommand, opts),
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

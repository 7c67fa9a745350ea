// The Action's main entry: binds the real dependencies and runs. Everything else is in main.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as core from '@actions/core';
import { getProxyUrl } from '@actions/http-client/lib/proxy';
import { defaultWorkspace, loadConfig } from '../config/load.js';
import { realReadFs, realWritable } from '../common/read-fs.js';
import { realRunDeps } from '../run/deps.js';
import { Progress, progressSink } from '../run/progress.js';
import { newRunId, run as runPerfGate } from '../run/run.js';
import { exitOnSignals } from '../run/signals.js';
import { fetchArtifactHttp } from './artifact.js';
import { githubApi } from './github.js';
import { run } from './main.js';

// a cancelled job: tear down, fail the step (the post step sweeps whatever is left)
const onSignal = exitOnSignals(() => 1);
/** The config as the run reads it: what auto mode and report mode ask of it. */
const configOf = (file: string) => loadConfig(file, defaultWorkspace(process.env, process.cwd()), realReadFs);

await run({
  env: process.env,
  io: {
    setOutput: core.setOutput,
    saveState: core.saveState,
    info: core.info,
    warning: core.warning,
    error: core.error,
    setFailed: core.setFailed,
    writeSummary: async (markdown) => {
      await core.summary.addRaw(markdown).write();
    },
    startGroup: core.startGroup,
    endGroup: core.endGroup,
  },
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, text) => writeFileSync(path, text),
  paths: { exists: existsSync, isDirectory: (p) => statSync(p).isDirectory(), writable: realWritable },
  cwd: process.cwd(),
  github: (opts) => {
    // the proxy @actions/http-client routes this API through (HTTPS_PROXY, NO_PROXY), for error messages
    const proxy = getProxyUrl(new URL(opts.baseUrl))?.href;
    return githubApi({ ...opts, warn: (m) => core.warning(m), ...(proxy ? { proxy } : {}) });
  },
  perfGate: (opts) =>
    runPerfGate(opts, realRunDeps(new Progress(progressSink(process.stdout, process.env)), onSignal, core.setSecret)),
  configAgainst: (file) => configOf(file).gate.against,
  configHistory: (file) => configOf(file).history,
  newRunId,
  artifactHttp: fetchArtifactHttp(),
  readBytes: (path) => readFileSync(path),
  sleep: (ms) => sleep(ms).then(() => undefined),
  now: () => new Date(),
  mask: core.setSecret,
  git: (args, opts) => {
    // messages in English (what history-branch.ts reads), never a prompt, never a hang
    const r = spawnSync('git', [...args], {
      encoding: 'utf8',
      input: opts?.input,
      env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', ...opts?.env },
      maxBuffer: 256 * 1024 * 1024,
      timeout: 300_000,
    });
    return { code: r.status ?? 1, stdout: r.stdout ?? '', stderr: r.stderr ?? (r.error?.message || '') };
  },
});

// The Action's main entry: binds the real dependencies and runs. Everything else is in main.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import * as core from '@actions/core';
import { loadConfig } from '../config/load.js';
import { realRunDeps } from '../deps.js';
import { Progress, progressSink } from '../progress.js';
import { newRunId, runPerfGate } from '../run.js';
import { exitOnSignals } from '../signals.js';
import { githubApi } from './github.js';
import { run } from './main.js';

// a cancelled job: tear down, fail the step (the post step sweeps whatever is left)
const onSignal = exitOnSignals(() => 1);

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
  cwd: process.cwd(),
  github: (opts) => githubApi({ ...opts, warn: (m) => core.warning(m) }),
  perfGate: (opts) => runPerfGate(opts, realRunDeps(new Progress(progressSink(process.stdout, process.env)), onSignal)),
  configAgainst: (file) => loadConfig(file).gate.against,
  newRunId,
});

#!/usr/bin/env node
// perf-gate's command line, bound to this process: its standard streams, environment, terminal,
// file system, Docker engine and signals. What each command does is src/cli/main.ts's `main`.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { EXIT_ENVIRONMENT, EXIT_PASS } from './common/errors.js';
import { execCommand } from './common/exec.js';
import { realReadFs, realWritable } from './common/read-fs.js';
import { readHistoryFile } from './history/file.js';
import { writeFileAtomic } from './results/files.js';
import { type CliDeps, main } from './cli/main.js';
import { realRunDeps, defaultRunnerScript } from './run/deps.js';
import { progressSink } from './run/progress.js';
import { exitOnSignals } from './run/signals.js';

const onSignal = exitOnSignals(
  (signal) => (signal === 'SIGINT' ? 130 : 143),
  (signal) => process.stderr.write(`\nperf-gate: ${signal}: tearing down\n`),
  (signal) =>
    process.stderr.write(
      `\nperf-gate: ${signal} again: still tearing down (the SUT's containers, network and volumes); perf-gate exits when they are gone\n`,
    ),
);

const deps: CliDeps = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  progress: progressSink(process.stderr, process.env),
  env: process.env,
  cwd: process.cwd(),
  terminal: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  prompt: () => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    return {
      ask: async (q, fallback) => (await rl.question(`${q} [${fallback}]: `)).trim() || fallback,
      close: () => rl.close(),
    };
  },
  files: {
    read: (p) => readFileSync(p, 'utf8'),
    write: (p, text) => writeFileSync(p, text),
    writeCreating: (p, text) => {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
    },
    writeAtomic: writeFileAtomic,
    readIfExists: readHistoryFile,
    exists: existsSync,
    isDirectory: (p) => statSync(p).isDirectory(),
    writable: realWritable,
  },
  readFs: realReadFs,
  exec: execCommand,
  runDeps: (progress) => realRunDeps(progress, onSignal),
  now: Date.now,
  runnerScript: defaultRunnerScript,
};

// a reader that went away (a closed pipe) must not kill the run before its teardown: output is
// best effort, cleanup is not. A standard output that cannot be written (a full disk, /dev/full) is
// said once the command is done, and fails it (exit 3): a schema or report that never arrived is not
// a success. A closed pipe (`| head`) is the reader's choice, not a failure.
let stdoutFailure: string | undefined;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') stdoutFailure ??= err.code ?? err.message;
});
process.stderr.on('error', () => {});

/**
 * Exits once what was written has left the process: `process.exit` right after a large write to a
 * pipe cut it at 64 KiB. A write's callback runs when it and everything before it was handed over (or
 * failed: a reader that went away).
 */
function exitAfterOutput(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    if (--pending > 0) return;
    if (stdoutFailure !== undefined && code === EXIT_PASS) {
      process.stderr.write(`perf-gate: standard output could not be written (${stdoutFailure})\n`, () =>
        process.exit(EXIT_ENVIRONMENT),
      );
      return;
    }
    process.exit(code);
  };
  // a failed write's callback comes before the stream's 'error' event: it says so too
  process.stdout.write('', (err?: NodeJS.ErrnoException | null) => {
    if (err && err.code !== 'EPIPE') stdoutFailure ??= err.code ?? err.message;
    done();
  });
  process.stderr.write('', done);
}

void main(process.argv.slice(2), deps).then(exitAfterOutput);

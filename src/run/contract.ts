// The run's contract (issue 32): what a caller asks for (RunOptions), what the run is given to touch
// the world with (RunDeps), and what it gives back (RunOutcome). Entry points (the CLI, the Action)
// build the options with ./request.ts and the real deps with ./deps.ts; tests pass fakes.
import type { OverallVerdict } from '../compare/compare.js';
import type { Exec } from '../common/exec.js';
import type { ComposeOptions } from '../docker/compose.js';
import type { ComposeClient, DockerClient } from '../docker/clients.js';
import type { StackClient } from '../docker/stack.js';
import type { SwarmClient } from '../docker/swarm.js';
import type { RunMode } from '../modes/index.js';
import type { OutputRequest } from '../outputs/index.js';
import type { ResultsFile } from '../results/types.js';
import { randomBytes } from 'node:crypto';
import { environmentError } from '../common/errors.js';
import type { ReadFs } from '../common/read-fs.js';
import type { Progress } from './progress.js';
import type { Acceptance } from '../compare/accept.js';

export interface RunOptions {
  configFile: string;
  mode: RunMode;
  scenarios: string[];
  baselineDir: string;
  outDir: string;
  runnerImage?: string;
  /** a run id chosen by the caller (the Action saves it for its post step); random otherwise */
  runId?: string;
  /** distinguishes reports of matrix legs / several configs */
  reportId?: string;
  /** how long compose may take to report services healthy, s */
  healthTimeoutS?: number;
  /** A/B mode: the git ref whose tree is the base side */
  baseRef?: string;
  /** A/B chosen by mode auto (gate.against: base-ref): a SUT that cannot boot twice side by side falls
   * back to the gate against baselines, with one line that says why, instead of failing the run */
  abFallback?: boolean;
  /** A/B mode: interleaved pairs (overrides the config's ab.pairs) */
  pairs?: number;
  /** A/B mode: the seed of the pair orders (random when absent; the results file records it) */
  seed?: number;
  /** the outputs written beside the results file and the report (JUnit, CSV, ...), in this order;
   * paths relative to the working directory */
  outputs?: OutputRequest[];
  /** a trend history (JSON lines): its charts go into the report; update runs append to it */
  history?: string;
  /** failing rows accepted on purpose (`--accept`, or the Action's checked pull request comments) */
  accept?: Acceptance[];
}

import type { MachineReading } from '../stats/machine.js';

export interface RunDeps {
  docker: DockerClient;
  compose: (opts: ComposeOptions) => ComposeClient;
  exec: Exec;
  progress: Progress;
  /** registers teardown for SIGINT/SIGTERM; returns an unregister function */
  onSignal: (teardown: () => Promise<void>) => () => void;
  /** the script that runs in the runner container (dist/runner.mjs) */
  runnerScript: () => string;
  /** where `${NAME}` in requests is looked up (perf-gate's own environment) */
  env: NodeJS.ProcessEnv;
  /** each value taken from `env` for a request (the Action masks it in the log) */
  maskSecret: (value: string) => void;
  /** the files a run reads and writes */
  files: RunFiles;
  /** the directory config paths must stay inside (GITHUB_WORKSPACE, or the working directory) */
  workspace: string;
  /** wall clock, ms since the epoch */
  now: () => number;
  /** the machine's CPU times and perf-gate's own CPU now, where the engine runs on this machine (the
   * report's "machine during trials"); absent or undefined elsewhere */
  machine?: () => MachineReading | undefined;
  /** the machine's calibration, µs: a fixed piece of CPU work timed (stats/calibration.ts); absent: none
   * is taken (the history then tells the machine's drift only by its CPU model and cores) */
  calibrate?: () => number;
  /** the Docker Swarm the engine manages (runner.replicas, sut.orchestrator: swarm) */
  swarm?: { client: SwarmClient; stack: (opts: ComposeOptions) => StackClient };
}

/** The files a run reads (the config, bodies, baselines, the history) and writes (results, report,
 * baselines, other outputs), and the temporary directory A/B checks the base commit out into. */
export interface RunFiles extends ReadFs {
  /** a file's text; undefined when it does not exist (any other failure is a usage error) */
  read(path: string): string | undefined;
  /** a regular file's bytes, at most `max` of them (a larger file, a link or anything but a regular
   * file is an error that says so); undefined when it does not exist */
  readBytes(path: string, max: number): Uint8Array | undefined;
  /** writes the whole file atomically (text, or bytes: a service's profile) */
  write(path: string, data: string | Uint8Array): void;
  /** a new empty directory for temporary files, its name starting with `prefix` */
  makeTempDir(prefix: string): string;
  /** removes a directory and everything in it (a missing one is no failure) */
  removeDir(dir: string): void;
}

/** Writes through `files`; a failure is the environment's (exit 3), with one line naming the path. */
export function writeOrFail(files: RunFiles, path: string, data: string | Uint8Array): void {
  try {
    files.write(path, data);
  } catch (err) {
    throw environmentError(`cannot write ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
}

export interface RunOutcome {
  results: ResultsFile;
  resultsPath: string;
  reportPath: string;
  /** the run as one HTML page (perf-gate-report.html beside the report) */
  htmlPath: string;
  /** the other outputs written (--out-format, --junit, --csv, the history appended), absolute */
  extraPaths: string[];
  report: string;
  verdict: OverallVerdict;
  regressions: number;
  baselinesUpdated: string[];
}

/** A new run id: 8 hex digits (names the compose projects, labels and the report). */
export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

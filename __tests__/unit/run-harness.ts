// Fakes for every dependency of `run(request, deps)`: a Docker engine whose runner answers trial
// commands at a side's latency, compose projects that boot nothing, git that answers what an A/B run
// asks (its base tree a copy of the project), files through the real file system. Shared by the run
// test and the pipeline's before/after pin.
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ComposeClient, DockerClient } from '../../src/docker/clients.js';
import type { HelperExit, SutContainer } from '../../src/docker/engine.js';
import type { PerfHelperOptions } from '../../src/docker/perf-helper.js';
import type { RunnerOptions, RunningRunner } from '../../src/docker/runner-container.js';
import { environmentError } from '../../src/common/errors.js';
import type { Exec } from '../../src/common/exec.js';
import { Progress } from '../../src/run/progress.js';
import { createHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';
import type { RunnerCommand, RunnerEvent } from '../../src/runner-kit/plan.js';
import type { RunDeps } from '../../src/run/contract.js';
import { realFiles } from '../../src/run/real-files.js';
import type { RunFiles } from '../../src/run/contract.js';
import { trial as trialSummary } from './fixtures.js';

/** How a fake SUT answers: its latency, and where its runner dies. */
export interface SideBehaviour {
  delayUs: number;
  /** the runner container dies (exit 137) on this trial command, after its stage started */
  dieOnTrial?: number;
  /** this share of every trial's 2000 answers fails its expect-json check */
  failing?: number;
  /** a flow's (or a mix's) entries by name, each with the share of its 1000 answers that fails its
   * expect-json check: every trial reports them beside the phase, as the runner does */
  entries?: Record<string, number>;
}

/** A runner container that answers trial commands with a measurement at the side's latency. */
function fakeRunner(
  opts: RunnerOptions,
  behaviour: SideBehaviour,
  emit: (e: RunnerEvent) => void,
  log: string[],
): RunningRunner {
  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((r) => (resolveExit = r));
  let dead = false;
  let trials = 0;
  const die = (code: number) => {
    if (dead) return;
    dead = true;
    resolveExit(code);
  };
  setTimeout(() => {
    emit({ t: 'hello', node: 'v20' });
    emit({ t: 'ready' });
  }, 1);
  const answer = (cmd: RunnerCommand) => {
    if (cmd.c === 'end') {
      emit({ t: 'done' });
      return die(0);
    }
    trials++;
    log.push(`${opts.name}: ${cmd.scenario}/${cmd.phase} ${cmd.trial}/${cmd.trials}`);
    const where = { scenario: cmd.scenario, phase: cmd.phase };
    emit({ t: 'stage', ...where, trial: cmd.trial, trials: cmd.trials, stage: 'measure', totalMs: 1000 });
    if (behaviour.dieOnTrial === trials) return die(137);
    // a little spread from trial to trial, the same on every run
    const us = Math.round(behaviour.delayUs * (1 + ((trials * 7) % 5) / 1000));
    const h = createHistogram();
    for (let i = 0; i < 2000; i++) recordUs(h, us);
    const measured = (responses: number, share: number) => {
      const failed = Math.round(responses * share);
      const { resources: _r, ...m } = trialSummary(
        {
          responses,
          ...(failed > 0 ? { successes: responses - failed, failures: failed, checks: { 'expect-json': failed } } : {}),
          latency: { count: responses, p50: us, p90: us, p95: us, p99: us, 'p99.9': us, max: us },
        },
        cmd.trial,
      );
      return m;
    };
    const entries = Object.entries(behaviour.entries ?? {});
    const measurement = measured(
      2000,
      entries.length > 0 ? entries.reduce((a, [, f]) => a + f, 0) / entries.length : (behaviour.failing ?? 0),
    );
    const requests = entries.map(([name, share]) => ({
      name,
      measurement: measured(1000, share),
      histogram: encodeHistogram(h),
    }));
    emit({
      t: 'trial',
      ...where,
      measurement,
      histogram: encodeHistogram(h),
      ...(requests.length > 0 ? { requests } : {}),
    });
  };
  return {
    containerId: opts.name ?? 'runner',
    volumeName: opts.name ?? 'runner',
    exited,
    stderrTail: () => [],
    send: (cmd) => {
      if (!dead) setTimeout(() => answer(cmd), 1);
    },
  };
}

export class FakeDocker implements DockerClient {
  readonly calls: string[] = [];
  readonly trials: string[] = [];
  /** the networks each runner was started on, and the plan's request URLs */
  readonly runnerNetworks: string[][] = [];
  readonly planUrls: string[] = [];
  /** an image ensureImage cannot find or pull */
  missingImage: string | undefined;
  constructor(readonly sides: Record<string, SideBehaviour>) {}
  async ensureImage(image: string) {
    this.calls.push(`ensure ${image}`);
    if (image === this.missingImage) throw environmentError(`runner image ${image} is not on this host`);
  }
  async version() {
    return { version: '27.0.0', apiVersion: '1.46' };
  }
  async containers(project: string): Promise<SutContainer[]> {
    return [{ id: `${project}-api`, service: 'api', state: 'running', image: 'api:1', imageId: 'sha256:a' }];
  }
  async networks(project: string) {
    return [`${project}_default`];
  }
  async stats() {
    return { stop: () => {} };
  }
  async imageDigests(containers: SutContainer[]) {
    return Object.fromEntries(containers.map((c) => [c.service, { image: c.image, id: c.imageId, digest: null }]));
  }
  async startRunner(opts: RunnerOptions, onEvent: (e: RunnerEvent) => void): Promise<RunningRunner> {
    this.calls.push(`start ${opts.name}`);
    this.runnerNetworks.push(opts.networks);
    this.planUrls.push(...opts.plan.scenarios.flatMap((s) => (s.target.kind === 'http' ? [s.target.request.url] : [])));
    const side = /-(base|head)-runner/.exec(opts.name ?? '')?.[1] ?? 'only';
    return fakeRunner(opts, this.sides[side] as SideBehaviour, onEvent, this.trials);
  }
  async removeRunner(r: RunningRunner) {
    this.calls.push(`remove ${r.containerId}`);
  }
  async sweep(runId: string) {
    this.calls.push(`sweep ${runId}`);
    return [];
  }
  /** sut.profile's perf: what each helper ends with, by the service's container */
  perfExits: Record<string, HelperExit> = {};
  async runPerfHelper(opts: PerfHelperOptions, maxBytes: number, timeoutMs: number): Promise<HelperExit> {
    this.calls.push(`perf ${opts.containerId} ${opts.image} ${opts.windowMs} ms (${maxBytes} B, ${timeoutMs} ms)`);
    const exit = this.perfExits[opts.containerId];
    if (!exit) throw environmentError(`docker: running the perf helper: no such image: ${opts.image}`);
    return exit;
  }
}

export class FakeCompose implements ComposeClient {
  constructor(
    readonly project: string,
    private readonly calls: string[],
    private readonly upError?: string,
    /** what a side-by-side boot of this project would change and cannot */
    private readonly apart: { changes: string[]; blockers: string[] } = { changes: [], blockers: [] },
  ) {}
  neutralised = () => this.apart.changes;
  async collisions() {
    this.calls.push(`collisions ${this.project}`);
    return { override: {}, ...this.apart };
  }
  async prepare() {
    this.calls.push(`prepare ${this.project}`);
    return { services: { api: { image: 'api:1' } } };
  }
  async up() {
    this.calls.push(`up ${this.project}`);
    return this.upError;
  }
  async logs() {
    return ['api  | listening'];
  }
  async down() {
    this.calls.push(`down ${this.project}`);
  }
}

export interface Harness {
  deps: RunDeps;
  docker: FakeDocker;
  calls: string[];
  lines: string[];
  git: string[];
  written: string[];
}

/** A file system in memory (a run's RunFiles): paths under a root that does not exist on disk, so a
 * read or write that went past it to the real one would fail or leave a trace. */
export class MemoryFiles implements RunFiles {
  readonly texts = new Map<string, string>();
  private temps = 0;
  constructor(readonly root = '/perf-gate-memory') {}

  private static enoent(path: string): Error {
    return Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
  }
  readText(path: string): string {
    const text = this.texts.get(resolve(path));
    if (text === undefined) throw MemoryFiles.enoent(path);
    return text;
  }
  exists(path: string): boolean {
    const p = resolve(path);
    return this.texts.has(p) || [...this.texts.keys()].some((k) => k.startsWith(`${p}/`));
  }
  realpath(path: string): string {
    if (!this.exists(path)) throw MemoryFiles.enoent(path);
    return resolve(path);
  }
  isFile(path: string): boolean {
    return this.texts.has(resolve(path));
  }
  read(path: string): string | undefined {
    return this.texts.get(resolve(path));
  }
  /** a file's bytes: as written (a profile is written as bytes), or a text's UTF-8 */
  readBytes(path: string, max: number): Uint8Array | undefined {
    const v = this.texts.get(resolve(path)) as string | Uint8Array | undefined;
    if (v === undefined) return undefined;
    const bytes = typeof v === 'string' ? new TextEncoder().encode(v) : v;
    if (bytes.length > max) throw new Error(`larger than ${max} bytes (${bytes.length})`);
    return bytes;
  }
  write(path: string, text: string): void {
    this.texts.set(resolve(path), text);
  }
  makeTempDir(prefix: string): string {
    return `${this.root}/tmp/${prefix}${++this.temps}`;
  }
  removeDir(dir: string): void {
    for (const k of [...this.texts.keys()]) if (k.startsWith(`${resolve(dir)}/`)) this.texts.delete(k);
  }
  /** every file under `from`, copied under `to` (a git worktree of the same project) */
  copyDir(from: string, to: string): void {
    const src = resolve(from);
    for (const [k, v] of [...this.texts]) if (k.startsWith(`${src}/`)) this.texts.set(join(to, k.slice(src.length)), v);
  }
}

/** Fakes for every dependency; `git` answers the commands an A/B run makes. */
export function harness(
  root: string,
  sides: Record<string, SideBehaviour>,
  o: {
    upError?: Record<string, string>;
    failWrite?: RegExp;
    baseTree?: string;
    /** the base tree's project copied from this directory instead (a base commit's other config) */
    baseFrom?: string;
    apart?: { changes: string[]; blockers: string[] };
    /** the run's files in memory (the real file system when absent) */
    files?: MemoryFiles;
  } = {},
): Harness {
  const files: RunFiles = o.files ?? realFiles;
  const docker = new FakeDocker(sides);
  const lines: string[] = [];
  const git: string[] = [];
  const written: string[] = [];
  const exec: Exec = async (_cmd, args) => {
    git.push(args.join(' '));
    if (args[0] === 'rev-parse' && args[1] === '--show-toplevel') return { code: 0, stdout: `${root}\n`, stderr: '' };
    if (args[0] === 'rev-parse' && args[1] === '--verify')
      return { code: 0, stdout: `${'b'.repeat(40)}\n`, stderr: '' };
    if (args[0] === 'worktree' && args[1] === 'add') {
      const into = args[4] as string;
      // the base tree: the same project as head
      const from = o.baseFrom ?? o.baseTree;
      if (o.files) {
        if (o.baseTree && from) o.files.copyDir(join(root, from), join(into, o.baseTree));
      } else {
        mkdirSync(into, { recursive: true });
        if (o.baseTree && from) cpSync(join(root, from), join(into, o.baseTree), { recursive: true });
      }
      return { code: 0, stdout: '', stderr: '' };
    }
    return { code: 1, stdout: '', stderr: 'not a git repository' };
  };
  const deps: RunDeps = {
    docker,
    compose: (c) =>
      new FakeCompose(c.project, docker.calls, o.upError?.[c.project.split('-').at(-1) ?? ''], c.sideBySide && o.apart),
    exec,
    progress: new Progress({ write: (t) => void lines.push(t) }),
    onSignal: () => () => {},
    runnerScript: () => '// runner',
    env: {},
    maskSecret: () => {},
    files: {
      readText: (p) => files.readText(p),
      exists: (p) => files.exists(p),
      realpath: (p) => files.realpath(p),
      isFile: (p) => files.isFile(p),
      read: (p) => files.read(p),
      readBytes: (p, max) => files.readBytes(p, max),
      write: (path, text) => {
        if (o.failWrite?.test(path)) throw new Error(`EACCES: permission denied, open '${path}'`);
        written.push(path);
        files.write(path, text);
      },
      makeTempDir: (prefix) => files.makeTempDir(prefix),
      removeDir: (dir) => files.removeDir(dir),
    },
    workspace: root,
    now: () => Date.parse('2026-11-24T10:00:00Z'),
  };
  return { deps, docker, calls: docker.calls, lines, git, written };
}

/** The fake project's compose file and config (one scenario, one 1 s phase, p50 band +20% / 100µs). */
export const COMPOSE = 'services:\n  api:\n    image: api:1\n';
export const projectConfig = (extra = '', trials = 3): string => `version: 1
sut:
  compose: docker-compose.yml
runner: { image: perf-gate/node:local }
${extra}
defaults:
  warmup: 0s
  trials: ${trials}
  thresholds:
    p50: { regress: 20%, floor: 100us }
scenarios:
  - name: api
    request: { url: http://api:8080/work }
    phases:
      - { name: c2, connections: 2, duration: 1s }
`;

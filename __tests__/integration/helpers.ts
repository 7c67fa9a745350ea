// Helpers for integration tests: the real Docker engine, real compose, the built CLI (dist/cli.js).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'dist/cli.js');

/** True when an engine answers. In CI (`CI` set) a missing engine is a failure, not a skip. */
export function dockerAvailable(): boolean {
  const ok = spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
  if (!ok && process.env.CI) {
    throw new Error('CI is set but no Docker engine answers `docker info`: run scripts/provision-docker.sh');
  }
  return ok;
}

/** The quickstart (fixtures/quickstart) as the tests run it: its service and the load runner in
 * perf-gate/node:local (scripts/provision-node-image.sh), where a user's default is node:22-slim. */
/** The fixture service (fixtures/sut) as the one compose service `api`, built, with `env`; no health check
 * (its probe's CPU would count as the service's), the config's `ready` waits for it instead. */
export function fixtureService(env: Record<string, string>): string {
  return `services:
  api:
    build: ${join(ROOT, 'fixtures/sut')}
    environment:
${Object.entries(env)
  .map(([k, v]) => `      ${k}: ${v}`)
  .join('\n')}
`;
}

/** The head of a config on fixtureService's compose file (docker-compose.yml beside it). */
export const FIXTURE_SUT = `version: 1
sut:
  compose: docker-compose.yml
  build: true
  ready: [{ url: http://api:8080/health }]
runner: { image: perf-gate/node:local }
`;

export const QUICKSTART_IMAGE = 'perf-gate/node:local';
/** The options and the environment that put the quickstart in QUICKSTART_IMAGE. */
export const QUICKSTART_ARGS = ['--runner-image', QUICKSTART_IMAGE];
export const QUICKSTART_ENV: NodeJS.ProcessEnv = { PERF_GATE_NODE_IMAGE: QUICKSTART_IMAGE };

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  child: ReturnType<typeof spawn>;
  done: Promise<CliResult>;
  /** resolves when stderr+stdout contain the text */
  waitFor: (text: string) => Promise<void>;
  /** stdout and stderr so far */
  output: () => string;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, GITHUB_EVENT_NAME: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  const check = () => {
    for (const w of [...waiters]) {
      if ((stdout + stderr).includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    check();
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    check();
  });
  const done = new Promise<CliResult>((res) => {
    child.on('close', (code, signal) => res({ code, signal, stdout, stderr }));
  });
  const waitFor = (text: string) =>
    new Promise<void>((res, rej) => {
      waiters.push({ text, resolve: res });
      check();
      done.then(() => rej(new Error(`CLI exited before printing "${text}"\n${stdout}\n${stderr}`)));
    });
  return { child, done, waitFor, output: () => stdout + stderr };
}

export function runCli(args: string[], env?: NodeJS.ProcessEnv, cwd?: string): Promise<CliResult> {
  return startCli(args, env, cwd).done;
}

export function tempDir(prefix = 'perf-gate-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** `perf-gate run --config CONFIG --mode MODE` with a fresh output directory and baselines under it
 * (`<out>/b`): the result, and where it wrote. */
export async function runFresh(
  config: string,
  mode: string,
  env?: NodeJS.ProcessEnv,
): Promise<{ r: CliResult; out: string; baselines: string }> {
  const out = tempDir();
  const baselines = join(out, 'b');
  const r = await runCli(['run', '--config', config, '--mode', mode, '--baseline-dir', baselines, '--out', out], env);
  return { r, out, baselines };
}

/** The run id a CLI run printed (`[perf-gate] run <id>: ...`). */
export function runIdOf(output: string): string {
  const m = /\[perf-gate\] run ([0-9a-f]{8}):/.exec(output);
  if (!m?.[1]) throw new Error(`no run id in the output:\n${output}`);
  return m[1];
}

/** Containers, networks, volumes and built images labelled with this run id that still exist. */
export function leftovers(runId: string): string[] {
  const out: string[] = [];
  const label = `label=dev.perf-gate.run-id=${runId}`;
  for (const kind of ['container', 'network', 'volume', 'image'] as const) {
    const args =
      kind === 'container'
        ? ['ps', '-a', '--filter', label, '--format', '{{.Names}}']
        : kind === 'image'
          ? ['images', '--filter', label, '--format', '{{.Repository}}:{{.Tag}}']
          : [kind, 'ls', '--filter', label, '--format', '{{.Name}}'];
    const res = spawnSync('docker', args, { encoding: 'utf8' });
    for (const line of res.stdout.split('\n').filter(Boolean)) out.push(`${kind} ${line}`);
  }
  return out;
}

export function docker(args: string[]): string {
  const res = spawnSync('docker', args, { encoding: 'utf8' });
  return res.stdout;
}

/** `git ARGS` in `dir`: its output, trimmed; a failure throws with git's words. */
export function git(dir: string, args: string[]): string {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** `dir` as a repository of two commits: what is in it now as `base`, then `head` after `change` (an
 * A/B run's `--base HEAD~1`). */
export function commitBaseAndHead(dir: string, change: () => void): void {
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.email', 'test@example.com']);
  git(dir, ['config', 'user.name', 'perf-gate test']);
  git(dir, ['add', '.']);
  git(dir, ['commit', '-q', '-m', 'base']);
  change();
  git(dir, ['commit', '-q', '-am', 'head']);
}

/**
 * Whether a row a test expects to regress came out `inconclusive` because the machine was busy
 * (gate.busy, on by default): the engine is shared with whatever else the CI machine runs, and steal
 * or another process can take more trials than the run's repeats replace. That is the product's
 * documented verdict (it fails the check like a regression), so a test of something else accepts it,
 * but only once the results show the allowance spent; otherwise the row must be a regression.
 * Returns true when the row was busy (the caller skips what only a confirmed regression has).
 */
export function regressedOrBusy(
  row: { result: string; reason?: string } | undefined,
  busy: { repeats: number; repeated: number } | undefined,
  output: string,
): boolean {
  if (row?.result === 'inconclusive' && /\(gate\.busy\)/.test(row.reason ?? '')) {
    expect(busy, output).toBeDefined();
    expect(busy?.repeated, output).toBe(busy?.repeats);
    return true;
  }
  expect(row, output).toMatchObject({ result: 'regression' });
  return false;
}

// The SUT's compose project, driven through the `docker compose` v2 CLI under a unique project name.
// perf-gate labels reach every service, network and volume through a generated override file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { environmentError, usageError } from '../common/errors.js';
import { type Exec, type ExecResult, lastLine } from '../common/exec.js';
import { mergeOverrides, type Override, overrideYaml, type SideBySide, sideBySide } from './side-by-side.js';

export interface ComposeModel {
  services: Record<string, unknown>;
  networks?: Record<string, { external?: boolean } | null>;
  volumes?: Record<string, { external?: boolean } | null>;
}

export interface ComposeOptions {
  project: string;
  files: string[];
  cwd: string;
  env: Record<string, string>;
  labels: Record<string, string>;
  /** an A/B side, booted beside the other: what makes two copies collide is neutralised (`root`: the
   * tree this side is checked out to) */
  sideBySide?: {
    root: string;
    /** keep apart what can be, and boot anyway (init --probe beside a stack the user already runs) */
    lenient?: boolean;
  };
}

/** Pure: the override that adds our labels to every service, to the images compose builds (so the
 * label sweep removes them) and to the networks/volumes compose creates. */
export function labelOverride(model: ComposeModel, labels: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    services: Object.fromEntries(
      Object.entries(model.services).map(([s, def]) => [
        s,
        def && typeof def === 'object' && 'build' in def ? { labels, build: { labels } } : { labels },
      ]),
    ),
  };
  const own = (m: Record<string, { external?: boolean } | null> | undefined) =>
    Object.fromEntries(
      Object.entries(m ?? {})
        .filter(([, v]) => !v?.external)
        .map(([k]) => [k, { labels }]),
    );
  const networks = own(model.networks);
  if (Object.keys(networks).length) out.networks = networks;
  const volumes = own(model.volumes);
  if (Object.keys(volumes).length) out.volumes = volumes;
  return out;
}

/** The image a service names, by service (services that only build have none). */
export function serviceImages(model: ComposeModel): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, def] of Object.entries(model.services)) {
    const image = def && typeof def === 'object' ? (def as { image?: unknown }).image : undefined;
    if (typeof image === 'string') out[name] = image;
  }
  return out;
}

/**
 * Pure: the one line that says why `docker compose up` failed. Compose prints a failed pull as
 * ` <service> Error <the registry's message>`; that becomes the service and its image, named, with the
 * registry's reason in brackets. Anything else is compose's last line.
 */
export function upFailure(output: string, model: ComposeModel | undefined): string {
  const images = model ? serviceImages(model) : {};
  for (const line of output.split(/\r?\n/)) {
    const m = /^\s*(\S+)\s+Error\s+(.+)$/.exec(line);
    const service = m?.[1];
    const image = service !== undefined && Object.hasOwn(images, service) ? images[service] : undefined;
    if (image !== undefined) {
      return `service ${service}: image ${image} is not on this host and could not be pulled (${(m?.[2] ?? '').trim()}); load it here (docker load), or give the service a build and set sut.build`;
    }
  }
  return lastLine(output);
}

/** Variables of perf-gate's own environment that never reach `docker compose` (and so the SUT or its
 * logs) unless `sut.env` names them: the Action's inputs (the GitHub token is one) and the runner's
 * tokens. */
const SCRUBBED = [/^INPUT_/i, /^ACTIONS_/i, /^GITHUB_TOKEN$/i, /^GH_TOKEN$/i, /^RUNNER_TOKEN$/i];

/**
 * Pure: the environment `docker compose` runs with: perf-gate's own without the scrubbed variables,
 * then `sut.env` (a value that is exactly `${NAME}` takes NAME from perf-gate's environment, scrubbed
 * or not: naming it is how a user hands it over), then the project name.
 */
export function composeEnv(own: NodeJS.ProcessEnv, sutEnv: Record<string, string>, project: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(own)) if (!SCRUBBED.some((re) => re.test(k))) out[k] = v;
  for (const [k, v] of Object.entries(sutEnv)) {
    const named = /^\$\{([A-Za-z_][A-Za-z0-9_-]*)\}$/.exec(v)?.[1];
    out[k] = named !== undefined ? (own[named] ?? '') : v;
  }
  out.COMPOSE_PROJECT_NAME = project;
  return out;
}

/** Pure: what `docker compose … config --format json` answered: the model, compose missing (the
 * plugin not installed: docker knows no `compose` command, or reads `-p` as its own flag), compose
 * refusing the files (its last line), or no JSON. */
export type ComposeConfigResult = { model: ComposeModel } | { missing: true } | { refused: string } | { noJson: true };

export function composeConfigResult(res: ExecResult): ComposeConfigResult {
  if (res.code === 0) {
    try {
      return { model: JSON.parse(res.stdout) as ComposeModel };
    } catch {
      return { noJson: true };
    }
  }
  if (res.code === 127 || /is not a docker command|unknown command|unknown shorthand flag: 'p'/i.test(res.stderr)) {
    return { missing: true };
  }
  return { refused: lastLine(res.stderr || res.stdout) };
}

/** Pure: the one line that refuses a side-by-side boot, naming every blocker. */
export function cannotBootTwice(files: string[], blockers: string[]): string {
  return `compose ${files.join(', ')} cannot boot twice side by side for A/B: ${blockers.join('; ')}; gate against baselines instead (gate.against: baselines, or --mode gate)`;
}

export class ComposeProject {
  private tmp: string | undefined;
  private override: string | undefined;
  /** what the side-by-side override changed (empty when not side by side) */
  changes: string[] = [];

  constructor(
    private readonly exec: Exec,
    readonly opts: ComposeOptions,
    /** the environment compose runs in (perf-gate's own; the SUT's `env` goes on top) */
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  private async compose(args: string[], timeoutMs?: number) {
    const files = [...this.opts.files, ...(this.override ? [this.override] : [])].flatMap((f) => ['-f', f]);
    const run: Parameters<Exec>[2] = {
      cwd: this.opts.cwd,
      env: composeEnv(this.env, this.opts.env, this.opts.project),
    };
    if (timeoutMs !== undefined) run.timeoutMs = timeoutMs;
    return this.exec('docker', ['compose', '-p', this.opts.project, ...files, ...args], run);
  }

  /** The project as `docker compose config` resolves it (the user's files only, never our override). */
  async model(): Promise<ComposeModel> {
    const r = composeConfigResult(await this.compose(['config', '--format', 'json']));
    if ('model' in r) return r.model;
    if ('missing' in r) {
      throw environmentError('docker compose v2 is not installed (the `docker compose` plugin is required)');
    }
    const why = 'refused' in r ? r.refused : 'it printed no JSON';
    throw environmentError(`compose file ${this.opts.files.join(', ')} rejected by docker compose: ${why}`);
  }

  /** The side-by-side override of a model, or undefined when this project is not an A/B side. */
  private apart(model: ComposeModel): SideBySide | undefined {
    const root = this.opts.sideBySide?.root;
    return root === undefined ? undefined : sideBySide(model, this.opts.project, root);
  }

  /** What a side-by-side boot changes and what it cannot (nothing when not side by side). */
  async collisions(): Promise<SideBySide> {
    return this.apart(await this.model()) ?? { override: {}, changes: [], blockers: [] };
  }

  /** Validates the compose files and writes the override: our labels, and for a side-by-side boot what
   * keeps the two copies apart (a blocker is the user's to fix: exit 2). */
  async prepare(): Promise<ComposeModel> {
    const model = await this.model();
    const apart = this.apart(model);
    if (apart && apart.blockers.length > 0 && !this.opts.sideBySide?.lenient) {
      throw usageError(cannotBootTwice(this.opts.files, apart.blockers));
    }
    this.changes = apart?.changes ?? [];
    this.tmp ??= mkdtempSync(join(tmpdir(), 'perf-gate-'));
    this.override = join(this.tmp, 'perf-gate.override.yml');
    const labels = labelOverride(model, this.opts.labels) as Override;
    writeFileSync(this.override, apart ? overrideYaml(mergeOverrides(labels, apart.override)) : stringify(labels));
    return model;
  }

  /** `up --wait`: starts the services and waits for their health checks. Returns stderr on failure. */
  async up(services: string[], build: boolean, waitTimeoutS: number): Promise<string | undefined> {
    const args = ['up', '--detach', '--wait', '--wait-timeout', String(waitTimeoutS), '--quiet-pull'];
    if (build) args.push('--build');
    const res = await this.compose([...args, ...services], (waitTimeoutS + 600) * 1000);
    return res.code === 0 ? undefined : res.stderr || res.stdout || `docker compose up exited with ${res.code}`;
  }

  /** The last `tail` log lines of each service. */
  async logs(tail: number): Promise<string[]> {
    const res = await this.compose(['logs', '--no-color', '--timestamps=false', '--tail', String(tail)], 30_000);
    return (res.stdout + res.stderr).split(/\r?\n/).filter((l) => l.trim() !== '');
  }

  async down(): Promise<void> {
    await this.compose(['down', '--volumes', '--remove-orphans', '--timeout', '5'], 120_000);
    if (this.tmp !== undefined) rmSync(this.tmp, { recursive: true, force: true });
  }
}

// `perf-gate init`: finds the compose files compose would load, reads the project as `docker compose
// config` resolves it (by hand, with a warning, where compose is not installed), asks little (nothing
// with --yes or without a terminal), and writes perf-gate.yml here and the workflow at the repository
// root, the config checked as `validate` would before anything is written. Files, compose and the
// terminal come in through `InitIO`.
import { join, relative, resolve, sep } from 'node:path';
import { parse } from 'yaml';
import { usageError } from '../common/errors.js';
import type { ExecResult } from '../common/exec.js';
import type { ReadFs } from '../common/read-fs.js';
import { composeConfigResult } from '../docker/compose.js';
import { parseConfigText, repositoryRoot, workspaceResolver } from '../config/load.js';
import { COMPOSE_DEFAULT_NAMES, COMPOSE_OVERRIDE_NAMES } from '../config/normalize.js';
import {
  type ComposeScan,
  defaultAgainst,
  GRPC_HEALTH_PROTO,
  GRPC_HEALTH_PROTO_FILE,
  INIT_RUN_ALPHA,
  type InitAnswers,
  mergeServices,
  renderConfig,
  renderReportWorkflow,
  renderWorkflow,
  scanCompose,
  surveyAddresses,
} from './init.js';
import { handModel } from './hand-model.js';
import type { ProbeRequest } from './probe.js';
import type { SurveyFinding } from '../runner-kit/plan.js';
import { DEFAULT_RUNNER_IMAGE } from '../config-parts/types.js';
import { gatingModes, modeOf } from '../modes/index.js';

export interface InitIO {
  cwd: string;
  /** what checking the written config reads (its files must be inside the workspace) */
  fs: ReadFs;
  exists: (path: string) => boolean;
  read: (path: string) => string;
  write: (path: string, text: string) => void;
  /** runs `docker compose ARGS` in `cwd`; absent where there is no Docker client to ask */
  compose?: (args: string[], cwd: string) => Promise<ExecResult>;
  /** the environment compose would see (COMPOSE_FILE and COMPOSE_PATH_SEPARATOR are read from it) */
  env?: NodeJS.ProcessEnv;
  /** boots the project once and asks each address what it speaks (./probe.ts); absent: no --probe */
  probe?: (req: Omit<ProbeRequest, 'runId'>) => Promise<Map<string, SurveyFinding>>;
  /** asks on the terminal; undefined when there is none to ask on */
  ask?: (question: string, fallback: string) => Promise<string>;
  out: (line: string) => void;
}

export interface InitOptions {
  compose: string[];
  path?: string | undefined;
  against?: string | undefined;
  /** the workflow's `uses:`; default the package's own repository and major version */
  action?: string | undefined;
  force: boolean;
  /** also write the fork flow (perf-gate-report.yml) */
  fork?: boolean;
  /** boot the project once and ask each port what it speaks */
  probe?: boolean;
  /** the runner image --probe starts (default the config's default, node:22-slim) */
  runnerImage?: string | undefined;
}

export const CONFIG_FILE = 'perf-gate.yml';
export const WORKFLOW_FILE = join('.github', 'workflows', 'perf-gate.yml');
export const REPORT_WORKFLOW_FILE = join('.github', 'workflows', 'perf-gate-report.yml');
/** the project name init resolves the model under (its default network and volume names) */
const INIT_PROJECT = 'perfgate-init';
/** the placeholder `uses:` when the package names no repository */
export const ACTION_PLACEHOLDER = 'your-org/perf-gate@v0';

/** COMPOSE_FILE as compose reads it: from the environment, else the project's .env; split by
 * COMPOSE_PATH_SEPARATOR (default ':'). Undefined when neither sets it. */
export function composeFileVariable(env: NodeJS.ProcessEnv, dotenv: string | undefined): string[] | undefined {
  const fromDotenv = (name: string) => {
    const m = new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=\\s*(.*)$`, 'm').exec(dotenv ?? '');
    return m?.[1]?.trim().replace(/^(['"])(.*)\1$/, '$2');
  };
  const value = env.COMPOSE_FILE ?? fromDotenv('COMPOSE_FILE');
  if (value === undefined || value === '') return undefined;
  const separator = env.COMPOSE_PATH_SEPARATOR ?? fromDotenv('COMPOSE_PATH_SEPARATOR') ?? ':';
  return value.split(separator).filter((f) => f !== '');
}

/** The files compose loads by default in `cwd`: COMPOSE_FILE's when it is set (the environment, or
 * .env), else the first default name, then the first override. */
function defaultFiles(io: InitIO): string[] {
  const dotenv = join(io.cwd, '.env');
  const listed = composeFileVariable(io.env ?? {}, io.exists(dotenv) ? io.read(dotenv) : undefined);
  if (listed) return listed;
  const main = COMPOSE_DEFAULT_NAMES.find((n) => io.exists(join(io.cwd, n)));
  if (main === undefined) return [];
  const override = COMPOSE_OVERRIDE_NAMES.find((n) => io.exists(join(io.cwd, n)));
  return override === undefined ? [main] : [main, override];
}

/** The project's model as compose resolves it (.env, interpolation, anchors, extends, include, profiles),
 * or read by hand when compose is not there. */
async function readProject(io: InitIO, files: string[]): Promise<{ model: unknown; byHand: boolean }> {
  for (const f of files) {
    if (!io.exists(resolve(io.cwd, f))) throw usageError(`--compose ${f}: no such file (in ${io.cwd})`);
  }
  if (io.compose) {
    const r = composeConfigResult(
      await io.compose(['-p', INIT_PROJECT, ...files.flatMap((f) => ['-f', f]), 'config', '--format', 'json'], io.cwd),
    );
    if ('model' in r) return { model: r.model, byHand: false };
    if ('noJson' in r) throw usageError(`docker compose config printed no JSON for ${files.join(', ')}`);
    if ('refused' in r) throw usageError(`${files.join(', ')}: docker compose config refused it: ${r.refused}`);
  }
  io.out(
    `warning: docker compose is not installed here: ${files.join(', ')} read by hand (no .env, include or extends; variables take their defaults)`,
  );
  const models = files.map((f) => {
    try {
      // the user's own compose file, not perf-gate's config: a file with many aliases is ordinary
      return parse(io.read(resolve(io.cwd, f)), { maxAliasCount: 10_000, merge: true }) as unknown;
    } catch (err) {
      throw usageError(`--compose ${f}: ${(err as Error).message.split('\n')[0]}`);
    }
  });
  return { model: handModel(mergeServices(models), models, io.cwd), byHand: true };
}

export async function initCommand(opts: InitOptions, io: InitIO): Promise<void> {
  const composeFiles = opts.compose.length > 0 ? opts.compose : defaultFiles(io);
  if (composeFiles.length === 0) {
    throw usageError(`no compose file here (${COMPOSE_DEFAULT_NAMES.join(', ')}); give one with --compose FILE`);
  }
  const root = repositoryRoot(io.cwd, io.exists);
  const workflowAt = root ?? io.cwd;
  const targets = [join(io.cwd, CONFIG_FILE), join(workflowAt, WORKFLOW_FILE)];
  if (opts.fork) targets.push(join(workflowAt, REPORT_WORKFLOW_FILE));
  for (const target of targets) {
    if (!opts.force && io.exists(target)) {
      throw usageError(`${relative(io.cwd, target) || target} exists; perf-gate init writes it only with --force`);
    }
  }
  const { model } = await readProject(io, composeFiles);
  const where = { project: INIT_PROJECT, root: root ?? io.cwd };
  let scan: ComposeScan = scanCompose(model, where);
  if (opts.probe) {
    if (!io.probe) throw usageError('--probe needs a Docker engine to boot the project on, and none is bound here');
    const addresses = surveyAddresses(model);
    io.out(
      `probing ${addresses.length} port${addresses.length === 1 ? '' : 's'}: booting the project once (docker compose up), then asking each from inside its network`,
    );
    const findings = await io.probe({
      files: composeFiles,
      cwd: io.cwd,
      root: root ?? io.cwd,
      build: scan.services.some((s) => s.build),
      image: opts.runnerImage ?? DEFAULT_RUNNER_IMAGE,
      addresses,
    });
    for (const f of findings.values()) io.out(`probed ${f.host}:${f.port}: ${findingLine(f)}`);
    scan = scanCompose(model, where, findings);
  }
  if (scan.services.length === 0) {
    throw usageError(
      `no HTTP or gRPC service in ${composeFiles.join(', ')} (one that publishes or exposes a port): write perf-gate.yml by hand`,
      scan.skipped.map((s) => `  ${s.name}: ${s.why}`),
    );
  }
  if (opts.path !== undefined) pathProblem(opts.path, '--path');
  if (opts.against !== undefined && opts.against !== 'base-ref' && opts.against !== 'baselines') {
    throw usageError(`--against ${opts.against}: must be base-ref or baselines`);
  }
  const suggested = defaultAgainst(scan);
  const ask = io.ask;
  const http = scan.services.some((s) => s.endpoint.kind === 'http');
  const path = opts.path ?? (ask && http ? await ask('path to GET on each HTTP service', '/') : '/');
  pathProblem(path, 'the path');
  const against = (opts.against ??
    (ask
      ? await ask(`gate pull requests against base-ref (A/B) or baselines`, suggested.against)
      : suggested.against)) as InitAnswers['against'];
  if (against !== 'base-ref' && against !== 'baselines') throw usageError(`${against}: must be base-ref or baselines`);
  const configPath = relative(workflowAt, join(io.cwd, CONFIG_FILE)).split(sep).join('/');
  const answers: InitAnswers = {
    composeFiles,
    path,
    against,
    action: opts.action ?? ACTION_PLACEHOLDER,
    configPath,
    ...(opts.fork ? { fork: true } : {}),
    runAlpha: INIT_RUN_ALPHA,
  };
  const grpc = scan.services.some((s) => s.endpoint.kind === 'grpc');
  const protoPath = join(io.cwd, GRPC_HEALTH_PROTO_FILE);
  const writeProto = grpc && !io.exists(protoPath);
  // what init writes must be a config `validate` takes; anything else is a bug of ours
  if (writeProto) io.write(protoPath, GRPC_HEALTH_PROTO);
  const check = (text: string) =>
    parseConfigText(text, join(io.cwd, CONFIG_FILE), workspaceResolver(io.cwd, workflowAt, io.fs));
  // the run's false-alarm budget, where its share of each gated phase can be reached in both judging
  // modes (too many scenarios for ab.pairs and the confirmation cap: each row at its own alpha)
  let config = renderConfig(scan, answers);
  let checked = check(config);
  const budgeted = checked.config;
  if (budgeted && !gatingModes().every((m) => modeOf(m).validate(budgeted, m).problems.length === 0)) {
    answers.runAlpha = 'off';
    config = renderConfig(scan, answers);
    checked = check(config);
    io.out(
      `gate.run-alpha: off written: ${INIT_RUN_ALPHA} shared by these ${budgeted.scenarios.length} scenarios' phases is beyond what ab.pairs and gate.confirm.max-trials can confirm; each row is tested at its own alpha (docs/gate.md says more)`,
    );
  }
  if (checked.problems.length > 0) {
    throw new Error(`init wrote a config that does not validate: ${checked.problems.join('; ')}`);
  }
  io.write(join(io.cwd, CONFIG_FILE), config);
  io.write(join(workflowAt, WORKFLOW_FILE), renderWorkflow(answers));
  if (opts.fork) io.write(join(workflowAt, REPORT_WORKFLOW_FILE), renderReportWorkflow(answers));
  const wrote = [
    relative(io.cwd, join(workflowAt, WORKFLOW_FILE)),
    ...(opts.fork ? [relative(io.cwd, join(workflowAt, REPORT_WORKFLOW_FILE))] : []),
    ...(writeProto ? [GRPC_HEALTH_PROTO_FILE] : []),
  ];
  io.out(
    `wrote ${CONFIG_FILE} (${scan.services.length} scenario${scan.services.length === 1 ? '' : 's'}: ${scan.services.map((s) => `${s.name} ${s.endpoint.kind}`).join(', ')}) and ${wrote.join(', ')}`,
  );
  if (root === undefined) io.out(`warning: ${io.cwd} is not inside a git repository: the workflow went to ./.github`);
  for (const s of scan.skipped) io.out(`left out ${s.name}: ${s.why}`);
  const guessed = scan.services.filter((s) => s.endpoint.guessed).map((s) => s.name);
  if (guessed.length > 0) {
    io.out(
      `taken for HTTP, nothing in the compose file says otherwise: ${guessed.join(', ')} (perf-gate init --probe asks the running services)`,
    );
  }
  io.out(
    `pull requests are gated against ${against === 'base-ref' ? 'the base commit, in the same job (A/B)' : 'baselines/ (commit them from the refresh job)'}: ${against === suggested.against ? suggested.why : 'as asked'}`,
  );
  if (answers.action === ACTION_PLACEHOLDER) {
    io.out(`the workflow uses ${ACTION_PLACEHOLDER}: replace it with where perf-gate's Action lives (--action REF)`);
  }
  io.out('next: npx perf-gate validate, then npx perf-gate run --mode update to try it here');
}

/** One probe's answer, in words. */
export function findingLine(f: SurveyFinding): string {
  switch (f.kind) {
    case 'http': {
      const parts = [`HTTP, GET / ${f.status ?? '?'}`];
      if (f.hostHeader) parts.push(`with Host: ${f.hostHeader}`);
      if (f.paths?.length) parts.push(`answers ${f.paths.map((p) => p.path).join(', ')}`);
      if (f.openapi) parts.push(`OpenAPI at ${f.openapi} (${f.gets?.length ?? 0} GET operations callable as they are)`);
      return parts.join('; ');
    }
    case 'grpc':
      return `gRPC, health check ${f.health ?? '?'}`;
    case 'tcp':
      return f.banner ? 'TCP, speaks first (a greeting): not HTTP' : 'TCP, answers neither HTTP/1.1 nor gRPC';
    case 'closed':
      return `no connection (${f.error ?? 'closed'})`;
  }
}

/** A request path init can put in a URL: printable, no spaces (percent-encode them), no fragment. */
function pathProblem(path: string, what: string): void {
  if (!/^[!-~]*$/.test(path) || path.includes('#')) {
    throw usageError(
      `${what} ${JSON.stringify(path)}: not a request path (no spaces, control characters or #; percent-encode them: ${encodeURI(path.replace(/#.*$/, ''))})`,
    );
  }
}

// `perf-gate init`: finds the compose file, asks little (nothing with --yes or without a terminal),
// and writes perf-gate.yml and .github/workflows/perf-gate.yml, the config checked as `validate` would
// before anything is written. Files and the terminal come in through `InitIO`.
import { join } from 'node:path';
import { parse } from 'yaml';
import { usageError } from '../errors.js';
import { parseConfigText, workspaceResolver } from '../config/load.js';
import { defaultAgainst, type InitAnswers, mergeServices, renderConfig, renderWorkflow, scanCompose } from './init.js';

export interface InitIO {
  cwd: string;
  exists: (path: string) => boolean;
  read: (path: string) => string;
  write: (path: string, text: string) => void;
  /** asks on the terminal; undefined when there is none to ask on */
  ask?: (question: string, fallback: string) => Promise<string>;
  out: (line: string) => void;
}

export interface InitOptions {
  compose: string[];
  path?: string | undefined;
  against?: string | undefined;
  action: string;
  force: boolean;
}

/** The names compose itself looks for, in its order. */
const COMPOSE_NAMES = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'];
export const CONFIG_FILE = 'perf-gate.yml';
export const WORKFLOW_FILE = join('.github', 'workflows', 'perf-gate.yml');

export async function initCommand(opts: InitOptions, io: InitIO): Promise<void> {
  const composeFiles =
    opts.compose.length > 0 ? opts.compose : COMPOSE_NAMES.filter((n) => io.exists(join(io.cwd, n))).slice(0, 1);
  if (composeFiles.length === 0) {
    throw usageError(`no compose file here (${COMPOSE_NAMES.join(', ')}); give one with --compose FILE`);
  }
  for (const target of [CONFIG_FILE, WORKFLOW_FILE]) {
    if (!opts.force && io.exists(join(io.cwd, target))) {
      throw usageError(`${target} exists; perf-gate init writes it only with --force`);
    }
  }
  const models = composeFiles.map((f) => {
    try {
      return parse(io.read(join(io.cwd, f))) as unknown;
    } catch (err) {
      throw usageError(`--compose ${f}: ${(err as Error).message.split('\n')[0]}`);
    }
  });
  // compose merges the files: a later file's service adds to (and overrides) an earlier one's
  const scan = scanCompose(mergeServices(models));
  if (scan.services.length === 0) {
    throw usageError(
      `no HTTP service in ${composeFiles.join(', ')} (one that publishes or exposes a port): write perf-gate.yml by hand`,
      scan.skipped.map((s) => `  ${s.name}: ${s.why}`),
    );
  }
  if (opts.against !== undefined && opts.against !== 'base-ref' && opts.against !== 'baselines') {
    throw usageError(`--against ${opts.against}: must be base-ref or baselines`);
  }
  const suggested = defaultAgainst(scan);
  const ask = io.ask;
  const path = opts.path ?? (ask ? await ask('path to GET on each service', '/') : '/');
  const against = (opts.against ??
    (ask
      ? await ask(`gate pull requests against base-ref (A/B) or baselines`, suggested.against)
      : suggested.against)) as InitAnswers['against'];
  if (against !== 'base-ref' && against !== 'baselines') throw usageError(`${against}: must be base-ref or baselines`);
  const answers: InitAnswers = { composeFiles, path, against, action: opts.action, configPath: CONFIG_FILE };
  const config = renderConfig(scan, answers);
  // what init writes must be a config `validate` takes; anything else is a bug of ours
  const checked = parseConfigText(config, join(io.cwd, CONFIG_FILE), workspaceResolver(io.cwd, io.cwd));
  if (checked.problems.length > 0) {
    throw new Error(`init wrote a config that does not validate: ${checked.problems.join('; ')}`);
  }
  io.write(join(io.cwd, CONFIG_FILE), config);
  io.write(join(io.cwd, WORKFLOW_FILE), renderWorkflow(answers));
  io.out(
    `wrote ${CONFIG_FILE} (${scan.services.length} scenario${scan.services.length === 1 ? '' : 's'}: ${scan.services.map((s) => s.name).join(', ')}) and ${WORKFLOW_FILE}`,
  );
  for (const s of scan.skipped) io.out(`left out ${s.name}: ${s.why}`);
  io.out(
    `pull requests are gated against ${against === 'base-ref' ? 'the base commit, in the same job (A/B)' : 'baselines/ (commit them from the refresh job)'}: ${against === suggested.against ? suggested.why : 'as asked'}`,
  );
  io.out('next: npx perf-gate validate, then npx perf-gate run --mode update to try it here');
}

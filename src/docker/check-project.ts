// `validate`'s look at the compose project: `docker compose config` on the config's compose files (no
// engine needed), then the pure checks of ./compose-check.ts and ./side-by-side.ts. Where the
// compose CLI is missing, a note says the project was not checked.
import { resolve } from 'node:path';
import { composeProblems } from './compose-check.js';
import { repositoryRoot } from '../config/load.js';
import type { Config } from '../config-parts/types.js';
import type { Exec } from '../common/exec.js';
import { composeConfigResult, composeEnv } from './compose.js';
import { sideBySide } from './side-by-side.js';

const PROJECT = 'perfgate-validate';

/** `exists` and `env`: the caller's file system and environment (the CLI's deps). */
export async function checkComposeProject(
  config: Config,
  exec: Exec,
  exists: (path: string) => boolean,
  env: NodeJS.ProcessEnv,
): Promise<{ problems: string[]; notes: string[] }> {
  if (config.target || config.sut.composeFiles.length === 0) return { problems: [], notes: [] };
  const r = composeConfigResult(
    await exec(
      'docker',
      ['compose', '-p', PROJECT, ...config.sut.composeFiles.flatMap((f) => ['-f', f]), 'config', '--format', 'json'],
      { cwd: config.dir, env: composeEnv(env, config.sut.env, PROJECT), timeoutMs: 60_000 },
    ),
  );
  if ('missing' in r) {
    return { problems: [], notes: ['docker compose is not installed here: the compose project was not checked'] };
  }
  if ('refused' in r) return { problems: [`sut.compose: docker compose config refused it: ${r.refused}`], notes: [] };
  if ('noJson' in r) {
    return { problems: [], notes: ['docker compose config printed no JSON: the compose project was not checked'] };
  }
  const root = repositoryRoot(config.dir, exists) ?? resolve(config.dir);
  const blockers = config.sut.orchestrator === 'swarm' ? [] : sideBySide(r.model, PROJECT, root).blockers;
  return composeProblems(config, r.model, blockers);
}

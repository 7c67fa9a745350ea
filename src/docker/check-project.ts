// `validate`'s look at the compose project: `docker compose config` on the config's compose files (no
// engine needed), then the pure checks of ../config/compose-check.ts and ./side-by-side.ts. Where the
// compose CLI is missing, a note says the project was not checked.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { composeProblems } from '../config/compose-check.js';
import type { Config } from '../config/types.js';
import { type Exec, lastLine } from '../exec.js';
import { type ComposeModel, composeEnv } from './compose.js';
import { sideBySide } from './side-by-side.js';

const PROJECT = 'perfgate-validate';

/** The nearest directory at or above `dir` with a .git, or `dir`. */
function treeRoot(dir: string): string {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return resolve(dir);
  }
}

export async function checkComposeProject(
  config: Config,
  exec: Exec,
): Promise<{ problems: string[]; notes: string[] }> {
  if (config.target || config.sut.composeFiles.length === 0) return { problems: [], notes: [] };
  const res = await exec(
    'docker',
    ['compose', '-p', PROJECT, ...config.sut.composeFiles.flatMap((f) => ['-f', f]), 'config', '--format', 'json'],
    { cwd: config.dir, env: composeEnv(process.env, config.sut.env, PROJECT), timeoutMs: 60_000 },
  );
  if (res.code === 127 || /is not a docker command|unknown command/i.test(res.stderr)) {
    return { problems: [], notes: ['docker compose is not installed here: the compose project was not checked'] };
  }
  if (res.code !== 0) {
    return {
      problems: [`sut.compose: docker compose config refused it: ${lastLine(res.stderr || res.stdout)}`],
      notes: [],
    };
  }
  let model: ComposeModel;
  try {
    model = JSON.parse(res.stdout) as ComposeModel;
  } catch {
    return { problems: [], notes: ['docker compose config printed no JSON: the compose project was not checked'] };
  }
  const blockers = config.sut.orchestrator === 'swarm' ? [] : sideBySide(model, PROJECT, treeRoot(config.dir)).blockers;
  return composeProblems(config, model, blockers);
}

// Pure: everything the Action reads from GITHUB_* and the event file, in one typed object (the one
// place those variables are read). A malformed or missing event file is a warning, never a failure.
import { isAbsolute, join, relative, sep } from 'node:path';

export interface RepoRef {
  full_name?: string;
  owner?: { login?: string };
}

export interface GitHubEvent {
  number?: number;
  pull_request?: {
    number: number;
    head?: { sha?: string; ref?: string; repo?: RepoRef | null };
    base?: { sha?: string; repo?: RepoRef };
  };
  workflow_run?: {
    id?: number;
    name?: string;
    event?: string;
    conclusion?: string | null;
    head_sha?: string;
    head_branch?: string | null;
    html_url?: string;
    head_repository?: RepoRef | null;
    repository?: RepoRef;
    pull_requests?: Array<{ number: number; head?: { sha?: string } }>;
  };
}

export interface ActionContext {
  eventName: string;
  event: GitHubEvent;
  /** why the event could not be read, when it could not */
  eventProblem?: string;
  /** owner/name */
  repository: string | undefined;
  apiUrl: string;
  serverUrl: string;
  /** the workflow run's id and its web page */
  runId: string | undefined;
  runUrl: string | undefined;
  sha: string | undefined;
  /** RUNNER_DEBUG=1 (re-run with debug logging) or PERF_GATE_DEBUG */
  debug: boolean;
  /** a job summary file exists to write to */
  hasSummary: boolean;
  /** GITHUB_WORKSPACE: annotation paths are relative to it */
  workspace: string | undefined;
}

export function readContext(env: NodeJS.ProcessEnv, readFile: (path: string) => string): ActionContext {
  let event: GitHubEvent = {};
  let eventProblem: string | undefined;
  const path = env.GITHUB_EVENT_PATH;
  if (path) {
    try {
      const parsed: unknown = JSON.parse(readFile(path));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) event = parsed as GitHubEvent;
      else eventProblem = `event file ${path}: not a JSON object`;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      eventProblem = `event file ${path}: ${e.code === 'ENOENT' ? 'not found' : e instanceof SyntaxError ? 'not valid JSON' : e.message}`;
    }
  }
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/$/, '');
  const repository = env.GITHUB_REPOSITORY || event.pull_request?.base?.repo?.full_name || undefined;
  const runId = env.GITHUB_RUN_ID || undefined;
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    event,
    ...(eventProblem ? { eventProblem } : {}),
    repository,
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, ''),
    serverUrl,
    runId,
    runUrl: repository && runId ? `${serverUrl}/${repository}/actions/runs/${runId}` : undefined,
    sha: env.GITHUB_SHA || undefined,
    debug: env.RUNNER_DEBUG === '1' || Boolean(env.PERF_GATE_DEBUG),
    hasSummary: Boolean(env.GITHUB_STEP_SUMMARY),
    workspace: env.GITHUB_WORKSPACE || undefined,
  };
}

/** A pull request from another repository (a fork): its token is read-only. */
export function isForkPullRequest(event: GitHubEvent): boolean {
  const head = event.pull_request?.head?.repo?.full_name;
  const base = event.pull_request?.base?.repo?.full_name;
  return Boolean(head && base && head !== base);
}

/** A path as annotations want it: relative to the workspace when it lies inside, as given otherwise. */
export function workspacePath(path: string, workspace: string | undefined, cwd: string): string {
  const abs = isAbsolute(path) ? path : join(cwd, path);
  if (!workspace) return path;
  const rel = relative(workspace, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
}

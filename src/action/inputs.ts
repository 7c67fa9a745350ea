// Pure: the Action's inputs (SPEC §6) read from the INPUT_* environment into one typed object.
import { usageError } from '../common/errors.js';
import { isMode, isReportMode, listed, modeInputs, type ModeInput, REPORT_MODE } from '../modes/index.js';
import { parseSeed } from '../stats/random.js';
import { branchProblem, fileProblem } from './history-branch.js';

/** The history file's name on its branch when `history` does not name one. */
export const DEFAULT_BRANCH_HISTORY = 'perf-history.jsonl';
/** The trend page written beside it on the branch when `history-page` does not name one. */
export const DEFAULT_HISTORY_PAGE = 'perf-history.html';

export const COMMENT_MODES = ['always', 'on-regression', 'never'] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];

/** `report`: the fork-safe comment and status from a trusted workflow_run job (report-mode.ts) */
export type ActionMode = ModeInput | typeof REPORT_MODE;

export interface ActionInputs {
  config: string;
  mode: ActionMode;
  baselineDir: string;
  scenarios: string[];
  githubToken: string;
  comment: CommentMode;
  failOnRegression: boolean;
  /** fail the step when a row stayed inconclusive at the cap (default false: a warning) */
  failOnInconclusive: boolean;
  /** an update fails when a row moved beyond its band since the baselines it replaces */
  failOnShift: boolean;
  runnerImage: string;
  reportId: string;
  /** A/B mode: the ref to compare against; empty = the pull request's base commit */
  baseRef: string;
  /** A/B mode: the seed of the pair orders; undefined = a new one */
  seed: number | undefined;
  /** paths to also write the results to as JUnit XML / CSV; empty = not written */
  junit: string;
  csv: string;
  /** FORMAT=PATH each (input out-format: one per line or separated by spaces) */
  outFormats: string[];
  /** a trend history file (JSON lines): charts in the report; update runs append */
  history: string;
  /** the branch the history is kept on (read before the run, an update's entry pushed to it); empty:
   * the history is a file of the workspace */
  historyBranch: string;
  /** the trend page an append writes beside the history on its branch; empty: none (no branch, or
   * `history-page: false`) */
  historyPage: string;
  /** report mode: the results file the pull request's run uploaded */
  results: string;
  /** report mode: the PR number the pull request's run uploaded (checked against the API) */
  prNumber: number | undefined;
  /** report mode: set a commit status on the PR's head commit */
  status: boolean;
  /** upload the run's page, results and profiles as an artifact and link it (default true) */
  uploadReport: boolean;
}

/** The runner exposes input `x-y` as INPUT_X-Y (spaces to underscores, upper case). */
function input(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const v = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];
  return v === undefined || v.trim() === '' ? fallback : v.trim();
}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const mode = input(env, 'mode', 'auto');
  if (!isMode(mode) && !isReportMode(mode)) {
    throw usageError(`input mode: ${JSON.stringify(mode)} must be ${listed([...modeInputs(), REPORT_MODE])}`);
  }
  const comment = input(env, 'comment', 'always');
  if (!(COMMENT_MODES as readonly string[]).includes(comment)) {
    throw usageError(`input comment: ${JSON.stringify(comment)} must be always, on-regression or never`);
  }
  const fail = input(env, 'fail-on-regression', 'true').toLowerCase();
  if (!['true', 'false'].includes(fail))
    throw usageError(`input fail-on-regression: ${JSON.stringify(fail)} must be true or false`);
  const inconclusive = input(env, 'fail-on-inconclusive', 'true').toLowerCase();
  if (!['true', 'false'].includes(inconclusive))
    throw usageError(`input fail-on-inconclusive: ${JSON.stringify(inconclusive)} must be true or false`);
  const shift = input(env, 'fail-on-shift', 'false').toLowerCase();
  if (!['true', 'false'].includes(shift))
    throw usageError(`input fail-on-shift: ${JSON.stringify(shift)} must be true or false`);
  const seedText = input(env, 'seed', '');
  const seed = seedText ? parseSeed(seedText) : undefined;
  if (seedText && seed === undefined)
    throw usageError(`input seed: ${JSON.stringify(seedText)} must be an integer from 0 to 4294967295`);
  const pr = input(env, 'pr-number', '');
  if (pr && !/^[1-9]\d{0,9}$/.test(pr))
    throw usageError(`input pr-number: ${JSON.stringify(pr)} must be a pull request number`);
  const historyBranch = input(env, 'history-branch', '');
  const branchSaid = historyBranch ? branchProblem(historyBranch) : undefined;
  if (branchSaid) throw usageError(`input history-branch: ${JSON.stringify(historyBranch)} ${branchSaid}`);
  // on a branch, the history is a file of the branch's tree: perf-history.jsonl unless named
  const history = input(env, 'history', historyBranch ? DEFAULT_BRANCH_HISTORY : '');
  const fileSaid = historyBranch ? fileProblem(history) : undefined;
  if (fileSaid) throw usageError(`input history: ${JSON.stringify(history)} ${fileSaid} (with history-branch)`);
  // the trend page written beside the history on its branch (for GitHub Pages); 'false': none
  const pageGiven = input(env, 'history-page', DEFAULT_HISTORY_PAGE);
  const historyPage = !historyBranch || pageGiven.toLowerCase() === 'false' ? '' : pageGiven;
  const pageSaid = historyPage ? fileProblem(historyPage) : undefined;
  if (pageSaid) throw usageError(`input history-page: ${JSON.stringify(historyPage)} ${pageSaid}`);
  if (historyPage && historyPage === history)
    throw usageError(
      `input history-page: ${JSON.stringify(historyPage)} is the history file itself; name a page beside it`,
    );
  const status = input(env, 'status', 'true').toLowerCase();
  if (!['true', 'false'].includes(status))
    throw usageError(`input status: ${JSON.stringify(status)} must be true or false`);
  const upload = input(env, 'upload-report', 'true').toLowerCase();
  if (!['true', 'false'].includes(upload))
    throw usageError(`input upload-report: ${JSON.stringify(upload)} must be true or false`);
  return {
    config: input(env, 'config', 'perf-gate.yml'),
    mode,
    baselineDir: input(env, 'baseline-dir', 'baselines'),
    scenarios: input(env, 'scenarios', '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    githubToken: input(env, 'github-token', ''),
    comment: comment as CommentMode,
    failOnRegression: fail === 'true',
    failOnInconclusive: inconclusive === 'true',
    failOnShift: shift === 'true',
    runnerImage: input(env, 'runner-image', ''),
    reportId: input(env, 'report-id', ''),
    baseRef: input(env, 'base-ref', ''),
    seed,
    junit: input(env, 'junit', ''),
    outFormats: input(env, 'out-format', '')
      .split(/\s+/)
      .filter((f) => f !== ''),
    csv: input(env, 'csv', ''),
    history,
    historyBranch,
    historyPage,
    results: input(env, 'results', 'perf-gate-results.json'),
    prNumber: pr ? Number(pr) : undefined,
    status: status === 'true',
    uploadReport: upload === 'true',
  };
}

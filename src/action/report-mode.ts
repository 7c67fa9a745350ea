// `mode: report`: the fork-safe second half of a pull request's perf check. It runs in a trusted
// `workflow_run` job (write token, no PR code), reads the results file the PR's run uploaded, checks
// which pull request it belongs to against the triggering run, re-renders the report from the data
// (never posts Markdown from the untrusted run), upserts the same sticky comment and sets a commit
// status on the PR's head commit so a fork's regression fails a visible check.
import { acceptIn, withoutAcceptances } from '../compare/accept.js';
import { usageError } from '../common/errors.js';
import { traitsOf, verdictOf } from '../modes/index.js';
import { renderMarkdown } from '../report/markdown.js';
import type { Comparison, ResultsFile } from '../results/types.js';
import { readResults } from '../results/read.js';
import { pullRequestAcceptances } from './accept.js';
import { publishComment, type CommentLog } from './comment.js';
import type { ActionContext, GitHubEvent } from './context.js';
import type { CommitState, GitHubApi } from './github.js';

export interface ReportRequest {
  resultsFile: string;
  /** the PR number the untrusted run reported (an artifact); checked before use */
  prNumber: number | undefined;
  token: string;
  comment: 'always' | 'on-regression' | 'never';
  reportId: string;
  status: boolean;
  /** an inconclusive verdict fails the commit status */
  failOnInconclusive?: boolean;
}

export interface ReportOutcome {
  verdict: string;
  regressions: number;
  /** the comparisons rendered (from the results file) */
  comparisons: Comparison[];
  report: string;
  pr: number | undefined;
  state: CommitState | undefined;
  /** the rows writers of the pull request accepted, as this trusted job read them (none: undefined),
   * with the commit the API proved the run's; for the history (history-branch) */
  accepted?: { results: ResultsFile; commit: string };
}

type WorkflowRun = NonNullable<GitHubEvent['workflow_run']>;

/** The pull request the triggering run was for, proven by the API: its head commit is the run's
 * head commit, from the run's head repository. Candidates: the run's own list (same-repository PRs)
 * and the number the artifact gave (forks, where GitHub leaves that list empty). */
export async function trustedPullRequest(
  api: Pick<GitHubApi, 'getPull'>,
  run: WorkflowRun,
  claimed: number | undefined,
  log: CommentLog,
): Promise<number | undefined> {
  const listed = (run.pull_requests ?? []).map((p) => p.number);
  const candidates = [...new Set([...(claimed !== undefined ? [claimed] : []), ...listed])];
  if (candidates.length === 0) {
    log.warning(
      'perf-gate: the triggering run names no pull request (GitHub leaves the list empty for forks); pass pr-number from the artifact',
    );
    return undefined;
  }
  for (const n of candidates) {
    try {
      const pr = await api.getPull(n);
      const sameHead = pr.headSha === run.head_sha;
      const sameRepo = !run.head_repository?.full_name || pr.headRepo === run.head_repository.full_name;
      if (sameHead && sameRepo) return n;
      log.warning(
        `perf-gate: pull request #${n} does not belong to the triggering run (its head is ${pr.headSha.slice(0, 12)} in ${pr.headRepo ?? 'a deleted repository'}, the run's is ${(run.head_sha ?? '').slice(0, 12)} in ${run.head_repository?.full_name ?? '?'}); not commenting on it`,
      );
    } catch (err) {
      log.warning(`perf-gate: could not read pull request #${n}: ${(err as Error).message}`);
    }
  }
  return undefined;
}

export function statusOf(
  verdict: string,
  regressions: number,
  failOnInconclusive = true,
): { state: CommitState; description: string } {
  if (verdict === 'regression') {
    return { state: 'failure', description: `${regressions} regression${regressions === 1 ? '' : 's'}` };
  }
  if (verdict === 'inconclusive') {
    return {
      state: failOnInconclusive ? 'failure' : 'success',
      description: 'inconclusive: a change not confirmed by the most trials allowed',
    };
  }
  if (verdict === 'no-baseline') return { state: 'success', description: 'no baseline yet: nothing compared' };
  return { state: 'success', description: 'no regression' };
}

export async function runReport(
  req: ReportRequest,
  ctx: ActionContext,
  api: GitHubApi | undefined,
  log: CommentLog,
  readText: (path: string) => string,
): Promise<ReportOutcome> {
  if (ctx.eventName === 'workflow_run' && !ctx.event.workflow_run) {
    throw usageError(
      `mode report needs the workflow_run event's payload, and ${ctx.eventProblem ?? 'the event has none'}`,
    );
  }
  if (ctx.eventName !== 'workflow_run' || !ctx.event.workflow_run) {
    throw usageError(
      `mode report runs in a workflow_run job (this event is ${ctx.eventName || 'unknown'}): see the fork recipe in docs/action.md`,
    );
  }
  const run = ctx.event.workflow_run;
  const measured = readResults(req.resultsFile, { readText });
  // rows the artifact says were accepted are its own word: judged as measured, then accepted only by
  // the pull request's comments this trusted job reads itself
  const asMeasured = { ...measured, comparisons: withoutAcceptances(measured.comparisons) };
  const gated = traitsOf(asMeasured.mode).gates;
  const outcome = rendered(asMeasured, req.reportId);
  if (run.event !== 'pull_request' && run.event !== 'pull_request_target') {
    log.info(
      `perf-gate: the triggering run was a ${run.event ?? 'unknown'} run, not a pull request: nothing to comment on`,
    );
    return outcome;
  }
  if (!api) {
    log.warning('perf-gate: no github-token; the report is in the job summary only');
    return outcome;
  }
  const pr = await trustedPullRequest(api, run, req.prNumber, log);
  if (pr === undefined) return withStatus(outcome, req, ctx, api, log, run, gated);
  const accepted = acceptIn(asMeasured, gated ? await pullRequestAcceptances(api, pr, log) : []);
  for (const line of accepted.unused) log.warning(`perf-gate: ${line}`);
  const taken = accepted.results.comparisons.some((c) => c.result === 'accepted');
  const final = {
    ...rendered(accepted.results, req.reportId),
    pr,
    ...(taken && run.head_sha ? { accepted: { results: accepted.results, commit: run.head_sha } } : {}),
  };
  await publishComment(
    api,
    { pr, mode: req.comment, reportId: req.reportId, report: final.report, verdict: final.verdict },
    log,
  );
  return withStatus(final, req, ctx, api, log, run, gated);
}

/** The outcome of a results file as it reads: its verdict and its re-rendered report. */
function rendered(results: ResultsFile, reportId: string): ReportOutcome {
  const { verdict, regressions } = verdictOf(results.mode, results.comparisons);
  return {
    verdict,
    regressions,
    comparisons: results.comparisons,
    report: renderMarkdown(results, traitsOf(results.mode), { reportId }),
    pr: undefined,
    state: undefined,
  };
}

/** The commit status of the pull request's head, set from the verdict (a gating run's only). */
async function withStatus(
  outcome: ReportOutcome,
  req: ReportRequest,
  ctx: ActionContext,
  api: GitHubApi,
  log: CommentLog,
  run: WorkflowRun,
  gated: boolean,
): Promise<ReportOutcome> {
  const { verdict, regressions } = outcome;
  if (req.status && run.head_sha && gated) {
    const { state, description } = statusOf(verdict, regressions, req.failOnInconclusive);
    try {
      await api.setStatus(
        run.head_sha,
        state,
        `perf-gate${req.reportId ? ` (${req.reportId})` : ''}`,
        description,
        run.html_url ?? ctx.runUrl,
      );
      outcome.state = state;
    } catch (err) {
      log.warning(
        `perf-gate: could not set the commit status (${(err as Error).message}; the job needs statuses: write)`,
      );
    }
  }
  return outcome;
}

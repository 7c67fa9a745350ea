// The sticky PR comment: created, refreshed or left alone per the `comment` input. Never throws and
// never fails the gate: a token that cannot write, an API that keeps failing or a proxy that refuses
// is one warning (the job summary always has the full report).
import { GitHubError, upsertComment, type CommentsApi, type UpsertResult } from './github.js';
import type { CommentMode } from './inputs.js';
import { reportMarker } from '../report/markdown.js';

export interface CommentLog {
  info(message: string): void;
  warning(message: string): void;
}

export interface CommentRequest {
  pr: number;
  mode: CommentMode;
  reportId: string;
  report: string;
  /** the run's verdict: `on-regression` creates a comment only for `regression` or `inconclusive` */
  verdict: string;
}

/** One line for a failed API call: what to fix, where it can be fixed. */
export function commentFailure(err: unknown): string {
  if (err instanceof GitHubError && [401, 403, 404].includes(err.status)) {
    return `perf-gate: could not write the PR comment (${err.status}: the token is read-only or lacks pull-requests/issues: write); the job summary has the full report`;
  }
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return `perf-gate: could not write the PR comment: ${(e.message ?? String(err)).split('\n')[0]}${cause ? ` (${cause})` : ''}; the job summary has the full report`;
}

export async function publishComment(
  api: CommentsApi,
  req: CommentRequest,
  log: CommentLog,
): Promise<UpsertResult | undefined> {
  if (req.mode === 'never') return undefined;
  try {
    // on-regression without a regression: no new comment, but one that reported a regression earlier
    // must not stay stale
    // on-regression: a comment where something needs the reviewer — a regression, or a change that
    // could not be confirmed either way
    const create = req.mode === 'always' || req.verdict === 'regression' || req.verdict === 'inconclusive';
    const r = await upsertComment(api, req.pr, reportMarker(req.reportId), req.report, create);
    if (r.action !== 'none') log.info(`perf-gate: comment ${r.id} ${r.action}`);
    return r;
  } catch (err) {
    log.warning(commentFailure(err));
    return undefined;
  }
}

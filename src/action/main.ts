// The Action's main entry (SPEC §6): inputs → the same engine as the CLI → outputs, job summary,
// annotations and one sticky PR comment. The run id goes to the post step, which sweeps leftovers.
import { readFileSync } from 'node:fs';
import * as core from '@actions/core';
import { realRunDeps } from '../deps.js';
import { loadConfig } from '../config/load.js';
import { UserError, usageError } from '../errors.js';
import { resolveMode } from '../mode.js';
import { Progress, progressSink } from '../progress.js';
import { renderError, reportMarker } from '../report/markdown.js';
import { newRunId, runPerfGate } from '../run.js';
import { exitOnSignals } from '../signals.js';
import { findOwnComment, GitHubError, githubApi, upsertComment } from './github.js';
import { readInputs } from './inputs.js';

interface PullRequestEvent {
  pull_request?: {
    number: number;
    head?: { repo?: { full_name?: string } | null };
    base?: { sha?: string; repo?: { full_name?: string } };
  };
}

function readEvent(): PullRequestEvent {
  const path = process.env.GITHUB_EVENT_PATH;
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PullRequestEvent;
  } catch {
    return {};
  }
}

// a cancelled job: tear down, fail the step (the post step sweeps whatever is left)
const onSignal = exitOnSignals(() => 1);

async function comment(
  inputs: ReturnType<typeof readInputs>,
  event: PullRequestEvent,
  report: string,
  verdict: string,
): Promise<void> {
  const pr = event.pull_request;
  if (!pr || inputs.comment === 'never') return;
  if (!inputs.githubToken) {
    core.warning('perf-gate: no github-token; the report is in the job summary only');
    return;
  }
  const head = pr.head?.repo?.full_name;
  const base = pr.base?.repo?.full_name;
  if (head && base && head !== base) {
    core.warning(
      'perf-gate: pull request from a fork; its token is read-only, so no comment is posted (the job summary has the full report; see the README for the workflow_run pattern)',
    );
    return;
  }
  const repo = process.env.GITHUB_REPOSITORY ?? base;
  if (!repo) {
    core.warning('perf-gate: GITHUB_REPOSITORY is not set; no comment');
    return;
  }
  const api = githubApi(process.env.GITHUB_API_URL || 'https://api.github.com', inputs.githubToken, repo);
  try {
    if (inputs.comment === 'on-regression' && verdict !== 'regression') {
      // no new comment, but a comment that reported a regression earlier must not stay stale
      const existing = await findOwnComment(api, pr.number, reportMarker(inputs.reportId));
      if (!existing || existing.body === report) return;
      await api.updateComment(existing.id, report);
      core.info(`perf-gate: updated comment ${existing.id}`);
      return;
    }
    const r = await upsertComment(api, pr.number, reportMarker(inputs.reportId), report);
    core.info(`perf-gate: comment ${r.id} ${r.action}`);
  } catch (err) {
    if (err instanceof GitHubError && (err.status === 403 || err.status === 404 || err.status === 401)) {
      core.warning(
        `perf-gate: could not write the PR comment (${err.status}: the token is read-only or lacks pull-requests/issues: write); the job summary has the full report`,
      );
      return;
    }
    core.warning(`perf-gate: could not write the PR comment: ${(err as Error).message}`);
  }
}

export async function run(): Promise<void> {
  let inputs: ReturnType<typeof readInputs>;
  try {
    inputs = readInputs(process.env);
  } catch (err) {
    await failed(err);
    return;
  }
  const runId = newRunId();
  core.saveState('run_id', runId);
  const event = readEvent();
  try {
    const against = inputs.mode === 'auto' ? loadConfig(inputs.config).gate.against : 'baselines';
    const mode = resolveMode(inputs.mode, process.env.GITHUB_EVENT_NAME, against);
    const baseRef = inputs.baseRef || event.pull_request?.base?.sha || '';
    if (mode === 'ab' && !baseRef) {
      throw usageError('mode ab needs the base-ref input outside a pull request (a commit, branch or tag)');
    }
    const outcome = await runPerfGate(
      {
        configFile: inputs.config,
        mode,
        scenarios: inputs.scenarios,
        baselineDir: inputs.baselineDir,
        outDir: '.',
        runId,
        reportId: inputs.reportId,
        ...(inputs.runnerImage ? { runnerImage: inputs.runnerImage } : {}),
        ...(baseRef ? { baseRef } : {}),
        ...(inputs.junit ? { junit: inputs.junit } : {}),
        ...(inputs.csv ? { csv: inputs.csv } : {}),
      },
      realRunDeps(new Progress(progressSink(process.stdout, process.env)), onSignal),
    );
    core.setOutput('verdict', outcome.verdict);
    core.setOutput('regressions', String(outcome.regressions));
    core.setOutput('results', outcome.resultsPath);
    core.setOutput('report', outcome.reportPath);
    core.setOutput('baselines-updated', outcome.baselinesUpdated.join(' '));
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(outcome.report).write();
    // an update's comparisons with the previous baselines are information, not failures
    const gated = mode === 'update' ? [] : outcome.results.comparisons;
    for (const c of gated.filter((x) => x.result === 'regression')) {
      core.error(
        `${c.scenario}/${c.phase} ${c.metric}: ${c.reason ?? `changed ${c.delta === null ? '' : `${(c.delta * 100).toFixed(1)}% `}beyond the band ${c.band}`}`,
        {
          title: `perf-gate regression: ${c.scenario}/${c.phase} ${c.metric}`,
        },
      );
    }
    if (mode !== 'update') await comment(inputs, event, outcome.report, outcome.verdict);
    if ((mode === 'gate' || mode === 'ab') && outcome.verdict === 'regression' && inputs.failOnRegression) {
      core.setFailed(`perf-gate: ${outcome.regressions} regression${outcome.regressions === 1 ? '' : 's'}`);
    }
  } catch (err) {
    await failed(err);
  }
}

/** A run that could not finish: every output set, the reason in the job summary (the SUT's last log
 * lines folded), the step failed with the same one line. */
async function failed(err: unknown): Promise<void> {
  const user = err instanceof UserError;
  const message = user ? err.message : `perf-gate: internal error: ${(err as Error).message}`;
  const details = user ? err.details : [];
  core.setOutput('verdict', 'error');
  core.setOutput('regressions', '0');
  core.setOutput('results', '');
  core.setOutput('report', '');
  core.setOutput('baselines-updated', '');
  if (process.env.GITHUB_STEP_SUMMARY) {
    await core.summary
      .addRaw(renderError(message, details))
      .write()
      .catch(() => {});
  }
  core.setFailed([message, ...details].join('\n'));
}

await run();

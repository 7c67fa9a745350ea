// The Action's main step (SPEC §6) as one function of its dependencies, with no side effects on
// import: inputs → the same engine as the CLI → outputs, job summary, annotations and one sticky PR
// comment. The entry (index.ts) binds the real dependencies; tests bind fakes.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnnotationProperties } from '@actions/core';
import { scenarioLines } from '../config/lines.js';
import {
  appendHistory,
  historyAcceptance,
  type HistoryAcceptance,
  historyEntry,
  parseHistory,
} from '../history/history.js';
import { historyPage } from '../report/history-html.js';
import type { ShiftSettings } from '../config-parts/types.js';
import { EXIT_USAGE, UserError } from '../common/errors.js';
import { isReportMode, type ModeInput, modeOf, shiftedLine, shiftedRows } from '../modes/index.js';
import { buildRunRequest } from '../run/request.js';
import { outFormatPath, type OutputPath, type PathProbe, refuseOutputPaths } from '../run/output-paths.js';
import type { Comparison } from '../results/types.js';
import { renderError } from '../report/markdown.js';
import type { RunOptions, RunOutcome } from '../run/contract.js';
import { pullRequestAcceptances } from './accept.js';
import { publishComment } from './comment.js';
import { runReport } from './report-mode.js';
import { OUTPUT, STATE, type OutputName } from './constants.js';
import { isForkPullRequest, readContext, workspacePath, type ActionContext } from './context.js';
import type { GitHubApi } from './github.js';
import { readInputs, type ActionInputs } from './inputs.js';
import { appendBranchHistory, type Git, readBranchHistory } from './history-branch.js';
import type { ArtifactHttp } from './artifact.js';
import { artifactLine, runFiles, uploadRunFiles } from './upload.js';

/** The part of @actions/core the Action uses. */
export interface ActionIO {
  setOutput(name: OutputName, value: string): void;
  saveState(name: string, value: string): void;
  info(message: string): void;
  warning(message: string, props?: AnnotationProperties): void;
  error(message: string, props?: AnnotationProperties): void;
  setFailed(message: string): void;
  /** appends Markdown to the job summary (only called when there is one) */
  writeSummary(markdown: string): Promise<void>;
  startGroup(name: string): void;
  endGroup(): void;
}

export interface ActionDeps {
  env: NodeJS.ProcessEnv;
  io: ActionIO;
  readFile: (path: string) => string;
  writeFile: (path: string, text: string) => void;
  /** what the check of the run's output paths asks of the file system */
  paths: PathProbe;
  cwd: string;
  github: (opts: { baseUrl: string; token: string; repo: string }) => GitHubApi;
  /** the engine, its Docker/compose/progress dependencies bound */
  perfGate: (opts: RunOptions) => Promise<RunOutcome>;
  /** `gate.against` of the config (auto mode picks A/B from it) */
  configAgainst: (configFile: string) => 'baselines' | 'base-ref';
  /** `history:` of the config: report mode writes a fork's acceptances and the trend page with it
   * (the fork's results file is not trusted to say it) */
  configHistory: (configFile: string) => ShiftSettings;
  newRunId: () => string;
  /** git in the workspace (input history-branch) */
  git: Git;
  /** the artifact service's HTTP (input upload-report) */
  artifactHttp: ArtifactHttp;
  readBytes: (path: string) => Uint8Array;
  sleep: (ms: number) => Promise<void>;
  now: () => Date;
  /** a secret the log masks from here on (core.setSecret) */
  mask: (secret: string) => void;
}

/** report mode writes the re-rendered report here (the working directory) */
export const REPORT_FILE = 'perf-gate-report.md';

export async function run(deps: ActionDeps): Promise<void> {
  const { io } = deps;
  const ctx = readContext(deps.env, deps.readFile);
  // a debug re-run of the job turns on what PERF_GATE_DEBUG does (the runner's own output)
  if (ctx.debug && !deps.env.PERF_GATE_DEBUG) deps.env.PERF_GATE_DEBUG = '1';
  if (ctx.eventProblem) io.warning(`perf-gate: ${ctx.eventProblem}; running without the event's details`);
  let inputs: ActionInputs;
  try {
    inputs = readInputs(deps.env);
  } catch (err) {
    await failed(deps, ctx, err);
    return;
  }
  if (isReportMode(inputs.mode)) {
    await reportMode(deps, ctx, inputs);
    return;
  }
  const runId = deps.newRunId();
  io.saveState(STATE.runId, runId);
  try {
    // history-branch: the branch's history, read into a file of the runner's temporary directory
    const onBranch = inputs.historyBranch ? branchHistory(deps, inputs, runId) : undefined;
    const asked = buildRunRequest(
      {
        config: inputs.config,
        mode: inputs.mode as ModeInput,
        scenarios: inputs.scenarios,
        baselineDir: inputs.baselineDir,
        outDir: '.',
        runId,
        reportId: inputs.reportId,
        runnerImage: inputs.runnerImage,
        baseRef: inputs.baseRef,
        seed: inputs.seed,
        junit: inputs.junit,
        csv: inputs.csv,
        outFormats: inputs.outFormats,
        history: onBranch?.path ?? inputs.history,
      },
      {
        eventName: ctx.eventName,
        pullRequestBaseSha: ctx.event.pull_request?.base?.sha,
        baseBranch: deps.env.GITHUB_BASE_REF,
        against: deps.configAgainst,
      },
      'input out-format',
    );
    const mode = modeOf(asked.mode);
    refuseOutputPaths(deps.paths, outputPaths(onBranch ? { ...inputs, history: '' } : inputs, mode.records));
    // a gate of a pull request: the rows its writers accepted on purpose
    const accept = mode.gates ? await acceptancesOf(deps, ctx, inputs) : [];
    const request = accept.length > 0 ? { ...asked, accept } : asked;
    const ran = await deps.perfGate(request);
    // the run's page and files as an artifact, linked from the comment and the summary
    const uploaded = inputs.uploadReport
      ? await uploadRunFiles({ ...deps, http: deps.artifactHttp }, runFiles(ran, deps.cwd), inputs.reportId)
      : undefined;
    const outcome = uploaded ? { ...ran, report: `${ran.report}\n\n${artifactLine(uploaded)}\n` } : ran;
    // (the report file too: a refresh pull request's body is that file; one that cannot be written
    // is a warning: the run and its verdict stand)
    if (uploaded) {
      try {
        deps.writeFile(outcome.reportPath, outcome.report);
      } catch (err) {
        io.warning(`perf-gate: the link to the run's page is not in ${outcome.reportPath}: ${(err as Error).message}`);
      }
    }
    setOutputs(io, {
      verdict: outcome.verdict,
      regressions: String(outcome.regressions),
      results: outcome.resultsPath,
      report: outcome.reportPath,
      html: outcome.htmlPath,
      reportUrl: uploaded?.url ?? '',
      baselinesUpdated: outcome.baselinesUpdated.join(' '),
    });
    if (ctx.hasSummary) await io.writeSummary(outcome.report);
    // an update's entry appended on the history's branch (a race with another refresh: tried again);
    // not where the refresh fails on its shifts (fail-on-shift): nothing is recorded until someone decides
    const shifted = shiftedRows(mode.name, outcome.results.comparisons);
    const failsOnShift = inputs.failOnShift && shifted.length > 0;
    if (onBranch && mode.records && failsOnShift)
      io.info(`perf-gate: history not appended on branch ${inputs.historyBranch}: the refresh fails on its shifts`);
    if (onBranch && mode.records && !failsOnShift) {
      const entry = historyEntry(outcome.results);
      const message = `perf-gate: history of run ${runId}${entry.commit ? ` at ${entry.commit.slice(0, 12)}` : ''}`;
      const pushed = appendBranchHistory(
        deps.git,
        inputs.historyBranch,
        inputs.history,
        (text) => appendHistory(text, entry),
        message,
        trendPage(inputs, outcome.results.shiftSettings),
      );
      io.info(
        `perf-gate: history appended on branch ${inputs.historyBranch} (${pushed.commit.slice(0, 12)}${pushed.attempts > 1 ? `, after ${pushed.attempts} attempts: the branch moved` : ''})`,
      );
    }
    // a gate's regressions accepted on purpose, written beside the runs: the level shift they make
    // after the merge is then said to be known (a job that may not push: a warning, the check stands)
    const accepted =
      onBranch && mode.gates ? historyAcceptance(outcome.results, ctx.event.pull_request?.number) : undefined;
    if (accepted) recordAcceptance(deps, inputs, accepted, outcome.results.shiftSettings);
    // the comparisons of a mode that does not gate (an update's with the previous baselines) are
    // information, not failures
    const gated = mode.gates ? outcome.results.comparisons : [];
    const lines = configLines(deps, inputs.config);
    for (const c of gated.filter((x) => x.result === 'regression')) {
      const line = lines.get(c.scenario);
      io.error(
        `${c.scenario}/${c.phase} ${c.metric}: ${c.reason ?? `changed ${c.delta === null ? '' : `${(c.delta * 100).toFixed(1)}% `}beyond the band ${c.band}`}`,
        {
          title: `perf-gate regression: ${c.scenario}/${c.phase} ${c.metric}`,
          file: workspacePath(inputs.config, ctx.workspace, deps.cwd),
          ...(line ? { startLine: line } : {}),
        },
      );
    }
    if (mode.comments) await comment(deps, ctx, inputs, outcome);
    if (mode.gates && outcome.verdict === 'regression' && inputs.failOnRegression) {
      io.setFailed(`perf-gate: ${outcome.regressions} regression${outcome.regressions === 1 ? '' : 's'}`);
    }
    if (mode.gates && outcome.verdict === 'inconclusive') {
      const text = inconclusiveText(outcome.results.comparisons);
      if (inputs.failOnInconclusive) io.setFailed(text);
      else io.warning(text);
    }
    if (failsOnShift) io.setFailed(shiftedLine(shifted));
  } catch (err) {
    await failed(deps, ctx, err);
  }
}

/** history-branch: a pull request's regressions accepted on purpose appended to the branch's history;
 * a job that may not push warns (its check stands). */
function recordAcceptance(
  deps: ActionDeps,
  inputs: ActionInputs,
  accepted: HistoryAcceptance,
  settings: ShiftSettings | undefined,
): void {
  try {
    appendBranchHistory(
      deps.git,
      inputs.historyBranch,
      inputs.history,
      (text) => appendHistory(text, accepted),
      `perf-gate: ${accepted.rows.length} regression${accepted.rows.length === 1 ? '' : 's'} accepted${accepted.pr !== undefined ? ` in #${accepted.pr}` : ''}`,
      trendPage(inputs, settings),
    );
    deps.io.info(`perf-gate: the accepted regressions are recorded on branch ${inputs.historyBranch}`);
  } catch (err) {
    deps.io.warning(
      `perf-gate: the accepted regressions could not be recorded on branch ${inputs.historyBranch} (${(err as Error).message}); give this job contents: write to record them`,
    );
  }
}

/** The config's `history:` for a report-mode job; the defaults, said, where its config cannot be read
 * (a workflow_run job that did not check the repository out). */
function configShifts(deps: ActionDeps, config: string): ShiftSettings | undefined {
  try {
    return deps.configHistory(config);
  } catch (err) {
    deps.io.info(
      `perf-gate: the trend page uses the default history: settings (${config} could not be read: ${(err as Error).message.split('\n')[0]})`,
    );
    return undefined;
  }
}

/** history-branch: the trend page (`history-page`) of the history as appended, written beside it in
 * the same commit, or nothing (`history-page: false`). */
function trendPage(inputs: ActionInputs, settings?: ShiftSettings): (history: string) => Record<string, string> {
  return (history) => {
    if (!inputs.historyPage) return {};
    const { entries, acceptances } = parseHistory(history);
    return { [inputs.historyPage]: historyPage(entries, acceptances, settings) };
  };
}

/** history-branch: the branch's history file written where the run reads it (and an update appends). */
function branchHistory(deps: ActionDeps, inputs: ActionInputs, runId: string): { path: string } {
  const { text, parent } = readBranchHistory(deps.git, inputs.historyBranch, inputs.history);
  const path = join(deps.env.RUNNER_TEMP || tmpdir(), `perf-gate-history-${runId}.jsonl`);
  deps.writeFile(path, text);
  deps.io.info(
    parent
      ? `perf-gate: history read from branch ${inputs.historyBranch} (${parent.slice(0, 12)}:${inputs.history})`
      : `perf-gate: no branch ${inputs.historyBranch} yet: the history starts empty`,
  );
  return { path };
}

/** Every path the run writes, as the inputs gave them (the results and the report go into the working
 * directory; the baselines and the history are written only by a mode that records, read otherwise). */
function outputPaths(inputs: ActionInputs, records: boolean): OutputPath[] {
  const file = (input: string, path: string | undefined, writes: boolean, given = path): OutputPath[] =>
    path ? [{ given: `input ${input}: ${given}`, path, kind: 'file', writes }] : [];
  return [
    { given: 'the working directory', path: '.', kind: 'directory', writes: true },
    {
      given: `input baseline-dir: ${inputs.baselineDir}`,
      path: inputs.baselineDir,
      kind: 'directory',
      writes: records,
    },
    ...file('junit', inputs.junit, true),
    ...file('csv', inputs.csv, true),
    ...file('history', inputs.history, records),
    ...inputs.outFormats.flatMap((spec) =>
      file('out-format', outFormatPath(spec), !spec.startsWith('history=') || records, spec),
    ),
  ];
}

/** The `/perf-gate accept` comments and the accept label of this pull request from people with write
 * access; none outside a
 * pull request, without a token, or for a fork's pull request (its run is untrusted: the report mode's
 * trusted job reads them instead). */
async function acceptancesOf(deps: ActionDeps, ctx: ActionContext, inputs: ActionInputs) {
  const pr = ctx.event.pull_request?.number;
  if (pr === undefined || !inputs.githubToken || !ctx.repository || isForkPullRequest(ctx.event)) return [];
  const api = deps.github({ baseUrl: ctx.apiUrl, token: inputs.githubToken, repo: ctx.repository });
  return pullRequestAcceptances(api, pr, deps.io);
}

/** mode report (fork-safe): comment and status from a trusted workflow_run job; no SUT, no Docker. */
async function reportMode(deps: ActionDeps, ctx: ActionContext, inputs: ActionInputs): Promise<void> {
  const { io } = deps;
  try {
    const api =
      inputs.githubToken && ctx.repository
        ? deps.github({ baseUrl: ctx.apiUrl, token: inputs.githubToken, repo: ctx.repository })
        : undefined;
    const r = await runReport(
      {
        resultsFile: inputs.results,
        prNumber: inputs.prNumber,
        token: inputs.githubToken,
        comment: inputs.comment,
        reportId: inputs.reportId,
        status: inputs.status,
        failOnInconclusive: inputs.failOnInconclusive,
      },
      ctx,
      api,
      io,
      deps.readFile,
    );
    deps.writeFile(REPORT_FILE, r.report);
    // a fork's regressions accepted on purpose, read by this trusted job, written to the history's
    // branch as a same-repository pull request's run writes them (its own run cannot: its token reads)
    if (inputs.historyBranch && r.accepted && r.pr !== undefined) {
      // the commit the API proved and this job's clock, not what the artifact says of itself
      const { results, commit } = r.accepted;
      const line = historyAcceptance(
        { ...results, finishedAt: deps.now().toISOString(), provenance: { ...results.provenance, commit } },
        r.pr,
      );
      if (line) recordAcceptance(deps, inputs, line, configShifts(deps, inputs.config));
    }
    setOutputs(io, {
      verdict: r.verdict,
      regressions: String(r.regressions),
      results: inputs.results,
      report: REPORT_FILE,
      // (the fork's run wrote its own page; this job re-renders only the Markdown)
      html: '',
      reportUrl: '',
      baselinesUpdated: '',
    });
    if (ctx.hasSummary) await io.writeSummary(r.report);
    if (r.verdict === 'inconclusive' && inputs.failOnInconclusive) io.setFailed(inconclusiveText(r.comparisons));
    if (r.verdict === 'regression' && inputs.failOnRegression) {
      io.setFailed(`perf-gate: ${r.regressions} regression${r.regressions === 1 ? '' : 's'} in the pull request's run`);
    }
  } catch (err) {
    await failed(deps, ctx, err);
  }
}

/** The one line an inconclusive run fails with (fail-on-inconclusive) or warns with. */
function inconclusiveText(comparisons: readonly Comparison[]): string {
  const open = comparisons.filter((c) => c.result === 'inconclusive');
  const rows = open
    .slice(0, 5)
    .map((c) => `${c.scenario}/${c.phase} ${c.metric}`)
    .join(', ');
  return `perf-gate: inconclusive: ${open.length} row${open.length === 1 ? '' : 's'} outside the band but not confirmed by the most trials allowed (${rows}${open.length > 5 ? ', …' : ''})`;
}

function setOutputs(io: ActionIO, values: Record<keyof typeof OUTPUT, string>): void {
  for (const [key, name] of Object.entries(OUTPUT) as Array<[keyof typeof OUTPUT, OutputName]>) {
    io.setOutput(name, values[key]);
  }
}

function configLines(deps: ActionDeps, config: string): Map<string, number> {
  try {
    return scenarioLines(deps.readFile(config));
  } catch {
    return new Map();
  }
}

async function comment(deps: ActionDeps, ctx: ActionContext, inputs: ActionInputs, outcome: RunOutcome) {
  const { io } = deps;
  const pr = ctx.event.pull_request?.number;
  if (inputs.comment === 'never') return;
  if (pr === undefined) {
    if (ctx.eventName.startsWith('pull_request') && !ctx.eventProblem) {
      io.warning(
        `perf-gate: the ${ctx.eventName} event names no pull request number; no comment (the job summary has the report)`,
      );
    }
    return;
  }
  if (!inputs.githubToken) {
    io.warning('perf-gate: no github-token; the report is in the job summary only');
    return;
  }
  if (isForkPullRequest(ctx.event)) {
    io.warning(
      'perf-gate: pull request from a fork; its token is read-only, so no comment is posted (the job summary has the full report; docs/action.md shows how the report action comments from a trusted workflow_run job)',
    );
    return;
  }
  if (!ctx.repository) {
    io.warning('perf-gate: GITHUB_REPOSITORY is not set; no comment');
    return;
  }
  const api = deps.github({ baseUrl: ctx.apiUrl, token: inputs.githubToken, repo: ctx.repository });
  await publishComment(
    api,
    { pr, mode: inputs.comment, reportId: inputs.reportId, report: outcome.report, verdict: outcome.verdict },
    io,
  );
}

/** A run that could not finish: every output set, the reason in the job summary (the SUT's last log
 * lines folded), the SUT logs in a log group, the step failed with the one line. */
async function failed(deps: ActionDeps, ctx: ActionContext, err: unknown): Promise<void> {
  const { io } = deps;
  const user = err instanceof UserError;
  const message = user ? err.message : `perf-gate: internal error: ${(err as Error).message}`;
  const details = user ? err.details : [];
  setOutputs(io, {
    verdict: 'error',
    regressions: '0',
    results: '',
    report: '',
    html: '',
    reportUrl: '',
    baselinesUpdated: '',
  });
  if (ctx.hasSummary) await io.writeSummary(renderError(message, details)).catch(() => {});
  // config problems (`FILE:LINE:COL: key: message`, exit 2) as annotations on the file, where a PR
  // shows them; never SUT log lines, whatever they look like
  const configProblems = user && err.exitCode === EXIT_USAGE ? details : [];
  for (const line of configProblems) {
    const at = /^\s*(.+?):(\d+):(\d+): (.+)$/.exec(line);
    if (at) {
      io.error(at[4] as string, {
        title: 'perf-gate config',
        file: at[1] as string,
        startLine: Number(at[2]),
        startColumn: Number(at[3]),
      });
    }
  }
  if (details.length > 0) {
    io.startGroup('perf-gate: details (SUT logs)');
    for (const line of details) io.info(line);
    io.endGroup();
  }
  if (!user && ctx.debug && err instanceof Error && err.stack) io.info(err.stack);
  io.setFailed(message);
}

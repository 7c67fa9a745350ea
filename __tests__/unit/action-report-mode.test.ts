// The Action in report mode (fork-safe: a trusted workflow_run job reads a fork's artifact), with fakes
// for everything it touches.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/results/files.js';
import { GitHubError } from '../../src/action/github.js';
import { run } from '../../src/action/main.js';
import { reportMarker } from '../../src/report/markdown.js';
import { REPO, PR_EVENT, outcome, harness, warnings } from './action-harness.js';

describe('the Action in report mode (fork-safe: a trusted workflow_run job)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-report-mode-'));
  const resultsPath = join(dir, 'perf-gate-results.json');
  writeFileSync(resultsPath, stableStringify(outcome('regression').results));
  const passPath = join(dir, 'pass.json');
  writeFileSync(passPath, stableStringify(outcome('pass').results));
  const FORK = 'mallory/shop';
  const runEvent = (over: Record<string, unknown> = {}) => ({
    workflow_run: {
      id: 99,
      event: 'pull_request',
      head_sha: 'f00d',
      head_branch: 'faster',
      html_url: 'https://github.test/acme/shop/actions/runs/99',
      head_repository: { full_name: FORK },
      pull_requests: [],
      ...over,
    },
  });
  const reportHarness = (inputs: Record<string, string>, event: unknown = runEvent()) => {
    const h = harness({
      env: { GITHUB_EVENT_NAME: 'workflow_run', INPUT_MODE: 'report', INPUT_RESULTS: resultsPath, ...inputs },
      event,
      perfGate: async () => {
        throw new Error('report mode must not run the engine');
      },
    });
    h.api.pulls.push({ number: 7, state: 'open', headSha: 'f00d', headRepo: FORK });
    h.api.pulls.push({ number: 8, state: 'open', headSha: 'beef', headRepo: FORK });
    return h;
  };

  it('a fork PR with its number from the artifact: checked, commented, a failing commit status, the step failed', async () => {
    const h = reportHarness({ 'INPUT_PR-NUMBER': '7' });
    await run(h.deps);
    expect(h.runs).toEqual([]);
    expect(h.api.writes).toEqual(['create', 'status failure']);
    expect(h.api.comments[0]?.body).toContain(reportMarker(''));
    expect(h.api.comments[0]?.body).toContain('perf-gate: 1 regression');
    expect(h.api.statuses).toEqual([
      ['f00d', 'failure', 'perf-gate', '1 regression', 'https://github.test/acme/shop/actions/runs/99'],
    ]);
    expect(h.outputs).toMatchObject({
      verdict: 'regression',
      regressions: '1',
      results: resultsPath,
      report: 'perf-gate-report.md',
    });
    expect(h.files['perf-gate-report.md']).toBe(h.api.comments[0]?.body);
    expect(h.summary).toEqual([h.api.comments[0]?.body]);
    expect(h.failed).toEqual(["perf-gate: 1 regression in the pull request's run"]);
  });

  it("a PR number that is not the run's (another head commit): a warning, no comment, the status still set on the run's commit", async () => {
    const h = reportHarness({ 'INPUT_PR-NUMBER': '8' });
    await run(h.deps);
    expect(warnings(h)).toEqual([expect.stringContaining('pull request #8 does not belong to the triggering run')]);
    expect(h.api.writes).toEqual(['status failure']);
    expect(h.api.statuses[0]?.[0]).toBe('f00d');
  });

  it('a PR number from another repository with the same head commit: refused', async () => {
    const h = reportHarness({ 'INPUT_PR-NUMBER': '7' }, runEvent({ head_repository: { full_name: 'eve/shop' } }));
    await run(h.deps);
    expect(warnings(h)).toEqual([expect.stringContaining("in mallory/shop, the run's is f00d in eve/shop")]);
    expect(h.api.comments).toEqual([]);
  });

  it('a PR number that does not exist: a warning naming it', async () => {
    const h = reportHarness({ 'INPUT_PR-NUMBER': '404' });
    await run(h.deps);
    expect(warnings(h)).toEqual([expect.stringContaining('could not read pull request #404')]);
    expect(h.api.comments).toEqual([]);
  });

  it('a same-repository PR: the run names it, no number needed', async () => {
    const h = reportHarness({}, runEvent({ head_repository: { full_name: REPO }, pull_requests: [{ number: 9 }] }));
    h.api.pulls.push({ number: 9, state: 'open', headSha: 'f00d', headRepo: REPO });
    await run(h.deps);
    expect(h.api.writes).toEqual(['create', 'status failure']);
  });

  it('no PR number anywhere: a warning that says to pass pr-number; the status is still set', async () => {
    const h = reportHarness({});
    await run(h.deps);
    expect(warnings(h)).toEqual([expect.stringContaining('pass pr-number from the artifact')]);
    expect(h.api.writes).toEqual(['status failure']);
  });

  it('a passing run: success status, comment, the step green; status: false sets none', async () => {
    const h = reportHarness({ 'INPUT_PR-NUMBER': '7', INPUT_RESULTS: passPath });
    await run(h.deps);
    expect(h.api.statuses).toEqual([['f00d', 'success', 'perf-gate', 'no regression', expect.any(String)]]);
    expect(h.failed).toEqual([]);
    const quiet = reportHarness({
      'INPUT_PR-NUMBER': '7',
      INPUT_RESULTS: passPath,
      INPUT_STATUS: 'false',
      'INPUT_REPORT-ID': 'linux',
    });
    await run(quiet.deps);
    expect(quiet.api.writes).toEqual(['create']);
    expect(quiet.api.comments[0]?.body).toContain(reportMarker('linux'));
  });

  it('the report id names the status context', async () => {
    const h = reportHarness({ 'INPUT_PR-NUMBER': '7', 'INPUT_REPORT-ID': 'linux' });
    await run(h.deps);
    expect(h.api.statuses[0]?.[2]).toBe('perf-gate (linux)');
  });

  it('outside workflow_run: a usage error, nothing written', async () => {
    const h = reportHarness({ GITHUB_EVENT_NAME: 'pull_request', 'INPUT_PR-NUMBER': '7' }, PR_EVENT);
    await run(h.deps);
    expect(h.failed).toEqual([
      expect.stringMatching(/^mode report runs in a workflow_run job \(this event is pull_request\)/),
    ]);
    expect(h.api.writes).toEqual([]);
    expect(h.outputs.verdict).toBe('error');
  });

  it('a workflow_run of a push: nothing to comment on, no status', async () => {
    const h = reportHarness({}, runEvent({ event: 'push' }));
    await run(h.deps);
    expect(h.api.writes).toEqual([]);
    expect(h.calls).toContain(
      'info perf-gate: the triggering run was a push run, not a pull request: nothing to comment on',
    );
  });

  it('a missing results file (the PR run failed before writing it): error naming the file', async () => {
    const h = reportHarness({ INPUT_RESULTS: join(dir, 'nope.json'), 'INPUT_PR-NUMBER': '7' });
    await run(h.deps);
    expect(h.failed).toEqual([`results file ${join(dir, 'nope.json')}: not found`]);
    expect(h.api.writes).toEqual([]);
  });

  it('a read-only token in the trusted job: warnings, not a failure of perf-gate itself', async () => {
    const h = reportHarness({ 'INPUT_PR-NUMBER': '7', INPUT_RESULTS: passPath });
    h.api.fail = new GitHubError(403, 'listing the comments of #7: 403 Resource not accessible by integration');
    h.api.setStatus = async () => {
      throw new GitHubError(403, 'setting the commit status of f00d: 403 Resource not accessible by integration');
    };
    await run(h.deps);
    expect(warnings(h)).toEqual([
      expect.stringContaining("could not read #7's comments for /perf-gate accept"),
      expect.stringContaining('lacks pull-requests/issues: write'),
      expect.stringContaining('the job needs statuses: write'),
    ]);
    expect(h.failed).toEqual([]);
  });
});

// /perf-gate accept: failing rows accepted on purpose by someone with write access, in a run and in
// report mode (where a fork's artifact's own acceptances are not taken), with fakes for GitHub.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stableStringify } from '../../src/results/files.js';
import { type IssueComment } from '../../src/action/github.js';
import { run, type ActionDeps } from '../../src/action/main.js';
import { reportMarker } from '../../src/report/markdown.js';
import { PR_EVENT, outcome, harness, warnings, repo } from './action-harness.js';

describe('/perf-gate accept: failing rows accepted on purpose by someone with write access', () => {
  const say = (id: number, login: string, body: string, type = 'User'): IssueComment => ({
    id,
    body,
    user: { login, type },
  });

  it("a writer's and an admin's lines go to the run, the newest first; a reader's, a bot's and a malformed one do not", async () => {
    const h = harness({ perfGate: async () => outcome('regression') });
    h.api.access = { alice: 'write', olga: 'admin', rick: 'read' };
    h.api.comments.push(
      say(1, 'alice', 'Agreed in review.\n/perf-gate accept search/c10 p99: the new ranking, agreed'),
      say(2, 'rick', '/perf-gate accept *: please'),
      say(3, 'github-actions[bot]', '/perf-gate accept *: from a bot', 'Bot'),
      say(4, 'olga', '/perf-gate accept api: cache off for the migration\n/perf-gate accept api'),
    );
    await run(h.deps);
    expect(h.runs[0]?.accept).toEqual([
      { rows: 'api', reason: 'cache off for the migration', by: 'olga' },
      { rows: 'search/c10 p99', reason: 'the new ranking, agreed', by: 'alice' },
    ]);
    // each author's access asked once, the bot's never
    expect(h.api.asked.sort()).toEqual(['alice', 'olga', 'rick']);
    expect(warnings(h)).toEqual([
      'perf-gate: /perf-gate accept api: no reason (ROWS: REASON)',
      'perf-gate: /perf-gate accept by rick not taken: rick has read access to the repository, not write',
    ]);
  });

  it("lines from people without write access cannot crowd a writer's out; perf-gate's own report is not read", async () => {
    const h = harness({ perfGate: async () => outcome('regression') });
    h.api.access = { alice: 'write', pat: 'write' };
    const flood = Array.from({ length: 80 }, (_, i) => `/perf-gate accept s${i}: noise`).join('\n');
    h.api.comments.push(
      say(1, 'alice', '/perf-gate accept search: the new ranking'),
      ...Array.from({ length: 30 }, (_, i) => ({ ...say(10 + i, `drive-by-${i}`, flood), association: 'NONE' })),
      // the sticky report, posted with a PAT by a user with write access
      say(99, 'pat', `${reportMarker('')}\n/perf-gate accept *: a line inside the report`),
    );
    await run(h.deps);
    expect(h.runs[0]?.accept).toEqual([{ rows: 'search', reason: 'the new ranking', by: 'alice' }]);
    // no drive-by author is asked about (the API's association says they cannot write); alice once
    expect(h.api.asked).toEqual(['alice']);
    expect(warnings(h).filter((w) => w.includes('/perf-gate accept')).length).toBeLessThanOrEqual(11);
  });

  it('the label "perf-gate: accept" added by a writer accepts every failing row; by a reader it does not', async () => {
    const labelled = { pull_request: { ...PR_EVENT.pull_request, labels: [{ name: 'perf-gate: accept' }] } };
    const h = harness({ event: labelled });
    h.api.access = { alice: 'write' };
    h.api.labelled = { 'perf-gate: accept': { login: 'alice', bot: false } };
    h.api.comments.push(say(1, 'alice', '/perf-gate accept api: the new index'));
    await run(h.deps);
    // the comment's acceptance first (it names rows, with its reason), then the label's
    expect(h.runs[0]?.accept).toEqual([
      { rows: 'api', reason: 'the new index', by: 'alice' },
      { rows: '*', reason: 'the label "perf-gate: accept"', by: 'alice' },
    ]);
    const reader = harness({ event: labelled });
    reader.api.access = { rick: 'read' };
    reader.api.labelled = { 'perf-gate: accept': { login: 'rick', bot: false } };
    await run(reader.deps);
    expect(reader.runs[0]?.accept).toBeUndefined();
    expect(warnings(reader)).toContain(
      'perf-gate: the label "perf-gate: accept" not taken: rick added it and has read access to the repository, not write',
    );
  });

  it('the label is asked of the API on every run (a re-run replays the event, labels as they were); a bot that added it is refused', async () => {
    const h = harness({ event: { pull_request: { ...PR_EVENT.pull_request, labels: [{ name: 'bug' }] } } });
    h.api.access = { 'renovate[bot]': 'write' };
    h.api.labelled = { 'perf-gate: accept': { login: 'renovate[bot]', bot: true } };
    await run(h.deps);
    expect(h.api.labelReads).toBe(1);
    expect(h.runs[0]?.accept).toBeUndefined();
    expect(warnings(h)).toContain(
      'perf-gate: the label "perf-gate: accept" not taken: renovate[bot] added it, and a bot cannot accept a regression',
    );
    expect(h.api.asked).toEqual([]);
  });

  it('no command in the comments: the run gets no acceptances and no access is asked', async () => {
    const h = harness();
    h.api.comments.push(say(1, 'alice', 'looks good'));
    await run(h.deps);
    expect(h.runs[0]?.accept).toBeUndefined();
    expect(h.api.asked).toEqual([]);
  });

  it("a fork's pull request: its own run reads no acceptance (the trusted report job does)", async () => {
    const fork = {
      pull_request: { ...PR_EVENT.pull_request, head: { sha: 'h', repo: { full_name: 'mallory/shop' } } },
    };
    const h = harness({ event: fork });
    h.api.comments.push(say(1, 'alice', '/perf-gate accept *: why'));
    h.api.access = { alice: 'write' };
    await run(h.deps);
    expect(h.runs[0]?.accept).toBeUndefined();
  });

  it('update mode reads none: it gates nothing', async () => {
    const h = harness({ env: { INPUT_MODE: 'update' } });
    h.api.comments.push(say(1, 'alice', '/perf-gate accept *: why'));
    h.api.access = { alice: 'write' };
    await run(h.deps);
    expect(h.runs[0]?.accept).toBeUndefined();
  });
});

describe("/perf-gate accept in report mode: the fork's artifact's own acceptances are not taken", () => {
  const dir = mkdtempSync(join(tmpdir(), 'perf-gate-report-accept-'));
  const FORK = 'mallory/shop';
  const event = {
    workflow_run: {
      id: 99,
      event: 'pull_request',
      head_sha: 'f00d',
      html_url: 'https://github.test/acme/shop/actions/runs/99',
      head_repository: { full_name: FORK },
      pull_requests: [],
    },
  };
  // the fork's artifact says its regression was accepted
  const forged = outcome('regression').results;
  forged.comparisons = forged.comparisons.map((c) =>
    c.result === 'regression'
      ? { ...c, result: 'accepted', accepted: { by: 'mallory', reason: 'trust me', was: 'regression' } }
      : c,
  );
  const path = join(dir, 'forged.json');
  writeFileSync(path, stableStringify(forged));
  const reportHarness = (env: Record<string, string> = {}, git?: ActionDeps['git']) => {
    const h = harness({
      env: {
        GITHUB_EVENT_NAME: 'workflow_run',
        INPUT_MODE: 'report',
        INPUT_RESULTS: path,
        'INPUT_PR-NUMBER': '7',
        ...env,
      },
      event,
      ...(git ? { git } : {}),
    });
    h.api.pulls.push({ number: 7, state: 'open', headSha: 'f00d', headRepo: FORK });
    return h;
  };

  it('an acceptance planted on a row of another result is dropped, not shown', async () => {
    const planted = outcome('regression').results;
    planted.comparisons = planted.comparisons.map((c) => ({
      ...c,
      accepted: { by: 'maintainer', reason: 'approved', was: 'regression' as const },
    }));
    const other = join(dir, 'planted.json');
    writeFileSync(other, stableStringify(planted));
    const h = reportHarness();
    h.deps.env.INPUT_RESULTS = other;
    await run(h.deps);
    expect(h.outputs.verdict).toBe('regression');
    expect(h.api.comments[0]?.body).not.toMatch(/approved|maintainer/);
  });

  it('judged as measured: a regression, a failing status', async () => {
    const h = reportHarness();
    await run(h.deps);
    expect(h.api.statuses[0]?.[1]).toBe('failure');
    expect(h.outputs.verdict).toBe('regression');
    expect(h.api.comments[0]?.body).not.toContain('trust me');
  });

  it("accepted by a writer's comment on the pull request: passes, the comment says who and why", async () => {
    const h = reportHarness();
    h.api.access = { alice: 'write', mallory: 'read' };
    h.api.comments.push(
      { id: 1, body: '/perf-gate accept search: the new ranking', user: { login: 'alice', type: 'User' } },
      { id: 2, body: '/perf-gate accept *: trust me', user: { login: 'mallory', type: 'User' } },
    );
    await run(h.deps);
    expect(h.outputs.verdict).toBe('pass');
    expect(h.api.statuses[0]?.[1]).toBe('success');
    const posted = h.api.comments.find((c) => c.body.includes(reportMarker('')))?.body ?? '';
    expect(posted).toContain('by alice (was a regression): the new ranking');
    expect(warnings(h)).toContain(
      'perf-gate: /perf-gate accept by mallory not taken: mallory has read access to the repository, not write',
    );
  });

  it("with history-branch: the writer's acceptance recorded on the branch, at the commit the API proved and this job's time", async () => {
    const r = repo();
    try {
      const h = reportHarness({ 'INPUT_HISTORY-BRANCH': 'perf-history', RUNNER_TEMP: r.root }, r.git);
      h.deps.configHistory = () => ({ minShift: 0.02, alpha: 0.05 });
      h.api.access = { alice: 'write' };
      h.api.comments.push({
        id: 1,
        body: '/perf-gate accept search: the new ranking',
        user: { login: 'alice', type: 'User' },
      });
      await run(h.deps);
      expect(h.outputs.verdict).toBe('pass');
      const line = JSON.parse(r.branchFile('perf-history:perf-history.jsonl')) as Record<string, unknown>;
      expect(line).toMatchObject({
        kind: 'acceptance',
        pr: 7,
        commit: 'f00d',
        time: '2026-11-30T12:00:00.000Z',
        rows: [{ phase: 'search/c10', metric: 'p99', by: 'alice', reason: 'the new ranking' }],
      });
      // and its trend page beside it, with this repository's history: keys (not the fork's results file's)
      const page = r.branchFile('perf-history:perf-history.html');
      expect(page.startsWith('<!doctype html>')).toBe(true);
      expect(page).toContain('p ≤ 0.05, 2% or more of the level before');
      expect(h.calls).toContain('info perf-gate: the accepted regressions are recorded on branch perf-history');
    } finally {
      r.done();
    }
  });

  it('with history-branch and a config the job cannot read: the trend page with the default history: keys, said', async () => {
    const r = repo();
    try {
      const h = reportHarness({ 'INPUT_HISTORY-BRANCH': 'perf-history', RUNNER_TEMP: r.root }, r.git);
      h.deps.configHistory = () => {
        throw new Error('perf-gate.yml: not found\nmore');
      };
      h.api.access = { alice: 'write' };
      h.api.comments.push({
        id: 1,
        body: '/perf-gate accept search: on purpose',
        user: { login: 'alice', type: 'User' },
      });
      await run(h.deps);
      expect(r.branchFile('perf-history:perf-history.html')).toContain('p ≤ 0.01, 5% or more of the level before');
      expect(h.calls).toContain(
        'info perf-gate: the trend page uses the default history: settings (perf-gate.yml could not be read: perf-gate.yml: not found)',
      );
    } finally {
      r.done();
    }
  });

  it("with history-branch: the artifact's own acceptance (no writer's) records nothing", async () => {
    const r = repo();
    try {
      const h = reportHarness({ 'INPUT_HISTORY-BRANCH': 'perf-history', RUNNER_TEMP: r.root }, r.git);
      await run(h.deps);
      expect(h.outputs.verdict).toBe('regression');
      // (no branch was made: nothing was pushed)
      expect(() => r.branchFile('perf-history:perf-history.jsonl')).toThrow(/perf-history/);
    } finally {
      r.done();
    }
  });
});

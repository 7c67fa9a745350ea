// The Action's run(deps) with fakes for everything it touches: inputs, event, engine, GitHub, core.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchArtifactHttp } from '../../src/action/artifact.js';
import { type ArtifactStandin, startArtifactStandin } from './artifact-standin.js';
import { stableStringify } from '../../src/results/files.js';
import {
  GitHubError,
  type GitHubApi,
  type IssueComment,
  type LabelAdder,
  type Permission,
  type PullRequestInfo,
} from '../../src/action/github.js';
import { run, type ActionDeps } from '../../src/action/main.js';
import { environmentError, usageError } from '../../src/common/errors.js';
import { reportMarker } from '../../src/report/markdown.js';
import type { RunOptions, RunOutcome } from '../../src/run/contract.js';
import { comparison, phase, resultsFile } from './fixtures.js';
import { DEFAULT_SHIFTS } from '../../src/config-parts/types.js';

const CONFIG = `version: 1
sut: { compose: docker-compose.yml }
scenarios:
  - name: api
    request: { url: http://api/ }
    phases: [{ name: c10, connections: 10, duration: 1s }]
  - name: search
    request: { url: http://api/search }
    phases: [{ name: c10, connections: 10, duration: 1s }]
`;

const REPO = 'acme/shop';
const PR_EVENT = {
  pull_request: {
    number: 7,
    head: { sha: 'h', repo: { full_name: REPO } },
    base: { sha: 'b', repo: { full_name: REPO } },
  },
};

class FakeApi implements GitHubApi {
  comments: IssueComment[] = [];
  writes: string[] = [];
  pulls: PullRequestInfo[] = [];
  statuses: Array<[string, string, string, string, string | undefined]> = [];
  fail: GitHubError | undefined;
  async viewerLogin() {
    return 'github-actions';
  }
  async listComments() {
    if (this.fail) throw this.fail;
    return this.comments.map((c) => ({ ...c }));
  }
  async createComment(_issue: number, body: string) {
    this.writes.push('create');
    const c = { id: this.comments.length + 1, body, user: { login: 'github-actions[bot]' } };
    this.comments.push(c);
    return c;
  }
  async updateComment(id: number, body: string) {
    this.writes.push(`update ${id}`);
    const c = this.comments.find((x) => x.id === id)!;
    c.body = body;
    return c;
  }
  async getPull(n: number): Promise<PullRequestInfo> {
    const p = this.pulls.find((x) => x.number === n);
    if (!p) throw new GitHubError(404, `reading pull request #${n}: 404 Not Found`);
    return p;
  }
  async setStatus(sha: string, state: string, context: string, description: string, url?: string): Promise<void> {
    this.writes.push(`status ${state}`);
    this.statuses.push([sha, state, context, description, url]);
  }
  /** each login's access (none when not listed), and who was asked */
  access: Record<string, Permission> = {};
  asked: string[] = [];
  async permission(login: string): Promise<Permission> {
    this.asked.push(login);
    return this.access[login] ?? 'none';
  }
  /** who added each label that is on (the API's events, read) */
  labelled: Record<string, LabelAdder> = {};
  labelReads = 0;
  async labelledBy(_issue: number, label: string): Promise<LabelAdder | undefined> {
    this.labelReads++;
    return this.labelled[label];
  }
}

function outcome(verdict: 'pass' | 'regression', report = `${reportMarker('')}\nreport ${verdict}`): RunOutcome {
  const comparisons =
    verdict === 'regression'
      ? [
          comparison({ scenario: 'search', metric: 'p99', current: 1300, delta: 0.3, result: 'regression' }),
          comparison({ scenario: 'api', metric: 'rps', result: 'pass' }),
        ]
      : [comparison()];
  return {
    results: resultsFile([{ name: 'api', scenarioHash: 'h', phases: [phase('c10', {})] }], comparisons),
    resultsPath: '/w/perf-gate-results.json',
    reportPath: '/w/perf-gate-report.md',
    htmlPath: '/w/perf-gate-report.html',
    extraPaths: [],
    report,
    verdict,
    regressions: verdict === 'regression' ? 1 : 0,
    baselinesUpdated: [],
  };
}

interface Harness {
  deps: ActionDeps;
  files: Record<string, string>;
  api: FakeApi;
  calls: string[];
  outputs: Record<string, string>;
  annotations: Array<{ kind: string; message: string; props?: unknown }>;
  summary: string[];
  failed: string[];
  runs: RunOptions[];
}

function harness(
  opts: {
    env?: Record<string, string>;
    event?: unknown;
    files?: Record<string, string>;
    perfGate?: (o: RunOptions) => Promise<RunOutcome>;
    /** directories the run may not write */
    readOnly?: string[];
    /** git in the workspace (input history-branch); default: a git that is not there */
    git?: ActionDeps['git'];
    /** the artifact service's HTTP (input upload-report); default: one no test may reach */
    artifactHttp?: ActionDeps['artifactHttp'];
  } = {},
): Harness {
  const api = new FakeApi();
  const h: Omit<Harness, 'deps' | 'files'> = {
    api,
    calls: [],
    outputs: {},
    annotations: [],
    summary: [],
    failed: [],
    runs: [],
  };
  const files: Record<string, string> = {
    'perf-gate.yml': CONFIG,
    '/event.json': JSON.stringify(opts.event ?? PR_EVENT),
    ...opts.files,
  };
  const deps: ActionDeps = {
    env: {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: '/event.json',
      GITHUB_REPOSITORY: REPO,
      GITHUB_STEP_SUMMARY: '/summary.md',
      'INPUT_GITHUB-TOKEN': 'tok',
      ...opts.env,
    },
    io: {
      setOutput: (n, v) => void (h.outputs[n] = v),
      saveState: (n, v) => h.calls.push(`state ${n}=${v}`),
      info: (m) => h.calls.push(`info ${m}`),
      warning: (m, props) => h.annotations.push({ kind: 'warning', message: m, props }),
      error: (m, props) => h.annotations.push({ kind: 'error', message: m, props }),
      setFailed: (m) => h.failed.push(m),
      writeSummary: async (md) => void h.summary.push(md),
      startGroup: (n) => h.calls.push(`group ${n}`),
      endGroup: () => h.calls.push('endgroup'),
    },
    writeFile: (p, text) => void (files[p] = text),
    // the working directory and the baselines directory exist; the files given are files
    paths: {
      exists: (p) => p === '.' || p === 'baselines' || p in files,
      isDirectory: (p) => p === '.' || p === 'baselines',
      writable: (p) => !(opts.readOnly ?? []).includes(p),
    },
    cwd: '/work/repo',
    // the files given, and what a test wrote to its own temporary directory (report mode's artifacts)
    readFile: (p) => {
      const text = files[p] ?? (p.startsWith(tmpdir()) && existsSync(p) ? readFileSync(p, 'utf8') : undefined);
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return text;
    },
    github: (o) => {
      h.calls.push(`github ${o.baseUrl} ${o.repo}`);
      return api;
    },
    perfGate: async (o) => {
      h.runs.push(o);
      return (opts.perfGate ?? (async () => outcome('pass')))(o);
    },
    configAgainst: () => 'baselines',
    configHistory: () => DEFAULT_SHIFTS,
    newRunId: () => 'abcd1234',
    artifactHttp: opts.artifactHttp ?? {
      request: async () => {
        throw new Error('no artifact service in this test');
      },
    },
    readBytes: (p) => {
      const text = files[p];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return new TextEncoder().encode(text);
    },
    sleep: async (ms) => void h.calls.push(`sleep ${ms}`),
    now: () => new Date('2026-11-30T12:00:00Z'),
    mask: (secret) => void h.calls.push(`mask ${secret}`),
    git:
      opts.git ??
      ((args) => {
        h.calls.push(`git ${args.join(' ')}`);
        return { code: 128, stdout: '', stderr: 'fatal: not a git repository' };
      }),
  };
  return Object.assign(h, { deps, files });
}

const warnings = (h: Harness) => h.annotations.filter((a) => a.kind === 'warning').map((a) => a.message);

describe('the Action run(deps)', () => {
  it('an output path the run cannot write fails the step before anything runs, every one named', async () => {
    // a gate: the working directory is written, the baselines only read (a read-only baselines mount is fine)
    const h = harness({
      readOnly: ['.', 'baselines'],
      env: { INPUT_HISTORY: 'perf-gate.yml/h.jsonl', 'INPUT_OUT-FORMAT': 'csv=baselines' },
    });
    await run(h.deps);
    expect(h.runs).toEqual([]);
    expect(h.failed).toEqual(['3 output paths cannot be written']);
    expect(h.calls.filter((c) => c.startsWith('info '))).toEqual([
      'info   the working directory: the directory is not writable',
      'info   input history: perf-gate.yml/h.jsonl: perf-gate.yml is a file, not a directory',
      'info   input out-format: csv=baselines: a directory, not a file',
    ]);
    // an update writes the baselines: there, a read-only baselines directory is refused
    const update = harness({ readOnly: ['baselines'], env: { INPUT_MODE: 'update' } });
    await run(update.deps);
    expect(update.runs).toEqual([]);
    expect(update.failed).toEqual(['input baseline-dir: baselines: the directory is not writable']);
  });

  it('a regression on a pull request: annotations on the config at the scenario line, one comment, the step failed', async () => {
    const h = harness({ perfGate: async () => outcome('regression') });
    await run(h.deps);
    expect(h.runs[0]).toMatchObject({ mode: 'gate', configFile: 'perf-gate.yml', runId: 'abcd1234', outDir: '.' });
    expect(h.calls).toContain('state run_id=abcd1234');
    expect(h.outputs).toEqual({
      verdict: 'regression',
      regressions: '1',
      results: '/w/perf-gate-results.json',
      report: '/w/perf-gate-report.md',
      'html-report': '/w/perf-gate-report.html',
      'report-url': '',
      'baselines-updated': '',
    });
    expect(h.annotations).toEqual([
      {
        kind: 'error',
        message: 'search/c10 p99: changed 30.0% beyond the band +10% and +200µs',
        props: { title: 'perf-gate regression: search/c10 p99', file: 'perf-gate.yml', startLine: 7 },
      },
    ]);
    expect(h.api.writes).toEqual(['create']);
    expect(h.summary).toEqual([`${reportMarker('')}\nreport regression`]);
    expect(h.failed).toEqual(['perf-gate: 1 regression']);
  });

  it('fail-on-regression false: the same run keeps the step green', async () => {
    const h = harness({ env: { 'INPUT_FAIL-ON-REGRESSION': 'false' }, perfGate: async () => outcome('regression') });
    await run(h.deps);
    expect(h.failed).toEqual([]);
    expect(h.outputs.verdict).toBe('regression');
  });

  it('a fork pull request: a warning, no API call at all, the summary still written', async () => {
    const fork = {
      pull_request: { ...PR_EVENT.pull_request, head: { sha: 'h', repo: { full_name: 'mallory/shop' } } },
    };
    const h = harness({ event: fork, perfGate: async () => outcome('regression') });
    await run(h.deps);
    expect(warnings(h)).toEqual([expect.stringContaining('pull request from a fork')]);
    expect(h.calls.some((c) => c.startsWith('github'))).toBe(false);
    expect(h.summary).toHaveLength(1);
    expect(h.failed).toEqual(['perf-gate: 1 regression']);
  });

  it.each<[string, 'pass' | 'regression', boolean, string[]]>([
    ['on-regression, pass, no comment yet: nothing written', 'pass', false, []],
    ['on-regression, pass, an earlier regression comment: refreshed', 'pass', true, ['update 1']],
    ['on-regression, regression: created', 'regression', false, ['create']],
  ])('%s', async (_label, verdict, existing, writes) => {
    const h = harness({ env: { INPUT_COMMENT: 'on-regression' }, perfGate: async () => outcome(verdict) });
    if (existing)
      h.api.comments.push({ id: 1, body: `${reportMarker('')}\nold`, user: { login: 'github-actions[bot]' } });
    await run(h.deps);
    expect(h.api.writes).toEqual(writes);
  });

  it('comment never: nothing written; the comments are only read, for /perf-gate accept', async () => {
    const h = harness({ env: { INPUT_COMMENT: 'never' } });
    await run(h.deps);
    expect(h.api.writes).toEqual([]);
    // without a token nothing is asked at all
    const none = harness({ env: { INPUT_COMMENT: 'never', 'INPUT_GITHUB-TOKEN': '' } });
    await run(none.deps);
    expect(none.calls.some((c) => c.startsWith('github'))).toBe(false);
  });

  it('a read-only token: a warning naming the permission, the run passes', async () => {
    const h = harness();
    h.api.fail = new GitHubError(403, 'listing the comments of #7: 403 Resource not accessible by integration');
    await run(h.deps);
    expect(warnings(h)).toEqual([
      "perf-gate: could not read #7's comments for /perf-gate accept: listing the comments of #7: 403 Resource not accessible by integration",
      expect.stringContaining('lacks pull-requests/issues: write'),
    ]);
    expect(h.failed).toEqual([]);
    expect(h.outputs.verdict).toBe('pass');
  });

  it('the API base URL and repository come from the context (GitHub Enterprise Server)', async () => {
    const h = harness({ env: { GITHUB_API_URL: 'https://ghe.example.test/api/v3/' } });
    await run(h.deps);
    expect(h.calls).toContain(`github https://ghe.example.test/api/v3 ${REPO}`);
  });

  it.each([
    ['not JSON', '{nope', 'not valid JSON'],
    ['an array', '[]', 'not a JSON object'],
  ])('an event file that is %s: a warning, the run goes on without a comment', async (_label, text, why) => {
    const h = harness({ files: { '/event.json': text } });
    await run(h.deps);
    expect(warnings(h)).toEqual([`perf-gate: event file /event.json: ${why}; running without the event's details`]);
    expect(h.outputs.verdict).toBe('pass');
    expect(h.api.writes).toEqual([]);
  });

  it('a pull_request event without a PR number: a warning, no comment, the summary written', async () => {
    const h = harness({ event: { pull_request: { head: {}, base: {} } } });
    await run(h.deps);
    expect(warnings(h)).toEqual([
      'perf-gate: the pull_request event names no pull request number; no comment (the job summary has the report)',
    ]);
    expect(h.summary).toHaveLength(1);
    expect(h.api.writes).toEqual([]);
  });

  it('a missing PR number (a push event): no comment, no warning', async () => {
    const h = harness({ env: { GITHUB_EVENT_NAME: 'push' }, event: { ref: 'refs/heads/main' } });
    await run(h.deps);
    expect(h.runs[0]?.mode).toBe('update');
    expect(h.annotations).toEqual([]);
    expect(h.api.writes).toEqual([]);
  });

  it('update mode: no annotations and no comment, even with rows beyond the old bands', async () => {
    const h = harness({ env: { INPUT_MODE: 'update' }, perfGate: async () => outcome('regression') });
    await run(h.deps);
    expect(h.annotations).toEqual([]);
    expect(h.api.writes).toEqual([]);
  });

  it('update mode with fail-on-shift: a row beyond the old band fails the step, naming it; without it, nothing fails', async () => {
    const asked = harness({
      env: { INPUT_MODE: 'update', 'INPUT_FAIL-ON-SHIFT': 'true' },
      perfGate: async () => outcome('regression'),
    });
    await run(asked.deps);
    expect(asked.failed).toEqual([
      'perf-gate: 1 row beyond the band of the previous baselines (fail-on-shift): search/c10 p99',
    ]);
    expect(asked.outputs['baselines-updated']).toBe('');
    const quiet = harness({
      env: { INPUT_MODE: 'update', 'INPUT_FAIL-ON-SHIFT': 'true' },
      perfGate: async () => outcome('pass'),
    });
    await run(quiet.deps);
    expect(quiet.failed).toEqual([]);
    const off = harness({ env: { INPUT_MODE: 'update' }, perfGate: async () => outcome('regression') });
    await run(off.deps);
    expect(off.failed).toEqual([]);
    // a gate fails on its regressions anyway: fail-on-shift adds nothing to it
    const gate = harness({
      env: { INPUT_MODE: 'gate', 'INPUT_FAIL-ON-SHIFT': 'true' },
      perfGate: async () => outcome('regression'),
    });
    await run(gate.deps);
    expect(gate.failed).toEqual(['perf-gate: 1 regression']);
  });

  it('a bad input: every output set, the reason in the summary, one line failed, nothing run', async () => {
    const h = harness({ env: { INPUT_MODE: 'turbo' } });
    await run(h.deps);
    expect(h.runs).toEqual([]);
    expect(h.outputs).toEqual({
      verdict: 'error',
      regressions: '0',
      results: '',
      report: '',
      'html-report': '',
      'report-url': '',
      'baselines-updated': '',
    });
    expect(h.failed).toEqual(['input mode: "turbo" must be auto, gate, ab, update, sweep or report']);
    expect(h.summary[0]).toContain('input mode');
  });

  it('the SUT never ready: the SUT logs in a log group, the step failed with the one line', async () => {
    const h = harness({
      perfGate: async () => {
        throw environmentError('SUT never ready: http://api/health', ['api | starting', 'api | panic: boom']);
      },
    });
    await run(h.deps);
    expect(h.failed).toEqual(['SUT never ready: http://api/health']);
    expect(h.calls.slice(-4)).toEqual([
      'group perf-gate: details (SUT logs)',
      'info api | starting',
      'info api | panic: boom',
      'endgroup',
    ]);
    expect(h.summary[0]).toContain('panic: boom');
  });

  it('a config with problems: each an error annotation at its file, line and column (issue 21)', async () => {
    const h = harness({
      perfGate: async () => {
        throw usageError('perf-gate.yml: 2 problems in the config', [
          '  perf-gate.yml:4:3: sut.colour: unknown key (keys here: compose, services, build, env, orchestrator, ready, profile)',
          '  perf-gate.yml: gate.confirm: too few',
        ]);
      },
    });
    await run(h.deps);
    expect(h.failed).toEqual(['perf-gate.yml: 2 problems in the config']);
    expect(h.annotations).toEqual([
      {
        kind: 'error',
        message: 'sut.colour: unknown key (keys here: compose, services, build, env, orchestrator, ready, profile)',
        props: { title: 'perf-gate config', file: 'perf-gate.yml', startLine: 4, startColumn: 3 },
      },
    ]);
  });

  it('a bug of ours: "internal error", the stack only in a debug re-run (RUNNER_DEBUG=1)', async () => {
    const boom = async () => {
      throw new TypeError('x is undefined');
    };
    const quiet = harness({ perfGate: boom });
    await run(quiet.deps);
    expect(quiet.failed).toEqual(['perf-gate: internal error: x is undefined']);
    expect(quiet.calls.some((c) => c.includes('TypeError'))).toBe(false);
    const debug = harness({ env: { RUNNER_DEBUG: '1' }, perfGate: boom });
    await run(debug.deps);
    expect(debug.calls.some((c) => c.startsWith('info TypeError: x is undefined'))).toBe(true);
    // and the engine's own debug output is on
    expect(debug.deps.env.PERF_GATE_DEBUG).toBe('1');
  });
});

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

/** A bare origin with main, and a clone of it (the workflow's checkout) that `git` runs in. */
function repo() {
  const root = mkdtempSync(join(tmpdir(), 'perf-gate-action-history-'));
  const sh = (cwd: string, ...args: string[]) => {
    const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, HOME: root } });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  sh(root, 'init', '-q', '--bare', '-b', 'main', 'origin.git');
  sh(root, 'clone', '-q', join(root, 'origin.git'), 'work');
  const work = join(root, 'work');
  sh(work, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'base');
  sh(work, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
  const git: ActionDeps['git'] = (args, opts) => {
    const r = spawnSync('git', [...args], {
      cwd: work,
      encoding: 'utf8',
      input: opts?.input,
      env: { ...process.env, HOME: root, ...opts?.env },
    });
    return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
  };
  const branchFile = (ref: string) => sh(join(root, 'origin.git'), 'show', ref);
  return { root, git, branchFile, done: () => rmSync(root, { recursive: true, force: true }) };
}

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

describe('input history-branch: the history kept on a branch of its own', () => {
  /** an origin (bare) and a clone of it, the workspace; git bound in the clone as the Action binds it */
  it('an update: the run reads the branch’s history from a file of its own, and its entry is pushed to the branch', async () => {
    const r = repo();
    try {
      const update = (o: RunOptions): RunOutcome => {
        const base = outcome('pass');
        return { ...base, results: { ...base.results, mode: 'update', runId: o.runId ?? 'x' } };
      };
      const env = { INPUT_MODE: 'update', 'INPUT_HISTORY-BRANCH': 'perf-history', RUNNER_TEMP: r.root };
      const first = harness({ env, git: r.git, perfGate: async (o) => update(o) });
      await run(first.deps);
      expect(first.failed).toEqual([]);
      // no branch yet: the run got an empty history file, in the runner's temporary directory
      expect(first.runs[0]?.history).toBe(join(r.root, 'perf-gate-history-abcd1234.jsonl'));
      expect(first.files[join(r.root, 'perf-gate-history-abcd1234.jsonl')]).toBe('');
      expect(first.calls).toContain('info perf-gate: no branch perf-history yet: the history starts empty');
      const entries = r.branchFile('perf-history:perf-history.jsonl').split('\n');
      expect(entries).toHaveLength(1);
      expect(JSON.parse(entries[0] as string)).toMatchObject({
        schema: 'perf-gate/history@1',
        commit: 'abc',
        mode: 'update',
      });
      expect(
        first.calls.some((c) => /^info perf-gate: history appended on branch perf-history \([0-9a-f]{12}\)$/.test(c)),
      ).toBe(true);
      // a second refresh reads the first's entry and appends its own
      const second = harness({ env, git: r.git, perfGate: async (o) => update(o) });
      await run(second.deps);
      expect(second.files[join(r.root, 'perf-gate-history-abcd1234.jsonl')]?.split('\n').filter(Boolean)).toHaveLength(
        1,
      );
      expect(r.branchFile('perf-history:perf-history.jsonl').split('\n')).toHaveLength(2);
      // the trend page beside it, of both runs, in the same commit (GitHub Pages serves it from there)
      const page = r.branchFile('perf-history:perf-history.html');
      expect(page.startsWith('<!doctype html>')).toBe(true);
      expect(page).toContain('<svg role="img"');
      // (the last commit wrote both files: its diff names them)
      expect(r.branchFile('perf-history')).toMatch(/b\/perf-history\.html[^]*b\/perf-history\.jsonl/);
      // history-page: false writes none
      const noPage = harness({
        env: { ...env, 'INPUT_HISTORY-PAGE': 'false' },
        git: r.git,
        perfGate: async (o) => update(o),
      });
      await run(noPage.deps);
      expect(r.branchFile('perf-history')).not.toContain('b/perf-history.html');
    } finally {
      r.done();
    }
  });

  it('a gate run with regressions accepted on purpose records them on the branch; a job that may not push warns', async () => {
    const r = repo();
    try {
      const accepted = (): RunOutcome => {
        const base = outcome('pass');
        const row = comparison({
          scenario: 'search',
          metric: 'p99',
          delta: 0.3,
          result: 'accepted',
          accepted: { by: 'alice', reason: 'a bigger index, on purpose', was: 'regression' },
        });
        return { ...base, results: { ...base.results, comparisons: [row] } };
      };
      const env = { INPUT_MODE: 'gate', 'INPUT_HISTORY-BRANCH': 'perf-history', RUNNER_TEMP: r.root };
      const gate = harness({ env, git: r.git, perfGate: async () => accepted() });
      await run(gate.deps);
      expect(gate.failed).toEqual([]);
      const line = JSON.parse(r.branchFile('perf-history:perf-history.jsonl')) as Record<string, unknown>;
      expect(line).toMatchObject({
        kind: 'acceptance',
        pr: 7,
        rows: [{ phase: 'search/c10', metric: 'p99', by: 'alice', reason: 'a bigger index, on purpose' }],
      });
      expect(gate.calls).toContain('info perf-gate: the accepted regressions are recorded on branch perf-history');
      // a pull request's job with contents: read: the push is refused, a warning, the check as it was
      const denied: ActionDeps['git'] = (args, opts) =>
        args[0] === 'push' ? { code: 128, stdout: '', stderr: 'remote: Permission denied' } : r.git(args, opts);
      const readOnly = harness({ env, git: denied, perfGate: async () => accepted() });
      await run(readOnly.deps);
      expect(readOnly.failed).toEqual([]);
      expect(
        warnings(readOnly).some((w) => /accepted regressions could not be recorded .*contents: write/.test(w)),
      ).toBe(true);
    } finally {
      r.done();
    }
  });

  it('an update that fails on its shifts (fail-on-shift) appends nothing: nothing is recorded until someone decides', async () => {
    const r = repo();
    try {
      const shifted = (): RunOutcome => {
        const base = outcome('regression');
        return { ...base, results: { ...base.results, mode: 'update' } };
      };
      const env = {
        INPUT_MODE: 'update',
        'INPUT_FAIL-ON-SHIFT': 'true',
        'INPUT_HISTORY-BRANCH': 'perf-history',
        RUNNER_TEMP: r.root,
      };
      const h = harness({ env, git: r.git, perfGate: async () => shifted() });
      await run(h.deps);
      expect(h.failed).toHaveLength(1);
      expect(h.calls).toContain(
        'info perf-gate: history not appended on branch perf-history: the refresh fails on its shifts',
      );
      expect(() => r.branchFile('perf-history:perf-history.jsonl')).toThrow();
    } finally {
      r.done();
    }
  });

  it('a gate run reads the branch’s history and never pushes; a branch name git would take as an option is refused', async () => {
    const r = repo();
    try {
      const env = { INPUT_MODE: 'gate', 'INPUT_HISTORY-BRANCH': 'perf-history', RUNNER_TEMP: r.root };
      let pushes = 0;
      const counted: ActionDeps['git'] = (args, opts) => {
        if (args[0] === 'push') pushes++;
        return r.git(args, opts);
      };
      const gate = harness({ env, git: counted });
      await run(gate.deps);
      expect(gate.runs[0]?.history).toBe(join(r.root, 'perf-gate-history-abcd1234.jsonl'));
      expect(pushes).toBe(0);
      const bad = harness({ env: { ...env, 'INPUT_HISTORY-BRANCH': '--upload-pack=x' }, git: counted });
      await run(bad.deps);
      expect(bad.runs).toEqual([]);
      expect(bad.failed[0]).toMatch(/input history-branch: "--upload-pack=x" must be a branch name/);
    } finally {
      r.done();
    }
  });
});

describe("input upload-report: the run's page uploaded and linked", () => {
  const runFilesThere = {
    '/w/perf-gate-results.json': '{"verdict":"regression"}',
    '/w/perf-gate-report.md': 'report',
    '/w/perf-gate-report.html': '<p>page</p>',
  };
  let standin: ArtifactStandin;
  beforeEach(async () => {
    standin = await startArtifactStandin();
  });
  afterEach(async () => {
    await standin.close();
  });
  const serviceEnv = () => ({
    ACTIONS_RUNTIME_TOKEN: standin.token,
    ACTIONS_RESULTS_URL: standin.url,
    GITHUB_RUN_ID: '901',
    GITHUB_JOB: 'perf',
  });
  const LINK = `📄 [The run's page](https://github.com/${REPO}/actions/runs/901/artifacts/4001)`;

  it('by default: the artifact uploaded, the comment and the summary link it, output report-url; the verdict as it was', async () => {
    const h = harness({
      env: serviceEnv(),
      files: runFilesThere,
      perfGate: async () => outcome('regression'),
      artifactHttp: fetchArtifactHttp(10_000),
    });
    await run(h.deps);
    expect(standin.artifacts.map((a) => a.name)).toEqual(['perf-gate-perf']);
    // the signed URL's signature masked in the log from then on
    expect(h.calls).toContain('mask standin');
    expect(h.outputs['report-url']).toBe(`https://github.com/${REPO}/actions/runs/901/artifacts/4001`);
    expect(h.api.comments[0]?.body).toContain(`\n\n${LINK}`);
    expect(h.api.comments[0]?.body.startsWith(reportMarker(''))).toBe(true);
    expect(h.summary[0]).toContain(LINK);
    // the report file as well (a refresh pull request's body-path)
    expect(h.files['/w/perf-gate-report.md']).toContain(`\n\n${LINK}`);
    expect(h.failed).toEqual(['perf-gate: 1 regression']);
  });

  it("upload-report: 'false': nothing uploaded, no link", async () => {
    const h = harness({
      env: { ...serviceEnv(), 'INPUT_UPLOAD-REPORT': 'false' },
      files: runFilesThere,
      artifactHttp: fetchArtifactHttp(10_000),
    });
    await run(h.deps);
    expect(standin.requests).toEqual([]);
    expect(h.outputs['report-url']).toBe('');
    expect(h.api.comments[0]?.body).not.toContain("The run's page");
    expect(h.files['/w/perf-gate-report.md']).toBe('report');
  });

  it('a job without the artifact service: one info line, no link, the run as it was', async () => {
    const h = harness({ files: runFilesThere });
    await run(h.deps);
    expect(h.calls).toContain(
      "info perf-gate: the run's page is not uploaded: the job has no artifact service (ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL unset)",
    );
    expect(h.outputs['report-url']).toBe('');
    expect(warnings(h)).toEqual([]);
  });

  it('a failing service: tried again, then one warning; the comment is posted without the link and the gate still fails', async () => {
    standin.failNext('CreateArtifact', 502, 3);
    const h = harness({
      env: serviceEnv(),
      files: runFilesThere,
      perfGate: async () => outcome('regression'),
      artifactHttp: fetchArtifactHttp(10_000),
    });
    await run(h.deps);
    expect(h.calls.filter((c) => c.startsWith('sleep'))).toEqual(['sleep 1000', 'sleep 3000']);
    expect(warnings(h)).toEqual([
      "perf-gate: the run's page could not be uploaded (CreateArtifact: 502 the stand-in was told to fail); upload perf-gate-report.html with actions/upload-artifact instead",
    ]);
    expect(h.api.comments[0]?.body).not.toContain("The run's page");
    expect(h.failed).toEqual(['perf-gate: 1 regression']);
  });
});

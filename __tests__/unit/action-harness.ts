// What the Action's tests share: run(deps) with fakes for everything it touches (inputs, event, engine,
// GitHub, core), a config and a pull request's event, and what a run left behind.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GitHubError,
  type GitHubApi,
  type IssueComment,
  type LabelAdder,
  type Permission,
  type PullRequestInfo,
} from '../../src/action/github.js';
import { type ActionDeps } from '../../src/action/main.js';
import { reportMarker } from '../../src/report/markdown.js';
import type { RunOptions, RunOutcome } from '../../src/run/contract.js';
import { comparison, phase, resultsFile } from './fixtures.js';
import { DEFAULT_SHIFTS } from '../../src/config-parts/types.js';

export const CONFIG = `version: 1
sut: { compose: docker-compose.yml }
scenarios:
  - name: api
    request: { url: http://api/ }
    phases: [{ name: c10, connections: 10, duration: 1s }]
  - name: search
    request: { url: http://api/search }
    phases: [{ name: c10, connections: 10, duration: 1s }]
`;

export const REPO = 'acme/shop';

export const PR_EVENT = {
  pull_request: {
    number: 7,
    head: { sha: 'h', repo: { full_name: REPO } },
    base: { sha: 'b', repo: { full_name: REPO } },
  },
};

export class FakeApi implements GitHubApi {
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

export function outcome(verdict: 'pass' | 'regression', report = `${reportMarker('')}\nreport ${verdict}`): RunOutcome {
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

export interface Harness {
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

export function harness(
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

export const warnings = (h: Harness) => h.annotations.filter((a) => a.kind === 'warning').map((a) => a.message);

/** A bare origin with main, and a clone of it (the workflow's checkout) that `git` runs in. */
export function repo() {
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

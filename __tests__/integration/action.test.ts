// The Action as the Actions runner runs it: node on runs.main with INPUT_* for every declared input,
// the event file, GITHUB_OUTPUT / GITHUB_STEP_SUMMARY / GITHUB_STATE, then runs.post with STATE_*;
// a compose fixture and a stand-in for the GitHub REST API on 127.0.0.1.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dockerAvailable, leftovers, ROOT, tempDir } from './helpers.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';
import { resultsFile } from '../unit/fixtures.js';
import { startArtifactStandin } from '../unit/artifact-standin.js';

const hasDocker = dockerAvailable();
const REPO = 'acme/shop';
const PR = 7;

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
}

/** `name<<DELIM\nvalue\nDELIM` blocks, as @actions/core writes them. */
function parseFileCommands(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) out[m[1] as string] = m[3] as string;
  return out;
}

function actionInputs(overrides: Record<string, string>): Record<string, string> {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  const env: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    // the runner evaluates ${{ github.token }}; here it is the fake API's token
    const value = overrides[name] ?? (spec.default?.includes('${{') ? 'fake-token' : (spec.default ?? ''));
    env[`INPUT_${name.toUpperCase()}`] = value;
  }
  return env;
}

function runEntry(entry: 'main' | 'post', env: Record<string, string>, cwd: string): Promise<ActionRun> {
  return startEntry(entry, env, cwd).done;
}

/** Starts an entry of the Action; `output()` is its stdout and stderr so far. */
function startEntry(
  entry: 'main' | 'post',
  env: Record<string, string>,
  cwd: string,
): { child: ChildProcess; done: Promise<ActionRun>; output: () => string } {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: Record<string, string> };
  const script = join(ROOT, action.runs[entry] as string);
  const files = {
    output: join(cwd, `output-${Date.now()}`),
    summary: join(cwd, 'summary.md'),
    state: join(cwd, `state-${Date.now()}`),
  };
  for (const f of Object.values(files)) writeFileSync(f, '', { flag: 'a' });
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, [script], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: ROOT,
      GITHUB_REPOSITORY: REPO,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_STATE: files.state,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<ActionRun>((resolve) => {
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        outputs: parseFileCommands(readFileSync(files.output, 'utf8')),
        state: parseFileCommands(readFileSync(files.state, 'utf8')),
        summary: readFileSync(files.summary, 'utf8'),
      }),
    );
  });
  return { child, done, output: () => stdout + stderr };
}

/** Resolves once `text` shows in the entry's output (polled; bounded by the test's timeout). */
async function outputContains(run: { output: () => string; done: Promise<unknown> }, text: string): Promise<void> {
  let finished = false;
  void run.done.then(() => (finished = true));
  while (!run.output().includes(text)) {
    if (finished) throw new Error(`exited before printing "${text}":\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(hasDocker)('the Action, end to end', () => {
  const work = tempDir('perf-gate-action-');
  const baselines = join(work, 'baselines');
  const pushEvent = join(work, 'push.json');
  const prEvent = join(work, 'pr.json');
  let gh: FakeGitHub;

  const mainEnv = (
    event: 'push' | 'pull_request',
    inputs: Record<string, string> = {},
    env: Record<string, string> = {},
  ) => ({
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: event === 'push' ? pushEvent : prEvent,
    GITHUB_API_URL: gh.url,
    ...actionInputs({
      config: join(ROOT, 'fixtures/tests/gate/perf-gate.yml'),
      'baseline-dir': baselines,
      'runner-image': 'perf-gate/node:local',
      ...inputs,
    }),
    ...env,
  });
  const main = (
    event: 'push' | 'pull_request',
    inputs: Record<string, string> = {},
    env: Record<string, string> = {},
  ) => runEntry('main', mainEnv(event, inputs, env), work);

  beforeAll(async () => {
    gh = await startFakeGitHub(REPO, PR);
    // more than a page of other people's comments, and another bot comment without our marker
    for (let i = 0; i < 130; i++)
      gh.comments.push({ id: i + 1, body: `comment ${i}`, user: { login: 'alice', type: 'User' } });
    gh.comments.push({ id: 500, body: 'some other bot', user: { login: 'github-actions[bot]', type: 'Bot' } });
    writeFileSync(pushEvent, JSON.stringify({ ref: 'refs/heads/main' }));
    writeFileSync(
      prEvent,
      JSON.stringify({
        number: PR,
        pull_request: { number: PR, head: { repo: { full_name: REPO } }, base: { repo: { full_name: REPO } } },
      }),
    );
  });

  afterAll(async () => {
    await gh?.close();
  });

  const ours = () => gh.comments.filter((c) => c.body.includes('<!-- perf-gate-report id=default -->'));

  it('push → update: writes the baseline and sets baselines-updated, no comment', async () => {
    const r = await main('push');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs['baselines-updated']).toBe(join(baselines, 'api.json'));
    expect(JSON.parse(readFileSync(join(baselines, 'api.json'), 'utf8')).schema).toBe('perf-gate/baseline@1');
    // the run that wrote the baselines says so; it is not "no baseline yet"
    expect(r.outputs.verdict).toBe('pass');
    expect(readFileSync(r.outputs.report as string, 'utf8')).toContain('baselines written for 1 scenario');
    expect(gh.writes).toEqual([]);
    expect(r.state.run_id).toMatch(/^[0-9a-f]{8}$/);
    expect(leftovers(r.state.run_id as string)).toEqual([]);
  }, 300_000);

  it("pull_request, unchanged SUT: pass, one comment created, summary written; the run's page uploaded and linked", async () => {
    // the artifact service as the runner gives it to the step (a stand-in on 127.0.0.1)
    const artifacts = await startArtifactStandin();
    try {
      const r = await main(
        'pull_request',
        {},
        {
          ACTIONS_RUNTIME_TOKEN: artifacts.token,
          ACTIONS_RESULTS_URL: artifacts.url,
          GITHUB_RUN_ID: '901',
          GITHUB_JOB: 'perf',
        },
      );
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.outputs.verdict).toBe('pass');
      expect(r.outputs.regressions).toBe('0');
      expect(r.summary).toContain('perf-gate: no regression');
      expect(ours()).toHaveLength(1);
      expect(gh.writes).toEqual([{ method: 'POST', path: `/repos/${REPO}/issues/${PR}/comments` }]);
      // the bundled Action uploaded the page, the results and the report, and the comment links it
      const url = `https://github.com/${REPO}/actions/runs/901/artifacts/4001`;
      expect(r.outputs['report-url']).toBe(url);
      expect(ours()[0]?.body).toContain(`📄 [The run's page](${url})`);
      expect(artifacts.artifacts.map((a) => a.name)).toEqual(['perf-gate-perf']);
      const dir = tempDir('perf-gate-artifact-');
      const zip = join(dir, 'a.zip');
      writeFileSync(zip, artifacts.artifacts[0]?.bytes ?? Buffer.alloc(0));
      const listed = spawnSync(
        'python3',
        [
          '-c',
          'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.read("perf-gate-report.html").decode()); print("\\n".join(z.namelist()))',
          zip,
        ],
        { encoding: 'utf8' },
      );
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/perf-gate-results\.json\nperf-gate-report\.md\s*$/);
      // the page draws each trial's latency over time, from the real runner's timeline
      expect(listed.stdout).toContain('aria-label="latency over time, this run"');
    } finally {
      await artifacts.close();
    }
  }, 300_000);

  it('pull_request, +60% latency (5 ms → 9 ms service delay, about +65% p50): regression fails the step and updates the same comment in place', async () => {
    const before = ours()[0]?.id;
    const r = await main('pull_request', { junit: 'reports/perf-gate.xml' }, { GATE_DELAY: '9ms' });
    expect(r.code).toBe(1);
    expect(r.outputs.verdict).toBe('regression');
    expect(Number(r.outputs.regressions)).toBeGreaterThan(0);
    // the junit input: relative to the workspace, one failure per regression row
    const junit = readFileSync(join(work, 'reports/perf-gate.xml'), 'utf8');
    expect(junit.match(/<failure /g)?.length).toBe(Number(r.outputs.regressions));
    expect(junit).toMatch(
      /<testcase name="c2 p50" classname="perf-gate.api.c2" time="[\d.]+">\s*<failure message="p50: /,
    );
    // the annotation points at the config file and the scenario's `name:` line
    expect(r.stdout, r.stdout).toMatch(
      /::error title=perf-gate regression%3A api\/c2 p50,file=fixtures\/tests\/gate\/perf-gate\.yml,line=17::api\/c2 p50: changed \d/,
    );
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.id).toBe(before);
    expect(ours()[0]?.body).toContain('perf-gate: ');
    expect(ours()[0]?.body).toMatch(/regression/);
    expect(gh.writes.at(-1)).toEqual({ method: 'PATCH', path: `/repos/${REPO}/issues/comments/${before}` });
    // other people's comments and the other bot comment are untouched
    expect(gh.comments.find((c) => c.id === 500)?.body).toBe('some other bot');
    expect(gh.comments).toHaveLength(132);
  }, 300_000);

  it('pull_request, 5% HTTP 500: regression naming 500', async () => {
    const r = await main('pull_request', {}, { GATE_ERROR_RATE: '0.05' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.outputs.verdict).toBe('regression');
    expect(ours()[0]?.body).toContain('new error class HTTP 500');
    expect(r.summary).toContain('HTTP 500');
  }, 300_000);

  it('read-only token: a warning and the full job summary, not a failure', async () => {
    gh.readOnly = true;
    // whatever the verdict on this busy machine, the comment failure alone must not fail the step
    const r = await main('pull_request', { 'fail-on-regression': 'false' });
    gh.readOnly = false;
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/::warning::perf-gate: could not write the PR comment \(403/);
    expect(r.summary).toMatch(/### (✅|❌) perf-gate: /);
    expect(r.summary).toContain('api/c2');
    expect(r.summary).toContain('<details>');
  }, 300_000);

  it('fail-on-regression: false keeps the step green; post cleans up by run id', async () => {
    const r = await main('pull_request', { 'fail-on-regression': 'false', comment: 'never' }, { GATE_DELAY: '9ms' });
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('regression');
    const post = await runEntry('post', { STATE_run_id: r.state.run_id as string }, work);
    expect(post.code).toBe(0);
    expect(post.stdout).toContain(`perf-gate post: run ${r.state.run_id} cleaned up`);
    expect(leftovers(r.state.run_id as string)).toEqual([]);
  }, 300_000);

  it('a fork PR end to end: the PR run comments nothing; the trusted workflow_run job in report mode checks the PR number, updates the sticky comment and sets a failing status', async () => {
    const sha = 'f00dfacef00dfacef00dfacef00dfacef00dface';
    const forkEvent = join(work, 'fork.json');
    writeFileSync(
      forkEvent,
      JSON.stringify({
        number: PR,
        pull_request: {
          number: PR,
          head: { sha, repo: { full_name: 'mallory/shop' } },
          base: { repo: { full_name: REPO } },
        },
      }),
    );
    const writes = gh.writes.length;
    const pr = await runEntry(
      'main',
      { ...mainEnv('pull_request', {}, { GATE_DELAY: '9ms' }), GITHUB_EVENT_PATH: forkEvent },
      work,
    );
    expect(pr.code, pr.stdout + pr.stderr).toBe(1);
    expect(pr.stdout).toContain('::warning::perf-gate: pull request from a fork');
    expect(gh.writes.length).toBe(writes);
    expect(leftovers(pr.state.run_id as string)).toEqual([]);

    // the trusted job: another event, the uploaded results file, the PR number from the artifact
    gh.pulls.push({ number: PR, state: 'open', head: { sha, ref: 'faster', repo: { full_name: 'mallory/shop' } } });
    const runEvent = join(work, 'workflow_run.json');
    writeFileSync(
      runEvent,
      JSON.stringify({
        workflow_run: {
          id: 4242,
          event: 'pull_request',
          head_sha: sha,
          head_repository: { full_name: 'mallory/shop' },
          pull_requests: [],
          html_url: `https://github.test/${REPO}/actions/runs/4242`,
        },
      }),
    );
    const report = await runEntry(
      'main',
      {
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_EVENT_PATH: runEvent,
        GITHUB_API_URL: gh.url,
        ...actionInputs({ mode: 'report', results: pr.outputs.results as string, 'pr-number': String(PR) }),
      },
      work,
    );
    expect(report.code, report.stdout + report.stderr).toBe(1);
    expect(report.outputs.verdict).toBe('regression');
    expect(report.outputs.regressions).toBe(pr.outputs.regressions);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toContain(`perf-gate: ${pr.outputs.regressions} regression`);
    expect(gh.statuses).toEqual([
      {
        sha,
        state: 'failure',
        context: 'perf-gate',
        description: `${pr.outputs.regressions} regression${pr.outputs.regressions === '1' ? '' : 's'}`,
        target_url: `https://github.test/${REPO}/actions/runs/4242`,
      },
    ]);
    expect(report.summary).toContain('perf-gate: ');
    // a number that is not the run's PR: refused with a warning, nothing commented
    gh.pulls[0]!.head.sha = 'beefbeef';
    const lied = await runEntry(
      'main',
      {
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_EVENT_PATH: runEvent,
        GITHUB_API_URL: gh.url,
        ...actionInputs({
          mode: 'report',
          results: pr.outputs.results as string,
          'pr-number': String(PR),
          status: 'false',
        }),
      },
      work,
    );
    expect(lied.stdout).toContain(`does not belong to the triggering run`);
    expect(gh.statuses).toHaveLength(1);
  }, 300_000);

  it('mode ab against base-ref HEAD: both sides in one run, the sticky comment says head vs base', async () => {
    // the fixture is committed, so the base tree (HEAD) has it; its service is a prebuilt image
    const r = await main('pull_request', {
      mode: 'ab',
      'base-ref': 'HEAD',
      config: join(ROOT, 'fixtures/tests/ab/perf-gate.yml'),
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.verdict).toBe('pass');
    expect(r.stdout).toContain('A/B, head against base');
    const body = ours()[0]?.body ?? '';
    expect(body).toMatch(
      /interleaved pairs per phase, more where confirmation ran \(each pair's order drawn at random, seed \d+\)/,
    );
    expect(body).toMatch(/\| scenario +\| phase +\| metric +\| base +\| head +\|/);
    expect(ours()).toHaveLength(1);
    expect(leftovers(r.state.run_id as string)).toEqual([]);
  }, 300_000);

  it('cancelled as GitHub cancels a job (SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s after that), then post: nothing left, built images included', async () => {
    const run = startEntry('main', mainEnv('pull_request'), work);
    await outputContains(run, 'measure started');
    run.child.kill('SIGINT');
    const term = setTimeout(() => run.child.kill('SIGTERM'), 7500);
    const kill = setTimeout(() => run.child.kill('SIGKILL'), 10_000);
    const r = await run.done;
    clearTimeout(term);
    clearTimeout(kill);
    // the main step tore down on SIGINT and failed the step, within GitHub's 7.5 s
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const runId = r.state.run_id as string;
    expect(leftovers(runId)).toEqual([]);
    const post = await runEntry('post', { STATE_run_id: runId }, work);
    expect(post.code).toBe(0);
    expect(leftovers(runId)).toEqual([]);
  }, 300_000);

  it('SIGKILL mid-run (no teardown at all), then the post step: nothing left, built images included', async () => {
    const run = startEntry('main', mainEnv('pull_request'), work);
    await outputContains(run, 'measure started');
    run.child.kill('SIGKILL');
    const r = await run.done;
    const runId = r.state.run_id as string;
    expect(leftovers(runId).length).toBeGreaterThan(0);
    const post = await runEntry('post', { STATE_run_id: runId }, work);
    expect(post.code).toBe(0);
    expect(post.stdout).toMatch(/perf-gate post: removed image /);
    expect(leftovers(runId)).toEqual([]);
  }, 300_000);

  it('bad inputs: one line and verdict error', async () => {
    const r = await main('pull_request', { comment: 'sometimes' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::input comment: "sometimes" must be always, on-regression or never');
    expect(r.outputs.verdict).toBe('error');
    expect(r.outputs.regressions).toBe('0');
    expect(r.summary).toContain('### ⚠️ perf-gate: the run did not finish');
    expect(r.summary).toContain('input comment: "sometimes" must be always, on-regression or never');
  });
});

// report mode needs no engine: these run everywhere
describe('the Action in report mode, faults', () => {
  const work = tempDir('perf-gate-report-');
  const results = join(work, 'perf-gate-results.json');
  const runEvent = join(work, 'workflow_run.json');
  beforeAll(() => {
    writeFileSync(results, JSON.stringify(resultsFile([], [])));
    writeFileSync(
      runEvent,
      JSON.stringify({ workflow_run: { id: 1, event: 'pull_request', head_sha: 'f00d', pull_requests: [] } }),
    );
  });

  it('a proxy that refuses: retried, then a warning naming the proxy; the step does not fail on it', async () => {
    // a name that cannot resolve: only the proxy (a closed port on 127.0.0.1) is ever contacted
    const srv = createServer();
    await new Promise<void>((done) => srv.listen(0, '127.0.0.1', done));
    const { port } = srv.address() as AddressInfo;
    await new Promise((done) => srv.close(done));
    const r = await runEntry(
      'main',
      {
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_EVENT_PATH: runEvent,
        GITHUB_API_URL: 'https://api.github.invalid',
        HTTPS_PROXY: `http://user:secret@127.0.0.1:${port}`,
        ...actionInputs({ mode: 'report', results, 'pr-number': '7', status: 'false' }),
      },
      work,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /::warning::perf-gate: could not read pull request #7: .*ECONNREFUSED.* \(through the proxy http:\/\/127\.0\.0\.1:\d+\)/,
    );
    expect(r.stdout).not.toContain('secret');
    expect(r.outputs.verdict).toBe('pass');
  }, 120_000);

  it('a malformed event file: a warning, then a usage error naming the file (not a crash on import)', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, '{"workflow_run":');
    const r = await runEntry(
      'main',
      {
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_EVENT_PATH: bad,
        ...actionInputs({ mode: 'report', results }),
      },
      work,
    );
    expect(r.stdout).toContain(`::warning::perf-gate: event file ${bad}: not valid JSON`);
    expect(r.code).toBe(1);
    expect(r.outputs.verdict).toBe('error');
    expect(r.stdout).toContain(
      `::error::mode report needs the workflow_run event's payload, and event file ${bad}: not valid JSON`,
    );
    expect(r.summary).toContain('the run did not finish');
  });
});

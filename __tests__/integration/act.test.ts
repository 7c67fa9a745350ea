// The Action in a real Actions runtime: nektos/act (pinned in scripts/provision-test-tools.sh) runs
// the repository's own dogfood workflow (.github/workflows/dogfood.yml: `uses: ./` on the quickstart)
// on this machine (`-P ubuntu-latest=-self-hosted`), with no network: the GitHub API is a stand-in on
// 127.0.0.1, and the two Actions the workflow takes from github.com are replaced by the local
// stand-ins of fixtures/act/ (act skips actions/checkout and copies the checkout itself). act loads
// action.yml the way the runner does, so a manifest the runner refuses fails here. No registry
// answers here, so the workflow's first step builds the quickstart's Node image from this host's
// Node (scripts/quickstart-image.sh), as on any offline runner.
//
// Three runs of one copy of the checkout: the weekly refresh (update mode; its baseline goes to the
// create-pull-request stand-in and is committed to the copy, as merging that pull request would), a
// pull request that changes nothing (pass, the sticky comment created), and a pull request that slows
// the quickstart's service from 1 ms to 6 ms (regression: the job fails, annotations on the
// scenario's line, the same comment updated in place). After each: the post step cleaned up the run.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolPath } from '../unit/fixtures.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';
import { dockerAvailable, leftovers, ROOT, tempDir } from './helpers.js';

const hasDocker = dockerAvailable();
const ACT = toolPath('act');
const REPO = 'acme/perf-gate';
const PR = 7;
const CONFIG = 'fixtures/quickstart/perf-gate.yml';
const MARKER = '<!-- perf-gate-report id=default -->';

if (process.env.CI && !ACT) throw new Error('CI is set but act is missing: run bash scripts/provision-test-tools.sh');

interface ActLine {
  msg?: string;
  step?: string;
  stage?: string;
  stepResult?: string;
  jobResult?: string;
  command?: string;
  name?: string;
  arg?: string;
  kvPairs?: Record<string, string>;
  content?: string;
}

interface ActRun {
  code: number | null;
  lines: ActLine[];
  /** the whole log, for assertion messages */
  log: string;
  jobResult: string | undefined;
  /** `<stage> <step>` → success | failure | skipped */
  steps: Map<string, string>;
  /** the outputs perf-gate's step (`./`) set */
  outputs: Record<string, string>;
  annotations: Array<{ command: string; props: Record<string, string>; message: string }>;
  /** run ids perf-gate printed when it started, and the ones its post step cleaned up */
  started: string[];
  cleaned: string[];
}

/** The checkout as a user's clone has it: tracked and untracked-but-not-ignored files, one commit. */
function copyCheckout(dest: string): void {
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.split('\0');
  for (const f of files.filter(Boolean)) {
    const from = join(ROOT, f);
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    mkdirSync(dirname(join(dest, f)), { recursive: true });
    copyFileSync(from, join(dest, f));
    chmodSync(join(dest, f), statSync(from).mode);
  }
  commit(dest, 'the pull request base');
}

function commit(dir: string, message: string): void {
  const git = (args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  if (!existsSync(join(dir, '.git'))) git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git(['-c', 'user.name=perf-gate test', '-c', 'user.email=test@perf-gate.invalid', 'commit', '-q', '-m', message]);
}

function parseRun(code: number | null, text: string): ActRun {
  const lines: ActLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(raw) as ActLine);
    } catch {
      // not one of act's JSON lines
    }
  }
  const steps = new Map<string, string>();
  const outputs: Record<string, string> = {};
  const annotations: ActRun['annotations'] = [];
  const started: string[] = [];
  const cleaned: string[] = [];
  for (const l of lines) {
    if (l.stepResult && l.step) steps.set(`${l.stage ?? ''} ${l.step}`.trim(), l.stepResult);
    if (l.command === 'set-output' && l.step === './' && l.name) outputs[l.name] = l.arg ?? '';
    if (l.command === 'error' || l.command === 'warning' || l.command === 'notice')
      annotations.push({ command: l.command, props: l.kvPairs ?? {}, message: l.arg ?? '' });
    const start = /\[perf-gate\] run ([0-9a-f]{8}):/.exec(l.msg ?? '');
    if (start?.[1]) started.push(start[1]);
    const post = /perf-gate post: run ([0-9a-f]{8}) cleaned up/.exec(l.msg ?? '');
    if (post?.[1]) cleaned.push(post[1]);
  }
  const jobResult = lines.find((l) => l.jobResult)?.jobResult;
  return { code, lines, log: text, jobResult, steps, outputs, annotations, started, cleaned };
}

describe.runIf(hasDocker && ACT)('the Action in nektos/act, from the dogfood workflow', () => {
  const work = tempDir('perf-gate-act-');
  const checkout = join(work, 'checkout');
  const artifacts = join(work, 'artifacts');
  const actCache = join(work, 'act-cache');
  const events = join(work, 'events');
  let gh: FakeGitHub;

  function act(event: 'schedule' | 'pull_request', job: 'refresh' | 'perf'): Promise<ActRun> {
    const eventFile = join(events, `${event}.json`);
    // the stand-in sudo only where the machine has none (a GitHub-hosted runner has passwordless sudo)
    const hasSudo = spawnSync('sh', ['-c', 'command -v sudo'], { stdio: 'ignore' }).status === 0;
    const path = hasSudo ? process.env.PATH : `${join(ROOT, 'fixtures/act/bin')}:${process.env.PATH ?? ''}`;
    const stub = (name: string) => join(ROOT, 'fixtures/act', name);
    const args = [
      event,
      '-W',
      '.github/workflows/dogfood.yml',
      '-j',
      job,
      '-e',
      eventFile,
      '-P',
      'ubuntu-latest=-self-hosted',
      '--json',
      '--action-cache-path',
      actCache,
      '--no-cache-server',
      '--local-repository',
      `actions/upload-artifact@v4=${stub('upload-artifact')}`,
      '--local-repository',
      `peter-evans/create-pull-request@v7=${stub('create-pull-request')}`,
      '--env',
      `GITHUB_API_URL=${gh.url}`,
      '--env',
      `GITHUB_SERVER_URL=${gh.url}`,
      '--env',
      `GITHUB_REPOSITORY=${REPO}`,
      '--env',
      `PERF_GATE_ACT_ARTIFACTS=${artifacts}`,
      '-s',
      'GITHUB_TOKEN=fake-token',
    ];
    // only what the job needs from this process: act passes its own environment on to the steps
    const env: NodeJS.ProcessEnv = { PATH: path, HOME: process.env.HOME };
    for (const k of ['DOCKER_HOST', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k];
    return new Promise((resolve) => {
      const child = spawn(ACT as string, args, { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (text += d));
      child.on('close', (code) => resolve(parseRun(code, text)));
    });
  }

  const ours = () => gh.comments.filter((c) => c.body.includes(MARKER));
  const summaryOf = (r: ActRun) => r.lines.find((l) => l.command === 'summary')?.content ?? '';
  /** perf-gate's post step ran after its main step, cleaned up the run it started, and left nothing */
  const expectCleanedUp = (r: ActRun) => {
    expect(r.steps.get('Post ./'), r.log).toBe('success');
    expect(r.started).toHaveLength(1);
    expect(r.cleaned).toEqual(r.started);
    expect(leftovers(r.started[0] as string)).toEqual([]);
  };

  beforeAll(async () => {
    copyCheckout(checkout);
    mkdirSync(events, { recursive: true });
    gh = await startFakeGitHub(REPO, PR);
    gh.comments.push({ id: 1, body: 'looks good', user: { login: 'alice', type: 'User' } });
    writeFileSync(join(events, 'schedule.json'), JSON.stringify({ schedule: '17 4 * * 1' }));
    writeFileSync(
      join(events, 'pull_request.json'),
      JSON.stringify({
        number: PR,
        pull_request: {
          number: PR,
          head: { ref: 'slow-work', repo: { full_name: REPO } },
          base: { ref: 'main', repo: { full_name: REPO } },
        },
        repository: { full_name: REPO },
      }),
    );
  });

  afterAll(async () => {
    await gh?.close();
    // act keeps a job's workspace copy under --action-cache-path when the job fails: all of it is
    // in the test's directory, removed here (act's default, ~/.cache/act, is never used)
    rmSync(work, { recursive: true, force: true });
  });

  it('schedule → the refresh job: update mode writes the baseline and hands it to the pull-request step', async () => {
    rmSync(join(checkout, 'baselines/work.json'), { force: true });
    commit(checkout, 'no baseline yet');
    const r = await act('schedule', 'refresh');
    expect(r.jobResult, r.log).toBe('success');
    expect(r.code).toBe(0);
    expect(r.steps.get('Main ./'), r.log).toBe('success');
    expect(r.outputs).toMatchObject({ verdict: 'pass', regressions: '0', 'baselines-updated': 'baselines/work.json' });
    expect(summaryOf(r)).toContain('baselines written for 1 scenario');
    const proposed = join(artifacts, 'pull-request/baselines/work.json');
    expect(JSON.parse(readFileSync(proposed, 'utf8'))).toMatchObject({
      schema: 'perf-gate/baseline@1',
      scenario: 'work',
    });
    expect(gh.writes).toEqual([]);
    expectCleanedUp(r);
    // merging the refresh pull request
    copyFileSync(proposed, join(checkout, 'baselines/work.json'));
    commit(checkout, 'perf-gate: refresh the quickstart baseline');
  }, 600_000);

  it('pull_request that changes nothing → the perf job passes and creates one sticky comment', async () => {
    const r = await act('pull_request', 'perf');
    expect(r.jobResult, r.log).toBe('success');
    expect(r.code).toBe(0);
    expect(r.outputs, r.log).toMatchObject({ verdict: 'pass', regressions: '0', 'baselines-updated': '' });
    expect(r.outputs.results).toMatch(/perf-gate-results\.json$/);
    expect(r.annotations.filter((a) => a.command === 'error')).toEqual([]);
    expect(summaryOf(r)).toContain('perf-gate: no regression');
    expect(ours()).toHaveLength(1);
    expect(gh.writes).toEqual([{ method: 'POST', path: `/repos/${REPO}/issues/${PR}/comments` }]);
    // the workflow's artifact for perf-report.yml: the results and the PR number
    expect(readFileSync(join(artifacts, 'perf-gate-results/pr-number'), 'utf8').trim()).toBe(String(PR));
    const uploaded = JSON.parse(readFileSync(join(artifacts, 'perf-gate-results/perf-gate-results.json'), 'utf8')) as {
      schema: string;
      runId: string;
      comparisons: Array<{ result: string }>;
    };
    expect(uploaded).toMatchObject({ schema: 'perf-gate/results@1', runId: r.started[0] });
    expect(uploaded.comparisons.filter((c) => c.result === 'regression')).toEqual([]);
    expectCleanedUp(r);
  }, 600_000);

  it('pull_request that slows the service 1 ms → 6 ms → regression: the job fails, annotations on the scenario line, the comment updated in place', async () => {
    const config = join(checkout, CONFIG);
    const text = readFileSync(config, 'utf8');
    const slower = text.replace('env: { API_DELAY: 1ms }', 'env: { API_DELAY: 6ms }');
    expect(slower).not.toBe(text);
    writeFileSync(config, slower);
    commit(checkout, 'slow work');
    const comment = ours()[0];
    const writesBefore = gh.writes.length;
    rmSync(join(artifacts, 'perf-gate-results'), { recursive: true, force: true });

    const r = await act('pull_request', 'perf');
    expect(r.jobResult, r.log).toBe('failure');
    expect(r.steps.get('Main ./'), r.log).toBe('failure');
    expect(r.outputs.verdict, r.log).toBe('regression');
    const regressions = Number(r.outputs.regressions);
    expect(regressions).toBeGreaterThan(0);
    // one error annotation per regression row, on the config's `- name: work` line
    const line = slower.split('\n').findIndex((l) => l.includes('- name: work')) + 1;
    const rows = r.annotations.filter((a) => a.command === 'error' && a.props.file);
    expect(rows).toHaveLength(regressions);
    for (const a of rows) {
      expect(a.props).toMatchObject({ file: CONFIG, line: String(line) });
      expect(a.props.title).toMatch(/^perf-gate regression: work\/(c10|n2k) /);
    }
    expect(
      r.annotations.some((a) => a.command === 'error' && a.message.startsWith(`perf-gate: ${regressions} regression`)),
    ).toBe(true);
    // the same comment, edited in place
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.id).toBe(comment?.id);
    expect(ours()[0]?.body).toMatch(/regress/i);
    expect(gh.writes.slice(writesBefore)).toEqual([
      { method: 'PATCH', path: `/repos/${REPO}/issues/comments/${comment?.id}` },
    ]);
    // the artifact step runs after a failure too (if: always()): JUnit with one failure per row
    const junit = readFileSync(join(artifacts, 'perf-gate-results/perf-gate-junit.xml'), 'utf8');
    expect(junit.match(/<failure /g)?.length).toBe(regressions);
    expectCleanedUp(r);
  }, 600_000);

  it('act is not a no-op: the manifest that shipped broken (an output with a default) fails the job before perf-gate runs', async () => {
    const manifest = join(checkout, 'action.yml');
    const good = readFileSync(manifest, 'utf8');
    writeFileSync(
      manifest,
      good.replace(/^outputs:\n/m, "outputs:\n  history:\n    description: x\n    default: ''\n"),
    );
    commit(checkout, 'an output with a default');
    const r = await act('pull_request', 'perf');
    expect(r.jobResult, r.log).toBe('failure');
    expect(r.log).toMatch(/Unknown Property default/);
    expect(r.started).toEqual([]);
    writeFileSync(manifest, good);
    commit(checkout, 'the manifest mended');
  }, 120_000);
});

// The Action's run(deps) with fakes for everything it touches: inputs, event, engine, GitHub, core.
import { describe, expect, it } from 'vitest';
import { GitHubError } from '../../src/action/github.js';
import { run } from '../../src/action/main.js';
import { environmentError, usageError } from '../../src/common/errors.js';
import { reportMarker } from '../../src/report/markdown.js';
import { REPO, PR_EVENT, outcome, harness, warnings } from './action-harness.js';

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
          '  perf-gate.yml:4:3: sut.colour: unknown key (keys here: compose, services, build, env, orchestrator, ready, profile, perf-image)',
          '  perf-gate.yml: gate.confirm: too few',
        ]);
      },
    });
    await run(h.deps);
    expect(h.failed).toEqual(['perf-gate.yml: 2 problems in the config']);
    expect(h.annotations).toEqual([
      {
        kind: 'error',
        message:
          'sut.colour: unknown key (keys here: compose, services, build, env, orchestrator, ready, profile, perf-image)',
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

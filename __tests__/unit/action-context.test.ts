import { describe, expect, it } from 'vitest';
import { isForkPullRequest, readContext, workspacePath } from '../../src/action/context.js';

const files: Record<string, string> = { '/e.json': '{"pull_request":{"number":3}}', '/bad.json': '{' };
const read = (p: string) => {
  const t = files[p];
  if (t === undefined) throw Object.assign(new Error(`ENOENT ${p}`), { code: 'ENOENT' });
  return t;
};

describe('readContext', () => {
  it('defaults: github.com, no event, no debug', () => {
    expect(readContext({}, read)).toEqual({
      eventName: '',
      event: {},
      repository: undefined,
      apiUrl: 'https://api.github.com',
      serverUrl: 'https://github.com',
      runId: undefined,
      runUrl: undefined,
      sha: undefined,
      debug: false,
      hasSummary: false,
      workspace: undefined,
    });
  });

  it('reads every GITHUB_* variable it uses, trailing slashes trimmed', () => {
    const ctx = readContext(
      {
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: '/e.json',
        GITHUB_REPOSITORY: 'acme/shop',
        GITHUB_API_URL: 'https://ghe.test/api/v3/',
        GITHUB_SERVER_URL: 'https://ghe.test/',
        GITHUB_RUN_ID: '42',
        GITHUB_SHA: 'abc',
        GITHUB_STEP_SUMMARY: '/s.md',
        GITHUB_WORKSPACE: '/w',
        RUNNER_DEBUG: '1',
      },
      read,
    );
    expect(ctx).toMatchObject({
      eventName: 'pull_request',
      event: { pull_request: { number: 3 } },
      apiUrl: 'https://ghe.test/api/v3',
      runUrl: 'https://ghe.test/acme/shop/actions/runs/42',
      sha: 'abc',
      debug: true,
      hasSummary: true,
      workspace: '/w',
    });
  });

  it.each([
    ['/bad.json', 'event file /bad.json: not valid JSON'],
    ['/missing.json', 'event file /missing.json: not found'],
  ])('an event file %s: a problem to warn about, an empty event', (path, problem) => {
    const ctx = readContext({ GITHUB_EVENT_PATH: path }, read);
    expect(ctx.event).toEqual({});
    expect(ctx.eventProblem).toBe(problem);
  });

  it('PERF_GATE_DEBUG also means debug; RUNNER_DEBUG other than 1 does not', () => {
    expect(readContext({ PERF_GATE_DEBUG: '1' }, read).debug).toBe(true);
    expect(readContext({ RUNNER_DEBUG: '0' }, read).debug).toBe(false);
  });
});

describe('isForkPullRequest', () => {
  it.each([
    [{}, false],
    [{ pull_request: { number: 1 } }, false],
    [
      { pull_request: { number: 1, head: { repo: { full_name: 'a/b' } }, base: { repo: { full_name: 'a/b' } } } },
      false,
    ],
    [{ pull_request: { number: 1, head: { repo: { full_name: 'x/b' } }, base: { repo: { full_name: 'a/b' } } } }, true],
    [{ pull_request: { number: 1, head: { repo: null }, base: { repo: { full_name: 'a/b' } } } }, false],
  ])('%j → %s', (event, fork) => expect(isForkPullRequest(event)).toBe(fork));
});

describe('workspacePath', () => {
  it.each<[string, string | undefined, string, string]>([
    ['perf-gate.yml', '/w', '/w', 'perf-gate.yml'],
    ['perf/perf-gate.yml', '/w', '/w', 'perf/perf-gate.yml'],
    ['/w/perf/perf-gate.yml', '/w', '/anywhere', 'perf/perf-gate.yml'],
    ['sub.yml', '/w', '/w/perf', 'perf/sub.yml'],
    ['/elsewhere/perf-gate.yml', '/w', '/w', '/elsewhere/perf-gate.yml'],
    ['../x.yml', '/w', '/w', '../x.yml'],
    ['/w/perf-gate.yml', undefined, '/w', '/w/perf-gate.yml'],
    ['/w2/perf-gate.yml', '/w', '/w', '/w2/perf-gate.yml'],
  ])('%s in workspace %s from %s → %s', (path, workspace, cwd, expected) => {
    expect(workspacePath(path, workspace, cwd)).toBe(expected);
  });
});

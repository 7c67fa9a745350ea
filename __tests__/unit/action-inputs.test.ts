import { describe, expect, it } from 'vitest';
import { readInputs, type ActionInputs } from '../../src/action/inputs.js';
import { EXIT_USAGE, UserError } from '../../src/common/errors.js';

const DEFAULTS: ActionInputs = {
  config: 'perf-gate.yml',
  mode: 'auto',
  baselineDir: 'baselines',
  scenarios: [],
  githubToken: '',
  comment: 'always',
  failOnRegression: true,
  // issue 47: a run that could not judge a row never ends green
  failOnInconclusive: true,
  // an update reports rows beyond the previous baselines' bands and fails on them only when asked
  failOnShift: false,
  runnerImage: '',
  reportId: '',
  baseRef: '',
  seed: undefined,
  junit: '',
  csv: '',
  outFormats: [],
  history: '',
  historyBranch: '',
  historyPage: '',
  results: 'perf-gate-results.json',
  prNumber: undefined,
  status: true,
  // issue 51: the run's page uploaded and linked unless a workflow says otherwise
  uploadReport: true,
};

/** The error readInputs throws for `env`, or a failure when it does not throw. */
function errorOf(env: NodeJS.ProcessEnv): UserError {
  try {
    readInputs(env);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error(`readInputs accepted ${JSON.stringify(env)}`);
}

describe('readInputs: defaults', () => {
  it.each<[string, NodeJS.ProcessEnv]>([
    ['no inputs at all', {}],
    [
      'every input empty (how the runner passes unset inputs without defaults)',
      {
        INPUT_CONFIG: '',
        INPUT_MODE: '',
        'INPUT_BASELINE-DIR': '',
        INPUT_SCENARIOS: '',
        'INPUT_GITHUB-TOKEN': '',
        INPUT_COMMENT: '',
        'INPUT_FAIL-ON-REGRESSION': '',
        'INPUT_FAIL-ON-INCONCLUSIVE': '',
        'INPUT_RUNNER-IMAGE': '',
        'INPUT_REPORT-ID': '',
      },
    ],
    [
      'whitespace only',
      {
        INPUT_CONFIG: '  ',
        INPUT_MODE: '\t',
        INPUT_COMMENT: ' \n ',
        'INPUT_FAIL-ON-REGRESSION': ' ',
        'INPUT_FAIL-ON-INCONCLUSIVE': ' ',
      },
    ],
    ['unrelated environment', { PATH: '/usr/bin', GITHUB_EVENT_NAME: 'pull_request', INPUT_OTHER: 'x' }],
  ])('%s', (_label, env) => {
    expect(readInputs(env)).toEqual(DEFAULTS);
  });
});

describe('readInputs: each input from its INPUT_* variable', () => {
  it.each<[string, string, Partial<ActionInputs>]>([
    ['INPUT_CONFIG', 'perf/perf-gate.yml', { config: 'perf/perf-gate.yml' }],
    ['INPUT_CONFIG', '  spaced.yml  ', { config: 'spaced.yml' }],
    ['INPUT_MODE', 'auto', { mode: 'auto' }],
    ['INPUT_MODE', 'gate', { mode: 'gate' }],
    ['INPUT_MODE', 'update', { mode: 'update' }],
    ['INPUT_MODE', 'sweep', { mode: 'sweep' }],
    ['INPUT_MODE', 'ab', { mode: 'ab' }],
    ['INPUT_BASE-REF', 'origin/main', { baseRef: 'origin/main' }],
    ['INPUT_SEED', '42', { seed: 42 }],
    ['INPUT_SEED', ' 4294967295 ', { seed: 4294967295 }],
    ['INPUT_JUNIT', 'reports/perf.xml', { junit: 'reports/perf.xml' }],
    ['INPUT_MODE', 'report', { mode: 'report' }],
    ['INPUT_RESULTS', 'artifact/perf-gate-results.json', { results: 'artifact/perf-gate-results.json' }],
    ['INPUT_PR-NUMBER', '42', { prNumber: 42 }],
    ['INPUT_PR-NUMBER', ' 42\n', { prNumber: 42 }],
    ['INPUT_STATUS', 'false', { status: false }],
    ['INPUT_UPLOAD-REPORT', 'False', { uploadReport: false }],
    ['INPUT_CSV', ' perf.csv ', { csv: 'perf.csv' }],
    [
      'INPUT_OUT-FORMAT',
      'junit=a.xml\n  json=v.json csv=c.csv\n',
      { outFormats: ['junit=a.xml', 'json=v.json', 'csv=c.csv'] },
    ],
    ['INPUT_MODE', ' gate\n', { mode: 'gate' }],
    ['INPUT_BASELINE-DIR', 'perf/baselines', { baselineDir: 'perf/baselines' }],
    ['INPUT_SCENARIOS', 'search', { scenarios: ['search'] }],
    ['INPUT_SCENARIOS', 'search,checkout', { scenarios: ['search', 'checkout'] }],
    ['INPUT_SCENARIOS', ' search , checkout ,, ', { scenarios: ['search', 'checkout'] }],
    ['INPUT_SCENARIOS', ',', { scenarios: [] }],
    ['INPUT_GITHUB-TOKEN', 'ghs_abc123', { githubToken: 'ghs_abc123' }],
    ['INPUT_COMMENT', 'always', { comment: 'always' }],
    ['INPUT_COMMENT', 'on-regression', { comment: 'on-regression' }],
    ['INPUT_COMMENT', 'never', { comment: 'never' }],
    ['INPUT_FAIL-ON-REGRESSION', 'true', { failOnRegression: true }],
    ['INPUT_FAIL-ON-REGRESSION', 'false', { failOnRegression: false }],
    ['INPUT_FAIL-ON-REGRESSION', 'False', { failOnRegression: false }],
    ['INPUT_FAIL-ON-REGRESSION', 'FALSE', { failOnRegression: false }],
    ['INPUT_FAIL-ON-REGRESSION', 'TRUE', { failOnRegression: true }],
    ['INPUT_FAIL-ON-REGRESSION', ' false ', { failOnRegression: false }],
    ['INPUT_FAIL-ON-INCONCLUSIVE', 'true', { failOnInconclusive: true }],
    ['INPUT_FAIL-ON-INCONCLUSIVE', 'false', { failOnInconclusive: false }],
    ['INPUT_FAIL-ON-SHIFT', 'true', { failOnShift: true }],
    ['INPUT_FAIL-ON-SHIFT', 'FALSE', { failOnShift: false }],
    ['INPUT_FAIL-ON-INCONCLUSIVE', 'TRUE', { failOnInconclusive: true }],
    ['INPUT_FAIL-ON-INCONCLUSIVE', ' True\n', { failOnInconclusive: true }],
    ['INPUT_RUNNER-IMAGE', 'node:20-slim', { runnerImage: 'node:20-slim' }],
    ['INPUT_REPORT-ID', 'linux-node20', { reportId: 'linux-node20' }],
  ])('%s=%j', (name, value, expected) => {
    expect(readInputs({ [name]: value })).toEqual({ ...DEFAULTS, ...expected });
  });

  it('history-branch: the history file is perf-history.jsonl in it unless named; a path out of the branch is refused', () => {
    expect(readInputs({ 'INPUT_HISTORY-BRANCH': 'perf-history' })).toMatchObject({
      historyBranch: 'perf-history',
      history: 'perf-history.jsonl',
    });
    expect(() => readInputs({ 'INPUT_HISTORY-BRANCH': 'perf-history', INPUT_HISTORY: '../h.jsonl' })).toThrow(
      /^input history: "..\/h.jsonl" must be a relative path in the branch/,
    );
    expect(() => readInputs({ 'INPUT_HISTORY-BRANCH': 'a..b' })).toThrow(/^input history-branch: "a..b" must be/);
  });

  it('history-page: the trend page beside the history on its branch, perf-history.html unless named; false: none', () => {
    const branch = { 'INPUT_HISTORY-BRANCH': 'gh-pages' };
    expect(readInputs(branch).historyPage).toBe('perf-history.html');
    expect(readInputs({ ...branch, 'INPUT_HISTORY-PAGE': 'perf/index.html' }).historyPage).toBe('perf/index.html');
    expect(readInputs({ ...branch, 'INPUT_HISTORY-PAGE': 'False' }).historyPage).toBe('');
    // without a branch there is no page to write (perf-gate history FILE --html PAGE writes one)
    expect(readInputs({ 'INPUT_HISTORY-PAGE': 'p.html' }).historyPage).toBe('');
    expect(() => readInputs({ ...branch, 'INPUT_HISTORY-PAGE': '../p.html' })).toThrow(
      /^input history-page: "..\/p.html" must be a relative path in the branch/,
    );
    expect(() => readInputs({ ...branch, INPUT_HISTORY: 'h.jsonl', 'INPUT_HISTORY-PAGE': 'h.jsonl' })).toThrow(
      /^input history-page: "h.jsonl" is the history file itself/,
    );
  });

  it('reads all inputs together', () => {
    expect(
      readInputs({
        INPUT_CONFIG: 'ci/perf.yml',
        INPUT_MODE: 'gate',
        'INPUT_BASELINE-DIR': 'ci/baselines',
        INPUT_SCENARIOS: 'a,b',
        'INPUT_GITHUB-TOKEN': 'tok',
        INPUT_COMMENT: 'on-regression',
        'INPUT_FAIL-ON-REGRESSION': 'false',
        'INPUT_FAIL-ON-INCONCLUSIVE': 'true',
        'INPUT_FAIL-ON-SHIFT': 'true',
        'INPUT_RUNNER-IMAGE': 'node:22',
        'INPUT_REPORT-ID': 'matrix-1',
        'INPUT_BASE-REF': 'v1.2.0',
        INPUT_JUNIT: 'j.xml',
        INPUT_CSV: 'c.csv',
        INPUT_HISTORY: 'perf/history.jsonl',
        'INPUT_HISTORY-BRANCH': 'perf-history',
        INPUT_RESULTS: 'r.json',
        'INPUT_PR-NUMBER': '9',
        INPUT_STATUS: 'FALSE',
        'INPUT_UPLOAD-REPORT': 'false',
      }),
    ).toEqual({
      config: 'ci/perf.yml',
      mode: 'gate',
      baselineDir: 'ci/baselines',
      scenarios: ['a', 'b'],
      githubToken: 'tok',
      comment: 'on-regression',
      failOnRegression: false,
      failOnInconclusive: true,
      failOnShift: true,
      runnerImage: 'node:22',
      reportId: 'matrix-1',
      baseRef: 'v1.2.0',
      junit: 'j.xml',
      csv: 'c.csv',
      outFormats: [],
      history: 'perf/history.jsonl',
      historyBranch: 'perf-history',
      historyPage: 'perf-history.html',
      results: 'r.json',
      prNumber: 9,
      status: false,
      uploadReport: false,
    });
  });

  // The runner keeps hyphens (INPUT_BASELINE-DIR); underscore or lower-case spellings are other variables.
  it.each<[string, keyof ActionInputs]>([
    ['INPUT_BASELINE_DIR', 'baselineDir'],
    ['INPUT_FAIL_ON_REGRESSION', 'failOnRegression'],
    ['INPUT_FAIL_ON_INCONCLUSIVE', 'failOnInconclusive'],
    ['INPUT_REPORT_ID', 'reportId'],
    ['INPUT_RUNNER_IMAGE', 'runnerImage'],
    ['INPUT_GITHUB_TOKEN', 'githubToken'],
    ['input_config', 'config'],
    ['BASELINE-DIR', 'baselineDir'],
  ])('%s is not read', (name, field) => {
    const value = field === 'failOnRegression' ? 'false' : field === 'failOnInconclusive' ? 'false' : 'other';
    expect(readInputs({ [name]: value })[field]).toEqual(DEFAULTS[field]);
  });
});

describe('readInputs: invalid values are usage errors naming the input', () => {
  it.each<[string, string, string]>([
    ['INPUT_MODE', 'fast', 'mode'],
    ['INPUT_MODE', 'compare', 'mode'],
    ['INPUT_MODE', 'gate,update', 'mode'],
    ['INPUT_MODE', 'gated', 'mode'],
    ['INPUT_COMMENT', 'sometimes', 'comment'],
    ['INPUT_COMMENT', 'true', 'comment'],
    ['INPUT_COMMENT', 'on_regression', 'comment'],
    ['INPUT_FAIL-ON-REGRESSION', 'yes', 'fail-on-regression'],
    ['INPUT_FAIL-ON-REGRESSION', 'no', 'fail-on-regression'],
    ['INPUT_FAIL-ON-REGRESSION', '1', 'fail-on-regression'],
    ['INPUT_FAIL-ON-REGRESSION', '0', 'fail-on-regression'],
    ['INPUT_FAIL-ON-REGRESSION', 'truee', 'fail-on-regression'],
    ['INPUT_FAIL-ON-INCONCLUSIVE', 'yes', 'fail-on-inconclusive'],
    ['INPUT_FAIL-ON-INCONCLUSIVE', '1', 'fail-on-inconclusive'],
    ['INPUT_FAIL-ON-SHIFT', 'yes', 'fail-on-shift'],
    ['INPUT_SEED', '-1', 'seed'],
    ['INPUT_SEED', '4294967296', 'seed'],
    ['INPUT_SEED', '1.5', 'seed'],
    ['INPUT_PR-NUMBER', '0', 'pr-number'],
    ['INPUT_PR-NUMBER', '-3', 'pr-number'],
    ['INPUT_PR-NUMBER', '12abc', 'pr-number'],
    ['INPUT_PR-NUMBER', '1.5', 'pr-number'],
    ['INPUT_STATUS', 'yes', 'status'],
    ['INPUT_UPLOAD-REPORT', 'no', 'upload-report'],
  ])('%s=%j', (name, value, input) => {
    const err = errorOf({ [name]: value });
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.exitCode).toBe(2);
    expect(err.message).not.toContain('\n');
    expect(err.message).toMatch(new RegExp(`\\binput ${input}\\b`));
    expect(err.message).toContain(value);
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    ['mode is checked with other inputs valid', { INPUT_MODE: 'nope', INPUT_COMMENT: 'never' }, 'mode'],
    ['comment is checked with other inputs valid', { INPUT_MODE: 'gate', INPUT_COMMENT: 'nope' }, 'comment'],
    [
      'fail-on-regression is checked with other inputs valid',
      { INPUT_MODE: 'gate', INPUT_COMMENT: 'never', 'INPUT_FAIL-ON-REGRESSION': 'nope' },
      'fail-on-regression',
    ],
  ])('%s', (_label, env, input) => {
    expect(errorOf(env).message).toMatch(new RegExp(`^input ${input}: `));
  });

  it('the message lists the accepted values', () => {
    expect(errorOf({ INPUT_MODE: 'x' }).message).toMatch(/auto.*gate.*update.*sweep/);
    expect(errorOf({ INPUT_COMMENT: 'x' }).message).toMatch(/always.*on-regression.*never/);
    expect(errorOf({ 'INPUT_FAIL-ON-REGRESSION': 'x' }).message).toMatch(/true.*false/);
    expect(errorOf({ 'INPUT_FAIL-ON-INCONCLUSIVE': 'x' }).message).toMatch(/true.*false/);
  });

  // BUG (reported): a multi-line value (a YAML block scalar in the workflow) is quoted verbatim,
  // so the "one-line reason" spans several lines. Remove `.fails` once fixed.
  it.each<[string, string]>([
    ['INPUT_MODE', 'gate\nupdate'],
    ['INPUT_COMMENT', 'always\nnever'],
    ['INPUT_FAIL-ON-REGRESSION', 'true\nfalse'],
  ])('%s with a multi-line value: the message is still one line', (name, value) => {
    expect(errorOf({ [name]: value }).message).not.toContain('\n');
  });
});

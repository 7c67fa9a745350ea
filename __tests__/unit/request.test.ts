// One request builder for the CLI and the Action (src/run/request.ts), and the exit code of a verdict
// (src/modes/index.ts exitCodeOf).
import { describe, expect, it } from 'vitest';
import type { OverallVerdict } from '../../src/compare/compare.js';
import { EXIT_PASS, EXIT_REGRESSION, EXIT_USAGE, UserError } from '../../src/common/errors.js';
import { exitCodeOf, type ModeInput } from '../../src/modes/index.js';
import { buildRunRequest, type RequestContext, type RequestInput } from '../../src/run/request.js';
import type { RunMode } from '../../src/modes/index.js';

const input = (over: Partial<RequestInput> = {}): RequestInput => ({
  config: 'perf-gate.yml',
  mode: 'auto',
  scenarios: [],
  baselineDir: 'baselines',
  outDir: '.',
  ...over,
});

const context = (
  over: Partial<RequestContext> = {},
  against: 'baselines' | 'base-ref' = 'baselines',
): RequestContext => ({
  eventName: undefined,
  against: () => against,
  ...over,
});

/** The UserError buildRunRequest throws, or a failure when it does not. */
function usageErrorOf(i: RequestInput, c: RequestContext): UserError {
  try {
    buildRunRequest(i, c);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('expected a usage error');
}

describe('buildRunRequest: the mode', () => {
  it.each<[string, ModeInput, string | undefined, 'baselines' | 'base-ref', RunMode]>([
    ['auto, pull_request → gate', 'auto', 'pull_request', 'baselines', 'gate'],
    ['auto, pull_request_target → gate', 'auto', 'pull_request_target', 'baselines', 'gate'],
    ['auto, pull_request, against base-ref → ab', 'auto', 'pull_request', 'base-ref', 'ab'],
    ['auto, push → update', 'auto', 'push', 'baselines', 'update'],
    ['auto, push, against base-ref: still update', 'auto', 'push', 'base-ref', 'update'],
    ['auto, schedule → update', 'auto', 'schedule', 'baselines', 'update'],
    ['auto, workflow_dispatch → sweep', 'auto', 'workflow_dispatch', 'baselines', 'sweep'],
    ['auto, no event (a shell) → gate', 'auto', undefined, 'baselines', 'gate'],
    ['auto, workflow_run → gate', 'auto', 'workflow_run', 'baselines', 'gate'],
    ['explicit gate on a push', 'gate', 'push', 'baselines', 'gate'],
    ['explicit update in a pull request', 'update', 'pull_request', 'base-ref', 'update'],
    ['explicit sweep', 'sweep', undefined, 'baselines', 'sweep'],
  ])('%s', (_label, mode, eventName, against, expected) => {
    const opts = buildRunRequest(input({ mode }), context({ eventName, baseBranch: 'main' }, against));
    expect(opts.mode).toBe(expected);
  });

  it('A/B chosen by mode auto may fall back to the gate; A/B asked for by name may not', () => {
    const ctx = context({ eventName: 'pull_request', pullRequestBaseSha: 'abc123' }, 'base-ref');
    expect(buildRunRequest(input({ mode: 'auto' }), ctx).abFallback).toBe(true);
    expect(buildRunRequest(input({ mode: 'ab' }), ctx).abFallback).toBeUndefined();
    expect(buildRunRequest(input({ mode: 'auto' }), context({ eventName: 'pull_request' })).abFallback).toBeUndefined();
  });

  it('reads gate.against of the config only for mode auto', () => {
    const read: string[] = [];
    const ctx = context({
      eventName: 'pull_request',
      against: (file) => {
        read.push(file);
        return 'base-ref';
      },
      pullRequestBaseSha: 'abc123',
    });
    expect(buildRunRequest(input({ mode: 'auto', config: 'ci/perf.yml' }), ctx).mode).toBe('ab');
    expect(read).toEqual(['ci/perf.yml']);
    expect(buildRunRequest(input({ mode: 'gate' }), ctx).mode).toBe('gate');
    expect(read).toEqual(['ci/perf.yml']);
  });
});

describe('buildRunRequest: the base ref of an A/B run', () => {
  it.each<[string, string | undefined, Partial<RequestContext>, string]>([
    ['explicit wins over everything', 'v1.2.0', { pullRequestBaseSha: 'abc123', baseBranch: 'main' }, 'v1.2.0'],
    [
      'the PR base commit before the base branch',
      undefined,
      { pullRequestBaseSha: 'abc123', baseBranch: 'main' },
      'abc123',
    ],
    ['the base branch, as origin/<branch>', undefined, { baseBranch: 'release/2.x' }, 'origin/release/2.x'],
    ['an empty explicit ref is not given', '', { pullRequestBaseSha: 'abc123' }, 'abc123'],
    ['an empty PR base commit is not given', undefined, { pullRequestBaseSha: '', baseBranch: 'main' }, 'origin/main'],
  ])('%s', (_label, baseRef, ctx, expected) => {
    const opts = buildRunRequest(input({ mode: 'ab', ...(baseRef === undefined ? {} : { baseRef }) }), context(ctx));
    expect(opts.mode).toBe('ab');
    expect(opts.baseRef).toBe(expected);
  });

  it('auto in a pull request against base-ref takes the PR base commit', () => {
    const opts = buildRunRequest(
      input(),
      context({ eventName: 'pull_request', pullRequestBaseSha: 'abc123', baseBranch: 'main' }, 'base-ref'),
    );
    expect(opts).toMatchObject({ mode: 'ab', baseRef: 'abc123' });
  });

  it.each<[string, Partial<RequestInput>, Partial<RequestContext>]>([
    ['nothing at all', {}, {}],
    ['every source an empty string', { baseRef: '' }, { pullRequestBaseSha: '', baseBranch: '' }],
  ])('mode ab without any base ref is a usage error (exit 2): %s', (_label, over, ctx) => {
    const err = usageErrorOf(input({ mode: 'ab', ...over }), context(ctx));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/^mode ab needs a base to compare with: --base REF \(Action: base-ref\)/);
  });

  it('auto against base-ref outside a pull request is a gate: no base needed', () => {
    expect(buildRunRequest(input(), context({}, 'base-ref')).mode).toBe('gate');
  });

  it('a pull request whose config asks for base-ref but whose event has no base: usage error', () => {
    const err = usageErrorOf(input(), context({ eventName: 'pull_request' }, 'base-ref'));
    expect(err.exitCode).toBe(EXIT_USAGE);
  });

  it.each<[RunMode]>([['gate'], ['update'], ['sweep']])(
    'mode %s carries no base ref, even when one is given',
    (mode) => {
      const opts = buildRunRequest(input({ mode, baseRef: 'v1' }), context({ pullRequestBaseSha: 'abc' }));
      expect(opts.baseRef).toBeUndefined();
      expect('baseRef' in opts).toBe(false);
    },
  );
});

describe('buildRunRequest: the options', () => {
  it('copies what was given, and leaves out what was not (or was empty)', () => {
    const opts = buildRunRequest(
      input({
        mode: 'ab',
        config: 'ci/perf.yml',
        scenarios: ['a', 'b'],
        baselineDir: 'ci/baselines',
        outDir: 'out',
        runnerImage: 'node:22',
        baseRef: 'v1',
        pairs: 8,
        seed: 0,
        junit: '',
        csv: 'perf.csv',
        history: undefined,
        runId: 'run-7',
        reportId: '',
      }),
      context(),
    );
    expect(opts).toEqual({
      configFile: 'ci/perf.yml',
      mode: 'ab',
      scenarios: ['a', 'b'],
      baselineDir: 'ci/baselines',
      outDir: 'out',
      runnerImage: 'node:22',
      baseRef: 'v1',
      pairs: 8,
      // 0 is a seed, not "not given"
      seed: 0,
      outputs: [{ format: 'csv', path: 'perf.csv' }],
      runId: 'run-7',
    });
  });

  it('--out-format FORMAT=PATH: after the --junit and --csv aliases, in the order given; a bad one is exit 2', () => {
    const opts = buildRunRequest(
      input({ mode: 'gate', junit: 'j.xml', outFormats: ['md=r.md', 'json=v.json', 'csv=a.csv'] }),
      context(),
    );
    expect(opts.outputs).toEqual([
      { format: 'junit', path: 'j.xml' },
      { format: 'markdown', path: 'r.md' },
      { format: 'json', path: 'v.json' },
      { format: 'csv', path: 'a.csv' },
    ]);
    const cases: Array<[string, RegExp]> = [
      [
        'junti=x.xml',
        /^--out-format junti=x\.xml: unknown format junti \(did you mean junit\?\) \(FORMAT=PATH; formats: results, markdown, json, junit, csv, history, terminal, html\)$/,
      ],
      ['junit', /^--out-format junit: no path \(FORMAT=PATH, e\.g\. junit=perf\.xml\)$/],
      ['junit=', /^--out-format junit=: no path/],
      ['=x', /^--out-format =x: no format/],
    ];
    for (const [given, message] of cases) {
      const err = (() => {
        try {
          buildRunRequest(input({ mode: 'gate', outFormats: [given] }), context());
        } catch (e) {
          return e as UserError;
        }
        throw new Error(`${given} was taken`);
      })();
      expect(err.exitCode).toBe(EXIT_USAGE);
      expect(err.message).toMatch(message);
    }
    // history=PATH is --history PATH (read for the trend, appended to): one per run; a repeat is written once
    const h = buildRunRequest(
      input({ mode: 'gate', history: 'h.jsonl', outFormats: ['history=h.jsonl', 'csv=a.csv', 'csv=a.csv'] }),
      context(),
    );
    expect(h.history).toBe('h.jsonl');
    expect(h.outputs).toEqual([{ format: 'csv', path: 'a.csv' }]);
    expect(buildRunRequest(input({ mode: 'gate', outFormats: ['history=h.jsonl'] }), context()).history).toBe(
      'h.jsonl',
    );
    expect(() =>
      buildRunRequest(input({ mode: 'gate', history: 'a.jsonl', outFormats: ['history=b.jsonl'] }), context()),
    ).toThrow(/^--out-format history=b\.jsonl: one history file per run \(also given: a\.jsonl\)$/);
    expect(() => buildRunRequest(input({ mode: 'gate', outFormats: ['x=y'] }), context(), 'input out-format')).toThrow(
      /^input out-format x=y: unknown format x/,
    );
  });

  it('the bare minimum: no optional keys at all', () => {
    expect(buildRunRequest(input({ mode: 'gate' }), context())).toEqual({
      configFile: 'perf-gate.yml',
      mode: 'gate',
      scenarios: [],
      baselineDir: 'baselines',
      outDir: '.',
    });
  });
});

describe('exitCodeOf', () => {
  it.each<[RunMode, OverallVerdict, boolean, number]>([
    ['gate', 'regression', false, EXIT_REGRESSION],
    ['gate', 'regression', true, EXIT_REGRESSION],
    ['ab', 'regression', false, EXIT_REGRESSION],
    ['gate', 'inconclusive', false, EXIT_PASS],
    ['gate', 'inconclusive', true, EXIT_REGRESSION],
    ['ab', 'inconclusive', false, EXIT_PASS],
    ['ab', 'inconclusive', true, EXIT_REGRESSION],
    ['gate', 'pass', true, EXIT_PASS],
    ['gate', 'no-baseline', true, EXIT_PASS],
    ['ab', 'pass', false, EXIT_PASS],
    // update and sweep never fail on a verdict
    ['update', 'regression', false, EXIT_PASS],
    ['update', 'regression', true, EXIT_PASS],
    ['update', 'inconclusive', true, EXIT_PASS],
    ['sweep', 'regression', true, EXIT_PASS],
    ['sweep', 'inconclusive', true, EXIT_PASS],
  ])('%s, %s, fail-on-inconclusive %s → %i', (mode, verdict, failOnInconclusive, code) => {
    expect(exitCodeOf(mode, verdict, failOnInconclusive)).toBe(code);
  });

  it('a regression exits 1, a pass 0', () => {
    expect(EXIT_REGRESSION).toBe(1);
    expect(EXIT_PASS).toBe(0);
  });
});

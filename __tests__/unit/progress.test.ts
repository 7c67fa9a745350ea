import { describe, expect, it } from 'vitest';
import type { RunnerEvent } from '../../src/runner-kit/plan.js';
import { Progress, type ProgressSink, progressSink } from '../../src/run/progress.js';

class FakeSink implements ProgressSink {
  readonly writes: string[] = [];
  constructor(
    readonly isTTY: boolean,
    readonly columns?: number,
  ) {}
  write(text: string): void {
    this.writes.push(text);
  }
}

class FakeClock {
  t = 0;
  readonly now = (): number => this.t;
}

type StageEvent = Extract<RunnerEvent, { t: 'stage' }>;
type ProgressEvent = Extract<RunnerEvent, { t: 'progress' }>;

const stage = (over: Partial<StageEvent> = {}): StageEvent => ({
  t: 'stage',
  scenario: 'search',
  phase: 'c10',
  trial: 1,
  trials: 3,
  stage: 'measure',
  totalMs: 30_000,
  ...over,
});

const progress = (elapsedMs: number, over: Partial<ProgressEvent> = {}): ProgressEvent => ({
  t: 'progress',
  scenario: 'search',
  phase: 'c10',
  trial: 1,
  stage: 'measure',
  elapsedMs,
  responses: elapsedMs / 2,
  rps: 500,
  ...over,
});

const CLEAR = '\r\x1b[2K';

describe('Progress on a terminal', () => {
  it('draws a bar with elapsed/total and rps, redrawn in place with \\r', () => {
    const sink = new FakeSink(true);
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage());
    expect(sink.writes).toEqual([]);
    p.onEvent(progress(15_000));
    p.onEvent(progress(30_000));
    expect(sink.writes).toEqual([
      `${CLEAR}[############------------] search/c10 trial 1/3 measure 15s/30s 500 rps`,
      `${CLEAR}[########################] search/c10 trial 1/3 measure 30s/30s 500 rps`,
    ]);
    for (const w of sink.writes) expect(w.startsWith('\r')).toBe(true);
    for (const w of sink.writes) expect(w).not.toContain('\n');
  });

  it.each<[string, Partial<StageEvent>, ProgressEvent, string]>([
    [
      'empty at the start',
      {},
      progress(0, { rps: 0 }),
      '[------------------------] search/c10 trial 1/3 measure 0ms/30s 0 rps',
    ],
    [
      'elapsed clamped to the total',
      {},
      progress(45_000),
      '[########################] search/c10 trial 1/3 measure 30s/30s 500 rps',
    ],
    [
      'a request-count phase counts responses',
      { phase: 'c10-n1000', totalMs: undefined, totalRequests: 1000 },
      progress(1000, { phase: 'c10-n1000', responses: 250, rps: 250 }),
      '[######------------------] search/c10-n1000 trial 1/3 measure 250/1000 req 250 rps',
    ],
    [
      'warm-up stage',
      { stage: 'warmup', totalMs: 5000 },
      progress(2500, { stage: 'warmup' }),
      '[############------------] search/c10 trial 1/3 warmup 2.5s/5s 500 rps',
    ],
  ])('%s', (_label, stageOver, event, bar) => {
    const sink = new FakeSink(true);
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage(stageOver));
    p.onEvent(event);
    expect(sink.writes).toEqual([`${CLEAR}${bar}`]);
  });

  it('cuts the bar to the terminal width', () => {
    const sink = new FakeSink(true, 40);
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage());
    p.onEvent(progress(15_000));
    expect(sink.writes).toEqual([`${CLEAR}[############------------] search/c10 t`]);
    expect(sink.writes[0]!.length - CLEAR.length).toBe(39);
  });

  it.each<[string, number | undefined]>([
    ['0 columns (unknown)', 0],
    ['a width too small to trust', 8],
    ['no width', undefined],
  ])('%s: the bar is not cut to nothing', (_label, columns) => {
    const sink = new FakeSink(true, columns);
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage());
    p.onEvent(progress(15_000));
    expect(sink.writes).toEqual([`${CLEAR}[############------------] search/c10 trial 1/3 measure 15s/30s 500 rps`]);
  });

  it('every workflow command written after the bar starts on its own line', () => {
    const sink = new FakeSink(true);
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage());
    p.onEvent(progress(15_000));
    p.finish();
    // what @actions/core writes next, straight to the same stream
    sink.write('::error title=perf-gate regression::api/c10 p50\n');
    p.onEvent(progress(16_000));
    p.line('::warning::perf-gate: pull request from a fork');
    const out = sink.writes.join('');
    const commands = [...out.matchAll(/::(error|warning)/g)];
    expect(commands).toHaveLength(2);
    for (const m of commands) expect(out[(m.index as number) - 1]).toBe('\n');
  });

  it('ends the bar with a newline before a line of its own, and on finish', () => {
    const sink = new FakeSink(true);
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage());
    p.onEvent(progress(15_000));
    p.line('SUT ready');
    p.line('second line');
    p.onEvent(progress(16_000));
    p.finish();
    p.finish();
    expect(sink.writes.slice(1)).toEqual([
      '\n',
      'SUT ready\n',
      'second line\n',
      `${CLEAR}[#############-----------] search/c10 trial 1/3 measure 16s/30s 500 rps`,
      '\n',
    ]);
  });

  it('ignores progress before any stage', () => {
    const sink = new FakeSink(true);
    new Progress(sink, new FakeClock().now).onEvent(progress(1000));
    expect(sink.writes).toEqual([]);
  });
});

describe('progressSink', () => {
  const stream = (isTTY: boolean, columns?: number) => ({ write: () => true, isTTY, columns });
  it.each<[string, boolean, NodeJS.ProcessEnv, boolean]>([
    ['a terminal', true, {}, true],
    ['a pipe', false, {}, false],
    ['a terminal under GitHub Actions: plain lines', true, { GITHUB_ACTIONS: 'true' }, false],
  ])('%s', (_label, isTTY, env, bar) => {
    expect(progressSink(stream(isTTY, 80), env).isTTY).toBe(bar);
  });
});

describe('Progress in CI logs (not a terminal)', () => {
  it('prints a plain line at each stage start and at most every 5 s otherwise', () => {
    const sink = new FakeSink(false);
    const clock = new FakeClock();
    const p = new Progress(sink, clock.now);
    const at = (t: number, e: RunnerEvent) => {
      clock.t = t;
      p.onEvent(e);
    };
    at(0, stage({ stage: 'warmup', totalMs: 5000 }));
    at(1000, progress(1000, { stage: 'warmup' }));
    at(4000, progress(4000, { stage: 'warmup' }));
    at(5000, stage());
    at(6000, progress(1000));
    at(9999, progress(4999));
    at(10_000, progress(5000));
    at(11_000, progress(6000));
    at(14_000, progress(9000));
    at(15_500, progress(10_500));
    at(35_000, stage({ trial: 2 }));
    at(35_001, progress(1));
    expect(sink.writes).toEqual([
      '[perf-gate] search/c10 trial 1/3 warmup started (5s)\n',
      '[perf-gate] search/c10 trial 1/3 measure started (30s)\n',
      '[perf-gate] search/c10 trial 1/3 measure 5s/30s 500 rps\n',
      '[perf-gate] search/c10 trial 1/3 measure 10.5s/30s 500 rps\n',
      '[perf-gate] search/c10 trial 2/3 measure started (30s)\n',
    ]);
    for (const w of sink.writes) expect(w).not.toContain('\r');
  });

  it('a request-count stage announces its request total', () => {
    const sink = new FakeSink(false);
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage({ phase: 'c100-n50000', totalMs: undefined, totalRequests: 50_000 }));
    expect(sink.writes).toEqual(['[perf-gate] search/c100-n50000 trial 1/3 measure started (50000 requests)\n']);
  });

  it('the first progress line comes 5 s after the stage line, even when the clock starts late', () => {
    const sink = new FakeSink(false);
    const clock = new FakeClock();
    clock.t = 1_000_000;
    const p = new Progress(sink, clock.now);
    p.onEvent(stage());
    clock.t += 4999;
    p.onEvent(progress(4999));
    expect(sink.writes).toHaveLength(1);
    clock.t += 1;
    p.onEvent(progress(5000));
    expect(sink.writes).toHaveLength(2);
  });

  it('lines are written as they come, and finish writes nothing', () => {
    const sink = new FakeSink(false);
    const p = new Progress(sink, new FakeClock().now);
    p.line('hello');
    p.finish();
    expect(sink.writes).toEqual(['hello\n']);
  });

  it('honours a custom interval', () => {
    const sink = new FakeSink(false);
    const clock = new FakeClock();
    const p = new Progress(sink, clock.now, 1000);
    p.onEvent(stage());
    clock.t = 1000;
    p.onEvent(progress(1000));
    expect(sink.writes).toHaveLength(2);
  });
});

describe('Progress under GitHub Actions: a log group per scenario/phase', () => {
  it('opens a group at each new scenario/phase, closes the last on finish, keeps trials in one group', () => {
    const sink = Object.assign(new FakeSink(false), { groups: true });
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage({ stage: 'warmup', trial: 1 }));
    p.onEvent(stage({ trial: 1 }));
    p.onEvent(stage({ trial: 2 }));
    p.line('[perf-gate] warning: slow');
    p.onEvent(stage({ phase: 'n2k', trial: 1 }));
    p.onEvent(stage({ scenario: 'checkout', phase: 'c10', trial: 1 }));
    p.finish();
    const text = sink.writes.join('');
    expect(text.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::group::perf-gate search/c10',
      '::endgroup::',
      '::group::perf-gate search/n2k',
      '::endgroup::',
      '::group::perf-gate checkout/c10',
      '::endgroup::',
    ]);
    // every workflow command starts a line
    expect(text).not.toMatch(/[^\n]::(group|endgroup)/);
    expect(text.indexOf('warning: slow')).toBeLessThan(text.indexOf('::group::perf-gate search/n2k'));
  });

  it('no groups outside GitHub Actions, and finish without a stage writes nothing', () => {
    const sink = new FakeSink(false);
    const p = new Progress(sink, new FakeClock().now);
    p.onEvent(stage());
    p.finish();
    expect(sink.writes.join('')).not.toContain('::');
    const idle = Object.assign(new FakeSink(false), { groups: true });
    new Progress(idle).finish();
    expect(idle.writes).toEqual([]);
  });

  it('progressSink turns groups on under GITHUB_ACTIONS only', () => {
    expect(progressSink({ write: () => true }, { GITHUB_ACTIONS: 'true' }).groups).toBe(true);
    expect(progressSink({ write: () => true }, {}).groups).toBe(false);
  });
});

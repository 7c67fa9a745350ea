// Open file descriptors from a /proc tree: a fake tree in a temp dir, and this process's own /proc.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLocalProcess, openFds } from '../../src/docker/fds.js';
import { combineUsage, usageInWindow, type StatsSample } from '../../src/stats/resources.js';
import { metricValue, unmeasured } from '../../src/compare/metrics.js';
import { compareAbScenario } from '../../src/compare/ab.js';
import { compareScenario } from '../../src/compare/compare.js';
import { merged, phase, resultsFile, steadyPhase, usage10 } from './fixtures.js';

/** /proc/<pid>/{fd/*, task/<pid>/children, cgroup} for a tree of processes */
function fakeProc(tree: Record<number, { fds: number; children?: number[]; cgroup?: string }>): string {
  const root = mkdtempSync(join(tmpdir(), 'perf-gate-proc-'));
  for (const [pid, p] of Object.entries(tree)) {
    mkdirSync(join(root, pid, 'fd'), { recursive: true });
    for (let i = 0; i < p.fds; i++) writeFileSync(join(root, pid, 'fd', String(i)), '');
    mkdirSync(join(root, pid, 'task', pid), { recursive: true });
    writeFileSync(join(root, pid, 'task', pid, 'children'), (p.children ?? []).join(' '));
    writeFileSync(join(root, pid, 'cgroup'), p.cgroup ?? '0::/system.slice/docker-abc123.scope\n');
  }
  return root;
}

describe('openFds', () => {
  it('counts the process and its descendants', () => {
    const proc = fakeProc({
      10: { fds: 5, children: [11, 12] },
      11: { fds: 3, children: [13] },
      12: { fds: 2 },
      13: { fds: 1 },
    });
    expect(openFds(10, proc)).toBe(11);
    expect(openFds(11, proc)).toBe(4);
  });

  it('a child that exited between reads is skipped; an unreadable root process is undefined', () => {
    const proc = fakeProc({ 10: { fds: 5, children: [99] } });
    expect(openFds(10, proc)).toBe(5);
    expect(openFds(42, proc)).toBeUndefined();
  });

  it('a cycle in the children lists ends', () => {
    const proc = fakeProc({ 10: { fds: 1, children: [11] }, 11: { fds: 1, children: [10] } });
    expect(openFds(10, proc)).toBe(2);
  });

  it('reads this very process from the real /proc', () => {
    expect(openFds(process.pid)).toBeGreaterThan(2);
  });
});

describe('isLocalProcess', () => {
  it.each<[string, number, string, boolean]>([
    ['its cgroup names the container', 10, 'abc123', true],
    ['another container', 10, 'def456', false],
    ['no such process', 77, 'abc123', false],
    ['pid 0 (not running)', 0, 'abc123', false],
  ])('%s', (_label, pid, id, local) => {
    const proc = fakeProc({ 10: { fds: 1 } });
    expect(isLocalProcess(pid, id, proc)).toBe(local);
  });
});

describe('fds in resource usage and the gate', () => {
  const s = (at: number, fds?: number): StatsSample => ({
    at,
    cpuPct: 1,
    memoryBytes: 1,
    rxBytes: 0,
    txBytes: 0,
    ...(fds === undefined ? {} : { fds }),
  });

  it('the window keeps the peak when every sample has fds, none otherwise', () => {
    expect(usageInWindow([s(1, 10), s(2, 40), s(3, 20)], 0, 10).fdsPeak).toBe(40);
    expect(usageInWindow([s(1, 10), s(2)], 0, 10).fdsPeak).toBeUndefined();
    expect(usageInWindow([], 0, 10).fdsPeak).toBeUndefined();
  });

  it('trials combine to the highest peak, or none if any trial lacks it', () => {
    expect(combineUsage([usage10({ fdsPeak: 5 }), usage10({ fdsPeak: 9 })]).fdsPeak).toBe(9);
    expect(combineUsage([usage10({ fdsPeak: 5 }), usage10()]).fdsPeak).toBeUndefined();
  });

  it('the metric sums SUT containers (not the runner); unsampled is said, not zero', () => {
    const m = merged(
      {
        resources: {
          api: usage10({ fdsPeak: 30 }),
          db: usage10({ fdsPeak: 12 }),
          'perf-gate-runner': usage10({ fdsPeak: 99 }),
        },
      },
      1,
    );
    expect(metricValue(m, 'fds')).toBe(42);
    expect(unmeasured(m, 'fds')).toBeUndefined();
    const remote = merged({ resources: { api: usage10() } }, 1);
    expect(unmeasured(remote, 'fds')).toMatch(/^open file descriptors were not sampled/);
    expect(unmeasured(merged({}, 1), 'fds')).toMatch(/not sampled/);
  });
});

describe('fds in the gate', () => {
  const sc = (fdsPeak?: number) => ({
    name: 'broker',
    scenarioHash: 'h',
    // five trials alike a side: a change beyond the band is confirmed (p = 1/252)
    phases: [steadyPhase('c10', { resources: { api: usage10(fdsPeak === undefined ? {} : { fdsPeak }) } })],
  });
  const baselineOf = (fdsPeak?: number) => ({
    schema: 'perf-gate/baseline@1' as const,
    scenario: 'broker',
    scenarioHash: 'h',
    provenance: resultsFile([], []).provenance,
    phases: sc(fdsPeak).phases,
  });

  it.each<[string, number | undefined, number | undefined, string, string | undefined]>([
    ['sampled both times, within the band', 100, 110, 'pass', undefined],
    ['sampled both times, beyond the band', 100, 200, 'regression', undefined],
    ['not sampled now (a remote engine)', 100, undefined, 'invalid', 'open file descriptors were not sampled'],
    ['not sampled in the baseline', undefined, 100, 'invalid', 'the baseline: open file descriptors were not sampled'],
  ])('%s', (_label, before, now, result, reason) => {
    const [row] = compareScenario(sc(now), { fds: { regress: 0.2 } }, baselineOf(before)).comparisons;
    expect(row?.result).toBe(result);
    if (reason) expect(row?.reason).toContain(reason);
    else expect(row?.reason).toBeUndefined();
  });
});

describe('fds in A/B', () => {
  const side = (fdsPeak?: number) => ({
    name: 'broker',
    scenarioHash: 'h',
    phases: [phase('c10', { resources: { api: usage10(fdsPeak === undefined ? {} : { fdsPeak }) } }, [{}, {}, {}])],
  });

  it('an unsampled side is an invalid row that says fds were not sampled (not a latency reason)', () => {
    const [row] = compareAbScenario(side(), side(10), { fds: { regress: 0.2 } });
    expect(row?.result).toBe('invalid');
    expect(row?.reason).toMatch(/^open file descriptors were not sampled/);
  });
});

// The Action's input history-branch: the history kept on a branch of its own, with a real git
// repository and fakes for the rest.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type ActionDeps } from '../../src/action/main.js';
import type { RunOptions, RunOutcome } from '../../src/run/contract.js';
import { comparison } from './fixtures.js';
import { outcome, harness, warnings, repo } from './action-harness.js';

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

// A flow on the real engine (issue 34): each iteration creates an order from the next data row, then
// reads it back by the id the create answered; the read's checks hold the created object, rendered per
// iteration. Each step has its own results, and the iteration has its own, beside the phase's. An open
// loop of iterations keeps the open-loop rule: a stall in the second step is that step's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { type CliResult, dockerAvailable, leftovers, runFresh, runIdOf } from './helpers.js';

const CONFIG = 'fixtures/tests/flow/perf-gate.yml';

describe.runIf(dockerAvailable())('flow: create, then read back what was created', () => {
  let run: { r: CliResult; out: string; baselines: string };

  beforeAll(async () => {
    run = await runFresh(CONFIG, 'update');
    if (run.r.code !== 0) throw new Error(`perf-gate run failed (${run.r.code}):\n${run.r.stdout}\n${run.r.stderr}`);
  }, 300_000);

  afterAll(() => {
    if (run) expect(leftovers(runIdOf(run.r.stderr))).toEqual([]);
  });

  it('every read returned the order its iteration created; the steps and the iteration each have results', () => {
    const results = JSON.parse(readFileSync(join(run.out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const phase = (name: string) => results.scenarios[0]!.phases.find((p) => p.name === name)!.merged;
    const create = phase('c4.create');
    const read = phase('c4.read');
    const iteration = phase('c4.iteration');
    expect(create.statusCodes).toEqual({ '201': create.responses });
    expect(create.failures).toBe(0);
    // 400 requests over 4 connections: at most one iteration per connection is cut short
    expect(create.responses + read.responses).toBe(400);
    expect(read.responses).toBeGreaterThanOrEqual(196);
    expect(read.statusCodes).toEqual({ '200': read.responses });
    expect(read.failures).toBe(0);
    expect(iteration.successes).toBe(read.responses);
    expect(iteration.latency.p50).toBeGreaterThan(read.latency.p50);
    expect(phase('c4').responses).toBe(400);
  });

  it('open loop: a 1 s stall in every 10th read shows in the read’s p99 and the iteration’s, not the create’s', () => {
    const results = JSON.parse(readFileSync(join(run.out, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
    const phase = (name: string) => results.scenarios[1]!.phases.find((p) => p.name === name)!.merged;
    expect(phase('r50.create').successes).toBe(100);
    expect(phase('r50.read').successes).toBe(100);
    expect(phase('r50.iteration').successes).toBe(100);
    expect(phase('r50.read').latency.p99).toBeGreaterThanOrEqual(1_000_000);
    expect(phase('r50.iteration').latency.p99).toBeGreaterThanOrEqual(1_000_000);
    expect(phase('r50.create').latency.p99).toBeLessThan(200_000);
  });
});

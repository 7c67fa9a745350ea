// User mistakes and environment faults: one clear line, the spec's exit code, never a stack trace.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);

describe('CLI errors', () => {
  it('rejects an invalid config with one line per problem and exit 2', async () => {
    const r = await runCli(['validate', '--config', 'fixtures/tests/bad/perf-gate.yml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('sut.colour: unknown key');
    expect(r.stderr).toContain('scenarios[0].name: must be a name of [a-z0-9_-]+');
    expect(r.stderr).toContain('scenarios[0].phases[1].rate: must be a positive number');
    expect(r.stderr).toContain('scenarios[0].phases[2].duration: must be a duration like 500ms, 30s or 2m');
    noStack(r.stderr);
  });

  it('names a missing config file, exit 2', async () => {
    const r = await runCli(['run', '--config', 'fixtures/nope/perf-gate.yml']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('perf-gate: config file fixtures/nope/perf-gate.yml: not found');
  });

  it('validates the quickstart config', async () => {
    const r = await runCli(['validate', '--config', 'fixtures/quickstart/perf-gate.yml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('valid (1 scenario, 2 phases)');
  });

  it.each([
    [['frobnicate'], 'unknown command frobnicate'],
    [
      ['run', '--mode', 'turbo', '--config', 'fixtures/quickstart/perf-gate.yml'],
      '--mode turbo: must be auto, gate, update, sweep or ab',
    ],
    [['run', '--bogus'], "Unknown option '--bogus'"],
    [
      ['run', '--mode', 'ab', '--config', 'fixtures/quickstart/perf-gate.yml'],
      'mode ab needs a base to compare with: --base REF',
    ],
    [
      ['run', '--mode', 'ab', '--base', 'HEAD', '--pairs', '1', '--config', 'fixtures/quickstart/perf-gate.yml'],
      '--pairs 1: must be an integer from 2 to 50',
    ],
    [
      ['run', '--config', 'fixtures/quickstart/perf-gate.yml', '--scenario', 'nope'],
      '--scenario nope: no such scenario',
    ],
  ])('usage error %j → exit 2', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    noStack(r.stderr);
  });

  it('an unreachable Docker engine is exit 3 with one line', async () => {
    const r = await runCli(
      ['run', '--config', 'fixtures/quickstart/perf-gate.yml', '--mode', 'update', '--out', '/tmp'],
      {
        DOCKER_HOST: 'unix:///nonexistent/perf-gate-test.sock',
      },
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^perf-gate: Docker engine unreachable at unix:\/\/\/nonexistent\/perf-gate-test\.sock: /m,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  describe('files that are not ours', () => {
    const dir = tempDir();
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const corrupt = file('corrupt.json', '{ "schema": "perf-gate/baseline@1", ');
    const otherSchema = file('old.json', JSON.stringify({ schema: 'perf-gate/baseline@0', phases: [] }));
    const notResults = file('package.json', JSON.stringify({ name: 'x' }));
    const results = file(
      'results.json',
      JSON.stringify({ schema: 'perf-gate/results@1', scenarios: [], comparisons: [] }),
    );

    it.each([
      [['compare', corrupt, results], `baseline ${corrupt}: not valid JSON`],
      [
        ['compare', otherSchema, results],
        `baseline ${otherSchema}: schema perf-gate/baseline@0 is not perf-gate/baseline@1`,
      ],
      [['compare', join(dir, 'missing.json'), results], `baseline ${join(dir, 'missing.json')}: not found`],
      [['report', notResults], `results file ${notResults}: not a perf-gate results file (schema (none))`],
      [['report', results, '--format', 'html'], '--format html: must be md, json, junit or csv'],
    ])('%j → exit 2, one line', async (args, message) => {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`perf-gate: ${message}`);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  });
});

// User mistakes and environment faults: one clear line, the spec's exit code, never a stack trace.
import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers.js';

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);

describe('CLI errors', () => {
  it('rejects an invalid config with one line per problem and exit 2', async () => {
    const r = await runCli(['validate', '--config', 'fixtures/tests/bad/perf-gate.yml']);
    expect(r.code).toBe(2);
    // each problem at its key's line and column in the file (issue 21)
    const f = 'fixtures/tests/bad/perf-gate.yml';
    expect(r.stderr.split('\n')).toEqual([
      `perf-gate: ${f}: 5 problems in the config`,
      `  ${f}:4:3: sut.colour: unknown key (keys here: compose, services, build, env, orchestrator, ready, profile, perf-image)`,
      `  ${f}:6:5: scenarios[0].name: must be a name of [a-z0-9_-]+`,
      `  ${f}:7:16: scenarios[0].request.url: must be an http:// or https:// URL (or, with target, a path such as /api/items)`,
      `  ${f}:10:11: scenarios[0].phases[1].rate: must be a number above 0 and at most 1,000,000`,
      `  ${f}:11:27: scenarios[0].phases[2].duration: must be a duration like 500ms, 30s, 2m or 1m30s`,
      '',
    ]);
    noStack(r.stderr);
  });

  // issue 31: each was an internal error, a silent choice or a silent success
  it.each<[string, string[], number, string]>([
    [
      'schema --out into a directory that does not exist',
      ['schema', '--out', '/nonexistent/dir/x.json'],
      2,
      'perf-gate: --out /nonexistent/dir/x.json: cannot be written (ENOENT)',
    ],
    [
      'validate --config A B',
      ['validate', '--config', 'a.yml', 'b.yml'],
      2,
      'perf-gate: validate takes one config: --config a.yml or b.yml, not both',
    ],
    [
      'validate -',
      ['validate', '-'],
      2,
      'perf-gate: validate -: a config from standard input is not read; give its file',
    ],
  ])('%s: one line, exit %i', async (_label, args, code, line) => {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr.trim()).toBe(line);
  });

  it('init --path with a space: exit 2 naming it, not an internal error', () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'fixtures/init/no-healthcheck'), dir, { recursive: true });
    const r = spawnSync('node', [join(ROOT, 'dist/cli.js'), 'init', '--yes', '--path', '/a b'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'perf-gate: --path "/a b": not a request path (no spaces, control characters or #; percent-encode them: /a%20b)',
    );
    expect(existsSync(join(dir, 'perf-gate.yml'))).toBe(false);
  });

  it('a standard output that cannot be written (/dev/full) fails the command (exit 3); a closed pipe does not', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync('node', [join(ROOT, 'dist/cli.js'), 'schema'], {
        stdio: ['ignore', full, 'pipe'],
        encoding: 'utf8',
      });
      expect(r.status).toBe(3);
      expect(r.stderr.trim()).toBe('perf-gate: standard output could not be written (ENOSPC)');
    } finally {
      closeSync(full);
    }
    const piped = spawnSync(
      'bash',
      ['-c', `node ${join(ROOT, 'dist/cli.js')} schema | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`],
      {
        encoding: 'utf8',
      },
    );
    expect(piped.stdout.trim()).toBe('0');
  });

  it('validate: one line per mode; exit 2 where the mode pull requests run would refuse (issues 35, 47)', async () => {
    const f = 'fixtures/tests/scrub/perf-gate.yml';
    // gate.against: baselines, so pull requests run the gate, which trials: 1 can never fail
    const plain = await runCli(['validate', f]);
    expect(plain.code).toBe(2);
    expect(plain.stderr.split('\n')[0]).toBe(
      `perf-gate: ${f}: refused for pull requests (--mode gate, gate.against: baselines): the gate could never fail on a change`,
    );
    expect(plain.stderr.split('\n')[1]).toMatch(
      /^ {2}scenarios\[0\]\.trials \(1\) .* or make the bands information: gate: \{ bands: inform \}/,
    );
    // the other modes, one line each, where they are asked for
    const ab = await runCli(['validate', '--mode', 'ab', f]);
    expect(ab.code, ab.stderr).toBe(0);
    expect(ab.stdout.split('\n').slice(0, 2)).toEqual([
      `${f}: valid (1 scenario, 1 phase)`,
      '  ab: valid: 3 rows judged; at most 1% of unchanged runs raise a band alarm (gate.run-alpha 0.01 over 1 gated phase, the rows of a phase tested together); measuring about 6 s (3 s where every phase stops at its early look, at most 12 s where a change is confirmed to its cap), plus booting; on a busy machine up to 12 s more, 24 s at the cap (gate.busy repeats a trial taken beside other work, up to 24 a run, 48 at the cap)',
    ]);
    const gate = await runCli(['validate', '--mode', 'gate', f]);
    expect(gate.code).toBe(2);
    expect(gate.stderr.split('\n')[0]).toBe(
      `perf-gate: ${f}: refused for --mode gate: the gate could never fail on a change`,
    );
    const update = await runCli(['validate', '--mode', 'update', f]);
    expect(update.code).toBe(0);
    expect(update.stdout.split('\n')[1]).toBe(
      '  update: valid: records baselines/ (scheduled refresh); measuring about 1 s, plus booting; on a busy machine up to 5 s more (gate.busy repeats a trial taken beside other work, up to 10 a run)',
    );
  });

  it('validate FILE reads FILE (it used to read perf-gate.yml whatever it was given)', async () => {
    const ok = await runCli(['validate', 'fixtures/quickstart/perf-gate.yml']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('fixtures/quickstart/perf-gate.yml: valid (1 scenario, 2 phases)');
    const bad = await runCli(['validate', 'fixtures/tests/bad/perf-gate.yml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('fixtures/tests/bad/perf-gate.yml: 5 problems in the config');
  });

  it('names a missing config file, exit 2', async () => {
    const r = await runCli(['run', '--config', 'fixtures/nope/perf-gate.yml']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('perf-gate: config file fixtures/nope/perf-gate.yml: not found');
  });

  it('init --yes in a fixture repository writes both files without asking, and validate takes the config', () => {
    const dir = tempDir();
    cpSync(join(ROOT, 'fixtures/init/no-healthcheck'), dir, { recursive: true });
    const cli = join(ROOT, 'dist/cli.js');
    const init = spawnSync('node', [cli, 'init', '--yes'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain('wrote perf-gate.yml (1 scenario: app http) and .github/workflows/perf-gate.yml');
    expect(existsSync(join(dir, '.github/workflows/perf-gate.yml'))).toBe(true);
    const validate = spawnSync('node', [cli, 'validate'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GITHUB_WORKSPACE: dir },
    });
    expect(validate.status, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('perf-gate.yml: valid (1 scenario, 1 phase)');
    const again = spawnSync('node', [cli, 'init', '--yes'], { cwd: dir, encoding: 'utf8' });
    expect(again.status).toBe(2);
    expect(again.stderr).toBe('perf-gate: perf-gate.yml exists; perf-gate init writes it only with --force\n');
  });

  it('validates the quickstart config', async () => {
    const r = await runCli(['validate', '--config', 'fixtures/quickstart/perf-gate.yml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('valid (1 scenario, 2 phases)');
  });

  it.each([
    [['frobnicate'], 'perf-gate: unknown command frobnicate\n'],
    [['valdate'], 'perf-gate: unknown command valdate (did you mean validate?)\n'],
    [['run', '--confg', 'x.yml'], 'perf-gate: unknown option --confg for perf-gate run (did you mean --config?)\n'],
    [['run', '--config'], 'perf-gate: --config needs a value (FILE)\n'],
    [['run', '--fail-on-inconclusive=yes'], 'perf-gate: --fail-on-inconclusive takes no value\n'],
    [
      ['run', 'perf-gate.yml'],
      'takes no arguments, only options: perf-gate.yml (did you mean --config perf-gate.yml?)',
    ],
    [
      ['run', '--mode', 'turbo', '--config', 'fixtures/quickstart/perf-gate.yml'],
      '--mode turbo: must be auto, gate, ab, update or sweep',
    ],
    [['run', '--bogus'], 'perf-gate: unknown option --bogus for perf-gate run (options: --config, --mode, '],
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
    [
      ['run', '--config', 'fixtures/quickstart/perf-gate.yml', '--out', 'package.json'],
      '--out package.json: not a directory',
    ],
    // a file on the way to --out: refused before anything runs, not after the load (ENOTDIR)
    [
      ['run', '--config', 'fixtures/quickstart/perf-gate.yml', '--out', 'package.json/sub/dir'],
      '--out package.json/sub/dir: package.json is a file, not a directory',
    ],
    // every output path, at any depth, before anything boots
    [
      ['run', '--config', 'fixtures/quickstart/perf-gate.yml', '--baseline-dir', 'package.json/b'],
      '--baseline-dir package.json/b: package.json is a file, not a directory',
    ],
    [
      ['run', '--config', 'fixtures/quickstart/perf-gate.yml', '--junit', 'package.json/deep/j.xml'],
      '--junit package.json/deep/j.xml: package.json is a file, not a directory',
    ],
    [
      ['run', '--config', 'fixtures/quickstart/perf-gate.yml', '--history', 'docs'],
      '--history docs: a directory, not a file',
    ],
    [
      [
        'run',
        '--config',
        'fixtures/quickstart/perf-gate.yml',
        '--out-format',
        'csv=package.json/x.csv',
        '--csv',
        'src',
      ],
      '2 output paths cannot be written',
    ],
  ])('usage error %j → exit 2', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    noStack(r.stderr);
  });

  describe('validate refuses what run refuses', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'docker-compose.yml'), 'services:\n  api:\n    image: x\n');
    const config = (extra: string) => {
      const path = join(dir, `c${Math.random().toString(16).slice(2)}.yml`);
      writeFileSync(
        path,
        `version: 1\nsut: { compose: docker-compose.yml }\nscenarios:\n  - name: a\n    request: { url: http://api:8080/, bodies: ${extra} }\n    phases: [{ connections: 1, duration: 1s }]\n`,
      );
      return path;
    };
    writeFileSync(join(dir, 'bad.jsonl'), '{"q": 1}\nnot json\n');
    writeFileSync(join(dir, 'empty.jsonl'), '\n\n');

    it.each([
      ['bad.jsonl', /bodies file .*bad\.jsonl:2/],
      ['empty.jsonl', /bodies file .*empty\.jsonl: no bodies/],
    ])('a bodies file %s: exit 2 naming it', async (file, message) => {
      const r = await runCli(['validate', '--config', config(file)], { GITHUB_WORKSPACE: dir });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      noStack(r.stderr);
    });

    it('a YAML alias bomb: exit 2 naming YAML, not an internal error', async () => {
      const path = join(dir, 'bomb.yml');
      const lines = ['a: &a [x, x, x, x, x, x, x, x, x]'];
      for (const [i, k] of [...'bcdefghi'].entries())
        lines.push(`${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`);
      writeFileSync(path, `${lines.join('\n')}\n`);
      const r = await runCli(['validate', '--config', path], { GITHUB_WORKSPACE: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('YAML: Excessive alias count indicates a resource exhaustion attack');
      noStack(r.stderr);
    });
  });

  it('piped output is never cut: the whole schema through a pipe', async () => {
    const full = (await runCli(['schema'])).stdout;
    expect(full.length).toBeGreaterThan(100_000);
    // a slow reader: the pipe fills, and the CLI must not exit before it drained
    const r = spawnSync('sh', ['-c', `node dist/cli.js schema | (sleep 1; wc -c)`], { encoding: 'utf8', cwd: ROOT });
    expect(Number(r.stdout.trim())).toBe(Buffer.byteLength(full));
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
      [
        ['report', results, '--format', 'xlsx'],
        '--format xlsx: must be one of results, markdown, md, json, junit, csv, history, terminal, text, html',
      ],
    ])('%j → exit 2, one line', async (args, message) => {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`perf-gate: ${message}`);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  });
});

// The CLI explains itself: per-command --help with every option described, --version, exit 0.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('CLI help and version', () => {
  it.each([['--version'], ['-v'], ['version']])('%s prints the package version', async (flag) => {
    const r = await runCli([flag]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`perf-gate ${pkg.version}\n`);
  });

  it.each([
    [
      'run',
      [
        '--config FILE',
        '--mode MODE',
        '--scenario NAME',
        '--baseline-dir DIR',
        '--out DIR',
        '--runner-image IMAGE',
        '--base REF',
        '--pairs N',
        '--junit FILE',
        '--csv FILE',
      ],
    ],
    ['validate', ['--config FILE']],
    ['compare', []],
    ['report', ['--format FORMAT']],
    ['history', ['--append RESULTS.json']],
    ['schema', ['--out FILE']],
  ])('%s --help describes every option and exits 0', async (command, flags) => {
    for (const args of [
      [command, '--help'],
      [command, '-h'],
      ['help', command],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(new RegExp(`^usage: perf-gate ${command}`));
      for (const flag of flags)
        expect(r.stdout).toMatch(new RegExp(`^  ${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+\\S`, 'm'));
    }
  });

  it('--help runs nothing, even with other options', async () => {
    const r = await runCli(['run', '--config', 'fixtures/nope.yml', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('usage: perf-gate run');
  });

  it('no command prints the usage and exits 2; --help prints it and exits 0', async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('perf-gate COMMAND --help');
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(none.stdout);
  });
});

// `npx perf-gate` for someone who has Docker and Node and nothing of ours: the package as npm packs
// it installs with no registry (the bundles carry every dependency, so it declares none) and its
// `perf-gate` command validates the quickstart's config.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers.js';

const npm = (args: string[], cwd: string) =>
  spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('the npm package', () => {
  it('declares no runtime dependencies: dist/ bundles them all', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.bin).toEqual({ 'perf-gate': 'dist/cli.js' });
  });

  it('installs from its tarball without a registry, and `perf-gate validate` reads the quickstart', () => {
    const dir = tempDir('perf-gate-pack-');
    const pack = npm(['pack', '--pack-destination', dir], ROOT);
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz')) as string;
    const project = join(dir, 'project');
    cpSync(join(ROOT, 'fixtures/quickstart'), join(project, 'perf'), { recursive: true });
    expect(npm(['init', '-y'], project).status).toBe(0);
    const install = npm(['install', '--offline', join(dir, tarball)], project);
    expect(install.status, install.stderr).toBe(0);
    const bin = join(project, 'node_modules/.bin/perf-gate');
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    expect(version.stdout).toMatch(/^perf-gate \d+\.\d+\.\d+/);
    const validate = spawnSync(bin, ['validate', 'perf/perf-gate.yml'], { cwd: project, encoding: 'utf8' });
    expect(validate.status, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('perf/perf-gate.yml: valid');
  }, 180_000);
});

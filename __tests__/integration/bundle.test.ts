// dist/ is committed: it must match a fresh build, and each bundle must load (dockerode's optional
// native ssh dependencies must not break the import).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers.js';

describe('bundle', () => {
  it('dist/ matches a fresh build of the sources', () => {
    const fresh = tempDir('perf-gate-dist-');
    const b = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), fresh], { encoding: 'utf8' });
    expect(b.status, b.stderr).toBe(0);
    const names = readdirSync(fresh).sort();
    expect(readdirSync(join(ROOT, 'dist')).sort()).toEqual(names);
    for (const name of names) {
      const same = readFileSync(join(fresh, name)).equals(readFileSync(join(ROOT, 'dist', name)));
      expect(same, `dist/${name} is stale: run npm run build and commit dist/`).toBe(true);
    }
  }, 120_000);

  it('the shipped JSON Schema matches `perf-gate schema`', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'schema'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(readFileSync(join(ROOT, 'schema/perf-gate.schema.json'), 'utf8')).toBe(r.stdout);
    const schema = JSON.parse(r.stdout);
    expect(schema.additionalProperties).toBe(false);
    // sut or target: exactly one of them, as the validator says; a oneOf of the two requireds only,
    // so an error inside sut is still reported against sut's own schema
    expect(schema.required).toEqual(['version', 'scenarios']);
    expect(schema.oneOf).toEqual([{ required: ['sut'] }, { required: ['target'] }]);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['sut', 'target']));
  });

  it('the CLI bundle imports dockerode cleanly', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), '--help'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('perf-gate run');
  });

  it('the post entry loads and does nothing without state', () => {
    const env = { ...process.env };
    delete env.STATE_run_id;
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/action-post.js')], { encoding: 'utf8', env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('the runner bundle loads and reports a usage fault as an event', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/runner.mjs')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('@@perf-gate {"t":"fatal","message":"usage: runner.mjs PLAN.json [--all]"}');
  });
});

// This repository's workflows and every workflow recipe in the README pass actionlint, name what
// they refer to, and the README documents every input of action.yml.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionlintPath } from './fixtures.js';

const ROOT = resolve(import.meta.dirname, '../..');
const WORKFLOWS = join(ROOT, '.github/workflows');

/** The README's ```yaml blocks that are whole workflows (they have `on:` and `jobs:`). */
function readmeWorkflows(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] as string)
    .filter((y) => /^on:/m.test(y) && /^jobs:/m.test(y));
}

const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml'));
const lint = actionlintPath();

describe('workflows', () => {
  it('the repository has ci, check-dist, perf (dogfood), perf-report and release workflows', () => {
    expect(files.sort()).toEqual(['check-dist.yml', 'ci.yml', 'dogfood.yml', 'perf-report.yml', 'release.yml']);
  });

  it('the README has the recipes: PR gate, refresh, sweep, and the two halves of the fork flow', () => {
    const names = readmeWorkflows().map((y) => (parse(y) as { name?: string }).name);
    expect(names).toEqual(['perf', 'perf-baselines', 'perf-sweep', 'perf', 'perf-report']);
  });

  it.runIf(lint || process.env.CI)('actionlint passes on .github/workflows and on every README recipe', () => {
    expect(lint, 'actionlint is needed in CI: bash scripts/provision-test-tools.sh').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-readme-workflows-'));
    const recipes = readmeWorkflows().map((y, i) => {
      const file = join(dir, `readme-${i}.yml`);
      writeFileSync(file, y);
      return file;
    });
    const r = spawnSync(lint as string, ['-color=false', ...files.map((f) => join(WORKFLOWS, f)), ...recipes], {
      encoding: 'utf8',
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.runIf(lint || process.env.CI)('actionlint is not a no-op: it rejects a broken workflow', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-bad-workflow-'));
    const bad = join(dir, 'bad.yml');
    writeFileSync(
      bad,
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n',
    );
    const r = spawnSync(lint as string, ['-color=false', bad], { encoding: 'utf8' });
    expect(r.status).toBe(1);
  });

  it('every workflow_run trigger names a workflow that exists (in the repository, and in the README)', () => {
    const own = files.map((f) => parse(readFileSync(join(WORKFLOWS, f), 'utf8')) as { name: string; on: unknown });
    const readme = readmeWorkflows().map((y) => parse(y) as { name: string; on: unknown });
    for (const set of [own, readme]) {
      const names = new Set(set.map((w) => w.name));
      for (const w of set) {
        const on = w.on as { workflow_run?: { workflows: string[] } };
        for (const target of on.workflow_run?.workflows ?? []) expect(names, `${w.name} → ${target}`).toContain(target);
      }
    }
  });

  it('the trusted report jobs check out no pull request code', () => {
    const report = readFileSync(join(WORKFLOWS, 'perf-report.yml'), 'utf8');
    expect(report).not.toMatch(/head_sha|head_branch|pull_request\.head|refs\/pull/);
    expect(readmeWorkflows()[4]).not.toMatch(/actions\/checkout/);
  });

  it('the README documents every input of action.yml', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /- uses: your-org\/perf-gate@v0 {3}# this repository\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    for (const input of Object.keys(action.inputs)) expect(block, input).toMatch(new RegExp(`^    ${input}:`, 'm'));
  });
});

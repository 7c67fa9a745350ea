// This repository's workflows and every workflow recipe in the documentation (the README's Action in
// ten lines, docs/action.md's recipes, the cookbook's) pass actionlint, name what they refer to, and docs/action.md
// documents every input and output of action.yml.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { actionlintPath } from './fixtures.js';

const ROOT = resolve(import.meta.dirname, '../..');
const WORKFLOWS = join(ROOT, '.github/workflows');

/** The ```yaml blocks of a Markdown file that are whole workflows (they have `on:` and `jobs:`). */
function docWorkflows(file: string): string[] {
  const doc = readFileSync(join(ROOT, file), 'utf8');
  return [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] as string)
    .filter((y) => /^on:/m.test(y) && /^jobs:/m.test(y));
}
/** The Action's reference, with the workflow recipes. */
const ACTION_DOC = 'docs/action.md';
const recipes = (): string[] => docWorkflows(ACTION_DOC);
/** Every workflow the documentation shows: the README's, docs/action.md's, then the cookbook's. */
const documented = (): string[] => [...docWorkflows('README.md'), ...recipes(), ...docWorkflows('docs/cookbook.md')];

const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml'));
const lint = actionlintPath();

describe('workflows', () => {
  it('the repository has ci, check-dist, perf (dogfood), perf-report and release workflows', () => {
    expect(files.sort()).toEqual(['check-dist.yml', 'ci.yml', 'dogfood.yml', 'perf-report.yml', 'release.yml']);
  });

  it('docs/action.md has the recipes: PR gate, refresh, sweep, and the two halves of the fork flow', () => {
    const names = recipes().map((y) => (parse(y) as { name?: string }).name);
    expect(names).toEqual(['perf', 'perf-baselines', 'perf-sweep', 'perf', 'perf-report']);
  });

  it("the cookbook's refresh and fork flow are docs/action.md's", () => {
    const named = (ys: string[]) => new Map(ys.map((y) => [(parse(y) as { name?: string }).name, parse(y)]));
    const cookbook = named(docWorkflows('docs/cookbook.md'));
    const action = recipes().map((y) => parse(y) as { name?: string });
    // docs/action.md shows the PR gate as `perf` too: its fork flow's `perf` is the one before perf-report
    const fork = action.slice(-2);
    expect(fork.map((w) => w.name)).toEqual(['perf', 'perf-report']);
    expect(cookbook.get('perf-report')).toEqual(fork[1]);
    const [forkRun] = docWorkflows('docs/cookbook.md').filter((y) => y.includes('upload-artifact'));
    expect(parse(forkRun as string)).toEqual(fork[0]);
    const refresh = (w: unknown) =>
      (w as { jobs: { refresh: { steps: Array<{ uses?: string }> } } }).jobs.refresh.steps.find((st) =>
        st.uses?.startsWith('peter-evans/create-pull-request'),
      );
    expect(refresh(cookbook.get('perf-baselines'))).toEqual(refresh(action.find((w) => w.name === 'perf-baselines')));
  });

  it("the README's Action in ten lines is the PR gate recipe, as a whole workflow", () => {
    const readme = docWorkflows('README.md');
    expect(readme.map((y) => (parse(y) as { name?: string }).name)).toEqual(['perf']);
    expect(parse(readme[0] as string)).toEqual(parse(recipes()[0] as string));
  });

  it.runIf(lint || process.env.CI)('actionlint passes on .github/workflows and on every documented workflow', () => {
    expect(lint, 'actionlint is needed in CI: bash scripts/provision-test-tools.sh').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-doc-workflows-'));
    const shown = documented().map((y, i) => {
      const file = join(dir, `doc-${i}.yml`);
      writeFileSync(file, y);
      return file;
    });
    expect(shown).toHaveLength(11);
    const r = spawnSync(lint as string, ['-color=false', ...files.map((f) => join(WORKFLOWS, f)), ...shown], {
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

  it('every workflow_run trigger names a workflow that exists (in the repository, and in docs/action.md)', () => {
    const own = files.map((f) => parse(readFileSync(join(WORKFLOWS, f), 'utf8')) as { name: string; on: unknown });
    const doc = recipes().map((y) => parse(y) as { name: string; on: unknown });
    for (const set of [own, doc]) {
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
    expect(recipes()[4]).not.toMatch(/actions\/checkout/);
  });

  it('docs/action.md documents every input of action.yml', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const doc = readFileSync(join(ROOT, ACTION_DOC), 'utf8');
    const block = /- uses: perf-gate\/perf-gate@v0 {3}# this repository\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    for (const input of Object.keys(action.inputs)) expect(block, input).toMatch(new RegExp(`^    ${input}:`, 'm'));
  });

  it('docs/action.md documents every output of action.yml', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { outputs: Record<string, unknown> };
    const doc = readFileSync(join(ROOT, ACTION_DOC), 'utf8');
    for (const output of Object.keys(action.outputs)) expect(doc, output).toContain(`| \`${output}\` |`);
  });
});

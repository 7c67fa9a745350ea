// The README is a front door that keeps its promises: its two commands are what CI runs, the
// quickstart script uses options the CLI has and never writes into baselines/, its example config is
// valid, every limitation is summarised, and every relative link in the README, CONTRIBUTING.md and
// docs/ reaches a file and a heading that exist. No quoted number hides its machine ("this machine")
// and no internal issue number leaks into the documentation.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfigText } from '../../src/config/load.js';
import { commandHelp } from '../../src/cli/main.js';
import { placeholderKindProblems } from '../../src/config/placeholder-kinds.js';
import { wallTimeSaid } from '../../src/compare/gated-rows.js';
import { actionRef } from '../../src/init/init.js';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Markdown without its fenced code blocks (their `#` lines are not headings, their text no links). */
const prose = (md: string): string => md.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** The text of the section under a `## ` heading, up to the next one. */
function section(md: string, heading: string): string {
  const start = md.indexOf(`\n## ${heading}\n`);
  expect(start, `section "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = md.indexOf('\n## ', start + 1);
  return md.slice(start, end < 0 ? undefined : end);
}

/** The first fenced block of a language in a piece of Markdown. */
function fenced(md: string, lang: string): string {
  const m = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(md);
  expect(m, `a \`\`\`${lang} block`).not.toBeNull();
  return (m as RegExpExecArray)[1] as string;
}

/** Shell lines without comments and blank lines. */
const commands = (sh: string): string[] =>
  sh
    .split('\n')
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter((l) => l.length > 0);

/** GitHub's anchors for a Markdown file's headings (lower case, punctuation dropped, -1 for repeats). */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = (m[1] as string)
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('the README: two commands on a fresh clone', () => {
  const readme = read('README.md');
  const shown = commands(fenced(section(readme, 'Two commands on a fresh clone'), 'sh'));
  const ciRun = commands(read('.ci/run'));

  it('are bash scripts/quickstart.sh and bash .ci/run, and both exist', () => {
    expect(shown).toEqual(['bash scripts/quickstart.sh', 'bash .ci/run']);
    expect(existsSync(join(ROOT, 'scripts/quickstart.sh'))).toBe(true);
    expect(existsSync(join(ROOT, '.ci/run'))).toBe(true);
  });

  it('CI runs the first command before its own steps, and keeps them: provisioning, npm ci, npm test, the swarm test', () => {
    const steps = ciRun.filter((l) => !/^(set |cd |export |swarm_start=|echo )/.test(l));
    expect(steps).toEqual([
      'bash scripts/quickstart.sh',
      'bash scripts/provision-docker.sh',
      'bash scripts/provision-images.sh',
      'bash scripts/provision-test-tools.sh',
      'npm ci --no-audit --no-fund',
      'npm test',
      'bash scripts/provision-dind-node.sh',
      'npm run test:swarm',
    ]);
    expect(read('.github/workflows/ci.yml')).toMatch(/bash \.ci\/run/);
  });
});

describe('scripts/quickstart.sh', () => {
  const script = commands(read('scripts/quickstart.sh'));
  const runs = script.filter((l) => l.startsWith('node dist/cli.js run '));

  it('records a baseline, then gates against it: two runs of the quickstart config, modes given', () => {
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatch(/--mode update /);
    expect(runs[1]).toMatch(/--mode gate /);
    expect(script).toContain('config=fixtures/quickstart/perf-gate.yml');
    for (const r of runs) expect(r).toContain('--config "$config"');
  });

  it('never writes into baselines/ or the repository: both runs take --baseline-dir and --out under OUT_DIR', () => {
    for (const r of runs) {
      expect(r).toMatch(/--baseline-dir "\$out\/baselines"/);
      expect(r).toMatch(/--out "\$out\/[a-z]+"/);
    }
  });

  it('uses only options `perf-gate run` has (its --help, from the committed bundle)', () => {
    const help = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'run', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const r of runs) {
      for (const option of r.match(/--[a-z-]+/g) ?? []) expect(help.stdout, option).toContain(`  ${option} `);
    }
  });
});

describe("the README's example perf-gate.yml", () => {
  const example = fenced(section(read('README.md'), 'A complete perf-gate.yml'), 'yaml');

  it('is valid: every key exists, every value is in bounds', () => {
    const { config, problems } = parseConfigText(example, '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    expect(problems).toEqual([]);
    expect(config?.scenarios.map((s) => [s.name, s.phases.map((p) => `${p.kind} ${p.name}`)])).toEqual([
      ['search', ['closed c10', 'open r500']],
    ]);
    // the scenario's p99 SLO joins the default band: both rules hold
    expect(config?.scenarios[0]?.thresholds.p99).toEqual({ regress: 0.25, floor: 1000, limit: 50_000 });
  });

  it('is accepted by the JSON Schema shipped for editors (its first line points at it)', () => {
    expect(example.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=node_modules/perf-gate/schema/perf-gate.schema.json',
    );
    const schema = JSON.parse(read('schema/perf-gate.schema.json')) as object;
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const ok = validate(parse(example));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });
});

describe('documentation', () => {
  it('the README summarises every limitation of docs/limitations.md, one bullet each', () => {
    const bullets = (md: string): number => (md.match(/^- /gm) ?? []).length;
    const summary = section(read('README.md'), 'What does not work yet');
    expect(summary).toContain('(docs/limitations.md)');
    expect(bullets(summary)).toBe(bullets(read('docs/limitations.md')));
  });

  it.each(DOCS)('%s: every relative link reaches a file, and a heading when it names one', (file) => {
    const md = prose(read(file));
    for (const m of md.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] as string;
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [path = '', anchor] = target.split('#');
      const abs = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
      expect(existsSync(abs), `${file}: ${target}`).toBe(true);
      if (anchor !== undefined) expect(anchors(readFileSync(abs, 'utf8')), `${file}: ${target}`).toContain(anchor);
    }
  });

  it("one `uses:` for the Action everywhere: the docs' and the one init writes from package.json", () => {
    const pkg = JSON.parse(read('package.json')) as Parameters<typeof actionRef>[0];
    const ref = actionRef(pkg);
    expect(ref).toBe('perf-gate/perf-gate@v0');
    const used = DOCS.flatMap((file) =>
      [...read(file).matchAll(/uses:\s+([\w.-]+\/perf-gate(?:@[\w.]+)?)/g)].map((m) => `${file}: ${m[1]}`),
    );
    expect(used.length).toBeGreaterThan(5);
    for (const u of used) expect(u).toMatch(new RegExp(`: ${ref}$`));
  });

  it.each(DOCS)('%s: names the machine behind its numbers and cites no internal issue', (file) => {
    const md = read(file);
    expect(md).not.toMatch(/\bthis (machine|VM)\b/i);
    expect(md).not.toMatch(/\bissue (\d+|#\d+)|the issue's\b/i);
  });
});

describe('docs/cli.md: the commands as the CLI spells them', () => {
  it.each(['run', 'init', 'validate', 'render', 'compare', 'report', 'history', 'schema'] as const)(
    'perf-gate %s: its usage line, every option in it',
    (name) => {
      const usage = (commandHelp(name).split('\n')[0] as string).replace(/^usage: /, '');
      const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
      expect(doc.split('\n').some((line) => line === usage || line.startsWith(`${usage} `))).toBe(true);
    },
  );
});

describe('docs/config.md: the placeholder story’s example', () => {
  it('is a valid config whose every placeholder is of the right kind', () => {
    const yaml = fenced(section(read('docs/config.md'), 'Placeholders: one story'), 'yaml');
    const text = `version: 1\nsut: { compose: docker-compose.yml }\n${yaml}`;
    const { config, problems } = parseConfigText(text, '/ws/perf-gate.yml', (p) => `/ws/${p}`);
    expect(problems).toEqual([]);
    expect(placeholderKindProblems(config as NonNullable<typeof config>, { PASSWORD: 'p' })).toEqual([]);
  });
});

describe('docs/config.md: the anchors example', () => {
  it('is valid as written, its phases merged', () => {
    const yaml = fenced(section(read('docs/config.md'), 'Validation'), 'yaml');
    const { config, problems } = parseConfigText(
      `version: 1\nsut: { compose: docker-compose.yml }\n${yaml}`,
      '/ws/perf-gate.yml',
      (p) => `/ws/${p}`,
    );
    expect(problems).toEqual([]);
    expect(config?.scenarios[0]?.phases.map((p) => p.name)).toEqual(['c4', 'c8']);
  });
});

describe('docs/cookbook.md: each recipe is the file under examples/, and its cost is what validate says', () => {
  const doc = read('docs/cookbook.md');
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  it.each(['crud-api', 'websocket', 'grpc', 'rate-sweep'])('examples/%s/perf-gate.yml appears verbatim', (recipe) => {
    expect(blocks).toContain(read(`examples/${recipe}/perf-gate.yml`));
  });

  it.each<[string, number]>([
    ['crud-api', 0],
    ['websocket', 1],
    ['grpc', 2],
    ['rate-sweep', 3],
  ])('%s: the cost table is validate’s figures', (recipe, row) => {
    const dir = join(ROOT, 'examples', recipe);
    const { config, problems } = parseConfigText(
      read(`examples/${recipe}/perf-gate.yml`),
      join(dir, 'perf-gate.yml'),
      (p) => join(dir, p),
    );
    expect(problems).toEqual([]);
    const c = config as NonNullable<typeof config>;
    const figures = (unit: 'trials' | 'pairs') =>
      /about ([\d.]+ (?:s|min)) \(([\d.]+ (?:s|min)) where every phase stops at its early look, at most ([\d.]+ (?:s|min))/
        .exec(wallTimeSaid(c, unit))
        ?.slice(1, 4) ?? [];
    const [gate, gateEarly] = figures('trials');
    const [ab, abEarly, most] = figures('pairs');
    const table = section(doc, 'What each costs in CI minutes')
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| recipe') && !l.startsWith('| ---'));
    const cells = (table[row] as string).split('|').map((x) => x.trim());
    expect(cells[1]).toContain(recipe);
    expect(cells.slice(2, 7)).toEqual([gate, gateEarly, ab, abEarly, most]);
  });
});

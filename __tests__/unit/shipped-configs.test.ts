// Every config perf-gate ships validates (issue 35): each perf-gate*.yml under fixtures/ (read as
// `validate` reads it: files resolved, bodies and protos read) and each perf-gate.yml example in the
// README and docs/ (its keys and values; the files it names are the reader's). A fixture meant to be
// invalid says so in a comment the test reads ("# invalid on purpose"). Each line of `validate`'s
// per-mode verdicts is checked too: update always takes a valid config.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfigText } from '../../src/config/load.js';
import { checkRunnable } from '../../src/run/plan.js';
import { realReadFs } from '../../src/common/read-fs.js';

const ROOT = join(import.meta.dirname, '../..');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'compose-corpus' || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/^perf-gate.*\.ya?ml$/.test(name)) out.push(path);
  }
  return out;
}

const fixtures = walk(join(ROOT, 'fixtures')).map((f) => relative(ROOT, f));

/** The ```yaml blocks of a Markdown file that are whole perf-gate configs (version: 1 and scenarios). */
function examples(file: string): Array<{ at: string; text: string }> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: Array<{ at: string; text: string }> = [];
  const re = /```ya?ml\n([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const block = m[1] as string;
    if (!/^version: 1$/m.test(block) || !/^scenarios:/m.test(block)) continue;
    out.push({ at: `${file}:${text.slice(0, m.index).split('\n').length}`, text: block });
  }
  return out;
}

const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)]
  .filter((f) => f.endsWith('.md'))
  .flatMap(examples);

describe('every shipped config validates', () => {
  it('finds them', () => {
    expect(fixtures.length).toBeGreaterThan(20);
    expect(docs.length).toBeGreaterThan(0);
  });

  it.each(fixtures)('%s', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    if (/^# invalid on purpose/m.test(text)) {
      expect(() => loadConfig(join(ROOT, file), ROOT, realReadFs)).toThrow();
      return;
    }
    const config = loadConfig(join(ROOT, file), ROOT, realReadFs);
    checkRunnable(config, realReadFs);
  });

  it.each(docs.map((d) => [d.at, d.text] as const))('%s', (_at, text) => {
    // the files an example names are the reader's: resolved without looking
    const { problems } = parseConfigText(text, join(ROOT, 'perf-gate.yml'), (p) => join(ROOT, p));
    expect(problems).toEqual([]);
  });
});

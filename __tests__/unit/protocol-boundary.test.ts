// The runner and the host share one protocol module (src/protocol/) and nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1] as string);

describe('the runner ↔ host boundary', () => {
  const runnerFiles = readdirSync(join(ROOT, 'runner/src')).filter((f) => f.endsWith('.ts'));

  it.each(runnerFiles)('runner/src/%s imports from the host only src/protocol/', (file) => {
    const host = importsOf(join(ROOT, 'runner/src', file)).filter((i) => i.startsWith('../'));
    for (const i of host) expect(i, `${file} imports ${i}`).toMatch(/^\.\.\/\.\.\/src\/protocol\/[a-z-]+\.js$/);
  });

  it.each(readdirSync(join(ROOT, 'src/protocol')).filter((f) => f.endsWith('.ts')))(
    'src/protocol/%s imports nothing else of the host',
    (file) => {
      for (const i of importsOf(join(ROOT, 'src/protocol', file)))
        expect(i, `${file} imports ${i}`).not.toMatch(/^\.\.\//);
    },
  );

  it('the runner bundle does not carry the host-side validation (zod)', () => {
    expect(readFileSync(join(ROOT, 'dist/runner.mjs'), 'utf8')).not.toContain('ZodError');
  });
});

// The runner and the host share one kit (src/runner-kit/: the plan, the events, histograms, checks) and nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1] as string);

describe('the runner ↔ host boundary', () => {
  const runnerFiles = (readdirSync(join(ROOT, 'runner/src'), { recursive: true }) as string[]).filter((f) =>
    f.endsWith('.ts'),
  );

  it('the engine modules are among the files checked', () => {
    expect(runnerFiles).toContain(join('engines', 'http.ts'));
  });

  it.each(runnerFiles)('runner/src/%s imports from the host only src/runner-kit/', (file) => {
    const dir = dirname(join(ROOT, 'runner/src', file));
    for (const i of importsOf(join(ROOT, 'runner/src', file)).filter((x) => x.startsWith('.'))) {
      const target = relative(ROOT, resolve(dir, i));
      expect(target, `${file} imports ${i}`).toMatch(
        /^(runner\/src\/([a-z0-9-]+\/)?|src\/runner-kit\/)[a-z0-9-]+\.js$/,
      );
    }
  });

  it.each(readdirSync(join(ROOT, 'src/runner-kit')).filter((f) => f.endsWith('.ts')))(
    'src/runner-kit/%s imports nothing else of the host',
    (file) => {
      for (const i of importsOf(join(ROOT, 'src/runner-kit', file)))
        expect(i, `${file} imports ${i}`).not.toMatch(/^\.\.\//);
    },
  );

  it('the runner bundle does not carry the host-side validation (zod)', () => {
    expect(readFileSync(join(ROOT, 'dist/runner.mjs'), 'utf8')).not.toContain('ZodError');
  });

  it('the runner bundle carries no gRPC or protobuf library: calls go out on its own HTTP/2 client', () => {
    const bundle = readFileSync(join(ROOT, 'dist/runner.mjs'), 'utf8');
    expect(bundle).not.toContain('makeUnaryRequest');
    expect(bundle).not.toMatch(/protobufjs|@grpc\/grpc-js|@grpc\/proto-loader/);
  });
});

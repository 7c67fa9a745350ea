// Bundles perf-gate into dist/: the CLI, the Action's main and post entries, and the runner script
// that is copied into the runner container. Usage: node scripts/build.mjs [outdir]
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = resolve(root, process.argv[2] ?? 'dist');

// dockerode -> docker-modem -> ssh2 optionally loads native addons (cpu-features, sshcrypto.node)
// inside try/catch, and so does ws (bufferutil, utf-8-validate). Bundled, they must fail at require
// time, not at build or import time.
const optionalNative = {
  name: 'optional-native',
  setup(b) {
    b.onResolve({ filter: /(^cpu-features$)|(^bufferutil$)|(^utf-8-validate$)|(\.node$)/ }, (args) => ({
      path: args.path,
      namespace: 'optional-native',
    }));
    b.onLoad({ filter: /.*/, namespace: 'optional-native' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`optional native module ${args.path} is not bundled`)});`,
      loader: 'js',
    }));
  },
};

const banner = {
  js: [
    "import { createRequire as __pgCreateRequire } from 'node:module';",
    "import { fileURLToPath as __pgFileURLToPath } from 'node:url';",
    "import { dirname as __pgDirname } from 'node:path';",
    'const require = __pgCreateRequire(import.meta.url);',
    'const __filename = __pgFileURLToPath(import.meta.url);',
    'const __dirname = __pgDirname(__filename);',
  ].join('\n'),
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  banner,
  plugins: [optionalNative],
  legalComments: 'none',
  logLevel: 'warning',
  sourcemap: false,
  minify: false,
  charset: 'utf8',
};

await build({
  ...common,
  entryPoints: {
    cli: join(root, 'src/cli.ts'),
    'action-main': join(root, 'src/action/index.ts'),
    'action-post': join(root, 'src/action/post.ts'),
  },
  outdir,
  outExtension: { '.js': '.js' },
  splitting: false,
});
await build({
  ...common,
  entryPoints: { runner: join(root, 'runner/src/main.ts') },
  outdir,
  outExtension: { '.js': '.mjs' },
});
writeFileSync(join(outdir, 'package.json'), '{ "type": "module" }\n');
chmodSync(join(outdir, 'cli.js'), 0o755);

// the JSON Schema for editors, generated from the same zod source the validator uses
if (outdir === resolve(root, 'dist')) {
  const { execFileSync } = await import('node:child_process');
  mkdirSync(join(root, 'schema'), { recursive: true });
  execFileSync(process.execPath, [
    join(outdir, 'cli.js'),
    'schema',
    '--out',
    join(root, 'schema/perf-gate.schema.json'),
  ]);
}

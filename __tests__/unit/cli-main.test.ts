// The CLI as `main(argv, deps)` (issue 32): its commands driven with fake standard streams, files,
// exec and run dependencies, as the Action's `main(deps)` is. The bundle's own behaviour (exit codes
// through a real process, closed pipes, /dev/full) stays in __tests__/integration/cli-*.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliDeps, main } from '../../src/cli/main.js';
import { EXIT_INTERNAL, EXIT_PASS, EXIT_REGRESSION, EXIT_USAGE } from '../../src/common/errors.js';
import { VERSION } from '../../src/common/version.js';
import { MODES, type Mode, type RunMode } from '../../src/modes/index.js';
import { type Output, OUTPUTS } from '../../src/outputs/index.js';
import type { RunDeps } from '../../src/run/contract.js';
import { realReadFs } from '../../src/common/read-fs.js';
import { COMPOSE, harness, projectConfig, type SideBehaviour } from './run-harness.js';

let root: string;
// the workspace is the deps' (their cwd, with no GITHUB_WORKSPACE in their env): nothing reads this
// process's environment
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'perf-gate-cli-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(root, 'p-'));
  writeFileSync(join(dir, 'perf-gate.yml'), projectConfig());
  writeFileSync(join(dir, 'docker-compose.yml'), COMPOSE);
  mkdirSync(join(dir, 'baselines'));
  return dir;
}

interface Cli {
  deps: CliDeps;
  out: string[];
  err: string[];
}

/** Fake deps: the streams collected, files in memory over the real ones, the run's fakes. */
function cli(o: { sides?: Record<string, SideBehaviour>; runDeps?: () => RunDeps; readOnly?: string[] } = {}): Cli {
  const out: string[] = [];
  const err: string[] = [];
  const written = new Map<string, string>();
  const deps: CliDeps = {
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    progress: { write: () => {} },
    env: {},
    cwd: root,
    terminal: false,
    prompt: () => {
      throw new Error('no terminal');
    },
    files: {
      read: (p) => written.get(p) ?? '',
      write: (p, t) => void written.set(p, t),
      writeCreating: (p, t) => void written.set(p, t),
      writeAtomic: (p, t) => void written.set(p, t),
      readIfExists: (p) => written.get(p),
      exists: (p) => written.has(p) || p === root,
      isDirectory: (p) => p === root,
      writable: (p) => !(o.readOnly ?? []).includes(p),
    },
    // what a config, bodies, baselines and results are read through: the files written here, else the disk
    readFs: {
      ...realReadFs,
      readText: (p) => written.get(p) ?? realReadFs.readText(p),
      exists: (p) => written.has(p) || realReadFs.exists(p),
    },
    exec: async () => ({ code: 127, stdout: '', stderr: 'docker: not found' }),
    runDeps: o.runDeps ?? (() => harness(root, o.sides ?? { only: { delayUs: 2000 } }).deps),
    now: () => Date.parse('2026-11-27T10:00:00Z'),
    runnerScript: () => '// runner',
  };
  return { deps, out, err };
}

describe('main(argv, deps)', () => {
  it('--version and help go to standard output, exit 0; no command is a usage error (exit 2)', async () => {
    const c = cli();
    expect(await main(['--version'], c.deps)).toBe(EXIT_PASS);
    expect(c.out.join('')).toBe(`perf-gate ${VERSION}\n`);
    expect(await main(['run', '--help'], c.deps)).toBe(EXIT_PASS);
    expect(c.out.join('')).toContain('--out-format FORMAT=PATH');
    expect(await main([], c.deps)).toBe(EXIT_USAGE);
  });

  it("every command's help says each default once", async () => {
    for (const command of ['run', 'init', 'validate', 'render', 'schema', 'compare', 'report', 'history']) {
      const c = cli();
      await main([command, '--help'], c.deps);
      for (const line of c.out.join('').split('\n'))
        expect(line.match(/\(default/g)?.length ?? 0, line).toBeLessThan(2);
    }
  });

  it('a user mistake is one line on standard error with its exit code', async () => {
    const c = cli();
    expect(await main(['run', '--mode', 'fast'], c.deps)).toBe(EXIT_USAGE);
    expect(c.err).toEqual(['perf-gate: --mode fast: must be auto, gate, ab, update or sweep\n']);
    const d = cli();
    expect(await main(['run', '--mode', 'gate', '--out-format', 'xml=a.xml'], d.deps)).toBe(EXIT_USAGE);
    expect(d.err[0]).toMatch(/^perf-gate: --out-format xml=a\.xml: unknown format xml/);
  });

  it('an output path the run may not write is refused before anything runs, every one in one pass', async () => {
    let ran = false;
    const c = cli({
      readOnly: [root],
      runDeps: () => {
        ran = true;
        return harness(root, { only: { delayUs: 2000 } }).deps;
      },
    });
    const args = ['run', '--mode', 'gate', '--out', join(root, 'out'), '--junit', join(root, 'j', 'perf.xml')];
    expect(await main(args, c.deps)).toBe(EXIT_USAGE);
    expect(ran).toBe(false);
    expect(c.err.join('')).toBe(
      [
        'perf-gate: 2 output paths cannot be written',
        `  --out ${join(root, 'out')}: ${root} is not writable`,
        `  --junit ${join(root, 'j', 'perf.xml')}: ${root} is not writable`,
        '',
      ].join('\n'),
    );
  });

  it('a bug of ours is "internal error", exit 1, the stack only with PERF_GATE_DEBUG', async () => {
    const dir = project();
    const boom = () => {
      throw new Error('no engine bound');
    };
    const c = cli({ runDeps: boom });
    const args = ['run', '--config', join(dir, 'perf-gate.yml'), '--mode', 'gate', '--out', root];
    expect(await main(args, c.deps)).toBe(EXIT_INTERNAL);
    expect(c.err).toEqual([
      'perf-gate: internal error: no engine bound\n',
      'perf-gate: set PERF_GATE_DEBUG=1 for the stack trace, and please report it\n',
    ]);
  });

  it('run: update then a gate of a +50% service through the run deps given; the table and the paths printed', async () => {
    const dir = project();
    const base = ['run', '--config', join(dir, 'perf-gate.yml'), '--baseline-dir', join(dir, 'baselines')];
    const up = cli();
    expect(await main([...base, '--mode', 'update', '--out', root], up.deps)).toBe(EXIT_PASS);
    expect(up.out.join('')).toMatch(/scenario\/phase +trials/);
    expect(up.out.join('')).toContain(`baseline written: ${join(dir, 'baselines', 'api.json')}`);
    const slow = cli({ sides: { only: { delayUs: 3000 } } });
    expect(await main([...base, '--mode', 'gate', '--out', root], slow.deps)).toBe(EXIT_REGRESSION);
    expect(slow.out.join('')).toMatch(/### ❌ perf-gate: 1 regression in api/);
  });

  it('run --fail-on-shift: a refresh of a +50% service exits 1 naming the row, its baselines still written; without it, 0', async () => {
    const dir = project();
    // 5 trials: 3 against 3 cannot reach alpha, and an update runs no more (its rows stay inconclusive)
    writeFileSync(join(dir, 'perf-gate.yml'), projectConfig('', 5));
    const base = ['run', '--config', join(dir, 'perf-gate.yml'), '--baseline-dir', join(dir, 'baselines')];
    const update = [...base, '--mode', 'update', '--out', root];
    expect(await main(update, cli().deps)).toBe(EXIT_PASS);
    // the same service again: nothing moved, nothing to fail on
    const same = cli();
    expect(await main([...update, '--fail-on-shift'], same.deps)).toBe(EXIT_PASS);
    expect(same.err.join('')).not.toContain('fail-on-shift');
    const slow = cli({ sides: { only: { delayUs: 3000 } } });
    expect(await main([...update, '--fail-on-shift'], slow.deps)).toBe(EXIT_REGRESSION);
    expect(slow.err.join('')).toMatch(
      /^perf-gate: 1 row beyond the band of the previous baselines \(fail-on-shift\): api\/c2 p50\n$/m,
    );
    expect(slow.out.join('')).toContain(`baseline written: ${join(dir, 'baselines', 'api.json')}`);
    // the flag off (the default): the same shift is information only
    const informed = cli({ sides: { only: { delayUs: 4500 } } });
    expect(await main(update, informed.deps)).toBe(EXIT_PASS);
    expect(informed.out.join('')).toContain('beyond the band of the previous baselines');
  });

  it('validate: with compose missing it says so in a note and judges each mode', async () => {
    const dir = project();
    const c = cli();
    expect(await main(['validate', join(dir, 'perf-gate.yml')], c.deps)).toBe(EXIT_PASS);
    const text = c.out.join('');
    expect(text).toContain('valid (1 scenario, 1 phase)');
    expect(text).toMatch(/ {2}gate: valid \(pull requests, mode auto\)/);
    expect(text).toMatch(/note: .*compose/i);
    // the engine on this machine: its readings can be taken, nothing said of them
    expect(text).not.toContain('no machine readings');
  });

  it("validate: the config's problems and the compose project's in one pass, each at its line", async () => {
    const dir = project();
    // a phase with k6's `vus` (a key the schema refuses) and a scenario on a host the project lacks
    writeFileSync(
      join(dir, 'perf-gate.yml'),
      projectConfig()
        .replace('url: http://api:8080/work', 'url: http://apii:8080/work')
        .replace('{ name: c2, connections: 2, duration: 1s }', '{ name: c2, connections: 2, duration: 1s, vus: 10 }'),
    );
    const c = cli();
    // `docker compose config --format json`, as compose prints it: one service, api
    c.deps.exec = async (cmd, args) =>
      cmd === 'docker' && args.includes('config')
        ? {
            code: 0,
            stdout: JSON.stringify({ name: 'perfgate-validate', services: { api: { image: 'api' } } }),
            stderr: '',
          }
        : { code: 127, stdout: '', stderr: 'not found' };
    expect(await main(['validate', join(dir, 'perf-gate.yml')], c.deps)).toBe(EXIT_USAGE);
    const file = join(dir, 'perf-gate.yml');
    const text = c.err.join('');
    expect(text).toContain(`${file}: 2 problems (1 in the config, 1 with the compose project)`);
    expect(text.split('\n').slice(1, 3)).toEqual([
      `  ${file}:13:16: scenarios[0].request.url: apii is not a service of the compose project (services: api) (did you mean api?)`,
      `  ${file}:15:51: scenarios[0].phases[0].vus: unknown key (concurrent connections are a phase key: { connections: 10, duration: 30s })`,
    ]);
  });

  it("validate: a misspelt sut key is said alone (the compose project is not checked without it); compose's absence is a note beside the problems", async () => {
    const dir = project();
    const file = join(dir, 'perf-gate.yml');
    writeFileSync(
      file,
      projectConfig()
        .replace('compose: docker-compose.yml', 'compose: docker-compose.yml\n  enviroment: { TAG: x }')
        .replace('url: http://api:8080/work', 'url: http://apii:8080/work'),
    );
    const asked: string[][] = [];
    const c = cli();
    c.deps.exec = async (cmd, args) => {
      asked.push([cmd, ...args]);
      return { code: 0, stdout: JSON.stringify({ services: { api: { image: 'api' } } }), stderr: '' };
    };
    expect(await main(['validate', file], c.deps)).toBe(EXIT_USAGE);
    expect(c.err.join('')).toMatch(/: 1 problem in the config\n {2}\S+:4:\d+: sut\.enviroment: unknown key/);
    expect(c.err.join('')).not.toContain('apii');
    expect(asked).toEqual([]);
    // a config problem with compose missing: the note says the project went unchecked
    writeFileSync(
      file,
      projectConfig().replace(
        '{ name: c2, connections: 2, duration: 1s }',
        '{ name: c2, connections: 2, duration: 1s, vus: 10 }',
      ),
    );
    const missing = cli();
    expect(await main(['validate', file], missing.deps)).toBe(EXIT_USAGE);
    expect(missing.err.join('')).toMatch(
      /vus: unknown key[^\n]*\n {2}note: docker compose is not installed here: the compose project was not checked\n/,
    );
  });

  it('validate with baselines: the smallest change each gated row catches against them, the band beside it', async () => {
    const dir = project();
    const file = join(dir, 'perf-gate.yml');
    writeFileSync(file, projectConfig('', 5));
    const baselines = join(dir, 'baselines');
    const update = ['run', '--config', file, '--baseline-dir', baselines, '--mode', 'update', '--out', root];
    expect(await main(update, cli().deps)).toBe(EXIT_PASS);
    const c = cli();
    expect(await main(['validate', file, '--baseline-dir', baselines], c.deps)).toBe(EXIT_PASS);
    const lines = c.out.join('').split('\n');
    const at = lines.findIndex((l) => l.startsWith('smallest change each row catches'));
    expect(lines[at]).toBe(
      `smallest change each row catches (the baselines in ${baselines}/ standing in for the run's trials; the run's own decide):`,
    );
    expect(lines[at + 1]).toMatch(/^ {2}api\/c2 p50: catches \+\d+(\.\d)?% or more \(band \+20% and \+100µs\)$/);
    // without baselines there is nothing to stand in for the trials: the block is not printed
    const none = cli();
    expect(await main(['validate', file, '--baseline-dir', join(dir, 'none')], none.deps)).toBe(EXIT_PASS);
    expect(none.out.join('')).not.toContain('smallest change');
  });

  it("validate: a newcomer's mistakes, each at its file:line:col in one pass; anchors read; what is a limit only said", async () => {
    const dir = project();
    const file = join(dir, 'perf-gate.yml');
    const head = ['version: 1', 'sut: { compose: docker-compose.yml }', 'runner: { image: perf-gate/node:local }'];
    // Artillery's {{token}} for a setup value, a flow value in the environment's braces, a typo of a
    // setup value, and k6's vus on a phase of the same scenario
    writeFileSync(
      file,
      [
        ...head,
        'setup:',
        '  - name: login',
        "    request: { url: 'http://api:8080/login', method: POST }",
        '    extract: { token: { json: $.token } }',
        'scenarios:',
        '  - name: items',
        "    request: { url: 'http://api:8080/items', headers: { authorization: 'Bearer {{token}}' } }",
        '    phases: [{ name: c4, connections: 4, duration: 5s }]',
        '  - name: crud',
        '    flow:',
        "      - { name: create, url: 'http://api:8080/items', method: POST, extract: { id: { json: $.id } } }",
        "      - { name: read, url: 'http://api:8080/items/${id}', headers: { authorization: 'Bearer ${tokn}' } }",
        '    phases: [{ name: c4, connections: 4, duration: 5s, vus: 10 }]',
        '',
      ].join('\n'),
    );
    const c = cli();
    expect(await main(['validate', file], c.deps)).toBe(EXIT_USAGE);
    expect(c.err.join('').split('\n').slice(0, 5)).toEqual([
      `perf-gate: ${file}: 4 problems in the config`,
      `  ${file}:10:57: scenarios[0].request.headers.authorization: {{token}} is sent as it is; token is a value a setup step extracts: write \${token}`,
      `  ${file}:15:23: scenarios[1].flow[1].url: \${id} reads the environment, but id is a value a flow step extracts: write {{id}}`,
      `  ${file}:15:70: scenarios[1].flow[1].headers.authorization: \${tokn} is not set in the environment and no setup step extracts it (did you mean \${token}?)`,
      `  ${file}:16:56: scenarios[1].phases[0].vus: unknown key (concurrent connections are a phase key: { connections: 10, duration: 30s })`,
    ]);
    // compose's anchors (an x- key, a merge key), a k6 threshold, and defaults' band on a flow's own phase
    writeFileSync(
      file,
      [
        ...head,
        'x-phase: &phase { connections: 4, duration: 5s }',
        'defaults: { thresholds: { p50: { regress: 10% } } }',
        'scenarios:',
        '  - name: k6',
        "    request: { url: 'http://api:8080/x' }",
        "    thresholds: { http_req_duration: ['p(95)<200'] }",
        '    phases: [{ name: c4, <<: *phase }]',
        '  - name: crud',
        '    flow:',
        "      - { name: create, url: 'http://api:8080/items', method: POST, extract: { id: { json: $.id } } }",
        "      - { name: read, url: 'http://api:8080/items/{{id}}' }",
        '    phases: [{ name: c4, <<: *phase }]',
        '',
      ].join('\n'),
    );
    const ok = cli();
    expect(await main(['validate', file], ok.deps)).toBe(EXIT_PASS);
    const text = ok.out.join('');
    expect(text).toContain('valid (2 scenarios, 2 phases)');
    expect(text).toContain(
      '  k6 (c4): p50 banded; p95 ≤ 200ms: limit only, no regression band (add regress: to gate a change)\n',
    );
    expect(text).toContain('  crud (c4; all its requests together): p50 banded\n');
  });

  it('validate: an engine elsewhere (DOCKER_HOST tcp://) is one line: no machine readings', async () => {
    const dir = project();
    const c = cli();
    c.deps.env = { DOCKER_HOST: 'tcp://10.0.0.5:2376' };
    expect(await main(['validate', join(dir, 'perf-gate.yml')], c.deps)).toBe(EXIT_PASS);
    expect(
      c.out
        .join('')
        .split('\n')
        .filter((l) => l.includes('machine readings')),
    ).toEqual([
      'note: no machine readings: the Docker engine runs elsewhere (DOCKER_HOST tcp://10.0.0.5:2376), so a trial taken while other processes used its machine cannot be told apart and gate.busy repeats none',
    ]);
  });

  it('validate: an environment value not set here is a note, not a refusal (the run’s environment may have it)', async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'perf-gate.yml'),
      projectConfig().replace(
        'request: { url: http://api:8080/work }',
        'request: { url: http://api:8080/work, headers: { x-key: "${API_KEY}" } }',
      ),
    );
    const c = cli();
    c.deps.env = {};
    expect(await main(['validate', join(dir, 'perf-gate.yml')], c.deps)).toBe(EXIT_PASS);
    expect(c.out.join('')).toContain(
      "note: ${API_KEY} is not set in this environment and no setup step extracts it: run refuses it unless it is set where it runs (the Action step's env:)",
    );
    const set = cli();
    set.deps.env = { API_KEY: 'k' };
    await main(['validate', join(dir, 'perf-gate.yml')], set.deps);
    expect(set.out.join('')).not.toContain('API_KEY');
  });

  it('history FILE --html PAGE: the trend page written through deps.files, the charts printed as before', async () => {
    const c = cli();
    const file = join(root, 'h.jsonl');
    const lines = Array.from({ length: 5 }, (_, i) =>
      JSON.stringify({
        schema: 'perf-gate/history@1',
        time: `2026-11-0${i + 1}T00:00:00Z`,
        commit: `c${i}`,
        ref: null,
        runId: `r${i}`,
        mode: 'update',
        phases: { 'api/c8': { rps: 1000, p50: 2000, p99: 5000, errors: 0 } },
      }),
    );
    c.deps.files.write(file, `${lines.join('\n')}\n`);
    expect(await main(['history', file, '--html', join(root, 'site', 'index.html')], c.deps)).toBe(EXIT_PASS);
    expect(c.deps.files.read(join(root, 'site', 'index.html'))).toMatch(
      /^<!doctype html>[\s\S]*perf-gate trend: 5 runs, 0 level shifts/,
    );
    expect(c.err).toEqual([`perf-gate: trend page written: ${join(root, 'site', 'index.html')}\n`]);
  });

  it("history --min-shift --alpha: the config's history: keys as flags, checked as the keys are", async () => {
    const c = cli();
    const file = join(root, 'h3.jsonl');
    // p99 3% higher from the 13th run: under the default 5%, named at --min-shift 2%
    const lines = Array.from({ length: 24 }, (_, i) =>
      JSON.stringify({
        schema: 'perf-gate/history@1',
        time: `2026-11-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
        commit: `c${i}`,
        ref: null,
        runId: `r${i}`,
        mode: 'update',
        phases: {
          'api/c8': {
            rps: 1000,
            p50: 2000,
            p99: Math.round(5000 * (1 + 0.02 * Math.sin(i * 2.1)) * (i >= 12 ? 1.03 : 1)),
            errors: 0,
          },
        },
      }),
    );
    c.deps.files.write(file, `${lines.join('\n')}\n`);
    expect(await main(['history', file], c.deps)).toBe(EXIT_PASS);
    expect(c.out.join('')).toContain(
      '**Level shifts:** none (E-divisive means over the last 24 runs; p ≤ 0.01, 5% or more',
    );
    const page = join(root, 'h3.html');
    const named = cli();
    named.deps.files = c.deps.files;
    expect(await main(['history', file, '--min-shift', '2%', '--alpha', '0.05', '--html', page], named.deps)).toBe(
      EXIT_PASS,
    );
    expect(named.out.join('')).toMatch(/p ≤ 0\.05, 2% or more of the level before[^\n]*\n- api\/c8 p99 \*\*\+3/);
    expect(c.deps.files.read(page)).toContain('perf-gate trend: 24 runs, 1 level shift');
    expect(c.deps.files.read(page)).toContain('p ≤ 0.05, 2% or more of the level before');
    // every problem in one pass, each naming its flag; exit 2
    const bad = cli();
    bad.deps.files = c.deps.files;
    expect(await main(['history', file, '--min-shift', 'ten', '--alpha', '0.5'], bad.deps)).toBe(EXIT_USAGE);
    expect(bad.err.join('')).toContain('--min-shift ten: must be a percentage like 10%');
    expect(bad.err.join('')).toContain('--alpha 0.5: must be a number from 0.001 to 0.2');
    const nan = cli();
    nan.deps.files = c.deps.files;
    expect(await main(['history', file, '--alpha', 'x'], nan.deps)).toBe(EXIT_USAGE);
    expect(nan.err.join('')).toContain('--alpha x: must be a number from 0.001 to 0.2');
  });

  it('history: a file that does not exist is a usage error (read through deps.files)', async () => {
    const c = cli();
    expect(await main(['history', join(root, 'h.jsonl')], c.deps)).toBe(EXIT_USAGE);
    expect(c.err[0]).toBe(`perf-gate: history file ${join(root, 'h.jsonl')}: not found\n`);
  });
});

describe('a mode and an output registered through their maps only (MODES, OUTPUTS)', () => {
  it('`--mode soak` and `--out-format fake=PATH` run, with nothing else told of them', async () => {
    const modes = MODES as unknown as Record<string, Mode<RunMode>>;
    const outputs = OUTPUTS as unknown as Record<string, Output>;
    modes.soak = { ...MODES.gate, name: 'soak' as RunMode };
    outputs.fake = {
      names: ['fake'],
      summary: 'a fake output',
      extension: 'txt',
      writes: () => true,
      render: (results) => `fake: ${results.mode}, ${results.scenarios.length} scenario\n`,
    };
    try {
      const dir = project();
      const base = ['run', '--config', join(dir, 'perf-gate.yml'), '--baseline-dir', join(dir, 'baselines')];
      expect(await main([...base, '--mode', 'update', '--out', root], cli().deps)).toBe(EXIT_PASS);
      const slow = cli({ sides: { only: { delayUs: 3000 } } });
      const args = [...base, '--mode', 'soak', '--out', root, '--out-format', `fake=${join(root, 'soak.txt')}`];
      // judged as the gate it copies: the +50% service fails it
      expect(await main(args, slow.deps)).toBe(EXIT_REGRESSION);
      // (the run writes its outputs through the run's deps: the harness's are the real files)
      expect(readFileSync(join(root, 'soak.txt'), 'utf8')).toBe('fake: soak, 1 scenario\n');
      const help = cli();
      await main(['run', '--help'], help.deps);
      expect(help.out.join('')).toContain('auto | gate | ab | update | sweep | soak');
    } finally {
      delete modes.soak;
      delete outputs.fake;
    }
  });
});

describe('run --accept', () => {
  it('a regression accepted on the command line passes (exit 0), the report saying who and why', async () => {
    const dir = project();
    const base = ['run', '--config', join(dir, 'perf-gate.yml'), '--baseline-dir', join(dir, 'baselines')];
    expect(await main([...base, '--mode', 'update', '--out', root], cli().deps)).toBe(EXIT_PASS);
    const slow = cli({ sides: { only: { delayUs: 3000 } } });
    const args = [...base, '--mode', 'gate', '--out', root, '--accept', 'api: the new serializer, agreed'];
    expect(await main(args, slow.deps)).toBe(EXIT_PASS);
    const out = slow.out.join('');
    expect(out).toMatch(/### ✅ perf-gate: no regression \(\d+ accepted on purpose/);
    expect(out).toContain('by --accept (was a regression): the new serializer, agreed');
    // an acceptance of a scenario the run does not have is said, and the gate still fails
    const typo = cli({ sides: { only: { delayUs: 3000 } } });
    expect(await main([...base, '--mode', 'gate', '--out', root, '--accept', 'apu: why'], typo.deps)).toBe(
      EXIT_REGRESSION,
    );
  });

  it('every --accept that does not read, in one usage error (exit 2)', async () => {
    const c = cli();
    const args = ['run', '--mode', 'gate', '--accept', 'api', '--accept', 'api p99: why', '--accept', 'api: fine'];
    expect(await main(args, c.deps)).toBe(EXIT_USAGE);
    expect(c.err.join('')).toBe(
      [
        'perf-gate: 2 --accept options do not read',
        '  --accept api: api: no reason (ROWS: REASON)',
        '  --accept api p99: why: api p99: not *, a scenario, scenario/phase or scenario/phase metric',
        '',
      ].join('\n'),
    );
  });
});

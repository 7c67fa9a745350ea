// `run(request, deps)` driven with fakes for Docker, compose, git and files: every mode through one
// pipeline, and every failure path the issue names (corrupt baselines, a sweep without a ladder, a
// runner crash mid-trial, the A/B worktree removed on failure, a failed write, a gate that could
// never fail).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPOSE, harness as harnessAt, MemoryFiles, projectConfig as config } from './run-harness.js';
import { EXIT_ENVIRONMENT, EXIT_USAGE } from '../../src/common/errors.js';
import type { ResultsFile } from '../../src/results/types.js';
import type { RunOptions } from '../../src/run/contract.js';
import { run } from '../../src/run/run.js';
import { derivedSeed, drawOrder, seededRandom } from '../../src/stats/random.js';
import { failure } from './fixtures.js';

/** Every file of these runs is in memory, under a root that does not exist on disk. */
const mem = new MemoryFiles();
const root = `${mem.root}/work`;

/** The fakes, with git's top level at the root and the run's files in memory. */
const harness = (sides: Parameters<typeof harnessAt>[1], o: Parameters<typeof harnessAt>[2] = {}) =>
  harnessAt(root, sides, { files: mem, ...o });

// the run reads and writes nothing of the real file system: nothing of the memory's root is on disk
afterAll(() => {
  expect(existsSync(mem.root)).toBe(false);
});

let projects = 0;

/** A project directory with a config, a compose file and a (still empty) baselines directory. */
function project(text = config()): { dir: string; configFile: string; baselineDir: string } {
  const dir = join(root, `p-${++projects}`);
  mem.write(join(dir, 'perf-gate.yml'), text);
  mem.write(join(dir, 'docker-compose.yml'), COMPOSE);
  return { dir, configFile: join(dir, 'perf-gate.yml'), baselineDir: join(dir, 'baselines') };
}

const request = (p: ReturnType<typeof project>, mode: RunOptions['mode'], extra: Partial<RunOptions> = {}) => ({
  configFile: p.configFile,
  mode,
  scenarios: [],
  baselineDir: p.baselineDir,
  outDir: p.dir,
  runId: 'r1',
  ...extra,
});

const results = (dir: string) => JSON.parse(mem.readText(join(dir, 'perf-gate-results.json'))) as ResultsFile;

describe('run: one pipeline for every mode', () => {
  it('update writes the baseline through deps.files and passes; gate then confirms a +50% p50 with more trials', async () => {
    const p = project();
    const up = harness({ only: { delayUs: 2000 } });
    const updated = await run(request(p, 'update'), up.deps);
    expect(updated.verdict).toBe('pass');
    expect(updated.baselinesUpdated).toEqual([join(p.baselineDir, 'api.json')]);
    expect(up.written).toContain(join(p.baselineDir, 'api.json'));
    // update confirms nothing: exactly the configured trials, one runner for the whole run
    expect(up.docker.trials).toHaveLength(3);
    expect(up.calls.filter((c) => c.startsWith('start '))).toEqual(['start perfgate-r1-runner']);

    const slow = harness({ only: { delayUs: 3000 } });
    const gated = await run(request(p, 'gate'), slow.deps);
    expect(gated.verdict).toBe('regression');
    const p50 = gated.results.comparisons.find((c) => c.metric === 'p50');
    expect(p50).toMatchObject({ result: 'regression', extraTrials: 9 });
    // 3 vs 3 cannot reach alpha: the first look spends none of it, and the phase runs to the default cap
    expect(slow.docker.trials).toHaveLength(12);
    expect(slow.docker.trials.at(-1)).toBe('perfgate-r1-runner: api/c2 12/12');
    expect(results(p.dir).scenarios[0]?.phases[0]?.confirm).toEqual({ first: 3, cap: 12 });
    expect(slow.calls.at(-1)).toBe('sweep r1');
  });

  it('an update whose phase fails its checks on nearly every request records nothing: exit 3, the row named (issue 48)', async () => {
    const p = project();
    const h = harness({ only: { delayUs: 2000, failing: 0.97 } });
    const err = await failure(run(request(p, 'update'), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toMatch(/no baseline recorded: a row failed on nearly every request/);
    expect(err.details).toEqual([
      expect.stringMatching(/^ {2}api\/c2: 5820 of 6000 requests failed, most as expect-json \(5820×\)$/),
    ]);
    expect(mem.exists(p.baselineDir)).toBe(false);
    // the report says why, and names the row
    const md = mem.readText(join(p.dir, 'perf-gate-report.md'));
    expect(md).toContain('### ⛔ perf-gate: no baseline recorded — 1 row failed on nearly every request');
    expect(md).toContain('> ⛔ api/c2: 5820 of 6000 requests failed');
    expect(md).not.toContain('first baseline written');
  });

  it('an update whose flow step fails its check on every request records nothing, naming the step (its phase fails half)', async () => {
    // go-httpbin's /anything without a content type: the read step's JSON check fails every time
    const flow = config().replace(
      '    request: { url: http://api:8080/work }\n',
      [
        '    flow:',
        '      - { name: create, url: http://api:8080/items, method: POST, extract: { id: { json: $.id } } }',
        "      - { name: read, url: 'http://api:8080/items/{{id}}', expect: { json: { $.id: '{{id}}' } } }",
        '',
      ].join('\n'),
    );
    const p = project(flow);
    const h = harness({ only: { delayUs: 2000, entries: { create: 0, read: 1 } } });
    const err = await failure(run(request(p, 'update'), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toMatch(/no baseline recorded: a row failed on nearly every request/);
    expect(err.details).toEqual([
      expect.stringMatching(/^ {2}api\/c2\.read: 3000 of 3000 requests failed, most as expect-json \(3000×\)$/),
    ]);
    expect(mem.exists(p.baselineDir)).toBe(false);
    const md = mem.readText(join(p.dir, 'perf-gate-report.md'));
    expect(md).toContain('### ⛔ perf-gate: no baseline recorded — 1 row failed on nearly every request');
    expect(md).not.toContain('first baseline written');
  });

  it('accept-failing: true records it all the same, and the report says so', async () => {
    const p = project(
      config().replace('scenarios:\n  - name: api\n', 'scenarios:\n  - name: api\n    accept-failing: true\n'),
    );
    const r = await run(request(p, 'update'), harness({ only: { delayUs: 2000, failing: 0.97 } }).deps);
    expect(r.baselinesUpdated).toHaveLength(1);
    const md = mem.readText(join(p.dir, 'perf-gate-report.md'));
    expect(md).toContain('> ⚠️ Recorded although it failed on nearly every request (`accept-failing: true`): api/c2');
    expect(md).toMatch(/first baseline written — with errors: up to 97% of a phase's requests failed/);
  });

  it('an update with a few failing requests records them and says so: below nearly every one', async () => {
    const p = project();
    const r = await run(request(p, 'update'), harness({ only: { delayUs: 2000, failing: 0.5 } }).deps);
    expect(r.baselinesUpdated).toHaveLength(1);
    expect(mem.readText(join(p.dir, 'perf-gate-report.md'))).toMatch(/first baseline written — with errors: up to 50%/);
  });

  it('trials 2, no cap given: the cap grows to 13 trials, the run confirms at 13 and records it (issue 47)', async () => {
    const p = project(config('', 2));
    await run(request(p, 'update'), harness({ only: { delayUs: 2000 } }).deps);
    const slow = harness({ only: { delayUs: 3000 } });
    const gated = await run(request(p, 'gate'), slow.deps);
    expect(gated.verdict).toBe('regression');
    // 12 v 2 (1/91) could never reach 0.01; 13 v 2 (1/105) can
    expect(slow.docker.trials).toHaveLength(13);
    expect(results(p.dir).scenarios[0]?.phases[0]?.confirm).toEqual({ first: 2, cap: 13 });
    expect(gated.results.comparisons.find((c) => c.metric === 'p50')).toMatchObject({
      result: 'regression',
      extraTrials: 11,
    });
  });

  it('target: nothing is booted or taken down; the runner joins the host network; update and gate as usual', async () => {
    const p = project(
      config()
        .replace('sut:\n  compose: docker-compose.yml\n', 'target: http://127.0.0.1:8080/api\n')
        .replace('url: http://api:8080/work', 'url: /work'),
    );
    const up = harness({ only: { delayUs: 2000 } });
    const updated = await run(request(p, 'update'), up.deps);
    expect(updated.verdict).toBe('pass');
    expect(up.calls.filter((c) => /^(prepare|up|down) /.test(c))).toEqual([]);
    expect(up.docker.runnerNetworks).toEqual([['host']]);
    expect(up.docker.planUrls).toEqual(['http://127.0.0.1:8080/api/work']);
    expect(up.lines.join('')).toContain(
      '[perf-gate] run r1: target http://127.0.0.1:8080/api (nothing to boot; the runner joins network host)',
    );
    // no SUT containers: no SUT images in the provenance, no resources sampled
    expect(results(p.dir).provenance.sut.images).toEqual({});
    expect(up.calls.at(-1)).toBe('sweep r1');
    const slow = harness({ only: { delayUs: 3000 } });
    expect((await run(request(p, 'gate'), slow.deps)).verdict).toBe('regression');
  });

  it('target with --mode ab: exit 2 before anything starts', async () => {
    const p = project(config().replace('sut:\n  compose: docker-compose.yml\n', 'target: http://127.0.0.1:8080\n'));
    const h = harness({ base: { delayUs: 2000 }, head: { delayUs: 2000 } });
    const err = await failure(run(request(p, 'ab', { baseRef: 'HEAD' }), h.deps));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.message).toMatch(/^--mode ab: A\/B boots base and head from compose; .* gives target/);
    expect(h.calls).toEqual([]);
  });

  it('gate against an unchanged service passes without extra trials', async () => {
    const p = project();
    await run(request(p, 'update'), harness({ only: { delayUs: 2000 } }).deps);
    const same = harness({ only: { delayUs: 2000 } });
    const gated = await run(request(p, 'gate'), same.deps);
    expect(gated.verdict).toBe('pass');
    expect(same.docker.trials).toHaveLength(3);
  });

  it('a corrupt baseline is exit 2 in gate mode before anything boots', async () => {
    const p = project();
    mem.write(join(p.baselineDir, 'api.json'), '{ not json');
    const h = harness({ only: { delayUs: 2000 } });
    const err = await failure(run(request(p, 'gate'), h.deps));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.message).toMatch(/^baseline .*api\.json: not valid JSON/);
    expect(h.calls).toEqual([]);
  });

  it('a runner image that is not here and cannot be pulled: exit 3 before any SUT boots (issue 20)', async () => {
    const p = project();
    const h = harness({ only: { delayUs: 2000 } });
    h.docker.missingImage = 'perf-gate/node:local';
    const err = await failure(run(request(p, 'update'), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe('runner image perf-gate/node:local is not on this host');
    expect(h.calls).toEqual(['ensure perf-gate/node:local']);
  });

  it('a SUT image that cannot be pulled: exit 3 naming the service and the image', async () => {
    const p = project();
    const h = harness(
      { only: { delayUs: 2000 } },
      {
        upError: {
          r1: ' api Pulling \n api Error Get "https://registry-1.docker.io/v2/": dial tcp: no such host\nError response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: no such host',
        },
      },
    );
    const err = await failure(run(request(p, 'update'), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe(
      'SUT failed to start or become healthy: service api: image api:1 is not on this host and could not be pulled (Get "https://registry-1.docker.io/v2/": dial tcp: no such host); load it here (docker load), or give the service a build and set sut.build',
    );
  });

  it('a corrupt baseline in update mode is a warning, and replaced', async () => {
    const p = project();
    mem.write(join(p.baselineDir, 'api.json'), '{ not json');
    const h = harness({ only: { delayUs: 2000 } });
    const outcome = await run(request(p, 'update'), h.deps);
    expect(outcome.verdict).toBe('pass');
    expect(h.lines.join('')).toMatch(/warning: baseline .*api\.json: not valid JSON.*; it will be replaced/);
    expect(JSON.parse(mem.readText(join(p.baselineDir, 'api.json'))).schema).toBe('perf-gate/baseline@1');
  });

  it('a sweep without a ladder boots nothing, says so and passes', async () => {
    const p = project();
    const h = harness({ only: { delayUs: 2000 } });
    const outcome = await run(request(p, 'sweep'), h.deps);
    expect(outcome.verdict).toBe('pass');
    expect(outcome.results.unswept).toEqual(['api']);
    expect(h.lines.join('')).toContain('no sweep ladder (scenarios[].sweep) in api: nothing to sweep');
    expect(h.calls).toEqual([]);
  });

  it('a runner that dies mid-trial is exit 3 naming it, and everything is torn down', async () => {
    const p = project();
    const h = harness({ only: { delayUs: 2000, dieOnTrial: 2 } });
    const err = await failure(run(request(p, 'update'), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toMatch(/^runner died \(exit code 137\)/);
    expect(h.calls).toContain('down perfgate-r1');
    expect(h.calls.at(-1)).toBe('sweep r1');
    expect(h.written).toEqual([]);
  });

  it('a results file that cannot be written is exit 3 naming the path, after the teardown', async () => {
    const p = project();
    const h = harness({ only: { delayUs: 2000 } }, { failWrite: /perf-gate-results\.json$/ });
    const err = await failure(run(request(p, 'update'), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe(
      `cannot write ${join(p.dir, 'perf-gate-results.json')}: EACCES: permission denied, open '${join(p.dir, 'perf-gate-results.json')}'`,
    );
    expect(h.calls.at(-1)).toBe('sweep r1');
  });

  it('a baseline that cannot be written is exit 3 naming the path, not an internal error', async () => {
    const p = project();
    const h = harness({ only: { delayUs: 2000 } }, { failWrite: /api\.json$/ });
    const err = await failure(run(request(p, 'update'), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toMatch(/^cannot write .*baselines\/api\.json: EACCES/);
  });

  it('a gate whose trials and cap can never reach alpha is exit 2 naming the keys, before anything boots', async () => {
    const p = project(config('', 1));
    const h = harness({ only: { delayUs: 2000 } });
    const err = await failure(run(request(p, 'gate'), h.deps));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.details.join('\n')).toContain(
      'scenarios[0].trials (1) with gate.confirm.max-trials (12, grown as far as 24)',
    );
    expect(h.calls).toEqual([]);
  });
});

describe('run: A/B', () => {
  const abProject = () => {
    const p = project(config('ab: { pairs: 6 }'));
    return { ...p, tree: p.dir.slice(root.length + 1) };
  };

  it('pairs in the seeded order, one runner per side; a slower head is a regression; the worktree goes', async () => {
    const p = abProject();
    const h = harness({ base: { delayUs: 2000 }, head: { delayUs: 3000 } }, { baseTree: p.tree });
    const outcome = await run(request(p, 'ab', { baseRef: 'main', seed: 7 }), h.deps);
    expect(outcome.verdict).toBe('regression');
    const random = seededRandom(derivedSeed(7, 'api', 'c2'));
    // the run's budget (gate.run-alpha 0.01 by default): 6 pairs (1/64) cannot confirm at the first
    // look, so the regression is confirmed at the cap, 12 pairs, each drawn as before
    const expected = Array.from({ length: 12 }, () => drawOrder(random));
    expect(outcome.results.ab).toMatchObject({ order: 'random', seed: 7, pairs: 6 });
    expect(outcome.results.ab?.orders).toEqual([{ scenario: 'api', phase: 'c2', order: expected }]);
    // the sides ran in the drawn order, pair by pair
    const sides = h.docker.trials.map((t) => (t.includes('-base-') ? 'A' : 'B'));
    expect(sides.join('')).toBe(expected.join(''));
    expect(h.calls.filter((c) => c.startsWith('start '))).toEqual([
      'start perfgate-r1-base-runner',
      'start perfgate-r1-head-runner',
    ]);
    expect(h.git.some((g) => g.startsWith('worktree remove'))).toBe(true);
  });

  it('a scenario new in head whose endpoint the base commit lacks: its rows are no baseline, not exit 3', async () => {
    const p = abProject();
    // the base commit's config has another scenario, and its service answers 404 to api's requests
    const old = project(config('ab: { pairs: 6 }').replace('- name: api', '- name: older'));
    const h = harness(
      { base: { delayUs: 2000, failing: 1 }, head: { delayUs: 2000 } },
      { baseTree: p.tree, baseFrom: old.dir.slice(root.length + 1) },
    );
    const outcome = await run(request(p, 'ab', { baseRef: 'main', seed: 7 }), h.deps);
    expect(outcome.results.comparisons.map((c) => c.result)).toEqual(
      outcome.results.comparisons.map(() => 'no-baseline'),
    );
    expect(outcome.results.comparisons[0]?.reason).toMatch(/the base commit answered none of its requests/);
    expect(outcome.results.ab?.notes).toContain("scenario api is new in head; both sides run the head's definition");
  });

  it('a scenario new in head, unanswered on base, that breaks an absolute limit on head: still a regression', async () => {
    const p = project(
      config('ab: { pairs: 6 }').replace('p50: { regress: 20%, floor: 100us }', 'error-rate: { max: 1% }'),
    );
    const tree = p.dir.slice(root.length + 1);
    const old = project(config('ab: { pairs: 6 }').replace('- name: api', '- name: older'));
    const h = harness(
      { base: { delayUs: 2000, failing: 1 }, head: { delayUs: 2000, failing: 0.5 } },
      { baseTree: tree, baseFrom: old.dir.slice(root.length + 1) },
    );
    const outcome = await run(request(p, 'ab', { baseRef: 'main', seed: 7 }), h.deps);
    const rate = outcome.results.comparisons.find((c) => c.metric === 'error-rate');
    expect(rate).toMatchObject({ result: 'regression', baseline: null });
    expect(rate?.reason).toMatch(/^above the limit 1/);
    expect(outcome.verdict).toBe('regression');
  });

  it('a scenario the base commit has, unanswered there: exit 3 naming the base side, as before', async () => {
    const p = abProject();
    const h = harness({ base: { delayUs: 2000, failing: 1 }, head: { delayUs: 2000 } }, { baseTree: p.tree });
    const err = await failure(run(request(p, 'ab', { baseRef: 'main', seed: 7 }), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toMatch(/^base: api\/c2: no successful response/);
  });

  it('what was changed to boot both sides side by side is in the results and the report', async () => {
    const p = abProject();
    const changes = ['service api: published ports 8080:8080 not published', 'service api: container_name api dropped'];
    const h = harness(
      { base: { delayUs: 2000 }, head: { delayUs: 2000 } },
      { baseTree: p.tree, apart: { changes, blockers: [] } },
    );
    const outcome = await run(request(p, 'ab', { baseRef: 'main', seed: 3 }), h.deps);
    expect(outcome.results.ab?.sideBySide).toEqual({ head: changes, base: changes });
    const report = mem.readText(join(p.dir, 'perf-gate-report.md'));
    expect(report).toContain('- side by side: service api: published ports 8080:8080 not published');
    expect(report).toContain('- side by side: service api: container\\_name api dropped');
  });

  it('a compose file that cannot boot twice: --mode ab is exit 2 naming why, before anything boots', async () => {
    const p = abProject();
    const blockers = ["service api uses the host's network (network_mode: host)"];
    const h = harness(
      { base: { delayUs: 2000 }, head: { delayUs: 2000 } },
      { baseTree: p.tree, apart: { changes: [], blockers } },
    );
    const err = await failure(run(request(p, 'ab', { baseRef: 'main' }), h.deps));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.message).toMatch(
      /^compose docker-compose\.yml cannot boot twice side by side for A\/B: service api uses the host's network \(network_mode: host\); gate against baselines instead/,
    );
    expect(h.calls).toEqual([
      'ensure perf-gate/node:local',
      'collisions perfgate-r1-head',
      'collisions perfgate-r1-base',
    ]);
    expect(h.git.some((g) => g.startsWith('worktree remove'))).toBe(true);
  });

  it('mode auto chose A/B: a compose file that cannot boot twice is gated against baselines, with one line', async () => {
    const p = abProject();
    const blockers = ["service api maps the host's device /dev/fuse"];
    const h = harness({ only: { delayUs: 2000 } }, { baseTree: p.tree, apart: { changes: [], blockers } });
    const outcome = await run(request(p, 'ab', { baseRef: 'main', abFallback: true }), h.deps);
    expect(outcome.results.mode).toBe('gate');
    expect(outcome.results.ab).toBeUndefined();
    expect(h.lines.join('')).toContain(
      "compose docker-compose.yml cannot boot twice side by side for A/B: service api maps the host's device /dev/fuse: gating against baselines/",
    );
    expect(h.calls).toContain('up perfgate-r1');
    expect(h.git.some((g) => g.startsWith('worktree remove'))).toBe(true);
  });

  it('a head that fails to boot: exit 3 naming the side, base torn down, the worktree removed', async () => {
    const p = abProject();
    const h = harness(
      { base: { delayUs: 2000 }, head: { delayUs: 2000 } },
      { baseTree: p.tree, upError: { head: 'container api exited (1)' } },
    );
    const err = await failure(run(request(p, 'ab', { baseRef: 'main' }), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toBe('head: SUT failed to start or become healthy: container api exited (1)');
    expect(h.calls).toContain('down perfgate-r1-base');
    expect(h.git.some((g) => g.startsWith('worktree remove'))).toBe(true);
  });

  it('a runner that dies between pairs: exit 3 naming the side, both sides down, the worktree removed', async () => {
    const p = abProject();
    const h = harness({ base: { delayUs: 2000, dieOnTrial: 3 }, head: { delayUs: 2000 } }, { baseTree: p.tree });
    const err = await failure(run(request(p, 'ab', { baseRef: 'main', seed: 1 }), h.deps));
    expect(err.exitCode).toBe(EXIT_ENVIRONMENT);
    expect(err.message).toMatch(/^base: runner died \(exit code 137\)/);
    expect(h.calls).toEqual(expect.arrayContaining(['down perfgate-r1-base', 'down perfgate-r1-head']));
    expect(h.git.some((g) => g.startsWith('worktree remove'))).toBe(true);
  });
});

describe('run: outputs asked for', () => {
  it('--out-format: each output written in the order asked, after the results and the report; the history last', async () => {
    const p = project();
    const h = harness({ only: { delayUs: 2000 } });
    const outputs = [
      { format: 'json' as const, path: join(p.dir, 'verdict.json') },
      { format: 'terminal' as const, path: join(p.dir, 'table.txt') },
    ];
    const history = join(p.dir, 'history.jsonl');
    const outcome = await run(request(p, 'update', { outputs, history }), h.deps);
    expect(outcome.extraPaths).toEqual([...outputs.map((o) => o.path), history]);
    expect(h.written.slice(0, 2)).toEqual([join(p.dir, 'perf-gate-results.json'), join(p.dir, 'perf-gate-report.md')]);
    expect(JSON.parse(mem.readText(join(p.dir, 'verdict.json')))).toMatchObject({ verdict: 'pass' });
    expect(mem.readText(join(p.dir, 'table.txt'))).toMatch(/^scenario\/phase +trials/);
    // a gate draws the history's trend and leaves the file as it is
    const gated = await run(request(p, 'gate', { outputs, history }), harness({ only: { delayUs: 2000 } }).deps);
    expect(gated.extraPaths).toEqual(outputs.map((o) => o.path));
    expect(mem.readText(history).trim().split('\n')).toHaveLength(1);
  });
});

describe('run: trials interleaved across phases', () => {
  const twoPhases = () =>
    project(
      config().replace(
        '      - { name: c2, connections: 2, duration: 1s }\n',
        '      - { name: c2, connections: 2, duration: 1s }\n      - { name: c4, connections: 4, duration: 1s }\n',
      ),
    );

  it('gate and update: every phase’s trials in a seeded random order, each phase’s own in order; the seed recorded and said', async () => {
    const p = twoPhases();
    const first = harness({ only: { delayUs: 2000 } });
    await run(request(p, 'update', { seed: 5 }), first.deps);
    const order = first.docker.trials.map((t) => t.replace('perfgate-r1-runner: ', ''));
    // 3 trials each: both phases' in order, and not phase after phase
    expect(order.filter((t) => t.startsWith('api/c2'))).toEqual(['api/c2 1/3', 'api/c2 2/3', 'api/c2 3/3']);
    expect(order.filter((t) => t.startsWith('api/c4'))).toEqual(['api/c4 1/3', 'api/c4 2/3', 'api/c4 3/3']);
    expect(order).not.toEqual([...order].sort());
    expect(results(p.dir).interleaved).toEqual({ seed: 5 });
    expect(mem.readText(join(p.dir, 'perf-gate-report.md'))).toContain(
      "- trials: every phase's interleaved in a random order, seed 5 (`perf-gate run --seed 5` draws it again)",
    );
    // the same seed draws the same order
    const again = harness({ only: { delayUs: 2000 } });
    await run(request(p, 'gate', { seed: 5 }), again.deps);
    expect(again.docker.trials.map((t) => t.replace('perfgate-r1-runner: ', ''))).toEqual(order);
  });

  it('history: recorded in the results file where it differs from the defaults', async () => {
    const p = project(config('history: { min-shift: 10%, alpha: 0.05 }'));
    await run(request(p, 'update', { seed: 5 }), harness({ only: { delayUs: 2000 } }).deps);
    expect(results(p.dir).shiftSettings).toEqual({ minShift: 0.1, alpha: 0.05 });
    const plain = project(config());
    await run(request(plain, 'update', { seed: 5 }), harness({ only: { delayUs: 2000 } }).deps);
    expect(results(plain.dir)).not.toHaveProperty('shiftSettings');
  });

  it('gate.run-alpha: the budget split over the run’s gated phases, recorded per scenario and said in the report', async () => {
    const p = project(
      config('gate: { run-alpha: 0.02 }').replace(
        '      - { name: c2, connections: 2, duration: 1s }\n',
        '      - { name: c2, connections: 2, duration: 1s }\n      - { name: c4, connections: 4, duration: 1s }\n',
      ),
    );
    await run(request(p, 'update', { seed: 5 }), harness({ only: { delayUs: 2000 } }).deps);
    // update judges nothing: no budget recorded
    expect(results(p.dir).scenarios[0]?.family).toBe(undefined);
    const slow = harness({ only: { delayUs: 3000 } });
    const gated = await run(request(p, 'gate', { seed: 5 }), slow.deps);
    expect(gated.verdict).toBe('regression');
    expect(results(p.dir).scenarios[0]?.family).toEqual({ alpha: 0.02, members: 2 });
    // 3 v 3 cannot reach 0.01 a phase: both phases run to the cap, and 12 v 3 (1/455) confirms
    expect(gated.results.comparisons.map((c) => [c.phase, c.result, c.extraTrials])).toEqual([
      ['c2', 'regression', 9],
      ['c4', 'regression', 9],
    ]);
    expect(mem.readText(join(p.dir, 'perf-gate-report.md'))).toContain(
      '- false alarms: at most 2% of unchanged runs raise any band alarm (gate.run-alpha 0.02), 1% for each of 2 gated phases; the rows of a phase are tested together',
    );
  });

  it('sweep: level after level, in the ladder’s order; nothing recorded', async () => {
    const p = project(
      config().replace('    phases:\n', '    sweep: { connections: [1, 2, 4], duration: 1s }\n    phases:\n'),
    );
    const h = harness({ only: { delayUs: 2000 } });
    await run(request(p, 'sweep', { seed: 5 }), h.deps);
    expect(h.docker.trials.map((t) => t.replace('perfgate-r1-runner: ', ''))).toEqual([
      'api/c1 1/1',
      'api/c2 1/1',
      'api/c4 1/1',
    ]);
    expect(results(p.dir).interleaved).toBe(undefined);
  });
});

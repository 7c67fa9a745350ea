// The pipeline's behaviour pinned over every shipped config (issue 32: a restructuring must leave
// results, reports, baselines and errors byte-identical). Each config under fixtures/ runs through
// `run(request, deps)` on the fakes of run-harness.ts in every mode: update, gate (unchanged), gate
// (+50% latency), sweep and A/B; what each writes (results, report, JUnit, CSV, history, baselines),
// the terminal table, the progress lines, the verdict and any error are digested and compared with
// pins/pipeline.json. What differs from machine to machine (the temporary directory, the checkout's
// path, this machine's OS, CPU and memory) is replaced first.
//
// PERF_GATE_PIN=write rewrites the pins (after a change meant to change behaviour: say which in the
// commit); a mismatch leaves the case's outputs in $TMPDIR/perf-gate-pin/ for a diff.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/common/errors.js';
import { machineInfo } from '../../src/run/provenance.js';
import { renderResultsTable } from '../../src/report/terminal.js';
import type { RunOptions } from '../../src/run/contract.js';
import { run } from '../../src/run/run.js';
import { harness, type SideBehaviour } from './run-harness.js';

const ROOT = join(import.meta.dirname, '../..');
const PINS = join(import.meta.dirname, 'pins/pipeline.json');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'compose-corpus' || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/^perf-gate.*\.ya?ml$/.test(name)) out.push(relative(ROOT, path));
  }
  return out;
}

const configs = walk(join(ROOT, 'fixtures'));

/** The steps each config goes through, in order (a gate reads the baselines the update wrote). */
const STEPS: Array<{
  step: string;
  mode: RunOptions['mode'];
  sides: Record<string, SideBehaviour>;
  extra?: Partial<RunOptions>;
}> = [
  { step: 'update', mode: 'update', sides: { only: { delayUs: 2000 } } },
  { step: 'gate-same', mode: 'gate', sides: { only: { delayUs: 2000 } } },
  { step: 'gate-slow', mode: 'gate', sides: { only: { delayUs: 3000 } } },
  { step: 'sweep', mode: 'sweep', sides: { only: { delayUs: 2000 } } },
  {
    step: 'ab',
    mode: 'ab',
    sides: { base: { delayUs: 2000 }, head: { delayUs: 3000 } },
    extra: { baseRef: 'HEAD', seed: 7, pairs: 4 },
  },
];

let tmp: string;
const saved = { workspace: process.env.GITHUB_WORKSPACE };
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'perf-gate-pin-'));
  process.env.GITHUB_WORKSPACE = ROOT;
});
afterAll(() => {
  if (saved.workspace === undefined) delete process.env.GITHUB_WORKSPACE;
  else process.env.GITHUB_WORKSPACE = saved.workspace;
  rmSync(tmp, { recursive: true, force: true });
});

/** What differs from machine to machine, replaced by names. */
function normalise(text: string, dir: string): string {
  const m = machineInfo();
  let out = text.split(dir).join('<tmp>').split(ROOT).join('<root>');
  out = out.split(m.os).join('<os>').split(m.cpuModel).join('<cpu>');
  out = out.split(String(m.memoryBytes)).join('<memory>');
  return out.replace(/"cores": \d+/g, '"cores": <cores>').replace(/\/tmp\/perf-gate-base-[A-Za-z0-9]+/g, '<base>');
}

function listFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listFiles(path, out);
    else out.push(path);
  }
  return out;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** One config's steps: each step's outputs, normalised, by name. */
async function runConfig(config: string): Promise<Record<string, Record<string, string>>> {
  const dir = mkdtempSync(join(tmp, 'c-'));
  const baselineDir = join(dir, 'baselines');
  mkdirSync(baselineDir);
  const cases: Record<string, Record<string, string>> = {};
  for (const s of STEPS) {
    const out = join(dir, s.step);
    mkdirSync(out);
    const h = harness(ROOT, s.sides, { baseTree: relative(ROOT, join(ROOT, config, '..')) });
    const outputs: Record<string, string> = {};
    const before = new Set(listFiles(baselineDir));
    try {
      const outcome = await run(
        {
          configFile: join(ROOT, config),
          mode: s.mode,
          scenarios: [],
          baselineDir,
          outDir: out,
          runId: 'pin1',
          // the order of the interleaved trials (gate, update) and of A/B's pairs
          seed: 11,
          outputs: [
            { format: 'junit', path: join(out, 'results.xml') },
            { format: 'csv', path: join(out, 'results.csv') },
          ],
          history: join(dir, 'history.jsonl'),
          ...s.extra,
        },
        h.deps,
      );
      outputs.outcome = JSON.stringify({
        verdict: outcome.verdict,
        regressions: outcome.regressions,
        resultsPath: outcome.resultsPath,
        reportPath: outcome.reportPath,
        extraPaths: outcome.extraPaths,
        baselinesUpdated: outcome.baselinesUpdated,
      });
      outputs.terminal = renderResultsTable(outcome.results.scenarios);
    } catch (err) {
      outputs.error =
        err instanceof UserError
          ? JSON.stringify({ exitCode: err.exitCode, message: err.message, details: err.details })
          : `internal: ${(err as Error).message}`;
    }
    for (const f of listFiles(out)) outputs[relative(out, f)] = readFileSync(f, 'utf8');
    for (const f of listFiles(baselineDir)) {
      const text = readFileSync(f, 'utf8');
      if (!before.has(f) || s.mode === 'update') outputs[`baselines/${relative(baselineDir, f)}`] = text;
    }
    outputs.progress = h.lines.join('');
    outputs.calls = h.calls.join('\n');
    outputs.trials = h.docker.trials.join('\n');
    cases[s.step] = Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, normalise(v, dir)]));
  }
  try {
    cases.history = { 'history.jsonl': normalise(readFileSync(join(dir, 'history.jsonl'), 'utf8'), dir) };
  } catch {
    // no update wrote one
  }
  return cases;
}

const pins = (() => {
  try {
    return JSON.parse(readFileSync(PINS, 'utf8')) as Record<string, Record<string, Record<string, string>>>;
  } catch {
    return {};
  }
})();
const written: Record<string, Record<string, Record<string, string>>> = {};

describe('the pipeline over every shipped config, pinned', () => {
  it('finds the configs', () => {
    expect(configs.length).toBeGreaterThan(20);
  });

  it.each(configs)('%s', async (config) => {
    const cases = await runConfig(config);
    const got = Object.fromEntries(
      Object.entries(cases).map(([step, outputs]) => [
        step,
        Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, digest(v)])),
      ]),
    );
    if (process.env.PERF_GATE_PIN === 'write') {
      written[config] = got;
      return;
    }
    if (JSON.stringify(got) !== JSON.stringify(pins[config])) {
      const keep = join(tmpdir(), 'perf-gate-pin', config.replace(/[/\\]/g, '__'));
      for (const [step, outputs] of Object.entries(cases)) {
        for (const [name, text] of Object.entries(outputs)) {
          const path = join(keep, step, name.replace(/[/\\]/g, '__'));
          mkdirSync(join(path, '..'), { recursive: true });
          writeFileSync(path, text);
        }
      }
    }
    expect(got).toEqual(pins[config]);
  });

  afterAll(() => {
    if (process.env.PERF_GATE_PIN !== 'write') return;
    mkdirSync(join(PINS, '..'), { recursive: true });
    writeFileSync(PINS, `${JSON.stringify(written, null, 2)}\n`);
  });
});

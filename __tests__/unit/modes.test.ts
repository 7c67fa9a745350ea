// Modes are a seam (issue 32): one module per mode behind MODES, and the pipeline, the report and the
// Action ask the mode instead of comparing its name. The `@ts-expect-error` lines are checked by tsc
// (the tests are type-checked): a map missing a mode, or a mode module missing a part, would compile
// without them, and an unused `@ts-expect-error` is a compile error.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { isRunMode, type Mode, MODES, modeOf, type RunMode, traitsOf, verdictOf } from '../../src/modes/index.js';
import { gate } from '../../src/modes/gate.js';
import { comparison } from './fixtures.js';

const ROOT = join(import.meta.dirname, '../..');

/** MODES without one mode does not compile. */
const { sweep: _sweep, ...withoutSweep } = MODES;
// @ts-expect-error -- sweep has no module
export const partialModes: { readonly [M in RunMode]: Mode<M> } = withoutSweep;

/** A mode module that does not say how it judges does not compile. */
const { judge: _judge, ...gateWithoutJudge } = gate;
// @ts-expect-error -- judge is missing
export const halfMode: Mode<'gate'> = gateWithoutJudge;

/** MODES itself has a module for every mode (its own declaration, not only the annotation above). */
const _everyMode: [Exclude<RunMode, keyof typeof MODES>] extends [never] ? true : never = true;
export const everyMode = _everyMode;

/** A new mode name: the map stops compiling until it has a module. */
// @ts-expect-error -- canary has no module
export const newMode: { readonly [M in RunMode | 'canary']: Mode } = MODES;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('modes', () => {
  it('each mode is registered under its own name', () => {
    for (const [name, mode] of Object.entries(MODES)) expect(mode.name).toBe(name);
    expect(Object.keys(MODES)).toEqual(['gate', 'ab', 'update', 'sweep']);
  });

  it('gate and A/B gate; update and sweep never fail; only update records', () => {
    const rows = Object.values(MODES).map((m) => [m.name, m.gates, m.records, m.baselines, m.base !== undefined]);
    expect(rows).toEqual([
      ['gate', true, false, 'judge', false],
      ['ab', true, false, 'none', true],
      ['update', false, true, 'replace', false],
      ['sweep', false, false, 'none', false],
    ]);
  });

  it("a results file's unknown mode (a fork's artifact) gates nothing and records nothing", () => {
    expect(isRunMode('canary')).toBe(false);
    expect(traitsOf('canary')).toMatchObject({ gates: false, records: false, report: 'comparison' });
    const regression = [comparison({ result: 'regression' })];
    expect(verdictOf('canary', regression)).toEqual({ verdict: 'pass', regressions: 0 });
    expect(verdictOf('gate', regression)).toEqual({ verdict: 'regression', regressions: 1 });
    expect(verdictOf('update', regression)).toEqual({ verdict: 'pass', regressions: 0 });
    // Object.prototype's names are no modes
    expect(isRunMode('toString')).toBe(false);
  });

  it('A/B refuses a target, in one line; the others take it', () => {
    const { config, problems } = parseConfigText(
      'version: 1\ntarget: http://127.0.0.1:8080\nscenarios:\n  - name: a\n    request: { url: /x }\n    phases: [{ name: c1, connections: 1, duration: 1s }]\n',
      '/p/perf-gate.yml',
      (f) => `/p/${f}`,
    );
    expect(problems).toEqual([]);
    if (!config) throw new Error('no config');
    expect(modeOf('ab').refuse(config, 'perf-gate.yml')).toMatch(/^--mode ab: A\/B boots base and head from compose/);
    for (const m of ['gate', 'update', 'sweep'] as const)
      expect(modeOf(m).refuse(config, 'perf-gate.yml')).toBe(undefined);
  });

  it("no module outside src/modes/ compares a mode's name", () => {
    const offenders: string[] = [];
    for (const file of sources(join(ROOT, 'src'))) {
      const rel = relative(ROOT, file);
      if (rel.startsWith('src/modes/')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (
            /[!=]==\s*'(gate|update|sweep|ab|report)'|'(gate|update|sweep|ab|report)'\s*[!=]==|case '(gate|update|sweep|ab)':/.test(
              line,
            )
          )
            offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});

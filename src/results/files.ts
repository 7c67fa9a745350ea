// Results and baseline files (SPEC §5): stable key order and formatting so a refresh PR shows a
// readable diff; atomic writes (temp file + rename in the same directory).
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Scenario } from '../config-parts/types.js';
import type { BaselineProfile } from '../profiles/record.js';
import { protocolOf } from '../protocols/index.js';
import { BASELINE_SCHEMA, type BaselineFile, type Provenance, type ScenarioResult } from './types.js';

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** JSON with keys sorted at every level, two-space indent, trailing newline. */
export function stableStringify(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

export function writeFileAtomic(path: string, text: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${Date.now()}-${process.pid}-${Math.random().toString(16).slice(2)}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Hash of what the scenario measures (request, phases, warm-up; not thresholds, trials or sweep):
 * a baseline taken under another definition is stale. `bodies` (of the scenario's one request, or
 * its mix's first entry) counts by content, not path. */
export function scenarioHash(
  s: Scenario,
  bodies?: readonly string[],
  readBodies: (file: string) => readonly string[] = () => [],
): string {
  const definition = {
    // what the target adds: its protocol's (src/protocols/<kind>/copy.ts)
    ...protocolOf(s.target).hash(s.target, bodies, readBodies),
    phases: s.phases,
    warmupMs: s.warmupMs,
    // not warmupLater: a baseline's phases record the warm-up their later trials had, and a run's later
    // trials are never warmed up less (session/measure.ts), so the setting does not make it stale
  };
  return `sha256:${createHash('sha256').update(stableStringify(definition)).digest('hex')}`;
}

export function baselineOf(
  result: ScenarioResult,
  provenance: Provenance,
  profiles: readonly BaselineProfile[] = [],
): BaselineFile {
  return {
    schema: BASELINE_SCHEMA,
    scenario: result.name,
    scenarioHash: result.scenarioHash,
    provenance,
    // the trials put aside on a busy machine stay in the run's results, not in what later runs read,
    // and so does the generator's cost (the machine's figure of that run, nothing a gate compares),
    // and each trial's latency over time (the run's page draws it; a baseline in the repository would
    // only grow by it)
    phases: result.phases.map(({ discarded: _aside, generatorCpuUs: _cost, ...p }) => ({
      ...p,
      trials: p.trials.map(({ timeline: _timeline, ...t }) => t),
    })),
    ...(profiles.length > 0 ? { profiles: [...profiles] } : {}),
  };
}

export function baselinePath(dir: string, scenario: string): string {
  return join(dir, `${scenario}.json`);
}

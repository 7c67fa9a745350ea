// Results and baseline files (SPEC §5): stable key order and formatting so a refresh PR shows a
// readable diff; atomic writes (temp file + rename in the same directory).
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RequestSpec, Scenario, ScenarioTarget } from '../config/types.js';
import { assertNever } from '../runner-kit/protocols.js';
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

export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${Date.now()}-${process.pid}-${Math.random().toString(16).slice(2)}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** A hashed request: a request's bodies by content, not path; its timeout is not what is measured. */
function hashed(r: RequestSpec, rBodies: readonly string[] | undefined): object {
  // a request's timeout is not what is measured (as the scenario's request-timeout is not)
  const { bodiesFile: _path, timeoutMs: _timeout, ...request } = r;
  return {
    ...request,
    bodies: rBodies ? createHash('sha256').update(rBodies.join('\n')).digest('hex') : undefined,
  };
}

/**
 * What a scenario's target adds to its hash. Earlier versions gave WebSocket and gRPC scenarios an
 * HTTP `request` of their URL (as written) and headers (metadata), and hashed it: it is hashed here
 * as it was, so that their committed baselines do not turn stale.
 */
function hashedTarget(
  target: ScenarioTarget,
  bodies: readonly string[] | undefined,
  readBodies: (file: string) => readonly string[],
): object {
  switch (target.kind) {
    case 'http':
      return {
        // HTTP/1.1 (absent) keeps the hash it always had; HTTP/2 is another measurement
        ...(target.http === 2 ? { http: 2 } : {}),
        request: hashed(target.request, bodies),
        // thresholds are not part of what is measured; a mix's names and weights are
        mix: target.mix?.map((e) => ({
          name: e.name,
          weight: e.weight,
          request: hashed(e.request, e.request.bodiesFile ? readBodies(e.request.bodiesFile) : undefined),
        })),
      };
    case 'ws': {
      const w = target.websocket;
      return {
        request: hashed({ url: w.url, method: 'GET', headers: w.headers }, bodies),
        websocket: { ...w, thresholds: undefined },
      };
    }
    case 'grpc': {
      const g = target.grpc;
      return {
        request: hashed({ url: g.urlAsWritten, method: 'POST', headers: g.metadata }, bodies),
        // the proto by content (its parsed form), the messages by content, not by path
        grpc: {
          ...g,
          urlAsWritten: undefined,
          proto: undefined,
          protoFile: undefined,
          bodiesFile: undefined,
          bodies: g.bodiesFile
            ? createHash('sha256').update(readBodies(g.bodiesFile).join('\n')).digest('hex')
            : undefined,
        },
      };
    }
    default:
      return assertNever(target);
  }
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
    ...hashedTarget(s.target, bodies, readBodies),
    phases: s.phases,
    warmupMs: s.warmupMs,
  };
  return `sha256:${createHash('sha256').update(stableStringify(definition)).digest('hex')}`;
}

export function baselineOf(result: ScenarioResult, provenance: Provenance): BaselineFile {
  return {
    schema: BASELINE_SCHEMA,
    scenario: result.name,
    scenarioHash: result.scenarioHash,
    provenance,
    phases: result.phases,
  };
}

export function baselinePath(dir: string, scenario: string): string {
  return join(dir, `${scenario}.json`);
}

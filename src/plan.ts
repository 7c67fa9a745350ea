// The plan handed to the runner container, and the events it sends back on stdout.
// Pure data; built from the normalised config.
import type { ReadyProbe, RequestSpec, Scenario } from './config/types.js';
import { parseJsonl } from './jsonl.js';
import type { PlanRequest, PlanScenario, PlanTarget, RunnerPlan } from './protocol/plan.js';

export { EVENT_MARKER } from './protocol/plan.js';
export { parseEventLine } from './protocol/validate.js';
export type { PlanScenario, RunnerEvent, RunnerPlan, Stage } from './protocol/plan.js';

/** Each non-empty JSONL line is one body: a JSON string is sent as its text, anything else as JSON. */
export function parseBodiesJsonl(text: string, file: string): string[] {
  const bodies = parseJsonl(text, (n) => `${file}:${n}`).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (bodies.length === 0) throw new Error(`${file}: no bodies (one JSON value per line expected)`);
  return bodies;
}

function planRequest(r: RequestSpec, readBodies: (file: string) => string[]): PlanRequest {
  const request: PlanRequest = { url: r.url, method: r.method, headers: r.headers };
  if (r.body !== undefined) request.body = r.body;
  if (r.bodiesFile !== undefined) request.bodies = readBodies(r.bodiesFile);
  if (r.expect !== undefined) request.expect = r.expect;
  if (r.timeoutMs !== undefined) request.timeoutMs = r.timeoutMs;
  return request;
}

/** What the runner loads for a scenario: its requests (or mix), its WebSocket peers or its gRPC calls. */
function planTarget(s: Scenario, readBodies: (file: string) => string[]): PlanTarget {
  if (s.websocket) {
    const { thresholds: _gates, ...websocket } = s.websocket;
    return { kind: 'ws', websocket };
  }
  if (s.grpc) {
    const g = s.grpc;
    if (!g.descriptor) throw new Error(`scenario ${s.name}: the proto ${g.proto} was not loaded`);
    return {
      kind: 'grpc',
      grpc: {
        url: g.url,
        descriptor: g.descriptor,
        service: g.service,
        method: g.method,
        messages:
          g.bodiesFile !== undefined ? readBodies(g.bodiesFile).map((b) => JSON.parse(b) as unknown) : [g.message],
        metadata: g.metadata,
        channels: g.channels,
        deadlineMs: g.deadlineMs,
      },
    };
  }
  const target: PlanTarget = { kind: 'http', request: planRequest(s.request, readBodies) };
  if (s.mix) {
    target.mix = s.mix.map((e) => ({
      name: e.name,
      weight: e.weight,
      request: planRequest(e.request, readBodies),
    }));
  }
  return target;
}

export function buildPlan(
  scenarios: Scenario[],
  ready: ReadyProbe[],
  readBodies: (file: string) => string[],
  workers = 1,
): RunnerPlan {
  return {
    version: 1,
    progressIntervalMs: 1000,
    requestTimeoutMs: 10_000,
    workers,
    ready,
    scenarios: scenarios.map((s): PlanScenario => ({
      name: s.name,
      target: planTarget(s, readBodies),
      warmupMs: s.warmupMs,
      trials: s.trials,
      requestTimeoutMs: s.requestTimeoutMs,
      phases: s.phases,
    })),
  };
}

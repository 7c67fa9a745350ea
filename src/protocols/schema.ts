// The keys of a scenario its protocol reads, as perf-gate.yml writes them (SPEC §2): each protocol's own
// keys, and the keys only protocols read (a flow's iteration, a script hook, data rows).
// ../config/schema.ts spreads both into its scenario where the schema lists them, and each protocol's
// normalising reads a scenario through them (RawScenario), never through the whole config's type.
import { z } from 'zod';
import { entryThresholds } from '../config-parts/schema-parts.js';
import { grpcSpec } from './grpc/schema.js';
import { flowStep, mixEntry, request } from './http/schema.js';
import { websocket } from './ws/schema.js';

export const SCENARIO_PROTOCOL_KEYS = {
  request: request.optional().describe('the one request of every phase (or give requests, a mix)'),
  requests: z
    .array(mixEntry, { error: 'must be a list of requests' })
    .min(1, { error: 'must list at least one request' })
    .optional()
    .describe('a request mix: each phase sends these by weight, results per entry and for the whole phase'),
  flow: z
    .array(flowStep, { error: 'must be a list of steps' })
    .min(1, { error: 'must list at least one step' })
    .max(20, { error: 'must list at most 20 steps' })
    .optional()
    .describe(
      'a flow: each iteration sends these steps in order on one connection, the next once the previous is answered; values a step extracts fill {{name}} in the later steps; results per step, and for the iteration',
    ),
  grpc: grpcSpec
    .optional()
    .describe('a gRPC scenario instead of HTTP requests: unary calls, closed or open loop, results by status'),
  websocket: websocket
    .optional()
    .describe('a WebSocket scenario instead of HTTP requests: peers × messages phases, ack/push/delivery'),
};

export const SCENARIO_PROTOCOL_EXTRAS = {
  iteration: z
    .strictObject({
      thresholds: entryThresholds.describe(
        "gates on a flow's iterations (first step's write to last step's answer; rps: iterations per second)",
      ),
    })
    .optional()
    .describe("with flow: the iteration's own results, gated by these thresholds (without: reported only)"),
  hook: z
    .string({ error: 'must be a path to an ES module (.mjs or .js)' })
    .regex(/\.(mjs|js)$/, { error: 'must be a path to an ES module (.mjs or .js)' })
    .optional()
    .describe(
      "a script hook: a single-file ES module run in the runner's engine threads. HTTP (one HTTP/1.1 request): request(ctx) builds each request, check(response, ctx) judges each response. WebSocket: hello(peer) makes a peer's hello messages, reply(peer, text) reads the answer to them, message(peer, text) makes the text each message sends",
    ),
  data: z
    .strictObject({
      file: z
        .string({ error: 'must be a path to a .csv or .jsonl file' })
        .regex(/\.(csv|jsonl|ndjson)$/i, { error: 'must be a path to a .csv or .jsonl file' })
        .describe('a CSV file with a header row, or JSONL (one object per line); a path inside the workspace'),
      order: z
        .enum(['sequential', 'random'], { error: 'must be sequential or random' })
        .optional()
        .describe('which row a request takes: the next one (default), or one at random'),
    })
    .optional()
    .describe("rows that feed the scenario's requests: {{ data.COLUMN }} in its url, headers, body and bodies (HTTP)"),
};

/** A scenario as the config writes it (schema-valid), as far as its protocol reads it. */
export type RawScenario = z.infer<z.ZodObject<typeof SCENARIO_PROTOCOL_KEYS & typeof SCENARIO_PROTOCOL_EXTRAS>>;

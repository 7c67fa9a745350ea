// One phase of a scenario as perf-gate.yml writes it (SPEC §2): its level, length, ramp and per-protocol
// counts. Here, below the protocols, because each protocol normalises its own phases
// (src/protocols/<kind>/normalize.ts) and ../config/schema.ts puts the phase in a scenario.
import { z } from 'zod';
import { BOUNDS, intIn, name, numberUpTo, phaseDuration } from './schema-parts.js';

/** A ramp's level at a stage's end: 0 is allowed (a ramp down to nothing). */
function levelUpTo(max: number, integer: boolean) {
  const error = `must be ${integer ? 'an integer' : 'a number'} from 0 to ${max.toLocaleString('en-US')}`;
  const n = z.number({ error }).min(0, { error }).max(max, { error });
  return integer ? n.int({ error }) : n;
}

/** One stage of a ramp (k6's `stages`): the level moves linearly to this stage's over its duration. */

const stage = z.strictObject({
  duration: phaseDuration.describe("how long the level takes to move to this stage's (100ms to 24h)"),
  rate: levelUpTo(BOUNDS.rate, false).optional().describe('open loop: the arrival rate at the end of this stage'),
  connections: levelUpTo(BOUNDS.connections, true)
    .optional()
    .describe('closed loop: the connections at the end of this stage'),
  target: levelUpTo(BOUNDS.rate, false)
    .optional()
    .describe("k6's name: the phase's rate (open loop) or connections (closed loop) at the end of this stage"),
});

export const phase = z.strictObject({
  name: name.optional().describe('names the phase in baselines and reports; derived when omitted'),
  connections: intIn(1, BOUNDS.connections)
    .optional()
    .describe(
      'closed loop: concurrent connections (with stages, the count it starts from, default 0); open loop: sockets, default max-in-flight',
    ),
  duration: phaseDuration.optional().describe('100ms to 24h'),
  requests: intIn(1, BOUNDS.requests).optional().describe('closed loop: stop after this many responses'),
  amount: intIn(1, BOUNDS.requests).optional().describe("autocannon's name for requests"),
  rate: numberUpTo(BOUNDS.rate)
    .optional()
    .describe('open loop: fixed arrival rate, requests per second (with stages, the rate it starts from, default 0)'),
  stages: z
    .array(stage)
    .min(1, { error: 'must list at least one stage' })
    .max(50, { error: 'must list at most 50 stages' })
    .optional()
    .describe(
      'a ramp (k6 stages): the rate (open loop) or connections (closed loop) move linearly through each stage; the phase lasts their durations added up',
    ),
  pipelining: intIn(1, BOUNDS.pipelining)
    .optional()
    .describe(
      "closed loop, HTTP: requests each connection keeps in flight, written back to back (autocannon's pipelining; default 1)",
    ),
  streams: intIn(1, BOUNDS.streams)
    .optional()
    .describe(
      "HTTP/2 (request.http: 2): requests each connection keeps in flight as concurrent streams (h2load's -m; default 1)",
    ),
  'max-in-flight': intIn(1, BOUNDS.maxInFlight)
    .optional()
    .describe('open loop: bound on outstanding requests (default 1000; also bounded by connections)'),
  peers: intIn(1, BOUNDS.peers).optional().describe('WebSocket: connected peers (at least 2)'),
  messages: intIn(1, BOUNDS.messages).optional().describe('WebSocket: messages each peer sends'),
});

export type RawPhase = z.infer<typeof phase>;

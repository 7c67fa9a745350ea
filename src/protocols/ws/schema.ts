// The perf-gate.yml schema of a WebSocket scenario's `websocket`.
import { z } from 'zod';
import { durationIn, entryThresholds, textOrJson, withPort } from '../../config-parts/schema-parts.js';

const wsUrl = withPort(
  z
    .string({ error: 'must be a ws:// or wss:// URL' })
    .regex(/^wss?:\/\/[^\s/]+(\/\S*)?$/, { error: 'must be a ws:// or wss:// URL' }),
  'must be a ws:// or wss:// URL with a port from 1 to 65535',
);

export const websocket = z.strictObject({
  url: wsUrl.describe("may hold {{peer}}, the peer's number"),
  headers: z.record(z.string(), z.string({ error: 'header values must be strings' })).optional(),
  hello: z
    .array(textOrJson)
    .optional()
    .describe('messages each peer sends once after it connects (not measured): {{peer}}'),
  'hello-reply': z
    .boolean({ error: 'must be true or false' })
    .optional()
    .describe(
      'a peer is connected (and sending starts) only once a message answers its hello: for a server that registers peers asynchronously',
    ),
  message: textOrJson.describe(
    'the measured message: {{id}} (required: acks and pushes are matched by it), {{peer}}, {{other}} (a random other peer), {{n}}',
  ),
  json: z
    .boolean({ error: 'must be true or false' })
    .optional()
    .describe('the string templates are JSON: checked when the config is read (objects always are)'),
  push: z
    .enum(['one', 'all', 'none'], { error: 'must be one, all or none' })
    .optional()
    .describe(
      'who else gets each message: one other peer (default; the first to get it is its push), all other peers (a broadcast: every delivery counts, delivery = deliveries ÷ (messages × other peers)), or none (an echo server: only the ack is awaited)',
    ),
  drain: durationIn(0, 10 * 60_000, '0s to 10m')
    .optional()
    .describe('how long acks and pushes may still arrive after the last send (default 5s)'),
  thresholds: z
    .strictObject({ push: entryThresholds, connect: entryThresholds })
    .optional()
    .describe("gates on push latency and on connect time (the phase's own thresholds gate the ack)"),
});

// The perf-gate.yml schema of an HTTP scenario: its `request`, or the entries of its `requests` mix.
import { z } from 'zod';
import { durationIn, entryThresholds, intIn, name, textOrJson, withPort } from '../../config-parts/schema-parts.js';

const statusCode = z
  .number({ error: 'must be an HTTP status (100 to 599), or a list of them' })
  .int({ error: 'must be an HTTP status (100 to 599), or a list of them' })
  .min(100, { error: 'must be an HTTP status (100 to 599), or a list of them' })
  .max(599, { error: 'must be an HTTP status (100 to 599), or a list of them' });
const someText = z.string({ error: 'must be text' }).min(1, { error: 'must not be empty' });

/** Response checks: a response that fails one is a failure counted by check (expect-status, ...). */
const expectChecks = z.strictObject({
  status: z
    .union([statusCode, z.array(statusCode).min(1, { error: 'must list at least one status' })], {
      error: 'must be an HTTP status (100 to 599), or a list of them',
    })
    .optional()
    .describe('the status must be one of these (a listed 4xx is then a success); default any 2xx or 3xx'),
  headers: z
    .record(z.string(), someText, { error: 'must be a mapping of header name to the text its value contains' })
    .optional()
    .describe('header name → text its value must contain (case-insensitive)'),
  body: z
    .union([someText, z.array(someText).min(1, { error: 'must list at least one text' })], {
      error: 'must be text, or a list of texts, the body must contain',
    })
    .optional()
    .describe('text (or texts) the body must contain'),
  json: z
    .record(z.string(), z.unknown(), {
      error: 'must be a mapping of JSON path to a value, { exists: true|false } or { equals: value }',
    })
    .optional()
    .describe(
      'JSON path ($.data.id, data.items[0].id) → the value it must equal, { exists: false } (must be absent, e.g. $.errors of a GraphQL answer), { exists: true }, or { equals: value }',
    ),
});

/** A request's URL: whole, or a path under `target` (a running service's base URL). */
const requestUrl = withPort(
  z
    .string({ error: 'must be an http:// or https:// URL (or, with target, a path such as /api/items)' })
    .regex(/^(?:https?:\/\/[^\s/]+(?:\/\S*)?|\/\S*)$/, {
      error: 'must be an http:// or https:// URL (or, with target, a path such as /api/items)',
    }),
  'must be an http:// or https:// URL with a port from 1 to 65535',
);

const httpVersion = z
  .union([z.literal(2), z.literal('2'), z.literal(1.1), z.literal('1.1')], { error: 'must be 1.1 or 2' })
  .describe(
    'the HTTP version: 1.1 (default) or 2 (h2 over TLS by ALPN for https://, h2c with prior knowledge for http://)',
  );

export const request = z.strictObject({
  url: requestUrl,
  http: httpVersion.optional(),
  // k6 and autocannon users write `post` as often as `POST`: both are read, as POST
  method: z
    .enum(
      [
        'GET',
        'HEAD',
        'POST',
        'PUT',
        'PATCH',
        'DELETE',
        'OPTIONS',
        'get',
        'head',
        'post',
        'put',
        'patch',
        'delete',
        'options',
      ],
      { error: 'must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS (or the same in lowercase)' },
    )
    .optional(),
  headers: z.record(z.string(), z.string({ error: 'header values must be strings' })).optional(),
  body: textOrJson.optional(),
  bodies: z.string({ error: 'must be a path to a JSONL file' }).optional().describe('one body per line, rotated'),
  timeout: durationIn(1, 10 * 60_000, '1ms to 10m')
    .optional()
    .describe("this request's timeout (default: the scenario's request-timeout, 10s)"),
  expect: expectChecks
    .optional()
    .describe('what a response must be to count as a success; one that fails a check is a failure, counted by check'),
});

export const mixEntry = request.extend({
  name: name.describe('names the entry in results, thresholds and the report'),
  weight: z
    .number({ error: 'must be a number of 0 or more' })
    .nonnegative({ error: 'must be a number of 0 or more' })
    .optional()
    .describe("share of the phase's requests, relative to the other entries (default 1)"),
  thresholds: entryThresholds.describe(
    'gates on this entry alone (only these are checked for it); SUT resources are per phase',
  ),
});

const RULE_ERROR = 'must be one of { json: PATH }, { header: NAME }, { regex: EXPRESSION, group: N }, { cookie: NAME }';
const ruleText = z.string({ error: RULE_ERROR }).min(1, { error: 'must not be empty' });

/** Where a value is read from an answer (a setup step's, a flow step's). */
export const extractRule = z.union(
  [
    z.strictObject({ json: ruleText.describe('a JSON path of the body ($.token, data.items[0].id)') }),
    z.strictObject({ header: ruleText.describe('a response header, by name') }),
    z.strictObject({
      regex: ruleText.describe('a regular expression over the body (JavaScript syntax)'),
      group: intIn(0, 99).optional().describe('its group that is the value (default 1; 0: the whole match)'),
    }),
    z.strictObject({ cookie: ruleText.describe('a cookie the response sets (Set-Cookie), by name') }),
  ],
  { error: RULE_ERROR },
);

/** A flow's step: a request as a mix entry writes it (no weight: every step is sent once an
 * iteration), and what it extracts for the steps after it. */
export const flowStep = mixEntry.omit({ weight: true }).extend({
  extract: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
        error: 'must be a name of letters, digits and _ (used as {{name}} in later steps)',
      }),
      extractRule,
    )
    .optional()
    .describe('value name → where it is read from the answer; the later steps use it as {{name}}'),
});

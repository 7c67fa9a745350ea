// The perf-gate.yml schema of a gRPC scenario's `grpc`.
import { z } from 'zod';
import { durationIn, positiveInt, withPort } from '../../config-parts/schema-parts.js';

export const grpcSpec = z.strictObject({
  url: withPort(
    z
      .string({ error: 'must be a grpc://host:port or grpcs://host:port URL' })
      .regex(/^grpcs?:\/\/[^\s/]+\/?$/, { error: 'must be a grpc://host:port or grpcs://host:port URL' }),
    'must be a grpc://host:port or grpcs://host:port URL with a port from 1 to 65535',
  ),
  proto: z
    .string({ error: 'must be a path to a .proto file' })
    .describe('inside the workspace; imports resolve beside it'),
  service: z
    .string({ error: 'must be a service name' })
    .min(1)
    .describe('full name, package included: vectordb.VectorDB'),
  method: z.string({ error: 'must be a method name' }).min(1).describe('a unary method of the service'),
  message: z
    .record(z.string(), z.unknown(), { error: 'must be an object (the request message in JSON form)' })
    .optional()
    .describe('the request message (JSON form of the request type)'),
  bodies: z
    .string({ error: 'must be a path to a JSONL file' })
    .optional()
    .describe('one request message per line, rotated'),
  metadata: z.record(z.string(), z.string({ error: 'metadata values must be strings' })).optional(),
  channels: positiveInt
    .max(256, { error: 'must be at most 256' })
    .optional()
    .describe('HTTP/2 connections the calls are spread over (default 1)'),
  deadline: durationIn(1, 10 * 60_000, '1ms to 10m')
    .optional()
    .describe('per-call deadline (default: the scenario request-timeout, 10s)'),
});

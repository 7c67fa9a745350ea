// Pure: a gRPC scenario's calls as the config writes them read into the normalised target, and its
// phases' limits (no pipelining, no channel ramps). The proto itself is read and checked when the
// config is loaded from disk (src/config-parts/proto.ts).
import type { z } from 'zod';
import { requestAsksClose } from '../../runner-kit/connection-header.js';
import { normalizePhase, pipelinedPhase } from '../../config-parts/phases.js';
import type { RawPhase } from '../../config-parts/phase-schema.js';
import type { grpcSpec } from './schema.js';
import type { GrpcSpec, GrpcTarget } from '../../config-parts/types.js';
import type { Phase } from '../../runner-kit/plan.js';
import { parseDurationMs } from '../../common/units.js';
import type { NormalizeContext } from '../protocol.js';
import type { RawScenario } from '../schema.js';

type RawGrpc = z.infer<typeof grpcSpec>;

function normalizeGrpc(
  raw: RawGrpc,
  path: string,
  problems: string[],
  resolveAt: (path: string, relative: string) => string | undefined,
  /** the scenario's request-timeout: the deadline when none is given */
  requestTimeoutMs: number,
): GrpcSpec {
  if ((raw.message === undefined) === (raw.bodies === undefined)) {
    problems.push(`${path}: give message or bodies (one request message per line), exactly one`);
  }
  const out: GrpcSpec = {
    url: raw.url.replace(/\/$/, ''),
    urlAsWritten: raw.url,
    proto: raw.proto,
    protoFile: resolveAt(`${path}.proto`, raw.proto) ?? raw.proto,
    service: raw.service,
    method: raw.method,
    metadata: Object.fromEntries(Object.entries(raw.metadata ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    channels: raw.channels ?? 1,
    deadlineMs: raw.deadline !== undefined ? (parseDurationMs(raw.deadline) as number) : requestTimeoutMs,
  };
  for (const [key, value] of Object.entries(out.metadata)) {
    if (!/^[0-9a-z_.-]+$/.test(key) || key.startsWith('grpc-')) {
      problems.push(`${path}.metadata.${key}: not a metadata key gRPC allows (lowercase [0-9a-z_.-], not grpc-*)`);
    } else if (key.endsWith('-bin')) {
      problems.push(`${path}.metadata.${key}: binary (-bin) metadata is not supported; give text values`);
    } else if (!/^[\x20-\x7e]*$/.test(value)) {
      problems.push(`${path}.metadata.${key}: the value must be printable ASCII (no newlines or control characters)`);
    }
  }
  const port = /^grpcs?:\/\/(\[[^\]]+\]|[^:/]+):(\d+)\/?$/.exec(raw.url)?.[2];
  if (port === undefined || Number(port) < 1 || Number(port) > 65535) {
    problems.push(`${path}.url: must name the port, 1 to 65535 (grpc://host:port)`);
  }
  if (raw.message !== undefined) out.message = raw.message;
  if (raw.bodies !== undefined) {
    const abs = resolveAt(`${path}.bodies`, raw.bodies);
    if (abs) out.bodiesFile = abs;
  }
  return out;
}

/** A phase of a gRPC scenario: a closed or open loop, without HTTP/1.1's pipelining or a channel ramp. */
export function normalizeGrpcPhase(raw: RawPhase, path: string, problems: string[]): Phase | undefined {
  const phase = normalizePhase(raw, path, problems);
  if (phase?.kind === 'closed' && phase.pipelining !== undefined) {
    problems.push(
      `${path}.pipelining: HTTP/1.1 only; a gRPC scenario's calls share its channels (raise connections for more calls in flight)`,
    );
  }
  if (phase && phase.kind !== 'ws' && phase.streams !== undefined) {
    problems.push(
      `${path}.streams: a gRPC scenario's calls are multiplexed over its channels already (connections or max-in-flight set the calls in flight, grpc.channels the connections)`,
    );
  }
  if (phase?.kind === 'closed' && phase.ramp) {
    problems.push(
      `${path}.stages: a gRPC scenario cannot ramp its channels yet; ramp the rate instead (stages with rate:)`,
    );
  }
  return phase;
}

export function normalizeGrpcTarget(raw: RawScenario, path: string, ctx: NormalizeContext): GrpcTarget | undefined {
  if (!raw.grpc) return undefined;
  const grpc = normalizeGrpc(raw.grpc, `${path}.grpc`, ctx.problems, ctx.resolveAt, ctx.requestTimeoutMs);
  // earlier versions checked a gRPC scenario's metadata as an HTTP request's headers; kept so that
  // config errors read as before (the pipelining problem above is reported as well)
  const pipelined = pipelinedPhase(ctx.phases);
  if (pipelined >= 0 && requestAsksClose(grpc.metadata)) {
    ctx.problems.push(
      `${path}.phases[${pipelined}].pipelining: not with a Connection: close request (the server would drop the requests queued behind the first)`,
    );
  }
  return { kind: 'grpc', grpc };
}

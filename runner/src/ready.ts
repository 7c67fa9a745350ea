// Ready probes, made from inside the SUT network: poll each URL until it is ready or its timeout
// passes. http(s)://: it answers 2xx/3xx. tcp://host:port: it accepts a connection (a service that
// speaks no HTTP: a database), which is closed at once. grpc(s)://host:port[/service]: the gRPC
// health protocol (grpc.health.v1.Health/Check) answers SERVING for the service ("" without one),
// asked over Node's own HTTP/2 client (one call per attempt; not the load engine's).
import { connect } from 'node:net';
import { connect as h2Connect } from 'node:http2';
import { grpcProbeAddress, tcpProbeAddress } from '../../src/runner-kit/plan.js';
import { emit } from './emit.js';

/** the most of a Health/Check answer read */
const MAX_HEALTH_BYTES = 64 * 1024;

/** HealthCheckResponse.ServingStatus by number. */
const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];

/** A Health/Check request: HealthCheckRequest { service } (field 1, a string), length-prefixed. */
export function healthCheckRequest(service: string): Buffer {
  const name = Buffer.from(service, 'utf8');
  // the name's length as a varint (7 bits a byte, low first)
  const length: number[] = [];
  for (let n = name.length; ; n >>>= 7) {
    length.push(n >= 0x80 ? (n & 0x7f) | 0x80 : n);
    if (n < 0x80) break;
  }
  const message = name.length > 0 ? Buffer.concat([Buffer.from([0x0a, ...length]), name]) : Buffer.alloc(0);
  const framed = Buffer.alloc(5 + message.length);
  framed.writeUInt32BE(message.length, 1);
  message.copy(framed, 5);
  return framed;
}

/** The serving status in a Check response's framed message (field 1, a varint), or UNKNOWN. */
export function servingStatusOf(body: Buffer): string {
  for (let i = 5; i + 1 < body.length; i++)
    if (body[i] === 0x08) return SERVING_STATUS[body[i + 1] as number] ?? 'UNKNOWN';
  return 'UNKNOWN';
}

/** One Health/Check call over h2c (or TLS): the grpc-status and serving status it answered, or why none. */
export function grpcHealthCall(
  address: { host: string; port: number; tls: boolean; service: string },
  waitMs: number,
): Promise<{ grpcStatus?: string; serving?: string; error?: string }> {
  return new Promise((resolve) => {
    const host = address.host.includes(':') ? `[${address.host}]` : address.host;
    const session = h2Connect(`${address.tls ? 'https' : 'http'}://${host}:${address.port}`, {
      rejectUnauthorized: false,
    });
    const chunks: Buffer[] = [];
    let grpcStatus: string | undefined;
    let settled = false;
    const done = (r: { grpcStatus?: string; serving?: string; error?: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ error: 'timeout' }), waitMs);
    session.on('error', (err: NodeJS.ErrnoException) => done({ error: err.code ?? err.message }));
    const call = session.request({
      ':method': 'POST',
      ':path': '/grpc.health.v1.Health/Check',
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    // a failed connect cancels the call first: the session's own error (ECONNREFUSED) says more
    call.on('error', (err: NodeJS.ErrnoException) => setImmediate(() => done({ error: err.code ?? err.message })));
    call.on('response', (h) => (grpcStatus = h['grpc-status'] as string | undefined));
    call.on('trailers', (h) => (grpcStatus = h['grpc-status'] as string | undefined));
    // a health answer is a few bytes: a server that streams more is not answering it
    let size = 0;
    call.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_HEALTH_BYTES) done({ error: 'a health answer larger than 64 KiB' });
      else chunks.push(d);
    });
    call.on('end', () => {
      if (grpcStatus === undefined) return done({ error: 'grpc-status none' });
      done(grpcStatus === '0' ? { grpcStatus, serving: servingStatusOf(Buffer.concat(chunks)) } : { grpcStatus });
    });
    call.end(healthCheckRequest(address.service));
  });
}

function grpcAttempt(address: { host: string; port: number; tls: boolean; service: string }): Attempt {
  return async (waitMs) => {
    const r = await grpcHealthCall(address, waitMs);
    if (r.error !== undefined) return { error: r.error };
    if (r.grpcStatus === '12')
      return { error: 'UNIMPLEMENTED: the server has no gRPC health service (probe tcp:// instead)' };
    if (r.grpcStatus !== '0') return { error: `grpc-status ${r.grpcStatus ?? 'none'}` };
    return r.serving === 'SERVING' ? {} : { error: r.serving ?? 'UNKNOWN' };
  };
}

/** One attempt: no error when ready (with the HTTP status, for an HTTP probe), else why not. */
type Attempt = (waitMs: number) => Promise<{ error?: string; status?: number }>;

function httpAttempt(url: string): Attempt {
  return async (waitMs) => {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(waitMs) });
      await res.arrayBuffer();
      return res.status >= 200 && res.status < 400 ? { status: res.status } : { error: `HTTP ${res.status}` };
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      return { error: cause?.code ?? cause?.message ?? (err as Error).message };
    }
  };
}

function tcpAttempt(address: { host: string; port: number }): Attempt {
  return (waitMs) =>
    new Promise((resolve) => {
      const socket = connect(address);
      let settled = false;
      const done = (error?: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        resolve(error === undefined ? {} : { error });
      };
      const timer = setTimeout(() => done('connect-timeout'), waitMs);
      socket.once('connect', () => done());
      socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    });
}

export async function waitReady(url: string, timeoutMs: number): Promise<string | undefined> {
  const address = tcpProbeAddress(url);
  const grpc = grpcProbeAddress(url);
  const attempt = address ? tcpAttempt(address) : grpc ? grpcAttempt(grpc) : httpAttempt(url);
  const started = performance.now();
  let lastError = 'no answer';
  while (performance.now() - started < timeoutMs) {
    const remaining = timeoutMs - (performance.now() - started);
    const r = await attempt(Math.round(Math.max(100, Math.min(2000, remaining))));
    if (r.error === undefined) {
      const elapsedMs = Math.round(performance.now() - started);
      emit({ t: 'probe', url, ok: true, ...(r.status !== undefined ? { status: r.status } : {}), elapsedMs });
      return undefined;
    }
    lastError = r.error;
    await new Promise((res) => setTimeout(res, 250));
  }
  return lastError;
}

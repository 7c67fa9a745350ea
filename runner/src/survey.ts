// `perf-gate init --probe`, the runner's half: from inside the SUT network, ask each address what it
// speaks. Connect (retried while the service comes up); a server that speaks first is TCP (a database's
// greeting); an HTTP/1.x status line to `GET /` is HTTP (then the usual health paths and an OpenAPI
// document are asked for, and a refused Host is tried again as localhost); a grpc-status to the gRPC
// health check over h2c is gRPC; anything else that connects is TCP. Every step is bounded in time and
// bytes; only kinds, status codes and perf-gate's own words are reported, and of what the service
// sent only the OpenAPI document's paths, each checked to be a plain request path (../../src/runner-kit/openapi.ts).
import { connect } from 'node:net';
import { callableGets } from '../../src/runner-kit/openapi.js';
import type { SurveyAddress, SurveyFinding } from '../../src/runner-kit/plan.js';
import { grpcHealthCall } from './ready.js';

/** how long an address may take to accept its first connection (a service still starting) */
const CONNECT_WITHIN_MS = 30_000;
/** how long a server that speaks first has to say something */
const BANNER_MS = 500;
const EXCHANGE_MS = 3_000;
/** the most read of one answer (an OpenAPI document included) */
const MAX_BYTES = 1024 * 1024;

export const HEALTH_PATHS = ['/health', '/healthz', '/ready', '/readyz', '/livez', '/api/health', '/status', '/ping'];
export const OPENAPI_PATHS = [
  '/openapi.json',
  '/v3/api-docs',
  '/swagger.json',
  '/api-docs',
  '/swagger/v1/swagger.json',
];

interface Exchange {
  connected: boolean;
  error?: string;
  data: Buffer;
}

/** Connects, sends `request` (nothing: waits for the server to speak), and reads until the server
 * closes, `waitMs` passes or MAX_BYTES are in. */
function exchange(address: SurveyAddress, request: string | undefined, waitMs: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: address.host, port: address.port });
    const chunks: Buffer[] = [];
    let size = 0;
    let connected = false;
    let settled = false;
    const done = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ connected, ...(error !== undefined ? { error } : {}), data: Buffer.concat(chunks) });
    };
    let timer = setTimeout(() => done(connected ? undefined : 'connect-timeout'), waitMs);
    socket.once('connect', () => {
      connected = true;
      clearTimeout(timer);
      timer = setTimeout(() => done(), waitMs);
      if (request !== undefined) socket.write(request);
    });
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      size += d.length;
      if (size >= MAX_BYTES || (request === undefined && size > 0)) done();
    });
    socket.once('end', () => done());
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

/** The status of an HTTP/1.x answer, and its body (Connection: close, so it is what came). */
function httpAnswer(data: Buffer): { status: number; body: Buffer } | undefined {
  const m = /^HTTP\/1\.[01] ([1-9]\d\d)/.exec(data.subarray(0, 16).toString('latin1'));
  if (!m) return undefined;
  const end = data.indexOf('\r\n\r\n');
  return { status: Number(m[1]), body: end < 0 ? Buffer.alloc(0) : data.subarray(end + 4) };
}

async function get(address: SurveyAddress, path: string, host: string) {
  const request = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: perf-gate-init-probe\r\nAccept: */*\r\nConnection: close\r\n\r\n`;
  const r = await exchange(address, request, EXCHANGE_MS);
  return httpAnswer(r.data);
}

/** A chunked body's data (an OpenAPI document is often sent chunked). */
function dechunk(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  // each round moves past a size line and its data, so it ends; a line that is no hex size ends it too
  while (at < body.length) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const line = body.toString('latin1', at, eol).split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,8}$/.test(line)) return undefined;
    const size = Number.parseInt(line, 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return undefined;
}

function openapiGets(body: Buffer): string[] | undefined {
  const read = (b: Buffer | undefined) => {
    if (b === undefined) return undefined;
    let doc: unknown;
    try {
      doc = JSON.parse(b.toString('utf8'));
    } catch {
      return undefined;
    }
    const d = doc as { openapi?: unknown; swagger?: unknown } | null;
    if (d === null || typeof d !== 'object' || (typeof d.openapi !== 'string' && typeof d.swagger !== 'string')) {
      return undefined;
    }
    return callableGets(doc);
  };
  // as it came, else as a chunked body (only then is it taken apart)
  return read(body) ?? read(dechunk(body));
}

async function surveyOne(address: SurveyAddress): Promise<SurveyFinding> {
  const at = { host: address.host, port: address.port };
  // the first connection, retried while the service comes up (a compose service without a health check)
  const started = performance.now();
  let first: Exchange;
  for (;;) {
    first = await exchange(address, undefined, BANNER_MS);
    if (first.connected || performance.now() - started > CONNECT_WITHIN_MS) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (!first.connected) return { ...at, kind: 'closed', error: first.error ?? 'no connection' };
  // an HTTP/2 server speaks first too: its preface is a SETTINGS frame on stream 0 (a gRPC server's)
  if (first.data.length > 0)
    return isH2Settings(first.data) ? grpcFinding(address) : { ...at, kind: 'tcp', banner: true };
  const hostHeader = `${address.host}:${address.port}`;
  const root = await get(address, '/', hostHeader);
  if (root) {
    const finding: SurveyFinding = { ...at, kind: 'http', status: root.status };
    let host = hostHeader;
    // a dev server (or an allowed-hosts list) refuses an unknown Host: try the one it knows
    if ([400, 403, 421].includes(root.status)) {
      const local = await get(address, '/', `localhost:${address.port}`);
      // refused as the service's name, taken as localhost: a 404 for / then is an answer, not a refusal
      if (local && ![400, 403, 421].includes(local.status)) {
        finding.hostHeader = 'localhost';
        finding.status = local.status;
        host = `localhost:${address.port}`;
      }
    }
    const paths: Array<{ path: string; status: number }> = [];
    for (const path of HEALTH_PATHS) {
      const r = await get(address, path, host);
      if (r && r.status < 400) paths.push({ path, status: r.status });
    }
    if (paths.length > 0) finding.paths = paths;
    for (const path of OPENAPI_PATHS) {
      const r = await get(address, path, host);
      const gets = r && r.status === 200 ? openapiGets(r.body) : undefined;
      if (gets !== undefined) {
        finding.openapi = path;
        finding.gets = gets;
        break;
      }
    }
    return finding;
  }
  return grpcFinding(address);
}

/** A frame header of an HTTP/2 SETTINGS frame on stream 0: what a server's connection preface starts with. */
export function isH2Settings(data: Buffer): boolean {
  return data.length >= 9 && data[3] === 0x04 && (data.readUInt32BE(5) & 0x7fffffff) === 0;
}

/** The gRPC health check over h2c: gRPC when any grpc-status comes back, else TCP. */
async function grpcFinding(address: SurveyAddress): Promise<SurveyFinding> {
  const at = { host: address.host, port: address.port };
  const grpc = await grpcHealthCall({ host: address.host, port: address.port, tls: false, service: '' }, EXCHANGE_MS);
  if (grpc.grpcStatus === undefined) return { ...at, kind: 'tcp' };
  // only words of our own, never the server's text: its status by number (0-16), else "?"
  const code = /^\d{1,2}$/.test(grpc.grpcStatus) ? grpc.grpcStatus : '?';
  const health = code === '0' ? (grpc.serving ?? 'UNKNOWN') : code === '12' ? 'UNIMPLEMENTED' : `grpc-status ${code}`;
  return { ...at, kind: 'grpc', health };
}

/** Every address, at once; each finding in the order asked. */
export function survey(addresses: SurveyAddress[]): Promise<SurveyFinding[]> {
  return Promise.all(addresses.map((a) => surveyOne(a)));
}

// Pure: a request as the HTTP/2 client writes it: its frames (HEADERS, DATA) made once, with stream
// id 0 for the connection to fill in. HTTP requests take their pseudo-headers from the URL (a Host
// header the user gives becomes :authority); gRPC calls are POSTs with a length-prefixed message.
import { encodeHeaderBlock } from './hpack.js';
import { requestFrames } from './frames.js';
import { requestTarget } from '../http1.js';

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2): HTTP/1.1 connection management, dropped. */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

export interface H2RequestParts {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

/**
 * An HTTP request's frames. Header names are lower-cased; `te` is kept only as `trailers`;
 * content-length is set for a body (or a method that usually has one), as on HTTP/1.1.
 */
export function h2RequestFrames(parts: H2RequestParts): Buffer {
  const url = requestTarget(parts.url);
  const method = parts.method.toUpperCase();
  let authority = url.host;
  const rest: Array<[string, string]> = [];
  for (const [k, raw] of Object.entries(parts.headers)) {
    const name = k.toLowerCase();
    // RFC 9113 §8.2.1: no leading or trailing space or tab in a value (HTTP/1.1 strips them as OWS)
    const v = raw.replace(/^[ \t]+|[ \t]+$/g, '');
    if (name === 'host') authority = v;
    else if (CONNECTION_SPECIFIC.has(name) || name === 'content-length') continue;
    else if (name === 'te' && v.toLowerCase() !== 'trailers') continue;
    else rest.push([name, v]);
  }
  const body = parts.body === undefined ? undefined : Buffer.from(parts.body, 'utf8');
  if (body !== undefined) rest.push(['content-length', String(body.length)]);
  else if (method === 'POST' || method === 'PUT' || method === 'PATCH') rest.push(['content-length', '0']);
  const fields: Array<[string, string]> = [
    [':method', method],
    [':scheme', url.https ? 'https' : 'http'],
    [':authority', authority],
    [':path', url.path],
    ...rest,
  ];
  return requestFrames(encodeHeaderBlock(fields), body);
}

/** A gRPC deadline as `grpc-timeout` (1 to 8 digits, in the largest unit that keeps it whole; at least 1 ms). */
export function grpcTimeout(ms: number): string {
  const whole = Number.isNaN(ms) ? 1 : Math.max(1, Math.ceil(ms));
  if (whole % 1000 === 0 && whole / 1000 < 1e8) return `${whole / 1000}S`;
  if (whole < 1e8) return `${whole}m`;
  return `${Math.min(99_999_999, Math.ceil(whole / 3_600_000))}H`;
}

export interface GrpcCallParts {
  /** grpc://host:port or grpcs://host:port */
  url: string;
  /** /package.Service/Method */
  path: string;
  metadata: Record<string, string>;
  deadlineMs: number;
  /** the serialised request message */
  message: Uint8Array;
}

/** A unary call's frames: the request headers, then the message with its 5-byte prefix (uncompressed). */
export function grpcCallFrames(parts: GrpcCallParts): Buffer {
  const url = new URL(parts.url);
  const fields: Array<[string, string]> = [
    [':method', 'POST'],
    [':scheme', url.protocol === 'grpcs:' ? 'https' : 'http'],
    [':authority', url.host],
    [':path', parts.path],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
    ['grpc-timeout', grpcTimeout(parts.deadlineMs)],
  ];
  for (const [k, v] of Object.entries(parts.metadata)) {
    const name = k.toLowerCase();
    if (!CONNECTION_SPECIFIC.has(name) && !name.startsWith(':')) fields.push([name, v.replace(/^[ \t]+|[ \t]+$/g, '')]);
  }
  const framed = Buffer.allocUnsafe(5 + parts.message.length);
  framed[0] = 0;
  framed.writeUInt32BE(parts.message.length, 1);
  framed.set(parts.message, 5);
  return requestFrames(encodeHeaderBlock(fields), framed);
}

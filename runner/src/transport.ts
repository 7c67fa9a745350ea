// What every connection of the socket engine shares, whatever it speaks (HTTP/1.1 in connection.ts,
// HTTP/2 and gRPC in h2/connection.ts): the target it is opened to, the interface the closed and
// open loops drive, the events it reports to its owner, and the error kind of a failure. Its own
// file, so that h2/ does not import back into the HTTP/1.1 connection.
import type { Flow } from './flow.js';
import type { HookCalls } from './hook.js';
import type { PlanExpect } from '../../src/runner-kit/expect.js';
import { type Capture, ParseError } from './http1.js';

/** What the connections of one engine run need to know about the target, computed once. */
export interface Target {
  /** what the connections speak: HTTP/1.1, or HTTP/2 (h2 over TLS, h2c) */
  wire: 'http1' | 'http2';
  /** how an HTTP/2 stream's end counts: an HTTP response, or a gRPC call (the protocol's engine says) */
  streams: StreamRules;
  host: string;
  port: number;
  tls: boolean;
  /** TLS server name (SNI), when the host is a name */
  servername?: string;
  /** verify the server's certificate (grpcs://, as gRPC clients do); HTTP targets do not: a test SUT's is self-signed */
  verifyTls?: boolean;
  /** the next serialised request to write: the one request, or the next body's in rotation */
  next: () => Buffer;
  /** a request of mix entry `k` again (the next body in its rotation): one the server never answered */
  again: (k: number) => Buffer;
  /** the mix entry of the request `next` returned last (0 without a mix) */
  current: number;
  /** entries of the mix (0 without a mix): the recorder keeps counts for each */
  mixSize: number;
  /** HEAD: the response has no body */
  head: boolean;
  /** the request asks the server to close each connection: those closes are not the server's doing */
  asksClose: boolean;
  /** per mix entry (entry 0 without a mix): the response checks, what of a response they read, the timeout */
  expects: Array<PlanExpect | undefined>;
  captures: Array<Capture | undefined>;
  timeouts: number[];
  /** the longest of `timeouts`: how long the requests in flight at the window's end may take */
  longestTimeoutMs: number;
  /** how long a connect may take: the scenario's request-timeout (not one entry's own timeout) */
  connectTimeoutMs: number;
  /** a flow: the mix entries are its steps, each connection sending them in order (./flow.ts) */
  flow?: Flow;
  /** a script hook's calls: it builds the requests, judges the responses, or both (./hook.ts) */
  hook?: HookCalls;
}

/** What an HTTP/2 stream's end comes to: a failure of this kind, or a response with its status
 * (HTTP's number, or a gRPC call's status name) and verdict. */
export type StreamOutcome = { fail: string } | { status: number | string; ok: boolean; check?: string | undefined };

/** A stream whose response ended, as the rules read it. */
export interface EndedStream {
  /** the mix entry it carried (-1: none) */
  req: number;
  status: number;
  /** the grpc-status trailer, when one came */
  grpcStatus: string | undefined;
  /** what of the response was kept for the checks */
  headers: Map<string, string> | undefined;
  body: Buffer | undefined;
  truncated: boolean;
}

/** How an HTTP/2 stream's end counts (h2/connection.ts asks; HTTP's in h2/http-streams.ts, gRPC's in
 * grpc.ts), so the transport knows no protocol above it. */
export interface StreamRules {
  /** parked connections are reused by targets of the same rules only */
  readonly name: string;
  /** a stream past its time (it is cancelled) */
  timedOut(): StreamOutcome;
  /** a stream the server reset with this HTTP/2 error code; `late`: past its time */
  reset(code: number, late: boolean): StreamOutcome;
  /** a whole response */
  complete(s: EndedStream, target: Target): StreamOutcome;
}

/** A whole response as the engines count it: the parser's result, judged by the request's checks. */
export interface JudgedResponse {
  /** the HTTP status, or a gRPC call's status name */
  status: number | string;
  bytes: number;
  /** the server will close the connection after it (HTTP/1.1) */
  close: boolean;
  /** a success (its status, and every check of the request's `expect`) */
  ok: boolean;
  /** the check it failed, when one did */
  check?: string | undefined;
}

/**
 * Where a URL's connections go: its host (an IPv6 address without brackets), its port (the
 * scheme's default when absent), whether it is TLS (`secure` is the TLS scheme: https:, grpcs:),
 * and the TLS server name (SNI) when the host is a name.
 */
export function endpointOf(url: URL, secure: string): Pick<Target, 'host' | 'port' | 'tls'> & { servername?: string } {
  const tls = url.protocol === secure;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const endpoint = { host, port: url.port ? Number(url.port) : tls ? 443 : 80, tls };
  return tls && !/^[\d.]+$/.test(host) && !host.includes(':') ? { ...endpoint, servername: host } : endpoint;
}

/**
 * A connection as the closed and open loops drive it: HTTP/1.1 (Connection, below) or HTTP/2
 * (h2/connection.ts). `tag` and `req` say which request an event is about.
 */
export interface EngineConnection {
  /** connected: it can take requests (HTTP/2: the server's SETTINGS came) */
  readonly connected: boolean;
  /** not closed (HTTP/2: nor draining after a GOAWAY): it can take another request */
  readonly usable: boolean;
  readonly inFlight: boolean;
  /** requests sent and not answered */
  readonly pending: number;
  /** the owner's tag of the request an event is about (the open loop's accountable start) */
  tag: number;
  /** the mix entry of the request an event is about (-1: none) */
  req: number;
  /** the mix entries of the requests sent and not answered */
  pendingRequests(): number[];
  /** sends one request (serialised for this connection's protocol); `tag` comes back with its events */
  send(request: Buffer, now: number, req?: number, tag?: number): void;
  /** times out what has taken too long (the sweeper calls it a few times per timeout) */
  sweep(now: number): void;
  /** closes it from our side; what is in flight fails with `kind` */
  abort(kind: string): void;
  /** closes an idle connection, no event */
  dispose(): void;
  /** hands it to another owner (and target: the next stage's requests to the same host and port) */
  adopt(owner: ConnectionOwner, target?: Target): void;
}

/** The events of a connection, delivered to the engine that owns it. */
export interface ConnectionOwner {
  /** connected: ready for its first request */
  onOpen(c: EngineConnection): void;
  /** a whole response to the request in flight; `at` is when its last byte was parsed */
  onResponse(c: EngineConnection, r: JudgedResponse, at: number): void;
  /**
   * One request failed and the connection goes on (HTTP/2: a reset stream, a request above a
   * GOAWAY's last stream id, a timeout); `c.tag` and `c.req` say which.
   */
  onFailed(c: EngineConnection, kind: string): void;
  /**
   * One request the server provably never processed (HTTP/2: above a graceful GOAWAY's last stream
   * id): it is to be sent again on another connection, counted as sent once; `c.tag` and `c.req`
   * say which. The connection takes no new request.
   */
  onRetry(c: EngineConnection): void;
  /**
   * The connection is gone and will not be used again. `kind` is set when a request was in flight
   * (or the connect failed): that request failed with this error kind (with pipelining, every
   * request in `pendingRequests()`). Without `kind`, any still pending were written behind a
   * response that announced the close: the server never read them, and they may be sent again.
   * `byServer`: the server ended or reset it (a keep-alive close the report counts).
   */
  onClose(c: EngineConnection, kind: string | undefined, byServer: boolean): void;
}

/**
 * Request and connect timeouts of an engine's connections (each request its own, a connect the
 * scenario's), checked a few times per timeout (every 10–100 ms) rather than with a timer per
 * request. Returns the interval to clear.
 */
export function sweepTimeouts(connections: Iterable<EngineConnection>, target: Target): NodeJS.Timeout {
  return setInterval(
    () => {
      const now = performance.now();
      for (const c of connections) c.sweep(now);
    },
    Math.max(10, Math.min(100, Math.min(target.connectTimeoutMs, ...target.timeouts) / 4)),
  );
}

export function errorKindOf(err: unknown): string {
  if (err instanceof ParseError) return err.code;
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code !== '' ? code : 'error';
}

// One keep-alive HTTP/1.1 connection of the socket engine: a raw TCP (or TLS) socket, one request in
// flight at a time, the response parsed by http1.ts. It reports to its owner through one small
// interface, with no closure per request, so the per-request cost is a write and a parse.
import { randomUUID } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { type ConnectionOptions, connect as tlsConnect } from 'node:tls';
import {
  type Capture,
  type ParsedResponse,
  type RequestParts,
  requestAsksClose,
  hasData,
  ResponseParser,
  serializeRequest,
} from './http1.js';
import { H2Connection } from './h2/connection.js';
import { HTTP_STREAMS } from './h2/http-streams.js';
import { h2RequestFrames } from './h2/request.js';
import { captures, checkResponse, type PlanExpect } from '../../src/runner-kit/expect.js';
import { loadRequests, type PlanData, type PlanHttp, type PlanRequest } from '../../src/runner-kit/plan.js';
import { compileText, isDynamic, renderText, type TemplateSources } from '../../src/runner-kit/template.js';
import { Flow } from './flow.js';
import { HookCalls, HookError, type HookRequest, hookOf } from './hook.js';
import { MixPicker } from './mix.js';
import { refByOwner } from './parking.js';
import {
  type ConnectionOwner,
  type EngineConnection,
  endpointOf,
  errorKindOf,
  type JudgedResponse,
  type Target,
} from './transport.js';

/** What the HTTP engine loads: the scenario's one request, or its mix. */
export type Load = Pick<PlanHttp, 'request' | 'mix' | 'http' | 'data' | 'flow' | 'hook'>;

/** Which engine instance of a stage's split this is (its data rows: offset, offset + stride, …). */
export interface Instance {
  offset: number;
  stride: number;
}

/**
 * Whose row each request takes from the scenario's data (`{{ data.COLUMN }}`): in order, this
 * instance's rows (offset, offset + stride, … wrapping at the end, so instances never share a row
 * while the rows last), or one at random; with randomness and the clock for the other slots.
 */
export function templateSources(
  data: PlanData | undefined,
  instance: Instance = { offset: 0, stride: 1 },
): () => TemplateSources {
  const rows = data?.rows ?? [];
  const random = data?.order === 'random';
  let next = instance.offset;
  const src: TemplateSources = {
    row: undefined,
    uuid: () => randomUUID(),
    random: Math.random,
    now: Date.now,
  };
  return () => {
    if (rows.length > 0) {
      if (random) src.row = rows[Math.floor(Math.random() * rows.length)];
      else {
        src.row = rows[next % rows.length];
        next += instance.stride;
      }
    }
    return src;
  };
}

/**
 * One request's serialised forms (HTTP/1.1 bytes, or HTTP/2 frames): itself, or one per body, taken
 * in rotation. A request with `{{ … }}` slots is rendered and serialised for every send instead,
 * each send taking its row (`sources`).
 */
function rotation(
  request: PlanRequest,
  serialize: (parts: RequestParts) => Buffer,
  columns: readonly string[] | undefined,
  sources: () => TemplateSources,
): () => Buffer {
  const base = { url: request.url, method: request.method, headers: request.headers };
  const bodies = request.bodies ?? (request.body === undefined ? [undefined] : [request.body]);
  const compile = (text: string) => compileText(text, columns).compiled;
  const url = compile(request.url);
  const headers = Object.entries(request.headers).map(([k, v]) => [k, compile(v)] as const);
  const compiledBodies = bodies.map((b) => (b === undefined ? undefined : compile(b)));
  const dynamic =
    isDynamic(url) ||
    headers.some(([, v]) => isDynamic(v)) ||
    compiledBodies.some((b) => b !== undefined && isDynamic(b));
  let i = 0;
  if (dynamic) {
    return () => {
      const src = sources();
      const body = compiledBodies[i++ % compiledBodies.length];
      // the body first: the URL and headers may sign or encode it (`body` as an argument)
      src.body = body === undefined ? undefined : renderText(body, src);
      const parts: RequestParts = {
        url: renderText(url, src),
        method: request.method,
        headers: Object.fromEntries(headers.map(([k, v]) => [k, renderText(v, src)])),
      };
      if (src.body !== undefined) parts.body = src.body;
      return serialize(parts);
    };
  }
  const requests = bodies.map((body) => serialize(body === undefined ? base : { ...base, body }));
  const [only] = requests;
  return requests.length === 1 && only ? () => only : () => requests[i++ % requests.length] as Buffer;
}

/**
 * A request per send built by a hook: the path, method, headers and body it returns replace the
 * scenario's (the origin stays); the very object it returned last is the same request, its bytes reused.
 */
function hookedRequests(
  calls: HookCalls,
  base: PlanRequest,
  serialize: (parts: RequestParts) => Buffer,
  /** whether the request built last is a HEAD (its response has no body) */
  setHead: (head: boolean) => void,
): () => Buffer {
  const origin = new URL(base.url).origin;
  let last: HookRequest | undefined;
  let bytes: Buffer = Buffer.alloc(0);
  return () => {
    const r = calls.request();
    if (r === last) return bytes;
    if (r.path !== undefined && (typeof r.path !== 'string' || !r.path.startsWith('/')))
      throw new HookError('request() returned a path that does not start with /');
    if (r.body !== undefined && typeof r.body !== 'string')
      throw new HookError('request() returned a body that is not text');
    if (r.method !== undefined && (typeof r.method !== 'string' || !/^[A-Za-z]+$/.test(r.method)))
      throw new HookError('request() returned a method that is not a word');
    const parts: RequestParts = {
      url: r.path !== undefined ? origin + r.path : base.url,
      method: r.method ?? base.method,
      headers: r.headers ?? base.headers,
    };
    const body = r.body ?? base.body;
    if (body !== undefined) parts.body = body;
    try {
      bytes = serialize(parts);
    } catch (err) {
      throw new HookError(`request() returned what is not a request: ${(err as Error).message}`);
    }
    last = r;
    setHead(parts.method.toUpperCase() === 'HEAD');
    return bytes;
  };
}

/** What of a response the checks read; undefined when nothing beyond the counts. */
function captureOf(e: PlanExpect | undefined): Capture | undefined {
  const c = captures(e);
  return c.headers || c.body ? c : undefined;
}

/** The target of an engine's connections; `timeoutMs` is the scenario's (a request's own overrides it). */
export function makeTarget(load: Load, timeoutMs: number, instance?: Instance): Target {
  const { request, mix } = load;
  const columns = load.data?.columns;
  const sources = templateSources(load.data, instance);
  const requests = loadRequests(load, timeoutMs);
  const entries = requests.map((e) => e.request);
  const timeouts = requests.map((e) => e.timeoutMs);
  const http2 = load.http === 2;
  const serialize = http2 ? h2RequestFrames : serializeRequest;
  const t: Target = {
    wire: http2 ? 'http2' : 'http1',
    streams: HTTP_STREAMS,
    ...endpointOf(new URL(request.url), 'https:'),
    next: rotation(request, serialize, columns, sources),
    again: () => t.next(),
    current: 0,
    mixSize: 0,
    head: request.method.toUpperCase() === 'HEAD',
    asksClose: requestAsksClose(request.headers),
    expects: entries.map((r) => r.expect),
    captures: entries.map((r) => captureOf(r.expect)),
    timeouts,
    longestTimeoutMs: Math.max(...timeouts),
    connectTimeoutMs: timeoutMs,
  };
  if (load.hook) {
    // the host allows a hook only on one HTTP/1.1 request (no mix, no flow)
    const calls = new HookCalls(hookOf(load.hook.source));
    t.hook = calls;
    if (calls.hook.check) t.captures = [{ headers: true, body: true }];
    if (calls.hook.request) t.next = hookedRequests(calls, request, serialize, (head) => (t.head = head));
  }
  if (mix && mix.length > 0 && load.flow) {
    // a flow: each connection's next step, rendered with its iteration's values (./flow.ts)
    const flow = new Flow(mix, load.flow, columns, serialize, sources);
    t.flow = flow;
    t.mixSize = mix.length + 1;
    t.captures = flow.captures();
    t.asksClose = false;
    t.next = () => {
      throw new Error('a flow sends per connection (Flow.next)');
    };
    return t;
  }
  if (mix && mix.length > 0) {
    const rotations = mix.map((e) => rotation(e.request, serialize, columns, sources));
    const heads = mix.map((e) => e.request.method.toUpperCase() === 'HEAD');
    const picker = new MixPicker(mix.map((e) => e.weight));
    t.mixSize = mix.length;
    t.asksClose = mix.every((e) => requestAsksClose(e.request.headers));
    t.again = (k) => {
      t.current = k;
      t.head = heads[k] as boolean;
      return (rotations[k] as () => Buffer)();
    };
    t.next = () => t.again(picker.next());
  }
  return t;
}

/**
 * A connection to the target in its protocol; `depth`: HTTP/1.1's requests in flight (pipelining).
 * An HTTP/2 connection takes as many as its owner sends (the phase's streams).
 */
export function openConnection(target: Target, owner: ConnectionOwner, now: number, depth = 1): EngineConnection {
  return target.wire === 'http1' ? new Connection(target, owner, now, depth) : new H2Connection(target, owner, now);
}

// one read buffer per thread: every read is parsed before the callback returns
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

export class Connection implements EngineConnection {
  readonly socket: Socket;
  private readonly parser = new ResponseParser();
  /**
   * The requests written and not yet answered, oldest first: a ring of `depth` slots (their write
   * times, owners' tags, mix entries and HEAD-ness). Without pipelining, one slot.
   */
  private readonly depth: number;
  private readonly qSent: Float64Array;
  private readonly qTag: Float64Array;
  private readonly qReq: Int32Array;
  private readonly qHead: Uint8Array;
  private first = 0;
  private queued = 0;
  /** when the request in flight was written (performance.now()), or when the connect began */
  sentAt: number;
  /** caller's data about the oldest request in flight, the one a response answers (for the open loop: its accountable start) */
  tag = 0;
  /** the mix entry of the oldest request in flight (-1: none chosen yet, a connect) */
  req = -1;
  /** how long the oldest request in flight (or the connect) may take */
  timeoutMs: number;
  /** the parser's result judged by the request's checks, handed to the owner */
  private readonly judged: JudgedResponse = { status: 0, bytes: 0, close: false, ok: false };
  connected = false;
  private closed = false;
  /** we are closing it (a `Connection: close` answer, a timeout, the end of the run) */
  private closing = false;

  constructor(
    private target: Target,
    private owner: ConnectionOwner,
    now: number,
    /** requests it may have in flight at once (HTTP/1.1 pipelining; 1: none) */
    depth = 1,
  ) {
    this.depth = depth;
    this.qSent = new Float64Array(depth);
    this.qTag = new Float64Array(depth);
    this.qReq = new Int32Array(depth);
    this.qHead = new Uint8Array(depth);
    this.sentAt = now;
    this.timeoutMs = target.connectTimeoutMs;
    const onread = {
      buffer: READ_BUFFER,
      callback: (n: number, buf: Uint8Array): boolean => {
        this.onRead(n, buf as Buffer);
        return true;
      },
    };
    if (target.tls) {
      const opts: ConnectionOptions = {
        host: target.host,
        port: target.port,
        rejectUnauthorized: false, // a test SUT's self-signed certificate is not an error
        ALPNProtocols: ['http/1.1'],
      };
      if (target.servername) opts.servername = target.servername;
      this.socket = tlsConnect(opts, () => this.onConnect());
      this.socket.on('data', (chunk: Buffer) => this.onRead(chunk.length, chunk));
    } else {
      this.socket = netConnect({ host: target.host, port: target.port, noDelay: true, onread }, () => this.onConnect());
    }
    this.socket.on('end', () => this.onEnd());
    this.socket.on('error', (err) => this.onError(err));
    this.socket.on('close', () => this.onSocketClose());
  }

  /** A request is in flight (or the connection is still connecting). */
  get busy(): boolean {
    return this.parser.busy || !this.connected;
  }

  /** Not closed: it can take another request once its response is in. */
  get usable(): boolean {
    return !this.closed;
  }

  get inFlight(): boolean {
    return this.queued > 0;
  }

  /** Requests written and not answered (with pipelining, up to its depth). */
  get pending(): number {
    return this.queued;
  }

  /** The mix entries of the requests written and not answered, oldest first (with pipelining, up to its depth). */
  pendingRequests(): number[] {
    const out: number[] = [];
    for (let k = 0; k < this.queued; k++) out.push(this.qReq[(this.first + k) % this.depth] as number);
    return out;
  }

  /**
   * Writes one request; the caller takes the time just before. `tag` is the owner's (the moment
   * its latency counts from), handed back in `tag` when its response comes.
   */
  send(request: Buffer, now: number, req = -1, tag = now): void {
    const slot = (this.first + this.queued) % this.depth;
    this.qSent[slot] = now;
    this.qTag[slot] = tag;
    this.qReq[slot] = req;
    this.qHead[slot] = this.target.head ? 1 : 0;
    if (this.queued++ === 0) this.begin();
    this.socket.write(request);
  }

  /** The oldest request in flight has its response: it leaves the queue (`tag` and `req` still say it). */
  private dequeue(): void {
    this.first = (this.first + 1) % this.depth;
    this.queued--;
  }

  /** The oldest request in flight is the one the next response answers: the parser expects it. */
  private begin(): void {
    const slot = this.first;
    const req = this.qReq[slot] as number;
    const entry = req < 0 ? 0 : req;
    this.sentAt = this.qSent[slot] as number;
    this.tag = this.qTag[slot] as number;
    this.req = req;
    this.timeoutMs = this.target.timeouts[entry] as number;
    this.parser.expect(this.qHead[slot] === 1, this.target.captures[entry]);
  }

  /** A request in flight (or the connect) that has taken too long closes it (HTTP/1.1 cannot cancel one). */
  sweep(now: number): void {
    if ((!this.connected || this.inFlight) && now - this.sentAt > this.timeoutMs)
      this.abort(this.connected ? 'timeout' : 'connect-timeout');
  }

  /** Closes it from our side; a request in flight fails with `kind`. */
  abort(kind: string): void {
    if (this.closed) return;
    this.fail(kind, false);
  }

  /**
   * Hands an idle connection to another owner (the next stage, or the parking lot between stages)
   * and, when given, that stage's target: the same host and port (parking is by those), but its own
   * requests, checks, timeouts and HEAD-ness (the next scenario's, not the one that opened it).
   */
  adopt(owner: ConnectionOwner, target?: Target): void {
    this.owner = owner;
    if (target) this.target = target;
    refByOwner(this.socket, owner);
  }

  /** Closes an idle connection (the end of the run): no event is reported. */
  dispose(): void {
    this.closed = true;
    this.closing = true;
    this.socket.destroy();
  }

  private onConnect(): void {
    if (this.closed) return;
    this.connected = true;
    if (!this.target.tls) this.socket.setNoDelay(true);
    this.owner.onOpen(this);
  }

  private onRead(n: number, buf: Buffer): void {
    if (this.closed || n <= 0) return;
    let i = 0;
    // one pass per response the read completes (more than one only with pipelining)
    for (;;) {
      let last = false;
      try {
        // no request in flight: stray CRLFs are skipped, anything else is an error (the parser says so)
        if (!this.parser.busy) {
          this.parser.feed(buf, i, n);
          return;
        }
        last = this.queued <= 1;
        i = this.parser.parse(buf, i, n);
      } catch (err) {
        this.fail(errorKindOf(err), false);
        return;
      }
      if (this.parser.busy) return;
      // the answer's time is read before it is judged: a hook's check is the generator's time
      const at = performance.now();
      // bytes after the last response in flight came before any request they could answer: the
      // response is counted as it is, then they fail the connection, as they do arriving in the next
      // read (after a response that closes the connection nothing more is read)
      const stray = last && i < n && !this.parser.result.close && hasData(buf, i, n);
      if (!this.answered(this.judge(this.parser.result), at)) return;
      if (stray) {
        this.fail('parse-error', false);
        return;
      }
      if (i >= n || !this.parser.busy) return;
    }
  }

  /**
   * A response is complete: the oldest request leaves the queue, the owner hears of it (`tag` and
   * `req` are that request's), and the parser moves on to the next request in flight. False when
   * the connection is done with.
   */
  private answered(r: JudgedResponse, at: number): boolean {
    this.dequeue();
    if (r.close) {
      // the server will close it: we close it now, and it is the server's doing unless we asked;
      // requests written behind this one were not read by the server (RFC 9112 §9.6): the owner
      // may send them again
      this.closing = true;
      this.closed = true;
      this.owner.onResponse(this, r, at);
      this.socket.destroy();
      this.owner.onClose(this, undefined, !this.target.asksClose);
      return false;
    }
    this.owner.onResponse(this, r, at);
    if (this.closed) return false;
    // the owner may have written the next request already (it began at once if none was queued)
    if (this.queued > 0 && !this.parser.busy) this.begin();
    return true;
  }

  /** The response as the engines count it: a success by its status, or by the request's checks. */
  private judge(r: ParsedResponse): JudgedResponse {
    const j = this.judged;
    j.status = r.status;
    j.bytes = r.bytes;
    j.close = r.close;
    const e = this.target.expects[this.req < 0 ? 0 : this.req];
    const verdict = this.target.flow ? this.target.flow.judge(this, this.req, r) : checkResponse(e, r);
    const hook = this.target.hook;
    if (verdict.ok && hook?.hook.check) {
      const failed = hook.check({
        status: r.status,
        headers: r.headers ?? new Map<string, string>(),
        body: r.body?.toString('utf8') ?? '',
      });
      if (failed) return Object.assign(j, { ok: false, check: failed });
    }
    j.ok = verdict.ok;
    j.check = verdict.check;
    return j;
  }

  private onEnd(): void {
    if (this.closed) return;
    if (this.parser.end()) {
      // a body delimited by the close: that is how this response ends (counted as a close already)
      this.closed = true;
      this.dequeue();
      const at = performance.now();
      this.owner.onResponse(this, this.judge(this.parser.result), at);
      this.socket.destroy();
      // requests written behind a close-delimited body: the server may have read them; lost
      this.owner.onClose(this, this.queued > 0 ? 'socket-closed' : undefined, !this.target.asksClose);
      return;
    }
    this.fail(this.parser.busy || !this.connected ? 'socket-closed' : undefined, !this.target.asksClose);
  }

  private onError(err: Error): void {
    if (this.closed) return;
    const kind = errorKindOf(err);
    // a reset or broken pipe is the server's doing; a failed connect is not a keep-alive close
    const byServer = this.connected && (kind === 'ECONNRESET' || kind === 'EPIPE');
    this.fail(this.parser.busy || !this.connected ? kind : undefined, byServer);
  }

  private onSocketClose(): void {
    if (this.closed) return;
    // closed without an 'end' or 'error' we saw (should not happen): still account for it
    this.fail(this.parser.busy || !this.connected ? 'socket-closed' : undefined, !this.closing);
  }

  private fail(kind: string | undefined, byServer: boolean): void {
    this.closed = true;
    this.closing = true;
    this.socket.destroy();
    this.owner.onClose(this, kind, byServer);
  }
}

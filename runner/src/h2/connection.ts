// One HTTP/2 connection of the socket engine (RFC 9113, client side), for HTTP requests and gRPC
// unary calls: a TCP socket (h2c with prior knowledge) or TLS with ALPN h2, the requests its owner
// sends in flight as streams (the owner keeps the phase's `streams` per connection). It reports to its owner through the same interface as the HTTP/1.1
// connection (../connection.ts), so the closed and open loops drive both.
//
// What it does: the preface and SETTINGS (push off, 1 GiB stream windows, a 1 GiB connection
// window, topped up as it is used), requests as pre-made frames with the stream id filled in, the
// frames of one turn of the event loop written together (cork), the server's concurrency limit
// (requests beyond it wait here, their time running), the send windows (a body waits for
// WINDOW_UPDATE, split to fit), HPACK decoding of every header block (./hpack.ts), SETTINGS acks,
// PING answers, RST_STREAM (that request fails as `rst-<code>`), GOAWAY (requests above the last
// stream id fail as `goaway`; the rest finish, then the connection closes and the owner replaces
// it), and timeouts per request (RST_STREAM CANCEL; the connection stays). A server that does not
// speak HTTP/2 fails the connect: ALPN that picks something else (`alpn-http/1.1`), or a first
// frame that is not SETTINGS (`h2-preface`). A protocol violation of the server's ends the
// connection with that kind (`h2-protocol-error`, `h2-compression-error`, `h2-frame-size-error`).
import { connect as netConnect, type Socket } from 'node:net';
import { type ConnectionOptions, connect as tlsConnect, type TLSSocket } from 'node:tls';
import { EXPECT_BODY_LIMIT } from '../../../src/runner-kit/expect.js';
import type { Capture } from '../http1.js';
import { refByOwner } from '../parking.js';
import type {
  ConnectionOwner,
  EndedStream,
  EngineConnection,
  JudgedResponse,
  StreamOutcome,
  Target,
} from '../transport.js';
import { errorKindOf } from '../transport.js';
import {
  CANCEL,
  DEFAULT_MAX_FRAME,
  DEFAULT_WINDOW,
  FLAG,
  FRAME,
  FRAME_HEADER,
  FrameReader,
  type FrameSink,
  frame,
  goawayFrame,
  MAX_WINDOW,
  PREFACE,
  rstStreamFrame,
  SETTING,
  settingsFrame,
  windowUpdateFrame,
  writeFrameHeader,
} from './frames.js';
import { HEADER_TABLE_SIZE, HpackDecoder, MAX_HEADER_LIST_SIZE } from './hpack.js';

/** Our receive windows: large, so a server never waits for us (a load generator reads everything). */
export const RECEIVE_WINDOW = 1 << 30;
/** Bytes written and not yet taken by the socket, at most: past it the server is not reading. */
const MAX_WRITE_BACKLOG = 16 * 1024 * 1024;
/** Stream ids run out at 2^31 - 1: a connection this close to the end takes no new request. */
const LAST_STREAM_ID = MAX_WINDOW - 2;

/** One request on the connection, from its send to its answer. */
interface Stream {
  id: number;
  req: number;
  tag: number;
  sentAt: number;
  timeoutMs: number;
  /** its frames (stream id 0) until it starts; then DATA not yet written for want of window */
  frames: Buffer | undefined;
  /** the body still to write once the windows allow, and whether END_STREAM ends it */
  held: Buffer | undefined;
  window: number;
  status: number;
  /** a final (non-1xx) head came: a later HEADERS is its trailers */
  headed: boolean;
  grpcStatus: string | undefined;
  bytes: number;
  capture: Capture | undefined;
  headers: Map<string, string> | undefined;
  body: Buffer[] | undefined;
  bodyBytes: number;
  truncated: boolean;
}

/** A protocol error of the server's: the connection ends with this kind. */
class H2Error extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class H2Connection implements EngineConnection, FrameSink {
  readonly socket: Socket;
  private readonly reader = new FrameReader();
  private readonly hpack = new HpackDecoder();
  /** started streams by id */
  private readonly streams = new Map<number, Stream>();
  /** sent by the owner, waiting for the server's concurrency limit */
  private readonly waiting: Stream[] = [];
  /** started streams whose body waits for window */
  private readonly blocked: Stream[] = [];
  private nextId = 1;
  private peerMaxStreams = Infinity;
  private peerInitialWindow = DEFAULT_WINDOW;
  private sendWindow = DEFAULT_WINDOW;
  private received = 0;
  /** a header block being continued (CONTINUATION): its stream, END_STREAM, and its parts so far */
  private continued: { stream: number; endStream: boolean; parts: Buffer[]; size: number } | undefined;
  /** the stream whose header block is being decoded */
  private current: Stream | undefined;
  private corked = false;
  private readonly judged: JudgedResponse = { status: 0, bytes: 0, close: false, ok: false };
  /** the stream that ended last, as its rules read it (one object, reused) */
  private readonly ended: EndedStream = {
    req: -1,
    status: 0,
    grpcStatus: undefined,
    headers: undefined,
    body: undefined,
    truncated: false,
  };
  private readonly connectStartedAt: number;
  connected = false;
  /** the transport is up, the preface sent; `connected` waits for the server's SETTINGS */
  private transportUp = false;
  private closed = false;
  /** GOAWAY came (or the ids ran out): no new stream; the connection closes when the last ends */
  private draining = false;
  tag = 0;
  req = -1;

  constructor(
    private target: Target,
    private owner: ConnectionOwner,
    now: number,
  ) {
    this.connectStartedAt = now;
    if (target.tls) {
      const opts: ConnectionOptions = {
        host: target.host,
        port: target.port,
        // a test SUT's self-signed certificate is not an error, except where the target says (grpcs://)
        rejectUnauthorized: target.verifyTls === true,
        // http/1.1 offered too: a server without h2 then says so (ALPN picks it) rather than refusing the handshake
        ALPNProtocols: ['h2', 'http/1.1'],
      };
      if (target.servername) opts.servername = target.servername;
      const tls = tlsConnect(opts, () => {
        const alpn = (tls as TLSSocket).alpnProtocol;
        if (alpn !== 'h2') this.fail(`alpn-${alpn || 'none'}`, false);
        else this.onTransport();
      });
      this.socket = tls;
    } else {
      this.socket = netConnect({ host: target.host, port: target.port, noDelay: true }, () => this.onTransport());
    }
    this.socket.on('data', (chunk: Buffer) => this.onRead(chunk));
    this.socket.on('end', () => this.onEnd());
    this.socket.on('error', (err) => this.onError(err));
    this.socket.on('close', () => this.onEnd());
  }

  /** It can take another request (not closed, not draining after a GOAWAY). */
  get usable(): boolean {
    return !this.closed && !this.draining;
  }

  get inFlight(): boolean {
    return this.pending > 0;
  }

  get pending(): number {
    return this.streams.size + this.waiting.length;
  }

  pendingRequests(): number[] {
    return [...[...this.streams.values()].map((s) => s.req), ...this.waiting.map((s) => s.req)];
  }

  /** Sends one request (its frames with stream id 0); it waits here while the server's limit is reached. */
  send(request: Buffer, now: number, req = -1, tag = now): void {
    const entry = req < 0 ? 0 : req;
    const s: Stream = {
      id: 0,
      req,
      tag,
      sentAt: now,
      timeoutMs: this.target.timeouts[entry] as number,
      frames: request,
      held: undefined,
      window: 0,
      status: 0,
      headed: false,
      grpcStatus: undefined,
      bytes: 0,
      capture: this.target.captures[entry],
      headers: undefined,
      body: undefined,
      bodyBytes: 0,
      truncated: false,
    };
    if (this.streams.size < this.peerMaxStreams && !this.draining) this.start(s);
    else this.waiting.push(s);
  }

  /** Writes a stream's frames with its id; DATA beyond the windows is held for WINDOW_UPDATE. */
  private start(s: Stream): void {
    const id = this.nextId;
    this.nextId += 2;
    if (this.nextId > LAST_STREAM_ID) this.draining = true;
    s.id = id;
    s.window = this.peerInitialWindow;
    this.streams.set(id, s);
    const src = s.frames as Buffer;
    s.frames = undefined;
    const out = Buffer.allocUnsafe(src.length);
    src.copy(out);
    let p = 0;
    while (p < out.length) {
      const len = ((out[p] as number) << 16) | ((out[p + 1] as number) << 8) | (out[p + 2] as number);
      if (out[p + 3] === FRAME.DATA && (len > this.sendWindow || len > s.window)) {
        // the rest of the body waits: its payloads joined, END_STREAM at its end
        const parts: Buffer[] = [];
        for (let q = p; q < out.length;) {
          const n = ((out[q] as number) << 16) | ((out[q + 1] as number) << 8) | (out[q + 2] as number);
          parts.push(out.subarray(q + FRAME_HEADER, q + FRAME_HEADER + n));
          q += FRAME_HEADER + n;
        }
        s.held = Buffer.concat(parts);
        this.blocked.push(s);
        if (p > 0) this.write(out.subarray(0, p));
        this.flushHeld();
        return;
      }
      if (out[p + 3] === FRAME.DATA) {
        this.sendWindow -= len;
        s.window -= len;
      }
      out.writeUInt32BE(id, p + 5);
      p += FRAME_HEADER + len;
    }
    this.write(out);
  }

  /** Writes what the windows now allow of the held bodies, oldest first. */
  private flushHeld(): void {
    while (this.blocked.length > 0 && this.sendWindow > 0) {
      const s = this.blocked[0] as Stream;
      const held = s.held as Buffer;
      const n = Math.min(held.length, this.sendWindow, s.window, DEFAULT_MAX_FRAME);
      if (n <= 0 && held.length > 0) {
        // this stream's own window is shut: the next may still go
        this.blocked.push(this.blocked.shift() as Stream);
        if (this.blocked.every((b) => b.window <= 0)) return;
        continue;
      }
      const last = n === held.length;
      const f = Buffer.allocUnsafe(FRAME_HEADER + n);
      writeFrameHeader(f, 0, n, FRAME.DATA, last ? FLAG.END_STREAM : 0, s.id);
      held.copy(f, FRAME_HEADER, 0, n);
      this.sendWindow -= n;
      s.window -= n;
      this.write(f);
      if (last) {
        s.held = undefined;
        this.blocked.shift();
      } else s.held = held.subarray(n);
    }
  }

  private write(buf: Buffer): void {
    if (this.closed) return;
    // a server that does not read what we send (answers to its PINGs and SETTINGS, requests)
    // while it keeps sending: the connection fails rather than buffer without bound
    if (this.socket.writableLength > MAX_WRITE_BACKLOG) {
      this.fail('h2-write-backlog', true);
      return;
    }
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(this.uncork);
    }
    this.socket.write(buf);
  }

  private readonly uncork = (): void => {
    this.corked = false;
    this.socket.uncork();
  };

  /** Times out requests that have taken too long (RST_STREAM CANCEL) and a connect that has. */
  sweep(now: number): void {
    if (this.closed) return;
    if (!this.connected) {
      if (now - this.connectStartedAt > this.target.connectTimeoutMs) this.abort('connect-timeout');
      return;
    }
    for (const s of [...this.streams.values()]) {
      if (this.closed) return;
      if (now - s.sentAt > s.timeoutMs) this.cancel(s);
    }
    for (const s of [...this.waiting]) {
      if (this.closed) return;
      if (now - s.sentAt > s.timeoutMs) this.cancel(s);
    }
  }

  /** A request that ran out of time: the server is told (when it had it), the owner hears of it. */
  private cancel(s: Stream): void {
    if (s.id !== 0) this.write(rstStreamFrame(s.id, CANCEL));
    this.leave(s);
    this.settle(s, this.target.streams.timedOut());
    this.afterStream();
  }

  abort(kind: string): void {
    if (this.closed) return;
    this.fail(kind, false);
  }

  adopt(owner: ConnectionOwner, target?: Target): void {
    this.owner = owner;
    if (target) this.target = target;
    refByOwner(this.socket, owner);
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.transportUp) this.socket.end(goawayFrame(0, 0));
    this.socket.destroy();
  }

  private onTransport(): void {
    if (this.closed) return;
    this.transportUp = true;
    this.write(
      Buffer.concat([
        PREFACE,
        settingsFrame([
          [SETTING.ENABLE_PUSH, 0],
          [SETTING.HEADER_TABLE_SIZE, HEADER_TABLE_SIZE],
          [SETTING.INITIAL_WINDOW_SIZE, RECEIVE_WINDOW],
          [SETTING.MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST_SIZE],
        ]),
        windowUpdateFrame(0, RECEIVE_WINDOW - DEFAULT_WINDOW),
      ]),
    );
  }

  private onRead(chunk: Buffer): void {
    if (this.closed) return;
    try {
      this.reader.push(chunk, 0, chunk.length, this);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      // before the server's SETTINGS, anything amiss means it does not speak HTTP/2 (an HTTP/1.1
      // answer to the preface reads as a frame far too long)
      this.fail(!this.connected ? 'h2-preface' : typeof code === 'string' ? code : 'h2-protocol-error', false);
    }
  }

  onFrame(type: number, flags: number, id: number, buf: Buffer, start: number, end: number): void {
    if (this.closed) return;
    if (this.continued && type !== FRAME.CONTINUATION)
      throw new H2Error('h2-protocol-error', 'a frame inside a header block');
    if (!this.connected && type !== FRAME.SETTINGS) throw new H2Error('h2-preface', 'the first frame is not SETTINGS');
    switch (type) {
      case FRAME.DATA:
        return this.onData(flags, id, buf, start, end);
      case FRAME.HEADERS: {
        let s = start;
        let e = end;
        if (flags & FLAG.PADDED) {
          if (end <= start) throw new H2Error('h2-protocol-error', 'a PADDED HEADERS frame without its pad length');
          e -= buf[s] as number;
          s++;
        }
        if (flags & FLAG.PRIORITY) s += 5;
        if (s > e) throw new H2Error('h2-protocol-error', 'HEADERS padding longer than the frame');
        const endStream = (flags & FLAG.END_STREAM) !== 0;
        if (flags & FLAG.END_HEADERS) return this.onHeaderBlock(id, buf, s, e, endStream);
        this.continued = { stream: id, endStream, parts: [Buffer.from(buf.subarray(s, e))], size: e - s };
        return;
      }
      case FRAME.CONTINUATION: {
        const k = this.continued;
        if (!k || k.stream !== id) throw new H2Error('h2-protocol-error', 'CONTINUATION out of place');
        k.parts.push(Buffer.from(buf.subarray(start, end)));
        // each frame counts its header too: a flood of empty CONTINUATION frames is bounded as well
        k.size += end - start + FRAME_HEADER;
        if (k.size > MAX_HEADER_LIST_SIZE) throw new H2Error('h2-protocol-error', 'a header block too large');
        if (flags & FLAG.END_HEADERS) {
          this.continued = undefined;
          const block = Buffer.concat(k.parts);
          this.onHeaderBlock(id, block, 0, block.length, k.endStream);
        }
        return;
      }
      case FRAME.RST_STREAM: {
        if (end - start !== 4) throw new H2Error('h2-frame-size-error', 'RST_STREAM of the wrong size');
        const s = this.streams.get(id);
        if (!s) return;
        this.leave(s);
        const code = buf.readUInt32BE(start);
        this.settle(s, this.target.streams.reset(code, performance.now() - s.sentAt >= s.timeoutMs));
        return this.afterStream();
      }
      case FRAME.SETTINGS:
        return this.onSettings(flags, buf, start, end);
      case FRAME.PING:
        if (!(flags & FLAG.ACK)) this.write(frame(FRAME.PING, FLAG.ACK, 0, buf.subarray(start, end)));
        return;
      case FRAME.GOAWAY:
        if (end - start < 8) throw new H2Error('h2-frame-size-error', 'GOAWAY too short');
        return this.onGoaway(buf.readUInt32BE(start) & MAX_WINDOW, buf.readUInt32BE(start + 4));
      case FRAME.WINDOW_UPDATE: {
        if (end - start !== 4) throw new H2Error('h2-frame-size-error', 'WINDOW_UPDATE of the wrong size');
        const inc = buf.readUInt32BE(start) & MAX_WINDOW;
        if (id === 0) this.sendWindow += inc;
        else {
          const s = this.streams.get(id);
          if (s) s.window += inc;
        }
        if (this.sendWindow > MAX_WINDOW) throw new H2Error('h2-flow-control-error', 'the send window overflowed');
        return this.flushHeld();
      }
      case FRAME.PUSH_PROMISE:
        // push is off (SETTINGS_ENABLE_PUSH 0): a promise is the server's protocol error
        throw new H2Error('h2-protocol-error', 'PUSH_PROMISE with push disabled');
      default:
      // PRIORITY, and frame types this client does not know: ignored (RFC 9113 §4.1)
    }
  }

  private onData(flags: number, id: number, buf: Buffer, start: number, end: number): void {
    const len = end - start;
    // the connection window: topped up once a quarter of it is used
    this.received += len;
    if (this.received >= RECEIVE_WINDOW / 4) {
      this.write(windowUpdateFrame(0, this.received));
      this.received = 0;
    }
    const s = this.streams.get(id);
    if (!s) return;
    let ds = start;
    let de = end;
    if (flags & FLAG.PADDED) {
      if (end <= start) throw new H2Error('h2-protocol-error', 'a PADDED DATA frame without its pad length');
      de -= buf[ds] as number;
      ds++;
      if (ds > de) throw new H2Error('h2-protocol-error', 'DATA padding longer than the frame');
    }
    s.bytes += de - ds;
    if (s.capture?.body && !s.truncated) {
      const room = EXPECT_BODY_LIMIT - s.bodyBytes;
      const n = Math.min(room, de - ds);
      (s.body ??= []).push(Buffer.from(buf.subarray(ds, ds + n)));
      s.bodyBytes += n;
      if (n < de - ds) s.truncated = true;
    }
    if (flags & FLAG.END_STREAM) this.complete(s);
  }

  private readonly onField = (name: string, value: string): void => {
    const s = this.current;
    if (!s) return;
    if (name === ':status') {
      s.status = /^\d{3}$/.test(value) ? Number(value) : 0;
      return;
    }
    if (name === 'grpc-status') s.grpcStatus = value;
    if (s.capture?.headers) {
      const h = (s.headers ??= new Map());
      const had = h.get(name);
      h.set(name, had === undefined ? value : `${had}, ${value}`);
    }
  };

  private onHeaderBlock(id: number, buf: Buffer, start: number, end: number, endStream: boolean): void {
    const s = this.streams.get(id);
    // every block is decoded, a stream's or not: each one changes the table the next is read with
    this.current = s;
    try {
      this.hpack.decode(buf, start, end, this.onField);
    } finally {
      this.current = undefined;
    }
    if (!s) return;
    s.bytes += end - start;
    if (!s.headed) {
      if (s.status === 0) throw new H2Error('h2-protocol-error', 'a response without :status');
      // an interim (1xx) head: the final one comes later
      if (s.status >= 200 || endStream) s.headed = true;
      else if (s.headers) s.headers.clear();
    }
    if (endStream) this.complete(s);
  }

  private onSettings(flags: number, buf: Buffer, start: number, end: number): void {
    if (flags & FLAG.ACK) return;
    if ((end - start) % 6 !== 0) throw new H2Error('h2-frame-size-error', 'SETTINGS of the wrong size');
    for (let p = start; p < end; p += 6) {
      const key = buf.readUInt16BE(p);
      const value = buf.readUInt32BE(p + 2);
      if (key === SETTING.MAX_CONCURRENT_STREAMS) this.peerMaxStreams = value;
      else if (key === SETTING.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW) throw new H2Error('h2-flow-control-error', 'INITIAL_WINDOW_SIZE too large');
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const s of this.streams.values()) s.window += delta;
      }
    }
    this.write(frame(FRAME.SETTINGS, FLAG.ACK, 0));
    if (!this.connected) {
      this.connected = true;
      this.owner.onOpen(this);
    } else {
      this.flushHeld();
      this.startWaiting();
    }
  }

  /**
   * GOAWAY: the requests above its last stream id (and those still waiting here) were not
   * processed. A graceful one (NO_ERROR: a server's request limit, a graceful restart) has them
   * sent again on another connection, as HTTP/2 clients do (RFC 9113 §8.7); after one with an
   * error code they fail as `goaway`. The requests below it finish; then the connection closes.
   */
  private onGoaway(lastId: number, code: number): void {
    this.draining = true;
    const lost = [...this.streams.values()].filter((s) => s.id > lastId);
    lost.push(...this.waiting);
    for (const s of lost) {
      if (this.closed) return;
      // each leaves just before it is reported: if the owner stops meanwhile, pendingRequests()
      // still lists the ones not reported yet
      this.leave(s);
      if (code === 0) this.owner.onRetry(this);
      else this.owner.onFailed(this, 'goaway');
    }
    this.afterStream();
  }

  /**
   * A request leaves the connection (answered, reset, cancelled, lost to a GOAWAY): a started one
   * its stream (and any body held for window), a waiting one its place in line. `tag` and `req`
   * then say it, for the owner's event that follows.
   */
  private leave(s: Stream): void {
    if (s.id === 0) this.waiting.splice(this.waiting.indexOf(s), 1);
    else this.streams.delete(s.id);
    if (s.held) {
      this.blocked.splice(this.blocked.indexOf(s), 1);
      s.held = undefined;
    }
    this.tag = s.tag;
    this.req = s.req;
  }

  /** A stream ended: a waiting request may start; a draining connection with none left closes. */
  private afterStream(): void {
    if (this.closed) return;
    if (this.draining) {
      if (this.streams.size === 0) {
        // requests that came while it drained never went out: another connection takes them
        while (this.waiting.length > 0) {
          this.leave(this.waiting[0] as Stream);
          this.owner.onRetry(this);
          if (this.closed) return;
        }
        // the server's doing (a GOAWAY), or the stream ids ran out: the owner opens another
        this.closed = true;
        this.socket.end(goawayFrame(0, 0));
        this.socket.destroy();
        this.owner.onClose(this, undefined, true);
      }
      return;
    }
    this.startWaiting();
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.streams.size < this.peerMaxStreams && !this.draining && !this.closed)
      this.start(this.waiting.shift() as Stream);
  }

  private complete(s: Stream): void {
    // answered before its body was all sent (an early 413, say): the rest is not wanted
    if (s.held) this.write(rstStreamFrame(s.id, 0));
    this.leave(s);
    const ended = this.ended;
    ended.req = s.req;
    ended.status = s.status;
    ended.grpcStatus = s.grpcStatus;
    ended.headers = s.capture?.headers ? (s.headers ?? new Map()) : undefined;
    ended.body = s.capture?.body ? (s.body ? Buffer.concat(s.body) : Buffer.alloc(0)) : undefined;
    ended.truncated = s.truncated;
    this.settle(s, this.target.streams.complete(ended, this.target));
    this.afterStream();
  }

  /** A stream's end as its rules count it: a failure of its own kind, or a response. */
  private settle(s: Stream, outcome: StreamOutcome): void {
    if ('fail' in outcome) this.owner.onFailed(this, outcome.fail);
    else this.report(s, outcome.status, outcome.ok, outcome.check);
  }

  private report(s: Stream, status: number | string, ok: boolean, check: string | undefined): void {
    const j = this.judged;
    j.status = status;
    j.bytes = s.bytes;
    j.ok = ok;
    j.check = check;
    this.owner.onResponse(this, j, performance.now());
  }

  private onEnd(): void {
    if (this.closed) return;
    this.fail('socket-closed', true);
  }

  private onError(err: Error): void {
    if (this.closed) return;
    const kind = errorKindOf(err);
    this.fail(kind, this.connected && (kind === 'ECONNRESET' || kind === 'EPIPE'));
  }

  /**
   * The connection is gone: every request on it fails with `kind` (the owner counts
   * pendingRequests()); with none in flight, it just closed (no kind), as an idle HTTP/1.1 one does.
   */
  private fail(kind: string, byServer: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    this.owner.onClose(this, this.connected && this.pending === 0 ? undefined : kind, this.connected && byServer);
  }
}

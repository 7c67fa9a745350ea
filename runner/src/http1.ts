// Pure: HTTP/1.1 on raw bytes for the socket engine. Requests are serialised once per body (the hot
// path only writes a ready Buffer); responses are parsed incrementally by a small state machine that
// finds what a load generator needs — the status, the end of the message, the byte count and whether
// the server will close the connection — without building header objects. `feed` takes one
// response, so bytes after its end are a protocol error; with pipelining, `parse` stops at a
// response's end and the connection goes on with the next. Only a request with response checks
// (`expect`) has its headers and body kept, and only what they read.
import { asksClose, HTTP_TOKEN, UNSAFE_HEADER_VALUE } from '../../src/runner-kit/connection-header.js';
import { EXPECT_BODY_LIMIT } from '../../src/runner-kit/expect.js';

export { asksClose, requestAsksClose } from '../../src/runner-kit/connection-header.js';

/** The parts of a request the engines send. */
export interface RequestParts {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * A request that cannot be written as it was rendered: a header value (or the method) holding a
 * line break, a NUL or a character beyond Latin-1 (which the head's encoding would cut to one byte:
 * U+010A is LF). Its send fails as `kind`.
 */
export class UnsendableRequest extends Error {
  readonly kind: string = 'bad-header-value';
}

/** http(s) origins seen (`scheme://authority` as written) → their `host` and scheme as the WHATWG URL parser gives them */
const ORIGIN_HOSTS = new Map<string, { host: string; https: boolean }>();
const ORIGIN_HOSTS_MAX = 256;
/** a path the URL parser keeps as written (nothing it percent-encodes, strips or reads specially),
 * then a query likewise, not empty (`?` alone is dropped) and without `'` (encoded in a query) */
const PLAIN_TARGET = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*)?(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]+)?$/;
/** an origin written plainly: a scheme, `://`, then an authority with nothing the parser strips,
 * skips (`http:///h`) or stops at */
const PLAIN_ORIGIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[A-Za-z0-9\-._~!$&'()*+,;=:@%[\]]+$/;
/** what could be a dot segment (`/.`, `%2e`): left to the parser */
const DOT_SEGMENT = /\/\.|%2e/i;

/** Where `url`'s authority ends: its first `/`, `?`, `#` or `\` after `://` (0 without `://`). */
function originEnd(url: string): number {
  const scheme = url.indexOf('://');
  if (scheme <= 0) return 0;
  let end = scheme + 3;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x5c) break;
    end++;
  }
  return end;
}

/** What a request's head takes from its URL. */
export interface RequestTarget {
  /** `pathname + search`: `/` when the URL has no path */
  path: string;
  /** the authority (`host`, a default port left out) */
  host: string;
  /** the scheme is https */
  https: boolean;
}

/**
 * What a request line and its `Host` header take from a URL: the path and query (`/` when there is
 * no path) and the authority, exactly as `new URL(url)` gives them (`pathname + search`, `host`, `protocol`). A
 * URL whose http(s) origin was seen before and whose path and query the parser would keep as written
 * is split without parsing it again (a flow renders its URLs per request); any other goes through
 * `URL`, which throws for one that is not a URL.
 */
export function requestTarget(url: string): RequestTarget {
  const end = originEnd(url);
  const origin = end > 0 ? ORIGIN_HOSTS.get(url.slice(0, end)) : undefined;
  if (origin !== undefined) {
    const path = plainPath(url.slice(end));
    if (path !== undefined) return { path, ...origin };
  }
  const parsed = new URL(url);
  const https = parsed.protocol === 'https:';
  const target = { path: (parsed.pathname || '/') + parsed.search, host: parsed.host, https };
  // remembered only where the origin is written plainly and the split above agrees with the
  // parser's for this very URL
  const written = PLAIN_ORIGIN.test(url.slice(0, end));
  const agrees = (plainPath(url.slice(end)) ?? target.path) === target.path;
  if (written && agrees && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) {
    if (ORIGIN_HOSTS.size >= ORIGIN_HOSTS_MAX) ORIGIN_HOSTS.clear();
    ORIGIN_HOSTS.set(url.slice(0, end), { host: parsed.host, https });
  }
  return target;
}

/** The request target of what follows a URL's authority, when the parser would keep it as written. */
function plainPath(rest: string): string | undefined {
  if (!PLAIN_TARGET.test(rest) || DOT_SEGMENT.test(rest)) return undefined;
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
}

/**
 * The request as bytes: request line, `Host` (unless given), the user's headers in their order,
 * `Content-Length` when there is a body (or the method usually carries one), then the body.
 */
export function serializeRequest(parts: RequestParts): Buffer {
  if (!HTTP_TOKEN.test(parts.method)) throw new UnsendableRequest('a method that is not a token');
  let hasHost = false;
  for (const k in parts.headers) {
    if (UNSAFE_HEADER_VALUE.test(parts.headers[k] as string))
      throw new UnsendableRequest(`header ${k}: a line break, NUL or non-Latin-1 character`);
    if (!hasHost && k.length === 4 && k.toLowerCase() === 'host') hasHost = true;
  }
  const { path, host } = requestTarget(parts.url);
  const method = parts.method.toUpperCase();
  let head = `${method} ${path} HTTP/1.1\r\n`;
  if (!hasHost) head += `Host: ${host}\r\n`;
  for (const k in parts.headers) head += `${k}: ${parts.headers[k] as string}\r\n`;
  const body = parts.body === undefined ? undefined : Buffer.from(parts.body, 'utf8');
  if (body !== undefined) head += `Content-Length: ${body.length}\r\n`;
  else if (method === 'POST' || method === 'PUT' || method === 'PATCH') head += 'Content-Length: 0\r\n';
  const bytes = Buffer.from(`${head}\r\n`, 'latin1');
  return body === undefined ? bytes : Buffer.concat([bytes, body]);
}

/** What the parser reports at the end of one response. */
export interface ParsedResponse {
  status: number;
  /** the whole message: status line, headers, body (chunk framing included) */
  bytes: number;
  /** the server will close the connection after it (`Connection: close`, or HTTP/1.0 without keep-alive) */
  close: boolean;
  /** lower-case name → value (repeats joined with ", "), when asked for (`Capture.headers`) */
  headers?: Map<string, string> | undefined;
  /** the body, de-chunked, up to EXPECT_BODY_LIMIT bytes, when asked for (`Capture.body`) */
  body?: Buffer | undefined;
  /** the body was longer than EXPECT_BODY_LIMIT: `body` is its start */
  truncated?: boolean;
}

/** What of a response to keep beside the counts (for its checks). */
export interface Capture {
  headers: boolean;
  body: boolean;
}

export class ParseError extends Error {
  readonly code = 'parse-error';
}

/** the longest head read (status line, headers, blank line): Node's default `--max-http-header-size` */
const MAX_HEAD_BYTES = 16 * 1024;
const MAX_CHUNK_LINE = 4 * 1024;
const CRLF = Buffer.from('\r\n', 'latin1');
const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');
/** the protocols llhttp takes in a status line; a response that starts otherwise fails at its first byte */
const PROTOCOLS = ['HTTP/', 'RTSP/', 'ICE/'];
/** protocol/major.minor SP three digits, then SP and a reason or nothing (llhttp's grammar) */
const STATUS_LINE = /^(?:HTTP|RTSP|ICE)\/(\d)\.(\d) (\d{3})(?: |$)/;
/** the versions llhttp accepts when not lenient */
const VERSIONS = new Set(['0.9', '1.0', '1.1', '2.0']);
/** A control character no line of a head may carry (HTAB is allowed; CR and LF are checked apart), as llhttp refuses them. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;
/** What a complete head may not hold, in one pass: a CR not before an LF, an LF not after a CR, a control
 * character (allowed in the status line's reason, as llhttp allows it). Global: `lastIndex` is reset. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const HEAD_FAULT = /\r(?!\n)|(?<!\r)\n|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** a chunk-size line as RFC 9112 §7.1.1 writes it, no whitespace (llhttp without leniency) */
const CHUNK_SIZE_LINE = new RegExp(
  `^[0-9A-Fa-f]+(?:;${TOKEN}(?:=(?:${TOKEN}|"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"))?)*$`,
);
/** the longest Content-Length or chunk size read exactly (2^53 - 1 has 16 digits) */
const MAX_LENGTH_DIGITS = 15;
const MAX_CHUNK_HEX_DIGITS = 13;

/** A status line's parts, or a ParseError. */
function statusLine(line: string): { status: number; major: number; minor: number } {
  const m = STATUS_LINE.exec(line);
  if (!m) throw new ParseError(line.startsWith('HTTP/') ? 'bad status line' : 'not an HTTP/1.x response');
  if (!VERSIONS.has(`${m[1]}.${m[2]}`)) throw new ParseError(`HTTP version ${m[1]}.${m[2]}`);
  const status = Number(m[3]);
  if (status < 100) throw new ParseError('bad status line');
  // the HTTP/1 engine never asks for an upgrade: a 101 would hand the connection to another protocol
  if (status === 101) throw new ParseError('101 Switching Protocols to a request that asked for no upgrade');
  return { status, major: Number(m[1]), minor: Number(m[2]) };
}

/**
 * Where a header (or trailer) line's name ends, or a ParseError: llhttp refuses each of these.
 * `controls`: look for control characters too (parseHead looks over the whole head at once).
 */
function headerLine(line: string, controls = true): number {
  const c0 = line.charCodeAt(0);
  // each would frame the body wrongly or hide a header
  if (c0 === 32 || c0 === 9) throw new ParseError('a folded header line (obs-fold)');
  if (controls) controlIn(line);
  const colon = line.indexOf(':');
  if (colon <= 0 || !HTTP_TOKEN.test(line.slice(0, colon))) {
    throw new ParseError(`bad header name ${JSON.stringify(line.slice(0, Math.max(colon, 0)).slice(0, 40))}`);
  }
  return colon;
}

/** A ParseError when `text` holds a control character (a NUL named as such). */
function controlIn(text: string): void {
  if (!CONTROL.test(text)) return;
  throw new ParseError(text.includes('\0') ? 'a NUL in a header' : 'a control character in a header');
}

/** Whether `bytes` [from, to) could begin a status line (up to its protocol's slash). */
function protocolStart(bytes: Buffer, from: number, to: number): boolean {
  const s = bytes.toString('latin1', from, Math.min(to, from + 5));
  return PROTOCOLS.some((p) => (s.length <= p.length ? p.startsWith(s) : s.startsWith(p)));
}

/**
 * The line ends of an incomplete head's bytes [scan, to) of `data` (the head starts at `from`): every
 * LF after a CR, every CR before an LF. A CR at `to - 1` waits for the next read.
 */
function checkLineEnds(data: Buffer, from: number, scan: number, to: number): void {
  for (let k = data.indexOf(10, scan); k !== -1 && k < to; k = data.indexOf(10, k + 1)) {
    if (k === from || data[k - 1] !== 13) throw new ParseError('a line of the response head ends in LF without CR');
  }
  for (let k = data.indexOf(13, scan); k !== -1 && k + 1 < to; k = data.indexOf(13, k + 1)) {
    if (data[k + 1] !== 10) throw new ParseError('a bare CR in the response head');
  }
}

/** Where the run of CR and LF bytes starting at `i` ends. */
function skipLineEnds(buf: Buffer, i: number, end: number): number {
  while (i < end && (buf[i] === 13 || buf[i] === 10)) i++;
  return i;
}

/** Whether bytes [i, end) of `buf` hold more than stray CRLFs (which llhttp and Node skip between messages). */
export function hasData(buf: Buffer, i: number, end: number): boolean {
  return skipLineEnds(buf, i, end) < end;
}

/** What a response head says of the response: its status and how its body is framed. */
interface HeadRead {
  status: number;
  close: boolean;
  chunked: boolean;
  /** Content-Length, or -1 */
  length: number;
}

/** Heads remembered per connection, read once while remembered (a mix or a flow alternates a few). */
const SEEN_HEADS = 4;

// states
const HEAD = 0;
const LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_DATA_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;
const DONE = 7;

/**
 * Incremental response parser for one connection. `expect(head)` before each request; `feed`
 * each chunk read from the socket; when it returns true the response is complete (read `result`).
 * `end()` reports a server close: it completes a response delimited by the close, or throws.
 */
export class ResponseParser {
  private state = DONE;
  private noBody = false;
  /** partial head or chunk-size line carried across chunks */
  private carry: Buffer | undefined;
  private remaining = 0;
  private status = 0;
  private bytes = 0;
  private close = false;
  private captureHeaders = false;
  private captureBody = false;
  private headers: Map<string, string> | undefined;
  private bodyParts: Buffer[] = [];
  private bodyLength = 0;
  private truncated = false;
  /** how much of a carried head has had its lines checked (a line boundary) */
  private checked = 0;
  /** the last heads read on this connection (when the checks read no headers), and what each said */
  private readonly seenHeads: Array<{ head: string; read: HeadRead }> = [];
  readonly result: ParsedResponse = { status: 0, bytes: 0, close: false };

  /**
   * Prepares for the response to the request just written (`head`: a HEAD request, no body follows;
   * `capture`: what to keep of it for its checks).
   */
  expect(head: boolean, capture?: Capture): void {
    this.state = HEAD;
    this.noBody = head;
    this.carry = undefined;
    this.checked = 0;
    this.bytes = 0;
    this.status = 0;
    this.close = false;
    this.captureHeaders = capture?.headers ?? false;
    this.captureBody = capture?.body ?? false;
    this.headers = undefined;
    this.bodyParts = [];
    this.bodyLength = 0;
    this.truncated = false;
  }

  /** Keeps body bytes [from, to) of `buf` (copied: the read buffer is reused), up to the limit. */
  private keep(buf: Buffer, from: number, to: number): void {
    const room = EXPECT_BODY_LIMIT - this.bodyLength;
    const n = Math.min(room, to - from);
    if (n > 0) {
      this.bodyParts.push(Buffer.from(buf.subarray(from, from + n)));
      this.bodyLength += n;
    }
    if (to - from > n) this.truncated = true;
  }

  /** True between `expect` and the end of the response. */
  get busy(): boolean {
    return this.state !== DONE;
  }

  /** True when some bytes of the current response arrived (a close now is a truncated response). */
  get started(): boolean {
    return this.state !== DONE && (this.bytes > 0 || this.carry !== undefined);
  }

  /**
   * Consumes bytes [start, end) of `buf`. Returns true when the response is complete; bytes left over
   * after its end are an error (nothing else was asked for).
   */
  feed(buf: Buffer, start = 0, end = buf.length): boolean {
    if (this.state === DONE) {
      // a stray CRLF after a response's body (a known server bug Node and llhttp skip) is not data
      if (hasData(buf, start, end)) throw new ParseError('data without a request');
      return false;
    }
    const at = this.parse(buf, start, end);
    // after a response that closes the connection nothing more is read (the engine closes it at once),
    // so what follows it cannot decide its outcome, in this read or the next
    if (at < end && !(this.state === DONE && this.close) && hasData(buf, at, end))
      throw new ParseError('data after the end of the response');
    return this.state === DONE;
  }

  /**
   * Consumes bytes of `buf` from `start` up to `end` or the end of the current response, whichever
   * comes first, and returns where it stopped: with pipelining, the next response's bytes may follow
   * in the same read (`expect` it, then parse on from there). Call only while `busy`.
   */
  parse(buf: Buffer, start = 0, end = buf.length): number {
    let i = start;
    while (i < end && this.state !== DONE) {
      switch (this.state) {
        case HEAD:
          i = this.readHead(buf, i, end);
          break;
        case LENGTH: {
          const n = Math.min(this.remaining, end - i);
          if (this.captureBody) this.keep(buf, i, i + n);
          this.remaining -= n;
          this.bytes += n;
          i += n;
          if (this.remaining === 0) this.complete();
          break;
        }
        case CHUNK_SIZE:
        case CHUNK_DATA_END:
        case TRAILERS:
          i = this.readChunkLine(buf, i, end);
          break;
        case CHUNK_DATA: {
          const n = Math.min(this.remaining, end - i);
          if (this.captureBody) this.keep(buf, i, i + n);
          this.remaining -= n;
          this.bytes += n;
          i += n;
          if (this.remaining === 0) this.state = CHUNK_DATA_END;
          break;
        }
        case UNTIL_CLOSE:
          if (this.captureBody) this.keep(buf, i, end);
          this.bytes += end - i;
          i = end;
          break;
        default:
          throw new ParseError(`parser state ${this.state}`);
      }
    }
    return i;
  }

  /** The server closed the connection: true if that ends the response (a close-delimited body). */
  end(): boolean {
    if (this.state === UNTIL_CLOSE) {
      this.complete();
      return true;
    }
    return false;
  }

  private complete(): void {
    this.state = DONE;
    this.carry = undefined;
    this.result.status = this.status;
    this.result.bytes = this.bytes;
    this.result.close = this.close;
    this.result.headers = this.captureHeaders ? (this.headers ?? new Map()) : undefined;
    this.result.body = this.captureBody
      ? this.bodyParts.length === 1
        ? this.bodyParts[0]
        : Buffer.concat(this.bodyParts, this.bodyLength)
      : undefined;
    this.result.truncated = this.truncated;
    this.bodyParts = [];
  }

  private readHead(buf: Buffer, i: number, end: number): number {
    if (this.carry === undefined) {
      // CRLFs before a status line are skipped, as llhttp does (a stray one after the last body, or
      // after an interim 100 Continue's blank line)
      const from = skipLineEnds(buf, i, end);
      if (from === end) return end;
      i = from;
    }
    let data = buf;
    let from = i;
    let to = end;
    let carried = 0;
    if (this.carry) {
      carried = this.carry.length;
      data = Buffer.concat([this.carry, buf.subarray(i, end)]);
      from = 0;
      to = data.length;
    }
    // the first bytes must begin "HTTP/" (or llhttp's RTSP/, ICE/): a banner (SSH, a database) fails at once
    if (carried < 5 && !protocolStart(data, from, to)) throw new ParseError('not an HTTP/1.x response');
    // the terminator may straddle the old and new bytes
    const at = data.indexOf(CRLFCRLF, Math.max(from, carried - 3));
    const complete = at !== -1 && at + 4 <= to;
    if (!complete) {
      // a line that ends in LF alone, or a CR not before an LF: fail now, not at the size limit or the
      // timeout (only the bytes new in this read, and a CR that ended the last; a complete head is
      // looked over whole by parseHead)
      checkLineEnds(data, from, Math.max(from, carried - 1), to);
      if (to - from > MAX_HEAD_BYTES) throw new ParseError('response head larger than 16 KiB');
      // each line as it arrives: a bad status line or header fails before the head ends
      this.checked = this.checkLines(data, from, to);
      this.carry = Buffer.from(data.subarray(from, to));
      return end;
    }
    const headEnd = at + 4;
    if (headEnd - from > MAX_HEAD_BYTES) throw new ParseError('response head larger than 16 KiB');
    this.carry = undefined;
    this.checked = 0;
    this.bytes += headEnd - from;
    this.parseHead(data.toString('latin1', from, at));
    // bytes of `buf` consumed: the head minus what had been carried
    return i + (headEnd - from - carried);
  }

  /** Checks the complete lines of a head not yet checked ([from + checked, to) of `data`); returns where they end. */
  private checkLines(data: Buffer, from: number, to: number): number {
    let k = this.checked;
    for (let crlf = data.indexOf(CRLF, from + k); crlf !== -1 && crlf + 2 <= to; crlf = data.indexOf(CRLF, from + k)) {
      const line = data.toString('latin1', from + k, crlf);
      if (k === 0) statusLine(line);
      else headerLine(line);
      k = crlf + 2 - from;
    }
    // a header line that begins with whitespace is a fold whatever follows it
    const c = data[from + k];
    if (k > 0 && from + k < to && (c === 32 || c === 9)) throw new ParseError('a folded header line (obs-fold)');
    return k;
  }

  private parseHead(head: string): void {
    // a server repeats its heads (a Date changes once a second): one read before, on this connection,
    // and found valid, frames alike; the headers, when the checks read them, are read every time
    this.headers = undefined;
    let read: HeadRead | undefined;
    if (!this.captureHeaders)
      for (const seen of this.seenHeads)
        if (seen.head === head) {
          read = seen.read;
          break;
        }
    if (!read) {
      read = this.headOf(head);
      if (!this.captureHeaders) {
        // the newest first; a flow's or a mix's requests alternate between a few heads
        this.seenHeads.unshift({ head, read });
        if (this.seenHeads.length > SEEN_HEADS) this.seenHeads.pop();
      }
    }
    const { status, close, chunked, length } = read;
    this.status = status;
    this.close = close;
    if (status < 200) {
      // an interim response (100 Continue, 103 Early Hints): the real one follows
      this.state = HEAD;
      return;
    }
    if (this.noBody || status === 204 || status === 304) this.complete();
    else if (chunked) this.state = CHUNK_SIZE;
    else if (length >= 0) {
      this.remaining = length;
      if (length === 0) this.complete();
      else this.state = LENGTH;
    } else {
      // no framing (or a coding other than chunked last): the body runs until the server closes
      this.close = true;
      this.state = UNTIL_CLOSE;
    }
  }

  /** A complete head checked and read: its status and framing (a ParseError for what llhttp refuses);
   * its headers into `this.headers` when the checks read them. */
  private headOf(head: string): HeadRead {
    const first = head.indexOf('\r\n');
    HEAD_FAULT.lastIndex = 0;
    for (let fault = HEAD_FAULT.exec(head); fault; fault = HEAD_FAULT.exec(head)) {
      const c = fault[0];
      if (c === '\r') throw new ParseError('a bare CR in the response head');
      if (c === '\n') throw new ParseError('a line of the response head ends in LF without CR');
      if (first !== -1 && fault.index > first)
        throw new ParseError(c === '\0' ? 'a NUL in a header' : 'a control character in a header');
    }
    const { status, major, minor } = statusLine(first === -1 ? head : head.slice(0, first));
    // HTTP/1.0 (and 0.9) close after the response unless kept alive
    const old = major === 0 || (major === 1 && minor === 0);
    let length = -1;
    let lengths = 0;
    let encoded = false;
    let chunked = false;
    let close = old;
    // an interim response's headers are not the final one's
    const all = this.captureHeaders ? new Map<string, string>() : undefined;
    let lineStart = first;
    while (lineStart !== -1) {
      const next = head.indexOf('\r\n', lineStart + 2);
      const line = head.slice(lineStart + 2, next === -1 ? head.length : next);
      lineStart = next;
      const colon = headerLine(line, false);
      if (all) {
        const key = line.slice(0, colon).toLowerCase();
        const v = line.slice(colon + 1).trim();
        const had = all.get(key);
        all.set(key, had === undefined ? v : `${had}, ${v}`);
      }
      // only three headers matter; compare by length first
      if (colon !== 14 && colon !== 17 && colon !== 10) continue;
      const name = line.slice(0, colon).toLowerCase();
      // (optional whitespace is SP and HTAB only: String.trim would also take 0xA0 away)
      const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
      if (name === 'content-length') {
        // llhttp and Node refuse a second one, even of the same value: framing must be unambiguous
        if (++lengths > 1) throw new ParseError('two Content-Length headers');
        if (!/^\d+$/.test(value)) throw new ParseError('bad Content-Length');
        if (value.replace(/^0+(?=\d)/, '').length > MAX_LENGTH_DIGITS) throw new ParseError('Content-Length too large');
        length = Number(value);
      } else if (name === 'transfer-encoding') {
        encoded = true;
        // chunked only as the last coding, in the last Transfer-Encoding line
        chunked = /(^|,)\s*chunked\s*$/i.test(value);
      } else if (name === 'connection') {
        if (asksClose(value)) close = true;
        else if (old && /keep-alive/i.test(value)) close = false;
      }
    }
    // RFC 9112 §6.3: a message with both is an error (whichever coding it names)
    if (encoded && lengths > 0) throw new ParseError('Content-Length and Transfer-Encoding both');
    this.headers = all;
    return { status, close, chunked, length };
  }

  /** Reads one CRLF-terminated line in the chunked framing (size line, the CRLF after data, trailers). */
  private readChunkLine(buf: Buffer, i: number, end: number): number {
    const lf = buf.indexOf(10, i);
    if (lf === -1 || lf >= end) {
      const part = buf.subarray(i, end);
      this.carry = this.carry ? Buffer.concat([this.carry, part]) : Buffer.from(part);
      if (this.carry.length > MAX_CHUNK_LINE) throw new ParseError('chunk line too long');
      this.bytes += end - i;
      return end;
    }
    this.bytes += lf + 1 - i;
    let line = buf.toString('latin1', i, lf + 1);
    if (this.carry) {
      line = this.carry.toString('latin1') + line;
      this.carry = undefined;
    }
    // every line of the framing ends in CRLF; a CR elsewhere in it fails its grammar below
    if (line.charCodeAt(line.length - 2) !== 13) throw new ParseError('a chunk line ends in LF without CR');
    line = line.slice(0, -2);
    if (this.state === CHUNK_DATA_END) {
      if (line !== '') throw new ParseError('missing CRLF after chunk data');
      this.state = CHUNK_SIZE;
    } else if (this.state === CHUNK_SIZE) {
      // hex digits, then `;name` or `;name=value` extensions (a token or a quoted string), no spaces
      if (!CHUNK_SIZE_LINE.test(line)) throw new ParseError('bad chunk size line');
      const semi = line.indexOf(';');
      const hex = semi === -1 ? line : line.slice(0, semi);
      if (hex.replace(/^0+(?=.)/, '').length > MAX_CHUNK_HEX_DIGITS) throw new ParseError('chunk size too large');
      const size = parseInt(hex, 16);
      if (size === 0) this.state = TRAILERS;
      else {
        this.remaining = size;
        this.state = CHUNK_DATA;
      }
    } else if (line === '') {
      this.complete(); // the empty line after the last chunk (and any trailers)
    } else {
      // a trailer field (a CR inside it is no line end)
      if (line.includes('\r')) throw new ParseError('a bare CR in a chunk line');
      headerLine(line);
    }
    return lf + 1;
  }
}

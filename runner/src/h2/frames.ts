// Pure: HTTP/2 frames (RFC 9113 §4) for the client: writing the few the client sends, and reading
// the server's incrementally from whatever cuts the socket makes. A frame is handed over whole,
// as a view into the read (or into the bytes kept from the reads before it): no copy per frame
// unless it spans reads.

export const FRAME = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

export const FLAG = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

export const SETTING = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;

/** RFC 9113 §7 error codes, by number: the names error kinds are made of (`rst-refused-stream`). */
export const ERROR_NAMES: Record<number, string> = {
  0x0: 'no-error',
  0x1: 'protocol-error',
  0x2: 'internal-error',
  0x3: 'flow-control-error',
  0x4: 'settings-timeout',
  0x5: 'stream-closed',
  0x6: 'frame-size-error',
  0x7: 'refused-stream',
  0x8: 'cancel',
  0x9: 'compression-error',
  0xa: 'connect-error',
  0xb: 'enhance-your-calm',
  0xc: 'inadequate-security',
  0xd: 'http-1-1-required',
};

/** An error code's name, or its number in hex for a code the RFC does not define. */
export function errorName(code: number): string {
  return ERROR_NAMES[code] ?? `0x${code.toString(16)}`;
}

export const CANCEL = 0x8;

/** The client connection preface (RFC 9113 §3.4). */
export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** The frame size every peer accepts (SETTINGS_MAX_FRAME_SIZE's initial value). */
export const DEFAULT_MAX_FRAME = 16384;
/** The flow-control windows' initial size (RFC 9113 §6.9.2), and their largest. */
export const DEFAULT_WINDOW = 65535;
export const MAX_WINDOW = 0x7fffffff;

export const FRAME_HEADER = 9;

/** Writes a frame header at `at`. */
export function writeFrameHeader(
  buf: Buffer,
  at: number,
  length: number,
  type: number,
  flags: number,
  stream: number,
): void {
  buf[at] = (length >>> 16) & 0xff;
  buf[at + 1] = (length >>> 8) & 0xff;
  buf[at + 2] = length & 0xff;
  buf[at + 3] = type;
  buf[at + 4] = flags;
  buf.writeUInt32BE(stream & MAX_WINDOW, at + 5);
}

/** One frame with its payload. */
export function frame(type: number, flags: number, stream: number, payload?: Uint8Array): Buffer {
  const len = payload?.length ?? 0;
  const f = Buffer.allocUnsafe(FRAME_HEADER + len);
  writeFrameHeader(f, 0, len, type, flags, stream);
  if (payload) f.set(payload, FRAME_HEADER);
  return f;
}

/** A SETTINGS frame from (id, value) pairs. */
export function settingsFrame(settings: ReadonlyArray<readonly [number, number]>): Buffer {
  const p = Buffer.allocUnsafe(6 * settings.length);
  settings.forEach(([id, value], i) => {
    p.writeUInt16BE(id, 6 * i);
    p.writeUInt32BE(value, 6 * i + 2);
  });
  return frame(FRAME.SETTINGS, 0, 0, p);
}

export function windowUpdateFrame(stream: number, increment: number): Buffer {
  const p = Buffer.allocUnsafe(4);
  p.writeUInt32BE(increment, 0);
  return frame(FRAME.WINDOW_UPDATE, 0, stream, p);
}

export function rstStreamFrame(stream: number, code: number): Buffer {
  const p = Buffer.allocUnsafe(4);
  p.writeUInt32BE(code, 0);
  return frame(FRAME.RST_STREAM, 0, stream, p);
}

export function goawayFrame(lastStream: number, code: number): Buffer {
  const p = Buffer.allocUnsafe(8);
  p.writeUInt32BE(lastStream, 0);
  p.writeUInt32BE(code, 4);
  return frame(FRAME.GOAWAY, 0, 0, p);
}

/**
 * A request's frames with stream id 0: its HEADERS (CONTINUATION when the block is longer than a
 * frame), then its body as DATA frames, END_STREAM on the last frame. The connection copies them
 * with its stream id (`withStreamId`).
 */
export function requestFrames(block: Buffer, body: Buffer | undefined): Buffer {
  const parts: Buffer[] = [];
  const hasBody = body !== undefined && body.length > 0;
  for (let at = 0; at < block.length || at === 0; at += DEFAULT_MAX_FRAME) {
    const chunk = block.subarray(at, at + DEFAULT_MAX_FRAME);
    const last = at + DEFAULT_MAX_FRAME >= block.length;
    const type = at === 0 ? FRAME.HEADERS : FRAME.CONTINUATION;
    const flags = (last ? FLAG.END_HEADERS : 0) | (at === 0 && !hasBody ? FLAG.END_STREAM : 0);
    parts.push(frame(type, flags, 0, chunk));
  }
  if (hasBody) {
    for (let at = 0; at < body.length; at += DEFAULT_MAX_FRAME) {
      const last = at + DEFAULT_MAX_FRAME >= body.length;
      parts.push(frame(FRAME.DATA, last ? FLAG.END_STREAM : 0, 0, body.subarray(at, at + DEFAULT_MAX_FRAME)));
    }
  }
  return Buffer.concat(parts);
}

/** What the reader hands over: a frame's header fields and its payload's place in `buf`. */
export interface FrameSink {
  onFrame(type: number, flags: number, stream: number, buf: Buffer, start: number, end: number): void;
}

/** A frame longer than we allow (our SETTINGS_MAX_FRAME_SIZE): the connection is unusable. */
export class FrameSizeError extends Error {
  readonly code = 'h2-frame-size-error';
}

/**
 * Reads frames from a byte stream cut anywhere. Bytes of an unfinished frame are kept (copied) until
 * the rest comes, joined once it has (a server that trickles a frame a byte at a time costs one
 * copy of it, not one per byte); a frame longer than `maxFrame` is refused as soon as its header
 * is in, before its payload is waited for.
 */
export class FrameReader {
  /** the unfinished frame's bytes so far, their count, and how many it needs (its header, then all) */
  private parts: Buffer[] = [];
  private have = 0;
  private need = FRAME_HEADER;

  constructor(private readonly maxFrame = DEFAULT_MAX_FRAME) {}

  private lengthAt(b: Buffer, p: number): number {
    const len = ((b[p] as number) << 16) | ((b[p + 1] as number) << 8) | (b[p + 2] as number);
    if (len > this.maxFrame) throw new FrameSizeError(`h2: a frame of ${len} bytes (at most ${this.maxFrame})`);
    return len;
  }

  /** Reads the frames `buf[start, end)` completes, in order. */
  push(buf: Buffer, start: number, end: number, sink: FrameSink): void {
    let b = buf;
    let p = start;
    let e = end;
    if (this.have > 0) {
      // kept past this call: a copy (the caller's buffer is reused for the next read)
      this.parts.push(Buffer.from(buf.subarray(start, end)));
      this.have += end - start;
      if (this.need === FRAME_HEADER && this.have >= FRAME_HEADER) {
        const joined = Buffer.concat(this.parts);
        this.parts = [joined];
        this.need = FRAME_HEADER + this.lengthAt(joined, 0);
      }
      if (this.have < this.need) return;
      b = Buffer.concat(this.parts);
      p = 0;
      e = b.length;
      this.parts = [];
      this.have = 0;
      this.need = FRAME_HEADER;
    }
    while (e - p >= FRAME_HEADER) {
      const len = this.lengthAt(b, p);
      if (e - p < FRAME_HEADER + len) break;
      const type = b[p + 3] as number;
      const flags = b[p + 4] as number;
      const stream = b.readUInt32BE(p + 5) & MAX_WINDOW;
      const s = p + FRAME_HEADER;
      p = s + len;
      sink.onFrame(type, flags, stream, b, s, p);
    }
    if (p < e) {
      this.parts = [Buffer.from(b.subarray(p, e))];
      this.have = e - p;
      this.need = this.have >= FRAME_HEADER ? FRAME_HEADER + this.lengthAt(b, p) : FRAME_HEADER;
    }
  }

  /** Bytes of an unfinished frame are waiting. */
  get partial(): boolean {
    return this.have > 0;
  }
}

// HTTP/2 frames (RFC 9113 §4): the incremental FrameReader wherever the reads are cut, the frame
// size limit, requestFrames's HEADERS/CONTINUATION/DATA split, the writers and error names.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_FRAME,
  errorName,
  FLAG,
  FRAME,
  frame,
  FrameReader,
  FrameSizeError,
  goawayFrame,
  requestFrames,
  rstStreamFrame,
  SETTING,
  settingsFrame,
  windowUpdateFrame,
} from '../../runner/src/h2/frames.js';
import { seededRandom } from '../../src/stats/random.js';

interface Read {
  type: number;
  flags: number;
  stream: number;
  payload: Buffer;
}

/** Reads `bytes` in pieces cut at `cuts`, each piece copied into one shared read buffer at an offset, as the socket's reads are. */
function readAll(bytes: Buffer, cuts: number[] = [], reader = new FrameReader()): Read[] {
  const out: Read[] = [];
  const sink = {
    onFrame(type: number, flags: number, stream: number, buf: Buffer, start: number, end: number) {
      // the payload is a view into a buffer the next read may reuse: copied here
      out.push({ type, flags, stream, payload: Buffer.from(buf.subarray(start, end)) });
    },
  };
  const edges = [0, ...cuts, bytes.length];
  const shared = Buffer.alloc(bytes.length + 16);
  for (let i = 0; i + 1 < edges.length; i++) {
    shared.fill(0xee);
    const n = bytes.copy(shared, 5, edges[i], edges[i + 1]);
    reader.push(shared, 5, 5 + n, sink);
  }
  // the buffer is reused: nothing handed over may still point into it
  shared.fill(0xdd);
  return out;
}

/** A frame as compared: its header fields and its payload's length and digest. */
function summary(frames: Read[]): string[] {
  return frames.map(
    (f) => `${f.type}/${f.flags}/${f.stream}/${f.payload.length}/${createHash('sha1').update(f.payload).digest('hex')}`,
  );
}

describe('FrameReader: frames back to back, cut at every byte', () => {
  const big = Buffer.alloc(DEFAULT_MAX_FRAME);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
  const padded = Buffer.from([3, ...Buffer.from('hello'), 0, 0, 0]);
  const reserved = frame(FRAME.DATA, FLAG.PADDED | FLAG.END_STREAM, 3, padded);
  // the reserved bit set by the sender: the reader ignores it (RFC 9113 §4.1)
  reserved[5] = (reserved[5] as number) | 0x80;
  const frames: Array<[Buffer, Read]> = [
    [
      settingsFrame([
        [SETTING.MAX_CONCURRENT_STREAMS, 100],
        [SETTING.INITIAL_WINDOW_SIZE, 65535],
      ]),
      {
        type: FRAME.SETTINGS,
        flags: 0,
        stream: 0,
        payload: Buffer.from([0, 3, 0, 0, 0, 100, 0, 4, 0, 0, 0xff, 0xff]),
      },
    ],
    [
      frame(FRAME.HEADERS, FLAG.END_HEADERS, 3, Buffer.from([0x88, 0x0f, 0x10, 0x01, 0x78])),
      { type: FRAME.HEADERS, flags: FLAG.END_HEADERS, stream: 3, payload: Buffer.from([0x88, 0x0f, 0x10, 0x01, 0x78]) },
    ],
    [reserved, { type: FRAME.DATA, flags: FLAG.PADDED | FLAG.END_STREAM, stream: 3, payload: padded }],
    [
      frame(FRAME.SETTINGS, FLAG.ACK, 0),
      { type: FRAME.SETTINGS, flags: FLAG.ACK, stream: 0, payload: Buffer.alloc(0) },
    ],
    [
      windowUpdateFrame(0, 1_000_000),
      { type: FRAME.WINDOW_UPDATE, flags: 0, stream: 0, payload: Buffer.from([0, 0x0f, 0x42, 0x40]) },
    ],
    [frame(FRAME.DATA, 0, 0x7fffffff, big), { type: FRAME.DATA, flags: 0, stream: 0x7fffffff, payload: big }],
    [frame(0xfa, 0xff, 5, Buffer.from('x')), { type: 0xfa, flags: 0xff, stream: 5, payload: Buffer.from('x') }],
  ];
  const stream = Buffer.concat(frames.map(([bytes]) => bytes));
  const whole = summary(frames.map(([, read]) => read));

  it('one push reads every frame as written (reserved bit masked)', () => {
    const reader = new FrameReader();
    expect(summary(readAll(stream, [], reader))).toEqual(whole);
    expect(reader.partial).toBe(false);
  });

  it('two pieces, cut at every byte', () => {
    for (let a = 1; a < stream.length; a++) expect(summary(readAll(stream, [a])), `cut at ${a}`).toEqual(whole);
  });

  it('one byte at a time', () => {
    const cuts = Array.from({ length: stream.length - 1 }, (_, i) => i + 1);
    expect(summary(readAll(stream, cuts))).toEqual(whole);
  });

  it('three pieces around every frame boundary, and 300 random cuttings', () => {
    const bounds: number[] = [];
    let at = 0;
    for (const [bytes] of frames) bounds.push((at += bytes.length));
    for (const b of bounds.slice(0, -1)) {
      for (let d = -10; d <= 10; d++) {
        for (const e of [1, 8, 9, 10]) {
          const cuts = [b + d, b + d + e].filter((c) => c > 0 && c < stream.length);
          expect(summary(readAll(stream, cuts)), `cuts ${cuts.join(',')}`).toEqual(whole);
        }
      }
    }
    const random = seededRandom(9113);
    for (let i = 0; i < 300; i++) {
      const cuts = [
        ...new Set(
          Array.from({ length: 1 + Math.floor(random() * 12) }, () => 1 + Math.floor(random() * (stream.length - 1))),
        ),
      ];
      cuts.sort((x, y) => x - y);
      expect(summary(readAll(stream, cuts)), `cuts ${cuts.join(',')}`).toEqual(whole);
    }
  });

  it('partial: bytes of an unfinished frame are waiting', () => {
    // SETTINGS is 21 bytes, then 4 of HEADERS
    const reader = new FrameReader();
    const out: number[] = [];
    const sink = { onFrame: (type: number) => out.push(type) };
    reader.push(stream, 0, 25, sink);
    expect(out).toEqual([FRAME.SETTINGS]);
    expect(reader.partial).toBe(true);
    reader.push(stream, 25, 30, sink);
    expect(reader.partial).toBe(true);
    reader.push(stream, 30, stream.length, sink);
    expect(out).toEqual(frames.map(([, r]) => r.type));
    expect(reader.partial).toBe(false);
  });
});

describe('FrameReader: a frame longer than maxFrame', () => {
  /** A DATA frame's header announcing `len` bytes (writeFrameHeader would do as well; by hand here). */
  const header = (len: number) => Buffer.from([len >> 16, (len >> 8) & 0xff, len & 0xff, FRAME.DATA, 0, 0, 0, 0, 1]);
  const noop = { onFrame: () => undefined };

  const cases: Array<[number, number, boolean]> = [
    [DEFAULT_MAX_FRAME, DEFAULT_MAX_FRAME, false],
    [DEFAULT_MAX_FRAME, DEFAULT_MAX_FRAME + 1, true],
    [DEFAULT_MAX_FRAME, 0xffffff, true],
    [100, 100, false],
    [100, 101, true],
    [0xffffff, 0xffffff, false],
  ];
  it.each(cases)('maxFrame %i, a frame of %i: refused %s, as soon as the 9-byte header is in', (max, len, refused) => {
    const reader = new FrameReader(max);
    const h = header(len);
    // 8 bytes: nothing to judge yet
    reader.push(h, 0, 8, noop);
    const last = () => reader.push(h, 8, 9, noop);
    if (refused) expect(last).toThrow(FrameSizeError);
    else {
      expect(last).not.toThrow();
      expect(reader.partial).toBe(true);
    }
  });

  it('after frames read in the same push, the long one is refused without its payload', () => {
    const frames: number[] = [];
    const bytes = Buffer.concat([frame(FRAME.PING, 0, 0, Buffer.alloc(8)), header(DEFAULT_MAX_FRAME + 1)]);
    expect(() => new FrameReader().push(bytes, 0, bytes.length, { onFrame: (t) => frames.push(t) })).toThrow(
      /a frame of 16385 bytes \(at most 16384\)/,
    );
    expect(frames).toEqual([FRAME.PING]);
  });
});

/** Splits requestFrames's output into frames (its lengths are at most 16384). */
function split(bytes: Buffer): Array<{ type: number; flags: number; stream: number; length: number; payload: Buffer }> {
  return readAll(bytes).map((f) => ({ ...f, length: f.payload.length }));
}

describe('requestFrames', () => {
  const pattern = (n: number, k: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * k) & 0xff));
  const block40k = pattern(40000, 7);
  const body40k = pattern(40000, 13);
  const H = FRAME.HEADERS;
  const C = FRAME.CONTINUATION;
  const D = FRAME.DATA;
  const ES = FLAG.END_STREAM;
  const EH = FLAG.END_HEADERS;

  const cases: Array<[string, Buffer, Buffer | undefined, Array<[number, number, number]>]> = [
    ['a small block, no body', pattern(10, 1), undefined, [[H, EH | ES, 10]]],
    ['a small block, an empty body (no body)', pattern(10, 1), Buffer.alloc(0), [[H, EH | ES, 10]]],
    ['an empty block', Buffer.alloc(0), undefined, [[H, EH | ES, 0]]],
    ['a block of exactly 16384', pattern(16384, 3), undefined, [[H, EH | ES, 16384]]],
    [
      'a block of 16385',
      pattern(16385, 3),
      undefined,
      [
        [H, ES, 16384],
        [C, EH, 1],
      ],
    ],
    [
      'a 40000-byte block, no body',
      block40k,
      undefined,
      [
        [H, ES, 16384],
        [C, 0, 16384],
        [C, EH, 7232],
      ],
    ],
    [
      'a small block, a 5-byte body',
      pattern(10, 1),
      Buffer.from('hello'),
      [
        [H, EH, 10],
        [D, ES, 5],
      ],
    ],
    [
      'a small block, a body of exactly 16384',
      pattern(10, 1),
      pattern(16384, 5),
      [
        [H, EH, 10],
        [D, ES, 16384],
      ],
    ],
    [
      'a small block, a 40000-byte body',
      pattern(10, 1),
      body40k,
      [
        [H, EH, 10],
        [D, 0, 16384],
        [D, 0, 16384],
        [D, ES, 7232],
      ],
    ],
    [
      'a 40000-byte block and a 40000-byte body',
      block40k,
      body40k,
      [
        [H, 0, 16384],
        [C, 0, 16384],
        [C, EH, 7232],
        [D, 0, 16384],
        [D, 0, 16384],
        [D, ES, 7232],
      ],
    ],
  ];
  it.each(cases)('%s', (_label, block, body, want) => {
    const frames = split(requestFrames(block, body));
    expect(frames.map((f) => [f.type, f.flags, f.length])).toEqual(want);
    expect(frames.every((f) => f.stream === 0)).toBe(true);
    const headers = frames.filter((f) => f.type !== D).map((f) => f.payload);
    expect(Buffer.concat(headers).equals(block)).toBe(true);
    const data = frames.filter((f) => f.type === D).map((f) => f.payload);
    expect(Buffer.concat(data).equals(body ?? Buffer.alloc(0))).toBe(true);
  });
});

describe('frame writers', () => {
  const cases: Array<[string, Buffer, string]> = [
    [
      'frame: the reserved bit of the stream id is cleared',
      frame(FRAME.PING, FLAG.ACK, 0x80000001),
      '000000 06 01 00000001',
    ],
    ['frame with a payload', frame(FRAME.DATA, FLAG.END_STREAM, 1, Buffer.from('ab')), '000002 00 01 00000001 6162'],
    [
      'settingsFrame',
      settingsFrame([
        [SETTING.ENABLE_PUSH, 0],
        [SETTING.INITIAL_WINDOW_SIZE, 1 << 30],
      ]),
      '00000c 04 00 00000000 0002 00000000 0004 40000000',
    ],
    ['settingsFrame, empty', settingsFrame([]), '000000 04 00 00000000'],
    ['windowUpdateFrame', windowUpdateFrame(7, 0x7fffffff), '000004 08 00 00000007 7fffffff'],
    ['rstStreamFrame', rstStreamFrame(9, 0x8), '000004 03 00 00000009 00000008'],
    ['goawayFrame', goawayFrame(0, 0x1), '000008 07 00 00000000 00000000 00000001'],
  ];
  it.each(cases)('%s', (_label, bytes, want) => {
    expect(bytes.toString('hex')).toBe(want.replace(/\s+/g, ''));
  });
});

describe('errorName', () => {
  const cases: Array<[number, string]> = [
    [0x0, 'no-error'],
    [0x1, 'protocol-error'],
    [0x3, 'flow-control-error'],
    [0x7, 'refused-stream'],
    [0x8, 'cancel'],
    [0xb, 'enhance-your-calm'],
    [0xd, 'http-1-1-required'],
    [0xe, '0xe'],
    [0xff, '0xff'],
    [0xdeadbeef, '0xdeadbeef'],
  ];
  it.each(cases)('%i → %s', (code, name) => {
    expect(errorName(code)).toBe(name);
  });
});

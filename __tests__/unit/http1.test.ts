import { describe, expect, it } from 'vitest';
import {
  asksClose,
  type Capture,
  ParseError,
  ResponseParser,
  requestAsksClose,
  type RequestTarget,
  requestTarget,
  serializeRequest,
} from '../../runner/src/http1.js';
import { seededRandom } from '../../src/stats/random.js';
import { EXPECT_BODY_LIMIT } from '../../src/runner-kit/expect.js';

/** Feeds `text` in pieces cut at `cuts` (offsets); returns the parser's result, or the error. */
function parse(text: string, o: { head?: boolean; cuts?: number[]; end?: boolean; capture?: Capture } = {}) {
  const bytes = Buffer.from(text, 'latin1');
  const p = new ResponseParser();
  p.expect(o.head ?? false, o.capture);
  const cuts = [0, ...(o.cuts ?? []), bytes.length];
  const stale = Buffer.from('\r\n\r\nHTTP/1.1 999 X\r\n\r\n');
  // one buffer for every read, as the engine's shared read buffer: what the parser keeps of a piece
  // must be a copy, or the next read overwrites it
  const shared = Buffer.alloc(bytes.length + stale.length);
  let done = false;
  try {
    for (let i = 0; i + 1 < cuts.length; i++) {
      // stale bytes after the piece, as the shared read buffer has
      const n = bytes.copy(shared, 0, cuts[i], cuts[i + 1]);
      stale.copy(shared, n);
      if (p.feed(shared, 0, n)) done = true;
    }
    if (!done && o.end) done = p.end();
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (!done) return { incomplete: true };
  const { body, headers, ...rest } = p.result;
  return {
    ...rest,
    ...(body !== undefined ? { body: body.toString('latin1') } : {}),
    ...(headers !== undefined ? { headers: Object.fromEntries(headers) } : {}),
  };
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello';

describe('ResponseParser: one response', () => {
  it.each<[string, string, { head?: boolean; end?: boolean }, object]>([
    ['Content-Length', OK, {}, { status: 200, bytes: OK.length, close: false }],
    ['empty body', 'HTTP/1.1 204 No Content\r\nX: y\r\n\r\n', {}, { status: 204, close: false }],
    ['304 ignores a Content-Length', 'HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n', {}, { status: 304 }],
    [
      'HEAD: no body despite Content-Length',
      'HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n',
      { head: true },
      { status: 200 },
    ],
    ['Content-Length: 0', 'HTTP/1.1 500 Oops\r\ncontent-length: 0\r\n\r\n', {}, { status: 500 }],
    [
      'chunked with extensions and trailers',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n',
      {},
      { status: 200, close: false },
    ],
    ['Connection: close', 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx', {}, { close: true }],
    [
      'connection header in any case',
      'HTTP/1.1 200 OK\r\nCONNECTION: Close\r\nContent-Length: 1\r\n\r\nx',
      {},
      { close: true },
    ],
    ['HTTP/1.0 closes by default', 'HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx', {}, { close: true }],
    [
      'HTTP/1.0 with keep-alive stays open',
      'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx',
      {},
      { close: false },
    ],
    ['a body until the close', 'HTTP/1.1 200 OK\r\n\r\nstream until EOF', { end: true }, { status: 200, close: true }],
    [
      'a 100 Continue before the answer',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
      {},
      { status: 201 },
    ],
  ])('%s', (_label, text, o, expected) => {
    const r = parse(text, o);
    expect(r).toMatchObject(expected);
    if ('bytes' in r) expect(r.bytes).toBe(Buffer.byteLength(text, 'latin1'));
  });

  it.each<[string, string, { end?: boolean }, RegExp]>([
    ['not HTTP', 'SSH-2.0-OpenSSH\r\n\r\n', {}, /not an HTTP\/1.x response/],
    ['bad status', 'HTTP/1.1 2x0 OK\r\n\r\n', {}, /bad status line/],
    ['bad Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', {}, /bad Content-Length/],
    ['bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', {}, /bad chunk size/],
    [
      'no CRLF after chunk data',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxy\r\n',
      {},
      /missing CRLF after chunk data/,
    ],
    ['bytes after the end', `${OK}extra`, {}, /data after the end of the response/],
  ])('rejects %s', (_label, text, o, message) => {
    expect(parse(text, o)).toMatchObject({ error: expect.stringMatching(message) });
  });

  it('is incomplete until the last byte, and a close mid-body does not complete it', () => {
    expect(parse(OK.slice(0, -1))).toEqual({ incomplete: true });
    expect(parse(OK.slice(0, -1), { end: true })).toEqual({ incomplete: true });
  });
});

describe('ResponseParser: the same responses cut at every byte', () => {
  const cases = [
    OK,
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc',
  ];
  it.each(cases.map((c) => [c.split('\r\n')[1] ?? '', c]))('%s', (_label, text) => {
    const whole = parse(text);
    for (let a = 1; a < text.length; a++) {
      expect(parse(text, { cuts: [a] }), `cut at ${a}`).toEqual(whole);
      for (const b of [a + 1, a + 3]) if (b < text.length) expect(parse(text, { cuts: [a, b] })).toEqual(whole);
    }
  });
});

describe('ResponseParser: odd and hostile servers, as llhttp (Node 20) reads them, cut at every byte', () => {
  // what Node 20's own parser (llhttp) does with each, checked by hand against http.get on a raw
  // socket server: it skips the stray CRLFs and refuses the rest; perf-gate does the same (a repeated
  // Content-Length of the same value too: RFC 9110 allows either, llhttp and Node refuse it)
  const cases: Array<[string, string, object]> = [
    ['a stray CRLF after the body', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok\r\n', { status: 200, bytes: 40 }],
    [
      'stray CRLFs after the body',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok\r\n\r\n\n',
      { status: 200, bytes: 40 },
    ],
    [
      'a stray CRLF after 100 Continue',
      'HTTP/1.1 100 Continue\r\n\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
      { status: 200 },
    ],
    [
      'the same Content-Length twice',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok',
      { error: 'two Content-Length headers' },
    ],
    [
      'two different Content-Length values',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok',
      { error: 'two Content-Length headers' },
    ],
    // framing two ways (RFC 9112 §6.3), either order, whatever the coding
    [
      'chunked and a Content-Length',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 50\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      { error: 'Content-Length and Transfer-Encoding both' },
    ],
    [
      'a Content-Length and chunked',
      'HTTP/1.1 200 OK\r\nContent-Length: 50\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      { error: 'Content-Length and Transfer-Encoding both' },
    ],
    [
      'gzip and a Content-Length',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello',
      { error: 'Content-Length and Transfer-Encoding both' },
    ],
    [
      'identity and a Content-Length',
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: identity\r\n\r\nhello',
      { error: 'Content-Length and Transfer-Encoding both' },
    ],
    // each of these waited for the request timeout before
    [
      'a bare CR in the head',
      'HTTP/1.1 200 OK\r\nX: a\rContent-Length: 2\r\n\r\nok',
      { error: 'a bare CR in the response head' },
    ],
    ['CR-only line ends', 'HTTP/1.1 200 OK\rContent-Length: 2\r\rok', { error: 'a bare CR in the response head' }],
    ['a status written 1e2', 'HTTP/1.1 1e2 Continue\r\n\r\n', { error: 'bad status line' }],
    [
      'a 101 nobody asked for',
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n',
      { error: '101 Switching Protocols to a request that asked for no upgrade' },
    ],
    // lenient no more: the status line's grammar, the versions llhttp takes, the chunk line's grammar
    ['a tab after the version', 'HTTP/1.1\t200 OK\r\nContent-Length: 0\r\n\r\n', { error: 'bad status line' }],
    ['a letter after the version', 'HTTP/1.1X200 OK\r\nContent-Length: 0\r\n\r\n', { error: 'bad status line' }],
    ['HTTP/1.9', 'HTTP/1.9 200 OK\r\nContent-Length: 0\r\n\r\n', { error: 'HTTP version 1.9' }],
    ['four status digits', 'HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n', { error: 'bad status line' }],
    ['HTTP/2.0 as llhttp takes it', 'HTTP/2.0 200 OK\r\nContent-Length: 2\r\n\r\nok', { status: 200, close: false }],
    ['HTTP/0.9 closes', 'HTTP/0.9 200 OK\r\nContent-Length: 2\r\n\r\nok', { status: 200, close: true }],
    ...(
      [
        ['a chunk size with spaces after it', '2  '],
        ['a chunk size with a space before it', ' 2'],
        ['a semicolon and no extension', '2;'],
        ['an unbalanced quote', '2;a="b'],
        ['a space before an extension', '2 ;a=b'],
      ] as const
    ).map(
      ([label, line]) =>
        [
          label,
          `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${line}\r\nok\r\n0\r\n\r\n`,
          { error: 'bad chunk size line' },
        ] as [string, string, object],
    ),
    [
      'chunk extensions, quoted with an escape',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a=b;c="d; \\"e";f\r\nok\r\n0\r\n\r\n',
      { status: 200 },
    ],
    [
      'a chunk line ending in LF alone',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nok\r\n0\r\n\r\n',
      { error: 'a chunk line ends in LF without CR' },
    ],
    [
      'a trailer that is not a header',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nnot a header\r\n\r\n',
      { error: 'bad header name ""' },
    ],
    // llhttp reads the reason phrase up to CR or LF, whatever it holds
    ['a control character in the reason phrase', 'HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\nok', { status: 200 }],
    [
      'a Content-Length followed by a no-break space (0xA0 is no whitespace in HTTP)',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\xA0\r\n\r\nok',
      { error: 'bad Content-Length' },
    ],
    [
      'a trailer with a bare CR',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX: a\rb\r\n\r\n',
      { error: 'a bare CR in a chunk line' },
    ],
    [
      'a control character in a header value',
      'HTTP/1.1 200 OK\r\nX: a\x01b\r\nContent-Length: 2\r\n\r\nok',
      { error: 'a control character in a header' },
    ],
    [
      'a head over 16 KiB in one read',
      `HTTP/1.1 200 OK\r\nX: ${'a'.repeat(16 * 1024)}\r\nContent-Length: 2\r\n\r\nok`,
      { error: 'response head larger than 16 KiB' },
    ],
    [
      'a Content-Length beyond 2^53',
      'HTTP/1.1 200 OK\r\nContent-Length: 9007199254740993\r\n\r\nok',
      { error: 'Content-Length too large' },
    ],
    [
      'a chunk size beyond 2^53',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n20000000000000\r\nok',
      { error: 'chunk size too large' },
    ],
    [
      'a space before the colon',
      'HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok',
      { error: 'bad header name "Content-Length "' },
    ],
    [
      'a folded Transfer-Encoding',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      { error: 'a folded header line (obs-fold)' },
    ],
    [
      'a NUL in a header value',
      'HTTP/1.1 200 OK\r\nX: a\0b\r\nContent-Length: 2\r\n\r\nok',
      { error: 'a NUL in a header' },
    ],
    [
      'lines ending in LF alone',
      'HTTP/1.1 200 OK\nContent-Length: 2\n\nok',
      { error: 'a line of the response head ends in LF without CR' },
    ],
    ['an SSH banner', 'SSH-2.0-OpenSSH_9.2\r\n', { error: 'not an HTTP/1.x response' }],
  ];
  it.each(cases)('%s', (_label, text, expected) => {
    const whole = parse(text);
    expect(whole).toMatchObject(expected);
    for (let a = 1; a < text.length; a++) {
      const cut = parse(text, { cuts: [a] });
      // the same outcome, whichever read each byte comes in
      expect(cut, `cut at ${a}`).toEqual(whole);
    }
  });

  it('a server that does not speak HTTP is refused at its first byte, not at 16 KiB or the timeout', () => {
    for (const first of ['S', '\x16', '+', 'J']) expect(parse(first)).toEqual({ error: 'not an HTTP/1.x response' });
    // a line ending in LF alone is refused as soon as that LF arrives
    expect(parse('HTTP/1.1 200 OK\n')).toEqual({ error: 'a line of the response head ends in LF without CR' });
    // a prefix of a status line is only incomplete
    expect(parse('HTTP/1')).toEqual({ incomplete: true });
  });

  it('a stray CRLF between responses is no data without a request; anything else still is', () => {
    const p = new ResponseParser();
    p.expect(false);
    expect(p.feed(Buffer.from(OK))).toBe(true);
    expect(p.feed(Buffer.from('\r\n'))).toBe(false);
    expect(() => p.feed(Buffer.from('x'))).toThrow('data without a request');
  });
});

describe('ResponseParser.parse: pipelined responses back to back, cut at every byte', () => {
  const CHUNKED = 'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n';
  const HEAD = 'HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n';
  const INTERIM = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabc';
  // the third request is a HEAD: its Content-Length announces a body that never follows
  const stream = OK + CHUNKED + HEAD + INTERIM;
  const heads = [false, false, true, false];

  /** Parses `stream` read in pieces cut at `cuts`, as a pipelining connection does: one parse per response a piece completes. */
  function pipelined(cuts: number[]): Array<[number, number]> {
    const bytes = Buffer.from(stream, 'latin1');
    const p = new ResponseParser();
    const out: Array<[number, number]> = [];
    let next = 0;
    p.expect(heads[next++] as boolean);
    const edges = [0, ...cuts, bytes.length];
    for (let k = 0; k + 1 < edges.length; k++) {
      const piece = Buffer.from(bytes.subarray(edges[k], edges[k + 1]));
      let i = 0;
      while (i < piece.length) {
        i = p.parse(piece, i, piece.length);
        if (p.busy) break;
        out.push([p.result.status, p.result.bytes]);
        if (next < heads.length) p.expect(heads[next++] as boolean);
        else if (i < piece.length) throw new Error('bytes after the last response');
      }
    }
    return out;
  }

  it('every response is found whole, wherever the reads are cut', () => {
    const whole: Array<[number, number]> = [
      [200, OK.length],
      [201, CHUNKED.length],
      [200, HEAD.length],
      // an interim response's bytes count with the final one's
      [404, INTERIM.length],
    ];
    expect(pipelined([])).toEqual(whole);
    for (let a = 1; a < stream.length; a++) {
      expect(pipelined([a]), `cut at ${a}`).toEqual(whole);
      for (const b of [a + 1, a + 7])
        if (b < stream.length) expect(pipelined([a, b]), `cuts at ${a}, ${b}`).toEqual(whole);
    }
  });

  it('stops at the end of the response and says where; feed still refuses what follows', () => {
    const p = new ResponseParser();
    p.expect(false);
    const two = Buffer.from(OK + OK, 'latin1');
    expect(p.parse(two, 0, two.length)).toBe(OK.length);
    expect(p.busy).toBe(false);
    p.expect(false);
    expect(() => p.feed(two)).toThrow(/data after the end of the response/);
  });
});

describe('ResponseParser: one connection, responses one after another (a head seen before is not read again)', () => {
  type Step = { text: string; head?: boolean; capture?: Capture };
  /** Each response on one parser, fed whole: its status, bytes, body and headers, or its error. */
  function onOneConnection(steps: Step[]) {
    const p = new ResponseParser();
    return steps.map(({ text, head, capture }) => {
      p.expect(head ?? false, capture);
      try {
        if (!p.feed(Buffer.from(text, 'latin1'))) return { incomplete: true };
      } catch (err) {
        return { error: (err as Error).message };
      }
      const { status, bytes, body, headers } = p.result;
      return {
        status,
        bytes,
        ...(body !== undefined ? { body: body.toString('latin1') } : {}),
        ...(headers !== undefined ? { headers: Object.fromEntries(headers) } : {}),
      };
    });
  }
  const fresh = (step: Step) => onOneConnection([step])[0];
  const both: Capture = { headers: true, body: true };
  const THREE = 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc';
  const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n';
  const TWO_LENGTHS = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello';
  const INTERIM = 'HTTP/1.1 100 Continue\r\n\r\n' + OK;
  const CLOSE = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello';

  it.each<[string, Step[]]>([
    ['the same response three times', [{ text: OK }, { text: OK }, { text: OK }]],
    ['the same head to a HEAD request: no body follows', [{ text: OK }, { text: OK.slice(0, -5), head: true }]],
    ['another length after a head seen', [{ text: OK }, { text: THREE }, { text: OK }]],
    ['chunked after a length, and back', [{ text: OK }, { text: CHUNKED }, { text: OK }]],
    ['a head that asks to close after one that does not', [{ text: OK }, { text: CLOSE }]],
    ['an interim response before a head seen', [{ text: OK }, { text: INTERIM }, { text: INTERIM }]],
    [
      'headers read for the checks after a head seen, then not',
      [{ text: OK }, { text: OK, capture: both }, { text: OK }],
    ],
    ['two heads alternating (a flow: create, then read)', [OK, THREE, OK, THREE, OK].map((text) => ({ text }))],
    [
      'more heads cycling than are remembered',
      [OK, THREE, CHUNKED, CLOSE, INTERIM, OK, THREE, CHUNKED, CLOSE, INTERIM].map((text) => ({ text })),
    ],
  ])('%s: each as a fresh connection reads it', (_label, steps) => {
    expect(onOneConnection(steps)).toEqual(steps.map(fresh));
  });

  it('a head refused is refused every time, after a good one and after itself', () => {
    expect(onOneConnection([{ text: OK }, { text: TWO_LENGTHS }])).toEqual([
      fresh({ text: OK }),
      { error: 'two Content-Length headers' },
    ]);
    const p = new ResponseParser();
    for (let i = 0; i < 2; i++) {
      p.expect(false);
      expect(() => p.feed(Buffer.from(TWO_LENGTHS, 'latin1'))).toThrow('two Content-Length headers');
    }
  });

  it('a connection closing after its response says so again on a repeat', () => {
    const p = new ResponseParser();
    for (let i = 0; i < 2; i++) {
      p.expect(false);
      expect(p.feed(Buffer.from(CLOSE, 'latin1'))).toBe(true);
      expect(p.result.close).toBe(true);
    }
  });
});

describe('ResponseParser: keeping headers and body for the checks (expect), cut at every byte', () => {
  const both: Capture = { headers: true, body: true };
  const cases: Array<[string, string, { end?: boolean }, object]> = [
    [
      'Content-Length',
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"ok":true}`,
      {},
      {
        body: '{"ok":true}',
        headers: { 'content-type': 'application/json', 'content-length': '11' },
      },
    ],
    [
      'chunked: the body de-chunked, trailers not headers',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n',
      {},
      {
        body: 'hello world',
        headers: { 'transfer-encoding': 'chunked' },
      },
    ],
    [
      'a body until the close',
      'HTTP/1.1 200 OK\r\nX-A: 1\r\n\r\nuntil EOF',
      { end: true },
      { body: 'until EOF', headers: { 'x-a': '1' } },
    ],
    [
      'repeated headers joined, names in lower case',
      'HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nContent-Length: 0\r\n\r\n',
      {},
      {
        body: '',
        headers: { 'set-cookie': 'a=1, b=2', 'content-length': '0' },
      },
    ],
    [
      'an interim response: only the final one’s headers',
      'HTTP/1.1 100 Continue\r\nX-Interim: 1\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
      {},
      {
        status: 201,
        body: 'ok',
        headers: { 'content-length': '2' },
      },
    ],
  ];
  it.each(cases)('%s', (_label, text, o, expected) => {
    const whole = parse(text, { ...o, capture: both });
    expect(whole).toMatchObject({ ...expected, truncated: false });
    for (let a = 1; a < text.length; a++) {
      expect(parse(text, { ...o, capture: both, cuts: [a] }), `cut at ${a}`).toEqual(whole);
      for (const b of [a + 1, a + 3])
        if (b < text.length) expect(parse(text, { ...o, capture: both, cuts: [a, b] })).toEqual(whole);
    }
  });

  it('keeps only what is asked for, and nothing without a capture', () => {
    const text = 'HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 2\r\n\r\nok';
    expect(parse(text)).not.toHaveProperty('body');
    expect(parse(text)).not.toHaveProperty('headers');
    expect(parse(text, { capture: { headers: true, body: false } })).toMatchObject({ headers: { 'x-a': '1' } });
    expect(parse(text, { capture: { headers: true, body: false } })).not.toHaveProperty('body');
    expect(parse(text, { capture: { headers: false, body: true } })).toMatchObject({ body: 'ok' });
  });

  it('a body over the limit: its start is kept and it is marked truncated; the next response starts clean', () => {
    const p = new ResponseParser();
    const big = EXPECT_BODY_LIMIT + 10;
    p.expect(false, { headers: false, body: true });
    expect(p.feed(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${big}\r\n\r\n`))).toBe(false);
    expect(p.feed(Buffer.alloc(big, 'a'))).toBe(true);
    expect(p.result.truncated).toBe(true);
    expect(p.result.body?.length).toBe(EXPECT_BODY_LIMIT);
    p.expect(false, { headers: false, body: true });
    expect(p.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'))).toBe(true);
    expect(p.result).toMatchObject({ truncated: false });
    expect(p.result.body?.toString()).toBe('ok');
  });
});

describe('ResponseParser: reuse', () => {
  it('parses the next response after expect(), and refuses data with no request', () => {
    const p = new ResponseParser();
    expect(p.busy).toBe(false);
    expect(() => p.feed(Buffer.from('x'))).toThrow(ParseError);
    for (const status of [200, 404]) {
      p.expect(false);
      expect(p.busy).toBe(true);
      expect(p.feed(Buffer.from(`HTTP/1.1 ${status} X\r\nContent-Length: 2\r\n\r\nok`))).toBe(true);
      expect(p.result.status).toBe(status);
      expect(p.busy).toBe(false);
    }
  });
});

describe('serializeRequest', () => {
  it.each<[string, Parameters<typeof serializeRequest>[0], string]>([
    [
      'a GET',
      { url: 'http://api:8080/v1/x?q=1', method: 'get', headers: {} },
      'GET /v1/x?q=1 HTTP/1.1\r\nHost: api:8080\r\n\r\n',
    ],
    ['the root path', { url: 'http://api', method: 'GET', headers: {} }, 'GET / HTTP/1.1\r\nHost: api\r\n\r\n'],
    [
      'a body with its length in bytes',
      { url: 'http://a/', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"é"}' },
      'POST / HTTP/1.1\r\nHost: a\r\ncontent-type: application/json\r\nContent-Length: 10\r\n\r\n{"q":"é"}',
    ],
    [
      'POST without a body',
      { url: 'http://a/', method: 'POST', headers: {} },
      'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n',
    ],
    [
      'the user’s Host wins',
      { url: 'http://a/', method: 'GET', headers: { host: 'b' } },
      'GET / HTTP/1.1\r\nhost: b\r\n\r\n',
    ],
  ])('%s', (_label, parts, expected) => {
    expect(serializeRequest(parts).toString('utf8')).toBe(expected);
  });
});

/** What the request line and Host take from `url` as the WHATWG parser reads it (or its error). */
function byParser(url: string): RequestTarget | 'throws' {
  try {
    const u = new URL(url);
    return { path: (u.pathname || '/') + u.search, host: u.host, https: u.protocol === 'https:' };
  } catch {
    return 'throws';
  }
}

function byTarget(url: string): RequestTarget | 'throws' {
  try {
    return requestTarget(url);
  } catch {
    return 'throws';
  }
}

describe('requestTarget: what the URL parser gives, remembered origins or not', () => {
  // each read twice: the first may go through the parser and remember the origin, the second may not
  it.each([
    'http://api:8080/v1/items/42?expand=owner',
    'http://API:8080/a',
    'http://api:80/a',
    'https://api:443/a?b=1',
    'http://api',
    'http://api?x=1',
    'http://api/?',
    'http://api/a?',
    'http://api/a/./b',
    'http://api/a/../b',
    'http://api/a/%2e%2E/b',
    'http://api/a/.b/c',
    'http://api/a b',
    'http://api/a\tb',
    "http://api/a'b?c'd",
    'http://api/a"b',
    'http://api/a#frag',
    'http://api/a?b#frag',
    'http://api\\a\\b',
    'http:///api/x',
    'http:////api/x',
    'http://user:pw@api/x',
    'http://[::1]:8080/x',
    'http://127.0.0.1:8080/x?%zz',
    'http://api/a|b^c{d}`e<f>',
    ' http://api/x ',
    'http://bücher.example/x',
    'ws://api/x',
    "foo://api/a?b'c",
    'api/x',
    'http://',
    'http://a b/x',
  ])('%s', (url) => {
    const expected = byParser(url);
    expect(byTarget(url)).toEqual(expected);
    expect(byTarget(url)).toEqual(expected);
  });

  it('agrees with the parser on 20,000 generated URLs over a few origins, seen and unseen', () => {
    const random = seededRandom(20261130);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const origins = [
      'http://api:8080',
      'HTTP://Api',
      'https://x.test:443',
      'HTTPS://s:8443',
      'http:///y',
      'http://u@z',
      'ws://w',
    ];
    const pieces = ['/', 'a', '.', '..', '%2e', '%', '?', '#', ' ', "'", '"', '\\', '\t', '=', '&', 'é', '@', ':', '|'];
    const seen: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      let rest = '';
      const n = Math.floor(random() * 8);
      for (let j = 0; j < n; j++) rest += pick(pieces);
      const url = `${pick(origins)}${rest}`;
      const expected = byParser(url);
      const got = byTarget(url);
      if (JSON.stringify(got) !== JSON.stringify(expected))
        seen.push(`${url} → ${JSON.stringify(got)}, not ${JSON.stringify(expected)}`);
    }
    expect(seen).toEqual([]);
  });
});

describe('asking to close', () => {
  it.each<[string, boolean]>([
    ['close', true],
    ['Close', true],
    ['keep-alive', false],
    ['keep-alive, close', true],
    ['closed', false],
  ])('Connection: %s → %s', (value, expected) => {
    expect(asksClose(value)).toBe(expected);
    expect(requestAsksClose({ Connection: value })).toBe(expected);
  });
});

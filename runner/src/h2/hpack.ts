// Pure: HPACK (RFC 7541) for the HTTP/2 client. Requests are encoded once per distinct request, as
// literals without indexing (a static-table name where there is one), so a request's header block
// never touches the server's dynamic table and the same bytes are valid on every connection at any
// time. Responses are decoded completely (static and dynamic table, size updates, Huffman), since
// every header block changes the table the next one is read with. The input is the server's, so
// every length is checked against the block, an index against the table, and the decoded fields
// against a size bound; any of them failing is an HpackError (a connection error).

/** A header block the decoder cannot read: the connection is unusable (COMPRESSION_ERROR). */
export class HpackError extends Error {
  readonly code = 'h2-compression-error';
}

/** The Huffman code of each byte value (RFC 7541 appendix B), then its length in bits. */
export const HUFFMAN_CODES = [
  8184, 8388568, 268435426, 268435427, 268435428, 268435429, 268435430, 268435431, 268435432, 16777194, 1073741820,
  268435433, 268435434, 1073741821, 268435435, 268435436, 268435437, 268435438, 268435439, 268435440, 268435441,
  268435442, 1073741822, 268435443, 268435444, 268435445, 268435446, 268435447, 268435448, 268435449, 268435450,
  268435451, 20, 1016, 1017, 4090, 8185, 21, 248, 2042, 1018, 1019, 249, 2043, 250, 22, 23, 24, 0, 1, 2, 25, 26, 27, 28,
  29, 30, 31, 92, 251, 32764, 32, 4091, 1020, 8186, 33, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106,
  107, 108, 109, 110, 111, 112, 113, 114, 252, 115, 253, 8187, 524272, 8188, 16380, 34, 32765, 3, 35, 4, 36, 5, 37, 38,
  39, 6, 116, 117, 40, 41, 42, 7, 43, 118, 44, 8, 9, 45, 119, 120, 121, 122, 123, 32766, 2044, 16381, 8189, 268435452,
  1048550, 4194258, 1048551, 1048552, 4194259, 4194260, 4194261, 8388569, 4194262, 8388570, 8388571, 8388572, 8388573,
  8388574, 16777195, 8388575, 16777196, 16777197, 4194263, 8388576, 16777198, 8388577, 8388578, 8388579, 8388580,
  2097116, 4194264, 8388581, 4194265, 8388582, 8388583, 16777199, 4194266, 2097117, 1048553, 4194267, 4194268, 8388584,
  8388585, 2097118, 8388586, 4194269, 4194270, 16777200, 2097119, 4194271, 8388587, 8388588, 2097120, 2097121, 4194272,
  2097122, 8388589, 4194273, 8388590, 8388591, 1048554, 4194274, 4194275, 4194276, 8388592, 4194277, 4194278, 8388593,
  67108832, 67108833, 1048555, 524273, 4194279, 8388594, 4194280, 33554412, 67108834, 67108835, 67108836, 134217694,
  134217695, 67108837, 16777201, 33554413, 524274, 2097123, 67108838, 134217696, 134217697, 67108839, 134217698,
  16777202, 2097124, 2097125, 67108840, 67108841, 268435453, 134217699, 134217700, 134217701, 1048556, 16777203,
  1048557, 2097126, 4194281, 2097127, 2097128, 8388595, 4194282, 4194283, 33554414, 33554415, 16777204, 16777205,
  67108842, 8388596, 67108843, 134217702, 67108844, 67108845, 134217703, 134217704, 134217705, 134217706, 134217707,
  268435454, 134217708, 134217709, 134217710, 134217711, 134217712, 67108846,
];
export const HUFFMAN_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28,
  28, 28, 28, 6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, 15, 5, 6, 5, 6,
  5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, 20, 22, 20, 20, 22, 22, 22, 23,
  22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, 22, 21, 20, 22, 22,
  23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, 26, 26,
  20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27,
  27, 20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27,
  27, 27, 27, 26,
];

/** RFC 7541 appendix A: index 1 is the first entry. */
export const STATIC_TABLE: ReadonlyArray<readonly [string, string]> = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', ''],
];

/**
 * The Huffman decoding tree as an array: node n's children are at 2n (bit 0) and 2n+1 (bit 1);
 * a value >= 0 is a node, -1 - symbol a leaf, and 0 (the root is never a child) no code. `nodes`:
 * how many inner nodes it has (the root is 0).
 */
const HUFFMAN = (() => {
  const tree = new Int32Array(2 * 600);
  let nodes = 1;
  for (let sym = 0; sym < 256; sym++) {
    const code = HUFFMAN_CODES[sym] as number;
    const len = HUFFMAN_LENGTHS[sym] as number;
    let n = 0;
    for (let b = len - 1; b >= 0; b--) {
      const slot = 2 * n + ((code >>> b) & 1);
      if (b === 0) tree[slot] = -1 - sym;
      else {
        if (tree[slot] === 0) tree[slot] = nodes++;
        n = tree[slot] as number;
      }
    }
  }
  return { tree, nodes };
})();

/** A step of the nibble table: the inner node reached (bits 0–8), the symbol it ended on (9–16), and flags. */
const NIBBLE_EMITS = 1 << 17;
const NIBBLE_FAILS = 1 << 18;
/** the node reached is a valid end: right after a symbol, or 1 to 7 one-bits into the next (padding) */
const NIBBLE_ENDS = 1 << 19;

/**
 * The tree walked four bits at a time (as nghttp2 does): for each inner node and each nibble, where the
 * four bits lead, the symbol they complete (the shortest code is five bits: at most one), whether they
 * run into no code (or EOS), and whether the string may end there. Made once from the tree.
 */
const HUFFMAN_NIBBLES = (() => {
  const { tree, nodes } = HUFFMAN;
  // each node's depth when its path from the root is all ones (-1 otherwise): padding is such a path
  const ones = new Int8Array(nodes).fill(-1);
  ones[0] = 0;
  for (let n = 0, d = 1; (tree[2 * n + 1] as number) > 0; d++) {
    n = tree[2 * n + 1] as number;
    ones[n] = Math.min(d, 127);
  }
  const table = new Uint32Array(nodes * 16);
  for (let state = 0; state < nodes; state++) {
    for (let nibble = 0; nibble < 16; nibble++) {
      let n = state;
      let sym = -1;
      let fails = false;
      for (let b = 3; b >= 0 && !fails; b--) {
        const next = tree[2 * n + ((nibble >>> b) & 1)] as number;
        if (next < 0) {
          sym = -1 - next;
          n = 0;
        } else if (next === 0) fails = true;
        else n = next;
      }
      const depth = ones[n] as number;
      const ends = n === 0 || (depth >= 1 && depth <= 7);
      table[state * 16 + nibble] = fails
        ? NIBBLE_FAILS
        : n | (sym >= 0 ? (sym << 9) | NIBBLE_EMITS : 0) | (ends ? NIBBLE_ENDS : 0);
    }
  }
  return table;
})();

/** where decoded bytes are gathered before they become the string (grown as needed; decoding is synchronous) */
let scratch = Buffer.allocUnsafe(256);

/** Decodes a Huffman-coded string; padding must be at most 7 bits, all ones (the EOS code's start). */
export function huffmanDecode(buf: Uint8Array, start: number, end: number): string {
  // five bits is the shortest code: at most 8/5 symbols a byte
  const most = Math.ceil(((end - start) * 8) / 5);
  if (scratch.length < most) scratch = Buffer.allocUnsafe(Math.max(most, 2 * scratch.length));
  const out = scratch;
  let k = 0;
  let state = 0;
  let ends = true;
  for (let i = start; i < end; i++) {
    const byte = buf[i] as number;
    let step = HUFFMAN_NIBBLES[state * 16 + (byte >>> 4)] as number;
    if (step & NIBBLE_FAILS) throw new HpackError('hpack: bad Huffman code (EOS or no code)');
    if (step & NIBBLE_EMITS) out[k++] = (step >>> 9) & 0xff;
    state = step & 0x1ff;
    step = HUFFMAN_NIBBLES[state * 16 + (byte & 0x0f)] as number;
    if (step & NIBBLE_FAILS) throw new HpackError('hpack: bad Huffman code (EOS or no code)');
    if (step & NIBBLE_EMITS) out[k++] = (step >>> 9) & 0xff;
    state = step & 0x1ff;
    ends = (step & NIBBLE_ENDS) !== 0;
  }
  if (!ends) throw new HpackError('hpack: bad Huffman padding');
  return out.toString('latin1', 0, k);
}

/** The header block of a request: HPACK integers and literals without indexing, plain strings. */
export function encodeInteger(out: number[], first: number, prefixBits: number, value: number): void {
  const mask = (1 << prefixBits) - 1;
  if (value < mask) {
    out.push(first | value);
    return;
  }
  out.push(first | mask);
  let v = value - mask;
  while (v >= 128) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

function encodeString(out: number[], s: string): void {
  const bytes = Buffer.from(s, 'latin1');
  encodeInteger(out, 0, 7, bytes.length);
  for (const b of bytes) out.push(b);
}

/** The first static entry with this name (1-based), or 0. */
const STATIC_NAME_INDEX = new Map<string, number>();
STATIC_TABLE.forEach(([name], i) => {
  if (!STATIC_NAME_INDEX.has(name)) STATIC_NAME_INDEX.set(name, i + 1);
});
/** Static entries whose name and value match exactly (indexed representation, one byte). */
const STATIC_FULL_INDEX = new Map<string, number>(STATIC_TABLE.map(([n, v], i) => [`${n}\0${v}`, i + 1]));

/**
 * Encodes fields (names lower-case, in order) as a header block: a static entry whose name and
 * value match is one indexed byte; anything else is a literal without indexing, by static name
 * index when the name is in the table. No dynamic table, no Huffman.
 */
export function encodeHeaderBlock(fields: ReadonlyArray<readonly [string, string]>): Buffer {
  const out: number[] = [];
  for (const [name, value] of fields) {
    const full = STATIC_FULL_INDEX.get(`${name}\0${value}`);
    if (full !== undefined) {
      encodeInteger(out, 0x80, 7, full);
      continue;
    }
    const nameIndex = STATIC_NAME_INDEX.get(name) ?? 0;
    encodeInteger(out, 0x00, 4, nameIndex);
    if (nameIndex === 0) encodeString(out, name);
    encodeString(out, value);
  }
  return Buffer.from(out);
}

/** The decoder's bounds: the dynamic table's size (our SETTINGS_HEADER_TABLE_SIZE) and a block's fields. */
export const HEADER_TABLE_SIZE = 4096;
/** Decoded fields of one block at most (names and values, 32 bytes each besides): our SETTINGS_MAX_HEADER_LIST_SIZE. */
export const MAX_HEADER_LIST_SIZE = 256 * 1024;

/** One connection's HPACK decoder: its dynamic table lives as long as the connection. */
export class HpackDecoder {
  /** newest first */
  private readonly table: Array<[string, string]> = [];
  private size = 0;
  private max = HEADER_TABLE_SIZE;
  private p = 0;
  private end = 0;

  private byte(buf: Uint8Array): number {
    if (this.p >= this.end) throw new HpackError('hpack: block ends inside a field');
    return buf[this.p++] as number;
  }

  private int(buf: Uint8Array, prefixBits: number): number {
    const mask = (1 << prefixBits) - 1;
    let v = this.byte(buf) & mask;
    if (v < mask) return v;
    let m = 0;
    let b: number;
    do {
      // RFC 7541 §5.1: too many octets is a decoding error too (5 hold any 32-bit value)
      if (m > 28) throw new HpackError('hpack: integer too long');
      b = this.byte(buf);
      v += (b & 0x7f) * 2 ** m;
      m += 7;
      if (v > 0xffffffff) throw new HpackError('hpack: integer too large');
    } while (b & 0x80);
    return v;
  }

  private str(buf: Uint8Array): string {
    if (this.p >= this.end) throw new HpackError('hpack: block ends inside a field');
    const huffman = ((buf[this.p] as number) & 0x80) !== 0;
    const len = this.int(buf, 7);
    if (len > this.end - this.p) throw new HpackError('hpack: string longer than the block');
    const s = huffman
      ? huffmanDecode(buf, this.p, this.p + len)
      : Buffer.from(buf.buffer, buf.byteOffset + this.p, len).toString('latin1');
    this.p += len;
    return s;
  }

  private entry(i: number): readonly [string, string] {
    const e =
      i === 0 ? undefined : i <= STATIC_TABLE.length ? STATIC_TABLE[i - 1] : this.table[i - STATIC_TABLE.length - 1];
    if (!e) throw new HpackError(`hpack: no table entry ${i}`);
    return e;
  }

  private evict(): void {
    while (this.size > this.max) {
      const [n, v] = this.table.pop() as [string, string];
      this.size -= n.length + v.length + 32;
    }
  }

  private insert(name: string, value: string): void {
    this.table.unshift([name, value]);
    this.size += name.length + value.length + 32;
    this.evict();
  }

  /** Decodes a whole header block; `field` gets each field in order. */
  decode(buf: Uint8Array, start: number, end: number, field: (name: string, value: string) => void): void {
    this.p = start;
    this.end = end;
    let listSize = 0;
    let first = true;
    while (this.p < this.end) {
      const b = buf[this.p] as number;
      let name: string;
      let value: string;
      if (b & 0x80) {
        [name, value] = this.entry(this.int(buf, 7));
      } else if ((b & 0xc0) === 0x40) {
        const i = this.int(buf, 6);
        name = i ? this.entry(i)[0] : this.str(buf);
        value = this.str(buf);
        this.insert(name, value);
      } else if ((b & 0xe0) === 0x20) {
        // a dynamic table size update: only at a block's start, and within our setting
        const max = this.int(buf, 5);
        if (!first || max > HEADER_TABLE_SIZE) throw new HpackError('hpack: bad table size update');
        this.max = max;
        this.evict();
        continue;
      } else {
        // literal without indexing (0000) or never indexed (0001)
        const i = this.int(buf, 4);
        name = i ? this.entry(i)[0] : this.str(buf);
        value = this.str(buf);
      }
      first = false;
      listSize += name.length + value.length + 32;
      if (listSize > MAX_HEADER_LIST_SIZE) throw new HpackError('hpack: header list too large');
      field(name, value);
    }
  }

  /** The dynamic table, newest first (tests). */
  dynamicTable(): Array<[string, string]> {
    return this.table.map(([n, v]) => [n, v]);
  }
}

// Pure: files into one ZIP archive (what an artifact is), each entry deflated (stored where deflate
// does not shrink it), names in UTF-8. No ZIP64: the whole archive stays under 4 GiB, which the
// artifact's own bound keeps far from (artifact.ts).
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** the path inside the archive, `/`-separated, relative */
  name: string;
  bytes: Uint8Array;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** general purpose flag 11: the name is UTF-8 */
const UTF8 = 0x0800;

/** A date as MS-DOS time and date fields (two seconds' resolution, from 1980). */
export function dosTime(at: Date): { time: number; date: number } {
  const year = Math.min(2107, Math.max(1980, at.getUTCFullYear()));
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** The entries as one ZIP archive, in the order given, every entry dated `at`. */
export function zipFiles(entries: readonly ZipEntry[], at: Date): Uint8Array {
  const { time, date } = dosTime(at);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const raw = Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength);
    const deflated = deflateRawSync(raw);
    const stored = deflated.length >= raw.length;
    const data = stored ? raw : deflated;
    const crc = crc32(raw) >>> 0;
    // the fields both headers share: version needed, flags, method, time, date, crc, sizes, name length
    const shared = Buffer.alloc(26);
    shared.writeUInt16LE(20, 0);
    shared.writeUInt16LE(UTF8, 2);
    shared.writeUInt16LE(stored ? 0 : 8, 4);
    shared.writeUInt16LE(time, 6);
    shared.writeUInt16LE(date, 8);
    shared.writeUInt32LE(crc, 10);
    shared.writeUInt32LE(data.length, 14);
    shared.writeUInt32LE(raw.length, 18);
    shared.writeUInt16LE(name.length, 22);
    shared.writeUInt16LE(0, 24); // extra field length
    const local = Buffer.alloc(4);
    local.writeUInt32LE(LOCAL, 0);
    locals.push(local, shared, name, data);
    const head = Buffer.alloc(6);
    head.writeUInt32LE(CENTRAL, 0);
    head.writeUInt16LE(20, 4); // version made by: 2.0, MS-DOS attributes
    // comment length, disk number, internal attributes (2 bytes each) and external attributes (4): all
    // 0; then where the entry's local header starts
    const tail = Buffer.alloc(14);
    tail.writeUInt32LE(offset, 10);
    centrals.push(head, shared, tail, name);
    offset += 4 + shared.length + name.length + data.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, central, end]));
}

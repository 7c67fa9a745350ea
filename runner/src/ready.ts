// Ready probes, made from inside the SUT network: poll each URL until it is ready or its timeout
// passes. http(s)://: it answers 2xx/3xx. tcp://host:port: it accepts a connection (a service that
// speaks no HTTP: a database, a gRPC server), which is closed at once.
import { connect } from 'node:net';
import { tcpProbeAddress } from '../../src/protocol/plan.js';
import { emit } from './emit.js';

/** One attempt: no error when ready (with the HTTP status, for an HTTP probe), else why not. */
type Attempt = (waitMs: number) => Promise<{ error?: string; status?: number }>;

function httpAttempt(url: string): Attempt {
  return async (waitMs) => {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(waitMs) });
      await res.arrayBuffer();
      return res.status >= 200 && res.status < 400 ? { status: res.status } : { error: `HTTP ${res.status}` };
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      return { error: cause?.code ?? cause?.message ?? (err as Error).message };
    }
  };
}

function tcpAttempt(address: { host: string; port: number }): Attempt {
  return (waitMs) =>
    new Promise((resolve) => {
      const socket = connect(address);
      const done = (error?: string): void => {
        clearTimeout(timer);
        socket.destroy();
        resolve(error === undefined ? {} : { error });
      };
      const timer = setTimeout(() => done('connect-timeout'), waitMs);
      socket.once('connect', () => done());
      socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    });
}

export async function waitReady(url: string, timeoutMs: number): Promise<string | undefined> {
  const address = tcpProbeAddress(url);
  const attempt = address ? tcpAttempt(address) : httpAttempt(url);
  const started = performance.now();
  let lastError = 'no answer';
  while (performance.now() - started < timeoutMs) {
    const remaining = timeoutMs - (performance.now() - started);
    const r = await attempt(Math.round(Math.max(100, Math.min(2000, remaining))));
    if (r.error === undefined) {
      const elapsedMs = Math.round(performance.now() - started);
      emit({ t: 'probe', url, ok: true, ...(r.status !== undefined ? { status: r.status } : {}), elapsedMs });
      return undefined;
    }
    lastError = r.error;
    await new Promise((res) => setTimeout(res, 250));
  }
  return lastError;
}

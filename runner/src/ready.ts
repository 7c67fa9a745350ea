// Ready probes, made from inside the SUT network: poll each URL until it answers 2xx/3xx or its
// timeout passes.
import { emit } from './emit.js';

export async function waitReady(url: string, timeoutMs: number): Promise<string | undefined> {
  const started = performance.now();
  let lastError = 'no answer';
  while (performance.now() - started < timeoutMs) {
    const remaining = timeoutMs - (performance.now() - started);
    try {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(Math.round(Math.max(100, Math.min(2000, remaining)))),
      });
      await res.arrayBuffer();
      const elapsedMs = Math.round(performance.now() - started);
      if (res.status >= 200 && res.status < 400) {
        emit({ t: 'probe', url, ok: true, status: res.status, elapsedMs });
        return undefined;
      }
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      lastError = cause?.code ?? cause?.message ?? (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return lastError;
}

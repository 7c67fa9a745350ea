// sut.profile: a service's pprof profile fetched over a profiling trial's measured window. The bytes
// are the service's: bounded (PROFILE_MAX_BYTES), passed on as they came (the host reads them), and a
// failure is a line saying why, never the runner's failure.
import { PROFILE_GRACE_MS, PROFILE_MAX_BYTES, profileSeconds } from '../../src/runner-kit/profile.js';

export type FetchedProfile = { data: Buffer } | { error: string };

/** The most of an error answer's body read, and of an error said (the host takes 2,000 characters). */
const ERROR_BODY_BYTES = 1024;
const ERROR_MAX = 500;

/** The start of a body, at most `max` bytes read; the rest is not waited for. */
async function startOf(body: ReadableStream<Uint8Array> | null, max: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // what came before the failure is the start
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

const clip = (text: string) => (text.length > ERROR_MAX ? `${text.slice(0, ERROR_MAX)}…` : text);

/** GETs `url` (already asking for its seconds); resolves with its body or why there is none. */
export async function fetchProfile(url: string, maxBytes = PROFILE_MAX_BYTES): Promise<FetchedProfile> {
  let timeoutMs: number;
  try {
    timeoutMs = profileSeconds(url) * 1000 + PROFILE_GRACE_MS;
  } catch {
    return { error: 'not a URL' };
  }
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    if (res.status !== 200) {
      const text = (await startOf(res.body, ERROR_BODY_BYTES)).slice(0, 200).replace(/\s+/g, ' ').trim();
      return { error: clip(`HTTP ${res.status}${text ? `: ${text}` : ''}`) };
    }
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel();
      return { error: `larger than ${maxBytes} bytes (content-length ${declared})` };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      const b = Buffer.from(chunk as Uint8Array);
      size += b.length;
      if (size > maxBytes) return { error: `larger than ${maxBytes} bytes` };
      chunks.push(b);
    }
    if (size === 0) return { error: 'an empty answer' };
    return { data: Buffer.concat(chunks) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError') return { error: `no answer within ${timeoutMs} ms` };
    return { error: clip(String(e.cause?.code ?? e.cause?.message ?? e.message)) };
  }
}

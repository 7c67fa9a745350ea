// sut.profile: a service's pprof profile fetched over a profiling trial's measured window. The bytes
// are the service's: bounded (PROFILE_MAX_BYTES), passed on as they came (the host reads them), and a
// failure is a line saying why, never the runner's failure.
import { PROFILE_GRACE_MS, PROFILE_MAX_BYTES, profileSeconds } from '../../src/runner-kit/profile.js';

export type FetchedProfile = { data: Buffer } | { error: string };

/** GETs `url` (already asking for its seconds); resolves with its body or why there is none. */
export async function fetchProfile(url: string, maxBytes = PROFILE_MAX_BYTES): Promise<FetchedProfile> {
  const timeoutMs = profileSeconds(url) * 1000 + PROFILE_GRACE_MS;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    if (res.status !== 200) {
      const text = (await res.text().catch(() => '')).slice(0, 200).replace(/\s+/g, ' ').trim();
      return { error: `HTTP ${res.status}${text ? `: ${text}` : ''}` };
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
    return { error: e.cause?.code ?? e.cause?.message ?? e.message };
  }
}

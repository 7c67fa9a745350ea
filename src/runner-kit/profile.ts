// A SUT's profile taken over a trial's measured window (sut.profile): what the host asks for on the
// trial command, and the bounds the runner and the host both hold the bytes to. Pure.

/** One service's profile to take: its pprof endpoint, asked for the window's length. */
export interface ProfileRequest {
  /** the compose service profiled (the file it is written to is named after it) */
  service: string;
  /** its pprof endpoint as the runner reaches it (Go's net/http/pprof: /debug/pprof/profile) */
  url: string;
}

/** The most a profile's bytes may be, as fetched (a Go CPU profile of 30 s is tens of KiB). */
export const PROFILE_MAX_BYTES = 16 * 1024 * 1024;

/** How long the endpoint may take beyond the seconds it was asked for, ms. */
export const PROFILE_GRACE_MS = 15_000;

/**
 * The endpoint's URL asking for `windowMs` of profile, in whole seconds (at least 1): pprof's
 * `seconds` parameter, set to the window (one the URL gave is replaced: a longer profile would
 * outlast the trial it is taken in).
 */
export function profileUrl(url: string, windowMs: number): string {
  const u = new URL(url);
  u.searchParams.set('seconds', String(Math.max(1, Math.round(windowMs / 1000))));
  return u.toString();
}

/** The seconds a profile URL asks for (for the fetch's timeout): its `seconds`, else pprof's default 30. */
export function profileSeconds(url: string): number {
  const v = Number(new URL(url).searchParams.get('seconds'));
  return Number.isFinite(v) && v > 0 ? v : 30;
}

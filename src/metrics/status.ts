// Pure: a response status as an error class, the name the report, the error-class rows and the
// update's failing rows give a failed response.
/** The error class of a failed status: `HTTP 503`, or `gRPC UNAVAILABLE`; undefined for a success. */
export function statusClass(code: string): string | undefined {
  if (/^\d+$/.test(code)) return Number(code) >= 200 && Number(code) < 400 ? undefined : `HTTP ${code}`;
  return code === 'OK' ? undefined : `gRPC ${code}`;
}

/** A failed status the client reports itself when it stops waiting (gRPC's DEADLINE_EXCEEDED, past the
 * call's deadline): a starved generator can make it, so it is not the service's answer alone. */
export function clientMayMake(code: string): boolean {
  return code === 'DEADLINE_EXCEEDED';
}

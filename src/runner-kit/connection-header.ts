// Pure: what a `Connection` header says, read alike by the runner (a response that closes; a request
// that asks to) and the host (a request that asks to close cannot be pipelined).

/** A `Connection` header value asking to close the connection after this exchange. */
export function asksClose(value: string): boolean {
  return /(^|,)\s*close\s*(,|$)/i.test(value);
}

/** True when the request itself asks the server to close the connection after answering. */
export function requestAsksClose(headers: Record<string, string>): boolean {
  return Object.entries(headers).some(([k, v]) => k.toLowerCase() === 'connection' && asksClose(v));
}

// Pure: what a `Connection` header says, read alike by the runner (a response that closes; a request
// that asks to) and the host (a request that asks to close cannot be pipelined); and what a header
// value cannot carry, and what a name must be.

/** RFC 9110's token: a header field name, a method, a cookie name. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A character no header value may carry as we write heads: a line break, a NUL, or one beyond
 * Latin-1 (which the head's encoding would cut to one byte: U+010A is LF). */
export const UNSAFE_HEADER_VALUE = /[\r\n\0\u0100-\uffff]/;

/** A `Connection` header value asking to close the connection after this exchange. */
export function asksClose(value: string): boolean {
  return /(^|,)\s*close\s*(,|$)/i.test(value);
}

/** True when the request itself asks the server to close the connection after answering. */
export function requestAsksClose(headers: Record<string, string>): boolean {
  return Object.entries(headers).some(([k, v]) => k.toLowerCase() === 'connection' && asksClose(v));
}

// Pure: the header names and values a request (or a WebSocket upgrade) may carry. Shared by the
// HTTP and WebSocket protocols.

/** Connection-management headers the socket engine owns (it frames every request itself). */
const MANAGED_HEADERS = new Set(['keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length']);

/** RFC 9110 field-name characters (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return "not a valid header name (letters, digits and !#$%&'*+.^_`|~- only)";
  // a line break in a value would start a header (or a request) of the value's making
  if (/[\r\n\0]/.test(value)) return 'a header value cannot hold CR, LF or NUL';
  const lower = name.toLowerCase();
  if (MANAGED_HEADERS.has(lower)) return 'not allowed: perf-gate manages connections and framing itself';
  if (lower === 'connection' && !/^(close|keep-alive)$/i.test(value.trim())) {
    return 'only "close" or "keep-alive" is allowed';
  }
  return undefined;
}

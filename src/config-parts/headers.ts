// Pure: the header names and values a request (or a WebSocket upgrade) may carry. Shared by the
// HTTP and WebSocket protocols.
import { HTTP_TOKEN } from '../runner-kit/connection-header.js';

/** Connection-management headers the socket engine owns (it frames every request itself). */
const MANAGED_HEADERS = new Set(['keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'content-length']);

export function headerProblem(name: string, value: string): string | undefined {
  if (!HTTP_TOKEN.test(name)) return "not a valid header name (letters, digits and !#$%&'*+.^_`|~- only)";
  // a line break in a value would start a header (or a request) of the value's making
  if (/[\r\n\0]/.test(value)) return 'a header value cannot hold CR, LF or NUL';
  const lower = name.toLowerCase();
  if (MANAGED_HEADERS.has(lower)) return 'not allowed: perf-gate manages connections and framing itself';
  if (lower === 'connection' && !/^(close|keep-alive)$/i.test(value.trim())) {
    return 'only "close" or "keep-alive" is allowed';
  }
  return undefined;
}

// HTTP/2 streams as HTTP responses: a response's status judged by its request's checks; a timeout
// and a reset are failures of their own kinds.
import { checkResponse } from '../../../src/runner-kit/expect.js';
import type { StreamRules } from '../transport.js';
import { errorName } from './frames.js';

const TIMEOUT = { fail: 'timeout' } as const;

export const HTTP_STREAMS: StreamRules = {
  name: 'http',
  timedOut: () => TIMEOUT,
  reset: (code) => ({ fail: `rst-${errorName(code)}` }),
  complete: (s, target) => {
    const e = target.expects[s.req < 0 ? 0 : s.req];
    const r: { status: number; headers?: Map<string, string>; body?: Buffer; truncated?: boolean } = {
      status: s.status,
    };
    if (s.headers) r.headers = s.headers;
    if (s.body) r.body = s.body;
    if (s.truncated) r.truncated = true;
    const verdict = checkResponse(e, r);
    return { status: s.status, ok: verdict.ok, check: verdict.check };
  },
};

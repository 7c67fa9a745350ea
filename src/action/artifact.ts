// The run's files as one artifact of the workflow run (GitHub's artifact service, v4: what
// actions/upload-artifact@v4 and @actions/artifact speak), so the PR comment and the refresh pull
// request can link the run's page. The same three calls @actions/artifact makes (held to them by a
// stand-in both clients upload to, artifact-upload.test.ts): CreateArtifact (Twirp, JSON) gives a
// signed blob URL; the ZIP goes there as one block and a block list (Azure's Put Block and Put Block
// List); FinalizeArtifact with its size and SHA-256 gives the artifact's id. An upload never fails
// the run: whatever goes wrong is one line the caller warns with.
import { createHash } from 'node:crypto';
import { HttpClient } from '@actions/http-client';
import { fetch as undiciFetch } from 'undici';

/** The HTTP the upload needs (bound to @actions/http-client in the entry: proxies honoured). */
export interface ArtifactHttp {
  request(
    method: 'POST' | 'PUT',
    url: string,
    headers: Record<string, string>,
    body: string | Uint8Array,
  ): Promise<{ status: number; body: string }>;
}

export interface ArtifactService {
  /** ACTIONS_RESULTS_URL's origin */
  origin: string;
  /** ACTIONS_RUNTIME_TOKEN */
  token: string;
  runBackendId: string;
  jobBackendId: string;
}

export interface UploadedArtifact {
  id: number;
  name: string;
  /** where a reader downloads it: the workflow run's page for the artifact */
  url: string;
}

/** The largest archive uploaded (a report, the results, profiles bounded at their own sizes). */
export const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;
/** The Twirp service's path prefix. */
const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService/';
/** Azure Blob Storage's REST version the block calls are made at (supported by every account since). */
const BLOB_VERSION = '2023-11-03';
/** A block's id: base64 of a fixed string (there is only one block). */
const BLOCK_ID = Buffer.from('perf-gate-block-00000000').toString('base64');
const ATTEMPTS = 3;

/** Why this job cannot upload (no service given to the step: an old GHES, `act`, a local run), or the
 * service: the token's `Actions.Results:<run>:<job>` scope names the backend ids. */
export function artifactService(env: NodeJS.ProcessEnv): ArtifactService | string {
  // (as @actions/artifact: GitHub Enterprise Server has not this service; github.com, GHE.com's
  // data-resident hosts and local test hosts do)
  let host = '';
  try {
    host = new URL(env.GITHUB_SERVER_URL || 'https://github.com').hostname.toLowerCase();
  } catch {
    return 'GITHUB_SERVER_URL is not a URL';
  }
  if (host !== 'github.com' && !host.endsWith('.ghe.com') && !host.endsWith('.localhost'))
    return `${host} is a GitHub Enterprise Server, whose artifact service this upload does not speak`;
  const token = env.ACTIONS_RUNTIME_TOKEN;
  const results = env.ACTIONS_RESULTS_URL;
  if (!token || !results) return 'the job has no artifact service (ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL unset)';
  let origin: string;
  try {
    origin = new URL(results).origin;
  } catch {
    return 'ACTIONS_RESULTS_URL is not a URL';
  }
  const ids = backendIds(token);
  if (!ids) return 'ACTIONS_RUNTIME_TOKEN names no Actions.Results scope';
  return { origin, token, ...ids };
}

/** The run's and the job's backend ids from the runtime token (a JWT) or undefined. */
export function backendIds(token: string): { runBackendId: string; jobBackendId: string } | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  let scp: unknown;
  try {
    scp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { scp?: unknown }).scp;
  } catch {
    return undefined;
  }
  if (typeof scp !== 'string') return undefined;
  for (const scope of scp.split(' ')) {
    const parts = scope.split(':');
    if (parts[0] === 'Actions.Results' && parts.length === 3 && parts[1] && parts[2])
      return { runBackendId: parts[1], jobBackendId: parts[2] };
  }
  return undefined;
}

/** An artifact name from the job and the report id: what the service accepts (no `"`, `:`, `<`, `>`,
 * `|`, `*`, `?`, `\`, `/`, CR or LF), kept to letters, digits, `.`, `_` and `-`; `-2`, `-3`, … when
 * the name is taken (a second perf-gate step in the job, a matrix). */
export function artifactName(job: string | undefined, reportId: string, attempt: number): string {
  const part = (s: string) =>
    s
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 60)
      .replace(/^-+|-+$/g, '');
  const base = ['perf-gate', part(job ?? ''), part(reportId)].filter((s) => s !== '').join('-');
  return attempt > 1 ? `${base}-${attempt}` : base;
}

/** The artifact's page: `<server>/<owner>/<repo>/actions/runs/<run id>/artifacts/<id>`, or undefined
 * where the environment does not name the run. */
export function artifactUrl(env: NodeJS.ProcessEnv, id: number): string | undefined {
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  if (!/^https?:\/\/[\w.:/-]+$/.test(server)) return undefined;
  const repo = env.GITHUB_REPOSITORY;
  const run = env.GITHUB_RUN_ID;
  if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo) || !run || !/^\d+$/.test(run)) return undefined;
  return `${server}/${repo}/actions/runs/${run}/artifacts/${id}`;
}

class TwirpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** How long an upload may take in all, tries included: past it, no call is tried again. */
export const UPLOAD_BUDGET_MS = 180_000;

export interface UploadTiming {
  sleep: (ms: number) => Promise<void>;
  /** a clock in ms (the budget is counted on it) */
  now: () => number;
  /** told each secret the service hands out (the signed URL's signature), for the log to mask */
  mask?: (secret: string) => void;
}

/**
 * Uploads `zip` as the artifact `names(1)` (or `names(2)`, … while the service says the name is
 * taken, up to 5): the artifact's id and name. Throws with one line on a failure; a service error
 * (5xx, 429) or a dropped connection is tried again (3 attempts, a pause between), never past
 * UPLOAD_BUDGET_MS from the start.
 */
export async function uploadArtifact(
  http: ArtifactHttp,
  service: ArtifactService,
  names: (attempt: number) => string,
  zip: Uint8Array,
  timing: UploadTiming,
): Promise<{ id: number; name: string }> {
  if (zip.byteLength > MAX_ARTIFACT_BYTES)
    throw new Error(`the files come to ${zip.byteLength} bytes, over the ${MAX_ARTIFACT_BYTES} an upload takes`);
  const started = timing.now();
  const inBudget = () => timing.now() - started < UPLOAD_BUDGET_MS;
  const sleep = timing.sleep;
  const ids = { workflow_run_backend_id: service.runBackendId, workflow_job_run_backend_id: service.jobBackendId };
  const twirp = async (method: string, message: Record<string, unknown>) => {
    const url = `${service.origin}${TWIRP}${method}`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${service.token}` };
    const r = await retried(() => http.request('POST', url, headers, JSON.stringify(message)), sleep, inBudget);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(r.body) as Record<string, unknown>;
    } catch {
      // (a proxy's HTML page): the status says what matters
    }
    if (r.status < 200 || r.status >= 300)
      throw new TwirpError(
        r.status,
        `${method}: ${r.status}${typeof body.msg === 'string' ? ` ${oneLine(body.msg)}` : ''}`,
      );
    if (body.ok !== true) throw new Error(`${method}: the service did not say ok`);
    return body;
  };
  let name = '';
  let signed = '';
  for (let attempt = 1; ; attempt++) {
    name = names(attempt);
    try {
      const created = await twirp('CreateArtifact', { ...ids, name, version: 7, mime_type: 'application/zip' });
      signed = String(created.signed_upload_url ?? '');
      break;
    } catch (err) {
      // a name this run already has: the next one
      if (err instanceof TwirpError && err.status === 409 && attempt < 5) continue;
      throw err;
    }
  }
  if (!/^https?:\/\//.test(signed)) throw new Error('CreateArtifact: no upload URL in the answer');
  // (as @actions/artifact: the signature is a credential, masked wherever the log would show it)
  const sig = new URL(signed).searchParams.get('sig');
  if (sig && timing.mask) {
    timing.mask(sig);
    timing.mask(encodeURIComponent(sig));
  }
  const join = (query: string) => `${signed}${signed.includes('?') ? '&' : '?'}${query}`;
  const blob = async (url: string, headers: Record<string, string>, body: string | Uint8Array) => {
    const r = await retried(
      () => http.request('PUT', url, { 'x-ms-version': BLOB_VERSION, ...headers }, body),
      sleep,
      inBudget,
    );
    // (the signed URL's query is a credential: never in a message)
    if (r.status !== 201) throw new Error(`the blob store answered ${r.status}`);
  };
  await blob(
    join(`comp=block&blockid=${encodeURIComponent(BLOCK_ID)}`),
    { 'content-type': 'application/octet-stream' },
    zip,
  );
  await blob(
    join('comp=blocklist'),
    { 'content-type': 'application/xml', 'x-ms-blob-content-type': 'application/zip' },
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><BlockList><Latest>${BLOCK_ID}</Latest></BlockList>`,
  );
  const hash = createHash('sha256').update(zip).digest('hex');
  const finalized = await twirp('FinalizeArtifact', {
    ...ids,
    name,
    size: String(zip.byteLength),
    hash: `sha256:${hash}`,
  });
  const id = Number(finalized.artifact_id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('FinalizeArtifact: no artifact id in the answer');
  return { id, name };
}

/** `call` again after a service error (5xx, 429) or a failed connection, up to ATTEMPTS in all and
 * while the upload is `inBudget`. */
async function retried(
  call: () => Promise<{ status: number; body: string }>,
  sleep: (ms: number) => Promise<void>,
  inBudget: () => boolean,
): Promise<{ status: number; body: string }> {
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1 && !inBudget()) throw new Error(`gave up after ${UPLOAD_BUDGET_MS / 1000} s`);
    try {
      const r = await call();
      if ((r.status >= 500 || r.status === 429) && attempt < ATTEMPTS) {
        await sleep(1000 * 3 ** (attempt - 1));
        continue;
      }
      return r;
    } catch (err) {
      if (attempt >= ATTEMPTS) throw err;
      await sleep(1000 * 3 ** (attempt - 1));
    }
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 200);
}

/** The real HTTP: undici's fetch through @actions/http-client's proxy dispatcher for each URL
 * (HTTPS_PROXY, NO_PROXY), with a bound on each call's time (a service call 30 s at most, the upload
 * of the bytes `timeoutMs`). */
export function fetchArtifactHttp(timeoutMs = 120_000): ArtifactHttp {
  const client = new HttpClient('perf-gate');
  return {
    async request(method, url, headers, body) {
      const dispatcher = client.getAgentDispatcher(url);
      const r = await undiciFetch(url, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(method === 'POST' ? Math.min(30_000, timeoutMs) : timeoutMs),
        ...(dispatcher ? { dispatcher } : {}),
      });
      return { status: r.status, body: await r.text() };
    },
  };
}

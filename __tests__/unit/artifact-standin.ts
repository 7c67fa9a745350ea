// A stand-in for GitHub's artifact service (v4) on 127.0.0.1: the Twirp calls CreateArtifact and
// FinalizeArtifact, and the blob store the signed URL points at (Put Block, Put Block List and Put
// Blob). Written to what @actions/artifact sends (artifact-upload.test.ts runs that client against it
// too), so perf-gate's own client is held to the official one's requests.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Artifact {
  id: number;
  name: string;
  bytes: Buffer;
  mimeType?: string;
  size: string;
  hash?: string;
}

export interface ArtifactStandin {
  /** ACTIONS_RESULTS_URL */
  url: string;
  /** ACTIONS_RUNTIME_TOKEN: a JWT whose scp names the run's and the job's backend ids */
  token: string;
  requests: StandinRequest[];
  artifacts: Artifact[];
  /** answer the next `n` calls of `method` with `status` (a failing service) */
  failNext(method: string, status: number, n?: number): void;
  close(): Promise<void>;
}

export const RUN_BACKEND_ID = 'ce7f54c7-61c7-4aae-887f-30da475f5f1a';
export const JOB_BACKEND_ID = 'ca395085-040a-526b-2ce8-bdc85f692774';
const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService/';

function b64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

export function runtimeToken(scp = `Actions.ExampleScope Actions.Results:${RUN_BACKEND_ID}:${JOB_BACKEND_ID}`): string {
  return `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify({ scp }))}.c2ln`;
}

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startArtifactStandin(): Promise<ArtifactStandin> {
  const token = runtimeToken();
  const requests: StandinRequest[] = [];
  const artifacts: Artifact[] = [];
  // name -> the blob as uploaded (blocks staged by id, the committed bytes)
  const pending = new Map<string, { mimeType?: string; blocks: Map<string, Buffer>; bytes?: Buffer }>();
  const failing = new Map<string, { status: number; n: number }>();
  let base = '';
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const fail = failing.get(url.pathname.slice(TWIRP.length));
    if (url.pathname.startsWith(TWIRP) && fail && fail.n > 0) {
      fail.n--;
      json(fail.status, { code: 'internal', msg: 'the stand-in was told to fail' });
      return;
    }
    if (req.method === 'POST' && url.pathname.startsWith(TWIRP)) {
      if (req.headers.authorization !== `Bearer ${token}`) return json(401, { code: 'unauthenticated', msg: 'no' });
      if (!String(req.headers['content-type']).startsWith('application/json'))
        return json(415, { code: 'malformed', msg: 'json only' });
      const msg = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      if (msg.workflow_run_backend_id !== RUN_BACKEND_ID || msg.workflow_job_run_backend_id !== JOB_BACKEND_ID)
        return json(400, { code: 'invalid_argument', msg: 'backend ids' });
      const name = String(msg.name ?? '');
      const method = url.pathname.slice(TWIRP.length);
      if (method === 'CreateArtifact') {
        if (msg.version !== 4 && msg.version !== 7) return json(400, { code: 'invalid_argument', msg: 'version' });
        if (artifacts.some((a) => a.name === name) || pending.has(name))
          return json(409, {
            code: 'already_exists',
            msg: `an artifact with this name already exists on the workflow run`,
          });
        pending.set(name, {
          ...(typeof msg.mime_type === 'string' ? { mimeType: msg.mime_type } : {}),
          blocks: new Map(),
        });
        return json(200, {
          ok: true,
          signed_upload_url: `${base}/blob/${encodeURIComponent(name)}?sig=standin&se=later`,
        });
      }
      if (method === 'FinalizeArtifact') {
        const p = pending.get(name);
        if (!p?.bytes) return json(404, { code: 'not_found', msg: 'nothing uploaded' });
        if (String(msg.size) !== String(p.bytes.length)) return json(400, { code: 'invalid_argument', msg: 'size' });
        const hash = typeof msg.hash === 'string' ? msg.hash : undefined;
        if (hash !== undefined && hash !== `sha256:${createHash('sha256').update(p.bytes).digest('hex')}`)
          return json(400, { code: 'invalid_argument', msg: 'hash' });
        pending.delete(name);
        const artifact: Artifact = {
          id: 4000 + artifacts.length + 1,
          name,
          bytes: p.bytes,
          size: String(msg.size),
          ...(p.mimeType ? { mimeType: p.mimeType } : {}),
          ...(hash ? { hash } : {}),
        };
        artifacts.push(artifact);
        return json(200, { ok: true, artifact_id: String(artifact.id) });
      }
      return json(404, { code: 'bad_route', msg: method });
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/blob/')) {
      const p = pending.get(decodeURIComponent(url.pathname.slice('/blob/'.length)));
      if (!p || url.searchParams.get('sig') !== 'standin') {
        res.writeHead(403);
        res.end();
        return;
      }
      const comp = url.searchParams.get('comp');
      if (comp === 'block') {
        p.blocks.set(url.searchParams.get('blockid') ?? '', body);
      } else if (comp === 'blocklist') {
        const ids = [...body.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)<\//g)].map(
          (m) => m[1],
        );
        p.bytes = Buffer.concat(ids.map((id) => p.blocks.get(id ?? '') ?? Buffer.alloc(0)));
      } else if (req.headers['x-ms-blob-type'] === 'BlockBlob') {
        p.bytes = body;
      } else {
        res.writeHead(400);
        res.end();
        return;
      }
      res.writeHead(201, { 'x-ms-request-id': 'standin', etag: '"0x1"' });
      res.end();
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    token,
    requests,
    artifacts,
    failNext: (method, status, n = 1) => failing.set(method, { status, n }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

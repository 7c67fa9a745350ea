// `perf-gate init --probe` on the real engine: a project whose compose file says nothing of what its
// ports speak (no health checks, no telling images or ports): an HTTP service, a gRPC server on an odd
// port, a database stand-in that speaks first, and a dev server that refuses its own name as Host and
// serves an OpenAPI document. init boots it once, asks each port from inside its network, and writes one
// scenario of each right kind (none for the database), then nothing of the project is left.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { dockerAvailable, leftovers, QUICKSTART_IMAGE, ROOT, runCli, runIdOf, tempDir } from './helpers.js';
import { realReadFs } from '../../src/common/read-fs.js';

const engine = dockerAvailable();

// a dev server: answers only Host localhost:<port> (webpack's and Vite's allowed-hosts check), serves
// /openapi.json with two GETs callable as they are and one that needs a parameter it gives no example of
const DEV = `
const http = require('http');
const doc = JSON.stringify({ openapi: '3.0.0', paths: {
  '/api/items': { get: {} },
  '/api/items/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, example: 42 }] } },
  '/api/search': { get: { parameters: [{ name: 'q', in: 'query', required: true }] } },
  '/api/orders': { post: {} } } });
http.createServer((req, res) => {
  if (!/^localhost(:\\d+)?$/.test(req.headers.host || '')) { res.writeHead(403); return res.end('Invalid Host header'); }
  if (req.url === '/openapi.json') { res.writeHead(200, { 'content-type': 'application/json' }); return res.end(doc); }
  if (req.url.startsWith('/api/')) { res.writeHead(200); return res.end('[]'); }
  res.writeHead(404); res.end();
}).listen(4200);
`;
// speaks first, as MySQL does, on a port that tells nothing
const STORE = `require('net').createServer((s) => { s.write(Buffer.from('4a0000000a382e302e3000', 'hex')); s.on('error', () => {}); }).listen(4406);`;

const COMPOSE = `services:
  api:
    build: ${join(ROOT, 'fixtures/sut')}
    expose: ['8080']
  search:
    build: ${join(ROOT, 'fixtures/grpc-search')}
    environment: { LISTEN: ':7070' }
    expose: ['7070']
  store:
    image: ${QUICKSTART_IMAGE}
    command: ['node', '/app/store.js']
    volumes: ['./store.js:/app/store.js:ro']
    expose: ['4406']
  web:
    image: ${QUICKSTART_IMAGE}
    command: ['node', '/app/dev.js']
    volumes: ['./dev.js:/app/dev.js:ro']
    expose: ['4200']
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!engine)('perf-gate init --probe', () => {
  it('HTTP, gRPC and a database told apart by asking them; a dev server gets its Host and its OpenAPI GETs', async () => {
    const dir = tempDir('perf-gate-probe-');
    dirs.push(dir);
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'compose.yaml'), COMPOSE);
    writeFileSync(join(dir, 'dev.js'), DEV);
    writeFileSync(join(dir, 'store.js'), STORE);
    const r = await runCli(['init', '--yes', '--probe', '--runner-image', QUICKSTART_IMAGE], {}, dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('probed api:8080: HTTP, GET / 404; answers /health');
    expect(r.stdout).toContain('probed search:7070: gRPC, health check SERVING');
    expect(r.stdout).toContain('probed store:4406: TCP, speaks first (a greeting): not HTTP');
    expect(r.stdout).toMatch(
      /probed web:4200: HTTP, GET \/ 404; with Host: localhost; answers \/api\/health; OpenAPI at \/openapi\.json \(2 GET operations callable as they are\)/,
    );
    const config = loadConfig(join(dir, 'perf-gate.yml'), dir, realReadFs);
    expect(config.sut.ready.map((p) => p.url)).toEqual([
      'http://api:8080/health',
      'grpc://search:7070',
      // it refuses Host web:4200, and a probe sends no headers: it waits for a connection
      'tcp://web:4200',
      'tcp://store:4406',
    ]);
    const kinds = config.scenarios.map((s) => [
      s.name,
      s.target.kind,
      s.target.kind === 'http' ? s.target.request.url : '',
    ]);
    expect(kinds).toEqual([
      ['api', 'http', 'http://api:8080/health'],
      ['search', 'grpc', ''],
      ['web-api-items', 'http', 'http://web:4200/api/items'],
      ['web-api-items-42', 'http', 'http://web:4200/api/items/42'],
    ]);
    const web = config.scenarios.find((s) => s.name === 'web-api-items');
    expect(web?.target.kind === 'http' && web.target.request.headers).toEqual({ Host: 'localhost' });
    const text = readFileSync(join(dir, 'perf-gate.yml'), 'utf8');
    expect(text).toContain(
      '#   store: it speaks first (a greeting), as databases do (port 4406), not HTTP: a tcp:// ready probe only',
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

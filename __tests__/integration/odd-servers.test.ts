// Odd and hostile HTTP/1.1 servers on the real engine (issue 31): a server that sends a stray CRLF
// after every body counts every response a success, and a port that answers with a non-HTTP banner
// fails the run naming the URL and parse-error (every request fails at the banner's first byte, not at
// its timeout). Both are raw TCP servers in Node on the quickstart image.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, QUICKSTART_IMAGE, runCli, runIdOf, tempDir } from './helpers.js';

const engine = dockerAvailable();

// answers every request (a blank line ends it) with a 2-byte body and a stray CRLF after it
const STRAY = `require('net').createServer((s) => {
  let text = '';
  s.on('error', () => {});
  s.on('data', (d) => {
    text += d.toString('latin1');
    const parts = text.split('\\r\\n\\r\\n');
    text = parts.pop();
    for (const _ of parts) s.write('HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok\\r\\n');
  });
}).listen(8080);`;
// speaks first, as an SSH server does, and never answers a request
const BANNER = `require('net').createServer((s) => { s.on('error', () => {}); s.write('SSH-2.0-OpenSSH_9.2\\r\\n'); }).listen(8080);`;

function project(script: string): string {
  const dir = tempDir('perf-gate-odd-');
  writeFileSync(join(dir, 'server.js'), script);
  writeFileSync(
    join(dir, 'docker-compose.yml'),
    `services:\n  api:\n    image: ${QUICKSTART_IMAGE}\n    command: ['node', '/app/server.js']\n    volumes: ['./server.js:/app/server.js:ro']\n`,
  );
  writeFileSync(
    join(dir, 'perf-gate.yml'),
    [
      'version: 1',
      'sut:',
      '  compose: docker-compose.yml',
      '  ready: [{ url: "tcp://api:8080" }]',
      `runner: { image: ${QUICKSTART_IMAGE} }`,
      'defaults: { warmup: 0s, trials: 1, request-timeout: 10s }',
      'scenarios:',
      '  - name: api',
      '    request: { url: "http://api:8080/" }',
      '    phases: [{ name: c2, connections: 2, duration: 2s }]',
      '',
    ].join('\n'),
  );
  return dir;
}

/** `perf-gate run --mode update` of the project in `dir`, its baselines and report beside it. */
const update = (dir: string) =>
  runCli(
    ['run', '--config', join(dir, 'perf-gate.yml'), '--mode', 'update', '--out', dir, '--baseline-dir', join(dir, 'b')],
    {
      GITHUB_WORKSPACE: dir,
    },
  );

describe.skipIf(!engine)('odd and hostile HTTP/1.1 servers on the real engine', () => {
  it('a stray CRLF after every body: every response a success', async () => {
    const dir = project(STRAY);
    const r = await update(dir);
    expect(r.code, r.stderr).toBe(0);
    const results = (await import(join(dir, 'perf-gate-results.json'), { with: { type: 'json' } }))
      .default as ResultsFile;
    const merged = results.scenarios[0]?.phases[0]?.merged;
    expect(merged?.successes).toBeGreaterThan(100);
    expect(merged?.failures).toBe(0);
    expect(merged?.errors).toEqual({});
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a port that answers with a banner: exit 3 naming the URL and parse-error, not timeouts', async () => {
    const dir = project(BANNER);
    const r = await update(dir);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /perf-gate: api\/c2: no successful response from http:\/\/api:8080\/ in 1 trial: parse-error \(\d+×\)/,
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

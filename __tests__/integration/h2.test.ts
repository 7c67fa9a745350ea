// HTTP/2 end to end on the real engine: the runner container speaks h2c (prior knowledge) and h2
// over TLS (ALPN) to the fixture service in the SUT network, closed and open loop with streams;
// every response is checked to have come over HTTP/2 (the service's X-Proto header). A server that
// offers only http/1.1 by ALPN stops the run with exit 3 and one line naming the URL and what was
// negotiated.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultsFile } from '../../src/results/types.js';
import { dockerAvailable, leftovers, runCli, runIdOf, tempDir } from './helpers.js';

const hasDocker = dockerAvailable();

function results(dir: string): ResultsFile {
  return JSON.parse(readFileSync(join(dir, 'perf-gate-results.json'), 'utf8')) as ResultsFile;
}

describe.runIf(hasDocker)('HTTP/2 on the real engine', () => {
  it('h2c and h2 over TLS, closed and open loop with streams: every response over HTTP/2', async () => {
    const out = tempDir();
    const r = await runCli([
      'run',
      '--config',
      'fixtures/tests/h2/perf-gate.yml',
      '--mode',
      'update',
      '--out',
      out,
      '--baseline-dir',
      tempDir(),
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const file = results(out);
    const phases = file.scenarios.flatMap((s) => s.phases.map((p) => ({ scenario: s.name, ...p })));
    expect(phases.map((p) => `${p.scenario}/${p.name}`)).toEqual(['h2c/c2-s4', 'h2-tls/c2-s4', 'h2-tls/r200']);
    for (const p of phases) {
      expect(p.merged.successes, `${p.scenario}/${p.name}`).toBeGreaterThan(0);
      expect(p.merged.failures, `${p.scenario}/${p.name}`).toBe(0);
      expect(p.merged.errors, `${p.scenario}/${p.name}`).toEqual({});
      expect(p.merged.checks ?? {}, `${p.scenario}/${p.name}`).toEqual({});
      expect(p.params.streams).toBeGreaterThan(1);
    }
    // a 2 ms service, 8 requests in flight over 2 connections: far more than 2 connections alone could do
    expect(phases[0]?.merged.rps).toBeGreaterThan(1000);
    expect(phases[2]?.merged.open).toMatchObject({ scheduled: 200, unfinished: 0 });
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);

  it('a server that offers only http/1.1 by ALPN: exit 3, naming the URL and what was negotiated', async () => {
    const r = await runCli([
      'run',
      '--config',
      'fixtures/tests/h2/perf-gate.refused.yml',
      '--mode',
      'update',
      '--out',
      tempDir(),
      '--baseline-dir',
      tempDir(),
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toContain(
      'no successful response from https://refuses-h2:8443/work in 1 trial: alpn-http/1.1 (5×); nothing was measured (the server did not agree to HTTP/2 (request.http: 2): TLS negotiated http/1.1 by ALPN)',
    );
    expect(leftovers(runIdOf(r.stderr))).toEqual([]);
  }, 300_000);
});

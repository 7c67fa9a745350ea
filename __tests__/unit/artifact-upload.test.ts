// Input upload-report (issue 51): the run's files zipped and uploaded as an artifact of the workflow
// run. The archive is read back by Python's zipfile (CRC checked); the upload goes to a stand-in of
// GitHub's artifact service on 127.0.0.1 that the official client (@actions/artifact, what
// actions/upload-artifact@v4 runs) uploads to as well, and perf-gate's requests are compared with
// the official client's.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ArtifactHttp,
  artifactName,
  artifactService,
  artifactUrl,
  backendIds,
  fetchArtifactHttp,
  MAX_ARTIFACT_BYTES,
  uploadArtifact,
} from '../../src/action/artifact.js';
import { artifactLine, runFiles, uploadRunFiles } from '../../src/action/upload.js';
import { dosTime, zipFiles } from '../../src/action/zip.js';
import type { RunOutcome } from '../../src/run/contract.js';
import {
  type ArtifactStandin,
  JOB_BACKEND_ID,
  RUN_BACKEND_ID,
  runtimeToken,
  startArtifactStandin,
} from './artifact-standin.js';
import { resultsFile } from './fixtures.js';

const AT = new Date('2026-11-30T21:07:42Z');

/** What Python's zipfile reads from `zip`: each entry's name, size and SHA-256, after testzip(). */
function readZip(zip: Uint8Array): Array<{ name: string; size: number; sha256: string; method: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-zip-'));
  try {
    const file = join(dir, 'a.zip');
    writeFileSync(file, zip);
    const py = spawnSync(
      'python3',
      [
        '-c',
        `import hashlib, json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
bad = z.testzip()
if bad: sys.exit('bad entry ' + bad)
print(json.dumps([{'name': i.filename, 'size': i.file_size, 'method': i.compress_type, 'date': list(i.date_time), 'sha256': hashlib.sha256(z.read(i)).hexdigest()} for i in z.infolist()]))`,
        file,
      ],
      { encoding: 'utf8' },
    );
    if (py.status !== 0) throw new Error(`python3: ${py.stderr}`);
    return JSON.parse(py.stdout) as Array<{ name: string; size: number; sha256: string; method: number }>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const bytes = (s: string) => new TextEncoder().encode(s);

describe('zipFiles', () => {
  it('an archive Python reads back, every entry intact: deflated, stored, empty, UTF-8 names, nested', () => {
    // incompressible: SHA-256 of the counter, block after block
    const random = new Uint8Array(
      Buffer.concat(Array.from({ length: 160 }, (_, i) => createHash('sha256').update(String(i)).digest())),
    );
    const entries = [
      { name: 'perf-gate-report.html', bytes: bytes('<p>latency</p>'.repeat(2000)) },
      { name: 'perf-gate-results.json', bytes: bytes('{"a":1}') },
      { name: 'empty.txt', bytes: new Uint8Array(0) },
      { name: 'perf-gate-profiles/head.s0.c4.api — µs.pb.gz', bytes: random },
    ];
    const read = readZip(zipFiles(entries, AT));
    expect(read.map((e) => [e.name, e.size, e.sha256])).toEqual(
      entries.map((e) => [e.name, e.bytes.length, sha(e.bytes)]),
    );
    // deflated where it shrinks, stored where it does not
    expect(read.map((e) => e.method)).toEqual([8, 0, 0, 0]);
    expect((read[0] as unknown as { date: number[] }).date).toEqual([2026, 11, 30, 21, 7, 42]);
  });

  it('no entries: an empty archive', () => {
    expect(readZip(zipFiles([], AT))).toEqual([]);
  });

  it.each<[string, { time: number; date: number }]>([
    ['1980-01-01T00:00:00Z', { time: 0, date: (0 << 9) | (1 << 5) | 1 }],
    ['2026-11-30T21:07:43Z', { time: (21 << 11) | (7 << 5) | 21, date: (46 << 9) | (11 << 5) | 30 }],
    // before 1980: the earliest date the format has
    ['1970-01-01T00:00:00Z', { time: 0, date: (0 << 9) | (1 << 5) | 1 }],
  ])('dosTime(%s)', (iso, want) => {
    expect(dosTime(new Date(iso))).toEqual(want);
  });
});

describe('the artifact service from the environment', () => {
  it.each<[string, string, { runBackendId: string; jobBackendId: string } | undefined]>([
    [
      'the Actions.Results scope among others',
      runtimeToken(),
      { runBackendId: RUN_BACKEND_ID, jobBackendId: JOB_BACKEND_ID },
    ],
    ['no Actions.Results scope', runtimeToken('Actions.ExampleScope'), undefined],
    ['a scope with two parts', runtimeToken('Actions.Results:only-one'), undefined],
    ['a scope with an empty id', runtimeToken('Actions.Results::b'), undefined],
    ['not a JWT', 'opaque-token', undefined],
    ['a payload that is not base64 JSON', 'a.%%%.c', undefined],
    ['a scp that is not a string', `a.${Buffer.from('{"scp":7}').toString('base64url')}.c`, undefined],
  ])('backendIds: %s', (_name, token, want) => {
    expect(backendIds(token)).toEqual(want);
  });

  it('says why when the job has no service, and gives the origin of the results URL', () => {
    expect(artifactService({})).toMatch(/no artifact service/);
    // GitHub Enterprise Server (as @actions/artifact refuses it); GHE.com's hosts have the service
    const given = { ACTIONS_RUNTIME_TOKEN: runtimeToken(), ACTIONS_RESULTS_URL: 'https://r.example/' };
    expect(artifactService({ ...given, GITHUB_SERVER_URL: 'https://git.acme.corp' })).toBe(
      'git.acme.corp is a GitHub Enterprise Server, whose artifact service this upload does not speak',
    );
    expect(artifactService({ ...given, GITHUB_SERVER_URL: 'https://acme.ghe.com' })).toMatchObject({
      origin: 'https://r.example',
    });
    expect(artifactService({ ...given, GITHUB_SERVER_URL: 'not a url' })).toBe('GITHUB_SERVER_URL is not a URL');
    expect(artifactService({ ACTIONS_RUNTIME_TOKEN: 'x', ACTIONS_RESULTS_URL: 'not a url' })).toMatch(/not a URL/);
    expect(artifactService({ ACTIONS_RUNTIME_TOKEN: 'x', ACTIONS_RESULTS_URL: 'https://r.example/' })).toMatch(
      /no Actions.Results scope/,
    );
    expect(
      artifactService({ ACTIONS_RUNTIME_TOKEN: runtimeToken(), ACTIONS_RESULTS_URL: 'https://results.example/path/' }),
    ).toEqual({
      origin: 'https://results.example',
      token: runtimeToken(),
      runBackendId: RUN_BACKEND_ID,
      jobBackendId: JOB_BACKEND_ID,
    });
  });

  it.each<[string | undefined, string, number, string]>([
    ['perf', '', 1, 'perf-gate-perf'],
    ['perf', '', 3, 'perf-gate-perf-3'],
    ['bench (ubuntu, 20)', 'matrix/1', 1, 'perf-gate-bench-ubuntu-20-matrix-1'],
    [undefined, '', 1, 'perf-gate'],
    ['a"b:c<d>e|f*g?h\\i\r\nj', '', 1, 'perf-gate-a-b-c-d-e-f-g-h-i-j'],
    ['x'.repeat(200), '', 1, `perf-gate-${'x'.repeat(60)}`],
    // cut to 60 characters, then no dash left at the end
    [`${'x'.repeat(59)} y`, '', 1, `perf-gate-${'x'.repeat(59)}`],
  ])('artifactName(%j, %j, %d) = %s', (job, reportId, attempt, want) => {
    expect(artifactName(job, reportId, attempt)).toBe(want);
  });

  it.each<[Record<string, string>, string | undefined]>([
    [
      { GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '123' },
      'https://github.com/acme/shop/actions/runs/123/artifacts/9',
    ],
    [
      { GITHUB_SERVER_URL: 'https://ghe.example.com/', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '123' },
      'https://ghe.example.com/acme/shop/actions/runs/123/artifacts/9',
    ],
    [{ GITHUB_REPOSITORY: 'acme/shop' }, undefined],
    [{ GITHUB_REPOSITORY: 'acme/shop)[x](y', GITHUB_RUN_ID: '123' }, undefined],
    [{ GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '12 3' }, undefined],
    [{ GITHUB_SERVER_URL: 'javascript:alert(1)', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '1' }, undefined],
  ])('artifactUrl(%j)', (env, want) => {
    expect(artifactUrl(env, 9)).toBe(want);
  });
});

describe('the upload, against a stand-in of the artifact service', () => {
  let standin: ArtifactStandin;
  beforeEach(async () => {
    standin = await startArtifactStandin();
  });
  afterEach(async () => {
    await standin.close();
  });
  const service = () => ({
    origin: new URL(standin.url).origin,
    token: standin.token,
    runBackendId: RUN_BACKEND_ID,
    jobBackendId: JOB_BACKEND_ID,
  });
  const noSleep = { sleep: async () => {}, now: () => 0 };
  /** a request without what differs from one upload to the next (the block id, ports, lengths, agents);
   * the blob calls' x-ms-version is not compared (the official client sends its SDK's, perf-gate an
   * older one every storage account takes) */
  const shape = (r: ArtifactStandin['requests'][number]) => ({
    method: r.method,
    path: r.path.replace(/blockid=[^&]+/, 'blockid=…'),
    type: r.headers['content-type'],
    blobType: r.headers['x-ms-blob-content-type'],
    auth: r.headers.authorization === `Bearer ${standin.token}`,
    message: r.path.startsWith('/twirp/')
      ? Object.keys(JSON.parse(r.body.toString('utf8')) as object).sort()
      : undefined,
  });

  it("the official client (@actions/artifact) uploads to the stand-in; perf-gate's client sends the same calls", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-art-'));
    const saved = { token: process.env.ACTIONS_RUNTIME_TOKEN, url: process.env.ACTIONS_RESULTS_URL };
    try {
      writeFileSync(join(dir, 'perf-gate-report.html'), '<p>hi</p>');
      process.env.ACTIONS_RUNTIME_TOKEN = standin.token;
      process.env.ACTIONS_RESULTS_URL = standin.url;
      const { DefaultArtifactClient } = await import('@actions/artifact');
      const theirs = await new DefaultArtifactClient().uploadArtifact(
        'perf-gate-official',
        [join(dir, 'perf-gate-report.html')],
        dir,
      );
      expect(theirs.id).toBe(4001);
      const official = standin.requests.splice(0).map(shape);
      const zip = zipFiles([{ name: 'perf-gate-report.html', bytes: bytes('<p>hi</p>') }], AT);
      const ours = await uploadArtifact(
        fetchArtifactHttp(10_000),
        service(),
        () => 'perf-gate-official',
        zip,
        noSleep,
      ).catch((e: Error) => e);
      // (the name is the official client's: taken)
      expect(ours).toBeInstanceOf(Error);
      standin.requests.splice(0);
      const mine = await uploadArtifact(
        fetchArtifactHttp(10_000),
        service(),
        () => 'perf-gate-official-2',
        zip,
        noSleep,
      );
      expect(mine).toEqual({ id: 4002, name: 'perf-gate-official-2' });
      const sent = standin.requests.map(shape);
      expect(sent).toEqual(
        official.map((r) => ({ ...r, path: r.path.replace('perf-gate-official', 'perf-gate-official-2') })),
      );
      // what the service kept is the archive, byte for byte, with its size and hash
      const kept = standin.artifacts[1];
      expect(Buffer.compare(kept?.bytes ?? Buffer.alloc(0), Buffer.from(zip))).toBe(0);
      expect(kept).toMatchObject({ size: String(zip.length), hash: `sha256:${sha(zip)}`, mimeType: 'application/zip' });
      expect(readZip(new Uint8Array(kept?.bytes ?? []))).toMatchObject([{ name: 'perf-gate-report.html', size: 9 }]);
    } finally {
      for (const [k, v] of [
        ['ACTIONS_RUNTIME_TOKEN', saved.token],
        ['ACTIONS_RESULTS_URL', saved.url],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a name the run already has: the next one (-2, -3, …)', async () => {
    const http = fetchArtifactHttp(10_000);
    const zip = zipFiles([{ name: 'a', bytes: bytes('a') }], AT);
    const names = (attempt: number) => artifactName('perf', '', attempt);
    expect(await uploadArtifact(http, service(), names, zip, noSleep)).toMatchObject({ name: 'perf-gate-perf' });
    expect(await uploadArtifact(http, service(), names, zip, noSleep)).toMatchObject({ name: 'perf-gate-perf-2' });
    expect(await uploadArtifact(http, service(), names, zip, noSleep)).toMatchObject({ name: 'perf-gate-perf-3' });
    expect(standin.artifacts.map((a) => a.name)).toEqual(['perf-gate-perf', 'perf-gate-perf-2', 'perf-gate-perf-3']);
  });

  it('a service error is tried again (1 s, then 3 s); a third one is the failure, said without the URL', async () => {
    const http = fetchArtifactHttp(10_000);
    const zip = zipFiles([{ name: 'a', bytes: bytes('a') }], AT);
    const slept: number[] = [];
    let clock = 0;
    const sleep = { sleep: async (ms: number) => void slept.push((clock += ms) && ms), now: () => clock };
    standin.failNext('CreateArtifact', 503, 2);
    expect(await uploadArtifact(http, service(), () => 'x', zip, sleep)).toEqual({ id: 4001, name: 'x' });
    expect(slept).toEqual([1000, 3000]);
    standin.failNext('FinalizeArtifact', 500, 3);
    const err = await uploadArtifact(http, service(), () => 'y', zip, sleep).catch((e: Error) => e);
    expect((err as Error).message).toBe('FinalizeArtifact: 500 the stand-in was told to fail');
    expect(standin.artifacts.map((a) => a.name)).toEqual(['x']);
  });

  it("past 180 s from the start no call is tried again; the signed URL's signature is given to the mask", async () => {
    const http = fetchArtifactHttp(10_000);
    const zip = zipFiles([{ name: 'a', bytes: bytes('a') }], AT);
    const masked: string[] = [];
    let clock = 0;
    // a blob store that answers 503 while the clock runs on: the first try at 0 s, the budget spent by the next
    const slow: ArtifactHttp = {
      request: async (method, url, headers, body) => {
        if (method === 'PUT') {
          clock += 200_000;
          return { status: 503, body: '' };
        }
        return http.request(method, url, headers, body);
      },
    };
    const err = await uploadArtifact(slow, service(), () => 'x', zip, {
      sleep: async () => {},
      now: () => clock,
      mask: (m) => masked.push(m),
    }).catch((e: Error) => e.message);
    expect(err).toBe('gave up after 180 s');
    expect(standin.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    expect(masked).toEqual(['standin', 'standin']);
  });

  it('a refused token, a blob store that refuses, an answer without an id: one line each', async () => {
    const zip = zipFiles([{ name: 'a', bytes: bytes('a') }], AT);
    const http = fetchArtifactHttp(10_000);
    const refused = await uploadArtifact(http, { ...service(), token: 'other' }, () => 'x', zip, noSleep).catch(
      (e: Error) => e.message,
    );
    expect(refused).toBe('CreateArtifact: 401 no');
    // the stand-in's blob store wants its signature: a signed URL it did not give is refused
    const tampered: ArtifactHttp = {
      request: (method, url, headers, body) =>
        http.request(method, url.replace('sig=standin', 'sig=forged'), headers, body),
    };
    expect(await uploadArtifact(tampered, service(), () => 'y', zip, noSleep).catch((e: Error) => e.message)).toBe(
      'the blob store answered 403',
    );
    const noId: ArtifactHttp = {
      request: async (method, url, headers, body) => {
        const r = await http.request(method, url, headers, body);
        return url.endsWith('FinalizeArtifact') ? { status: 200, body: '{"ok":true}' } : r;
      },
    };
    expect(await uploadArtifact(noId, service(), () => 'z', zip, noSleep).catch((e: Error) => e.message)).toBe(
      'FinalizeArtifact: no artifact id in the answer',
    );
  });

  it('an archive over the bound is refused before any request', async () => {
    const err = await uploadArtifact(
      fetchArtifactHttp(10_000),
      service(),
      () => 'x',
      new Uint8Array(MAX_ARTIFACT_BYTES + 1),
      noSleep,
    ).catch((e: Error) => e.message);
    expect(err).toMatch(/over the 67108864 an upload takes/);
    expect(standin.requests).toEqual([]);
  });

  it('uploadRunFiles: the files zipped under their names, the artifact page, one info line', async () => {
    const info: string[] = [];
    const warning: string[] = [];
    const files: Record<string, string> = { '/w/r.json': '{}', '/w/p/x.pb.gz': 'pprof' };
    const a = await uploadRunFiles(
      {
        env: {
          ACTIONS_RUNTIME_TOKEN: standin.token,
          ACTIONS_RESULTS_URL: standin.url,
          GITHUB_REPOSITORY: 'acme/shop',
          GITHUB_RUN_ID: '77',
          GITHUB_JOB: 'perf',
        },
        http: fetchArtifactHttp(10_000),
        readBytes: (p) => bytes(files[p] ?? ''),
        sleep: noSleep.sleep,
        now: () => AT,
        io: { info: (m) => info.push(m), warning: (m) => warning.push(m) },
      },
      [
        { name: 'r.json', path: '/w/r.json' },
        { name: 'p/x.pb.gz', path: '/w/p/x.pb.gz' },
      ],
      'api',
    );
    expect(a).toEqual({
      id: 4001,
      name: 'perf-gate-perf-api',
      url: 'https://github.com/acme/shop/actions/runs/77/artifacts/4001',
    });
    expect(readZip(new Uint8Array(standin.artifacts[0]?.bytes ?? [])).map((e) => e.name)).toEqual([
      'r.json',
      'p/x.pb.gz',
    ]);
    expect(info).toEqual([
      expect.stringMatching(/^perf-gate: uploaded artifact perf-gate-perf-api \(2 files, \d+ bytes\)$/),
    ]);
    expect(warning).toEqual([]);
    expect(artifactLine(a as NonNullable<typeof a>)).toBe(
      "📄 [The run's page](https://github.com/acme/shop/actions/runs/77/artifacts/4001) (latency over time, distributions, errors, resources; `perf-gate-report.html` in the artifact `perf-gate-perf-api`, with the results file)",
    );
  });

  it('uploadRunFiles: a file the run did not write is left out and said; the rest go up', async () => {
    const info: string[] = [];
    const a = await uploadRunFiles(
      {
        env: {
          ACTIONS_RUNTIME_TOKEN: standin.token,
          ACTIONS_RESULTS_URL: standin.url,
          GITHUB_REPOSITORY: 'a/b',
          GITHUB_RUN_ID: '1',
        },
        http: fetchArtifactHttp(10_000),
        readBytes: (p) => {
          if (p === '/w/gone.pb.gz') throw Object.assign(new Error('ENOENT: gone'), { code: 'ENOENT' });
          return bytes('x');
        },
        sleep: async () => {},
        now: () => AT,
        io: { info: (m) => info.push(m), warning: () => {} },
      },
      [
        { name: 'r.json', path: '/w/r.json' },
        { name: 'gone.pb.gz', path: '/w/gone.pb.gz' },
      ],
      '',
    );
    expect(a?.id).toBe(4001);
    expect(readZip(new Uint8Array(standin.artifacts[0]?.bytes ?? [])).map((e) => e.name)).toEqual(['r.json']);
    expect(info[0]).toBe('perf-gate: gone.pb.gz is not there; uploaded without it');
  });

  it('uploadRunFiles: a failure is one warning without the signed URL, and no link', async () => {
    const warning: string[] = [];
    const leaky: ArtifactHttp = {
      request: async (method, url) => {
        if (method === 'PUT') throw new Error(`connect ECONNREFUSED while sending to ${url}`);
        return {
          status: 200,
          body: JSON.stringify({ ok: true, signed_upload_url: 'https://blob.example/x?sig=SECRET' }),
        };
      },
    };
    const a = await uploadRunFiles(
      {
        env: { ACTIONS_RUNTIME_TOKEN: standin.token, ACTIONS_RESULTS_URL: standin.url },
        http: leaky,
        readBytes: () => bytes('x'),
        sleep: noSleep.sleep,
        now: () => AT,
        io: { info: () => {}, warning: (m) => warning.push(m) },
      },
      [{ name: 'r.json', path: '/w/r.json' }],
      '',
    );
    expect(a).toBeUndefined();
    expect(warning).toEqual([
      "perf-gate: the run's page could not be uploaded (connect ECONNREFUSED while sending to <url>); upload perf-gate-report.html with actions/upload-artifact instead",
    ]);
    expect(warning.join('')).not.toContain('SECRET');
  });
});

describe('runFiles', () => {
  const outcome = (results: RunOutcome['results']): RunOutcome => ({
    results,
    resultsPath: '/repo/perf-gate-results.json',
    reportPath: '/repo/perf-gate-report.md',
    htmlPath: '/repo/perf-gate-report.html',
    extraPaths: ['/repo/junit.xml'],
    report: '',
    verdict: 'pass',
    regressions: 0,
    baselinesUpdated: [],
  });

  it("the page, the results, the report, and the run's own profiles and flame graphs (not a baseline's)", () => {
    const results = {
      ...resultsFile([], []),
      profiles: [
        { scenario: 's', phase: 'p', service: 'api', side: 'head', file: 'perf-gate-profiles/head.s.p.api.pb.gz' },
        { scenario: 's', phase: 'p', service: 'api', side: 'base', file: 'perf-gate-profiles/base.s.p.api.pb.gz' },
        { scenario: 's', phase: 'p', service: 'api', side: 'baseline', file: 'profiles/kept.pb.gz' },
        { scenario: 's', phase: 'p', service: 'db', side: 'head', file: '../../etc/passwd' },
        { scenario: 's', phase: 'p', service: 'db', side: 'head' },
      ],
      profileDiffs: [{ flame: 'perf-gate-profiles/diff.s.p.api.svg' }],
    } as unknown as RunOutcome['results'];
    expect(runFiles(outcome(results), '/repo')).toEqual([
      { name: 'perf-gate-report.html', path: '/repo/perf-gate-report.html' },
      { name: 'perf-gate-results.json', path: '/repo/perf-gate-results.json' },
      { name: 'perf-gate-report.md', path: '/repo/perf-gate-report.md' },
      { name: 'perf-gate-profiles/head.s.p.api.pb.gz', path: '/repo/perf-gate-profiles/head.s.p.api.pb.gz' },
      { name: 'perf-gate-profiles/base.s.p.api.pb.gz', path: '/repo/perf-gate-profiles/base.s.p.api.pb.gz' },
      { name: 'perf-gate-profiles/diff.s.p.api.svg', path: '/repo/perf-gate-profiles/diff.s.p.api.svg' },
    ]);
  });

  it('a file outside the working directory keeps its base name', () => {
    expect(runFiles({ ...outcome(resultsFile([], [])), resultsPath: '/elsewhere/out/r.json' }, '/repo')[1]).toEqual({
      name: 'r.json',
      path: '/elsewhere/out/r.json',
    });
  });
});

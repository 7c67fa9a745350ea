// The scenario hash is what makes a committed baseline stale: a refactor of the config's shape must
// not change it. These are the hashes of the fixture configs (and of a few shapes no fixture has:
// a gRPC URL with a trailing slash, WebSocket headers, a mix whose first entry has bodies), pinned
// as the code of d71d3ba computed them.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { sweepScenarios } from '../../src/modes/sweep.js';
import { bodiesReader, hashesOf } from '../../src/run/plan.js';
import { ROOT } from '../integration/helpers.js';
import { realReadFs } from '../../src/common/read-fs.js';

function hashes(file: string, workspace = ROOT): Record<string, string> {
  const config = loadConfig(file, workspace, realReadFs);
  const read = bodiesReader(realReadFs);
  return Object.fromEntries([
    ...hashesOf(config.scenarios, read),
    ...[...hashesOf(sweepScenarios(config.scenarios), read)].map(([n, h]) => [`sweep:${n}`, h]),
  ]);
}

describe('scenario hashes of the fixture configs are unchanged', () => {
  it.each<[string, Record<string, string>]>([
    [
      'fixtures/quickstart/perf-gate.yml',
      {
        work: 'sha256:bba16b4447f0c4d31294de351a429d9ff117da22b90921a6288a30826dd74d03',
        'sweep:work': 'sha256:c86ed3270293538cf5b112ce5ca149b4ea56cf86e041b9eda9787bd67c6cb91c',
      },
    ],
    [
      'fixtures/seeds/embed-search/perf-gate.yml',
      {
        'embed-search': 'sha256:1a16c454cc15c8dfc14353188d6dec88bd21ec0e0469787c9d2fcc36091bfee5',
        'sweep:embed-search': 'sha256:7270c171d57397efb4f747c37156da3a0ecd3a2adb47a988ea5a29fd23a787d8',
      },
    ],
    [
      'fixtures/seeds/grpc-vectordb/perf-gate.yml',
      { search: 'sha256:31c88fbcf05a01f67310efd141d7a81ca0eef5b48615f07b2c87016a788f3dad' },
    ],
    [
      'fixtures/seeds/proxy-bodies/perf-gate.yml',
      {
        direct: 'sha256:ea87c7e65e81a6faacc6131ab37cae8ad1f2e86843e64b49b263bb51871c9233',
        proxied: 'sha256:512874cae2dc8915270f789969aa8c11a868eaa2fb5b278b2345a03623a863ed',
      },
    ],
    [
      'fixtures/seeds/ws-broker/perf-gate.yml',
      // changed on purpose when the seed began to sign and seal its messages through a hook: another
      // measurement (the hook's source and the message template are in the hash)
      { broker: 'sha256:3b3cc09836b6f14a9a88f36aca825116ad594ac46c824273eca0f47c758f27db' },
    ],
    [
      'fixtures/tests/expect/perf-gate.yml',
      {
        checked: 'sha256:3127fea8420b005ae884d3f869ea6bc76b4f950f63995c0462f282a280c4d21d',
        unchecked: 'sha256:e84ca9ea40f2434b8223f85c3a086f3418696b0df3f9c149129013724156ec6d',
      },
    ],
    [
      'fixtures/tests/sweep/perf-gate.yml',
      {
        saturate: 'sha256:3ec879b69f07f328ff16279fcf94152c3d506f75f8723f7a685b1f89929de6d5',
        'sweep:saturate': 'sha256:0d3ac5e903449b2e930b29d3615c81b0b99e3a96d3d85d01c6418a182b184909',
      },
    ],
  ])('%s', (file, expected) => {
    expect(hashes(join(ROOT, file))).toEqual(expected);
  });

  it('of shapes no fixture has', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perf-gate-hash-'));
    copyFileSync(join(ROOT, 'fixtures/grpc-search/search.proto'), join(dir, 'search.proto'));
    writeFileSync(join(dir, 'a.jsonl'), '{"q":"a"}\n{"q":"b"}\n');
    writeFileSync(join(dir, 'm.jsonl'), '{"collection":"docs","k":1}\n{"collection":"docs","k":2}\n');
    writeFileSync(
      join(dir, 'perf-gate.yml'),
      [
        'version: 1',
        'sut: { compose: docker-compose.yml }',
        'scenarios:',
        '  - name: grpc-slash',
        '    grpc: { url: "grpc://db:50051/", proto: search.proto, service: vectordb.VectorDB, method: Search,',
        '            bodies: m.jsonl, metadata: { X-Tenant: t }, deadline: 250ms }',
        '    phases: [{ rate: 100, duration: 2s }]',
        '  - name: ws-headers',
        '    websocket: { url: "ws://b:8080/ws?p={{peer}}", headers: { authorization: Bearer x },',
        '                 message: "{{id}}", hello: [hi] }',
        '    phases: [{ peers: 2, messages: 5 }]',
        '  - name: mix-bodies',
        '    requests:',
        '      - { name: a, url: "http://api:8080/a", bodies: a.jsonl, timeout: 1s }',
        '      - { name: b, weight: 2, url: "http://api:8080/b", method: DELETE }',
        '    phases: [{ connections: 2, requests: 10 }]',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'docker-compose.yml'), 'services: {}\n');
    expect(hashes(join(dir, 'perf-gate.yml'), dir)).toEqual({
      'grpc-slash': 'sha256:19baf58b0eb348eefe5ec3f57875825ca89bee3ba1edbbdc057b37234363cff1',
      'mix-bodies': 'sha256:9317633141592277b0338725f332c2f49274617c3f323c9467a38f30526391cd',
      'ws-headers': 'sha256:fdceab93fd558ad6a5c5c3adf182201c5642d5af1f139291876dc485bea1935c',
    });
  });
});

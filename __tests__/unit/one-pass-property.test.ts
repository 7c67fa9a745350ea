// `validate` in one pass, over generated configs: 1 to 6 scenarios, each with none or one of six
// independent mistakes (schema and semantic alike) planted, and a placeholder in the wrong braces
// beside it or not; every planted mistake is said, at its path, and nothing else is, however they are
// combined (200 seeded configs).
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config/load.js';
import type { ReadFs } from '../../src/common/read-fs.js';
import { seededRandom } from '../../src/stats/random.js';

const HEAD = [
  'version: 1',
  'sut: { compose: docker-compose.yml }',
  'setup:',
  '  - name: login',
  '    request: { url: "http://api:8080/login", method: POST }',
  '    extract: { token: { json: $.token } }',
  'scenarios:',
  '',
].join('\n');

/** Beside any of them, Artillery's habit: a setup value written in a flow value's braces. It is said
 * unless the scenario's request itself held a refused value (`timeout`): what a refused part of the
 * request would have meant is not guessed at. */
const BRACES = (i: number) =>
  `scenarios[${i}].request.headers.authorization: {{token}} is sent as it is; token is a value a setup step extracts: write \${token}`;

/** Each mistake: what it changes in scenario i, and the line it must give. */
const MISTAKES: Array<{ name: string; line: (i: number) => string }> = [
  { name: 'typo', line: (i) => `scenarios[${i}].warmpu: unknown key (did you mean warmup?)` },
  {
    name: 'timeout',
    line: (i) => `scenarios[${i}].request.timeout: must be a duration like 500ms, 30s, 2m or 1m30s`,
  },
  { name: 'trials', line: (i) => `scenarios[${i}].trials: must be an integer from 1 to 100` },
  {
    name: 'twice',
    line: (i) => `scenarios[${i}].phases: phase name "c1" is used twice (give each phase a unique name)`,
  },
  {
    name: 'vus',
    line: (i) =>
      `scenarios[${i}].phases[0].vus: unknown key (concurrent connections are a phase key: { connections: 10, duration: 30s })`,
  },
  {
    name: 'pipelining',
    line: (i) =>
      `scenarios[${i}].phases[1].pipelining: closed loop only (an open loop sends on a free connection; raise max-in-flight instead)`,
  },
];

function scenario(i: number, mistake: string | undefined, braces: boolean): string {
  const m = (name: string) => mistake === name;
  const header = braces ? ", headers: { authorization: 'Bearer {{token}}' }" : '';
  return [
    `  - name: s${i}`,
    `    request: { url: "http://api:8080/x"${m('timeout') ? ', timeout: fast' : ''}${header} }`,
    ...(m('typo') ? ['    warmpu: 2s'] : []),
    ...(m('trials') ? ['    trials: five'] : []),
    '    phases:',
    `      - { name: c1, connections: 4, duration: 5s${m('vus') ? ', vus: 10' : ''} }`,
    m('pipelining')
      ? '      - { name: r1, rate: 100, duration: 5s, pipelining: 2 }'
      : `      - { name: ${m('twice') ? 'c1' : 'c2'}, connections: 2, duration: 1s }`,
  ].join('\n');
}

describe('validate in one pass, over generated configs', () => {
  it('every planted mistake is said at its path, and nothing else, in 200 configs', () => {
    const rand = seededRandom(20261130);
    let planted = 0;
    let placeholders = 0;
    for (let k = 0; k < 200; k++) {
      const n = 1 + Math.floor(rand() * 6);
      const chosen = Array.from({ length: n }, () => {
        const pick = Math.floor(rand() * (MISTAKES.length + 1));
        return pick < MISTAKES.length ? MISTAKES[pick] : undefined;
      });
      const braces = chosen.map(() => rand() < 0.3);
      const text = HEAD + chosen.map((m, i) => scenario(i, m?.name, braces[i] as boolean)).join('\n');
      const want = chosen.flatMap((m, i) => [
        ...(m ? [m.line(i)] : []),
        ...(braces[i] && m?.name !== 'timeout' ? [BRACES(i)] : []),
      ]);
      planted += want.length;
      placeholders += want.filter((w) => w.includes('{{token}}')).length;
      // read as validate reads it: the schema, what the values mean together and the placeholder story
      const fs: ReadFs = {
        readText: (p) => {
          if (p === '/ws/perf-gate.yml') return text;
          if (p === '/ws/docker-compose.yml') return 'services:\n  api:\n    image: api:1\n';
          throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
        },
        exists: (p) => ['/ws', '/ws/perf-gate.yml', '/ws/docker-compose.yml'].includes(p),
        realpath: (p) => p,
        isFile: (p) => p === '/ws/perf-gate.yml' || p === '/ws/docker-compose.yml',
      };
      const { problems } = readConfig('/ws/perf-gate.yml', '/ws', fs, {});
      expect([...problems].sort(), text).toEqual([...want].sort());
    }
    // (the configs planted mistakes at all: not 200 clean ones)
    expect(planted).toBeGreaterThan(300);
    expect(placeholders).toBeGreaterThan(100);
  });
});

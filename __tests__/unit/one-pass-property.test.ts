// `validate` in one pass, over generated configs: 1 to 6 scenarios, each with none or one of six
// independent mistakes (schema and semantic alike) planted; every planted mistake is said, at its
// path, and nothing else is, however they are combined (200 seeded configs).
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { seededRandom } from '../../src/stats/random.js';

const HEAD = 'version: 1\nsut: { compose: docker-compose.yml }\nscenarios:\n';

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

function scenario(i: number, mistake: string | undefined): string {
  const m = (name: string) => mistake === name;
  return [
    `  - name: s${i}`,
    `    request: { url: "http://api:8080/x"${m('timeout') ? ', timeout: fast' : ''} }`,
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
    for (let k = 0; k < 200; k++) {
      const n = 1 + Math.floor(rand() * 6);
      const chosen = Array.from({ length: n }, () => {
        const pick = Math.floor(rand() * (MISTAKES.length + 1));
        return pick < MISTAKES.length ? MISTAKES[pick] : undefined;
      });
      const text = HEAD + chosen.map((m, i) => scenario(i, m?.name)).join('\n');
      const want = chosen.flatMap((m, i) => (m ? [m.line(i)] : []));
      planted += want.length;
      const { problems } = parseConfigText(text, '/ws/perf-gate.yml', (p) => `/ws/${p}`);
      expect([...problems].sort(), text).toEqual([...want].sort());
    }
    // (the configs planted mistakes at all: not 200 clean ones)
    expect(planted).toBeGreaterThan(300);
  });
});

// What a newcomer gets wrong, as a k6 or compose user writes it: each gives the right line, all of
// them in one pass, each at its line (SPEC §10). The placeholder kinds are in placeholder-kinds.test.ts.
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';

const HEAD = 'version: 1\nsut: { compose: docker-compose.yml }\n';
const parse = (text: string) => parseConfigText(`${HEAD}${text}`, '/ws/perf-gate.yml', (p) => `/ws/${p}`);

describe('a newcomer’s config', () => {
  it.each<[string, string, string[]]>([
    [
      'k6’s vus beside two mistakes the schema does not see: all three at once',
      [
        'scenarios:',
        '  - name: api',
        '    request: { url: "http://api:8080/x" }',
        '    phases:',
        '      - { name: c1, connections: 4, duration: 5s, vus: 10 }',
        '      - { name: c1, connections: 2, duration: 1s }',
        '      - { name: r1, rate: 100, duration: 5s, pipelining: 2 }',
      ].join('\n'),
      [
        'scenarios[0].phases[0].vus: unknown key (concurrent connections are a phase key: { connections: 10, duration: 30s })',
        'scenarios[0].phases[2].pipelining: closed loop only (an open loop sends on a free connection; raise max-in-flight instead)',
        'scenarios[0].phases: phase name "c1" is used twice (give each phase a unique name)',
      ],
    ],
    [
      'a typo beside a semantic mistake: both',
      [
        'scenarios:',
        '  - name: api',
        '    request: { url: "http://api:8080/x" }',
        '    warmpu: 2s',
        '    phases: [{ name: c1, connections: 4, duration: 5s }, { name: c1, connections: 8, duration: 5s }]',
      ].join('\n'),
      [
        'scenarios[0].warmpu: unknown key (did you mean warmup?)',
        'scenarios[0].phases: phase name "c1" is used twice (give each phase a unique name)',
      ],
    ],
    [
      'two values of the wrong kind beside a semantic mistake: all three at once',
      [
        'scenarios:',
        '  - name: api',
        '    request: { url: "http://api:8080/x", timeout: fast }',
        '    trials: five',
        '    phases:',
        '      - { name: c1, connections: 4, duration: 5s }',
        '      - { name: c1, connections: 2, duration: 1s }',
      ].join('\n'),
      [
        'scenarios[0].request.timeout: must be a duration like 500ms, 30s, 2m or 1m30s',
        'scenarios[0].trials: must be an integer from 1 to 100',
        'scenarios[0].phases: phase name "c1" is used twice (give each phase a unique name)',
      ],
    ],
    [
      'a list entry of the wrong kind: said alone (the entries after it would shift)',
      [
        'scenarios:',
        '  - name: api',
        '    request: { url: "http://api:8080/x" }',
        '    phases: [5, { name: c1, connections: 2, duration: 1s }, { name: c1, connections: 2, duration: 1s }]',
      ].join('\n'),
      ['scenarios[0].phases[0]: must be a mapping, not a number'],
    ],
    [
      'a refused target: said alone (without it every path URL would want one)',
      [
        'target: localhost:8080',
        'scenarios:',
        '  - name: api',
        '    request: { url: /health }',
        '    phases: [{ name: c1, connections: 2, duration: 1s }, { name: c1, connections: 2, duration: 1s }]',
      ].join('\n'),
      ['target: must be an http:// or https:// URL'],
    ],
    [
      'a key the config needs, of the wrong kind: said alone',
      [
        'scenarios:',
        '  - name: api',
        '    request: { url: 5 }',
        '    phases: [{ name: c1, connections: 2, duration: 1s }, { name: c1, connections: 2, duration: 1s }]',
      ].join('\n'),
      ['scenarios[0].request.url: must be an http:// or https:// URL (or, with target, a path such as /api/items)'],
    ],
    [
      'compose’s habit: anchors under x- keys, merged with <<',
      [
        'x-phase: &phase { connections: 4, duration: 5s }',
        'x-bands: &bands',
        '  p50: { regress: 10% }',
        'scenarios:',
        '  - name: api',
        '    x-note: anchors may live in a scenario too',
        '    request: { url: "http://api:8080/x" }',
        '    thresholds: *bands',
        '    phases:',
        '      - { <<: *phase, name: c4 }',
        '      - { <<: *phase, name: c8, connections: 8 }',
      ].join('\n'),
      [],
    ],
    [
      'an x- key anywhere else is still unknown',
      [
        'scenarios:',
        '  - name: api',
        '    request: { url: "http://api:8080/x", x-mine: 1 }',
        '    phases: [{ name: c1, connections: 4, duration: 5s }]',
      ].join('\n'),
      [
        'scenarios[0].request.x-mine: unknown key (keys here: url, http, method, headers, body, bodies, timeout, expect)',
      ],
    ],
  ])('%s', (_label, text, problems) => {
    expect(parse(text).problems).toEqual(problems);
  });

  it('a merged phase keeps what it overrides: c8 has 8 connections, c4 the anchor’s 4', () => {
    const { config } = parse(
      [
        'x-phase: &phase { connections: 4, duration: 5s }',
        'scenarios:',
        '  - name: api',
        '    request: { url: "http://api:8080/x" }',
        '    phases:',
        '      - { <<: *phase, name: c4 }',
        '      - { <<: *phase, name: c8, connections: 8 }',
      ].join('\n'),
    );
    expect(config?.scenarios[0]?.phases.map((p) => [p.name, p.kind === 'closed' ? p.connections : 0])).toEqual([
      ['c4', 4],
      ['c8', 8],
    ]);
  });
});

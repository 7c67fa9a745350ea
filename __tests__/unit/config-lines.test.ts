import { describe, expect, it } from 'vitest';
import { locateProblems, scenarioLines } from '../../src/config/lines.js';

describe('scenarioLines', () => {
  it.each<[string, string, Array<[string, number]>]>([
    [
      'block style',
      'version: 1\nscenarios:\n  - name: api\n    phases: []\n  - request: {}\n    name: search\n',
      [
        ['api', 3],
        ['search', 6],
      ],
    ],
    [
      'flow style on one line',
      'scenarios: [{ name: a }, { name: b }]\n',
      [
        ['a', 1],
        ['b', 1],
      ],
    ],
    ['a comment and a blank line before', '# perf\n\nscenarios:\n- name: "quoted"\n', [['quoted', 4]]],
    ['the first of two scenarios with one name', 'scenarios:\n  - name: x\n  - name: x\n', [['x', 2]]],
    ['a name that is not a string', 'scenarios:\n  - name: 12\n', []],
    ['no scenarios', 'version: 1\n', []],
    ['scenarios not a list', 'scenarios: { name: a }\n', []],
    ['YAML that does not parse', 'scenarios: [\n', []],
    ['not a map at the top', '- a\n- b\n', []],
  ])('%s', (_label, text, expected) => {
    expect([...scenarioLines(text)]).toEqual(expected);
  });
});

describe('locateProblems: every config problem at its key (issue 21)', () => {
  const TEXT = [
    'version: 1', // 1
    'sut:', // 2
    '  compose: c.yml', // 3
    '  colour: blue', // 4
    'scenarios:', // 5
    '  - name: api', // 6
    '    request: { url: http://api/ }', // 7
    '    thresholds:', // 8
    '      p99.9: { regres: 10% }', // 9
    '    phases:', // 10
    '      - { connections: 1, duration: 1s }', // 11
    '      - name: r', // 12
    '        rate: -5', // 13
  ].join('\n');
  it.each<[string, string]>([
    ['sut.colour: unknown key', 'c.yml:4:3: sut.colour: unknown key'],
    ['scenarios[0].phases[1].rate: must be above 0', 'c.yml:13:9: scenarios[0].phases[1].rate: must be above 0'],
    // a flow mapping's key, on its line
    ['scenarios[0].phases[0].duration: no', 'c.yml:11:27: scenarios[0].phases[0].duration: no'],
    // a key with a dot in it is one key
    [
      'scenarios[0].thresholds.p99.9.regres: unknown key',
      'c.yml:9:16: scenarios[0].thresholds.p99.9.regres: unknown key',
    ],
    // the scenario's name in brackets, as the env check writes it
    ['scenarios[0] (api).request.url: ${X} is not set', 'c.yml:7:16: scenarios[0] (api).request.url: ${X} is not set'],
    // a key the file does not have: its deepest ancestor that it has
    ['scenarios[0].sweep.duration: is required', 'c.yml:6:5: scenarios[0].sweep.duration: is required'],
    ['scenarios[0].phases[7]: no such phase', 'c.yml:10:5: scenarios[0].phases[7]: no such phase'],
    ['scenarios: scenario name "x" is used twice', 'c.yml:5:1: scenarios: scenario name "x" is used twice'],
    ['(top level): must be a mapping', 'c.yml:1:1: (top level): must be a mapping'],
    // nothing of the path in the file
    ['gate.confirm.max-trials: too few', 'c.yml: gate.confirm.max-trials: too few'],
    ['YAML: too many aliases', 'c.yml: YAML: too many aliases'],
  ])('%s', (problem, expected) => {
    expect(locateProblems(TEXT, 'c.yml', [problem])).toEqual([expected]);
  });

  it('a YAML syntax error keeps its own line and column', () => {
    expect(locateProblems('a: [', 'c.yml', ['line 1, column 5: Flow sequence in block collection'])).toEqual([
      'c.yml:1:5: Flow sequence in block collection',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { scenarioLines } from '../../src/config/lines.js';

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

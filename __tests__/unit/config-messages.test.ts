// What a user reads when the config is wrong in the ways real users get it wrong (issue 31): the right
// shape shown, what to do about a YAML error, keys in the wrong place pointed home, problems in the
// order of the file, each at its line.
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { locateProblems } from '../../src/config/lines.js';

const base = (extra: string, scen = "    request: { url: 'http://api:8080/' }\n") =>
  `version: 1\nsut:\n  compose: c.yml\n${extra}scenarios:\n  - name: s\n${scen}    phases: [{ connections: 1, duration: 1s }]\n`;
const problems = (text: string) => parseConfigText(text, '/ws/p.yml', (p) => `/ws/${p}`).problems;

describe('config messages', () => {
  it.each<[string, string, string[]]>([
    [
      'a band without a unit',
      base('defaults:\n  thresholds:\n    p99: { regress: 25 }\n'),
      ['defaults.thresholds.p99.regress: 25 has no unit; write 25%'],
    ],
    [
      'a band as a fraction',
      base('defaults:\n  thresholds:\n    p99: { regress: 0.25, floor: 2 }\n'),
      [
        'defaults.thresholds.p99.regress: 0.25 has no unit; write 25% (or 0.25% if you meant a fraction of a percent)',
        'defaults.thresholds.p99.floor: 2 has no unit; write a duration like 2ms or 2us',
      ],
    ],
    [
      'sut.ready as one URL',
      base('').replace('  compose: c.yml\n', '  compose: c.yml\n  ready: http://api:8080/health\n'),
      ['sut.ready: must be a list of probes, like ready: [{ url: http://api:8080/health }]'],
    ],
    [
      'request as one URL',
      base('', '    request: http://api:8080/\n'),
      [
        'scenarios[0].request: must be a mapping, like request: { url: http://api:8080/ } (method, headers and body go beside url)',
      ],
    ],
    [
      "k6's object form of a threshold",
      base('defaults:\n  thresholds:\n    http_req_duration: [{ threshold: "p(95)<500", abortOnFail: true }]\n'),
      [
        'defaults.thresholds.http_req_duration[0]: k6\'s object form { threshold, abortOnFail } is not read: write the expression alone, "p(95)<500" (perf-gate does not abort a run on a threshold)',
      ],
    ],
    [
      'a key indented wrong',
      'version: 1\nsut:\n  compose: c.yml\n scenarios: []\n',
      [
        "line 4, column 1: All mapping items must start at the same column (check this key's indentation: the keys of one mapping start at the same column)",
      ],
    ],
    [
      'two documents',
      `${base('')}---\nversion: 1\n`,
      [
        'line 8, column 1: Source contains multiple documents (the file holds more than one YAML document (a --- line): keep one)',
      ],
    ],
    [
      'a value with ": " unquoted',
      base('', "    request:\n      url: 'http://api:8080/'\n      headers:\n        authorization: Bearer: abc\n"),
      [
        'line 9, column 24: Nested mappings are not allowed in compact mappings (if a value holds ": ", quote it: "Bearer: abc")',
      ],
    ],
    [
      'compose at the top level',
      'version: 1\ncompose: c.yml\nscenarios:\n  - name: s\n    request: { url: "http://api:8080/" }\n    phases: [{ connections: 1, duration: 1s }]\n',
      ['compose: unknown key (the compose file goes under sut: sut: { compose: docker-compose.yml })'],
    ],
    [
      "a scenario's url",
      base('', "    url: 'http://api:8080/'\n"),
      ["scenarios[0].url: unknown key (a request's URL goes under request: request: { url: http://api:8080/items })"],
    ],
    [
      "k6's checks",
      base('', "    request: { url: 'http://api:8080/' }\n    checks: { status: 200 }\n"),
      [
        'scenarios[0].checks: unknown key (checks of a response are request.expect: request: { url: …, expect: { status: 200, body: ok } })',
      ],
    ],
    [
      'bare numbers in a percentage metric: its limits as well as its band (units from the metric registry)',
      base(
        'defaults:\n  thresholds:\n    error-rate: { regress: 50, max: 0.01 }\n    delivery: { regress: 5, min: 0.99 }\n',
      ),
      [
        'defaults.thresholds.error-rate.regress: 50 has no unit; write 50%',
        'defaults.thresholds.error-rate.max: 0.01 has no unit; write 1% (or 0.01% if you meant a fraction of a percent)',
        'defaults.thresholds.delivery.regress: 5 has no unit; write 5%',
        'defaults.thresholds.delivery.min: 0.99 has no unit; write 99% (or 0.99% if you meant a fraction of a percent)',
      ],
    ],
    [
      "bare numbers in a band's floor: a count's is right as it is, a percentage's and a size's are named",
      base(
        'defaults:\n  thresholds:\n    errors: { regress: 50, floor: 5 }\n    error-rate: { regress: 5%, below: 0.01 }\n    memory: { regress: 5, floor: 64 }\n',
      ),
      [
        'defaults.thresholds.errors.regress: 50 has no unit; write 50%',
        'defaults.thresholds.memory.regress: 5 has no unit; write 5%',
        'defaults.thresholds.memory.floor: 64 has no unit; write a size like 64MiB',
        'defaults.thresholds.error-rate.below: 0.01 has no unit; write 1% (or 0.01% if you meant a fraction of a percent)',
      ],
    ],
    [
      'history: min-shift as a fraction, alpha out of range',
      base('history:\n  min-shift: 0.05\n  alpha: 0.0001\n'),
      [
        'history.min-shift: 0.05 has no unit; write 5% (or 0.05% if you meant a fraction of a percent)',
        'history.alpha: must be a number from 0.001 to 0.2',
      ],
    ],
    [
      'history: a min-shift too large (a results file would refuse it)',
      base('history: { min-shift: 2000% }\n'),
      ['history.min-shift: must be a percentage from 0% to 1000%'],
    ],
  ])('%s', (_label, text, expected) => {
    expect(problems(text)).toEqual(expected);
  });

  it('a 5000-deep file: one line saying so, not a stack overflow per level', () => {
    // where the parser gives up depends on the stack: the column is not pinned
    expect(problems(`a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)).toEqual([
      expect.stringMatching(/^line 1, column \d+: YAML nested too deeply to read$/),
    ]);
  });

  it('a lowercase method is read as its uppercase', () => {
    const { config, problems: p } = parseConfigText(
      base('', "    request: { url: 'http://api:8080/', method: post, body: { a: 1 } }\n"),
      '/ws/p.yml',
      (x) => `/ws/${x}`,
    );
    expect(p).toEqual([]);
    expect(config?.scenarios[0]?.target.kind === 'http' && config.scenarios[0].target.request.method).toBe('POST');
  });

  it('problems in the order of the file; a key missing at the top at line 1, one missing below at its parent', () => {
    const text = [
      'sut:',
      '  compose: c.yml',
      'scenarios:',
      '  - request: { url: "http://api:8080/" }',
      '    phases: [{ connections: 0, duration: 1s }]',
      '',
    ].join('\n');
    const found = problems(text);
    const located = locateProblems(text, 'p.yml', [...found].reverse());
    expect(located).toEqual([
      'p.yml:1:1: version: must be 1',
      'p.yml:4:5: scenarios[0].name: is required',
      'p.yml:5:16: scenarios[0].phases[0].connections: must be an integer from 1 to 10,000',
    ]);
  });
});

// What validate says a run gates and costs (issue 48): rows by scenario and threshold set, which are
// bands and which limits only (k6's thresholds), a flow's own phase apart, and the measuring time.
import { describe, expect, it } from 'vitest';
import { gatedRowsSaid, measuringSaid, wallTimeSaid } from '../../src/compare/gated-rows.js';
import { sweepScenarios } from '../../src/modes/sweep.js';
import { parseConfigText } from '../../src/config/load.js';
import { modeOf } from '../../src/modes/index.js';

const HEAD = 'version: 1\nsut: { compose: docker-compose.yml }\n';
function config(text: string) {
  const r = parseConfigText(`${HEAD}${text}`, '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  expect(r.problems).toEqual([]);
  return r.config as NonNullable<typeof r.config>;
}
const gate = modeOf('gate').judging;

describe('gatedRowsSaid', () => {
  it.each<[string, string, string[], number, number]>([
    [
      'the built-in bands when nothing is given',
      'scenarios:\n  - name: api\n    request: { url: "http://api:8080/x" }\n    phases: [{ name: c1, connections: 4, duration: 5s }]\n',
      ['api (c1): p50, p99, rps banded'],
      3,
      0,
    ],
    [
      'a k6 threshold: a limit only, said as such',
      'scenarios:\n  - name: api\n    request: { url: "http://api:8080/x" }\n    thresholds: { http_req_duration: [\'p(95)<200\'] }\n    phases: [{ name: c1, connections: 4, duration: 5s }]\n',
      ['api (c1): p95 ≤ 200ms: limit only, no regression band (add regress: to gate a change)'],
      1,
      1,
    ],
    [
      'defaults’ bands gate a flow’s own phase too (all its requests together), beside a step’s own',
      [
        'defaults: { thresholds: { p50: { regress: 10% } } }',
        'scenarios:',
        '  - name: items',
        '    flow:',
        '      - { name: create, url: "http://api:8080/items", method: POST, extract: { id: { json: $.id } } }',
        '      - { name: read, url: "http://api:8080/items/{{id}}", thresholds: { p99: { regress: 20% } } }',
        '    phases: [{ name: c4, connections: 4, duration: 5s }, { name: c8, connections: 8, duration: 5s }]',
        '',
      ].join('\n'),
      ['items (c4, c8; all its requests together): p50 banded', 'items · read (c4, c8): p99 banded'],
      4,
      0,
    ],
    [
      'gate.bands: inform: bands shown as information, the limit judged',
      'gate: { bands: inform }\nscenarios:\n  - name: api\n    request: { url: "http://api:8080/x" }\n    thresholds: { p50: { regress: 10% }, p99: { below: 50ms } }\n    phases: [{ name: c1, connections: 4, duration: 5s }]\n',
      [
        'api (c1): p99 ≤ 50ms: limit only, no regression band (add regress: to gate a change); p50 shown as information',
      ],
      1,
      1,
    ],
  ])('%s', (_label, text, lines, rows, limitsOnly) => {
    expect(gatedRowsSaid(config(text), gate)).toEqual({ lines, rows, limitsOnly });
  });
});

describe('wallTimeSaid', () => {
  const two = config(
    'defaults: { warmup: 5s, trials: 5 }\nscenarios:\n  - name: api\n    request: { url: "http://api:8080/x" }\n    phases: [{ name: c1, connections: 4, duration: 20s }, { name: n, connections: 2, requests: 1000 }]\n',
  );
  it('gate: trials × (warm-up + duration), as few as the early look, then up to the cap; a request count is not known', () => {
    expect(wallTimeSaid(two, 'trials')).toBe(
      'measuring about 2.1 min (1.3 min where every phase stops at its early look, at most 5 min where a change is confirmed to its cap) plus 1 phase of a request or message count, plus booting; on a busy machine up to 8.3 min more, 14.2 min at the cap (gate.busy repeats a trial taken beside other work, up to 20 a run, 34 at the cap)',
    );
  });
  it('A/B: both sides of every pair', () => {
    expect(wallTimeSaid(two, 'pairs')).toBe(
      'measuring about 5 min (2.5 min where every phase stops at its early look, at most 10 min where a change is confirmed to its cap) plus 1 phase of a request or message count, plus booting; on a busy machine up to 20 min more, 30 min at the cap (gate.busy repeats a trial taken beside other work, up to 48 a run, 72 at the cap)',
    );
  });
  it('sut.profile: one more trial of every phase on every side, in every figure', () => {
    const profiled = parseConfigText(
      `version: 1\nsut: { compose: docker-compose.yml, profile: { api: "http://api:6060/debug/pprof/profile" } }\ndefaults: { warmup: 5s, trials: 5 }\nscenarios:\n  - name: api\n    request: { url: "http://api:8080/x" }\n    phases: [{ name: c1, connections: 4, duration: 20s }]\n`,
      '/ws/perf-gate.yml',
      (p) => `/ws/${p}`,
    ).config as NonNullable<ReturnType<typeof parseConfigText>['config']>;
    // 25 s a trial: 5 + 1 trials, 3 + 1 at the early look, 12 + 1 at the cap; A/B twice each of 6 + 1 pairs
    expect(wallTimeSaid(profiled, 'trials')).toBe(
      'measuring about 2.5 min (1.7 min where every phase stops at its early look, at most 5.4 min where a change is confirmed to its cap), one profiling trial a phase and side included, plus booting; on a busy machine up to 4.2 min more, 10 min at the cap (gate.busy repeats a trial taken beside other work, up to 10 a run, 24 at the cap)',
    );
    expect(wallTimeSaid(profiled, 'pairs')).toMatch(/^measuring about 5\.8 min \(/);
  });
  it.each<[string, string, string]>([
    ['early-look: off', 'gate: { early-look: off }\n', 'measuring about 2.1 min (at most 5 min'],
    ['an early look at the trials', 'gate: { early-look: 5 }\n', 'measuring about 2.1 min (at most 5 min'],
    [
      'an early look at 4 of 5',
      'gate: { early-look: 4 }\n',
      'measuring about 2.1 min (1.7 min where every phase stops',
    ],
  ])('%s', (_label, gate, start) => {
    const text = `${gate}defaults: { warmup: 5s, trials: 5 }\nscenarios:\n  - name: api\n    request: { url: "http://api:8080/x" }\n    phases: [{ name: c1, connections: 4, duration: 20s }]\n`;
    expect(wallTimeSaid(config(text), 'trials')).toMatch(new RegExp(`^${start.replace(/[()]/g, '\\$&')}`));
  });
});

describe('measuringSaid: an update and a sweep, every trial once (no early look, no confirmation)', () => {
  it('an update: every phase’s trials', () => {
    const c = config(
      'defaults: { warmup: 5s, trials: 5 }\nscenarios:\n  - name: api\n    request: { url: "http://api:8080/x" }\n    phases: [{ name: c1, connections: 4, duration: 20s }]\n',
    );
    const busy =
      '; on a busy machine up to 4.2 min more (gate.busy repeats a trial taken beside other work, up to 10 a run)';
    expect(measuringSaid(c, c.scenarios)).toBe(`measuring about 2.1 min, plus booting${busy}`);
    expect(modeOf('update').validate(c, 'gate').line).toBe(
      `valid: records baselines/ (scheduled refresh); measuring about 2.1 min, plus booting${busy}`,
    );
    // gate.busy off: trials are never repeated, and the line says nothing of it
    const off = config(
      'gate: { busy: off }\ndefaults: { warmup: 5s, trials: 5 }\nscenarios:\n  - name: api\n    request: { url: "http://api:8080/x" }\n    phases: [{ name: c1, connections: 4, duration: 20s }]\n',
    );
    expect(measuringSaid(off, off.scenarios)).toBe('measuring about 2.1 min, plus booting');
  });
  it('a sweep takes no profile: its time leaves sut.profile out (an update counts it)', () => {
    const c = config(
      'scenarios:\n  - name: work\n    request: { url: "http://api:8080/x" }\n    phases: [{ name: r100, rate: 100, duration: 10s }]\n    sweep: { rate: [100, 200, 400, 800], duration: 10s, warmup: 2s }\n',
    );
    const profiled = {
      ...c,
      sut: { ...c.sut, profile: [{ service: 'api', url: 'http://api:6060/debug/pprof/profile' }] },
    };
    expect(modeOf('sweep').validate(profiled, 'gate').line).toMatch(/measuring about 48 s, plus booting/);
    expect(modeOf('update').validate(profiled, 'gate').line).toMatch(
      /measuring about 1.5 min, one profiling trial a phase and side included/,
    );
  });
  it('a sweep: one trial of each level, its own duration and warm-up', () => {
    const c = config(
      'scenarios:\n  - name: work\n    request: { url: "http://api:8080/x" }\n    phases: [{ name: r100, rate: 100, duration: 10s }]\n    sweep: { rate: [100, 200, 400, 800], duration: 10s, warmup: 2s }\n',
    );
    const busy =
      '; on a busy machine up to 2 min more (gate.busy repeats a trial taken beside other work, up to 10 a run)';
    expect(measuringSaid(c, sweepScenarios(c.scenarios))).toBe(`measuring about 48 s, plus booting${busy}`);
    expect(modeOf('sweep').validate(c, 'gate').line).toBe(
      `valid: 1 scenario with a ladder; measuring about 48 s, plus booting${busy}`,
    );
  });
});

import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '../../src/metrics/registry.js';
import { CSV_COLUMNS, csvField, renderCsv } from '../../src/report/csv.js';
import { renderJunit, xmlEscape } from '../../src/report/junit.js';
import { comparison, phase, resultsFile } from './fixtures.js';

const gate = resultsFile(
  [
    { name: 'api', scenarioHash: 'h', phases: [phase('c10', { rps: 500, latency: { p99: 1300 } }), phase('n2k', {})] },
    { name: 'new', scenarioHash: 'h2', phases: [phase('c1', {})] },
  ],
  [
    comparison({ metric: 'p99', baseline: 1000, current: 1300, delta: 0.3, result: 'regression', pValue: 0.004 }),
    comparison({ metric: 'rps', baseline: 480, current: 500, delta: 0.0417, band: '-10%', result: 'pass' }),
    comparison({
      phase: 'n2k',
      metric: 'p50',
      result: 'inconclusive',
      pValue: 0.2,
      reason: 'not confirmed after 7 more trials: p 0.2 > 0.01 over 12 trials',
    }),
    comparison({
      phase: 'n2k',
      metric: 'HTTP 503',
      baseline: 0,
      current: 4,
      delta: null,
      band: 'none',
      result: 'regression',
      reason: 'new error class <HTTP 503> & "more"',
    }),
    comparison({ scenario: 'new', phase: 'c1', metric: 'p99', baseline: null, delta: null, result: 'no-baseline' }),
  ],
);

describe('renderCsv', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['-10%', "'-10%"],
    ['', ''],
  ])('quotes %j as %j', (text, field) => expect(csvField(text)).toBe(field));

  it.each([
    [-0.25, '-0.25'],
    [1e-7, '1e-7'],
    [Number.NaN, ''],
    [null, ''],
    [undefined, ''],
  ])('writes the number %j as %j (numbers are never prefixed)', (n, field) => expect(csvField(n)).toBe(field));

  it('parses back with a strict RFC 4180 parser: every metric of every phase, comparisons beside', () => {
    const text = renderCsv(gate);
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text, {
      columns: true,
      relax_column_count: false,
      relax_quotes: false,
      record_delimiter: '\r\n',
    }) as Array<Record<(typeof CSV_COLUMNS)[number], string>>;
    expect(Object.keys(rows[0]!)).toEqual([...CSV_COLUMNS]);
    // 3 phases × every metric, plus the new error class that is not a metric
    expect(rows).toHaveLength(3 * METRIC_NAMES.length + 1);
    const row = (s: string, p: string, m: string) =>
      rows.find((r) => r.scenario === s && r.phase === p && r.metric === m);
    expect(row('api', 'c10', 'p99')).toMatchObject({
      unit: 'us',
      value: '1300',
      baseline: '1000',
      delta: '0.3',
      result: 'regression',
      p_value: '0.004',
    });
    // a band says what it is instead of getting a formula's quote mark (issue 21)
    expect(row('api', 'c10', 'rps')).toMatchObject({
      unit: 'per-second',
      value: '500',
      band: 'within -10%',
      result: 'pass',
    });
    // not sampled: empty, never a zero (fds where /proc cannot be read; delivery outside WebSocket)
    expect(row('api', 'c10', 'fds')).toMatchObject({ value: '', result: '' });
    expect(row('api', 'c10', 'delivery')).toMatchObject({ value: '', result: '' });
    expect(row('api', 'c10', 'p90')).toMatchObject({ value: '1000', baseline: '', result: '' });
    expect(row('api', 'n2k', 'HTTP 503')).toMatchObject({
      value: '4',
      result: 'regression',
      reason: 'new error class <HTTP 503> & "more"',
    });
    expect(row('new', 'c1', 'p99')).toMatchObject({ baseline: '', result: 'no-baseline' });
    expect(row('api', 'n2k', 'p50')).toMatchObject({
      result: 'inconclusive',
      p_value: '0.2',
      reason: 'not confirmed after 7 more trials: p 0.2 > 0.01 over 12 trials',
    });
  });
});

describe('renderJunit', () => {
  it.each([
    ['a & b', 'a &amp; b'],
    ['<x attr="1">', '&lt;x attr=&quot;1&quot;&gt;'],
    ["it's", 'it&apos;s'],
    ['bell\u0007 and nul\u0000', 'bell and nul'],
    ['µs ✓ 𝄞', 'µs ✓ 𝄞'],
  ])('escapes %j', (text, xml) => expect(xmlEscape(text)).toBe(xml));

  it('is well-formed XML with a suite per scenario and the right counts', () => {
    const xml = renderJunit(gate);
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (n) => ['testsuite', 'testcase'].includes(n),
    }).parse(xml) as {
      testsuites: {
        tests: string;
        failures: string;
        skipped: string;
        testsuite: Array<{
          name: string;
          tests: string;
          failures: string;
          skipped: string;
          testcase: Array<{ name: string; failure?: { message: string }; skipped?: unknown }>;
        }>;
      };
    };
    expect(doc.testsuites).toMatchObject({ tests: '5', failures: '2', skipped: '1' });
    const [api, fresh] = doc.testsuites.testsuite;
    expect(api).toMatchObject({ name: 'perf-gate.api', tests: '4', failures: '2', skipped: '0' });
    expect(api!.testcase.map((c) => c.name)).toEqual(['c10 p99', 'c10 rps', 'n2k p50', 'n2k HTTP 503']);
    expect(api!.testcase[0]!.failure!.message).toBe(
      'p99: 1.3ms vs baseline 1ms, +30.0% (band +10% and +200µs, p = 0.0040)',
    );
    expect(api!.testcase[3]!.failure!.message).toContain('new error class <HTTP 503> & "more"');
    // an inconclusive row is neither a failure nor skipped: it passes, and says why in its output
    const inconclusive = api!.testcase[2] as { failure?: unknown; skipped?: unknown; 'system-out'?: string };
    expect(inconclusive.failure).toBeUndefined();
    expect(inconclusive.skipped).toBeUndefined();
    expect(inconclusive['system-out']).toMatch(/^inconclusive: p50: .*not confirmed after 7 more trials/);
    expect(fresh).toMatchObject({ name: 'perf-gate.new', tests: '1', skipped: '1' });
  });

  it('gives a phase nothing was compared on one passing case (sweep and update runs)', () => {
    const xml = renderJunit(
      resultsFile([{ name: 'api', scenarioHash: 'h', phases: [phase('c1', {}), phase('c2', {})] }], [], {
        mode: 'sweep',
      }),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<testsuites name="perf-gate sweep" tests="2" failures="0" errors="0" skipped="0"');
    expect(xml).toContain('measured, not compared: 100.0 req/s, p50 1ms, p99 1ms, 0 failures');
  });

  // the parser a CI consumer uses (junitparser, PyPI; publish-unit-test-result-action reads JUnit with it)
  // scripts/provision-test-tools.sh installs it into .tools/python
  const env = { ...process.env, PYTHONPATH: resolve('.tools/python') };
  const python = spawnSync('python3', ['-c', 'import junitparser'], { encoding: 'utf8', env });
  const junitparser = python.status === 0;
  it.runIf(junitparser || process.env.CI)('reads back with junitparser', () => {
    expect(junitparser, 'junitparser is needed in CI: bash scripts/provision-test-tools.sh').toBe(true);
    const script = `
import json, sys
from junitparser import JUnitXml, Failure, Skipped
xml = JUnitXml.fromstring(sys.stdin.read())
out = []
for suite in xml:
    for case in suite:
        kinds = [type(r).__name__ for r in case.result]
        out.append([suite.name, case.classname, case.name, kinds, [r.message for r in case.result]])
print(json.dumps({"tests": xml.tests, "failures": xml.failures, "skipped": xml.skipped, "cases": out}))
`;
    const r = spawnSync('python3', ['-c', script], { input: renderJunit(gate), encoding: 'utf8', env });
    expect(r.stderr).toBe('');
    const parsed = JSON.parse(r.stdout) as { tests: number; failures: number; skipped: number; cases: unknown[][] };
    expect(parsed).toMatchObject({ tests: 5, failures: 2, skipped: 1 });
    expect(parsed.cases[0]).toEqual([
      'perf-gate.api',
      'perf-gate.api.c10',
      'c10 p99',
      ['Failure'],
      ['p99: 1.3ms vs baseline 1ms, +30.0% (band +10% and +200µs, p = 0.0040)'],
    ]);
    expect(parsed.cases[4]).toEqual(['perf-gate.new', 'perf-gate.new.c1', 'c1 p99', ['Skipped'], ['no baseline']]);
  });
});

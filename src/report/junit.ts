// Pure: results as JUnit XML for CI systems that show test reports: a test suite per scenario, a test
// case per gated row (phase and metric). A regression is a failure; a row without a baseline, or a
// phase whose measurement is invalid, is skipped; a phase nothing was compared on is one passing case.
import { formatMetricValue } from '../compare/compare.js';
import type { Comparison, PhaseResult, ResultsFile } from '../results/types.js';

/** Text made safe for XML 1.0 content and attributes (characters XML cannot carry are dropped). */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function phaseMs(p: PhaseResult | undefined): number {
  return p ? p.trials.reduce((a, t) => a + t.durationMs, 0) : 0;
}

function describe(c: Comparison): string {
  const value = (v: number | null) => (v === null ? 'none' : formatMetricValue(c.metric, v));
  const change = c.delta === null ? '' : `, ${c.delta >= 0 ? '+' : ''}${(c.delta * 100).toFixed(1)}%`;
  const p = c.pValue === undefined ? '' : `, p = ${c.pValue.toPrecision(2)}`;
  return `${c.metric}: ${value(c.current)} vs baseline ${value(c.baseline)}${change} (band ${c.band}${p})${c.reason ? `: ${c.reason}` : ''}`;
}

interface Case {
  xml: string;
  failure: boolean;
  skipped: boolean;
  ms: number;
}

function comparisonCase(c: Comparison, phase: PhaseResult | undefined): Case {
  const head = `<testcase${attrs({ name: `${c.phase} ${c.metric}`, classname: `perf-gate.${c.scenario}.${c.phase}`, time: seconds(phaseMs(phase)) })}`;
  const text = describe(c);
  if (c.result === 'regression') {
    return {
      xml: `${head}>\n      <failure${attrs({ message: text, type: 'regression' })}>${xmlEscape(text)}</failure>\n    </testcase>`,
      failure: true,
      skipped: false,
      ms: phaseMs(phase),
    };
  }
  if (c.result === 'no-baseline' || c.result === 'invalid') {
    const why = c.result === 'no-baseline' ? 'no baseline' : `invalid measurement: ${c.reason ?? ''}`.trim();
    return {
      xml: `${head}>\n      <skipped${attrs({ message: why })}/>\n    </testcase>`,
      failure: false,
      skipped: true,
      ms: phaseMs(phase),
    };
  }
  return {
    xml: `${head}>\n      <system-out>${xmlEscape(`${c.result}: ${text}`)}</system-out>\n    </testcase>`,
    failure: false,
    skipped: false,
    ms: phaseMs(phase),
  };
}

function measuredCase(scenario: string, p: PhaseResult): Case {
  const m = p.merged;
  const text = `measured, not compared: ${m.rps.toFixed(1)} req/s, p50 ${formatMetricValue('p50', m.latency.p50)}, p99 ${formatMetricValue('p99', m.latency.p99)}, ${m.failures} failures${p.flags.length ? `; ${p.flags.join('; ')}` : ''}`;
  return {
    xml: `<testcase${attrs({ name: p.name, classname: `perf-gate.${scenario}.${p.name}`, time: seconds(phaseMs(p)) })}>\n      <system-out>${xmlEscape(text)}</system-out>\n    </testcase>`,
    failure: false,
    skipped: false,
    ms: phaseMs(p),
  };
}

export function renderJunit(results: ResultsFile): string {
  const suites: string[] = [];
  const total = { tests: 0, failures: 0, skipped: 0, ms: 0 };
  const names = [...new Set([...results.scenarios.map((s) => s.name), ...results.comparisons.map((c) => c.scenario)])];
  for (const name of names) {
    const scenario = results.scenarios.find((s) => s.name === name);
    const phases = scenario?.phases ?? [];
    const rows = results.comparisons.filter((c) => c.scenario === name);
    const cases = [
      ...rows.map((c) =>
        comparisonCase(
          c,
          phases.find((p) => p.name === c.phase),
        ),
      ),
      ...phases.filter((p) => !rows.some((c) => c.phase === p.name)).map((p) => measuredCase(name, p)),
    ];
    const failures = cases.filter((c) => c.failure).length;
    const skipped = cases.filter((c) => c.skipped).length;
    const ms = phases.reduce((a, p) => a + (p.request === undefined ? phaseMs(p) : 0), 0);
    total.tests += cases.length;
    total.failures += failures;
    total.skipped += skipped;
    total.ms += ms;
    suites.push(
      `  <testsuite${attrs({ name: `perf-gate.${name}`, tests: cases.length, failures, errors: 0, skipped, time: seconds(ms), timestamp: results.startedAt.replace(/Z$/, '') })}>\n${cases.map((c) => `    ${c.xml}`).join('\n')}\n  </testsuite>`,
    );
  }
  const root = attrs({
    name: `perf-gate ${results.mode}`,
    tests: total.tests,
    failures: total.failures,
    errors: 0,
    skipped: total.skipped,
    time: seconds(total.ms),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${root}>\n${suites.join('\n')}\n</testsuites>\n`;
}

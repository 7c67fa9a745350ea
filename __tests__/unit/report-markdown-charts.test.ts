// The Markdown report's charts (src/report/markdown.ts): the latency chart and the latency distribution.
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown.js';
import type { ScenarioResult } from '../../src/results/types.js';
import { createHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';
import { latency, phase, scenario, cmp, results } from './report-harness.js';

describe('renderMarkdown: latency chart', () => {
  const mermaidBlocks = (md: string) => md.match(/```mermaid\n[\s\S]*?\n```/g) ?? [];

  it.each<[string, ScenarioResult['baselineLatency'], boolean]>([
    ['with a baseline for the phase: bars and a line', { c10: latency({ p50: 500, p90: 1000, p99: 1500 }) }, true],
    ['without any baseline: a line only', undefined, false],
    ['with a baseline for another phase only: a line only', { r500: latency() }, false],
  ])('%s', (_label, baselineLatency, bar) => {
    const md = renderMarkdown(
      results({
        scenarios: [scenario('api', [phase('c10')], baselineLatency ? { baselineLatency } : {})],
      }),
    );
    const blocks = mermaidBlocks(md);
    expect(blocks).toHaveLength(1);
    const block = blocks[0] as string;
    expect(block.split('\n')[1]).toBe('xychart-beta');
    expect(block).toContain('x-axis ["p50", "p90", "p99", "p99.9"]');
    // current: p50 800µs, p90 1.2ms, p99 2ms, p99.9 3ms
    expect(block).toContain('  line [0.8, 1.2, 2, 3]');
    if (bar) {
      expect(block).toContain('  bar [0.5, 1, 1.5, 3]');
      expect(block).toContain('(bars: baseline, line: current)');
    } else {
      expect(block).not.toMatch(/^\s*bar\b/m);
      expect(block).not.toContain('bars: baseline');
    }
  });

  it('one chart per scenario × phase, inside a collapsed details section', () => {
    const md = renderMarkdown(
      results({
        scenarios: [
          scenario('api', [phase('c10'), phase('r500')], { baselineLatency: { c10: latency() } }),
          scenario('search', [phase('c10')]),
        ],
      }),
    );
    const blocks = mermaidBlocks(md);
    expect(blocks.map((b) => /title "([^"]*)"/.exec(b)?.[1])).toEqual([
      'api/c10 latency, ms (bars: baseline, line: current)',
      'api/r500 latency, ms',
      'search/c10 latency, ms',
    ]);
    const details = md.indexOf('<details><summary>Latency percentiles chart</summary>');
    expect(details).toBeGreaterThan(0);
    expect(md.indexOf('```mermaid')).toBeGreaterThan(details);
  });
});

describe('renderMarkdown: latency distribution', () => {
  it('text bars per phase from the merged histogram, with p10/p25/p75', () => {
    const h = createHistogram();
    for (let i = 0; i < 90; i++) recordUs(h, 800);
    for (let i = 0; i < 10; i++) recordUs(h, 20_000);
    const encodedHist = encodeHistogram(h);
    h.destroy();
    const md = renderMarkdown(
      results({
        scenarios: [
          scenario('api', [phase('c10', { merged: { histogram: encodedHist, latency: latency({ count: 100 }) } })]),
        ],
        comparisons: [cmp()],
      }),
    );
    const section = md.slice(md.indexOf('<summary>Latency distribution per phase</summary>'));
    expect(section).toContain('**api/c10**: 100 responses, p50 800µs · p10 300µs · p25 500µs · p75 1ms');
    expect(section).toMatch(/≤ 1\.05ms +█{30} +90\.0% {2}90/);
    expect(section).toMatch(/≤ 20ms +█{3} +10\.0% {2}10/);
  });
});

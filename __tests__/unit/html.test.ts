// The HTML report (report/html.ts, the `html` output): one self-contained page, nothing loaded from
// anywhere, every text from the results file escaped, bounded in size.
import { describe, expect, it } from 'vitest';
import { MAX_PHASES, renderHtml, sharedBuckets } from '../../src/report/html.js';
import { html as htmlOutput } from '../../src/outputs/html.js';
import type { PhaseResult, ResultsFile } from '../../src/results/types.js';
import { baselineOf, comparison, evenHistogram, phase, resultsFile, usage } from './fixtures.js';

/** An encoded histogram of `n` values spread evenly from `from` to `to` µs. */
const histogram = (from: number, to: number, n = 1000) => evenHistogram(from, to, n);

function phaseWith(name: string, hist: string, over: Partial<PhaseResult['merged']> = {}): PhaseResult {
  const p = phase(name, { latency: { p50: 1500, p90: 1900, p99: 1990, max: 2000, count: 1000 } });
  return { ...p, merged: { ...p.merged, histogram: hist, ...over } };
}

const rects = (html: string) => html.match(/<rect /g)?.length ?? 0;

/** An A/B run of one phase: `head` measured, `base` beside it, one passing row. */
function abResults(head: PhaseResult, base: PhaseResult): ResultsFile {
  return {
    ...resultsFile([{ name: 'api', scenarioHash: 'h', phases: [head] }], [comparison({ result: 'pass' })]),
    mode: 'ab',
    ab: {
      baseRef: 'main',
      baseCommit: 'b'.repeat(40),
      headCommit: 'h'.repeat(40),
      pairs: 6,
      order: 'random',
      baseImages: {},
      base: [{ name: 'api', scenarioHash: 'h', phases: [base] }],
      notes: [],
    },
  };
}

describe('renderHtml', () => {
  const gate = resultsFile(
    [{ name: 'api', scenarioHash: 'h', phases: [phaseWith('c10', histogram(1000, 2000))] }],
    [comparison({ metric: 'p50', baseline: 1000, current: 1500, delta: 0.5, result: 'regression', pValue: 0.004 })],
  );

  it('a page that loads nothing: a doctype, a policy forbidding every fetch, no script, no URL', () => {
    const html = renderHtml(gate);
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).not.toMatch(/<script|https?:\/\/|\bsrc=|<link|@import|url\(/i);
    expect(html).toContain('<title>perf-gate: regression (1 regression)</title>');
  });

  it('gate: the row, and the phase with one distribution of 24 bars (the baseline is not in the file)', () => {
    const html = renderHtml(gate);
    expect(html).toMatch(
      /<tr class="regression"><td class="text">api<\/td><td class="text">c10<\/td><td class="text">p50<\/td>/,
    );
    expect(html).toContain('❌ regression (p=0.004)');
    expect(rects(html)).toBe(24);
    expect(html).toContain('<td class="text">this run</td>');
    expect(html).not.toContain('class="legend"');
  });

  it('A/B: head and base overlaid in the same buckets, both rows of percentiles, base CPU a response', () => {
    const head = phaseWith('c10', histogram(1500, 3000), {
      resources: { api: usage({ cpuMeanPct: 60, samples: 5 }) },
      rps: 1000,
      responses: 1000,
      failures: 0,
    });
    const base = phaseWith('c10', histogram(1000, 2000), {
      resources: { api: usage({ cpuMeanPct: 40, samples: 5 }) },
      rps: 1000,
      responses: 1000,
      failures: 0,
    });
    const html = renderHtml(abResults(head, base));
    expect(rects(html)).toBe(48);
    expect(html).toContain('class="legend"');
    expect(html).toContain('<td class="text">head</td>');
    expect(html).toContain('<td class="text">base</td>');
    // 0.6 cores at 1000 a second: 600µs a response, base 400µs
    expect(html).toMatch(/<td class="text">api<\/td><td>60\.0%<\/td><td>[^<]+<\/td><td>600µs<\/td><td>400µs<\/td>/);
  });

  it('every text from the file is escaped: names, reasons, services, errors', () => {
    const evil = '<script>alert(1)</script>"\'&';
    const p = phaseWith('c10', histogram(1000, 2000), {
      resources: { [evil]: usage({ samples: 5 }) },
      errors: { [evil]: 3 },
    });
    const html = renderHtml(
      resultsFile(
        [{ name: evil, scenarioHash: 'h', phases: [p] }],
        [comparison({ scenario: evil, result: 'invalid', reason: evil })],
      ),
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
  });

  it(`at most ${MAX_PHASES} phase sections; the rest counted`, () => {
    const phases = Array.from({ length: MAX_PHASES + 50 }, (_, i) => phaseWith(`p${i}`, ''));
    const html = renderHtml(resultsFile([{ name: 'api', scenarioHash: 'h', phases }], []));
    expect(html.match(/<h2>api \/ p\d+<\/h2>/g)).toHaveLength(MAX_PHASES);
    expect(html).toContain('… and 50 more phases (see the results file).');
    expect(html).toContain('No successful responses.');
  });
});

describe('renderHtml: a sweep', () => {
  /** an open-loop level of the ladder: `rps` served, `p99` µs */
  const level = (rate: number, rps: number, p99: number): PhaseResult => {
    const p = phaseWith(`r${rate}`, histogram(1000, p99));
    return {
      ...p,
      kind: 'open',
      params: { rate },
      merged: { ...p.merged, rps, latency: { ...p.merged.latency, p99 } },
    };
  };
  const swept: ResultsFile = {
    ...resultsFile(
      [
        {
          name: 'work<b>',
          scenarioHash: 'h',
          phases: [level(100, 100, 2000), level(200, 199, 2500), level(400, 250, 90_000), level(800, 251, 400_000)],
        },
      ],
      [],
    ),
    mode: 'sweep',
  };

  it("the sweep's page leads with each scenario's curve: throughput and p99 against the level, the knee marked", () => {
    const html = htmlOutput.render(swept, {} as never);
    expect(html).toContain('<h2>sweep: work&lt;b&gt;</h2>');
    expect(html).toContain(
      '<p>Knee at 400 offered req/s: beyond it throughput grows by less than 10% while p99 keeps growing (250 req/s, p99 90ms).</p>',
    );
    expect(html.match(/<svg role="img" aria-label="(throughput|p99 latency) against offered req\/s"/g)).toHaveLength(2);
    // four points a line, the knee's level marked on each
    expect(html.match(/<circle /g)).toHaveLength(8);
    expect(html.match(/stroke-dasharray/g)).toHaveLength(2);
    expect(html).toContain('<title>400 offered req/s: 90ms</title>');
    // a sweep compares nothing: no comparison table
    expect(html).not.toContain('<h2>Comparison</h2>');
    expect(html).not.toMatch(/<script|https?:\/\//i);
  });

  it(`bounded: at most 200 levels a curve and ${MAX_PHASES} swept scenarios; the rest counted`, () => {
    const long: ResultsFile = {
      ...swept,
      scenarios: Array.from({ length: MAX_PHASES + 3 }, (_, i) => ({
        name: `w${i}`,
        scenarioHash: 'h',
        phases: i === 0 ? Array.from({ length: 250 }, (_, k) => level(k + 1, k + 1, 1000 + k)) : [level(1, 1, 1000)],
      })),
    };
    const html = htmlOutput.render(long, {} as never);
    expect(html.match(/<h2>sweep: /g)).toHaveLength(MAX_PHASES);
    expect(html).toContain('… and 3 more swept scenarios (see the results file).');
    expect(html).toContain('… and 50 more levels (see the results file).');
    const first = html.slice(html.indexOf('<h2>sweep: w0</h2>'), html.indexOf('<h2>sweep: w1</h2>'));
    expect(first.match(/<circle /g)).toHaveLength(400);
  });

  it('no knee: said, and nothing marked; a gate run has no curve', () => {
    const growing: ResultsFile = {
      ...swept,
      scenarios: [{ name: 'w', scenarioHash: 'h', phases: [level(100, 100, 2000), level(200, 200, 2100)] }],
    };
    const html = htmlOutput.render(growing, {} as never);
    expect(html).toContain('<p>No knee: throughput kept growing by 10% or more per level (or p99 did not grow).</p>');
    expect(html).not.toContain('stroke-dasharray');
    expect(htmlOutput.render({ ...swept, mode: 'gate' }, {} as never)).not.toContain('<h2>sweep:');
  });
});

describe('sharedBuckets', () => {
  it('one set of log-spaced edges over both ranges; every value counted once', () => {
    const { edges, counts } = sharedBuckets([histogram(1000, 2000, 500), histogram(1500, 3000, 300)], 10);
    expect(edges).toHaveLength(10);
    for (let i = 1; i < edges.length; i++) expect(edges[i]).toBeGreaterThan(edges[i - 1] as number);
    expect(counts.map((c) => c.reduce((a, b) => a + b, 0))).toEqual([500, 300]);
    // the slower side has nothing in the first bucket
    expect(counts[1]?.[0]).toBe(0);
  });

  it('nothing recorded: no buckets', () => {
    expect(sharedBuckets(['', undefined])).toEqual({ edges: [], counts: [] });
  });
});

describe('renderHtml: latency over time within the trials (issue 51)', () => {
  const withTimelines = (p: PhaseResult, timelines: Array<PhaseResult['trials'][number]['timeline']>): PhaseResult => ({
    ...p,
    trials: timelines.map((timeline, i) => ({
      ...(p.trials[0] as PhaseResult['trials'][number]),
      trial: i + 1,
      ...(timeline ? { timeline } : {}),
    })),
  });
  const tl = (p99: number[], count = p99.map(() => 10)) => ({ windowMs: 200, count, p50: p99.map((v) => v / 2), p99 });
  const svgOf = (html: string, side: string) =>
    new RegExp(`<svg role="img" aria-label="latency over time, ${side}"[^]*?</svg>`).exec(html)?.[0];

  it('gate: one chart of this run, each trial in turn, p99 solid and p50 faint, an empty window breaking the line', () => {
    const p = withTimelines(phaseWith('c10', histogram(1000, 2000)), [
      tl([1000, 1200, 1100]),
      tl([900, 5000, 1000], [10, 0, 10]),
    ]);
    const html = renderHtml(
      resultsFile([{ name: 'api', scenarioHash: 'h', phases: [p] }], [comparison({ result: 'pass' })]),
    );
    const svg = svgOf(html, 'this run') as string;
    expect(svg).toContain(
      'this run: p99 (solid) and p50 (faint) in 200 ms windows, 2 of 2 trials, each within 1/16 (top: 1.2ms)',
    );
    // trial 1: a line each for p50 and p99; trial 2: its empty middle window splits each into two points
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<circle /g)).toHaveLength(4);
    expect(svg.match(/>trial \d<\/text>/g)).toEqual(['>trial 1</text>', '>trial 2</text>']);
    expect(svgOf(html, 'base')).toBeUndefined();
  });

  it('A/B: one chart a side, in its colour', () => {
    const head = withTimelines(phaseWith('c10', histogram(1500, 3000)), [tl([1500, 1600])]);
    const base = withTimelines(phaseWith('c10', histogram(1000, 2000)), [tl([1000, 1100])]);
    const html = renderHtml(abResults(head, base));
    expect(svgOf(html, 'head')).toContain('stroke="#0969da"');
    expect(svgOf(html, 'base')).toContain('stroke="#bc4c00"');
  });

  it('no trial kept a timeline (a file before it, runner replicas): no chart', () => {
    const p = withTimelines(phaseWith('c10', histogram(1000, 2000)), [undefined, undefined]);
    const html = renderHtml(resultsFile([{ name: 'api', scenarioHash: 'h', phases: [p] }], []));
    expect(html).not.toContain('latency over time');
  });

  it('bounded: trials past 1,200 points are left out, and the title says how many were drawn', () => {
    const p = withTimelines(
      phaseWith('c10', histogram(1000, 2000)),
      Array.from({ length: 30 }, () => tl(Array.from({ length: 60 }, () => 1000))),
    );
    const svg = svgOf(
      renderHtml(resultsFile([{ name: 'api', scenarioHash: 'h', phases: [p] }], [])),
      'this run',
    ) as string;
    expect(svg).toContain('20 of 30 trials');
    expect(svg.match(/<polyline /g)).toHaveLength(40);
  });
});

describe('renderHtml: percentiles with the trials’ spread', () => {
  it("each percentile over the merged trials, and under it the lowest and highest trial's own", () => {
    const p = phase('c10', { latency: { p50: 1500, p90: 1900, p99: 2400, max: 3000, count: 3000 } }, [
      { latency: { p50: 1400, p90: 1800, p99: 2000, max: 2500, count: 1000 } },
      { latency: { p50: 1500, p90: 1900, p99: 2400, max: 3000, count: 1000 } },
      { latency: { p50: 1600, p90: 2000, p99: 2900, max: 2900, count: 1000 } },
    ]);
    const html = renderHtml(resultsFile([{ name: 'api', scenarioHash: 'h', phases: [p] }], []));
    expect(html).toContain(
      '<tr><td class="text">this run</td><td>1.5ms<br><span class="meta">1.4ms–1.6ms</span></td><td>1.9ms<br><span class="meta">1.8ms–2ms</span></td><td>2.4ms<br><span class="meta">2ms–2.9ms</span></td><td>3ms<br><span class="meta">2.5ms–3ms</span></td>',
    );
    // one trial: no spread to show
    const one = phase('c10', { latency: { p50: 1500, p90: 1900, p99: 2400, max: 3000, count: 1000 } });
    expect(renderHtml(resultsFile([{ name: 'api', scenarioHash: 'h', phases: [one] }], []))).toContain(
      '<td class="text">this run</td><td>1.5ms</td>',
    );
  });
});

describe('renderHtml: a gate or update run beside its baseline', () => {
  it("the committed baseline's distribution, percentiles and CPU drawn beside this run's", () => {
    const now = phaseWith('c10', histogram(1500, 3000), { resources: { api: usage({ cpuMeanPct: 60, samples: 5 }) } });
    const before = phaseWith('c10', histogram(1000, 2000), {
      resources: { api: usage({ cpuMeanPct: 40, samples: 5 }) },
    });
    const html = renderHtml({
      ...resultsFile([{ name: 'api', scenarioHash: 'h', phases: [now] }], [comparison({ result: 'pass' })]),
      baseline: [{ name: 'api', scenarioHash: 'h', phases: [before] }],
    });
    expect(rects(html)).toBe(48);
    expect(html).toContain('</span>this run<span style="background:#bc4c00"></span>baseline</p>');
    expect(html).toContain('<td class="text">this run</td>');
    expect(html).toContain('<td class="text">baseline</td>');
    expect(html).toContain('<th>baseline: CPU a response</th>');
    expect(html).not.toContain('>head<');
  });

  it('the gate judge keeps the baselines it compared with in the results; a scenario without one has none', async () => {
    const { gate } = await import('../../src/modes/gate.js');
    const p = phaseWith('c10', histogram(1000, 2000));
    const results = resultsFile(
      [
        { name: 'api', scenarioHash: 'h', phases: [p] },
        { name: 'new', scenarioHash: 'n', phases: [p] },
      ],
      [],
    );
    const judged = gate.judge({
      results,
      scenarios: [],
      baselines: new Map([['api', baselineOf('api', 'h', [p])]]),
    });
    expect(judged.baseline).toEqual([{ name: 'api', scenarioHash: 'h', phases: [p] }]);
    expect(gate.judge({ results, scenarios: [], baselines: new Map() }).baseline).toBeUndefined();
  });
});

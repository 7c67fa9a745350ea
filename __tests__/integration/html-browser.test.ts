// The HTML report in a real browser (Debian's chromium, driven by puppeteer-core): it opens with no
// console error and no request but the page itself, and its charts render: the distribution's bars
// have height, and a screenshot of the chart holds both sides' colours. With CI set, a missing
// chromium is a failure (scripts/provision-test-tools.sh installs it).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { HISTORY_SCHEMA, type HistoryEntry } from '../../src/history/history.js';
import { historyShifts } from '../../src/history/shifts.js';
import { renderHistoryHtml } from '../../src/report/history-html.js';
import { renderHtml } from '../../src/report/html.js';
import type { PhaseResult, ResultsFile } from '../../src/results/types.js';
import { comparison, evenHistogram, phase, resultsFile, usage } from '../unit/fixtures.js';
import { tempDir } from './helpers.js';

function chromium(): string | undefined {
  const given = process.env.PERF_GATE_CHROMIUM;
  if (given) return given;
  for (const name of ['chromium', 'chromium-browser']) {
    const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return undefined;
}
const browser = chromium();

const histogram = (from: number, to: number, n = 2000) => evenHistogram(from, to, n);

function phaseWith(hist: string, cpu: number): PhaseResult {
  const p = phase('c10', { latency: { p50: 1500, p90: 1900, p99: 1990, max: 3000, count: 2000 } });
  // five trials, each's latency over 50 windows of 200 ms (a bump in the middle)
  const timeline = {
    windowMs: 200,
    count: Array.from({ length: 50 }, () => 40),
    p50: Array.from({ length: 50 }, (_, i) => (i > 20 && i < 30 ? 2500 : 1500)),
    p99: Array.from({ length: 50 }, (_, i) => (i > 20 && i < 30 ? 4000 : 2000)),
  };
  return {
    ...p,
    trials: [1, 2, 3, 4, 5].map((trial) => ({ ...(p.trials[0] as PhaseResult['trials'][number]), trial, timeline })),
    merged: {
      ...p.merged,
      histogram: hist,
      rps: 1000,
      responses: 2000,
      failures: 0,
      resources: { api: usage({ cpuMeanPct: cpu, samples: 5 }) },
    },
  };
}

/** An A/B run whose head is slower: both sides' distributions on one chart. */
const ab: ResultsFile = {
  ...resultsFile(
    [{ name: 'api <b>', scenarioHash: 'h', phases: [phaseWith(histogram(1500, 3000), 60)] }],
    [
      comparison({
        scenario: 'api <b>',
        metric: 'p50',
        current: 2250,
        baseline: 1500,
        delta: 0.5,
        result: 'regression',
      }),
    ],
  ),
  mode: 'ab',
  ab: {
    baseRef: 'main',
    baseCommit: 'b'.repeat(40),
    headCommit: 'h'.repeat(40),
    pairs: 6,
    order: 'random',
    baseImages: {},
    base: [{ name: 'api <b>', scenarioHash: 'h', phases: [phaseWith(histogram(1000, 2000), 40)] }],
    notes: [],
  },
};

/** Pixels of the image within `tolerance` of the colour `#rrggbb`. */
function pixelsOf(png: PNG, hex: string, tolerance = 24): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const d = Math.abs(png.data[i]! - r) + Math.abs(png.data[i + 1]! - g) + Math.abs(png.data[i + 2]! - b);
    if (d <= tolerance) n++;
  }
  return n;
}

/** `file` opened in chromium: the page, and every console problem and request it made. */
async function opened(file: string) {
  const b = await puppeteer.launch({
    executablePath: browser as string,
    headless: true,
    // (CI runs as root, where chromium's sandbox refuses to start)
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await b.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${String(err)}`));
  page.on('request', (r) => requests.push(r.url()));
  await page.setViewport({ width: 1000, height: 900 });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { b, page, problems, requests };
}

describe('the HTML report in a browser', () => {
  it('a browser is here (CI installs Debian’s chromium)', () => {
    if (process.env.CI)
      expect(browser, 'chromium not found: scripts/provision-test-tools.sh installs it').toBeDefined();
  });

  it.skipIf(!browser)(
    'opens with no console error and no request but its own; its chart renders',
    async () => {
      const dir = tempDir('perf-gate-html-');
      const file = join(dir, 'report.html');
      writeFileSync(file, renderHtml(ab));
      const { b, page, problems, requests } = await opened(file);
      try {
        expect(problems).toEqual([]);
        expect(requests).toEqual([pathToFileURL(file).href]);
        // the scenario's name is text, not markup
        expect(await page.$$eval('h2', (hs) => hs.map((h) => h.textContent))).toEqual(['Comparison', 'api <b> / c10']);
        // 24 buckets a side; the bars that hold values have height
        const heights = await page.$$eval('svg rect', (rs) => rs.map((r) => r.getBoundingClientRect().height));
        expect(heights).toHaveLength(48);
        expect(heights.filter((h) => h > 1).length).toBeGreaterThan(10);
        const chart = await page.$('svg');
        const shot = PNG.sync.read(Buffer.from((await chart!.screenshot({ type: 'png' })) as Uint8Array));
        // head's bars (blue) and base's (orange) are both on the image
        expect(pixelsOf(shot, '#0969da')).toBeGreaterThan(200);
        expect(pixelsOf(shot, '#bc4c00')).toBeGreaterThan(200);
        // latency over time: a chart a side, its lines drawn in the side's colour
        const timelines = await page.$$('svg[aria-label^="latency over time"]');
        expect(timelines).toHaveLength(2);
        const [headLine, baseLine] = await Promise.all(
          timelines.map(async (t) => PNG.sync.read(Buffer.from((await t.screenshot({ type: 'png' })) as Uint8Array))),
        );
        expect(pixelsOf(headLine as PNG, '#0969da')).toBeGreaterThan(300);
        expect(pixelsOf(baseLine as PNG, '#bc4c00')).toBeGreaterThan(300);
      } finally {
        await b.close();
      }
    },
    120_000,
  );

  it.skipIf(!browser)(
    'the trend page opens the same way; its lines and the shift mark render',
    async () => {
      const dir = tempDir('perf-gate-trend-');
      const file = join(dir, 'index.html');
      const entries: HistoryEntry[] = Array.from({ length: 20 }, (_, i) => ({
        schema: HISTORY_SCHEMA,
        time: `2026-11-01T${String(i).padStart(2, '0')}:00:00Z`,
        commit: `c${i}`,
        ref: null,
        runId: `r${i}`,
        mode: 'update',
        phases: {
          'api/c8': {
            rps: 1000,
            p50: 2000,
            p99: 5000 * (1 + 0.02 * Math.sin(i * 2.1)) * (i >= 10 ? 1.3 : 1),
            errors: 0,
          },
        },
      }));
      writeFileSync(file, renderHistoryHtml(entries, historyShifts(entries)));
      const { b, page, problems, requests } = await opened(file);
      try {
        expect(problems).toEqual([]);
        expect(requests).toEqual([pathToFileURL(file).href]);
        // each chart's line spans the width, and the shift's mark stands in the p99 chart
        const widths = await page.$$eval('svg polyline', (ls) => ls.map((l) => l.getBoundingClientRect().width));
        expect(widths).toHaveLength(3);
        for (const w of widths) expect(w).toBeGreaterThan(500);
        const mark = await page.$$eval('svg line[stroke-dasharray]', (ls) =>
          ls.map((l) => l.getBoundingClientRect().height),
        );
        expect(mark).toHaveLength(1);
        expect(mark[0]).toBeGreaterThan(50);
      } finally {
        await b.close();
      }
    },
    120_000,
  );
});

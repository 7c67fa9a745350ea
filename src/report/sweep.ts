// Pure: the sweep report — a table per scenario over the ladder, the knee, and Mermaid xycharts of
// throughput and p99 against the level.
import { markdownTable } from 'markdown-table';
import { findKnee, type SweepPoint } from '../compare/knee.js';
import type { ResultsFile, ScenarioResult } from '../results/types.js';
import { formatUs } from '../common/units.js';
import { escapeMarkdown as esc, mermaidText } from './escape.js';
import { yAxis } from './mermaid.js';

/** The ladder's steps (a mix's per-entry results are in the JSON, not in the curve). */
function steps(s: ScenarioResult): ScenarioResult['phases'] {
  return s.phases.filter((p) => p.request === undefined);
}

function pointsOf(s: ScenarioResult): SweepPoint[] {
  return steps(s).map((p) => ({
    level: (p.kind === 'open' ? p.params.rate : p.params.connections) ?? 0,
    rps: p.merged.rps,
    p99: p.merged.latency.p99,
  }));
}

/** What the ladder varies: connections (closed loop) or the offered arrival rate (open loop). */
function levelName(s: ScenarioResult): string {
  return s.phases.some((p) => p.kind === 'open') ? 'offered req/s' : 'connections';
}

function xychart(title: string, xAxis: string, levels: number[], values: number[], axis: string): string {
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${mermaidText(title)}"`,
    `  x-axis "${mermaidText(xAxis)}" [${levels.join(', ')}]`,
    yAxis(axis, values),
    `  line [${values.join(', ')}]`,
    '```',
  ].join('\n');
}

/** A scenario's sweep as data: what its ladder varies, each level's throughput and p99, and the knee
 * (the index of its level), for the Markdown report and the HTML page alike. */
export function sweepCurve(s: ScenarioResult): { unit: string; points: SweepPoint[]; knee: number | undefined } {
  const points = pointsOf(s);
  return { unit: levelName(s), points, knee: findKnee(points) };
}

export function renderSweepSection(s: ScenarioResult): string {
  const { points, knee, unit } = sweepCurve(s);
  const rows = steps(s).map((p, i) => [
    String(points[i]?.level ?? ''),
    p.merged.rps.toFixed(0),
    formatUs(p.merged.latency.p50),
    formatUs(p.merged.latency.p90),
    formatUs(p.merged.latency.p99),
    String(p.merged.failures + Object.values(p.merged.errors).reduce((a, b) => a + b, 0)),
    i === knee ? '◀ knee' : '',
  ]);
  const kneeLine =
    knee === undefined
      ? 'No knee: throughput kept growing by 10% or more per level (or p99 did not grow).'
      : `**Knee at ${points[knee]?.level} ${unit}**: beyond it throughput grows by less than 10% while p99 keeps growing (${points[knee]?.rps.toFixed(0)} req/s, p99 ${formatUs(points[knee]?.p99 ?? 0)}).`;
  const levels = points.map((p) => p.level);
  return [
    `#### ${esc(s.name)}`,
    '',
    kneeLine,
    '',
    markdownTable([[unit, 'rps', 'p50', 'p90', 'p99', 'errors', ''], ...rows]),
    '',
    xychart(
      `${s.name}: throughput`,
      unit,
      levels,
      points.map((p) => Math.round(p.rps)),
      'req/s',
    ),
    '',
    xychart(
      `${s.name}: p99 latency`,
      unit,
      levels,
      points.map((p) => Math.round(p.p99 / 10) / 100),
      'ms',
    ),
  ].join('\n');
}

export function renderSweep(results: ResultsFile, marker: string): string {
  return [
    marker,
    '### 📈 perf-gate sweep',
    '',
    ...(results.unswept?.length
      ? [
          `> ⚠️ No sweep ladder (\`scenarios[].sweep\`) in ${results.unswept.map((n) => `**${esc(n)}**`).join(', ')}: ${results.scenarios.length ? 'left out' : 'nothing was swept'}.`,
          '',
        ]
      : []),
    ...results.scenarios.map(renderSweepSection),
    '',
    `<sub>perf-gate · run ${esc(results.runId)} · sweep · ${esc(results.finishedAt)}</sub>`,
    '',
  ].join('\n');
}

// Pure: the run as one self-contained HTML page (issue 51's report people can look at): the verdict and
// every comparison row, then per phase the latency distribution of this run against the other side's
// (base in A/B; in a gate or update run the committed baseline it was compared with, as recorded),
// each side's latency over time within its trials, its percentiles, its errors by kind and each SUT service's resources and CPU per response. No
// script, no network: styles inline, charts as inline SVG, and a Content-Security-Policy that forbids
// loading anything. Every text from the results file (a fork's artifact, the config, the service) is
// escaped; the page is bounded (at most MAX_PHASES phase sections).
import { formatMetricValue, overallVerdict, sortForReport } from '../compare/compare.js';
import { formatBytes, formatUs } from '../common/units.js';
import { cpuPerSuccess, errorCount, RUNNER_KEY } from '../metrics/registry.js';
import type { Comparison, PhaseResult, ResultsFile, ScenarioResult } from '../results/types.js';
import { bucketsOver, rangeOf } from './distribution.js';
import { RESULT_LABEL as ICON } from './markdown.js';
import { bounded } from './escape.js';
import { sweepCurve } from './sweep.js';

/** The most phase sections drawn; the rest are counted. */
export const MAX_PHASES = 200;
/** The most comparison rows listed (the rest are counted). */
export const MAX_ROWS = 2000;
/** Bars in a distribution. */
const BUCKETS = 24;

/** Text made inert in HTML (element content and quoted attribute values alike), and bounded. */
export function escapeHtml(text: string): string {
  return bounded(String(text))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
const e = escapeHtml;

export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

export const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1f2328}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}h3{font-size:1rem;margin:1.5rem 0 .5rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:right}
th:first-child,td:first-child,td.text{text-align:left}.regression{background:#ffebe9}.inconclusive{background:#fff8c5}
.accepted{background:#ddf4ff}.improvement{background:#dafbe1}.meta{color:#59636e}svg text{font:11px system-ui,sans-serif}
.legend span{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 1rem;vertical-align:middle}`;

/** A page's start, shared by every page perf-gate writes: the policy that loads nothing, the styles,
 * the title and its heading. */
export function pageHead(title: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${e(title)}</h1>`,
  ].join('\n');
}

/** The page; `levels`: the run swept a ladder (its mode's report is each level's figures), and each
 * scenario's curve comes first. */
export function renderHtml(results: ResultsFile, opts: { levels?: boolean } = {}): string {
  const verdict = overallVerdict(results.comparisons);
  const count = (r: Comparison['result']) => results.comparisons.filter((c) => c.result === r).length;
  const counts = (['regression', 'inconclusive', 'accepted', 'improvement', 'invalid'] as const)
    .filter((r) => count(r) > 0)
    .map((r) => `${count(r)} ${r}`)
    .join(', ');
  const title = `perf-gate: ${verdict}${counts ? ` (${counts})` : ''}`;
  // what each phase is drawn beside: base's side in A/B, the committed baseline in a gate or update
  const base = results.ab?.base ?? results.baseline;
  const names: SideNames = results.ab ? ['head', 'base'] : ['this run', 'baseline'];
  const phases = results.scenarios.flatMap((s) =>
    s.phases.map((p) => ({ scenario: s.name, p, other: otherPhase(base, s.name, p.name) })),
  );
  const drawn = phases.slice(0, MAX_PHASES);
  return [
    pageHead(title),
    `<p class="meta">${e(meta(results))}</p>`,
    opts.levels ? sweepSections(results.scenarios) : comparisonsTable(results.comparisons),
    ...drawn.map(({ scenario, p, other }) => phaseSection(scenario, p, other, names)),
    phases.length > drawn.length
      ? `<p class="meta">… and ${phases.length - drawn.length} more phases (see the results file).</p>`
      : '',
    '</body></html>',
    '',
  ].join('\n');
}

function meta(r: ResultsFile): string {
  const commit = r.provenance.commit ? r.provenance.commit.slice(0, 12) : 'workspace';
  const machine = `${r.provenance.runner.cpuModel}, ${r.provenance.runner.cores} cores`;
  const ab = r.ab ? `, against base ${r.ab.baseCommit.slice(0, 12)} (${r.ab.baseRef}) in the same run` : '';
  return `mode ${r.mode}, commit ${commit}${ab}; started ${r.startedAt}; ${machine}`;
}

function otherPhase(base: readonly ScenarioResult[] | undefined, scenario: string, phase: string) {
  return base?.find((s) => s.name === scenario)?.phases.find((p) => p.name === phase);
}

function comparisonsTable(comparisons: readonly Comparison[]): string {
  if (comparisons.length === 0) return '<p class="meta">Nothing was compared.</p>';
  const sorted = sortForReport(comparisons);
  const rows = sorted.slice(0, MAX_ROWS).map((c) => {
    const pct = (v: number) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}%`;
    const delta =
      c.delta === null ? '' : `${pct(c.delta)}${c.interval ? ` [${pct(c.interval[0])}, ${pct(c.interval[1])}]` : ''}`;
    const why = c.accepted ? `by ${c.accepted.by}: ${c.accepted.reason}` : (c.reason ?? '');
    return `<tr class="${c.result}"><td class="text">${e(c.scenario)}</td><td class="text">${e(c.phase)}</td><td class="text">${e(c.metric)}</td><td>${c.baseline === null ? '—' : e(formatMetricValue(c.metric, c.baseline))}</td><td>${e(formatMetricValue(c.metric, c.current))}</td><td>${e(delta)}</td><td class="text">${e(c.band)}</td><td class="text">${e(ICON[c.result] ?? c.result)}${c.pValue !== undefined ? ` (p=${e(String(c.pValue))})` : ''}${why ? `: ${e(why)}` : ''}</td></tr>`;
  });
  return [
    '<h2>Comparison</h2>',
    '<table><thead><tr><th>scenario</th><th>phase</th><th>metric</th><th>baseline</th><th>current</th><th>Δ</th><th>band</th><th>result</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
    sorted.length > MAX_ROWS
      ? `<p class="meta">… and ${sorted.length - MAX_ROWS} more rows (see the results file).</p>`
      : '',
  ].join('\n');
}

/** The two sides a phase is drawn as: this run's (head) and what it was compared with. */
type SideNames = readonly [string, string];

function phaseSection(scenario: string, p: PhaseResult, other: PhaseResult | undefined, names: SideNames): string {
  const m = p.merged;
  // the merged trials' figure, and under it the range of the trials' own (the spread a verdict weighs)
  const latency = (ph: PhaseResult | undefined, k: 'p50' | 'p90' | 'p99' | 'max') => {
    if (!ph || ph.merged.latency.count === 0) return '—';
    const own = ph.trials.filter((t) => t.latency.count > 0).map((t) => t.latency[k]);
    const range =
      own.length >= 2
        ? `<br><span class="meta">${e(formatUs(Math.min(...own)))}–${e(formatUs(Math.max(...own)))}</span>`
        : '';
    return `${e(formatUs(ph.merged.latency[k]))}${range}`;
  };
  const ks = ['p50', 'p90', 'p99', 'max'] as const;
  const sides = other ? [[names[0], p] as const, [names[1], other] as const] : [[names[0], p] as const];
  const percentiles = [
    `<table><thead><tr><th></th>${ks.map((k) => `<th>${k}</th>`).join('')}<th>responses</th><th>req/s</th></tr></thead><tbody>`,
    ...sides.map(
      ([name, ph]) =>
        `<tr><td class="text">${name}</td>${ks.map((k) => `<td>${latency(ph, k)}</td>`).join('')}<td>${ph.merged.responses}</td><td>${Math.round(ph.merged.rps)}</td></tr>`,
    ),
    '</tbody></table>',
  ].join('');
  return [
    `<h2>${e(scenario)} / ${e(p.name)}</h2>`,
    `<p class="meta">${p.trials.length} trial${p.trials.length === 1 ? '' : 's'} (each percentile over them merged; under it, the lowest and highest trial's own)${p.flags.length ? `; ${e(p.flags.join('; '))}` : ''}</p>`,
    distributionSvg(m.histogram, other?.merged.histogram, names),
    // (a side without a timeline adds no line: a page of files before it is as it was)
    ...sides.map(([name, ph], i) => timelineSvg(name, ph, COLOURS[i] as string)).filter((svg) => svg !== ''),
    percentiles,
    errorsTable(p),
    resourcesTable(p, other, names[1]),
  ].join('\n');
}

/** Log-spaced buckets over every histogram's range, each histogram's counts in them. */
export function sharedBuckets(
  encoded: readonly (string | undefined)[],
  n = BUCKETS,
): { edges: number[]; counts: number[][] } {
  const ranges = encoded.map((x) => (x ? rangeOf(x) : undefined)).filter((r) => r !== undefined);
  if (ranges.length === 0) return { edges: [], counts: [] };
  const min = Math.min(...ranges.map((r) => r.min));
  const max = Math.max(min + 1, ...ranges.map((r) => r.max));
  const edges = Array.from({ length: n }, (_, i) => min * (max / min) ** ((i + 1) / n));
  edges[n - 1] = max;
  return { edges, counts: encoded.map((x) => bucketsOver(x ?? '', edges).map((b) => b.count)) };
}

const COLOURS = ['#0969da', '#bc4c00'];

/** The latency distribution as bars, one colour a side (this run's first), shares of each side's total. */
function distributionSvg(head: string, base: string | undefined, names: SideNames): string {
  const { edges, counts } = sharedBuckets(base === undefined ? [head] : [head, base]);
  if (edges.length === 0) return '<p class="meta">No successful responses.</p>';
  const W = 720;
  const H = 180;
  const pad = 24;
  const shares = counts.map((c) => {
    const total = c.reduce((a, b) => a + b, 0) || 1;
    return c.map((v) => v / total);
  });
  const most = Math.max(...shares.flat(), 1e-9);
  const slot = (W - 2 * pad) / edges.length;
  const bar = slot / shares.length;
  const rects = shares.flatMap((side, s) =>
    side.map((v, i) => {
      const h = (v / most) * (H - 2 * pad);
      return `<rect x="${(pad + i * slot + s * bar).toFixed(1)}" y="${(H - pad - h).toFixed(1)}" width="${Math.max(1, bar - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="${COLOURS[s]}"><title>≤ ${e(formatUs(edges[i] as number))}: ${(v * 100).toFixed(1)}%</title></rect>`;
    }),
  );
  const ticks = [0, Math.floor(edges.length / 2), edges.length - 1].map(
    (i) =>
      `<text x="${(pad + (i + 1) * slot).toFixed(1)}" y="${H - 6}" text-anchor="end">${e(formatUs(edges[i] as number))}</text>`,
  );
  const legend =
    base === undefined
      ? ''
      : `<p class="legend"><span style="background:${COLOURS[0]}"></span>${e(names[0])}<span style="background:${COLOURS[1]}"></span>${e(names[1])}</p>`;
  return `<svg role="img" aria-label="latency distribution" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><line x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}" stroke="#8c959f"/>${rects.join('')}${ticks.join('')}</svg>${legend}`;
}

/** The most levels a sweep's curve draws (the rest are in the results file). */
const MAX_LEVELS = 200;

/** Each swept scenario's curve, at most MAX_PHASES of them; the rest counted. */
function sweepSections(scenarios: readonly ScenarioResult[]): string {
  const drawn = scenarios.slice(0, MAX_PHASES);
  return [
    ...drawn.map(sweepSection),
    scenarios.length > drawn.length
      ? `<p class="meta">… and ${scenarios.length - drawn.length} more swept scenarios (see the results file).</p>`
      : '',
  ].join('\n');
}

/** A swept scenario: the knee, and throughput and p99 against the level, the knee marked. */
function sweepSection(s: ScenarioResult): string {
  const curve = sweepCurve(s);
  const { unit, knee } = curve;
  const points = curve.points.slice(0, MAX_LEVELS);
  const at = knee === undefined ? undefined : curve.points[knee];
  const kneeLine = at
    ? `Knee at ${at.level} ${unit}: beyond it throughput grows by less than 10% while p99 keeps growing (${at.rps.toFixed(0)} req/s, p99 ${formatUs(at.p99)}).`
    : 'No knee: throughput kept growing by 10% or more per level (or p99 did not grow).';
  const levels = points.map((p) => p.level);
  const drawnKnee = knee !== undefined && knee < points.length ? knee : undefined;
  return [
    `<h2>sweep: ${e(s.name)}</h2>`,
    `<p>${e(kneeLine)}</p>`,
    lineSvg(
      'throughput',
      unit,
      levels,
      points.map((p) => p.rps),
      (v) => `${Math.round(v)} req/s`,
      drawnKnee,
    ),
    lineSvg(
      'p99 latency',
      unit,
      levels,
      points.map((p) => p.p99),
      formatUs,
      drawnKnee,
    ),
    curve.points.length > points.length
      ? `<p class="meta">… and ${curve.points.length - points.length} more levels (see the results file).</p>`
      : '',
  ].join('\n');
}

/** The most points a timeline chart draws (every trial's windows together); beyond, trials are left out. */
const MAX_TIMELINE_POINTS = 1200;

/**
 * A side's latency over time within its trials (issue 51): each trial's windows in turn along the x
 * axis (a gap between trials), p99 drawn solid and p50 faint, an empty window breaking the line.
 * Nothing where no trial kept a timeline (files before it, runner replicas).
 */
export function timelineSvg(side: string, p: PhaseResult, colour: string): string {
  const drawn: Array<{ trial: number; windowMs: number; p50: number[]; p99: number[]; count: number[] }> = [];
  let points = 0;
  for (const t of p.trials) {
    const tl = t.timeline;
    if (!tl || tl.count.length === 0) continue;
    if (points + tl.count.length > MAX_TIMELINE_POINTS) break;
    drawn.push({ trial: t.trial, ...tl });
    points += tl.count.length;
  }
  if (drawn.length === 0) return '';
  const W = 720;
  const H = 180;
  const pad = 36;
  const gap = 2;
  let most = 1;
  for (const d of drawn) d.p99.forEach((v, i) => (d.count[i] ?? 0) > 0 && v > most && (most = v));
  const slots = points + gap * (drawn.length - 1);
  const x = (slot: number) => pad + (slots <= 1 ? 0 : (slot * (W - 2 * pad)) / (slots - 1));
  const y = (v: number) => H - pad - (v / most) * (H - 2 * pad);
  const lines: string[] = [];
  const labels: string[] = [];
  let at = 0;
  for (const d of drawn) {
    for (const [key, width, opacity] of [
      ['p50', 1, 0.45],
      ['p99', 2, 1],
    ] as const) {
      // runs of windows with responses, each one polyline
      let run: string[] = [];
      const flush = () => {
        if (run.length > 1)
          lines.push(
            `<polyline points="${run.join(' ')}" fill="none" stroke="${colour}" stroke-width="${width}" stroke-opacity="${opacity}"/>`,
          );
        else if (run.length === 1) {
          const [cx, cy] = (run[0] as string).split(',');
          lines.push(`<circle cx="${cx}" cy="${cy}" r="1.5" fill="${colour}" fill-opacity="${opacity}"/>`);
        }
        run = [];
      };
      d[key].forEach((v, i) => {
        if ((d.count[i] ?? 0) === 0) flush();
        else run.push(`${x(at + i).toFixed(1)},${y(v).toFixed(1)}`);
      });
      flush();
    }
    labels.push(`<text x="${x(at).toFixed(1)}" y="${H - 12}">trial ${d.trial}</text>`);
    at += d.count.length + gap;
  }
  const windows = [...new Set(drawn.map((d) => d.windowMs))].map((ms) => `${ms} ms`).join(', ');
  const title = `${side}: p99 (solid) and p50 (faint) in ${windows} windows, ${drawn.length} of ${p.trials.length} trial${p.trials.length === 1 ? '' : 's'}, each within 1/16 (top: ${formatUs(most)})`;
  return `<svg role="img" aria-label="${e(`latency over time, ${side}`)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><text x="${pad}" y="14">${e(title)}</text><line x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}" stroke="#8c959f"/>${lines.join('')}${labels.join('')}</svg>`;
}

/** One line over the ladder's levels (evenly spaced), each point labelled, the knee's level marked. */
function lineSvg(
  label: string,
  unit: string,
  levels: readonly number[],
  values: readonly number[],
  format: (v: number) => string,
  knee: number | undefined,
): string {
  if (levels.length === 0) return '';
  const W = 720;
  const H = 180;
  const pad = 36;
  let most = 1e-9;
  for (const v of values) if (v > most) most = v;
  const x = (i: number) => pad + (levels.length === 1 ? 0 : (i * (W - 2 * pad)) / (levels.length - 1));
  const y = (v: number) => H - pad - (v / most) * (H - 2 * pad);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const dots = values.map(
    (v, i) =>
      `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${COLOURS[0]}"><title>${e(String(levels[i]))} ${e(unit)}: ${e(format(v))}</title></circle>`,
  );
  const ticks = levels.map(
    (l, i) => `<text x="${x(i).toFixed(1)}" y="${H - 12}" text-anchor="middle">${e(String(l))}</text>`,
  );
  const mark =
    knee === undefined
      ? ''
      : `<line x1="${x(knee).toFixed(1)}" y1="${pad / 2}" x2="${x(knee).toFixed(1)}" y2="${H - pad}" stroke="${COLOURS[1]}" stroke-dasharray="4 3"/>`;
  return `<svg role="img" aria-label="${e(`${label} against ${unit}`)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><text x="${pad}" y="14">${e(`${label} (top: ${format(most)})`)}</text><line x1="${pad}" y1="${H - pad}" x2="${W - pad}" y2="${H - pad}" stroke="#8c959f"/>${mark}<polyline points="${line}" fill="none" stroke="${COLOURS[0]}" stroke-width="2"/>${dots.join('')}${ticks.join('')}</svg>`;
}

function errorsTable(p: PhaseResult): string {
  const m = p.merged;
  const kinds = [
    ...Object.entries(m.statusCodes)
      .filter(([code]) => !/^[23]/.test(code))
      .map(([code, n]) => [`HTTP ${code}`, n] as const),
    ...Object.entries(m.errors).map(([kind, n]) => [kind, n] as const),
    ...Object.entries(m.checks ?? {}).map(([check, n]) => [check, n] as const),
  ];
  if (errorCount(m) === 0 && kinds.length === 0) return '<p class="meta">No errors.</p>';
  return `<table><thead><tr><th>error</th><th>count</th></tr></thead><tbody>${kinds
    .slice(0, 50)
    .map(([k, n]) => `<tr><td class="text">${e(k)}</td><td>${n}</td></tr>`)
    .join('')}</tbody></table>`;
}

function resourcesTable(p: PhaseResult, other: PhaseResult | undefined, otherName: string): string {
  const services = Object.entries(p.merged.resources).filter(([s]) => s !== RUNNER_KEY);
  if (services.length === 0) return '';
  const perResponse = (ph: PhaseResult | undefined, s: string) => {
    const u = ph?.merged.resources[s];
    return u && u.samples > 0 ? formatUs(cpuPerSuccess([u], ph.merged)) : '—';
  };
  return `<table><thead><tr><th>service</th><th>CPU mean</th><th>memory peak</th><th>CPU a response</th>${other ? `<th>${e(otherName)}: CPU a response</th>` : ''}</tr></thead><tbody>${services
    .slice(0, 50)
    .map(
      ([s, u]) =>
        `<tr><td class="text">${e(s)}</td><td>${u.cpuMeanPct.toFixed(1)}%</td><td>${e(formatBytes(u.memoryPeakBytes))}</td><td>${e(perResponse(p, s))}</td>${other ? `<td>${e(perResponse(other, s))}</td>` : ''}</tr>`,
    )
    .join('')}</tbody></table>`;
}

// Pure: results as CSV (RFC 4180) for dashboards and spreadsheets: one row per scenario, phase and
// metric, every measured metric whether gated or not, with the comparison beside it where there is one.
import { metricValue, unmeasured } from '../compare/metrics.js';
import { METRIC_NAMES, type MetricName, isMetricName, metricOf } from '../metrics/registry.js';
import { isPercentileMetric } from '../metrics/percentile.js';
import type { Comparison, ResultsFile } from '../results/types.js';

export const CSV_COLUMNS = [
  'scenario',
  'phase',
  'metric',
  'unit',
  'value',
  'baseline',
  'delta',
  'band',
  'result',
  'p_value',
  'reason',
  'detectable',
] as const;

/** A row's unit: its metric's, and a count for a row named after an error class. */
function unitOf(metric: string): string {
  return metricOf(isMetricName(metric) ? metric : 'errors').csvUnit;
}

/** A field quoted when it must be (comma, quote, line break), quotes doubled. Leading =, +, - or @
 * in text (never in numbers) gets a quote mark so a spreadsheet does not run it as a formula. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function row(fields: Array<string | number | null | undefined>): string {
  return fields.map(csvField).join(',');
}

/** A band as CSV text: "+25% and +1ms" would read as a formula (and get a quote mark), so a relative
 * band says what it is: "within +25% and +1ms". Limits ("≤ 1%") are as they are. */
function bandText(band: string): string {
  return /^[+-]/.test(band) ? `within ${band}` : band;
}

function comparisonFields(c: Comparison | undefined): Array<string | number | null | undefined> {
  if (!c) return [null, null, null, null, null, null, null];
  return [c.baseline, c.delta, bandText(c.band), c.result, c.pValue, c.reason, c.detectable];
}

export function renderCsv(results: ResultsFile): string {
  const lines = [CSV_COLUMNS.join(',')];
  const byKey = new Map<string, Comparison>();
  for (const c of results.comparisons) byKey.set(`${c.scenario}\0${c.phase}\0${c.metric}`, c);
  const used = new Set<string>();
  for (const s of results.scenarios) {
    for (const p of s.phases) {
      // the fixed metrics, then the percentiles the thresholds gated beyond them (p97.5)
      const percentiles = Object.keys(p.merged.latency.percentiles ?? {}).filter(isPercentileMetric);
      for (const metric of [...METRIC_NAMES, ...percentiles] as MetricName[]) {
        const key = `${s.name}\0${p.name}\0${metric}`;
        const c = byKey.get(key);
        if (c) used.add(key);
        lines.push(
          row([
            s.name,
            p.name,
            metric,
            unitOf(metric),
            // not sampled (fds where /proc cannot be read, delivery outside WebSocket phases, latency
            // without a success): an empty field, never a zero
            unmeasured(p.merged, metric) === undefined ? metricValue(p.merged, metric) : null,
            ...comparisonFields(c),
          ]),
        );
      }
    }
  }
  // rows that are not a measured metric (a new error class) or whose phase did not run
  for (const [key, c] of byKey) {
    if (used.has(key)) continue;
    lines.push(row([c.scenario, c.phase, c.metric, unitOf(c.metric), c.current, ...comparisonFields(c)]));
  }
  return `${lines.join('\r\n')}\r\n`;
}

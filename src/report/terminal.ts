// Pure: the results table printed in the terminal after a run.

import type { MergedPhase, ScenarioResult } from '../results/types.js';
import { formatCount, formatLatency } from '../common/units.js';
import { textTable } from './text-table.js';
import { RESOURCE_COLUMNS } from './columns.js';
import { failedStatuses, percentileCell, percentilesIn } from '../compare/metrics.js';
import { failureKinds } from '../runner-kit/measurement.js';

function errorSummary(m: MergedPhase): string {
  const parts = [
    ...failedStatuses(m).map(([code, n]) => `${n}×${code}`),
    ...Object.entries(failureKinds(m)).map(([kind, n]) => `${n}×${kind}`),
  ];
  return parts.length ? parts.join(' ') : '0';
}

export function renderResultsTable(scenarios: readonly ScenarioResult[]): string {
  const rows: string[][] = [];
  const resourceRows: string[][] = [];
  const flags: string[] = [];
  // the percentiles the thresholds gated beyond the fixed columns (p97.5, p99.99): a column each
  const extra = percentilesIn(scenarios.flatMap((s) => s.phases.map((p) => p.merged.latency)));
  for (const s of scenarios) {
    for (const p of s.phases) {
      const m = p.merged;
      rows.push([
        `${s.name}/${p.name}`,
        String(m.trials),
        formatCount(m.responses),
        m.rps.toFixed(m.rps >= 100 ? 0 : 1),
        // nothing measured, or results from before p10/p25/p75 existed: a dash
        ...(['p10', 'p25', 'p50', 'p75', 'p90', 'p99', 'p99.9', 'max'] as const).map((k) =>
          formatLatency(m.latency, k),
        ),
        ...extra.map((k) => percentileCell(m.latency, k)),
        errorSummary(m),
      ]);
      for (const [service, u] of Object.entries(m.resources)) {
        resourceRows.push([`${s.name}/${p.name}`, service, ...RESOURCE_COLUMNS.map((c) => c.cell(u))]);
      }
      for (const f of p.flags) flags.push(`! ${s.name}/${p.name}: ${f}`);
    }
  }
  const out = [
    textTable(
      [
        'scenario/phase',
        'trials',
        'responses',
        'rps',
        'p10',
        'p25',
        'p50',
        'p75',
        'p90',
        'p99',
        'p99.9',
        'max',
        ...extra,
        'errors',
      ],
      rows,
    ),
  ];
  if (resourceRows.length) {
    out.push('', textTable(['scenario/phase', 'container', ...RESOURCE_COLUMNS.map((c) => c.header)], resourceRows));
  }
  if (flags.length) out.push('', ...flags);
  return out.join('\n');
}

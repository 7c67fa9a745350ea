// Pure: the columns every renderer shows of a container's resource usage (the terminal's table and the
// report's "SUT resources"), each cell as its metric shows it (src/metrics/registry.ts).
import { formatBytes } from '../common/units.js';
import { METRICS } from '../metrics/registry.js';
import type { ResourceUsage } from '../stats/resources.js';

export interface Column<T> {
  header: string;
  cell(row: T): string;
}

export const RESOURCE_COLUMNS: ReadonlyArray<Column<ResourceUsage>> = [
  { header: 'cpu mean', cell: (u) => METRICS.cpu.format(u.cpuMeanPct) },
  { header: 'cpu peak', cell: (u) => METRICS.cpu.format(u.cpuPeakPct) },
  { header: 'mem peak', cell: (u) => METRICS.memory.format(u.memoryPeakBytes) },
  { header: 'net rx', cell: (u) => formatBytes(u.rxBytes) },
  { header: 'net tx', cell: (u) => formatBytes(u.txBytes) },
  // not sampled (a remote engine): a dash, never a zero
  { header: 'open fds', cell: (u) => (u.fdsPeak === undefined ? '—' : METRICS.fds.format(u.fdsPeak)) },
];

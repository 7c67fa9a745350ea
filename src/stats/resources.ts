// Pure: turns Docker stats API documents into samples, and samples within a window into usage.

/** A container's resources over a measured window (a trial's, per compose service and the runner). */
export interface ResourceUsage {
  /** CPU %, 100 = one core */
  cpuMeanPct: number;
  cpuPeakPct: number;
  memoryPeakBytes: number;
  rxBytes: number;
  txBytes: number;
  samples: number;
  /** peak open file descriptors; absent where they could not be sampled (a remote engine) */
  fdsPeak?: number;
}

export interface StatsSample {
  /** host clock, ms */
  at: number;
  /** CPU %, 100 = one core; undefined for the first document (no previous reading) */
  cpuPct: number | undefined;
  memoryBytes: number;
  rxBytes: number;
  txBytes: number;
  /** open file descriptors of the container's processes; undefined where they cannot be read */
  fds?: number;
}

interface DockerStats {
  cpu_stats?: {
    cpu_usage?: { total_usage?: number; percpu_usage?: number[] };
    system_cpu_usage?: number;
    online_cpus?: number;
  };
  precpu_stats?: { cpu_usage?: { total_usage?: number }; system_cpu_usage?: number };
  memory_stats?: { usage?: number; stats?: Record<string, number> };
  networks?: Record<string, { rx_bytes?: number; tx_bytes?: number }>;
}

/** CPU % the way `docker stats` computes it; memory without the page cache (cgroup v1 and v2). */
export function sampleFromStats(doc: DockerStats, at: number): StatsSample {
  const cpu = doc.cpu_stats;
  const pre = doc.precpu_stats;
  let cpuPct: number | undefined;
  const total = cpu?.cpu_usage?.total_usage;
  const preTotal = pre?.cpu_usage?.total_usage;
  const system = cpu?.system_cpu_usage;
  const preSystem = pre?.system_cpu_usage;
  if (
    total !== undefined &&
    preTotal !== undefined &&
    system !== undefined &&
    preSystem !== undefined &&
    preSystem > 0
  ) {
    const cpuDelta = total - preTotal;
    const systemDelta = system - preSystem;
    const cores = cpu?.online_cpus ?? cpu?.cpu_usage?.percpu_usage?.length ?? 1;
    if (systemDelta > 0 && cpuDelta >= 0) cpuPct = (cpuDelta / systemDelta) * cores * 100;
  }
  const mem = doc.memory_stats;
  // like `docker stats`: cgroup v1 reports total_inactive_file, v2 inactive_file
  const cache = mem?.stats?.total_inactive_file ?? mem?.stats?.inactive_file ?? 0;
  const memoryBytes = Math.max(0, (mem?.usage ?? 0) - cache);
  let rxBytes = 0;
  let txBytes = 0;
  for (const n of Object.values(doc.networks ?? {})) {
    rxBytes += n.rx_bytes ?? 0;
    txBytes += n.tx_bytes ?? 0;
  }
  return { at, cpuPct, memoryBytes, rxBytes, txBytes };
}

/** Usage over [from, to]: CPU mean/peak and memory peak of the samples inside, network as the
 * difference between the last sample at or before `to` and the last one before `from`. */
export function usageInWindow(samples: readonly StatsSample[], from: number, to: number): ResourceUsage {
  const inside = samples.filter((s) => s.at >= from && s.at <= to);
  const cpus = inside.map((s) => s.cpuPct).filter((v): v is number => v !== undefined);
  const before = [...samples].reverse().find((s) => s.at < from) ?? inside[0];
  const last = [...samples].reverse().find((s) => s.at <= to);
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    cpuMeanPct: cpus.length ? round(cpus.reduce((a, b) => a + b, 0) / cpus.length) : 0,
    cpuPeakPct: cpus.length ? round(Math.max(...cpus)) : 0,
    memoryPeakBytes: inside.length ? Math.max(...inside.map((s) => s.memoryBytes)) : 0,
    rxBytes: before && last ? Math.max(0, last.rxBytes - before.rxBytes) : 0,
    txBytes: before && last ? Math.max(0, last.txBytes - before.txBytes) : 0,
    samples: inside.length,
    ...fdsPeak(inside),
  };
}

/** The peak of the samples' open file descriptors, when every sample has them. */
function fdsPeak(samples: readonly StatsSample[]): { fdsPeak?: number } {
  if (samples.length === 0 || samples.some((s) => s.fds === undefined)) return {};
  return { fdsPeak: Math.max(...samples.map((s) => s.fds as number)) };
}

/** Combines per-trial usage into one per phase: means averaged by samples, peaks and bytes summed/maxed. */
export function combineUsage(usages: readonly ResourceUsage[]): ResourceUsage {
  const samples = usages.reduce((a, u) => a + u.samples, 0);
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    cpuMeanPct: samples ? round(usages.reduce((a, u) => a + u.cpuMeanPct * u.samples, 0) / samples) : 0,
    cpuPeakPct: Math.max(0, ...usages.map((u) => u.cpuPeakPct)),
    memoryPeakBytes: Math.max(0, ...usages.map((u) => u.memoryPeakBytes)),
    rxBytes: usages.reduce((a, u) => a + u.rxBytes, 0),
    txBytes: usages.reduce((a, u) => a + u.txBytes, 0),
    samples,
    ...(usages.length > 0 && usages.every((u) => u.fdsPeak !== undefined)
      ? { fdsPeak: Math.max(...usages.map((u) => u.fdsPeak as number)) }
      : {}),
  };
}

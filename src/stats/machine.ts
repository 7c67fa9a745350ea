// Pure: how busy the machine was during a trial's measured window, beside what perf-gate's own
// containers and process used (issue 33, the noise sentinel's measurement). The kernel's /proc/stat
// counts every CPU's time since boot: busy (user, nice, system, irq, softirq), idle (idle, iowait) and
// steal (time the hypervisor gave another guest). Read at the window's start and end, the busy share
// minus the SUT's and the runner's containers (their docker stats) and perf-gate's own process is what
// other processes took: a CPU hog, a neighbour job, a package install. Steal is a VM's neighbours.

/** Cumulative CPU times of the whole machine, in the kernel's ticks. */
export interface CpuTimes {
  busy: number;
  idle: number;
  steal: number;
  /** CPUs counted (the cpuN lines) */
  cores: number;
}

/** One reading: the machine's CPU times, and perf-gate's own process's CPU time (µs) at that moment. */
export interface MachineReading {
  cpu: CpuTimes;
  selfCpuUs: number;
  /** every Docker container's CPU time together (µs), from the kernel's cgroups where they can be read
   * (containersCpuUs); then the window's containers are taken from it instead of docker stats */
  containersCpuUs?: number;
}

/** A trial window's machine, each in % of one core (100 = one core busy for the whole window). */
export interface MachineUsage {
  /** every process's CPU, perf-gate's included */
  busyPct: number;
  /** taken by the hypervisor for other guests */
  stealPct: number;
  /** what neither the SUT and runner containers nor perf-gate's own process used: other processes */
  othersPct: number;
}

/** The machine's CPU times from /proc/stat's text; undefined when it has no aggregate `cpu` line. */
export function parseProcStat(text: string): CpuTimes | undefined {
  const lines = text.split('\n');
  const total = lines.find((l) => /^cpu\s/.test(l));
  if (!total) return undefined;
  const f = total.trim().split(/\s+/).slice(1).map(Number);
  if (f.length < 4 || f.some((v) => !Number.isFinite(v))) return undefined;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  const cores = lines.filter((l) => /^cpu\d+\s/.test(l)).length || 1;
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal, cores };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * The machine over a window from `start` to `end` (`windowMs` long), given the CPU % of one core its
 * containers used over it (SUT and runner, from docker stats); where both readings have every
 * container's cgroup CPU time, that is taken instead. Undefined when the readings cannot be compared.
 */
export function machineInWindow(
  start: MachineReading,
  end: MachineReading,
  windowMs: number,
  containersPct: number,
): MachineUsage | undefined {
  const busy = end.cpu.busy - start.cpu.busy;
  const idle = end.cpu.idle - start.cpu.idle;
  const steal = end.cpu.steal - start.cpu.steal;
  const ticks = busy + idle + steal;
  if (!(ticks > 0) || busy < 0 || idle < 0 || steal < 0 || !(windowMs > 0)) return undefined;
  const cores = end.cpu.cores;
  const busyPct = (busy / ticks) * cores * 100;
  const selfPct = ((end.selfCpuUs - start.selfCpuUs) / (windowMs * 1000)) * 100;
  // the kernel's own count of the containers' CPU over the same window, when both readings have it:
  // docker stats' samples arrive late on a saturated machine and read a busy window as idle
  const cgroups =
    start.containersCpuUs !== undefined && end.containersCpuUs !== undefined
      ? ((end.containersCpuUs - start.containersCpuUs) / (windowMs * 1000)) * 100
      : undefined;
  const ours = cgroups !== undefined && cgroups >= 0 ? cgroups : containersPct;
  return {
    busyPct: round1(busyPct),
    stealPct: round1((steal / ticks) * cores * 100),
    othersPct: round1(Math.max(0, busyPct - ours - Math.max(0, selfPct))),
  };
}

/** A trial taken on a busy machine (gate.busy): other processes' CPU and steal together at `othersPct`
 * (% of one core) or more. */
export function busyMachine(m: MachineUsage, othersPct: number): boolean {
  return m.othersPct + m.stealPct >= othersPct;
}

/** Where Docker keeps its containers' CPU time: the cgroup v1 `cpuacct` and v2 `cpu.stat` files, for the
 * cgroupfs driver (one parent) and the systemd driver (a scope per container). */
export const CONTAINER_CGROUPS = [
  { dir: '/sys/fs/cgroup/cpuacct/docker', file: 'cpuacct.usage', scopes: false },
  { dir: '/sys/fs/cgroup/docker', file: 'cpu.stat', scopes: false },
  { dir: '/sys/fs/cgroup/cpuacct/system.slice', file: 'cpuacct.usage', scopes: true },
  { dir: '/sys/fs/cgroup/system.slice', file: 'cpu.stat', scopes: true },
] as const;

/** A cgroup's CPU time in µs from its file's text: v1 `cpuacct.usage` (ns), v2 `cpu.stat` (usage_usec). */
export function cgroupCpuUs(file: string, text: string): number | undefined {
  if (file === 'cpuacct.usage') {
    const ns = Number(text.trim());
    return text.trim() !== '' && Number.isFinite(ns) && ns >= 0 ? ns / 1000 : undefined;
  }
  const us = /^usage_usec (\d+)$/m.exec(text)?.[1];
  return us === undefined ? undefined : Number(us);
}

/**
 * Every Docker container's CPU time together (µs), through `read` (a file's text, or undefined) and
 * `list` (a directory's entries): the first of CONTAINER_CGROUPS that reads; undefined where none does.
 */
export function containersCpuUs(
  read: (path: string) => string | undefined,
  list: (dir: string) => readonly string[],
): number | undefined {
  for (const c of CONTAINER_CGROUPS) {
    const dirs = c.scopes
      ? list(c.dir)
          .filter((d) => /^docker-[0-9a-f]+\.scope$/.test(d))
          .map((d) => `${c.dir}/${d}`)
      : [c.dir];
    const values = dirs.map((d) => {
      const text = read(`${d}/${c.file}`);
      return text === undefined ? undefined : cgroupCpuUs(c.file, text);
    });
    if (values.length > 0 && values.every((v) => v !== undefined))
      return values.reduce((a: number, v) => a + (v as number), 0);
  }
  return undefined;
}

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
  /** each Docker container's CPU time (µs) by its id, from the kernel's cgroups where they can be read
   * (containersCpuUs); then the window's containers are taken from them instead of docker stats */
  containersCpuUs?: Readonly<Record<string, number>>;
}

/** A trial window's machine, each in % of one core (100 = one core busy for the whole window). */
export interface MachineUsage {
  /** every process's CPU, perf-gate's included */
  busyPct: number;
  /** taken by the hypervisor for other guests */
  stealPct: number;
  /** what neither the SUT and runner containers nor perf-gate's own process used: other processes */
  othersPct: number;
  /** other processes' CPU and steal together in the busiest slice of the window (SLICE_MS or more, read
   * while it ran), where every slice's containers could be read from their cgroups: a hog that ran for
   * part of the window moves its tail though its mean over the whole window stays low */
  peakPct?: number;
}

/** How often the machine is read during a measured window, and the shortest slice judged on its own
 * (/proc/stat counts in 10 ms ticks: 200 ms on two cores is 40 of them) */
export const SLICE_MS = 250;
export const MIN_SLICE_MS = 200;

/** A reading of the machine and when it was taken (ms, the run's clock). */
export interface TimedReading {
  at: number;
  reading: MachineReading;
}

/**
 * Other processes' CPU plus steal (% of one core) in the busiest slice between consecutive readings
 * (`readings` in time order, the window's start and end included): a slice shorter than MIN_SLICE_MS
 * is joined to the next (the last to the one before). Only slices whose containers the cgroups count
 * are judged: docker stats' mean over the window cannot say which slice the SUT was busy in.
 * Undefined when fewer than two slices can be judged (the window's own mean already says it all).
 */
export function peakInWindow(readings: readonly TimedReading[], own?: ReadonlySet<string>): number | undefined {
  const cuts: number[] = [0];
  for (let i = 1; i < readings.length; i++) {
    if ((readings[i]?.at ?? 0) - (readings[cuts.at(-1) ?? 0]?.at ?? 0) >= MIN_SLICE_MS) cuts.push(i);
  }
  const lastIndex = readings.length - 1;
  if (cuts.at(-1) !== lastIndex) {
    if (cuts.length > 1) cuts[cuts.length - 1] = lastIndex;
    else cuts.push(lastIndex);
  }
  if (cuts.length < 3) return undefined;
  let peak: number | undefined;
  for (let i = 1; i < cuts.length; i++) {
    const a = readings[cuts[i - 1] ?? 0] as TimedReading;
    const b = readings[cuts[i] ?? 0] as TimedReading;
    // no docker stats stand in: a slice the cgroups cannot count is not judged
    const u = machineInWindow(a.reading, b.reading, b.at - a.at, undefined, own);
    if (!u) return undefined;
    peak = Math.max(peak ?? 0, round1(u.othersPct + u.stealPct));
  }
  return peak;
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
 * container's cgroup CPU time, that is taken instead, counting only `own` (the containers the run
 * started) where given. Undefined when the readings cannot be compared.
 */
export function machineInWindow(
  start: MachineReading,
  end: MachineReading,
  windowMs: number,
  containersPct: number | undefined,
  own?: ReadonlySet<string>,
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
  const cgroupsUs = containersInWindow(only(start.containersCpuUs, own), only(end.containersCpuUs, own));
  const ours = cgroupsUs !== undefined ? (cgroupsUs / (windowMs * 1000)) * 100 : containersPct;
  if (ours === undefined) return undefined;
  return {
    busyPct: round1(busyPct),
    stealPct: round1((steal / ticks) * cores * 100),
    othersPct: round1(Math.max(0, busyPct - ours - Math.max(0, selfPct))),
  };
}

/** The cgroup readings of the run's own containers (ids as Docker gives them, full or short), where
 * the run said which: every other container on the machine is another process, not perf-gate's. */
function only(
  all: Readonly<Record<string, number>> | undefined,
  ours: ReadonlySet<string> | undefined,
): Readonly<Record<string, number>> | undefined {
  if (!all || !ours) return all;
  const mine = [...ours];
  const same = (id: string, o: string) => id.startsWith(o) || o.startsWith(id);
  // a container of the run the cgroups do not show (another cgroup namespace, a driver not read):
  // its time cannot be told, so the kernel's count is not used (docker stats stand in)
  if (mine.some((o) => !Object.keys(all).some((id) => same(id, o)))) return undefined;
  return Object.fromEntries(Object.entries(all).filter(([id]) => mine.some((o) => same(id, o))));
}

/**
 * The containers' CPU time between two readings (µs): each container's own difference, one started in
 * between counted from 0. Undefined when it cannot be told: a reading without them, a container gone
 * by the end (its time left with it), or a count that went back.
 */
function containersInWindow(
  start: Readonly<Record<string, number>> | undefined,
  end: Readonly<Record<string, number>> | undefined,
): number | undefined {
  if (!start || !end) return undefined;
  if (Object.keys(start).some((id) => end[id] === undefined)) return undefined;
  let total = 0;
  for (const [id, us] of Object.entries(end)) {
    const d = us - (start[id] ?? 0);
    if (d < 0) return undefined;
    total += d;
  }
  return total;
}

/** Steal (% of one core, over a window) from which a trial is busy whatever `others` says: the
 * hypervisor's time is never the run's own, and spread over a whole window it moves the tail. In the
 * 16-row cell of docs/benchmarks.md (section ze) every run with a false alarm or an inconclusive row
 * had a trial at 24.6-38.1% steal and none above 48% of others and steal in any slice; the passing
 * runs' trials read at most 20.1%. */
export const BUSY_STEAL_PCT = 20;

/** A trial taken on a busy machine (gate.busy): other processes' CPU and steal together at `othersPct`
 * (% of one core) or more, over the whole window or in its busiest slice; or steal alone at
 * BUSY_STEAL_PCT or more (at `othersPct` where that is lower). `stealOnly` (a target's run, whose
 * service reads as another process): steal alone. */
export function busyMachine(m: MachineUsage, othersPct: number, stealOnly = false): boolean {
  const steal = m.stealPct >= Math.min(BUSY_STEAL_PCT, othersPct);
  if (stealOnly) return steal;
  return m.othersPct + m.stealPct >= othersPct || (m.peakPct ?? 0) >= othersPct || steal;
}

/** Where Docker keeps each container's CPU time: a directory per container under a parent (the
 * cgroupfs driver: its id) or a scope unit (the systemd driver: `docker-<id>.scope`), with the cgroup
 * v1 `cpuacct.usage` or v2 `cpu.stat` file. */
export const CONTAINER_CGROUPS = [
  { dir: '/sys/fs/cgroup/cpuacct/docker', file: 'cpuacct.usage', entry: /^([0-9a-f]{12,64})$/ },
  { dir: '/sys/fs/cgroup/docker', file: 'cpu.stat', entry: /^([0-9a-f]{12,64})$/ },
  { dir: '/sys/fs/cgroup/cpuacct/system.slice', file: 'cpuacct.usage', entry: /^docker-([0-9a-f]{12,64})\.scope$/ },
  { dir: '/sys/fs/cgroup/system.slice', file: 'cpu.stat', entry: /^docker-([0-9a-f]{12,64})\.scope$/ },
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
 * Each Docker container's CPU time (µs) by id, through `read` (a file's text, or undefined) and `list`
 * (a directory's entries): from the first layout of CONTAINER_CGROUPS that has a container whose file
 * reads (an empty parent a driver left behind is passed over); undefined where none has. A container
 * whose file does not read (it exited between the listing and the read) is left out.
 */
export function containersCpuUs(
  read: (path: string) => string | undefined,
  list: (dir: string) => readonly string[],
): Record<string, number> | undefined {
  for (const c of CONTAINER_CGROUPS) {
    const found: Record<string, number> = {};
    for (const name of list(c.dir)) {
      const id = c.entry.exec(name)?.[1];
      const text = id === undefined ? undefined : read(`${c.dir}/${name}/${c.file}`);
      const us = text === undefined ? undefined : cgroupCpuUs(c.file, text);
      if (id !== undefined && us !== undefined) found[id] = us;
    }
    if (Object.keys(found).length > 0) return found;
  }
  return undefined;
}

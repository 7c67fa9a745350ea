// The machine during a trial's measured window (stats/machine.ts, the noise sentinel's measurement):
// /proc/stat read at the window's start and end, the SUT's and runner's containers and perf-gate's own
// process taken out, what is left is other processes' CPU.
import { describe, expect, it } from 'vitest';
import { engineIsLocal } from '../../src/run/deps.js';
import { renderMarkdown } from './render-markdown.js';
import type { ScenarioResult } from '../../src/results/types.js';
import { TrialCollector } from '../../src/session/collect.js';
import {
  busyMachine,
  cgroupCpuUs,
  containersCpuUs,
  type MachineReading,
  machineInWindow,
  parseProcStat,
  peakInWindow,
  type TimedReading,
} from '../../src/stats/machine.js';
import { phase, resultsFile, trial } from './fixtures.js';
import { parseConfigText } from '../../src/config/load.js';
import type { Config } from '../../src/config-parts/types.js';
import { projectConfig } from './run-harness.js';
import { createHistogram, encodeHistogram, recordUs } from '../../src/runner-kit/histogram.js';

/** A histogram of one success, as the runner encodes it. */
function oneSuccess(): string {
  const h = createHistogram();
  recordUs(h, 1000);
  const e = encodeHistogram(h);
  h.destroy();
  return e;
}

/** The trials a collector holds of the harness config's one phase (api/c2). */
function trialsOf(c: TrialCollector) {
  const { config } = parseConfigText(projectConfig(), '/ws/perf-gate.yml', (p) => `/ws/${p}`);
  const [api] = c.results((config as Config).scenarios, new Map([['api', 'h']]));
  return api?.phases[0]?.trials ?? [];
}

// this VM's /proc/stat, cut after the per-CPU lines
const PROC_STAT = `cpu  875368 0 281839 3349119 5826 0 40105 160 0 0
cpu0 419901 0 136502 1698996 1194 0 19197 81 0 0
cpu1 455466 0 145337 1650123 4631 0 20908 78 0 0
intr 59648652 0 0 0
ctxt 1234
`;

describe('parseProcStat', () => {
  it.each<[string, string, ReturnType<typeof parseProcStat>]>([
    ['a 2-CPU VM', PROC_STAT, { busy: 875368 + 281839 + 40105, idle: 3349119 + 5826, steal: 160, cores: 2 }],
    ['an old kernel without steal', 'cpu  10 0 5 100\ncpu0 10 0 5 100\n', { busy: 15, idle: 100, steal: 0, cores: 1 }],
    ['no aggregate line', 'cpu0 1 2 3 4\n', undefined],
    ['not numbers', 'cpu  a b c d\n', undefined],
    ['empty', '', undefined],
  ])('%s', (_label, text, want) => expect(parseProcStat(text)).toEqual(want));
});

const reading = (busy: number, idle: number, steal: number, selfCpuUs = 0): MachineReading => ({
  cpu: { busy, idle, steal, cores: 2 },
  selfCpuUs,
});

describe('machineInWindow', () => {
  it.each<[string, MachineReading, MachineReading, number, number, ReturnType<typeof machineInWindow>]>([
    // 1 s on 2 CPUs at 100 ticks a second: 200 ticks
    ['an idle machine', reading(0, 0, 0), reading(0, 200, 0), 1000, 0, { busyPct: 0, stealPct: 0, othersPct: 0 }],
    [
      'the SUT and runner use 80% of a core, nothing else',
      reading(0, 0, 0),
      reading(80, 120, 0),
      1000,
      80,
      { busyPct: 80, stealPct: 0, othersPct: 0 },
    ],
    [
      'a CPU hog beside them: one more core',
      reading(0, 0, 0),
      reading(180, 20, 0),
      1000,
      80,
      { busyPct: 180, stealPct: 0, othersPct: 100 },
    ],
    [
      "perf-gate's own process is not another's (100 ms of its CPU in a 1 s window)",
      reading(0, 0, 0, 0),
      reading(100, 100, 0, 100_000),
      1000,
      80,
      { busyPct: 100, stealPct: 0, othersPct: 10 },
    ],
    [
      'steal: the hypervisor took a fifth of a CPU',
      reading(0, 0, 0),
      reading(60, 120, 20),
      1000,
      60,
      { busyPct: 60, stealPct: 20, othersPct: 0 },
    ],
    [
      'docker stats above the kernel’s busy time: never below 0',
      reading(0, 0, 0),
      reading(50, 150, 0),
      1000,
      90,
      { busyPct: 50, stealPct: 0, othersPct: 0 },
    ],
    ['no ticks between the readings', reading(5, 5, 0), reading(5, 5, 0), 1000, 0, undefined],
    ['a counter that went back', reading(50, 5, 0), reading(40, 100, 0), 1000, 0, undefined],
  ])('%s', (_label, start, end, ms, containers, want) =>
    expect(machineInWindow(start, end, ms, containers)).toEqual(want),
  );
});

describe('machineInWindow with the kernel’s count of the containers (cgroups)', () => {
  const withCgroups = (r: MachineReading, us: Record<string, number>): MachineReading => ({
    ...r,
    containersCpuUs: us,
  });
  it.each<[string, MachineReading, MachineReading, number, ReturnType<typeof machineInWindow>]>([
    [
      // measured here: a CPU-bound SUT, docker stats late and reading a 190%-busy window as idle
      'a saturated SUT: the cgroups say 185% of the 190% busy, docker stats none: others 5%, not 190%',
      withCgroups(reading(0, 0, 0), { sut: 1_000_000, runner: 500_000 }),
      withCgroups(reading(190, 10, 0), { sut: 2_000_000, runner: 1_350_000 }),
      0,
      { busyPct: 190, stealPct: 0, othersPct: 5 },
    ],
    [
      'a hog beside a SUT at 80%: others 100%',
      withCgroups(reading(0, 0, 0), { sut: 0 }),
      withCgroups(reading(180, 20, 0), { sut: 800_000 }),
      80,
      { busyPct: 180, stealPct: 0, othersPct: 100 },
    ],
    [
      'a container started in the window (a swarm replica): all its time is in it',
      withCgroups(reading(0, 0, 0), { sut: 0 }),
      withCgroups(reading(180, 20, 0), { sut: 800_000, replica: 900_000 }),
      0,
      { busyPct: 180, stealPct: 0, othersPct: 10 },
    ],
    [
      'one reading without cgroups: docker stats are used',
      withCgroups(reading(0, 0, 0), { sut: 0 }),
      reading(180, 20, 0),
      80,
      { busyPct: 180, stealPct: 0, othersPct: 100 },
    ],
    [
      'a container gone by the end (its time went with it): docker stats are used, not a busy machine',
      withCgroups(reading(0, 0, 0), { sut: 0, replica: 100 }),
      withCgroups(reading(180, 20, 0), { sut: 800_000 }),
      170,
      { busyPct: 180, stealPct: 0, othersPct: 10 },
    ],
    [
      'a count that went back: docker stats are used',
      withCgroups(reading(0, 0, 0), { sut: 5_000_000 }),
      withCgroups(reading(180, 20, 0), { sut: 1_000_000 }),
      80,
      { busyPct: 180, stealPct: 0, othersPct: 100 },
    ],
  ])('%s', (_label, start, end, containers, want) =>
    expect(machineInWindow(start, end, 1000, containers)).toEqual(want),
  );
});

describe('machineInWindow: only the containers the run started are perf-gate’s own', () => {
  const withCgroups = (r: MachineReading, us: Record<string, number>): MachineReading => ({
    ...r,
    containersCpuUs: us,
  });
  // the SUT at 80% and another project's container at 90% on the same engine
  const start = withCgroups(reading(0, 0, 0), { aaaa1111sut: 0, bbbb2222other: 0 });
  const end = withCgroups(reading(180, 20, 0), { aaaa1111sut: 800_000, bbbb2222other: 900_000 });
  it.each<[string, ReadonlySet<string> | undefined, number]>([
    ['without the run’s ids: every container counted as ours (the other one hidden)', undefined, 10],
    ['the run’s ids (full or short): the other container is the machine’s noise', new Set(['aaaa1111']), 100],
    ['an id the cgroups give in full', new Set(['aaaa1111sut']), 100],
    // the run's container is not among the cgroups read: docker stats (here 0%) stand in, not 0 µs of ours
    ['a container of the run the cgroups do not show', new Set(['aaaa1111', 'cccc3333']), 180],
  ])('%s', (_label, own, others) => {
    expect(machineInWindow(start, end, 1000, 0, own)?.othersPct).toBe(others);
  });
});

describe('cgroupCpuUs and containersCpuUs: each container’s CPU time from the kernel', () => {
  it.each<[string, string, string, number | undefined]>([
    ['v1 cpuacct.usage in ns', 'cpuacct.usage', '5334491191453\n', 5334491191.453],
    ['v2 cpu.stat usage_usec', 'cpu.stat', 'usage_usec 123456\nuser_usec 100000\nsystem_usec 23456\n', 123456],
    ['v2 without usage_usec', 'cpu.stat', 'user_usec 1\n', undefined],
    ['v1 empty', 'cpuacct.usage', '', undefined],
    ['v1 not a number', 'cpuacct.usage', 'max\n', undefined],
  ])('%s', (_label, file, text, want) => expect(cgroupCpuUs(file, text)).toBe(want));

  const fs = (files: Record<string, string>) => ({
    read: (path: string) => files[path],
    list: (dir: string) => [
      ...new Set(
        Object.keys(files)
          .filter((f) => f.startsWith(`${dir}/`))
          .map((f) => f.slice(dir.length + 1).split('/')[0] as string),
      ),
    ],
  });
  const a = 'ab12'.repeat(16);
  const b = 'cd34'.repeat(16);
  it.each<[string, Record<string, string>, Record<string, number> | undefined]>([
    [
      'cgroup v1, cgroupfs driver (the test VM): a directory per container; the parent’s own file is not one',
      {
        [`/sys/fs/cgroup/cpuacct/docker/${a}/cpuacct.usage`]: '2000000\n',
        [`/sys/fs/cgroup/cpuacct/docker/${b}/cpuacct.usage`]: '1000\n',
        '/sys/fs/cgroup/cpuacct/docker/cpuacct.usage': '9999999\n',
      },
      { [a]: 2000, [b]: 1 },
    ],
    ['cgroup v2, cgroupfs driver', { [`/sys/fs/cgroup/docker/${a}/cpu.stat`]: 'usage_usec 7\n' }, { [a]: 7 }],
    [
      'cgroup v2, systemd driver (GitHub’s runners): a scope per container; other units left out',
      {
        [`/sys/fs/cgroup/system.slice/docker-${a}.scope/cpu.stat`]: 'usage_usec 10\n',
        [`/sys/fs/cgroup/system.slice/docker-${b}.scope/cpu.stat`]: 'usage_usec 32\n',
        '/sys/fs/cgroup/system.slice/docker.service/cpu.stat': 'usage_usec 1000\n',
      },
      { [a]: 10, [b]: 32 },
    ],
    [
      'an empty cgroupfs parent left behind on a systemd host is passed over',
      {
        '/sys/fs/cgroup/docker/cpu.stat': 'usage_usec 5\n',
        [`/sys/fs/cgroup/system.slice/docker-${a}.scope/cpu.stat`]: 'usage_usec 10\n',
      },
      { [a]: 10 },
    ],
    [
      'cgroup v1, systemd driver',
      { [`/sys/fs/cgroup/cpuacct/system.slice/docker-${b}.scope/cpuacct.usage`]: '3000\n' },
      { [b]: 3 },
    ],
    ['no containers readable', {}, undefined],
    [
      'a container whose file does not read is left out',
      {
        [`/sys/fs/cgroup/system.slice/docker-${a}.scope/cpu.stat`]: 'garbage',
        [`/sys/fs/cgroup/system.slice/docker-${b}.scope/cpu.stat`]: 'usage_usec 4\n',
      },
      { [b]: 4 },
    ],
  ])('%s', (_label, files, want) => {
    const f = fs(files);
    expect(containersCpuUs(f.read, f.list)).toEqual(want);
  });
});

describe('busyMachine: other processes and steal together against gate.busy’s threshold', () => {
  it.each<[number, number, number | undefined, number, boolean]>([
    [49.9, 0, undefined, 50, false],
    [50, 0, undefined, 50, true],
    [30, 20, undefined, 50, true],
    [0, 0, undefined, 1, false],
    [100, 0, undefined, 150, false],
    // a hog in part of the window: its mean is low, its busiest slice is not
    [25, 0, 100, 50, true],
    [25, 0, 49.9, 50, false],
    // steal spread over the window: busy from 20% of a core whatever `others` is
    [5, 20, 30, 50, true],
    [5, 19.9, 30, 50, false],
    [0, 20, 20, 150, true],
  ])('others %s%% steal %s%% peak %s%% at %s%% → %s', (othersPct, stealPct, peakPct, at, want) =>
    expect(busyMachine({ busyPct: 0, othersPct, stealPct, ...(peakPct !== undefined ? { peakPct } : {}) }, at)).toBe(
      want,
    ),
  );

  // a target's run: its service reads as another process, so steal alone decides
  it.each<[number, number, number | undefined, number, boolean]>([
    [100, 0, 100, 50, false],
    [100, 19.9, 100, 50, false],
    [0, 20, undefined, 50, true],
    [0, 10, undefined, 10, true],
    [0, 9.9, undefined, 10, false],
  ])('steal only: others %s%% steal %s%% peak %s%% at %s%% → %s', (othersPct, stealPct, peakPct, at, want) =>
    expect(
      busyMachine({ busyPct: 0, othersPct, stealPct, ...(peakPct !== undefined ? { peakPct } : {}) }, at, true),
    ).toBe(want),
  );
});

/** Readings through a window of slices on 2 cores at 100 ticks a second: each slice's length (ms), the
 * SUT's and a hog's CPU and steal (% of one core); `cgroups: false` leaves a reading without them. */
function through(
  slices: Array<{ ms: number; sut: number; hog?: number; steal?: number; cgroups?: false }>,
): TimedReading[] {
  let at = 0;
  let busy = 0;
  let idle = 0;
  let steal = 0;
  let sutUs = 0;
  const take = (cgroups: boolean): TimedReading => ({
    at,
    reading: {
      cpu: { busy, idle, steal, cores: 2 },
      selfCpuUs: 0,
      ...(cgroups ? { containersCpuUs: { sut: sutUs } } : {}),
    },
  });
  const out = [take(true)];
  for (const s of slices) {
    const ticks = (s.ms / 1000) * 100 * 2;
    const used = ((s.sut + (s.hog ?? 0)) / 200) * ticks;
    const stolen = ((s.steal ?? 0) / 200) * ticks;
    busy += used;
    steal += stolen;
    idle += ticks - used - stolen;
    sutUs += (s.sut / 100) * s.ms * 1000;
    at += s.ms;
    out.push(take(s.cgroups !== false));
  }
  return out;
}

describe('peakInWindow: other processes and steal in the window’s busiest slice', () => {
  const quiet = { ms: 250, sut: 40 };
  it.each<[string, TimedReading[], number | undefined]>([
    ['a quiet window: 0', through([quiet, quiet, quiet, quiet]), 0],
    // the window's mean: others 25%, under the default threshold; its second quarter: 100%
    [
      'a hog on one core for a quarter of the window: 100%',
      through([quiet, { ms: 250, sut: 40, hog: 100 }, quiet, quiet]),
      100,
    ],
    ['steal counts as others', through([quiet, quiet, { ms: 250, sut: 40, steal: 60 }, quiet]), 60],
    [
      'a tail shorter than 200 ms joins the slice before: 100 ms of hog in 350 ms',
      through([quiet, quiet, { ms: 100, sut: 40, hog: 100 }]),
      28.6,
    ],
    [
      'readings closer than 200 ms are one slice',
      through([{ ms: 100, sut: 40, hog: 100 }, { ms: 150, sut: 40 }, quiet]),
      40,
    ],
    ['only the start and the end: the window’s own reading says it', through([quiet]), undefined],
    [
      'a reading without cgroups: not judged by slice',
      through([quiet, { ms: 250, sut: 40, hog: 100, cgroups: false }, quiet]),
      undefined,
    ],
    ['no readings', [], undefined],
  ])('%s', (_label, readings, want) => expect(peakInWindow(readings)).toBe(want));

  it('the mean of the same window stays under the threshold the peak reaches', () => {
    const r = through([quiet, { ms: 250, sut: 40, hog: 100 }, quiet, quiet]);
    const whole = machineInWindow((r[0] as TimedReading).reading, (r.at(-1) as TimedReading).reading, 1000, 0);
    expect(whole?.othersPct).toBe(25);
  });
});

describe('the collector reads the machine at the measured window’s start and end', () => {
  it('each trial gets its window’s machine; without a reader, none', () => {
    const readings = [reading(0, 0, 0), reading(180, 20, 0), reading(180, 20, 0), reading(200, 200, 0)];
    const c = new TrialCollector(undefined, new Map(), () => readings.shift());
    c.sample('api', { at: 0, cpuPct: 40, memoryBytes: 1, rxBytes: 0, txBytes: 0 });
    c.sample('api', { at: 1000, cpuPct: 40, memoryBytes: 1, rxBytes: 0, txBytes: 0 });
    for (const i of [1, 2]) {
      c.onEvent({ t: 'stage', scenario: 'api', phase: 'c2', trial: i, trials: 2, stage: 'measure' }, 0);
      c.onEvent({ t: 'trial', scenario: 'api', phase: 'c2', measurement: trial({}, i), histogram: oneSuccess() }, 1000);
    }
    const trials = trialsOf(c);
    // trial 1: a hog beside the SUT's 40%; trial 2: 20 of 200 ticks busy on 2 CPUs, less than the SUT
    expect(trials.map((t) => t.machine)).toEqual([
      { busyPct: 180, stealPct: 0, othersPct: 140 },
      { busyPct: 20, stealPct: 0, othersPct: 0 },
    ]);
    const none = new TrialCollector(undefined);
    none.onEvent({ t: 'stage', scenario: 'api', phase: 'c2', trial: 1, trials: 1, stage: 'measure' }, 0);
    none.onEvent(
      { t: 'trial', scenario: 'api', phase: 'c2', measurement: trial({}, 1), histogram: oneSuccess() },
      1000,
    );
    expect(trialsOf(none)[0]?.machine).toBe(undefined);
  });

  it('reads the machine between (tick): a hog in part of the window marks the trial busy by its peak', () => {
    const readings = through([
      { ms: 250, sut: 40 },
      { ms: 250, sut: 40, hog: 100 },
      { ms: 250, sut: 40 },
      { ms: 250, sut: 40 },
    ]).map((t) => t.reading);
    const c = new TrialCollector(undefined, new Map(), () => readings.shift(), { othersPct: 50 });
    c.sample('api', { at: 0, cpuPct: 40, memoryBytes: 1, rxBytes: 0, txBytes: 0 }, 'sut');
    c.tick(0); // before the window: nothing read
    c.onEvent({ t: 'stage', scenario: 'api', phase: 'c2', trial: 1, trials: 1, stage: 'measure' }, 0);
    for (const at of [250, 500, 750]) c.tick(at);
    c.onEvent({ t: 'trial', scenario: 'api', phase: 'c2', measurement: trial({}, 1), histogram: oneSuccess() }, 1000);
    c.tick(1250); // after it: nothing read
    const [t] = trialsOf(c);
    expect(t?.machine).toEqual({ busyPct: 65, stealPct: 0, othersPct: 25, peakPct: 100 });
    expect(t?.busy).toBe(true);
    expect(readings).toEqual([]);
  });

  it('the containers it sampled are the run’s own; another container on the engine is the machine’s noise', () => {
    const cg = (r: MachineReading, us: Record<string, number>): MachineReading => ({ ...r, containersCpuUs: us });
    const readings = [
      cg(reading(0, 0, 0), { sut1: 0, runner1: 0, neighbour: 0 }),
      cg(reading(180, 20, 0), { sut1: 400_000, runner1: 300_000, neighbour: 900_000 }),
    ];
    const c = new TrialCollector(undefined, new Map(), () => readings.shift());
    c.sample('api', { at: 0, cpuPct: 40, memoryBytes: 1, rxBytes: 0, txBytes: 0 }, 'sut1');
    c.sample('perf-gate-runner', { at: 0, cpuPct: 30, memoryBytes: 1, rxBytes: 0, txBytes: 0 }, 'runner1');
    c.onEvent({ t: 'stage', scenario: 'api', phase: 'c2', trial: 1, trials: 1, stage: 'measure' }, 0);
    c.onEvent({ t: 'trial', scenario: 'api', phase: 'c2', measurement: trial({}, 1), histogram: oneSuccess() }, 1000);
    // 180% busy, 70% the run's own containers: the neighbour's 90% and 20% more are others
    expect(trialsOf(c)[0]?.machine).toEqual({ busyPct: 180, stealPct: 0, othersPct: 110 });
  });
});

describe('the report’s environment section', () => {
  it('says what other processes took during the trials, and where the most', () => {
    const p = phase('c10', {}, [{}, {}, {}]);
    p.trials = p.trials.map((t, i) => ({
      ...t,
      machine: { busyPct: 90, stealPct: i, othersPct: [5, 120, 10][i] as number },
    }));
    const scenarios: ScenarioResult[] = [{ name: 'api', scenarioHash: 'h', phases: [p] }];
    const md = renderMarkdown(resultsFile(scenarios, []));
    expect(md).toContain(
      '- machine during trials (other processes than the containers and perf-gate, in % of one core): median 10%, at most 120% (api/c10 trial 1); 1 of 3 trials at 50% or more with steal; steal at most 2%',
    );
    // a target's run judges steal alone: its service's 120% is not a busy trial
    const target = resultsFile(scenarios, []);
    target.busy = { othersPct: 50, stealOnly: true, repeats: 10, repeated: 0 };
    expect(renderMarkdown(target)).toContain(
      "median 10%, at most 120% (api/c10 trial 1); 0 of 3 trials at 20% steal or more (a target's service runs beside perf-gate and reads as another process, so only steal is judged); steal at most 2%",
    );
    // nothing judged: nothing said; something judged without readings: said in one line
    expect(
      renderMarkdown(resultsFile([{ name: 'api', scenarioHash: 'h', phases: [phase('c10', {})] }], [])),
    ).not.toContain('machine during trials');
    const judged = resultsFile(
      [{ name: 'api', scenarioHash: 'h', phases: [phase('c10', {})] }],
      [
        {
          scenario: 'api',
          phase: 'c10',
          metric: 'p50',
          baseline: 1000,
          current: 1000,
          delta: 0,
          band: '+10%',
          result: 'pass',
        },
      ],
    );
    expect(renderMarkdown(judged)).toContain(
      '- machine during trials: not read (the Docker engine runs elsewhere, or this system has no /proc/stat): a trial taken while other processes used the machine cannot be told apart',
    );
  });
});

describe('engineIsLocal: /proc/stat is the engine’s machine only where the engine runs here', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, true],
    ['', true],
    ['unix:///var/run/docker.sock', true],
    ['tcp://10.0.0.5:2376', false],
    ['ssh://build@host', false],
  ])('DOCKER_HOST=%s → %s', (host, local) => {
    expect(engineIsLocal(host === undefined ? {} : { DOCKER_HOST: host })).toBe(local);
  });
});

// perf-gate runner: runs inside the runner container on the SUT network, one container per SUT
// session. Reads the plan file given as its argument, waits for the ready probes, then runs one trial
// (warm-up discarded, then the measured run) per `trial` command the host writes on its stdin, one at
// a time, until `end` or EOF; it reports events as marked JSON lines on stdout. With
// runner.workers > 1 the engine instances run in worker threads (this same file, started again),
// started once for all trials. A runner replica (a plan with `replicas`: runner.replicas on an
// orchestrator) reads no commands: it runs its share of the plan's one trial from the common start
// time, each stage at its scheduled time, and exits.
import { readFileSync } from 'node:fs';
import { availableParallelism, hostname } from 'node:os';
import type { Phase } from '../../src/runner-kit/plan.js';
import type {
  PlanScenario,
  ReplicaRun,
  RunnerEvent,
  RunnerPlan,
  Stage,
  WarmupWindows,
} from '../../src/runner-kit/plan.js';
import { replicaIndex, replicaStageStarts } from '../../src/runner-kit/replicas.js';
import { MAX_WARMUP_WINDOWS, OPEN_LATE_MS, warmupWindowMs } from '../../src/runner-kit/plan.js';
import { planCommands, readCommands, trialTarget } from './commands.js';
import { emit, maskValues } from './emit.js';
import { maskStreams } from './mask.js';
import { START_LEAD_MS } from './open-loop.js';
import { waitReady } from './ready.js';
import { loadHooksOf } from './hook.js';
import { setUpPlan } from './setup.js';
import { fetchProfile } from './profile.js';
import type { ProfileRequest } from '../../src/runner-kit/profile.js';
import { survey } from './survey.js';
import { engineOf } from './engine.js';
import type { Limit, ReplicaSlot } from './split.js';
import { combineRequestTallies, combineTallies, type EngineTally } from './tally.js';
import { EnginePool, runInThread, serveIfWorker, type StageRun } from './workers.js';

async function withProgress(
  plan: RunnerPlan,
  where: { scenario: string; phase: string; trial: number; stage: Stage },
  run: StageRun,
): Promise<EngineTally[]> {
  const started = performance.now();
  let last = { at: started, responses: 0 };
  const timer = setInterval(() => {
    const now = performance.now();
    const responses = run.responses();
    const rps = ((responses - last.responses) * 1000) / Math.max(1, now - last.at);
    last = { at: now, responses };
    emit({ t: 'progress', ...where, elapsedMs: Math.round(now - started), responses, rps: Math.round(rps) });
  }, plan.progressIntervalMs);
  try {
    return await run.done;
  } finally {
    clearInterval(timer);
  }
}

/** Samples a stage's responses per second in `count` windows of `windowMs` (those of its time: not the
 * drain of its requests in flight after it, nor a last partial window). */
function sampleWindows(run: StageRun, windowMs: number, count: number): { stop: () => WarmupWindows } {
  const rps: number[] = [];
  let last = { at: performance.now(), responses: run.responses() };
  const timer = setInterval(() => {
    if (rps.length >= Math.min(count, MAX_WARMUP_WINDOWS)) return;
    const now = performance.now();
    const responses = run.responses();
    rps.push(Math.round(((responses - last.responses) * 1000) / Math.max(1, now - last.at)));
    last = { at: now, responses };
  }, windowMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { windowMs, rps };
    },
  };
}

function measuredLimit(phase: Phase): Limit {
  if (phase.kind === 'closed' && phase.requests !== undefined) return { requests: phase.requests };
  if (phase.kind === 'ws') return { requests: phase.peers * phase.messages };
  return { durationMs: (phase as { durationMs: number }).durationMs };
}

const epochNow = (): number => performance.timeOrigin + performance.now();

/** Resolves at `atEpochMs` (on a timer, then a short spin: Node timers fire on whole milliseconds). */
async function untilEpoch(atEpochMs: number): Promise<void> {
  const wait = atEpochMs - epochNow() - 2;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  while (epochNow() < atEpochMs) {
    // at most ~2 ms
  }
}

class Stages {
  constructor(
    private readonly plan: RunnerPlan,
    private readonly pool: EnginePool | undefined,
    private readonly replica?: ReplicaSlot,
  ) {}

  /** `scheduled`: a replica's stage start, the same on every replica (absent: now) */
  start(s: PlanScenario, phase: Phase, limit: Limit, scheduled?: number): StageRun {
    const { pool, replica } = this;
    return engineOf(s.target).stage(s.target, phase, {
      limit,
      timeoutMs: s.requestTimeoutMs ?? this.plan.requestTimeoutMs,
      workers: pool?.size ?? 1,
      ...(replica ? { replica } : {}),
      // worker threads get a common start of their own once every one holds its job (replicas: the
      // stage's scheduled start, which every replica shares, plus the same lead)
      startAtEpochMs: (scheduled ?? epochNow()) + (phase.kind === 'open' ? START_LEAD_MS : 0),
      runJobs(jobs) {
        const [only] = jobs;
        if (!pool && only && jobs.length === 1) return runInThread(only);
        if (!pool) throw new Error('several engine instances need worker threads');
        return pool.run(jobs);
      },
    });
  }
}

/**
 * A replica's stage waits for its scheduled start and says when it began (`atEpochMs`, the skew's
 * figure). Its open-loop schedule starts from that scheduled time, the same on every replica, unless
 * the replica got there late (its warm-up's last requests took long): then from now, never from the
 * past, which would send the overdue requests in one burst. Without a schedule stages run back to back.
 */
async function stageStart(at: number | undefined): Promise<{ atEpochMs?: number; base?: number }> {
  if (at === undefined) return {};
  await untilEpoch(at);
  const now = epochNow();
  return { atEpochMs: Math.round(now * 1000) / 1000, base: now - at <= OPEN_LATE_MS ? at : now };
}

/**
 * One trial of one phase: the warm-up stage (when the scenario has one), then the measured stage;
 * a replica's (`starts`) each at its scheduled time.
 */
async function runTrial(
  plan: RunnerPlan,
  stages: Stages,
  s: PlanScenario,
  phase: Phase,
  count: { trial: number; trials: number; warmupMs?: number; profile?: ProfileRequest[] },
  starts?: { warmup: number; measure: number },
): Promise<void> {
  const { trial } = count;
  const base = { scenario: s.name, phase: phase.name, trial, trials: count.trials };
  // the host may shorten a later trial's warm-up, once the phase's first showed it settled
  const warmupMs = count.warmupMs ?? s.warmupMs;
  let warmup: WarmupWindows | undefined;
  if (warmupMs > 0) {
    const { base: warmupBase, ...at } = await stageStart(starts?.warmup);
    emit({ t: 'stage', ...base, stage: 'warmup', totalMs: warmupMs, ...at });
    const run = stages.start(s, phase, { durationMs: warmupMs }, warmupBase);
    const windowMs = warmupWindowMs(warmupMs, plan.workers);
    const windows = sampleWindows(run, windowMs, Math.floor(warmupMs / windowMs));
    await withProgress(plan, { ...base, stage: 'warmup' }, run);
    warmup = windows.stop();
  }
  const limit = measuredLimit(phase);
  const size = 'requests' in limit ? { totalRequests: limit.requests } : { totalMs: limit.durationMs };
  const { base: measureBase, ...at } = await stageStart(starts?.measure);
  emit({ t: 'stage', ...base, stage: 'measure', ...size, ...at });
  const cpuAtStart = process.cpuUsage();
  const wallAtStart = performance.now();
  const run = stages.start(s, phase, limit, measureBase);
  // a profiling trial: each service's profile over the measured window (its URL asks for the
  // window's seconds), fetched beside it
  const profiles = (count.profile ?? []).map((p) => ({ service: p.service, fetched: fetchProfile(p.url) }));
  const tallies = await withProgress(plan, { ...base, stage: 'measure' }, run);
  for (const p of profiles) {
    const got = await p.fetched;
    const what = 'data' in got ? { data: got.data.toString('base64') } : { error: got.error };
    emit({ t: 'profile', scenario: s.name, phase: phase.name, service: p.service, ...what });
  }
  const cpu = process.cpuUsage(cpuAtStart);
  const generator = {
    cpuUs: cpu.user + cpu.system,
    wallMs: performance.now() - wallAtStart,
    threads: tallies.length,
    cores: availableParallelism(),
  };
  const { measurement, histogram } = combineTallies(trial, tallies, generator);
  const event: RunnerEvent = {
    t: 'trial',
    scenario: s.name,
    phase: phase.name,
    measurement,
    histogram,
    ...(warmup ? { warmup } : {}),
    ...(count.profile ? { profiled: true as const } : {}),
  };
  const entries = engineOf(s.target).entries(s.target, phase);
  if (entries.length > 0) event.requests = combineRequestTallies(trial, entries, tallies, generator);
  emit(event);
}

async function main(): Promise<void> {
  const planFile = process.argv[2];
  if (!planFile) throw new Error('usage: runner.mjs PLAN.json [--all]');
  let plan = JSON.parse(readFileSync(planFile, 'utf8')) as RunnerPlan;
  if (plan.version !== 1) throw new Error(`unsupported plan version ${String(plan.version)}`);
  const replica = plan.replicas
    ? { index: replicaIndex(process.env, plan.replicas.count), count: plan.replicas.count }
    : undefined;
  emit({ t: 'hello', node: process.version, ...(replica ? { replica: replica.index, host: hostname() } : {}) });
  for (const probe of plan.ready) {
    const error = await waitReady(probe.url, probe.timeoutMs);
    if (error !== undefined) {
      emit({ t: 'not-ready', url: probe.url, error, timeoutMs: probe.timeoutMs });
      process.exitCode = 3;
      return;
    }
  }
  // init --probe: every address asked, each answer one event, before the runner says it is ready
  if (plan.survey) for (const finding of await survey(plan.survey)) emit({ t: 'survey', finding });
  // setup: its values fill the scenarios' placeholders here, in this process only (never an event)
  if (plan.setup) {
    const done = await setUpPlan(plan);
    if (!done.ok) {
      emit({ t: 'setup-failed', step: done.step, message: done.message });
      // not 0: a swarm's replica that stops here is a failed task, its event read from its log
      process.exitCode = 3;
      return;
    }
    // in every event from here on, and in any other line this process (or a worker thread) writes
    maskStreams(maskValues(done.values.values()));
    emit({ t: 'setup', steps: done.steps, values: [...done.values.keys()] });
    plan = done.plan;
  }
  // script hooks are imported before the runner says it is ready: one that does not load stops it here
  for (const s of plan.scenarios) await loadHooksOf(s.target);
  emit({ t: 'ready' });
  const workers = plan.workers ?? 1;
  const pool = workers > 1 ? await EnginePool.start(workers, new URL(import.meta.url)) : undefined;
  try {
    if (plan.replicas && replica) {
      await runReplica(plan, plan.replicas, new Stages(plan, pool, replica));
      emit({ t: 'done' });
      return;
    }
    const stages = new Stages(plan, pool);
    // one command at a time: the next line is read only once this trial's `trial` event is out
    const commands = process.argv.includes('--all') ? planCommands(plan) : readCommands(process.stdin);
    for await (const cmd of commands) {
      const { scenario, phase } = trialTarget(plan, cmd);
      await runTrial(plan, stages, scenario, phase, {
        trial: cmd.trial,
        trials: cmd.trials,
        ...(cmd.warmupMs !== undefined ? { warmupMs: cmd.warmupMs } : {}),
        ...(cmd.profile !== undefined ? { profile: cmd.profile } : {}),
      });
    }
  } finally {
    await pool?.close();
  }
  emit({ t: 'done' });
}

/** A replica's one trial from the common start; a replica that is ready after it is late and fails. */
async function runReplica(plan: RunnerPlan, run: ReplicaRun, stages: Stages): Promise<void> {
  const { scenario, phase } = trialTarget(plan, run.trial);
  const warmupMs = run.trial.warmupMs ?? scenario.warmupMs;
  const starts = replicaStageStarts(run, warmupMs);
  const lateMs = epochNow() - run.startAtEpochMs;
  if (lateMs > 0) {
    throw new Error(
      `late: ready ${Math.round(lateMs)} ms after the common start (its SUT probes or its start took too long)`,
    );
  }
  await runTrial(plan, stages, scenario, phase, { trial: run.trial.trial, trials: run.trial.trials, warmupMs }, starts);
}

if (!serveIfWorker()) {
  // a container's first process gets no default signal handling: stop at once when told to (a
  // replica's trial failed elsewhere and its service is being removed), as any process would
  process.on('SIGTERM', () => process.exit(143));
  main().then(
    // 0, or what main set (3: the service never ready, or its setup failed)
    () => process.exit(),
    (err: unknown) => {
      emit({ t: 'fatal', message: err instanceof Error ? err.message : String(err) });
      process.exit(1);
    },
  );
}

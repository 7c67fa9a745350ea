// The one step that differs between modes: measuring. One side (gate, update, sweep) or two (A/B),
// each through its long-lived runner: the configured trials (pairs), then, where a row is outside its
// band but not yet confirmed, more of them up to the cap (compare/confirm.ts), every phase's extra
// trials interleaved in a seeded order. A/B pairs run in an order drawn afresh for every pair from a
// seeded generator, recorded for the report.
import { compareAbScenario } from '../compare/ab.js';
import { BUSY_REPEATS_PER_TRIAL } from '../compare/busy.js';
import { compareScenario } from '../compare/compare.js';
import { looksOf, type Looks } from '../compare/confirm.js';
import type { Scenario, SutProfile } from '../config-parts/types.js';
import type { Phase } from '../runner-kit/plan.js';
import { profileUrl, type ProfileRequest } from '../runner-kit/profile.js';
import { laterWarmupMs, MIN_LATER_WARMUP_MS, settledMs } from '../stats/settle.js';
import { describeBounds, type EarlyLook, earlyLookAb, earlyLookGate } from '../compare/early.js';
import {
  type BaselineFile,
  type Comparison,
  ofPhase,
  type PhaseResult,
  type ScenarioResult,
} from '../results/types.js';
import { derivedSeed, drawOrder, interleave, type PairOrder, seededRandom } from '../stats/random.js';
import { formatMs } from '../common/units.js';
import type { TrialCollector } from './collect.js';
import { QUIET_FOR_MS, QUIET_MAX_TOTAL_MS, type QuietWait } from './quiet.js';
import { SLICE_MS } from '../stats/machine.js';
import type { Side } from './sut-session.js';

/** One side's runner: one trial of a phase per call (the session's RunnerHandle). */
export interface TrialRunner {
  trial(cmd: {
    scenario: string;
    phase: string;
    trial: number;
    trials: number;
    warmupMs?: number;
    profile?: ProfileRequest[];
  }): Promise<void>;
}

export interface MeasureSide {
  runner: TrialRunner;
  collector: TrialCollector;
  /** sut.profile's perf: samples one service's processes for `windowMs` from a helper container of
   * `image` (the host's half of a profile); absent where there is no container to join */
  perf?: PerfSampler;
}

/** Linux perf over one window: its helper started at once, sampling for `windowMs` from when `started`
 * resolves true (stopped unsampled when false); `perf script`'s text, or why there is none (never
 * throws). */
export type PerfSampler = (
  service: string,
  image: string,
  windowMs: number,
  started: Promise<boolean>,
) => Promise<{ data: Uint8Array } | { error: string }>;

export interface ConfirmSettings {
  /** gate.confirm.max-trials; 0 = off (a scenario's own `confirmCap`, where it grew, comes first) */
  maxTrials: number;
  /** the most wall time one phase's extra trials may take, ms */
  maxTimeMs: number;
}

export interface MeasureContext {
  scenarios: Scenario[];
  hashes: ReadonlyMap<string, string>;
  /** the cap and time budget of confirmation (the cap is recorded in every phase's looks) */
  confirm: ConfirmSettings;
  /** run the extra trials: gate and A/B runs; update and sweep runs compare for information only */
  extend: boolean;
  /** gate.early-look: trials (pairs) after which a phase whose rows are all clearly inside their bands
   * stops (gate and A/B runs only) */
  earlyLook?: number;
  /** gate.busy: how many trials (either side's in A/B) taken on a busy machine the run may still repeat; absent:
   * readings are only reported */
  busy?: BusyBudget;
  /** gate.busy: waits, before a trial put aside runs again, until the machine reads quiet (bounded);
   * absent where it cannot be read */
  quiet?: () => Promise<QuietWait | undefined>;
  log: (line: string) => void;
  /** ms, monotonic enough for a time budget */
  now: () => number;
  /** the time the statistics took while the trials ran (early looks, confirmation's looks), ms,
   * added up here: the run says it beside the final judgement's */
  statistics?: { ms: number };
}

/** `judge()`, its time added to the run's statistics time (the results it reads are gathered before:
 * only the statistics are timed). On a millisecond clock each look adds 0 or 1 ms; added up over a
 * run's looks that is the statistics' time on average, not a bound. */
function judging<T>(ctx: MeasureContext, judge: () => T): T {
  const t0 = ctx.now();
  try {
    return judge();
  } finally {
    if (ctx.statistics) ctx.statistics.ms += ctx.now() - t0;
  }
}

/** gate.busy's repeats, in trials (a pair's two sides each count): the run's allowance and how many
 * were spent (the results say so). */
export interface BusyBudget {
  repeats: number;
  used: number;
  /** the allowance was not given (gate.busy.repeats): it grows by BUSY_REPEATS_PER_TRIAL for each
   * extra trial confirmation runs (both of a pair's), as it was set by the trials the run planned */
  grows?: true;
  /** a busy trial was kept because the repeats were spent (said once in the log) */
  kept?: true;
  /** the run's waits for a quiet machine are spent: later repeats run at once (said once in the log) */
  waitsSpent?: true;
}

/** Whether a busy trial may be repeated: spends one of the run's repeats when it may, and then waits
 * for the machine to quiet down (ctx.quiet) so that the next trial does not fall in the same burst. */
async function repeatBusy(ctx: MeasureContext, where: string, what: string): Promise<boolean> {
  const b = ctx.busy;
  if (!b) return false;
  if (b.used >= b.repeats) {
    // said once: the report names every phase that judges a busy trial
    if (!b.kept)
      ctx.log(
        `[perf-gate] ${where}: ${what} ran on a busy machine; gate.busy's ${b.repeats} repeats are spent, it is kept (and so are later ones: the report names their phases)`,
      );
    b.kept = true;
    return false;
  }
  b.used++;
  const wait = await ctx.quiet?.();
  const waited =
    wait === undefined
      ? ''
      : wait.spent
        ? b.waitsSpent
          ? '; at once'
          : `; at once: the run's ${formatMs(QUIET_MAX_TOTAL_MS)} of waits for a quiet machine are spent (later repeats run at once too)`
        : wait.quiet
          ? wait.waitedMs >= QUIET_FOR_MS + SLICE_MS
            ? `; waited ${formatMs(wait.waitedMs)} for the machine to quiet down`
            : ''
          : `; the machine still read busy after ${formatMs(wait.waitedMs)}`;
  ctx.log(
    `[perf-gate] ${where}: ${what} ran on a busy machine; put aside and repeated (${b.used} of ${b.repeats})${waited}`,
  );
  if (wait?.spent) b.waitsSpent = true;
  return true;
}

/** The rows of one phase (a mix's entries and a WebSocket phase's results included) still open. */
function openRows(comparisons: Comparison[], phase: string): Comparison[] {
  return comparisons.filter((c) => c.open && ofPhase(c.phase, phase));
}

function describeOpen(rows: Comparison[]): string {
  return rows.map((c) => `${c.phase} ${c.metric}${c.pValue !== undefined ? ` (p=${c.pValue})` : ''}`).join(', ');
}

/**
 * The cap a phase is confirmed at: the configured one, or fewer where `gate.confirm.max-time` allows
 * fewer trials of the configured trials' mean wall time. Fixed before the extension starts, so the
 * final look's count is not chosen by the clock while trials run. Undefined: not even one fits.
 */
function affordableCap(ctx: MeasureContext, looks: Looks, meanTrialMs: number): number | undefined {
  const budget = ctx.confirm.maxTimeMs;
  const fits = meanTrialMs > 0 ? Math.floor(budget / meanTrialMs) : looks.cap - looks.first;
  const cap = Math.min(looks.cap, looks.first + fits);
  return cap > looks.first ? cap : undefined;
}

/** A phase whose rows may need confirming, as the first look left it. */
interface ConfirmPlan {
  where: string;
  /** its rows open at the first look */
  open: Comparison[];
  looks: Looks;
  /** the first look's trials' (pairs') time, ms */
  firstLookMs: number;
  unit: 'trials' | 'pairs';
  phase: { setLooks: (looks: Looks) => void; open: () => Comparison[] };
}

/**
 * When rows of a phase are open: says which and fixes the cap the time budget allows (recorded with
 * `setLooks`), before any extra trial runs, so that the final look's count is not chosen by the clock.
 * Undefined: no extra trial is to run (none fits, or the few that fit could never confirm).
 */
function planConfirm(ctx: MeasureContext, p: ConfirmPlan): number | undefined {
  const { where, open, looks, firstLookMs, unit, phase } = p;
  if (open.length === 0) return undefined;
  const mean = firstLookMs / looks.first;
  const cap = affordableCap(ctx, looks, mean);
  const budget = formatMs(ctx.confirm.maxTimeMs);
  const outside = `[perf-gate] ${where}: outside the band, not yet confirmed: ${describeOpen(open)}`;
  if (cap === undefined) {
    ctx.log(`${outside}; gate.confirm.max-time (${budget}) leaves no time for more ${unit} of about ${formatMs(mean)}`);
    return undefined;
  }
  if (cap < looks.cap) {
    phase.setLooks({ first: looks.first, cap });
    // the fewer trials the time allows may be too few to ever confirm: then none are run
    if (phase.open().length === 0) {
      ctx.log(
        `${outside}; gate.confirm.max-time (${budget}) allows ${cap - looks.first} more ${unit}, too few to confirm`,
      );
      return undefined;
    }
  }
  const short =
    cap < looks.cap
      ? ` (gate.confirm.max-time ${budget} allows ${cap - looks.first} of ${looks.cap - looks.first})`
      : '';
  ctx.log(
    `[perf-gate] ${where}: outside the band, not yet confirmed: ${describeOpen(open)}; running ${cap - looks.first} more ${unit}${short}`,
  );
  // the extra trials may be taken on a busy machine as the planned ones may: repeats for them too (a
  // pair is two trials, each repeated on its own)
  if (ctx.busy?.grows) ctx.busy.repeats += BUSY_REPEATS_PER_TRIAL * (cap - looks.first) * (unit === 'pairs' ? 2 : 1);
  return cap;
}

/** One phase's extension while it runs: its next trial (pair), its cap, and the time its extra trials
 * have taken so far (the budget is the phase's own, however its trials are interleaved with others'). */
interface Extension {
  where: string;
  first: number;
  cap: number;
  next: number;
  spentMs: number;
  /** about as long as the next one will take: the last one's time (the first look's mean before) */
  lastMs: number;
  stopped: boolean;
  unit: 'trials' | 'pairs';
  /** runs trial (pair) k of `cap`; false when a gate trial was put aside on a busy machine, to run
   * again (an A/B pair repeats its busy side at once, and is always kept) */
  more: (k: number, cap: number) => Promise<boolean>;
}

/**
 * Runs the extra trials (pairs) of every extended phase in `order` (indices into `extensions`, one
 * entry per extra trial; a phase after phase order, or one drawn at random across phases). A trial
 * that would take its phase past gate.confirm.max-time stops that phase's extension: its rows are then
 * inconclusive, not tested (compare/confirm.ts). A trial put aside on a busy machine is run again, at a
 * place drawn by `again` among those left (at once without it), within the same budget.
 */
async function runExtensions(
  ctx: MeasureContext,
  extensions: Extension[],
  order: number[],
  again: (() => number) | undefined,
): Promise<void> {
  const budget = formatMs(ctx.confirm.maxTimeMs);
  for (let at = 0; at < order.length; at++) {
    const e = extensions[order[at] as number] as Extension;
    if (e.stopped || e.next > e.cap) continue;
    // the next one would take about as long as the last did
    if (e.spentMs + e.lastMs > ctx.confirm.maxTimeMs) {
      ctx.log(
        `[perf-gate] ${e.where}: confirmation stopped after ${e.next - 1 - e.first} more ${e.unit} (gate.confirm.max-time ${budget})`,
      );
      e.stopped = true;
      continue;
    }
    const t0 = ctx.now();
    const kept = await e.more(e.next, e.cap);
    e.lastMs = ctx.now() - t0;
    e.spentMs += e.lastMs;
    if (kept) {
      e.next++;
      continue;
    }
    const left = order.length - at - 1;
    order.splice(at + 1 + (again === undefined ? 0 : Math.floor(again() * (left + 1))), 0, order[at] as number);
  }
}

/** A planned extension, before its first extra trial (pair). */
function extension(p: ConfirmPlan, cap: number, more: Extension['more']): Extension {
  const { where, looks, firstLookMs, unit } = p;
  const first = looks.first;
  return { where, first, cap, next: first + 1, spentMs: 0, lastMs: firstLookMs / first, stopped: false, unit, more };
}

/** A phase's planned extension and how to run its next extra trial (pair). */
interface Planned {
  plan: ConfirmPlan;
  more: Extension['more'];
}

/** The order `counts[i]` trials of each unit `i` run in: drawn by `random`, or unit after unit. */
function orderOf(counts: readonly number[], random: (() => number) | undefined): number[] {
  return random === undefined
    ? counts.flatMap((n, i) => Array.from({ length: n }, () => i))
    : interleave(counts, random);
}

/**
 * Confirmation, both modes: every phase with rows still open plans its extension first (the caps are
 * fixed before any extra trial runs); then their extra trials (pairs) run interleaved in an order drawn
 * from the seed, as the first trials do, so that a slow stretch of the machine falls on several phases'
 * confirmations instead of deciding one's. A gate trial put aside on a busy machine runs again at a
 * place `again` draws (the seed's `busy` stream); an A/B pair repeats its busy side at once. Without a
 * seed (a sweep): phase after phase, a repeat at once.
 */
async function confirmAll(
  ctx: MeasureContext,
  plans: readonly Planned[],
  seed: number | undefined,
  again: (() => number) | undefined,
): Promise<void> {
  const extensions: Extension[] = [];
  for (const { plan, more } of plans) {
    const cap = planConfirm(ctx, plan);
    if (cap !== undefined) extensions.push(extension(plan, cap, more));
  }
  const counts = extensions.map((e) => e.cap - e.first);
  const random = seed === undefined ? undefined : seededRandom(derivedSeed(seed, 'confirm'));
  await runExtensions(ctx, extensions, orderOf(counts, random), again);
}

/** Whether a phase's later trials may get a shorter warm-up: warmup-later: settled, a closed loop
 * without a ramp, more than one trial, and a warm-up above the shortest one given. */
function warmupShortens(s: Scenario, phase: Phase, trials: number): boolean {
  return (
    s.warmupLater === 'settled' &&
    phase.kind === 'closed' &&
    !phase.ramp &&
    trials >= 2 &&
    s.warmupMs > MIN_LATER_WARMUP_MS
  );
}

/**
 * warmup-later: settled: the warm-up a closed-loop phase's later trials get, from its first trial's on
 * every side measured (the latest settle time of them; none when one did not settle, or sent no
 * windows) and, in a gate run, no shorter than the baseline's later trials had (its warm-up is then
 * never colder than the baseline's; a baseline taken with `full` keeps them full). Recorded in the phase's results and said in the log. Undefined:
 * the full warm-up.
 */
function laterWarmup(
  ctx: MeasureContext,
  s: Scenario,
  phase: Phase,
  collectors: TrialCollector[],
  baseline?: PhaseResult,
): number | undefined {
  const firsts = collectors.map((c) => c.firstWarmup(s.name, phase.name));
  const where = `[perf-gate] ${s.name}/${phase.name}:`;
  const full = formatMs(s.warmupMs);
  if (firsts.some((f) => f?.windows === undefined)) {
    ctx.log(`${where} the runner sent no warm-up windows: later trials keep the full ${full} (warmup-later: settled)`);
    return undefined;
  }
  const settles = firsts.map((f) => (f?.windows ? settledMs(f.windows, f.rps) : undefined));
  const settled = settles.includes(undefined) ? undefined : Math.max(...(settles as number[]));
  const own = laterWarmupMs(s.warmupMs, settled, firsts[0]?.windows?.windowMs ?? 0);
  // the baseline's later trials: a full warm-up when it did not settle, or was taken with `full` (no record)
  const before = baseline ? (baseline.warmupLater ?? {}) : undefined;
  let later = own;
  // (never above this run's own warm-up: a baseline taken with a longer `warmup` is stale anyway)
  if (before)
    later =
      own === undefined || before.laterMs === undefined
        ? undefined
        : Math.min(s.warmupMs, Math.max(own, before.laterMs));
  for (const c of collectors) {
    c.setWarmupLater(s.name, phase.name, {
      ...(settled !== undefined ? { settledMs: settled } : {}),
      ...(later !== undefined ? { laterMs: later } : {}),
    });
  }
  const kept =
    before && later !== own
      ? ` (the baseline's later trials had ${before.laterMs !== undefined ? formatMs(before.laterMs) : `the full ${full}`})`
      : '';
  ctx.log(
    `${where} ${
      settled === undefined
        ? `the first trial's warm-up did not settle within ${full}: later trials keep it`
        : `the first trial's warm-up settled after ${formatMs(settled)} of ${full}: later trials warm up for ${formatMs(later ?? s.warmupMs)}${kept}`
    } (warmup-later: settled)`,
  );
  return later;
}

/** The trials (pairs) a phase runs before its early look: `gate.early-look` where it is below the
 * phase's configured count and the run gates with something to compare with; else all of them. */
function earlyCount(ctx: MeasureContext, configured: number, comparable: boolean): number {
  const early = ctx.earlyLook;
  return ctx.extend && comparable && early !== undefined && early < configured ? early : configured;
}

/** Says what the early look at a phase found: stopped with its rows' bounds, or why it goes on. */
function logEarly(ctx: MeasureContext, where: string, at: number, of: number, unit: string, look: EarlyLook): void {
  const head = `[perf-gate] ${where}: early look at ${at} of ${of} ${unit}:`;
  ctx.log(
    look.stop
      ? `${head} every row inside its band (${describeBounds(look.rows) || 'no band to bound'}); the phase stops here`
      : `${head} ${look.why}; running the other ${of - at}`,
  );
}

/**
 * Gate, update and sweep: one side. `baselines` decide, in gate runs, which rows need confirming.
 * With a `seed`, the configured trials of every phase of every scenario run interleaved, in an order
 * drawn from it (each phase's trials in their own order), so that a slow stretch of the machine falls
 * on trials of many phases instead of every trial of one; without, phase after phase. With an early
 * look (gate.early-look), every phase's first trials run so, then each phase whose rows are all
 * clearly inside their bands stops, and the others' remaining trials run, interleaved the same way.
 * The extra trials that confirm a row run after, interleaved across phases (confirmAll).
 */
export async function measureOne(
  ctx: MeasureContext,
  side: MeasureSide,
  baselines: ReadonlyMap<string, BaselineFile | undefined>,
  seed?: number,
): Promise<void> {
  const units = ctx.scenarios.flatMap((s) =>
    s.phases.map((phase) => ({
      s,
      phase,
      looks: looksOf(s.trials, s.confirmCap ?? ctx.confirm.maxTrials),
      early: earlyCount(ctx, s.trials, baselines.get(s.name) !== undefined),
      done: 0,
      ms: 0,
      warmupMs: undefined as number | undefined,
    })),
  );
  type Unit = (typeof units)[number];
  /** one trial; false when it ran on a busy machine and was put aside, to be run again */
  const run = async (u: Unit, trial: number, trials: number): Promise<boolean> => {
    const warmup = u.warmupMs !== undefined ? { warmupMs: u.warmupMs } : {};
    await side.runner.trial({ scenario: u.s.name, phase: u.phase.name, trial, trials, ...warmup });
    if (
      side.collector.lastBusy(u.s.name, u.phase.name) &&
      (await repeatBusy(ctx, `${u.s.name}/${u.phase.name}`, `trial ${trial}`))
    ) {
      side.collector.discardLast(u.s, u.phase.name);
      return false;
    }
    if (trial === 1 && warmupShortens(u.s, u.phase, u.s.trials)) {
      // a gate run's later trials are never colder than its baseline's; an update records its own (held
      // to the one it replaces, the warm-up could only ever grow from update to update)
      const baseline = ctx.extend ? baselines.get(u.s.name)?.phases.find((p) => p.name === u.phase.name) : undefined;
      u.warmupMs = laterWarmup(ctx, u.s, u.phase, [side.collector], baseline);
    }
    return true;
  };
  const setLooks = (u: Unit) => side.collector.setLooks(u.s.name, u.phase.name, u.looks);
  for (const u of units) setLooks(u);
  const random = seed === undefined ? undefined : seededRandom(derivedSeed(seed, 'trials'));
  // where a busy trial is run again: its own stream, so that the order drawn above stays the seed's
  const again = seed === undefined ? undefined : seededRandom(derivedSeed(seed, 'busy'));
  const runAll = async (counts: number[]) => {
    const order = orderOf(counts, random);
    for (let at = 0; at < order.length; at++) {
      const i = order[at] as number;
      const u = units[i] as Unit;
      const t0 = ctx.now();
      const kept = await run(u, ++u.done, u.s.trials);
      if (kept) {
        u.ms += ctx.now() - t0;
        continue;
      }
      // run again later, at a seeded place among the trials still to run; without a seed (a sweep,
      // level after level) at once
      u.done--;
      const left = order.length - at - 1;
      order.splice(at + 1 + (again === undefined ? 0 : Math.floor(again() * (left + 1))), 0, i);
    }
  };
  await runAll(units.map((u) => u.early));
  const current = (u: Unit) => side.collector.results([u.s], ctx.hashes)[0] as ScenarioResult;
  const rest = units.map((u) => {
    if (u.early >= u.s.trials) return 0;
    const now = current(u);
    const look = judging(ctx, () =>
      earlyLookGate(now, u.s.thresholds, baselines.get(u.s.name) as BaselineFile, u.phase.name),
    );
    logEarly(ctx, `${u.s.name}/${u.phase.name}`, u.early, u.s.trials, 'trials', look);
    if (!look.stop) return u.s.trials - u.early;
    u.looks = { ...u.looks, stopped: u.early };
    setLooks(u);
    return 0;
  });
  await runAll(rest);
  const plans: Planned[] = [];
  for (const u of units) {
    const { s, phase, looks } = u;
    const baseline = baselines.get(s.name);
    if (!ctx.extend || looks.cap <= looks.first || !baseline || looks.stopped !== undefined) continue;
    const open = () => {
      const now = current(u);
      return judging(ctx, () => openRows(compareScenario(now, s.thresholds, baseline, false).comparisons, phase.name));
    };
    const limit = (l: Looks) => side.collector.setLooks(s.name, phase.name, l);
    const plan: ConfirmPlan = {
      where: `${s.name}/${phase.name}`,
      open: open(),
      looks,
      firstLookMs: u.ms,
      unit: 'trials',
      phase: { setLooks: limit, open },
    };
    plans.push({ plan, more: (k, c) => run(u, k, c) });
  }
  await confirmAll(ctx, plans, seed, again);
}

/** A/B: what `measureAb` adds to the results: the seed and each phase's pair orders. */
export interface AbOrders {
  seed: number;
  orders: Array<{ scenario: string; phase: string; order: PairOrder[] }>;
}

/**
 * A/B: per phase, `pairs` pairs, each pair's order drawn from the seeded generator; then, after every
 * phase's pairs, more pairs up to the cap where a row is outside its band but not yet confirmed, every
 * such phase's extra pairs interleaved in an order the seed draws (confirmAll). A side's trial taken on
 * a busy machine (gate.busy) is put aside and that side alone runs again at once, the pair's other
 * trial kept; the orders are the ones drawn.
 */
export async function measureAb(
  ctx: MeasureContext,
  sides: Record<Side, MeasureSide>,
  pairs: number,
  seed: number,
): Promise<AbOrders> {
  const orders: AbOrders['orders'] = [];
  const plans: Planned[] = [];
  for (const s of ctx.scenarios) {
    for (const phase of s.phases) {
      // each phase its own stream: pair k's order depends on the seed and k only
      const random = seededRandom(derivedSeed(seed, s.name, phase.name));
      const looks = looksOf(pairs, s.confirmCap ?? ctx.confirm.maxTrials);
      const order: PairOrder[] = [];
      orders.push({ scenario: s.name, phase: phase.name, order });
      const setLooks = (l: Looks) => {
        for (const side of Object.values(sides)) side.collector.setLooks(s.name, phase.name, l);
      };
      setLooks(looks);
      let warmupMs: number | undefined;
      // the time of trials put aside is left out of the mean a confirmation plans by
      let asideMs = 0;
      /** one pair: each side's trial, the one of a side the machine read busy run again at once */
      const pair = async (k: number, total: number): Promise<boolean> => {
        const drawn = drawOrder(random);
        const first: Side = drawn === 'AB' ? 'base' : 'head';
        const second: Side = first === 'base' ? 'head' : 'base';
        ctx.log(`[perf-gate] ${s.name}/${phase.name} pair ${k}/${total}: ${first}, then ${second}`);
        const warmup = warmupMs !== undefined ? { warmupMs } : {};
        const trial = async (side: Side): Promise<number> => {
          const t = ctx.now();
          await sides[side].runner.trial({ scenario: s.name, phase: phase.name, trial: k, trials: total, ...warmup });
          return ctx.now() - t;
        };
        const ms = { base: 0, head: 0 };
        for (const side of [first, second]) ms[side] = await trial(side);
        // only the busy side's trial is put aside and run again (its other side's stays): a busy machine
        // costs a pair the trials it spoilt, not both; the repeats bound the loop
        for (const side of [first, second]) {
          for (;;) {
            const waitFrom = ctx.now();
            const again =
              sides[side].collector.lastBusy(s.name, phase.name) &&
              (await repeatBusy(ctx, `${s.name}/${phase.name}`, `pair ${k}'s ${side} trial`));
            if (!again) break;
            sides[side].collector.discardLast(s, phase.name);
            // the trial put aside and the wait for a quiet machine: not the phase's time
            asideMs += ms[side] + (ctx.now() - waitFrom);
            ms[side] = await trial(side);
          }
        }
        // the order drawn (the seed's), though a first side run again ran after the second
        order.push(drawn);
        // both sides' first trials say how long the phase takes to settle
        if (k === 1 && warmupShortens(s, phase, pairs))
          warmupMs = laterWarmup(ctx, s, phase, [sides.base.collector, sides.head.collector]);
        return true;
      };
      const results = (side: Side) => sides[side].collector.results([s], ctx.hashes)[0] as ScenarioResult;
      const early = earlyCount(ctx, pairs, true);
      const t0 = ctx.now();
      for (let k = 1; k <= early; k++) await pair(k, pairs);
      if (early < pairs) {
        const [head, base] = [results('head'), results('base')];
        const look = judging(ctx, () => earlyLookAb(head, base, s.thresholds, phase.name));
        logEarly(ctx, `${s.name}/${phase.name}`, early, pairs, 'pairs', look);
        if (look.stop) {
          setLooks({ ...looks, stopped: early });
          continue;
        }
      }
      for (let k = early + 1; k <= pairs; k++) await pair(k, pairs);
      const firstLookMs = ctx.now() - t0 - asideMs;
      if (!ctx.extend || looks.cap <= looks.first) continue;
      const open = () => {
        const [head, base] = [results('head'), results('base')];
        return judging(ctx, () => openRows(compareAbScenario(head, base, s.thresholds, false), phase.name));
      };
      const where = `${s.name}/${phase.name}`;
      const plan: ConfirmPlan = { where, open: open(), looks, firstLookMs, unit: 'pairs', phase: { setLooks, open } };
      plans.push({ plan, more: pair });
    }
  }
  // a pair's busy trial runs again at once, confirmation's too: no pair is put aside whole
  await confirmAll(ctx, plans, seed, undefined);
  return { seed, orders };
}

/**
 * sut.profile: one more trial of every phase on every side, after the measured ones, with each
 * service's profile taken over its measured window. Its measurement is none of the phase's trials
 * (the collector leaves it out): a profiler's overhead never reaches a verdict. A pprof endpoint is
 * fetched by the runner; perf is started by the host when the runner says the window began.
 */
export async function profileTrials(
  ctx: MeasureContext,
  sides: readonly MeasureSide[],
  profile: readonly SutProfile[],
): Promise<void> {
  if (profile.length === 0) return;
  const services = profile.map((p) => p.service).join(', ');
  const endpoints = profile.filter((p): p is ProfileRequest => 'url' in p);
  const perf = profile.filter((p): p is Extract<SutProfile, { perf: unknown }> => 'perf' in p);
  for (const s of ctx.scenarios) {
    for (const phase of s.phases) {
      ctx.log(
        `[perf-gate] ${s.name}/${phase.name}: one more trial${sides.length > 1 ? ' a side' : ''}, profiling ${services}`,
      );
      for (const side of sides) {
        // each endpoint asked for the measured window's seconds (a phase of a request count: its
        // trials' median length)
        const windowMs = profileWindowMs(ctx, side, s, phase);
        const asked = endpoints.map((p) => ({ service: p.service, url: profileUrl(p.url, windowMs) }));
        // (a profiling trial even with no endpoint: the runner marks it, the collector leaves it out)
        const { began, forget } = side.collector.measureStarts();
        const trial = side.runner.trial({ scenario: s.name, phase: phase.name, trial: 1, trials: 1, profile: asked });
        // perf's helpers start with the trial and sample from the measured window's start (the
        // runner's stage event); a trial that ends before it stops them unsampled
        const started = Promise.race([began.then(() => true), trial.then(noWindow, noWindow)]);
        const sampled =
          perf.length === 0
            ? Promise.resolve([])
            : samplePerf(side, perf, windowMs, started).then(async (got) =>
                (await started)
                  ? got
                  : perf.map((p) => ({
                      error: `sut.profile.${p.service}: perf: the trial ended before its window began`,
                    })),
              );
        try {
          await trial;
        } catch (err) {
          // the helpers end before the teardown (a created one could outlive the run's sweep)
          await sampled;
          throw err;
        } finally {
          // a trial that ended before its window leaves no wait behind for the next one's
          forget();
        }
        for (const [i, got] of (await sampled).entries())
          side.collector.profiles.push({
            scenario: s.name,
            phase: phase.name,
            service: (perf[i] as SutProfile).service,
            format: 'perf',
            ...got,
          });
      }
    }
  }
}

const noWindow = (): false => false;

/** Each perf service sampled over the window at once (one helper each). */
function samplePerf(
  side: MeasureSide,
  perf: ReadonlyArray<{ service: string; perf: { image: string } }>,
  windowMs: number,
  started: Promise<boolean>,
): Promise<Array<{ data: Uint8Array } | { error: string }>> {
  const sampler = side.perf;
  return Promise.all(
    perf.map((p) =>
      sampler
        ? sampler(p.service, p.perf.image, windowMs, started)
        : { error: `sut.profile.${p.service}: perf: no container of it to sample beside` },
    ),
  );
}

/** A phase without a duration whose trials did not say theirs: the profile it is asked for, ms. */
const PROFILE_DEFAULT_MS = 10_000;

/** The measured window a profiling trial of `phase` has: its duration, else its trials' median. */
function profileWindowMs(ctx: MeasureContext, side: MeasureSide, s: Scenario, phase: Phase): number {
  const duration = (phase as { durationMs?: number }).durationMs;
  if (duration !== undefined) return duration;
  const trials = side.collector.results([s], ctx.hashes)[0]?.phases.find((p) => p.name === phase.name)?.trials ?? [];
  const lengths = trials.map((t) => t.durationMs).sort((a, b) => a - b);
  return lengths.length > 0 ? (lengths[Math.floor(lengths.length / 2)] as number) : PROFILE_DEFAULT_MS;
}

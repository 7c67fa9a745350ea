// The one step that differs between modes: measuring. One side (gate, update, sweep) or two (A/B),
// each through its long-lived runner, phase by phase: the configured trials (pairs), then, where a row
// is outside its band but not yet confirmed, more of them up to the cap (compare/confirm.ts). A/B
// pairs run in an order drawn afresh for every pair from a seeded generator, recorded for the report.
import { compareAbScenario } from '../compare/ab.js';
import { compareScenario } from '../compare/compare.js';
import { looksOf, type Looks } from '../compare/confirm.js';
import type { Scenario } from '../config/types.js';
import type { BaselineFile, Comparison, ScenarioResult } from '../results/types.js';
import { drawOrder, type PairOrder, seededRandom } from '../stats/random.js';
import type { TrialCollector } from './collect.js';
import type { Side } from './sut-session.js';

/** One side's runner: one trial of a phase per call (the session's RunnerHandle). */
export interface TrialRunner {
  trial(cmd: { scenario: string; phase: string; trial: number; trials: number }): Promise<void>;
}

export interface MeasureSide {
  runner: TrialRunner;
  collector: TrialCollector;
}

export interface ConfirmSettings {
  /** gate.confirm.max-trials; 0 = off */
  maxTrials: number;
  /** the most wall time one phase's extra trials may take, ms */
  maxTimeMs: number;
}

export interface MeasureContext {
  scenarios: Scenario[];
  hashes: ReadonlyMap<string, string>;
  /** off in update and sweep runs: they compare nothing (or only for information) */
  confirm: ConfirmSettings | undefined;
  log: (line: string) => void;
  /** ms, monotonic enough for a time budget */
  now: () => number;
}

/** The rows of one phase (a mix's entries and a WebSocket phase's results included) still open. */
function openRows(comparisons: Comparison[], phase: string): Comparison[] {
  return comparisons.filter((c) => c.open && (c.phase === phase || c.phase.startsWith(`${phase}.`)));
}

function describeOpen(rows: Comparison[]): string {
  return rows.map((c) => `${c.phase} ${c.metric}${c.pValue !== undefined ? ` (p=${c.pValue})` : ''}`).join(', ');
}

/**
 * Runs extra trials (`more(k)` runs trial or pair k) from `from` up to the cap while `stillOpen` and
 * the time budget allow; the two-look rule needs every trial up to the cap once it extends, so it
 * stops early only for time. Returns how many it ran.
 */
async function extend(
  ctx: MeasureContext,
  looks: Looks,
  more: (k: number) => Promise<void>,
): Promise<{ ran: number; stoppedForTime: boolean }> {
  const budget = ctx.confirm?.maxTimeMs ?? 0;
  const started = ctx.now();
  let last = 0;
  let ran = 0;
  for (let k = looks.first + 1; k <= looks.cap; k++) {
    const spent = ctx.now() - started;
    // the next trial would take about as long as the last one did; a budget of 0 runs none
    if (budget <= 0 || spent + last > budget) return { ran, stoppedForTime: true };
    const t0 = ctx.now();
    await more(k);
    last = ctx.now() - t0;
    ran++;
  }
  return { ran, stoppedForTime: false };
}

/** When rows of a phase are open: says which, runs the extension, and says when time stopped it. */
async function confirmPhase(
  ctx: MeasureContext,
  where: string,
  open: Comparison[],
  looks: Looks,
  unit: 'trials' | 'pairs',
  more: (k: number) => Promise<void>,
): Promise<void> {
  if (open.length === 0) return;
  ctx.log(
    `[perf-gate] ${where}: outside the band, not yet confirmed: ${describeOpen(open)}; running up to ${looks.cap - looks.first} more ${unit}`,
  );
  const { ran, stoppedForTime } = await extend(ctx, looks, more);
  if (stoppedForTime) {
    ctx.log(`[perf-gate] ${where}: confirmation stopped after ${ran} more ${unit} (gate.confirm.max-time)`);
  }
}

/** Gate, update and sweep: one side. `baselines` decide, in gate runs, which rows need confirming. */
export async function measureOne(
  ctx: MeasureContext,
  side: MeasureSide,
  baselines: ReadonlyMap<string, BaselineFile | undefined>,
): Promise<void> {
  for (const s of ctx.scenarios) {
    for (const phase of s.phases) {
      const looks = looksOf(s.trials, ctx.confirm?.maxTrials ?? 0);
      side.collector.setLooks(s.name, phase.name, looks);
      const run = (trial: number, trials: number) =>
        side.runner.trial({ scenario: s.name, phase: phase.name, trial, trials });
      for (let t = 1; t <= s.trials; t++) await run(t, s.trials);
      const baseline = baselines.get(s.name);
      if (!ctx.confirm || looks.cap <= looks.first || !baseline) continue;
      const current = side.collector.results([s], ctx.hashes)[0] as ScenarioResult;
      const rows = compareScenario(current, s.thresholds, baseline, false).comparisons;
      await confirmPhase(ctx, `${s.name}/${phase.name}`, openRows(rows, phase.name), looks, 'trials', (k) =>
        run(k, looks.cap),
      );
    }
  }
}

/** A/B: what `measureAb` adds to the results: the seed and each phase's pair orders. */
export interface AbOrders {
  seed: number;
  orders: Array<{ scenario: string; phase: string; order: PairOrder[] }>;
}

/**
 * A/B: per phase, `pairs` pairs, each pair's order drawn from the seeded generator; then more pairs
 * up to the cap where a row is outside its band but not yet confirmed.
 */
export async function measureAb(
  ctx: MeasureContext,
  sides: Record<Side, MeasureSide>,
  pairs: number,
  seed: number,
): Promise<AbOrders> {
  const random = seededRandom(seed);
  const orders: AbOrders['orders'] = [];
  for (const s of ctx.scenarios) {
    for (const phase of s.phases) {
      const looks = looksOf(pairs, ctx.confirm?.maxTrials ?? 0);
      const order: PairOrder[] = [];
      orders.push({ scenario: s.name, phase: phase.name, order });
      for (const side of Object.values(sides)) side.collector.setLooks(s.name, phase.name, looks);
      const pair = async (k: number, total: number) => {
        const drawn = drawOrder(random);
        order.push(drawn);
        const first: Side = drawn === 'AB' ? 'base' : 'head';
        const second: Side = first === 'base' ? 'head' : 'base';
        ctx.log(`[perf-gate] ${s.name}/${phase.name} pair ${k}/${total}: ${first}, then ${second}`);
        for (const side of [first, second]) {
          await sides[side].runner.trial({ scenario: s.name, phase: phase.name, trial: k, trials: total });
        }
      };
      for (let k = 1; k <= pairs; k++) await pair(k, pairs);
      if (!ctx.confirm || looks.cap <= looks.first) continue;
      const [head] = sides.head.collector.results([s], ctx.hashes);
      const [base] = sides.base.collector.results([s], ctx.hashes);
      const rows = compareAbScenario(head as ScenarioResult, base as ScenarioResult, s.thresholds, false);
      await confirmPhase(ctx, `${s.name}/${phase.name}`, openRows(rows, phase.name), looks, 'pairs', (k) =>
        pair(k, looks.cap),
      );
    }
  }
  return { seed, orders };
}

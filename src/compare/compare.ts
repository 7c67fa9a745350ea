// Pure: compares one scenario's results with its baseline (SPEC §4): band (regress AND floor),
// absolute limits with or without a baseline, Mann–Whitney confirmation with ≥ 3 trials on both
// sides, new error classes, stale baselines.
import type { MetricName } from '../config/schema.js';
import type { Threshold, Thresholds } from '../config/types.js';
import type {
  BaselineFile,
  Comparison,
  PhaseResult,
  ScenarioResult,
  ScenarioStatus,
  Verdict,
} from '../results/types.js';
import { binomial, mannWhitneyGreater } from '../stats/mann-whitney.js';
import { formatBytes, formatUs } from '../units.js';
import { direction, errorClasses, isLatency, metricValue, trialValues, unmeasured } from './metrics.js';

/**
 * The gate's default significance level. With the default 5 trials a side the smallest Mann–Whitney p
 * is 1/252, and p ≤ 0.01 needs at least 23 of the 25 trial pairs worse: far more than the three
 * coin flips (3 vs 3 trials, smallest p 0.05) that confirmed run-to-run noise before.
 */
export const DEFAULT_ALPHA = 0.01;
export const MIN_TRIALS_FOR_CONFIRMATION = 3;

/** Used when a scenario has no thresholds at all. */
export const BUILTIN_THRESHOLDS: Thresholds = {
  p50: { regress: 0.1, floor: 200 },
  p99: { regress: 0.25, floor: 1000 },
  rps: { regress: 0.1 },
};

export function formatMetricValue(metric: string, v: number): string {
  if (isLatency(metric as MetricName)) return formatUs(v);
  if (metric === 'memory') return formatBytes(v);
  if (metric === 'error-rate' || metric === 'delivery')
    return `${(v * 100).toFixed(v < 0.001 ? 3 : 2).replace(/\.?0+$/, '')}%`;
  if (metric === 'cpu') return `${v.toFixed(1)}%`;
  if (Number.isInteger(v)) return String(v);
  return v.toFixed(v >= 100 ? 0 : 1);
}

/** The band in words, signed in the worse direction: "+10% and +200µs", "-10%". */
export function describeBand(metric: MetricName, t: Threshold): string {
  const sign = direction(metric) > 0 ? '+' : '-';
  const parts: string[] = [];
  if (t.regress !== undefined) parts.push(`${sign}${+(t.regress * 100).toFixed(2)}%`);
  if (t.floor !== undefined) parts.push(`${sign}${formatMetricValue(metric, t.floor)}`);
  const band = parts.join(' and ');
  const limit = t.limit !== undefined ? `≤ ${formatMetricValue(metric, t.limit)}` : '';
  const min = t.min !== undefined ? `≥ ${formatMetricValue(metric, t.min)}` : '';
  return [band, limit, min].filter(Boolean).join(', ') || '—';
}

/** Why `value` breaks an absolute limit of `t` (`below`/`max` above, `min` below), or undefined. */
export function limitBreach(metric: MetricName, t: Threshold, value: number): string | undefined {
  if (t.limit !== undefined && value > t.limit) return `above the limit ${formatMetricValue(metric, t.limit)}`;
  if (t.min !== undefined && value < t.min) return `below the minimum ${formatMetricValue(metric, t.min)}`;
  return undefined;
}

/** How much worse (positive) or better (negative) `current` is than `baseline`, absolute and relative. */
export function change(
  metric: MetricName,
  baseline: number,
  current: number,
): { worse: number; relative: number | null } {
  const worse = direction(metric) * (current - baseline);
  if (baseline === 0) return { worse, relative: current === 0 ? 0 : null };
  return { worse, relative: worse / Math.abs(baseline) };
}

export function beyondBand(t: Threshold, worse: number, relative: number | null): boolean {
  if (t.regress === undefined && t.floor === undefined) return false;
  // a relative change from a zero baseline is unbounded
  const rel = t.regress === undefined || relative === null || relative > t.regress;
  const abs = t.floor === undefined || worse > t.floor;
  return worse > 0 && rel && abs;
}

function comparePhaseMetric(
  scenario: string,
  metric: MetricName,
  t: Threshold,
  current: PhaseResult,
  baseline: PhaseResult | undefined,
): Comparison {
  const value = metricValue(current.merged, metric);
  const out: Comparison = {
    scenario,
    phase: current.name,
    metric,
    baseline: null,
    current: value,
    delta: null,
    band: describeBand(metric, t),
    result: 'pass',
  };
  // invalid rows still carry the baseline's value: they were compared, just not trusted
  if (baseline) out.baseline = metricValue(baseline.merged, metric);
  if (generatorBound(current)) return { ...out, result: 'invalid', reason: GENERATOR_BOUND_REASON };
  const missing = unmeasured(current.merged, metric);
  if (missing) return { ...out, result: 'invalid', reason: missing };
  const breach = limitBreach(metric, t, value);
  if (!baseline) return breach ? { ...out, result: 'regression', reason: breach } : { ...out, result: 'no-baseline' };
  const baseMissing = unmeasured(baseline.merged, metric);
  if (baseMissing) {
    const reason = isLatency(metric)
      ? 'the baseline has no successful responses to compare with'
      : `the baseline: ${baseMissing}`;
    return { ...out, result: 'invalid', reason };
  }
  const base = metricValue(baseline.merged, metric);
  const { worse, relative } = change(metric, base, value);
  out.baseline = base;
  out.delta = relative === null ? null : direction(metric) * relative || 0;
  if (breach) return { ...out, result: 'regression', reason: breach };
  const worseOut = beyondBand(t, worse, relative);
  const betterRelative = relative === null ? null : -relative;
  const betterOut = beyondBand(t, -worse, betterRelative);
  if (!worseOut && !betterOut) return out;
  let significant = true;
  if (current.trials.length >= MIN_TRIALS_FOR_CONFIRMATION && baseline.trials.length >= MIN_TRIALS_FOR_CONFIRMATION) {
    const cur = trialValues(current.trials, metric).map((v) => direction(metric) * v);
    const old = trialValues(baseline.trials, metric).map((v) => direction(metric) * v);
    const { pValue } = worseOut ? mannWhitneyGreater(cur, old) : mannWhitneyGreater(old, cur);
    out.pValue = Math.round(pValue * 10_000) / 10_000;
    const alpha = t.alpha ?? DEFAULT_ALPHA;
    significant = pValue <= alpha;
    const smallest = 1 / binomial(current.trials.length + baseline.trials.length, current.trials.length);
    if (!significant && worseOut && smallest > alpha) {
      return {
        ...out,
        result: 'unconfirmed',
        reason: `${current.trials.length} vs ${baseline.trials.length} trials cannot reach p ≤ ${alpha} (the smallest p is ${+smallest.toFixed(4)}); raise trials`,
      };
    }
  }
  if (worseOut) return { ...out, result: significant ? 'regression' : 'unconfirmed' };
  return significant ? { ...out, result: 'improvement' } : out;
}

export const GENERATOR_BOUND_REASON =
  'generator-bound: the load generator, not the service, limited this phase (see its flags)';

/** A phase whose generator saturated: none of its comparisons is a verdict (its errors included). */
export function generatorBound(p: PhaseResult): boolean {
  return p.flags.some((f) => f.startsWith('generator-bound'));
}

export function newErrorClasses(scenario: string, current: PhaseResult, baseline: PhaseResult): Comparison[] {
  const known = new Set(errorClasses(baseline.merged));
  const bound = generatorBound(current);
  return errorClasses(current.merged)
    .filter((c) => !known.has(c))
    .map((c) => {
      const status = /^(HTTP|gRPC) (.*)$/.exec(c)?.[2];
      const count = status !== undefined ? (current.merged.statusCodes[status] ?? 0) : (current.merged.errors[c] ?? 0);
      return {
        scenario,
        phase: current.name,
        metric: 'error-class',
        baseline: 0,
        current: count,
        delta: null,
        band: 'no new error classes',
        result: (bound ? 'invalid' : 'regression') as Verdict,
        reason: `new error class ${c} (${count}×), never seen in the baseline${bound ? `; ${GENERATOR_BOUND_REASON}` : ''}`,
      };
    });
}

/**
 * The thresholds a phase is gated with: the scenario's for a phase; for a mix entry's results only
 * what the entry's own `thresholds` give (none: reported, not gated), and no error-class check of its
 * own (its phase has one over every entry).
 */
export function phaseGate(
  scenario: Pick<ScenarioResult, 'requestThresholds'>,
  phase: Pick<PhaseResult, 'request'>,
  gated: Thresholds,
): { thresholds: Thresholds; errorClasses: boolean } {
  if (phase.request === undefined) return { thresholds: gated, errorClasses: true };
  return { thresholds: scenario.requestThresholds?.[phase.request] ?? {}, errorClasses: false };
}

export interface ScenarioComparison {
  status: ScenarioStatus;
  comparisons: Comparison[];
}

export function compareScenario(
  current: ScenarioResult,
  thresholds: Thresholds,
  baseline: BaselineFile | undefined,
): ScenarioComparison {
  const gated = Object.keys(thresholds).length > 0 ? thresholds : BUILTIN_THRESHOLDS;
  const status: ScenarioStatus = {
    scenario: current.name,
    baseline: !baseline ? 'missing' : baseline.scenarioHash !== current.scenarioHash ? 'stale' : 'present',
  };
  if (baseline) {
    status.baselineTime = baseline.provenance.time;
    status.baselineCommit = baseline.provenance.commit;
  }
  const comparisons: Comparison[] = [];
  for (const phase of current.phases) {
    const old = baseline?.phases.find((p) => p.name === phase.name);
    const gate = phaseGate(current, phase, gated);
    for (const [metric, t] of Object.entries(gate.thresholds) as Array<[MetricName, Threshold]>) {
      comparisons.push(comparePhaseMetric(current.name, metric, t, phase, old));
    }
    if (old && gate.errorClasses) comparisons.push(...newErrorClasses(current.name, phase, old));
  }
  return { status, comparisons };
}

export type OverallVerdict = 'pass' | 'regression' | 'no-baseline';

export function overallVerdict(comparisons: readonly Comparison[]): OverallVerdict {
  if (comparisons.some((c) => c.result === 'regression')) return 'regression';
  // nothing was compared with a baseline (no baseline, or only invalid rows without one)
  if (comparisons.length > 0 && comparisons.every((c) => c.baseline === null)) return 'no-baseline';
  return 'pass';
}

const ORDER: Record<Verdict, number> = {
  regression: 0,
  unconfirmed: 1,
  invalid: 2,
  improvement: 3,
  'no-baseline': 4,
  pass: 5,
};

/** Regressions first, then warnings; stable within a class. */
export function sortForReport(comparisons: readonly Comparison[]): Comparison[] {
  return comparisons
    .map((c, i) => ({ c, i }))
    .sort((a, b) => ORDER[a.c.result] - ORDER[b.c.result] || a.i - b.i)
    .map(({ c }) => c);
}

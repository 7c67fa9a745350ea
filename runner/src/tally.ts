// What one engine instance counted in one run, in a form that crosses worker threads (plain data,
// the histogram encoded), and the pure merge of several instances into one trial measurement:
// histograms merged (never percentiles averaged), counts summed, the worst thread's loop delay.
import { sumOutcomes } from '../../src/runner-kit/measurement.js';
import type { TrialMeasurement } from '../../src/runner-kit/measurement.js';
import { encodeHistogram, mergeHistograms, summarize } from '../../src/runner-kit/histogram.js';
import { mergeTimelines, summarizeTimeline, type TimelineTally } from '../../src/runner-kit/timeline.js';

/** The counts of a trial measurement as one instance saw them, plus what the merge needs. */
export interface EngineTally extends Pick<
  TrialMeasurement,
  | 'sent'
  | 'responses'
  | 'successes'
  | 'failures'
  | 'connectionCloses'
  | 'statusCodes'
  | 'errors'
  | 'checks'
  | 'expectedStatuses'
  | 'open'
  | 'delivery'
> {
  /** the measured window of this instance, ms */
  elapsedMs: number;
  /** response bytes, headers included */
  bytes: number;
  /** success latency, HDR compressed base64 */
  histogram: string;
  loopDelayP99Us: number;
  loopDelayMaxUs: number;
  /** share of the window this thread's event loop was busy, 0..1 */
  loopUtilization: number;
  /** a mix's entries, in mix order (their counts are included above) */
  requests?: RequestTally[];
  /** a script hook's calls and time in them, µs */
  hook?: { calls: number; us: number };
  /** an open loop's responses within its window: what its rate counts (absent: every response) */
  answeredInWindow?: number;
  /** success latency by the time it came (the phase's own; a mix entry has none) */
  timeline?: TimelineTally;
}

/** One mix entry's counts in one instance's run. */
export type RequestTally = Pick<
  EngineTally,
  | 'sent'
  | 'responses'
  | 'successes'
  | 'failures'
  | 'bytes'
  | 'statusCodes'
  | 'errors'
  | 'checks'
  | 'expectedStatuses'
  | 'histogram'
  | 'answeredInWindow'
>;

/**
 * Each mix entry's trial from the instances' tallies, over the same window as the phase's (the
 * instances' windows and loop figures are the phase's; closes and the open-loop schedule are the
 * phase's alone). Empty without a mix.
 */
export function combineRequestTallies(
  trial: number,
  names: readonly string[],
  tallies: readonly EngineTally[],
  generator: { cpuUs: number; wallMs: number; threads: number; cores: number },
): Array<{ name: string; measurement: TrialMeasurement; histogram: string }> {
  return names.map((name, k) => {
    const parts = tallies.map((t): EngineTally => {
      // the phase's own failed checks, expected statuses and answers within the window are not an
      // entry's (its own come from `own`)
      const {
        open: _open,
        delivery: _delivery,
        requests,
        checks: _checks,
        expectedStatuses: _expected,
        answeredInWindow: _answered,
        timeline: _timeline,
        ...phase
      } = t;
      const own = requests?.[k];
      if (!own) throw new Error(`an engine instance has no counts for mix entry ${name}`);
      return { ...phase, ...own, connectionCloses: 0 };
    });
    return { name, ...combineTallies(trial, parts, generator) };
  });
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/**
 * One trial from the tallies of its engine instances. The instances ran concurrently, so the trial's
 * duration is the longest window and rates are totals over it. `cpuUs` is the runner process's CPU
 * time over the trial (all threads).
 */
export function combineTallies(
  trial: number,
  tallies: readonly EngineTally[],
  generator: { cpuUs: number; wallMs: number; threads: number; cores: number },
): { measurement: TrialMeasurement; histogram: string } {
  const { statusCodes, errors, optional } = sumOutcomes(tallies);
  const sum = (f: (t: EngineTally) => number): number => tallies.reduce((a, t) => a + f(t), 0);
  const durationMs = tallies.reduce((a, t) => Math.max(a, t.elapsedMs), 0);
  const seconds = durationMs / 1000;
  const merged = mergeHistograms(tallies.map((t) => t.histogram));
  const responses = sum((t) => t.responses);
  // an open loop's rate: the responses that came within its window (a saturated service's backlog,
  // answered after it, shows in latency and errors, not as throughput it did not keep)
  const rated = sum((t) => t.answeredInWindow ?? t.responses);
  const measurement: TrialMeasurement = {
    trial,
    durationMs: Math.round(durationMs * 1000) / 1000,
    sent: sum((t) => t.sent),
    responses,
    successes: sum((t) => t.successes),
    failures: sum((t) => t.failures),
    statusCodes,
    errors,
    rps: seconds > 0 ? round2(rated / seconds) : 0,
    bytesPerSec: seconds > 0 ? Math.round(sum((t) => t.bytes) / seconds) : 0,
    latency: summarize(merged),
    connectionCloses: sum((t) => t.connectionCloses),
    generator: {
      cpuPct: generator.wallMs > 0 ? round2((generator.cpuUs / 1000 / generator.wallMs) * 100) : 0,
      eventLoopDelayP99Us: tallies.reduce((a, t) => Math.max(a, t.loopDelayP99Us), 0),
      eventLoopDelayMaxUs: tallies.reduce((a, t) => Math.max(a, t.loopDelayMaxUs), 0),
      busyPct: round2(tallies.reduce((a, t) => Math.max(a, t.loopUtilization), 0) * 100),
      threads: generator.threads,
      cores: generator.cores,
    },
  };
  const hooked = tallies.filter((t) => t.hook);
  if (hooked.length > 0)
    measurement.generator.hook = {
      calls: hooked.reduce((a, t) => a + (t.hook?.calls ?? 0), 0),
      us: hooked.reduce((a, t) => a + (t.hook?.us ?? 0), 0),
    };
  Object.assign(measurement, optional);
  const timeline = mergeTimelines(tallies.map((t) => t.timeline));
  if (timeline) measurement.timeline = summarizeTimeline(timeline);
  const histogram = encodeHistogram(merged);
  merged.destroy();
  return { measurement, histogram };
}

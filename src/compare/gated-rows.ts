// Pure: what a judging run gates, in words `validate` prints (issue 48): each scenario's rows by
// metric, which have a regression band and which an absolute limit only (k6's thresholds are limits:
// `http_req_duration: ['p(95)<200']` never catches a +50% below 200 ms), a flow's or mix's own phase
// rows apart from its steps' or entries', and what measuring costs in wall time.
import type { MetricName } from '../metrics/registry.js';
import type { Config, Scenario, Threshold, Thresholds } from '../config-parts/types.js';
import { protocolOf } from '../protocols/index.js';
import { hasBand } from './band.js';
import { BUSY_REPEATS_PER_TRIAL, busyRepeats, plannedTrials } from './busy.js';
import { describeBand } from './compare.js';
import { type Judging, judgedThresholds } from './judging.js';

/** One threshold set's rows: banded (judged), limits only, and bands shown as information. */
function rowsOf(set: Thresholds, informed = false): { banded: MetricName[]; limits: string[]; inform: MetricName[] } {
  const banded: MetricName[] = [];
  const limits: string[] = [];
  const inform: MetricName[] = [];
  for (const [m, t] of Object.entries(set) as Array<[MetricName, Threshold]>) {
    if (hasBand(t) && !(t.inform || informed)) banded.push(m);
    else if (t.limit !== undefined || t.min !== undefined)
      limits.push(`${m} ${describeBand(m, { limit: t.limit, min: t.min })}`);
    if (hasBand(t) && (t.inform || informed)) inform.push(m);
  }
  return { banded, limits, inform };
}

function said(label: string, set: Thresholds, informed = false): string | undefined {
  const { banded, limits, inform } = rowsOf(set, informed);
  const parts = [
    banded.length ? `${banded.join(', ')} banded` : '',
    limits.length ? `${limits.join(', ')}: limit only, no regression band (add regress: to gate a change)` : '',
    inform.length ? `${inform.join(', ')} shown as information` : '',
  ].filter(Boolean);
  return parts.length ? `${label}: ${parts.join('; ')}` : undefined;
}

/** The gated rows of each scenario, one line per threshold set, and how many rows the run gates. */
export function gatedRowsSaid(config: Config, judging: Judging): { lines: string[]; rows: number; limitsOnly: number } {
  const lines: string[] = [];
  let rows = 0;
  let limitsOnly = 0;
  for (const s of config.scenarios) {
    const entries = protocolOf(s.target).entries(s.target);
    const phases = s.phases.map((p) => p.name).join(', ');
    const own = judgedThresholds(s, judging);
    // gate.bands: inform: the scenario's relative bands are shown, not judged (run/plan.ts informed)
    const informed = config.gate.bands === 'inform';
    const count = (set: Thresholds, inform = false) => {
      const r = rowsOf(set, inform);
      rows += (r.banded.length + r.limits.length) * s.phases.length;
      limitsOnly += r.limits.length * s.phases.length;
    };
    count(own, informed);
    // a flow's or mix's own phase: every request together (the defaults' bands gate it too)
    const where =
      entries.length && s.target.kind === 'http'
        ? `${s.name} (${phases}; all its requests together)`
        : `${s.name} (${phases})`;
    const line = said(where, own, informed);
    if (line) lines.push(line);
    for (const e of entries) {
      count(e.thresholds);
      const entry = said(`${s.name} · ${e.name} (${phases})`, e.thresholds);
      if (entry) lines.push(entry);
    }
  }
  return { lines, rows, limitsOnly };
}

/** A wall time as a reader plans with it: "40 s", "3.5 min". */
function minutes(ms: number): string {
  return ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${+(ms / 60_000).toFixed(1)} min`;
}

/** A phase's measured time per trial, where the config says it (a duration or stages; a WebSocket
 * phase's messages at its rate, then the drain): warm-up too. */
function trialMs(s: Scenario, i: number): number | undefined {
  const p = s.phases[i];
  if (!p) return undefined;
  if (p.kind === 'ws') {
    if (p.rate === undefined || s.target.kind !== 'ws') return undefined;
    return s.warmupMs + (p.messages / p.rate) * 1000 + s.target.websocket.drainMs;
  }
  return p.durationMs === undefined ? undefined : s.warmupMs + p.durationMs;
}

/**
 * What measuring takes, in words: every phase's trials (both sides' in A/B, `pairs` pairs), as few as
 * its early look's where every phase stops there (gate.early-look), and at most up to each scenario's
 * confirmation cap; with `sut.profile`, one more trial of every phase on every side in each figure;
 * booting and phases of a request count are not known.
 */
export function wallTimeSaid(config: Config, unit: 'trials' | 'pairs', pairs = config.ab.pairs): string {
  let least = 0;
  let fewest = 0;
  let most = 0;
  let unknown = 0;
  let trials = 0;
  // the extra trials confirmation may run, both sides' (gate.busy's default allowance grows with them)
  let capped = 0;
  const early = config.gate.earlyLook;
  const profiled = config.sut.profile.length > 0 ? 1 : 0;
  for (const s of config.scenarios) {
    const n = unit === 'pairs' ? pairs : s.trials;
    const cap = Math.max(n, s.confirmCap ?? config.gate.confirm.maxTrials);
    const sides = unit === 'pairs' ? 2 : 1;
    s.phases.forEach((_, i) => {
      const ms = trialMs(s, i);
      if (ms === undefined) {
        unknown++;
        return;
      }
      least += ms * (n + profiled) * sides;
      trials += (n + profiled) * sides;
      capped += (cap - n) * sides;
      fewest += ms * ((early !== undefined && early < n ? early : n) + profiled) * sides;
      most += ms * (cap + profiled) * sides;
    });
  }
  const extra = unknown ? `${unknown} phase${unknown === 1 ? '' : 's'} of a request or message count` : '';
  if (least === 0) return `measuring ${extra} (its time is the service's), plus booting`;
  const ranges = [
    ...(fewest < least ? [`${minutes(fewest)} where every phase stops at its early look`] : []),
    ...(most > least ? [`at most ${minutes(most)} where a change is confirmed to its cap`] : []),
  ];
  const profiling = profiled ? ', one profiling trial a phase and side included' : '';
  const planned = plannedTrials(config.scenarios, unit === 'pairs' ? pairs : undefined);
  const busy = busySaid(config, least / Math.max(1, trials), planned, capped);
  return `measuring about ${minutes(least)}${ranges.length ? ` (${ranges.join(', ')})` : ''}${profiling}${extra ? ` plus ${extra}` : ''}, plus booting${busy}`;
}

/** gate.busy's part of the time: a trial taken beside other work is repeated, up to the run's
 * allowance for its `planned` trials (both sides' in A/B), each `meanMs` long on average; the default
 * allowance grows with the `capped` extra trials confirmation may run (session/measure.ts). */
function busySaid(config: Config, meanMs: number, planned: number, capped: number): string {
  const busy = config.gate.busy;
  if (!busy || meanMs === 0) return '';
  const allowance = busyRepeats(busy, planned);
  if (allowance === 0) return '';
  const atCap = busy.repeats === undefined ? allowance + BUSY_REPEATS_PER_TRIAL * capped : allowance;
  const grows = atCap > allowance;
  const more = grows ? `, ${minutes(meanMs * atCap)} at the cap` : '';
  const count = `${allowance} a run${grows ? `, ${atCap} at the cap` : ''}`;
  return `; on a busy machine up to ${minutes(meanMs * allowance)} more${more} (gate.busy repeats a trial taken beside other work, up to ${count})`;
}

/** What measuring every phase's trials once takes, in words: an update (no early look, no confirmation;
 * its profiling trials with sut.profile) or a sweep's levels (`scenarios` its ladders as phases, one
 * trial each; a sweep takes no profile: `profiled` false). */
export function measuringSaid(config: Config, scenarios: Scenario[], profiled = true): string {
  const { earlyLook: _none, ...gate } = config.gate;
  const once = scenarios.map(({ confirmCap: _cap, ...s }) => s);
  const sut = profiled ? config.sut : { ...config.sut, profile: [] };
  return wallTimeSaid(
    { ...config, sut, scenarios: once, gate: { ...gate, confirm: { ...gate.confirm, maxTrials: 0 } } },
    'trials',
  );
}

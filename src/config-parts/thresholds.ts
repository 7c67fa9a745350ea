// Pure: a metric's thresholds as the config writes them (numbers with units, k6 expressions) read into
// the normalised Threshold, each problem a `path: message` line. Shared by every protocol.
import { thresholdRules } from './k6-thresholds.js';
import { parseBytes, parseLatencyUs, parsePercent } from '../common/units.js';
import { type MetricName, metricOf, type MetricUnit } from '../metrics/registry.js';
import type { RawThreshold, RawThresholdsInput } from './schema-parts.js';
import type { Threshold, Thresholds } from './types.js';
import { bareNumberHint } from './schema-parts.js';

type Unit = MetricUnit;

function parseAbsolute(unit: Unit, value: string | number): number | undefined {
  if (typeof value === 'number') {
    if (value === 0) return 0;
    return unit === 'latency' || unit === 'percent' || unit === 'size' ? undefined : value;
  }
  switch (unit) {
    case 'latency':
      return parseLatencyUs(value);
    case 'percent':
      return parsePercent(value);
    case 'size':
      return parseBytes(value);
    default:
      return /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined;
  }
}

const UNIT_HINT: Record<Unit, string> = {
  latency: 'a latency like 200us, 1ms or 0.5s',
  rate: 'a number (per second)',
  count: 'a number',
  percent: 'a percentage like 0.1%',
  size: 'a size like 64MiB',
};

function normalizeThreshold(metric: MetricName, raw: RawThreshold, path: string, problems: string[]): Threshold {
  const def = metricOf(metric);
  const { unit } = def;
  const out: Threshold = {};
  if (raw.regress !== undefined) out.regress = parsePercent(raw.regress);
  if (raw.alpha !== undefined) out.alpha = raw.alpha;
  for (const key of ['floor', 'below', 'max', 'min'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    const fraction = parseAbsolute(unit, value);
    // a value in the metric's measured unit (cpu: percent points, 100 = one core)
    const parsed = fraction !== undefined && def.configScale !== 1 ? fraction * def.configScale : fraction;
    if (parsed === undefined) {
      // a bare number where the unit needs one: what to write (0.01 as an error rate: 1%)
      const hint = typeof value === 'number' ? bareNumberHint(unit, value) : undefined;
      problems.push(`${path}.${key}: ${hint ?? `must be ${UNIT_HINT[unit]}`}`);
      continue;
    }
    if (key === 'floor') out.floor = parsed;
    else if (key === 'min') out.min = parsed;
    else out.limit = out.limit === undefined ? parsed : Math.min(out.limit, parsed);
  }
  if (def.direction < 0) {
    if (raw.below !== undefined || raw.max !== undefined) {
      problems.push(
        `${path}: ${metric} gets worse downwards; an upper limit (below/max) makes no sense here (use min)`,
      );
    }
  } else if (raw.min !== undefined) {
    problems.push(`${path}.min: ${metric} gets worse upwards; give an upper limit (below or max) instead`);
  }
  return out;
}

/** Scenario thresholds override the defaults key by key; `below` and `max` are one limit, so a
 * scenario that gives either replaces the default's. Problems in the defaults are reported once,
 * under `defaults.thresholds`, by the caller. */
export function mergeThresholds(
  defaultsInput: RawThresholdsInput | undefined,
  ownInput: RawThresholdsInput | undefined,
  path: string,
  problems: string[],
): Thresholds {
  // k6 expressions read as rules; the defaults' problems are the caller's to report (checkThresholds)
  const defaults = thresholdRules(defaultsInput, 'defaults.thresholds', []);
  const own = thresholdRules(ownInput, path, problems);
  const out: Thresholds = {};
  const metrics = new Set([...Object.keys(defaults ?? {}), ...Object.keys(own ?? {})]) as Set<MetricName>;
  for (const metric of metrics) {
    const base: RawThreshold = { ...(defaults?.[metric] ?? {}) };
    const mine = own?.[metric];
    if (mine?.below !== undefined || mine?.max !== undefined) {
      delete base.below;
      delete base.max;
    }
    if (mine) normalizeThreshold(metric, mine, `${path}.${metric}`, problems);
    out[metric] = normalizeThreshold(metric, { ...base, ...(mine ?? {}) }, `${path}.${metric}`, []);
  }
  return out;
}

export function checkThresholds(input: RawThresholdsInput | undefined, path: string, problems: string[]): void {
  const raw = thresholdRules(input, path, problems);
  for (const [metric, t] of Object.entries(raw ?? {}) as Array<[MetricName, RawThreshold | undefined]>) {
    if (t) normalizeThreshold(metric, t, `${path}.${metric}`, problems);
  }
}

// Parsing of the human units used in perf-gate.yml: durations, latencies and percentages.
// Pure functions; each returns undefined for text it does not understand so callers can
// word the error with the key path.

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const LATENCY_UNITS_US: Record<string, number> = { us: 1, µs: 1, μs: 1, ms: 1000, s: 1_000_000 };

const NUMBER_WITH_UNIT = /^\s*(\d+(?:\.\d+)?)\s*([a-zµμ%]+)\s*$/i;

function parseWithUnits(text: string, table: Record<string, number>): number | undefined {
  const m = NUMBER_WITH_UNIT.exec(text);
  if (!m) return undefined;
  const factor = table[(m[2] as string).toLowerCase()];
  if (factor === undefined) return undefined;
  return Number(m[1]) * factor;
}

/** Go's and k6's compound form, largest unit first: `1m30s`, `1h30m`, `2s500ms`. */
const COMPOUND_DURATION =
  '(?=\\d)(\\d+(?:\\.\\d+)?h)?(\\d+(?:\\.\\d+)?m(?!s))?(\\d+(?:\\.\\d+)?s)?(\\d+(?:\\.\\d+)?ms)?';
const COMPOUND = new RegExp(`^\\s*${COMPOUND_DURATION}\\s*$`);

/** `500ms`, `30s`, `2m`, `1h`, `1m30s` → milliseconds. */
export function parseDurationMs(text: string): number | undefined {
  const single = parseWithUnits(text, DURATION_UNITS_MS);
  if (single !== undefined) return single;
  const m = COMPOUND.exec(text);
  if (!m) return undefined;
  const [, h, min, s, ms] = m;
  const part = (v: string | undefined, unit: string) =>
    v === undefined ? 0 : Number.parseFloat(v) * (DURATION_UNITS_MS[unit] as number);
  return part(h, 'h') + part(min, 'm') + part(s, 's') + part(ms, 'ms');
}

/** `200us`, `200µs`, `1ms`, `0.5s` → microseconds. */
export function parseLatencyUs(text: string): number | undefined {
  return parseWithUnits(text, LATENCY_UNITS_US);
}

/** `10%`, `0.1%` → fraction (0.1, 0.001). */
export function parsePercent(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  return m ? Number(m[1]) / 100 : undefined;
}

export const DURATION_PATTERN = `^\\s*(?:\\d+(\\.\\d+)?\\s*(ms|s|m|h)|${COMPOUND_DURATION})\\s*$`;
export const PERCENT_PATTERN = '^\\s*\\d+(\\.\\d+)?\\s*%\\s*$';

/** 1234567 µs → "1.23s", 1234 → "1.23ms", 812 → "812µs". */
export function formatUs(us: number): string {
  if (!Number.isFinite(us)) return String(us);
  // choose the unit after rounding, so 999.6µs reads 1ms, not 1000µs
  if (us >= 999_500) return `${trim(us / 1_000_000)}s`;
  if (us >= 999.5) return `${trim(us / 1000)}ms`;
  return `${trim(us)}µs`;
}

export function formatMs(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1000) return `${trim(ms / 1000)}s`;
  return `${trim(ms)}ms`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1023.5 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${trim(v)}${units[i]}`;
}

export function formatCount(n: number): string {
  if (n >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (n >= 10_000) return `${trim(n / 1000)}k`;
  return trim(n);
}

function trim(v: number): string {
  if (v >= 100) return v.toFixed(0);
  if (v >= 10) return v.toFixed(1).replace(/\.0$/, '');
  return v.toFixed(2).replace(/\.?0+$/, '');
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** `512MiB`, `100MB`, `2GiB` → bytes. */
export function parseBytes(text: string): number | undefined {
  return parseWithUnits(text, SIZE_UNITS);
}

/** A latency percentile of a summary for a table: a dash where nothing was measured (no successful
 * response, or a file from before that percentile existed), never "0µs". */
export function formatLatency<K extends string>(l: { count: number } & Partial<Record<K, number>>, key: K): string {
  const v = l[key];
  return l.count === 0 || v === undefined ? '—' : formatUs(v);
}

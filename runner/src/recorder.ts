// Per-run accounting shared by the load engines: success latency in µs into an HDR histogram,
// failures by status code, socket errors by kind, and the generator's own CPU and event-loop delay.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TrialMeasurement } from '../../src/results/types.js';
import { createHistogram, encodeHistogram, recordUs, summarize } from '../../src/stats/histogram.js';

export class Recorder {
  readonly histogram = createHistogram();
  sent = 0;
  responses = 0;
  successes = 0;
  failures = 0;
  bytes = 0;
  connectionCloses = 0;
  readonly statusCodes: Record<string, number> = {};
  readonly errors: Record<string, number> = {};
  private readonly startedAt = performance.now();
  private readonly cpuAtStart = process.cpuUsage();
  private readonly loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  private endedAt: number | undefined;

  constructor() {
    this.loop.enable();
  }

  private lastEventAt: number | undefined;

  response(status: number, bytes: number, latencyUs: number): void {
    if (this.endedAt !== undefined) return; // after the measured window
    this.lastEventAt = performance.now();
    this.responses++;
    this.bytes += bytes;
    const key = String(status);
    this.statusCodes[key] = (this.statusCodes[key] ?? 0) + 1;
    if (status >= 200 && status < 400) {
      this.successes++;
      recordUs(this.histogram, latencyUs);
    } else {
      this.failures++;
    }
  }

  error(kind: string): void {
    if (this.endedAt !== undefined) return;
    this.lastEventAt = performance.now();
    this.errors[kind] = (this.errors[kind] ?? 0) + 1;
  }

  /** Closes the measured window: now, or at the last response (fixed request counts). */
  stop(atLastEvent = false): void {
    if (this.endedAt === undefined)
      this.endedAt = atLastEvent ? (this.lastEventAt ?? performance.now()) : performance.now();
    this.loop.disable();
  }

  elapsedMs(): number {
    return (this.endedAt ?? performance.now()) - this.startedAt;
  }

  measurement(trial: number): { measurement: TrialMeasurement; histogram: string } {
    this.stop();
    const durationMs = this.elapsedMs();
    const cpu = process.cpuUsage(this.cpuAtStart);
    const seconds = durationMs / 1000;
    const measurement: TrialMeasurement = {
      trial,
      durationMs: Math.round(durationMs * 1000) / 1000,
      sent: this.sent,
      responses: this.responses,
      successes: this.successes,
      failures: this.failures,
      statusCodes: this.statusCodes,
      errors: this.errors,
      rps: seconds > 0 ? round2(this.responses / seconds) : 0,
      bytesPerSec: seconds > 0 ? Math.round(this.bytes / seconds) : 0,
      latency: summarize(this.histogram),
      connectionCloses: this.connectionCloses,
      generator: {
        cpuPct: durationMs > 0 ? round2(((cpu.user + cpu.system) / 1000 / durationMs) * 100) : 0,
        eventLoopDelayP99Us: lagUs(this.loop.percentile(99)),
        eventLoopDelayMaxUs: lagUs(this.loop.max),
      },
    };
    return { measurement, histogram: encodeHistogram(this.histogram) };
  }
}

// the histogram holds whole timer intervals (resolution + lag), in ns; report the lag
const LOOP_RESOLUTION_MS = 10;
function lagUs(intervalNs: number): number {
  return Number.isFinite(intervalNs) ? Math.max(0, Math.round(intervalNs / 1000 - LOOP_RESOLUTION_MS * 1000)) : 0;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/** Error kind for accounting: the socket error code, `timeout`, or `error`. */
export function errorKind(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && e.code !== '') return e.code;
  if (typeof e?.message === 'string' && /timed out/i.test(e.message)) return 'timeout';
  return 'error';
}

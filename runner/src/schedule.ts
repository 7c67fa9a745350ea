// Pure: the open-loop schedule of one engine instance. Send i of the phase is due at
// start + i / rate; with several instances, instance `offset` of `stride` owns sends
// offset, offset + stride, ... so that together they keep one evenly spaced schedule.
// The clock is passed in, so the bookkeeping of late and held-back sends is testable without timers.

/** A send that starts more than this after its scheduled time is `late` (timer jitter stays below). */
export const LATE_TOLERANCE_MS = 10;

export interface ScheduleOptions {
  /** the phase's start on this thread's clock (performance.now()), ms */
  startAt: number;
  /** arrival rate of the whole phase, per second */
  rate: number;
  durationMs: number;
  /** engine instances sharing the phase, and which one this is */
  stride: number;
  offset: number;
  /** bound on this instance's outstanding requests */
  maxInFlight: number;
}

/** Sends the phase calls for: every i with i / rate < duration. */
export function phaseSends(rate: number, durationMs: number): number {
  return Math.max(0, Math.ceil((rate * durationMs) / 1000 - 1e-9));
}

export class OpenSchedule {
  /** sends this instance owns */
  readonly total: number;
  private readonly intervalMs: number;
  private started = 0;
  /** sends with an index below this were due while max-in-flight requests were open */
  private heldUpTo = 0;
  late = 0;
  lateMaxInFlight = 0;
  maxSendDelayMs = 0;
  /** how many times a due send found max-in-flight requests open */
  heldBack = 0;

  constructor(private readonly o: ScheduleOptions) {
    this.intervalMs = 1000 / o.rate;
    const all = phaseSends(o.rate, o.durationMs);
    this.total = o.offset < all ? Math.ceil((all - o.offset) / o.stride) : 0;
  }

  /** scheduled time of this instance's send j */
  at(j: number): number {
    return this.o.startAt + (this.o.offset + j * this.o.stride) * this.intervalMs;
  }

  get startedCount(): number {
    return this.started;
  }

  /** the scheduled time of the next send not yet started, if any */
  nextAt(): number | undefined {
    return this.started < this.total ? this.at(this.started) : undefined;
  }

  /** the end of the scheduling window on this thread's clock */
  get windowEnd(): number {
    return this.o.startAt + this.o.durationMs;
  }

  private dueCount(now: number): number {
    let n = this.started;
    while (n < this.total && this.at(n) <= now) n++;
    return n;
  }

  /**
   * Starts every send that is due, as long as fewer than max-in-flight are open. `send` receives the
   * scheduled time (latency is measured from it) and must count itself in flight.
   */
  pump(now: number, inFlight: () => number, send: (scheduledAt: number) => void): void {
    const due = this.dueCount(now);
    while (this.started < due) {
      if (inFlight() >= this.o.maxInFlight) {
        if (due > this.heldUpTo) {
          this.heldUpTo = due;
          this.heldBack++;
        }
        return;
      }
      const j = this.started++;
      const scheduledAt = this.at(j);
      const delay = now - scheduledAt;
      if (delay > this.maxSendDelayMs) this.maxSendDelayMs = delay;
      if (delay > LATE_TOLERANCE_MS) {
        this.late++;
        if (j < this.heldUpTo) this.lateMaxInFlight++;
      }
      send(scheduledAt);
    }
  }
}

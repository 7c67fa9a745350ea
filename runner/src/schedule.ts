// Pure: the open-loop schedule of one engine instance, and who is charged for a late send.
// Send i of the phase is due at start + i / rate; with several instances, instance `offset` of
// `stride` owns sends offset, offset + stride, ... so that together they keep one evenly spaced
// schedule. The clock and the generator's idleness are passed in, so the attribution is testable
// without timers.
//
// The attribution rule (docs/measurement.md, open loop): a send due at S that starts at W was delayed by W − S.
// Split that delay at the last moment L before W at which the generator's event loop was idle (it
// had processed everything that had arrived and was waiting):
//   - the part before L, if every connection was busy with a request the service had not answered
//     (the send was held): the service's. It counts in the latency, which runs from W − that part.
//     Had a response arrived before L, the idle generator would have read it and sent; so this is a
//     lower bound of the service's share, short by at most one busy stretch of the generator;
//   - the part before L, if a connection was free: timer granularity (the generator was waiting
//     for its timer). Not charged: the latency runs from W;
//   - the part after max(S, L), while the generator was busy: the generator's. Not charged to the
//     service either; a send whose generator part exceeds LATE_MS is `late` for the generator, and
//     a phase with too many of those is generator-bound (its numbers are not trusted).

import type { OpenLoopCounts } from '../../src/runner-kit/measurement.js';
import { OPEN_LATE_MS } from '../../src/runner-kit/plan.js';
import { compileRamp, type Ramp, type RampClock, rampSends } from '../../src/runner-kit/ramp.js';

/** A delay above this is `late` (for the service or the generator). */
export const LATE_MS = OPEN_LATE_MS;

export interface ScheduleOptions {
  /** the phase's start on this thread's clock (performance.now()), ms */
  startAt: number;
  /** arrival rate of the whole phase, per second (with a ramp, its peak) */
  rate: number;
  durationMs: number;
  /** `stages`: the rate follows this ramp instead (send i is due when i arrivals have accumulated) */
  ramp?: Ramp | undefined;
  /** engine instances sharing the phase, and which one this is */
  stride: number;
  offset: number;
}

/** Sends the phase calls for: every i with i / rate < duration. */
export function phaseSends(rate: number, durationMs: number): number {
  return Math.max(0, Math.ceil((rate * durationMs) / 1000 - 1e-9));
}

/** How one send's delay splits between the service, the timer and the generator, ms. */
export interface SendDelay {
  service: number;
  timer: number;
  generator: number;
}

/** The attribution rule above, for one send: due at `due`, started `now`, generator last idle at `idleAt`. */
export function splitDelay(due: number, now: number, idleAt: number, held: boolean): SendDelay {
  const delay = Math.max(0, now - due);
  const waited = Math.min(delay, Math.max(0, idleAt - due));
  return { service: held ? waited : 0, timer: held ? 0 : waited, generator: delay - waited };
}

export class OpenSchedule {
  /** sends this instance owns */
  readonly total: number;
  private readonly intervalMs: number;
  private started = 0;
  /** sends with an index below this were due while no connection was free */
  private heldUpTo = 0;
  /** sends that started more than LATE_MS behind, for any cause */
  late = 0;
  lateService = 0;
  lateGenerator = 0;
  maxSendDelayMs = 0;
  /** summed delays by cause, ms */
  readonly delayMs: SendDelay = { service: 0, timer: 0, generator: 0 };

  /** a ramp's send times, its stages indexed once */
  private readonly clock: RampClock | undefined;

  constructor(private readonly o: ScheduleOptions) {
    this.intervalMs = 1000 / o.rate;
    this.clock = o.ramp ? compileRamp(o.ramp) : undefined;
    const all = o.ramp ? rampSends(o.ramp, o.durationMs) : phaseSends(o.rate, o.durationMs);
    this.total = o.offset < all ? Math.ceil((all - o.offset) / o.stride) : 0;
  }

  /** scheduled time of this instance's send j */
  at(j: number): number {
    const i = this.o.offset + j * this.o.stride;
    return this.o.startAt + (this.clock ? this.clock.timeOf(i) : i * this.intervalMs);
  }

  get startedCount(): number {
    return this.started;
  }

  /** the scheduled time of the next send not yet started, if any */
  nextAt(): number | undefined {
    return this.started < this.total ? this.at(this.started) : undefined;
  }

  /** sends due by `now` and not started: they wait for a connection */
  waiting(now: number): number {
    return this.dueCount(now) - this.started;
  }

  /**
   * The next due send fails before it could be written (its connection could not be opened): it
   * is started, so not `unfinished`, and the caller counts its error. False when none is due.
   */
  drop(now: number): boolean {
    if (this.started >= this.total || this.at(this.started) > now) return false;
    this.started++;
    return true;
  }

  /** The schedule's accounting at the end of a stage, `unfinished` sends not answered in time. */
  counts(unfinished: number): OpenLoopCounts {
    const us = (ms: number): number => Math.round(ms * 1000);
    return {
      scheduled: this.total,
      late: this.late,
      lateService: this.lateService,
      lateGenerator: this.lateGenerator,
      unfinished,
      maxSendDelayUs: us(this.maxSendDelayMs),
      delayUs: {
        service: us(this.delayMs.service),
        timer: us(this.delayMs.timer),
        generator: us(this.delayMs.generator),
      },
    };
  }

  /** the end of the scheduling window on this thread's clock */
  get windowEnd(): number {
    return this.o.startAt + this.o.durationMs;
  }

  private dueCount(now: number): number {
    if (this.started >= this.total || this.at(this.started) > now) return this.started;
    // due sends: every j with at(j) <= now
    const elapsed = now - this.o.startAt;
    const arrived = this.clock ? this.clock.arrivalsBy(elapsed) : elapsed / this.intervalMs;
    const k = Math.floor((arrived - this.o.offset) / this.o.stride + 1e-9) + 1;
    let n = Math.min(this.total, Math.max(this.started, k));
    while (n < this.total && this.at(n) <= now) n++;
    while (n > this.started && this.at(n - 1) > now) n--;
    return n;
  }

  /**
   * Starts every due send while `take()` gives a free connection (it returns false when there is
   * none). `send` gets the service's part of the send's delay, ms: its latency counts from the
   * moment it is written less that part. `idleAt` is the last moment the generator was idle (see
   * the rule above).
   */
  pump(now: number, idleAt: number, take: () => boolean, send: (serviceMs: number) => void): void {
    const due = this.dueCount(now);
    while (this.started < due) {
      if (!take()) {
        if (due > this.heldUpTo) this.heldUpTo = due;
        return;
      }
      const j = this.started++;
      const d = splitDelay(this.at(j), now, idleAt, j < this.heldUpTo);
      const delay = d.service + d.timer + d.generator;
      if (delay > this.maxSendDelayMs) this.maxSendDelayMs = delay;
      if (delay > LATE_MS) this.late++;
      if (d.service > LATE_MS) this.lateService++;
      if (d.generator > LATE_MS) this.lateGenerator++;
      this.delayMs.service += d.service;
      this.delayMs.timer += d.timer;
      this.delayMs.generator += d.generator;
      send(d.service);
    }
  }
}

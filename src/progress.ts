// Live progress: a bar with elapsed/total and current rps on a terminal; a plain line every few
// seconds otherwise (CI logs).
import type { RunnerEvent } from './plan.js';
import { formatMs } from './units.js';

export interface ProgressSink {
  write(text: string): void;
  isTTY?: boolean;
  columns?: number;
}

type Stage = Extract<RunnerEvent, { t: 'stage' }>;

export class Progress {
  private stage: Stage | undefined;
  private lastPlainAt = Number.NEGATIVE_INFINITY;
  private barShown = false;

  constructor(
    private readonly sink: ProgressSink,
    private readonly now: () => number = Date.now,
    private readonly plainEveryMs = 5000,
  ) {}

  /** A line of its own (clears the bar first). */
  line(text: string): void {
    this.clearBar();
    this.sink.write(`${text}\n`);
  }

  onEvent(e: RunnerEvent): void {
    if (e.t === 'stage') {
      this.stage = e;
      if (!this.sink.isTTY) {
        this.lastPlainAt = this.now();
        this.sink.write(`[perf-gate] ${this.label(e)} ${e.stage} started (${this.total(e)})\n`);
      }
    } else if (e.t === 'progress' && this.stage) {
      const done =
        this.stage.totalRequests !== undefined
          ? e.responses / this.stage.totalRequests
          : e.elapsedMs / (this.stage.totalMs ?? 1);
      const amount =
        this.stage.totalRequests !== undefined
          ? `${e.responses}/${this.stage.totalRequests} req`
          : `${formatMs(Math.min(e.elapsedMs, this.stage.totalMs ?? e.elapsedMs))}/${formatMs(this.stage.totalMs ?? 0)}`;
      const text = `${this.label(this.stage)} ${e.stage} ${amount} ${e.rps} rps`;
      if (this.sink.isTTY) {
        const width = 24;
        const filled = Math.max(0, Math.min(width, Math.round(done * width)));
        const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
        const full = `${bar} ${text}`;
        const cols = this.sink.columns ?? 100;
        this.sink.write(`\r\x1b[2K${full.slice(0, Math.max(10, cols - 1))}`);
        this.barShown = true;
      } else if (this.now() - this.lastPlainAt >= this.plainEveryMs) {
        this.lastPlainAt = this.now();
        this.sink.write(`[perf-gate] ${text}\n`);
      }
    }
  }

  finish(): void {
    this.clearBar();
  }

  private clearBar(): void {
    if (this.barShown) {
      this.sink.write('\r\x1b[2K');
      this.barShown = false;
    }
  }

  private label(s: Stage): string {
    return `${s.scenario}/${s.phase} trial ${s.trial}/${s.trials}`;
  }

  private total(s: Stage): string {
    return s.totalRequests !== undefined ? `${s.totalRequests} requests` : formatMs(s.totalMs ?? 0);
  }
}

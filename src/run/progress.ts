// Live progress: a bar with elapsed/total and current rps on a terminal; a plain line every few
// seconds otherwise (CI logs, and always under GitHub Actions). The bar never shares a line with
// anything else: it is ended with a newline before any other output, so a workflow command
// (`::error::…`) written after it starts on its own line.
import type { RunnerEvent } from '../runner-kit/plan.js';
import { formatMs } from '../common/units.js';

export interface ProgressSink {
  write(text: string): void;
  isTTY?: boolean;
  columns?: number;
  /** fold each scenario/phase into a log group (`::group::`, GitHub Actions) */
  groups?: boolean;
}

type Stage = Extract<RunnerEvent, { t: 'stage' }>;

/** The sink for a stream: a bar only on a real terminal, never under GitHub Actions (the runner's log
 * is not a terminal even when it says so, and drops workflow commands that do not start a line). */
export function progressSink(
  stream: { write(text: string): unknown; isTTY?: boolean; columns?: number },
  env: NodeJS.ProcessEnv,
): ProgressSink {
  const sink: ProgressSink = {
    write: (text) => void stream.write(text),
    isTTY: Boolean(stream.isTTY) && env.GITHUB_ACTIONS !== 'true',
    groups: env.GITHUB_ACTIONS === 'true',
  };
  if (stream.columns !== undefined) sink.columns = stream.columns;
  return sink;
}

/** narrower than this (or 0: unknown) and the width is not trusted */
const MIN_COLUMNS = 20;

export class Progress {
  private stage: Stage | undefined;
  private lastPlainAt = Number.NEGATIVE_INFINITY;
  private barShown = false;
  private group: string | undefined;

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
      this.enterGroup(`${e.scenario}/${e.phase}`);
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
        const given = this.sink.columns ?? 0;
        const cols = given >= MIN_COLUMNS ? given : 100;
        this.sink.write(`\r\x1b[2K${full.slice(0, cols - 1)}`);
        this.barShown = true;
      } else if (this.now() - this.lastPlainAt >= this.plainEveryMs) {
        this.lastPlainAt = this.now();
        this.sink.write(`[perf-gate] ${text}\n`);
      }
    }
  }

  finish(): void {
    this.clearBar();
    if (this.group !== undefined) {
      this.sink.write('::endgroup::\n');
      this.group = undefined;
    }
  }

  /** Under GitHub Actions each scenario/phase is a folded group; the verdict comes after, outside. */
  private enterGroup(name: string): void {
    if (!this.sink.groups || this.group === name) return;
    this.clearBar();
    if (this.group !== undefined) this.sink.write('::endgroup::\n');
    this.sink.write(`::group::perf-gate ${name}\n`);
    this.group = name;
  }

  /** Ends the bar's line: its last state stays on the terminal and the next output starts a line. */
  private clearBar(): void {
    if (this.barShown) {
      this.sink.write('\n');
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

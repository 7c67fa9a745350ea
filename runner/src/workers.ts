// runner.workers > 1: engine instances in worker threads, one job each per stage. The threads live
// for the whole run; each reports its responses for progress and hands back its tally (histogram
// encoded) for the merge. The runner bundle is one file, so a worker is that same file started again.
// A stage starts in two steps: every worker first receives its job (bodies and all), then one `go`
// with a common start time, so that copying a job never makes a schedule start late.
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { startEngine } from './engine.js';
import { loadHooksOf } from './hook.js';
import { START_LEAD_MS } from './open-loop.js';
import type { EngineJob } from './split.js';
import type { EngineTally } from './tally.js';

type ToWorker = { t: 'prepare'; job: EngineJob } | { t: 'go'; startAtEpochMs: number };
type FromWorker =
  | { t: 'ready' }
  | { t: 'prepared' }
  | { t: 'progress'; responses: number }
  | { t: 'done'; tally: EngineTally }
  | { t: 'error'; message: string };

export interface StageRun {
  responses(): number;
  done: Promise<EngineTally[]>;
}

const PROGRESS_MS = 200;
/**
 * how far ahead of `go` the common start lies: enough for the message to reach every thread and
 * for each to open its initial connections
 */
const GO_LEAD_MS = START_LEAD_MS;

/** True when this thread is an engine worker; it then serves jobs until terminated. */
export function serveIfWorker(): boolean {
  if (isMainThread || !parentPort) return false;
  const port = parentPort;
  const send = (msg: FromWorker): void => port.postMessage(msg);
  let job: EngineJob | undefined;
  port.on('message', (msg: ToWorker) => {
    if (msg.t === 'prepare') {
      job = msg.job;
      // a script hook is imported in each thread before its first stage (once: it is kept)
      loadHooksOf(msg.job.target).then(
        () => send({ t: 'prepared' }),
        (err: unknown) => send({ t: 'error', message: err instanceof Error ? err.message : String(err) }),
      );
      return;
    }
    if (!job) return;
    const run = startEngine(job.kind === 'open' ? { ...job, startAtEpochMs: msg.startAtEpochMs } : job);
    job = undefined;
    const timer = setInterval(() => send({ t: 'progress', responses: run.responses() }), PROGRESS_MS);
    run.done.then(
      (tally) => {
        clearInterval(timer);
        send({ t: 'done', tally });
      },
      (err: unknown) => {
        clearInterval(timer);
        send({ t: 'error', message: err instanceof Error ? err.message : String(err) });
      },
    );
  });
  // 'online' fires before the bundle is evaluated; a stage must not start until the worker listens
  send({ t: 'ready' });
  return true;
}

/** Waits for one message of a kind from a worker; rejects if it fails or exits first. */
function awaitMessage(w: Worker, i: number, kind: FromWorker['t']): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
    };
    const onMessage = (msg: FromWorker): void => {
      if (msg.t === 'error') {
        cleanup();
        reject(new Error(`engine worker ${i}: ${msg.message}`));
      } else if (msg.t === kind) {
        cleanup();
        resolve(msg);
      }
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(new Error(`engine worker ${i}: ${err.message}`));
    };
    const onExit = (code: number): void => {
      cleanup();
      reject(new Error(`engine worker ${i} exited with code ${code}`));
    };
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
  });
}

export class EnginePool {
  /** a worker that failed between stages; the next stage reports it */
  private failure: Error | undefined;

  private constructor(private readonly workers: Worker[]) {
    workers.forEach((w, i) => {
      // permanent listeners: a crash while idle must not become an unhandled 'error' event
      w.on('error', (err) => (this.failure ??= new Error(`engine worker ${i}: ${err.message}`)));
      w.on('exit', (code) => (this.failure ??= new Error(`engine worker ${i} exited with code ${code}`)));
    });
  }

  static async start(n: number, script: URL): Promise<EnginePool> {
    const workers = Array.from({ length: n }, () => new Worker(script));
    const pool = new EnginePool(workers);
    await Promise.all(workers.map((w, i) => awaitMessage(w, i, 'ready')));
    return pool;
  }

  get size(): number {
    return this.workers.length;
  }

  run(jobs: readonly EngineJob[]): StageRun {
    const counts = jobs.map(() => 0);
    const workers = this.workers.slice(0, jobs.length);
    const done = (async () => {
      if (this.failure) throw this.failure;
      if (jobs.length > this.workers.length) throw new Error('more jobs than workers');
      const prepared = workers.map((w, i) => awaitMessage(w, i, 'prepared'));
      jobs.forEach((job, i) => workers[i]?.postMessage({ t: 'prepare', job } satisfies ToWorker));
      await Promise.all(prepared);
      const listeners = workers.map((w, i) => {
        const onProgress = (msg: FromWorker): void => {
          if (msg.t === 'progress') counts[i] = msg.responses;
        };
        w.on('message', onProgress);
        return onProgress;
      });
      try {
        const finished = workers.map((w, i) => awaitMessage(w, i, 'done'));
        // a start set by the plan (runner replicas share one) holds unless the threads could not make it
        const planned = jobs[0]?.kind === 'open' ? jobs[0].startAtEpochMs : 0;
        const startAtEpochMs = Math.max(planned, performance.timeOrigin + performance.now() + GO_LEAD_MS);
        for (const w of workers) w.postMessage({ t: 'go', startAtEpochMs } satisfies ToWorker);
        const tallies = (await Promise.all(finished)).map((m) => (m as Extract<FromWorker, { t: 'done' }>).tally);
        tallies.forEach((t, i) => (counts[i] = t.responses));
        return tallies;
      } finally {
        workers.forEach((w, i) => w.off('message', listeners[i] as (msg: FromWorker) => void));
      }
    })();
    return { responses: () => counts.reduce((a, b) => a + b, 0), done };
  }

  async close(): Promise<void> {
    this.failure = undefined;
    for (const w of this.workers) w.removeAllListeners('exit');
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** A stage on the calling thread: the single-instance case needs no worker. */
export function runInThread(job: EngineJob): StageRun {
  const run = startEngine(job);
  return { responses: run.responses, done: run.done.then((t) => [t]) };
}

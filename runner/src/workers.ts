// runner.workers > 1: engine instances in worker threads, one job each per stage. The threads live
// for the whole run; each reports its responses for progress and hands back its tally (histogram
// encoded) for the merge. The runner bundle is one file, so a worker is that same file started again.
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { startEngine } from './engine.js';
import type { EngineJob } from './split.js';
import type { EngineTally } from './tally.js';

type ToWorker = { t: 'run'; job: EngineJob };
type FromWorker =
  | { t: 'ready' }
  | { t: 'progress'; responses: number }
  | { t: 'done'; tally: EngineTally }
  | { t: 'error'; message: string };

export interface StageRun {
  responses(): number;
  done: Promise<EngineTally[]>;
}

const PROGRESS_MS = 200;

/** True when this thread is an engine worker; it then serves jobs until terminated. */
export function serveIfWorker(): boolean {
  if (isMainThread || !parentPort) return false;
  const port = parentPort;
  // 'online' fires before the bundle is evaluated; a schedule must not start until the worker listens
  port.postMessage({ t: 'ready' } satisfies FromWorker);
  port.on('message', (msg: ToWorker) => {
    const run = startEngine(msg.job);
    const timer = setInterval(() => port.postMessage({ t: 'progress', responses: run.responses() }), PROGRESS_MS);
    run.done.then(
      (tally) => {
        clearInterval(timer);
        port.postMessage({ t: 'done', tally } satisfies FromWorker);
      },
      (err: unknown) => {
        clearInterval(timer);
        port.postMessage({ t: 'error', message: err instanceof Error ? err.message : String(err) } satisfies FromWorker);
      },
    );
  });
  return true;
}

export class EnginePool {
  private constructor(private readonly workers: Worker[]) {}

  static async start(n: number, script: URL): Promise<EnginePool> {
    const workers = Array.from({ length: n }, () => new Worker(script));
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            w.once('message', (msg: FromWorker) => {
              w.off('error', reject);
              if (msg.t === 'ready') resolve();
              else reject(new Error(`engine worker: unexpected ${msg.t} before ready`));
            });
            w.once('error', reject);
          }),
      ),
    );
    return new EnginePool(workers);
  }

  get size(): number {
    return this.workers.length;
  }

  run(jobs: readonly EngineJob[]): StageRun {
    const counts = jobs.map(() => 0);
    const done = Promise.all(
      jobs.map((job, i) => {
        const w = this.workers[i];
        if (!w) throw new Error(`no worker for job ${i}`);
        return new Promise<EngineTally>((resolve, reject) => {
          const onExit = (code: number): void => reject(new Error(`engine worker ${i} exited with code ${code}`));
          const onMessage = (msg: FromWorker): void => {
            if (msg.t === 'progress' || msg.t === 'ready') {
              if (msg.t === 'progress') counts[i] = msg.responses;
              return;
            }
            w.off('message', onMessage);
            w.off('exit', onExit);
            w.off('error', reject);
            if (msg.t === 'done') {
              counts[i] = msg.tally.responses;
              resolve(msg.tally);
            } else reject(new Error(`engine worker ${i}: ${msg.message}`));
          };
          w.on('message', onMessage);
          w.once('exit', onExit);
          w.once('error', reject);
          w.postMessage({ t: 'run', job } satisfies ToWorker);
        });
      }),
    );
    return { responses: () => counts.reduce((a, b) => a + b, 0), done };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** A stage on the calling thread: the single-instance case needs no worker. */
export function runInThread(job: EngineJob): StageRun {
  const run = startEngine(job);
  return { responses: run.responses, done: run.done.then((t) => [t]) };
}

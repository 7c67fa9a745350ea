// Closed-loop phases with autocannon. autocannon drives the connections; we take its per-response
// event (float milliseconds from write to last byte) and record microseconds ourselves, because
// autocannon's own histogram truncates to whole milliseconds.
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import type { Limit } from './split.js';
import type { PlanScenario } from '../../src/plan.js';
import { errorKind, Recorder } from './recorder.js';
import type { EngineTally } from './tally.js';

export interface ClosedRun {
  recorder: Recorder;
  done: Promise<EngineTally>;
}

function bodyRotation(bodies: string[]): () => string {
  let i = 0;
  return () => {
    const body = bodies[i % bodies.length] as string;
    i++;
    return body;
  };
}

/** Starts one closed-loop run: a fixed duration, or a fixed number of responses. */
export function runClosed(
  request: PlanScenario['request'],
  connections: number,
  limit: Limit,
  timeoutMs: number,
): ClosedRun {
  const recorder = new Recorder();
  const opts: autocannon.Options = {
    url: request.url,
    method: request.method as autocannon.Request['method'],
    headers: request.headers,
    connections,
    timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
    // autocannon acts on a stop only at its sampling tick; tick often so runs end on time
    sampleInt: 50,
    // we do our own accounting; autocannon's latency histogram is not used
    setupClient: (acClient: autocannon.Client) => {
      // the typings list only `response`; the client is an EventEmitter with more events
      const client = acClient as unknown as EventEmitter;
      client.on('request', () => {
        recorder.sent++;
      });
      // a connection the SUT ends (Connection: close, an idle or request-count limit) makes autocannon
      // reconnect; it removes its own 'end' listeners before closing a socket itself, so an 'end'
      // seen here is the server's doing
      const ac = acClient as unknown as { _connect: () => void; conn?: EventEmitter; destroyed?: boolean };
      const connect = ac._connect.bind(ac);
      ac._connect = () => {
        connect();
        ac.conn?.on('end', () => {
          if (!ac.destroyed) recorder.connectionCloses++;
        });
      };
    },
  };
  if (request.body !== undefined) opts.body = request.body;
  if (request.bodies !== undefined) {
    const next = bodyRotation(request.bodies);
    opts.requests = [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: next() }) }];
  }
  const byCount = !('durationMs' in limit);
  if ('durationMs' in limit)
    opts.duration = limit.durationMs / 1000 + 1; // we stop it ourselves, on time
  else opts.amount = limit.requests;

  const done = new Promise<EngineTally>((resolve, reject) => {
    let deadline: NodeJS.Timeout | undefined;
    const instance = autocannon(opts, (err) => {
      clearTimeout(deadline);
      recorder.stop(byCount ? 'last-event' : 'now');
      if (err) reject(err);
      else resolve(recorder.tally());
    });
    if ('durationMs' in limit) {
      // the measured window closes at the deadline; responses after it are not counted
      deadline = setTimeout(() => {
        recorder.stop();
        instance.stop();
      }, limit.durationMs);
    }
    instance.on('response', (_client: unknown, status: number, bytes: number, responseTimeMs: number) => {
      recorder.response(status, bytes, responseTimeMs * 1000);
    });
    instance.on('reqError', (err: unknown) => {
      recorder.error(errorKind(err));
    });
  });
  return { recorder, done };
}

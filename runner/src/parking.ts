// Idle connections parked between stages on this thread, whatever they speak.
import type { Socket } from 'node:net';
import type { ConnectionOwner, EngineConnection, Target } from './transport.js';

/**
 * Idle connections kept from one stage to the next (a warm-up to its measured run, one trial to the
 * next) on this thread, so that a stage does not start by closing and opening hundreds of sockets
 * (measured: 30–40 ms of CPU at 15–20k req/s, all of it charged to the generator). A connection
 * parked longer than PARK_MS is not reused: a server's idle timeout may be about to close it.
 */
export const PARK_MS = 1000;

const parked = new Map<string, { at: number; connections: Set<EngineConnection> }>();

// connections are reused by targets of the same transport and stream rules (an HTTP/2 connection's
// gRPC calls are not HTTP requests)
const targetKey = (t: Target): string => `${t.wire}/${t.streams.name}:${t.tls ? 's' : ''}${t.host}:${t.port}`;

const parkingOwner: ConnectionOwner = {
  onOpen: () => undefined,
  onResponse: () => undefined,
  onFailed: () => undefined,
  onRetry: () => undefined,
  onClose: (c) => {
    for (const lot of parked.values()) lot.connections.delete(c);
  },
};

/** A parked connection does not keep the process alive; a stage's connections do. */
export function refByOwner(socket: Socket, owner: ConnectionOwner): void {
  if (owner === parkingOwner) socket.unref();
  else socket.ref();
}

/** Parks idle connections for the next stage to the same target (replacing any parked before). */
export function park(target: Target, connections: Iterable<EngineConnection>, now: number): void {
  unpark(target, now, 0);
  const lot = { at: now, connections: new Set<EngineConnection>() };
  for (const c of connections) {
    c.adopt(parkingOwner);
    lot.connections.add(c);
  }
  parked.set(targetKey(target), lot);
}

/**
 * Takes up to `max` parked connections to the target for `owner`; the rest, and any parked too
 * long, are closed.
 */
export function unpark(target: Target, now: number, max: number, owner?: ConnectionOwner): EngineConnection[] {
  const taken: EngineConnection[] = [];
  for (const [key, lot] of parked) {
    const reuse = key === targetKey(target) && now - lot.at <= PARK_MS;
    for (const c of lot.connections) {
      if (reuse && owner && taken.length < max && c.usable && !c.inFlight) {
        c.adopt(owner, target);
        taken.push(c);
      } else c.dispose();
    }
    parked.delete(key);
  }
  return taken;
}

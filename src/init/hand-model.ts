// Pure: a compose project read by hand (where `docker compose` is not installed) put in the long forms
// `docker compose config` prints, as far as init and the side-by-side check read them: ports, bind
// mounts (relative paths resolved against the project directory), service networks and the top-level
// networks and volumes. Everything else stays as written.
import { isAbsolute, resolve } from 'node:path';
import { portsOf } from './classify.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** "8080:80" → { target: 80, published: "8080" }; a long form stays as it is. */
function longPorts(entries: unknown[]): unknown[] {
  return entries.flatMap((e) => {
    if (e && typeof e === 'object') return [e];
    const text = String(e).replace(/\$\{[^}:]*(?::?-([^}]*))?\}/g, (_m, d: string | undefined) => d ?? '');
    const parts = (text.split('/')[0] as string).split(':');
    const host = parts.length > 1 ? parts.at(-2) : undefined;
    const hostIp = parts.length > 2 ? parts.slice(0, -2).join(':') : undefined;
    return portsOf(e).map((p) => ({
      target: p.port,
      ...(host !== undefined && host !== '' ? { published: host } : {}),
      ...(hostIp ? { host_ip: hostIp } : {}),
      protocol: p.protocol,
    }));
  });
}

/** "./data:/data:ro" → { type: bind, source: <dir>/data, target: /data, read_only: true }; "name:/x" → a volume. */
function longVolumes(entries: unknown[], dir: string): unknown[] {
  return entries.map((e) => {
    if (e && typeof e === 'object') {
      const v = e as Obj;
      return v.type === 'bind' && typeof v.source === 'string' ? { ...v, source: hostPath(v.source, dir) } : v;
    }
    const [source, target, mode] = String(e).split(':');
    if (target === undefined) return { type: 'volume', target: source };
    const bind = /^[./~]/.test(source as string);
    return {
      type: bind ? 'bind' : 'volume',
      source: bind ? hostPath(source as string, dir) : source,
      target,
      ...(mode?.split(',').includes('ro') ? { read_only: true } : {}),
    };
  });
}

function hostPath(source: string, dir: string): string {
  if (source.startsWith('~')) return `/home/user${source.slice(1)}`;
  return isAbsolute(source) ? source : resolve(dir, source);
}

export function handModel(merged: { services: Record<string, unknown> }, models: unknown[], dir: string): Obj {
  const services: Obj = {};
  for (const [name, raw] of Object.entries(merged.services)) {
    const def = { ...obj(raw) };
    if (Array.isArray(def.ports)) def.ports = longPorts(def.ports);
    if (Array.isArray(def.volumes)) def.volumes = longVolumes(def.volumes, dir);
    if (Array.isArray(def.networks)) def.networks = Object.fromEntries(def.networks.map((n) => [String(n), null]));
    else if (def.networks === undefined && def.network_mode === undefined) def.networks = { default: null };
    services[name] = def;
  }
  const top = (key: 'networks' | 'volumes') => Object.assign({}, ...models.map((m) => obj(obj(m)[key]))) as Obj;
  return { services, networks: top('networks'), volumes: top('volumes') };
}

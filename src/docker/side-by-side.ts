// Pure: what makes two copies of one compose project collide on one engine, read from the model
// `docker compose config` resolved, and the override that neutralises it for an A/B run's side-by-side
// boot. perf-gate's runner reaches services over the project's own network, so published host ports
// are never needed; `container_name` stays reachable as a network alias; fixed network and volume
// names become the project's own; an image a service builds gets the project's default name (both
// sides build at once and would tag one name). What cannot be neutralised (the host's network, a
// device, a host path both copies would write, an external network or volume) is a blocker, named.
import { namedAndCounted } from '../common/named-and-counted.js';
import { Document, type Node } from 'yaml';
import type { ComposeModel } from './compose.js';

/** An override value that removes the key from the merged model (compose's `!reset` tag, 2.24+). */
export const RESET: unique symbol = Symbol('!reset');
type OverrideValue = typeof RESET | string | number | boolean | null | OverrideValue[] | { [k: string]: OverrideValue };
export type Override = Record<string, OverrideValue>;

export interface SideBySide {
  /** merged over the user's files (after them); empty when nothing collides */
  override: Override;
  /** what the override changes, one line each (the report's environment section) */
  changes: string[];
  /** what cannot be neutralised, one line each */
  blockers: string[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** "8080:80/tcp" from compose's long form of a published port */
function portText(p: Obj): string {
  const ip = typeof p.host_ip === 'string' ? p.host_ip : '';
  const host = ip === '' ? '' : ip.includes(':') ? `[${ip}]:` : `${ip}:`;
  const published = p.published === undefined || p.published === '' ? '' : `${String(p.published)}:`;
  const proto = p.protocol === 'udp' ? '/udp' : '';
  return `${host}${published}${String(p.target)}${proto}`;
}

/** Host paths two copies may share: sockets (the engine's, mounted as the file or its /run folder) and
 * the kernel's own interfaces (/proc, /sys), which no service's data lives in. */
const SHAREABLE = /\.sock$|^\/(var\/)?run\/?$|^\/(proc|sys)(\/|$)|^\/etc\/(localtime|timezone)$/;

/** A host path both copies would share and the service may write: absolute, outside the project's
 * tree, not read-only, not shareable. */
function sharedHostPath(v: Obj, root: string): string | undefined {
  if (v.type !== 'bind' || typeof v.source !== 'string') return undefined;
  const source = v.source;
  const inside = source === root || source.startsWith(root.endsWith('/') ? root : `${root}/`);
  if (inside || v.read_only === true || SHAREABLE.test(source)) return undefined;
  return source;
}

/**
 * The changes and blockers of one project's model for a side-by-side boot. `project` is the name the
 * model was resolved under (a network's or volume's default name is `<project>_<key>`); `root` is the
 * tree this side was checked out to (bind mounts inside it are per side).
 */
export function sideBySide(model: ComposeModel, project: string, root: string): SideBySide {
  const services: Record<string, Record<string, OverrideValue>> = {};
  const changes: string[] = [];
  const blockers: string[] = [];
  const edit = (name: string) => (services[name] ??= {});
  const defs = Object.entries(model.services).map(([name, def]) => [name, obj(def)] as const);
  const usedNetworks = new Set<string>();
  const usedVolumes = new Set<string>();
  // images built by a service under a fixed name, and the services that run them without building
  const built = new Map<string, string>();
  for (const [name, def] of defs) {
    if (def.build !== undefined && typeof def.image === 'string') built.set(def.image, name);
  }
  // container_name → its service: `container:<name>` then means a container of this project
  const byContainerName = new Map<string, string>();
  for (const [name, def] of defs)
    if (typeof def.container_name === 'string') byContainerName.set(def.container_name, name);
  for (const [name, def] of defs) {
    const mode = typeof def.network_mode === 'string' ? def.network_mode : undefined;
    if (mode === 'host') blockers.push(`service ${name} uses the host's network (network_mode: host)`);
    const joined = mode?.startsWith('container:') ? mode.slice('container:'.length) : undefined;
    if (joined !== undefined) {
      const sibling = byContainerName.get(joined);
      if (sibling !== undefined) {
        edit(name).network_mode = `service:${sibling}`;
        changes.push(
          `service ${name}: network_mode container:${joined} is service:${sibling} (its container_name is dropped)`,
        );
      } else {
        blockers.push(`service ${name} joins container ${joined}'s network, which is not this project's`);
      }
    }
    for (const v of list(def.volumes_from)) {
      if (String(v).startsWith('container:')) {
        blockers.push(
          `service ${name} takes volumes from container ${String(v).slice(10)}: both copies would share them`,
        );
      }
    }
    for (const d of list(def.devices)) {
      const source = typeof d === 'string' ? d.split(':')[0] : String(obj(d).source ?? '?');
      blockers.push(`service ${name} maps the host's device ${source}`);
    }
    for (const v of list(def.volumes)) {
      const shared = sharedHostPath(obj(v), root);
      if (shared !== undefined) {
        blockers.push(
          `service ${name} mounts the host's ${shared} writable: both copies would write it (mount it read_only, or a path inside the repository)`,
        );
      }
      if (obj(v).type === 'volume' && typeof obj(v).source === 'string') usedVolumes.add(obj(v).source as string);
    }
    const networks = Object.keys(obj(def.networks));
    for (const n of networks) usedNetworks.add(n);
    const ports = list(def.ports).map(obj);
    const fixed = ports.filter((p) => p.published !== undefined && p.published !== '');
    if (fixed.length > 0) {
      edit(name).ports = RESET;
      // a range is one entry per port in compose's model: name ten, count the rest
      changes.push(`service ${name}: published ports ${namedAndCounted(ports.map(portText), 10)} not published`);
    }
    if (typeof def.container_name === 'string') {
      const s = edit(name);
      s.container_name = RESET;
      if (networks.length > 0) {
        s.networks = Object.fromEntries(networks.map((n) => [n, { aliases: [def.container_name as string] }]));
        changes.push(
          `service ${name}: container_name ${def.container_name} dropped (kept as its alias on ${networks.join(', ')})`,
        );
      } else {
        changes.push(`service ${name}: container_name ${def.container_name} dropped`);
      }
    }
    if (typeof def.image === 'string' && built.has(def.image)) {
      const builder = built.get(def.image) as string;
      // compose's own name for an image built without one: <project>-<service>
      if (builder === name) edit(name).image = RESET;
      else edit(name).image = `${project}-${builder}`;
      changes.push(
        builder === name
          ? `service ${name}: image ${def.image} built under the project's own name (both sides build at once)`
          : `service ${name}: runs the image service ${builder} builds, under the project's own name, instead of ${def.image}`,
      );
    }
  }
  const top = (
    kind: 'network' | 'volume',
    entries: Record<string, { external?: boolean; name?: string } | null> | undefined,
    used: Set<string>,
  ): Record<string, OverrideValue> => {
    const out: Record<string, OverrideValue> = {};
    for (const [key, raw] of Object.entries(entries ?? {})) {
      const def = obj(raw);
      const name = typeof def.name === 'string' ? def.name : `${project}_${key}`;
      const subnets = list(obj(def.ipam).config)
        .map((c) => obj(c).subnet)
        .filter((x): x is string => typeof x === 'string');
      // a local volume bound to a host directory (type none, o bind): not a tmpfs, not a remote share
      const opts = obj(def.driver_opts);
      const device =
        typeof opts.device === 'string' && opts.device.startsWith('/') && /\bbind\b/.test(String(opts.o ?? ''))
          ? opts.device
          : undefined;
      if (kind === 'network' && def.external !== true && subnets.length > 0) {
        blockers.push(
          `network ${key} fixes its subnet ${subnets.join(', ')}: a second copy's network would overlap it`,
        );
      }
      if (kind === 'volume' && device !== undefined && used.has(key)) {
        blockers.push(`volume ${key} binds the host's ${device}: both copies would write it`);
      }
      if (def.external === true) {
        if (used.has(key)) {
          blockers.push(
            `${kind} ${key} is external (${name}): both copies would share it${kind === 'network' ? ' and answer to the same names on it' : ''}`,
          );
        }
      } else if (name !== `${project}_${key}`) {
        out[key] = { name: RESET };
        changes.push(`${kind} ${key}: fixed name ${name} replaced by the project's own`);
      }
    }
    return out;
  };
  const networks = top('network', model.networks as never, usedNetworks);
  const volumes = top('volume', model.volumes as never, usedVolumes);
  const override: Override = {};
  if (Object.keys(services).length > 0) override.services = services;
  if (Object.keys(networks).length > 0) override.networks = networks;
  if (Object.keys(volumes).length > 0) override.volumes = volumes;
  return { override, changes, blockers };
}

/** Deep merge of two overrides (the second's scalars win; mappings merge). */
export function mergeOverrides(a: Override, b: Override): Override {
  const out: Override = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const before = out[k];
    const mergeable = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x);
    out[k] = mergeable(before) && mergeable(v) ? mergeOverrides(before as Override, v as Override) : v;
  }
  return out;
}

/** The override as YAML, `RESET` written as compose's `!reset` tag. */
export function overrideYaml(override: Override): string {
  const doc = new Document();
  const node = (v: OverrideValue): Node => {
    if (v === RESET) {
      const n = doc.createNode(null);
      n.tag = '!reset';
      return n;
    }
    if (Array.isArray(v)) {
      const seq = doc.createNode([]);
      for (const x of v) (seq as unknown as { items: Node[] }).items.push(node(x));
      return seq;
    }
    if (v !== null && typeof v === 'object') {
      const map = doc.createNode({}) as unknown as { items: unknown[] };
      for (const [k, x] of Object.entries(v)) map.items.push(doc.createPair(k, node(x)));
      return map as unknown as Node;
    }
    return doc.createNode(v);
  };
  doc.contents = node(override as OverrideValue) as never;
  return doc.toString();
}

// Pure: what each port of a compose service speaks, as far as the compose file tells: its health
// check (a URL it requests, with or without a scheme; grpc_health_probe and its -addr), its image (a
// database's), well-known ports, and UDP. What is not known otherwise is taken for HTTP and says so;
// `perf-gate init --probe` asks the running service instead (./probe.ts), and `refine` takes its answer.
import type { SurveyFinding } from '../runner-kit/plan.js';

export type PortKind = 'http' | 'grpc' | 'tcp' | 'database' | 'udp';

export interface Endpoint {
  port: number;
  kind: PortKind;
  /** why this kind: "health check requests http://localhost:8000/health", "PostgreSQL's port", … */
  why: string;
  /** the kind is a guess (nothing said otherwise), not read from the file */
  guessed?: boolean;
  /** the path the health check requests on this port */
  healthPath?: string;
  /** gRPC: the health service answers (a grpc_health_probe health check, or --probe asked it) */
  health?: boolean;
  /** --probe: the status GET / answered (HTTP) */
  rootStatus?: number;
  /** --probe: the Host header the service wants (it refused its own name) */
  hostHeader?: string;
  /** --probe: GET operations of its OpenAPI document that can be called as they are */
  gets?: string[];
  /** --probe: said of this port beyond its kind (where the document was, why a path was chosen) */
  notes?: string[];
}

/** What `init --probe` heard on a port, over what the compose file said: the answer wins. */
export function refine(e: Endpoint, f: SurveyFinding | undefined): Endpoint {
  if (f === undefined || e.kind === 'udp') return e;
  const { port } = e;
  if (f.kind === 'closed')
    return { ...e, notes: [...(e.notes ?? []), `--probe: no connection to port ${port} (${f.error ?? 'closed'})`] };
  if (f.kind === 'tcp') {
    return {
      port,
      kind: e.kind === 'database' ? 'database' : 'tcp',
      why:
        e.kind === 'database'
          ? e.why
          : f.banner
            ? 'it speaks first (a greeting), as databases do'
            : 'it answers neither HTTP/1.1 nor gRPC',
    };
  }
  if (f.kind === 'grpc') {
    const health = f.health === 'SERVING' || f.health === 'NOT_SERVING';
    return { port, kind: 'grpc', why: `it answered the gRPC health check (${f.health ?? '?'})`, health };
  }
  const out: Endpoint = { port, kind: 'http', why: `it answered GET / with ${f.status ?? '?'}` };
  if (f.status !== undefined) out.rootStatus = f.status;
  // a path known to answer below 400: the health check's, else the first usual one heard, else / when it did
  const found = f.paths?.[0]?.path ?? (f.status !== undefined && f.status < 400 && !f.hostHeader ? '/' : undefined);
  const path = e.kind === 'http' && !e.guessed && e.healthPath !== undefined ? e.healthPath : found;
  if (path !== undefined) out.healthPath = path;
  if (f.hostHeader !== undefined) out.hostHeader = f.hostHeader;
  if (f.gets && f.gets.length > 0) out.gets = f.gets;
  const notes: string[] = [];
  if (f.hostHeader)
    notes.push(
      `refuses Host ${'<service>'}:${port} and answers Host ${f.hostHeader}: its requests send Host: ${f.hostHeader} (or add the service's name to its allowed hosts)`,
    );
  if (f.openapi)
    notes.push(`OpenAPI document at ${f.openapi}: ${f.gets?.length ?? 0} GET operation(s) callable as they are`);
  if (notes.length > 0) out.notes = notes;
  return out;
}

/** Ports that speak something other than HTTP: databases, brokers, caches and other protocols. */
const WELL_KNOWN = new Map<number, { kind: PortKind; name: string }>([
  [5432, { kind: 'database', name: 'PostgreSQL' }],
  [3306, { kind: 'database', name: 'MySQL' }],
  [33060, { kind: 'database', name: 'MySQL X protocol' }],
  [6379, { kind: 'database', name: 'Redis' }],
  [27017, { kind: 'database', name: 'MongoDB' }],
  [5672, { kind: 'database', name: 'RabbitMQ (AMQP)' }],
  [5671, { kind: 'database', name: 'RabbitMQ (AMQPS)' }],
  [9092, { kind: 'database', name: 'Kafka' }],
  [9093, { kind: 'database', name: 'Kafka' }],
  [29092, { kind: 'database', name: 'Kafka' }],
  [2181, { kind: 'database', name: 'ZooKeeper' }],
  [11211, { kind: 'database', name: 'Memcached' }],
  [1433, { kind: 'database', name: 'SQL Server' }],
  [1521, { kind: 'database', name: 'Oracle' }],
  [9042, { kind: 'database', name: 'Cassandra' }],
  [7687, { kind: 'database', name: 'Neo4j (Bolt)' }],
  [26257, { kind: 'database', name: 'CockroachDB' }],
  [4222, { kind: 'database', name: 'NATS' }],
  [1883, { kind: 'database', name: 'MQTT' }],
  [8883, { kind: 'database', name: 'MQTT over TLS' }],
  [6650, { kind: 'database', name: 'Pulsar' }],
  [53, { kind: 'tcp', name: 'DNS' }],
  [22, { kind: 'tcp', name: 'SSH' }],
  [21, { kind: 'tcp', name: 'FTP' }],
  [25, { kind: 'tcp', name: 'SMTP' }],
  [587, { kind: 'tcp', name: 'SMTP submission' }],
  [143, { kind: 'tcp', name: 'IMAP' }],
  [389, { kind: 'tcp', name: 'LDAP' }],
  [25565, { kind: 'tcp', name: 'Minecraft' }],
  [51820, { kind: 'udp', name: 'WireGuard' }],
  [4317, { kind: 'grpc', name: 'OTLP over gRPC' }],
  [14250, { kind: 'grpc', name: 'Jaeger gRPC' }],
  [50051, { kind: 'grpc', name: "gRPC's customary port" }],
]);

/** Images whose every port is a database's or a broker's, except the HTTP ports listed. */
const DATABASE_IMAGES: Array<{ re: RegExp; name: string; http?: number[] }> = [
  { re: /(^|\/)postgres(ql)?(:|$|-)|(^|\/)postgis\//, name: 'PostgreSQL' },
  { re: /(^|\/)(mysql|mariadb|percona)(:|$|-)/, name: 'MySQL' },
  { re: /(^|\/)(redis|valkey|keydb)(:|$|-)|redis-stack/, name: 'Redis', http: [8001] },
  { re: /(^|\/)mongo(db)?(:|$|-)/, name: 'MongoDB' },
  { re: /(^|\/)rabbitmq(:|$|-)/, name: 'RabbitMQ', http: [15672] },
  { re: /(^|\/)memcached(:|$)/, name: 'Memcached' },
  { re: /(^|\/)(cp-)?kafka(:|$|-)|bitnami\/kafka/, name: 'Kafka' },
  { re: /(^|\/)(cp-)?zookeeper(:|$)/, name: 'ZooKeeper' },
  { re: /(^|\/)(mssql|sql-server)|mcr\.microsoft\.com\/mssql/, name: 'SQL Server' },
  { re: /(^|\/)cassandra(:|$)/, name: 'Cassandra' },
  { re: /(^|\/)neo4j(:|$)/, name: 'Neo4j', http: [7474] },
  { re: /(^|\/)nats(:|$)/, name: 'NATS', http: [8222] },
  { re: /(^|\/)(cockroach|cockroachdb\/cockroach)(:|$)/, name: 'CockroachDB', http: [8080] },
  { re: /(^|\/)clickhouse/, name: 'ClickHouse', http: [8123] },
  { re: /(^|\/)couchbase(:|$)/, name: 'Couchbase', http: [8091] },
];

/** Images of servers that speak something other than HTTP on every port (but the HTTP ones listed). */
const OTHER_IMAGES: Array<{ re: RegExp; kind: PortKind; name: string; http?: number[] }> = [
  {
    re: /hyperledger\/fabric-(peer|orderer)/,
    kind: 'grpc',
    name: 'a Hyperledger Fabric node (gRPC)',
    http: [9443, 8443],
  },
  { re: /php(:\S*)?fpm|php-fpm/, kind: 'tcp', name: 'PHP-FPM (FastCGI)' },
  { re: /(^|\/)(bind9|coredns|unbound)(:|$)/, kind: 'tcp', name: 'a DNS server' },
  { re: /(^|\/)itzg\/minecraft-server(:|$)/, kind: 'tcp', name: 'a Minecraft server' },
];

/** The command text of a health check: its test, as one string ('' when there is none). */
export function healthText(healthcheck: unknown): string {
  if (!healthcheck || typeof healthcheck !== 'object') return '';
  const test = (healthcheck as { test?: unknown }).test;
  const parts = Array.isArray(test) ? test.map(String) : typeof test === 'string' ? [test] : [];
  // ["CMD", …] and ["CMD-SHELL", "…"]: the command, without compose's marker
  return parts
    .filter((p, i) => !(i === 0 && /^(CMD|CMD-SHELL|NONE)$/.test(p)))
    .join(' ')
    .trim();
}

/** What a health check says of a port: an HTTP URL it requests (with or without a scheme, localhost
 * or any host) and its path, or a gRPC health probe's address. */
export function healthClaims(
  text: string,
): Array<{ port?: number; kind: 'http' | 'grpc'; path?: string; why: string }> {
  const out: Array<{ port?: number; kind: 'http' | 'grpc'; path?: string; why: string }> = [];
  if (/grpc[_-]health[_-]probe|grpcurl|grpc_cli|grpc-health-check/.test(text)) {
    const addr =
      /-(?:addr|address)[= ]\S*?:(\d{1,5})\b/.exec(text) ?? /(?:localhost|127\.0\.0\.1|\[::1\]):(\d{1,5})\b/.exec(text);
    const port = addr ? Number(addr[1]) : undefined;
    out.push({ ...(port !== undefined ? { port } : {}), kind: 'grpc', why: 'its health check is a gRPC health probe' });
    return out;
  }
  // a port or path given by a variable ($PORT, $${PORT}, ${PORT}) is not known here: left unset
  const http = /\bhttps?:\/\/(\[[^\]]+\]|[^/\s'"`:;|&)$]+)(?::(\d{1,5}|\$\$?\{?\w+\}?))?(\/[^\s'"`;|&)]*)?/.exec(text);
  if (http) {
    const variable = http[2]?.startsWith('$') === true;
    const port = variable
      ? undefined
      : http[2] !== undefined
        ? Number(http[2])
        : http[0].startsWith('https')
          ? 443
          : 80;
    const path = http[3]?.includes('$') ? undefined : cleanPath(http[3]);
    out.push({
      ...(port !== undefined ? { port } : {}),
      kind: 'http',
      ...(path !== undefined ? { path } : {}),
      why: `its health check requests ${http[0]}`,
    });
    return out;
  }
  // curl -f localhost:8000/health, wget -qO- 127.0.0.1:3000/ready: no scheme, a local address and a port
  if (/\b(curl|wget|http|fetch|got|requests)\b/i.test(text)) {
    const bare = /(?:^|[\s'"=(])(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{1,5})(\/[^\s'"`;|&)]*)?/.exec(text);
    if (bare) {
      out.push({
        port: Number(bare[2]),
        kind: 'http',
        path: cleanPath(bare[3]),
        why: `its health check requests ${bare[0].trim().replace(/^['"=(]/, '')}`,
      });
    }
  }
  return out;
}

/** A health check's path as a request path: '/' when it has none; a query kept; shell quoting cut. */
function cleanPath(path: string | undefined): string {
  if (path === undefined || path === '') return '/';
  return path.replace(/[\\'"]+$/, '') || '/';
}

/** One container port of a service (long or short form), and its protocol. */
export interface ServicePort {
  port: number;
  protocol: 'tcp' | 'udp';
  /** pinned to a host port */
  published: boolean;
}

/** A port entry's container port: "8080:80", "127.0.0.1:8080:80/tcp", "80", 80, "8000-8002",
 * { target: 80, published: "8080", protocol: "udp" }. Variables without a default are not known. */
export function portsOf(entry: unknown): ServicePort[] {
  if (typeof entry === 'number')
    return Number.isInteger(entry) && entry > 0 ? [{ port: entry, protocol: 'tcp', published: false }] : [];
  if (typeof entry === 'string') {
    const text = entry.replace(/\$\{[^}:]*(?::?-([^}]*))?\}/g, (_m, d: string | undefined) => d ?? '');
    const [spec, proto] = text.split('/');
    const parts = (spec as string).split(':');
    const [from, to] = (parts.at(-1) as string).split('-').map(Number);
    const published = parts.length > 1 && (parts.at(-2) ?? '') !== '';
    const protocol = proto?.toLowerCase() === 'udp' ? 'udp' : 'tcp';
    if (from === undefined || !Number.isInteger(from) || from <= 0) return [];
    // a range of container ports: each of them (at most 16: a range is rarely an HTTP service)
    const last = to !== undefined && Number.isInteger(to) && to >= from ? Math.min(to, from + 15) : from;
    return Array.from({ length: last - from + 1 }, (_, i) => ({ port: from + i, protocol, published }));
  }
  if (entry && typeof entry === 'object') {
    const e = entry as { target?: unknown; published?: unknown; protocol?: unknown };
    const port = Number(e.target);
    const published = e.published !== undefined && e.published !== '' && e.published !== null;
    const protocol = String(e.protocol ?? 'tcp').toLowerCase() === 'udp' ? 'udp' : 'tcp';
    return Number.isInteger(port) && port > 0 ? [{ port, protocol, published }] : [];
  }
  return [];
}

/** Every port a service listens on, and what it speaks, in the order the file gives them (the ports a
 * health check names first). */
export function classifyService(def: Record<string, unknown>): Endpoint[] {
  const image = typeof def.image === 'string' ? def.image.toLowerCase() : '';
  const claims = healthClaims(healthText(def.healthcheck));
  const listed = [
    ...(Array.isArray(def.ports) ? def.ports : []).flatMap(portsOf),
    ...(Array.isArray(def.expose) ? def.expose : []).flatMap(portsOf).map((p) => ({ ...p, published: false })),
  ];
  const ports: ServicePort[] = [];
  for (const p of listed) {
    if (!ports.some((q) => q.port === p.port && q.protocol === p.protocol)) ports.push(p);
  }
  // a port only the health check names (a gRPC server checked with -addr=:50051, nothing exposed)
  for (const c of claims) {
    if (c.port !== undefined && !ports.some((p) => p.port === c.port))
      ports.unshift({ port: c.port, protocol: 'tcp', published: false });
  }
  const db = DATABASE_IMAGES.find((d) => d.re.test(image));
  const tcpPorts = ports.filter((p) => p.protocol === 'tcp');
  const out: Endpoint[] = ports.map((p): Endpoint => {
    if (p.protocol === 'udp')
      return {
        port: p.port,
        kind: 'udp',
        why: `UDP (${WELL_KNOWN.get(p.port)?.name ?? 'port'} ${p.port}); perf-gate loads TCP`,
      };
    // the health check names this port, or it is the service's only port
    const claim =
      claims.find((c) => c.port === p.port) ??
      (tcpPorts.length === 1 ? claims.find((c) => c.port === undefined || c.kind === 'grpc') : undefined);
    if (claim?.kind === 'grpc') return { port: p.port, kind: 'grpc', why: claim.why, health: true };
    if (claim?.kind === 'http')
      return {
        port: p.port,
        kind: 'http',
        why: claim.why,
        ...(claim.path !== undefined ? { healthPath: claim.path } : {}),
      };
    if (db && !(db.http ?? []).includes(p.port))
      return { port: p.port, kind: 'database', why: `${db.name} (image ${def.image as string})` };
    const other = OTHER_IMAGES.find((o) => o.re.test(image));
    if (other && !(other.http ?? []).includes(p.port))
      return { port: p.port, kind: other.kind, why: `${other.name} (image ${def.image as string})` };
    const known = WELL_KNOWN.get(p.port);
    if (known) return { port: p.port, kind: known.kind, why: `${known.name}'s port` };
    return { port: p.port, kind: 'http', why: 'nothing says otherwise', guessed: true };
  });
  // the ports a health check vouches for come first: they are what the service is for
  return [
    ...out.filter((e) => !e.guessed && (e.kind === 'http' || e.kind === 'grpc')),
    ...out.filter((e) => e.guessed || (e.kind !== 'http' && e.kind !== 'grpc')),
  ];
}

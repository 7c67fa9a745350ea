// Pure: what `perf-gate init` writes, from a project's compose file(s) and a few answers. The HTTP
// services a compose file shows (a port it publishes or exposes, not a well-known database port)
// each get a scenario: a GET on the path asked for, a closed-loop phase and a sweep ladder; a health
// check that curls a URL gives the ready probe's path. The workflow runs the three uses of perf-gate:
// the pull-request gate, the scheduled baseline refresh that opens a pull request, the manual sweep.
import { stringify } from 'yaml';

export interface InitService {
  name: string;
  /** the port the service listens on inside the network (the container port) */
  port: number;
  /** the path of the URL its health check requests, when it requests one */
  healthPath?: string;
  /** publishes a fixed host port or sets container_name: it cannot boot twice (A/B) */
  fixed: boolean;
  build: boolean;
}

export interface ComposeScan {
  services: InitService[];
  /** services left out, and why */
  skipped: Array<{ name: string; why: string }>;
}

/** Ports of services that are databases, brokers and caches, not HTTP. */
const NOT_HTTP = new Map<number, string>([
  [5432, 'PostgreSQL'],
  [3306, 'MySQL'],
  [6379, 'Redis'],
  [27017, 'MongoDB'],
  [5672, 'RabbitMQ'],
  [9092, 'Kafka'],
  [2181, 'ZooKeeper'],
  [11211, 'Memcached'],
  [1433, 'SQL Server'],
  [1521, 'Oracle'],
]);

/** A port entry's container port, and whether it pins a host port: "8080:80", "127.0.0.1:8080:80/tcp",
 * "80", 80, { target: 80, published: 8080 }. */
function portOf(entry: unknown): { port: number; published: boolean } | undefined {
  if (typeof entry === 'number') return { port: entry, published: false };
  if (typeof entry === 'string') {
    // ${VAR:-8080} is its default; a variable without one is not known here
    const text = entry.replace(/\$\{[^}:]*(?::?-([^}]*))?\}/g, (_m, d: string | undefined) => d ?? '');
    const parts = (text.split('/')[0] as string).split(':');
    const last = Number((parts.at(-1) as string).split('-')[0]);
    // "8080:80" pins host port 8080; "127.0.0.1::80" and "80" let Docker choose
    const published = parts.length > 1 && (parts.at(-2) ?? '') !== '';
    return Number.isInteger(last) && last > 0 ? { port: last, published } : undefined;
  }
  if (entry && typeof entry === 'object') {
    const { target, published } = entry as { target?: unknown; published?: unknown };
    const port = Number(target);
    return Number.isInteger(port) && port > 0 ? { port, published: published !== undefined } : undefined;
  }
  return undefined;
}

/** The path of the first http:// URL in a health check's test, if any. */
function healthPathOf(healthcheck: unknown): string | undefined {
  if (!healthcheck || typeof healthcheck !== 'object') return undefined;
  const test = (healthcheck as { test?: unknown }).test;
  const text = Array.isArray(test) ? test.join(' ') : typeof test === 'string' ? test : '';
  const m = /https?:\/\/[^/\s'"]+(\/[^\s'"]*)?/.exec(text);
  return m ? (m[1] ?? '/') : undefined;
}

/** The services of a parsed compose file that perf-gate can load, and the others with the reason. */
export function scanCompose(model: unknown): ComposeScan {
  const out: ComposeScan = { services: [], skipped: [] };
  const services = (model as { services?: unknown } | null)?.services;
  if (!services || typeof services !== 'object') return out;
  for (const [name, raw] of Object.entries(services as Record<string, unknown>)) {
    const def = (raw ?? {}) as Record<string, unknown>;
    if (Array.isArray(def.profiles) && def.profiles.length > 0) {
      out.skipped.push({
        name,
        why: `in profiles ${def.profiles.join(', ')}: compose up does not start it unless asked`,
      });
      continue;
    }
    const ports = [
      ...(Array.isArray(def.ports) ? def.ports : []).map(portOf),
      ...(Array.isArray(def.expose) ? def.expose : []).map((e) => {
        const p = portOf(e);
        return p && { ...p, published: false };
      }),
    ].filter((p): p is { port: number; published: boolean } => p !== undefined);
    const http = ports.find((p) => !NOT_HTTP.has(p.port));
    if (!http) {
      const db = ports.map((p) => NOT_HTTP.get(p.port)).find(Boolean);
      out.skipped.push({
        name,
        why: db ? `${db} (port ${ports[0]?.port}), not HTTP` : 'no ports or expose: where it listens is not known',
      });
      continue;
    }
    const service: InitService = {
      name,
      port: http.port,
      fixed: ports.some((p) => p.published) || def.container_name !== undefined,
      build: def.build !== undefined,
    };
    const healthPath = healthPathOf(def.healthcheck);
    if (healthPath !== undefined) service.healthPath = healthPath;
    out.services.push(service);
  }
  return out;
}

export interface InitAnswers {
  /** compose file paths, relative to where perf-gate.yml goes */
  composeFiles: string[];
  /** the path every scenario GETs */
  path: string;
  /** what a pull request is gated against */
  against: 'base-ref' | 'baselines';
  /** the Action's `uses:` reference */
  action: string;
  /** the config's path, relative to the repository root (the workflow names it) */
  configPath: string;
}

/** Compose's merge of several files' services, as far as init reads them: a later file's keys
 * override, its ports and expose add to the earlier ones. */
export function mergeServices(models: unknown[]): { services: Record<string, unknown> } {
  const services: Record<string, Record<string, unknown>> = {};
  for (const model of models) {
    const more = (model as { services?: unknown } | null)?.services;
    if (!more || typeof more !== 'object') continue;
    for (const [name, raw] of Object.entries(more as Record<string, unknown>)) {
      const def = (raw ?? {}) as Record<string, unknown>;
      const before = services[name] ?? {};
      const merged: Record<string, unknown> = { ...before, ...def };
      for (const key of ['ports', 'expose']) {
        const all = [before[key], def[key]].flatMap((v) => (Array.isArray(v) ? v : []));
        if (all.length > 0) merged[key] = all;
      }
      services[name] = merged;
    }
  }
  return { services };
}

/** A scenario name from a service name: [a-z0-9_-], at most 64 characters. */
export function scenarioName(service: string): string {
  const name = service
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return name || 'service';
}

/** The default: A/B when every service can boot twice, else baselines (and the reason). */
export function defaultAgainst(scan: ComposeScan): { against: InitAnswers['against']; why: string } {
  const fixed = scan.services.filter((s) => s.fixed).map((s) => s.name);
  return fixed.length === 0
    ? {
        against: 'base-ref',
        why: 'head and base are measured side by side in the same job, so runner-to-runner drift cancels',
      }
    : {
        against: 'baselines',
        why: `${fixed.join(', ')} publish${fixed.length === 1 ? 'es' : ''} a fixed host port or set container_name, so the SUT cannot boot twice for A/B; drop those (perf-gate reaches services over the compose network) and set against: base-ref`,
      };
}

/** perf-gate.yml, with comments that say what each part does. */
export function renderConfig(scan: ComposeScan, answers: InitAnswers): string {
  const path = answers.path.startsWith('/') ? answers.path : `/${answers.path}`;
  const build = scan.services.some((s) => s.build);
  const ready = scan.services.map((s) => `http://${s.name}:${s.port}${s.healthPath ?? path}`);
  const suggested = defaultAgainst(scan);
  const why = answers.against === suggested.against ? suggested.why : 'chosen at init';
  const against = answers.against === 'base-ref' ? `A/B: ${why}` : why;
  const lines = [
    '# yaml-language-server: $schema=node_modules/perf-gate/schema/perf-gate.schema.json',
    `# Written by \`perf-gate init\` from ${answers.composeFiles.join(', ')}. Check it: npx perf-gate validate`,
    '# Try it: npx perf-gate run --mode update (records baselines/), then npx perf-gate run (gates against them).',
    'version: 1',
    'sut:',
    `  compose: ${answers.composeFiles.length === 1 ? answers.composeFiles[0] : stringify(answers.composeFiles, { collectionStyle: 'flow' }).trim()}`,
    ...(build
      ? ['  build: true                  # compose up --build: the code under test is built from this checkout']
      : []),
    '  ready:                        # probed from inside the SUT network once compose reports the services up',
    // quoted: a path may hold a comma or a brace, which a plain YAML flow value cannot
    ...ready.map((url) => `    - { url: ${JSON.stringify(url)} }`),
    'gate:',
    `  against: ${answers.against}`.padEnd(32) + `# ${against}`,
    'defaults:',
    '  warmup: 5s                    # discarded before every measured run',
    '  trials: 5                     # measured runs per phase; a change outside a band gets more, up to 12',
    '  thresholds:                   # a regression is beyond regress AND floor, and significant',
    '    p50: { regress: 10%, floor: 200us }',
    '    p99: { regress: 25%, floor: 1ms }',
    '    rps: { regress: 10% }',
    '    error-rate: { max: 0.1% }',
    'scenarios:',
  ];
  const taken = new Set<string>();
  for (const s of scan.services) {
    // two services can make one name (my.api, my-api): the second gets a number
    let name = scenarioName(s.name);
    for (let i = 2; taken.has(name); i++) name = `${scenarioName(s.name).slice(0, 60)}-${i}`;
    taken.add(name);
    lines.push(
      `  - name: ${name}`,
      `    request: { url: ${JSON.stringify(`http://${s.name}:${s.port}${path}`)} }`,
      '    phases:',
      '      - { name: c10, connections: 10, duration: 20s }   # closed loop: 10 connections, each sends as soon as it has an answer',
      '    sweep: { connections: [1, 5, 10, 25, 50], duration: 10s }   # the manual sweep (workflow_dispatch)',
    );
  }
  if (scan.skipped.length > 0) {
    lines.push('# Left out (add a scenario by hand if they serve HTTP):');
    for (const s of scan.skipped) lines.push(`#   ${s.name}: ${s.why}`);
  }
  return `${lines.join('\n')}\n`;
}

/** .github/workflows/perf-gate.yml: the gate on pull requests, the weekly refresh, the manual sweep. */
export function renderWorkflow(answers: InitAnswers): string {
  const config = answers.configPath === 'perf-gate.yml' ? [] : [`          config: ${answers.configPath}`];
  const step = (mode: string) => [
    `      - uses: ${answers.action}`,
    '        with:',
    `          mode: ${mode}`,
    ...config,
  ];
  return [
    '# Written by `perf-gate init`. The three uses of perf-gate, one job each:',
    '#   gate    - every pull request: the sticky comment, and a failed check on a regression',
    '#   refresh - weekly (and by hand): new baselines, proposed as a pull request',
    '#   sweep   - by hand: throughput and p99 over a ladder of connections',
    'name: perf-gate',
    'on:',
    '  pull_request:',
    "  schedule: [{ cron: '0 3 * * 1' }]",
    '  workflow_dispatch:',
    '    inputs:',
    '      job:',
    "        description: 'refresh (new baselines) or sweep'",
    '        type: choice',
    '        options: [sweep, refresh]',
    '        default: sweep',
    'permissions:',
    '  contents: read',
    'jobs:',
    '  gate:',
    "    if: github.event_name == 'pull_request'",
    '    runs-on: ubuntu-latest',
    '    permissions:',
    '      contents: read',
    '      pull-requests: write   # the sticky comment',
    '    steps:',
    '      - uses: actions/checkout@v5',
    ...step(answers.against === 'base-ref' ? 'ab' : 'gate'),
    '  refresh:',
    "    if: github.event_name == 'schedule' || inputs.job == 'refresh'",
    '    runs-on: ubuntu-latest',
    '    permissions:',
    '      contents: write',
    '      pull-requests: write',
    '    steps:',
    '      - uses: actions/checkout@v5',
    ...step('update'),
    '      - uses: peter-evans/create-pull-request@v7',
    '        with:',
    '          branch: perf-gate/baselines',
    "          title: 'perf-gate: refresh baselines'",
    "          commit-message: 'perf-gate: refresh baselines'",
    '          add-paths: baselines/*.json',
    '  sweep:',
    "    if: github.event_name == 'workflow_dispatch' && inputs.job == 'sweep'",
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v5',
    ...step('sweep'),
    '',
  ].join('\n');
}

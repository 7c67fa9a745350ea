// Pure: what `perf-gate init` writes, from a project's compose file(s) and a few answers. The HTTP
// services a compose file shows (a port it publishes or exposes, not a well-known database port)
// each get a scenario: a GET on the path asked for, a closed-loop phase and a sweep ladder; a health
// check that curls a URL gives the ready probe's path. The workflow runs the three uses of perf-gate:
// the pull-request gate, the scheduled baseline refresh that opens a pull request, the manual sweep.
import { DEFAULT_EARLY_LOOK } from '../config-parts/types.js';
import type { ComposeModel } from '../docker/compose.js';
import { sideBySide } from '../docker/side-by-side.js';
import { modeOf, resolveMode } from '../modes/index.js';
import type { SurveyAddress, SurveyFinding } from '../runner-kit/plan.js';
import { classifyService, type Endpoint, refine } from './classify.js';

export interface InitService {
  name: string;
  /** the endpoint its scenario loads (HTTP or gRPC), and its ready probe */
  endpoint: Endpoint;
  build: boolean;
}

export interface ComposeScan {
  /** services that get a scenario */
  services: InitService[];
  /** servers that are neither HTTP nor gRPC nor a database: a tcp:// ready probe, no scenario */
  probes: Array<{ name: string; endpoint: Endpoint }>;
  /** services left out, and why */
  skipped: Array<{ name: string; why: string }>;
  /** what keeps two copies of the project apart in A/B, and what cannot be (../docker/side-by-side.ts) */
  changes: string[];
  blockers: string[];
}

/** The services of a compose project's model (as `docker compose config` resolves it, or read by hand)
 * that perf-gate can load, the probes it can make, and the others with the reason. `project` and
 * `root` are what the side-by-side check needs: the name the model was resolved under, and the tree. */
export function scanCompose(
  model: unknown,
  where: { project: string; root: string },
  /** what `init --probe` heard, by `service:port` */
  findings?: ReadonlyMap<string, SurveyFinding>,
): ComposeScan {
  const out: ComposeScan = { services: [], probes: [], skipped: [], changes: [], blockers: [] };
  const services = (model as { services?: unknown } | null)?.services;
  if (!services || typeof services !== 'object') return out;
  // by name, as `docker compose config` lists them, whichever way the model was read
  const byName = Object.entries(services as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, raw] of byName) {
    const def = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    if (Array.isArray(def.profiles) && def.profiles.length > 0) {
      out.skipped.push({
        name,
        why: `in profiles ${def.profiles.join(', ')}: compose up does not start it unless asked`,
      });
      continue;
    }
    if (!urlHost(name)) {
      out.skipped.push({
        name,
        why: `its name is not a URL host (a last label of digits reads as an IPv4 address): name it ${name}-svc or give it a network alias`,
      });
      continue;
    }
    const endpoints = classifyService(def).map((e) => refine(e, findings?.get(`${name}:${e.port}`)));
    const loadable = endpoints.find((e) => e.kind === 'http' || (e.kind === 'grpc' && e.health === true));
    if (loadable) {
      out.services.push({ name, endpoint: loadable, build: def.build !== undefined });
      continue;
    }
    const first = endpoints[0];
    if (first === undefined) {
      out.skipped.push({ name, why: 'no ports or expose: where it listens is not known' });
    } else if (first.kind === 'database') {
      out.skipped.push({
        name,
        why: `${first.why}, port ${first.port}: not HTTP; a database is loaded through the service that uses it`,
      });
    } else if (first.kind === 'udp') {
      out.skipped.push({ name, why: first.why });
    } else {
      // a TCP server perf-gate cannot load (gRPC without a known health service, DNS, a game server):
      // its ready probe waits for it to accept a connection
      out.probes.push({ name, endpoint: first });
      out.skipped.push({
        name,
        why: `${first.why} (port ${first.port}), not HTTP: a tcp:// ready probe only${first.kind === 'grpc' ? '; add a grpc scenario with your proto' : ''}`,
      });
    }
  }
  try {
    const apart = sideBySide(model as ComposeModel, where.project, where.root);
    out.changes = apart.changes;
    out.blockers = apart.blockers;
  } catch {
    // a model read by hand that does not have compose's shape: nothing to say about A/B
  }
  return out;
}

/** A service name that a URL keeps as it is (web.1 is read as an IPv4 address and refused). */
function urlHost(name: string): boolean {
  try {
    return new URL(`http://${name}:1/`).hostname === name.toLowerCase();
  } catch {
    return false;
  }
}

/** The addresses `init --probe` asks: every TCP port of every service compose starts, but a database's. */
export function surveyAddresses(model: unknown): SurveyAddress[] {
  const services = (model as { services?: unknown } | null)?.services;
  if (!services || typeof services !== 'object') return [];
  const out: SurveyAddress[] = [];
  for (const [name, raw] of Object.entries(services as Record<string, unknown>)) {
    const def = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    if (Array.isArray(def.profiles) && def.profiles.length > 0) continue;
    // a range of ports is one entry a port in compose's model: the first 16 of a service are asked
    const asked = classifyService(def).filter((e) => e.kind !== 'database' && e.kind !== 'udp');
    for (const e of asked.slice(0, 16)) out.push({ host: name, port: e.port });
  }
  return out;
}

export interface InitAnswers {
  /** compose file paths, relative to where perf-gate.yml goes */
  composeFiles: string[];
  /** the path every HTTP scenario GETs */
  path: string;
  /** what a pull request is gated against */
  against: 'base-ref' | 'baselines';
  /** the Action's `uses:` reference */
  action: string;
  /** the config's path, relative to the repository root (the workflow names it) */
  configPath: string;
  /** the gRPC health proto's path, relative to the config (written beside it when a gRPC scenario needs it) */
  grpcProto?: string;
  /** also write the fork flow: a workflow_run job that reports what a fork's pull request measured */
  fork?: boolean;
  /** gate.run-alpha to write: the run's false-alarm budget, or off where no row could reach its share */
  runAlpha: number | 'off';
}

/** The false-alarm budget a new config gets: at most 1% of runs on unchanged code raise a band alarm. */
export const INIT_RUN_ALPHA = 0.01;

/** Compose's merge of several files' services, as far as a reading by hand goes (when `docker compose`
 * is not there): a later file's keys override, its ports and expose add to the earlier ones. */
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

/** The default: A/B whenever the project can boot twice side by side (perf-gate keeps the copies apart),
 * else baselines, and why. */
export function defaultAgainst(scan: ComposeScan): { against: InitAnswers['against']; why: string } {
  if (scan.blockers.length === 0) {
    const kept =
      scan.changes.length > 0
        ? ` (perf-gate keeps the two copies apart: ${scan.changes.slice(0, 3).join('; ')}${scan.changes.length > 3 ? `; and ${scan.changes.length - 3} more, every one listed in each A/B run's report` : ''})`
        : '';
    return {
      against: 'base-ref',
      why: `head and base are measured side by side in the same job, so runner-to-runner drift cancels${kept}`,
    };
  }
  return {
    against: 'baselines',
    why: `the SUT cannot boot twice side by side for A/B: ${scan.blockers.join('; ')}`,
  };
}

/** The gRPC health protocol's proto (grpc/grpc-proto, Apache-2.0), which init's gRPC scenarios call. */
export const GRPC_HEALTH_PROTO = `// The gRPC health checking protocol, from grpc/grpc-proto (grpc/health/v1/health.proto, Apache-2.0).
// Written by \`perf-gate init\`: its gRPC scenarios call Check until you give them a method of your own.
syntax = "proto3";

package grpc.health.v1;

message HealthCheckRequest {
  string service = 1;
}

message HealthCheckResponse {
  enum ServingStatus {
    UNKNOWN = 0;
    SERVING = 1;
    NOT_SERVING = 2;
    SERVICE_UNKNOWN = 3;
  }
  ServingStatus status = 1;
}

service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
}
`;

/** A ready probe's URL for an endpoint. */
function probeUrl(name: string, e: Endpoint): string {
  if (e.kind === 'grpc') return e.health === true ? `grpc://${name}:${e.port}` : `tcp://${name}:${e.port}`;
  // an HTTP path is probed only where the compose file vouches for it (a health check's): a guessed
  // one waits for the port to accept a connection, which holds whatever it speaks
  // (a service that refuses its own name as Host, too: a probe sends no headers)
  // (and only on a path known to answer: a health check's, or one --probe heard answer below 400)
  if (e.kind === 'http' && !e.guessed && e.hostHeader === undefined && e.healthPath !== undefined)
    return `http://${name}:${e.port}${e.healthPath}`;
  return `tcp://${name}:${e.port}`;
}

/** perf-gate.yml, with comments that say what each part does. */
export function renderConfig(scan: ComposeScan, answers: InitAnswers): string {
  const path = answers.path.startsWith('/') ? answers.path : `/${answers.path}`;
  const build = scan.services.some((s) => s.build);
  const ready = [
    ...scan.services.map((s) => probeUrl(s.name, s.endpoint)),
    ...scan.probes.map((s) => probeUrl(s.name, s.endpoint)),
  ];
  const suggested = defaultAgainst(scan);
  const why = answers.against === suggested.against ? suggested.why : 'chosen at init';
  const against = answers.against === 'base-ref' ? `A/B: ${why}` : why;
  const lines = [
    '# yaml-language-server: $schema=node_modules/perf-gate/schema/perf-gate.schema.json',
    `# Written by \`perf-gate init\` from ${answers.composeFiles.join(', ')}. Check it: npx perf-gate validate`,
    ...(answers.against === 'base-ref'
      ? [
          '# Pull requests are gated against their base commit in the same job (A/B): no baselines needed.',
          '# Try it: npx perf-gate run --mode ab --base main',
        ]
      : [
          '# Try it: npx perf-gate run --mode update --baseline-dir /tmp/perf-gate-try, then npx perf-gate run --baseline-dir /tmp/perf-gate-try.',
          "# The baselines to commit come from CI (the workflow's refresh job), not from this machine.",
        ]),
    'version: 1',
    'sut:',
    ...(answers.composeFiles.length === 1
      ? [`  compose: ${JSON.stringify(answers.composeFiles[0])}`]
      : ['  compose:', ...answers.composeFiles.map((f) => `    - ${JSON.stringify(f)}`)]),
    ...(build
      ? ['  build: true                  # compose up --build: the code under test is built from this checkout']
      : []),
    '  ready:                        # probed from inside the SUT network once compose reports the services up',
    // quoted: a path may hold a comma or a brace, which a plain YAML flow value cannot
    ...ready.map((url) => `    - { url: ${JSON.stringify(url)} }`),
    'gate:',
    `  against: ${answers.against}`.padEnd(32) + `# ${oneLine(against)}`,
    answers.runAlpha === 'off'
      ? '  run-alpha: off'.padEnd(32) +
        `# each row at its own alpha: a ${INIT_RUN_ALPHA * 100}% budget shared by this many phases is beyond what 24 trials (pairs) can confirm`
      : `  run-alpha: ${answers.runAlpha}`.padEnd(32) +
        `# the default: at most ${answers.runAlpha * 100}% of runs on unchanged code raise a band alarm`,
    `  early-look: ${DEFAULT_EARLY_LOOK}`.padEnd(32) +
      `# the default: a phase whose rows are all clearly inside their bands after ${DEFAULT_EARLY_LOOK} trials stops there`,
    'defaults:',
    '  warmup: 5s                    # discarded before every measured run',
    '  trials: 5                     # measured runs per phase; a change outside a band gets more, up to 12 (24 where a row needs it)',
    '  thresholds:                   # a regression is beyond regress AND floor, and significant',
    '    p50: { regress: 10%, floor: 200us }',
    '    p99: { regress: 25%, floor: 1ms }',
    '    rps: { regress: 10% }',
    '    error-rate: { max: 0.1% }',
    'scenarios:',
  ];
  const taken = new Set<string>();
  const unique = (base: string) => {
    // two services can make one name (my.api, my-api): the second gets a number
    let name = scenarioName(base);
    for (let i = 2; taken.has(name); i++) name = `${scenarioName(base).slice(0, 60)}-${i}`;
    taken.add(name);
    return name;
  };
  const phases = [
    '    phases:',
    '      - { name: c10, connections: 10, duration: 20s }   # closed loop: 10 connections, each sends as soon as it has an answer',
    '    sweep: { connections: [1, 5, 10, 25, 50], duration: 10s }   # the manual sweep (workflow_dispatch)',
  ];
  for (const s of scan.services) {
    const e = s.endpoint;
    for (const note of e.notes ?? []) lines.push(`  # ${oneLine(s.name)}: ${oneLine(note)}`);
    if (e.kind === 'grpc') {
      lines.push(
        `  - name: ${unique(s.name)}`,
        '    grpc:                        # the gRPC health check: give it a method of your own (proto, service, method, message)',
        `      url: ${JSON.stringify(`grpc://${s.name}:${e.port}`)}`,
        `      proto: ${answers.grpcProto ?? GRPC_HEALTH_PROTO_FILE}`,
        '      service: grpc.health.v1.Health',
        '      method: Check',
        '      message: {}',
        ...phases,
      );
      continue;
    }
    const headers = e.hostHeader !== undefined ? `, headers: { Host: ${JSON.stringify(e.hostHeader)} }` : '';
    const request = (p: string) =>
      `    request: { url: ${JSON.stringify(`http://${s.name}:${e.port}${p}`)}${headers} }`;
    // --probe: GET / refused (an API under /api) and something better known: that is loaded instead
    const rootRefused = e.rootStatus !== undefined && e.rootStatus >= 400 && answers.path === '/';
    const gets = e.gets ?? [];
    if (!rootRefused || gets.length === 0) {
      const target = rootRefused && e.healthPath !== undefined ? e.healthPath : path;
      const note = e.guessed
        ? `   # taken for HTTP: ${oneLine(e.why)}`
        : rootRefused && target === path
          ? `   # GET / answered ${e.rootStatus}: give the path to load`
          : '';
      lines.push(`  - name: ${unique(s.name)}`, `${request(target)}${note}`, ...phases);
    }
    // one scenario per OpenAPI GET operation callable as it is
    for (const get of gets) {
      lines.push(
        `  - name: ${unique(`${s.name}-${get.replace(/\?.*$/, '').replace(/^\/+/, '')}`)}`,
        request(get),
        ...phases,
      );
    }
  }
  if (scan.skipped.length > 0) {
    lines.push('# Left out (add a scenario by hand if they serve HTTP or gRPC):');
    for (const s of scan.skipped) lines.push(`#   ${oneLine(s.name)}: ${oneLine(s.why)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Text from a compose file made safe for a YAML comment: one line, bounded. */
function oneLine(text: string): string {
  const flat = text.replace(/[\r\n\u2028\u2029]+/g, ' ');
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

/** Where init writes the gRPC health proto, beside the config. */
export const GRPC_HEALTH_PROTO_FILE = 'perf-gate/grpc-health.proto';

/** The Action's `uses:` reference from package.json: its GitHub repository and major version. */
export function actionRef(pkg: { version: string; repository?: string | { url?: string } }): string | undefined {
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const m = /(?:^github:|github\.com[/:])([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(url ?? '');
  const major = /^(\d+)\./.exec(pkg.version)?.[1];
  return m?.[1] && major !== undefined ? `${m[1]}@v${major}` : undefined;
}

/** .github/workflows/perf-gate.yml: the gate on pull requests, the weekly refresh, the manual sweep, and
 * with `fork` the report of a fork's pull request (a workflow_run job with the token forks do not get). */
export function renderWorkflow(answers: InitAnswers): string {
  const config =
    answers.configPath === 'perf-gate.yml' ? [] : [`          config: ${JSON.stringify(answers.configPath)}`];
  const step = (mode: string) => [
    `      - uses: ${answers.action}`,
    '        with:',
    `          mode: ${mode}`,
    ...config,
  ];
  // the mode pull requests run in: auto's choice for this config
  const gateMode = resolveMode('auto', 'pull_request', answers.against);
  // the fork flow: this job measures with a read-only token and uploads; perf-gate-report.yml comments
  const gateSteps = answers.fork
    ? [
        `      - uses: ${answers.action}`,
        '        with:',
        `          mode: ${gateMode}`,
        ...config,
        '          comment: never   # perf-gate-report.yml posts it, for forks too',
        "          fail-on-regression: 'false'   # the report job's commit status is the check",
        '      - if: always()',
        '        env:',
        '          PR_NUMBER: ${{ github.event.pull_request.number }}',
        '        run: echo "$PR_NUMBER" > pr-number',
        '      - uses: actions/upload-artifact@v4',
        '        if: always()',
        '        with:',
        '          name: perf-gate-results',
        '          path: |',
        '            perf-gate-results.json',
        '            perf-gate-report.html',
        '            perf-gate-profiles/',
        '            pr-number',
      ]
    : step(gateMode);
  return [
    '# Written by `perf-gate init`. The uses of perf-gate, one job each:',
    '#   gate    - every pull request: the sticky comment, and a failed check on a regression',
    '#   refresh - weekly (and by hand): new baselines, proposed as a pull request',
    '#   sweep   - by hand: throughput and p99 over a ladder of connections',
    ...(answers.fork
      ? ['# The gate uploads its results; perf-gate-report.yml comments and sets the check, for forks too.']
      : []),
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
    '# one run per pull request (or branch): a new push cancels the run it replaces',
    'concurrency:',
    '  group: perf-gate-${{ github.workflow }}-${{ github.event.pull_request.number || github.ref }}',
    "  cancel-in-progress: ${{ github.event_name == 'pull_request' }}",
    'jobs:',
    '  gate:',
    "    if: github.event_name == 'pull_request'",
    '    runs-on: ubuntu-latest',
    `    timeout-minutes: ${modeOf(gateMode).base ? 60 : 30}`,
    '    permissions:',
    '      contents: read',
    '      pull-requests: write   # the sticky comment (a fork gets a read-only token: the report job posts it)',
    '    steps:',
    '      - uses: actions/checkout@v5',
    ...gateSteps,
    '  refresh:',
    "    if: github.event_name == 'schedule' || inputs.job == 'refresh'",
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 30',
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
    '          add-paths: baselines/*       # the baselines, and the profiles and history kept beside them',
    "          body-path: perf-gate-report.md   # the refresh's report: which rows moved since the baselines it replaces",
    '  sweep:',
    "    if: github.event_name == 'workflow_dispatch' && inputs.job == 'sweep'",
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 60',
    '    steps:',
    '      - uses: actions/checkout@v5',
    ...step('sweep'),
    '',
  ].join('\n');
}

/** .github/workflows/perf-gate-report.yml, the fork flow's trusted half: runs the default branch's
 * workflow after the gate, never the pull request's code, and comments with the write token forks lack. */
export function renderReportWorkflow(answers: Pick<InitAnswers, 'action'>): string {
  return [
    "# Written by `perf-gate init --fork`. Trusted: the default branch's workflow, never the pull request's",
    "# code. It re-renders the gate's results (escaped), upserts the sticky comment and sets the",
    '# perf-gate commit status on the head commit (make it a required check).',
    'name: perf-gate-report',
    'on:',
    '  workflow_run:',
    '    workflows: [perf-gate]   # the name: of perf-gate.yml',
    '    types: [completed]',
    'permissions:',
    "  actions: read   # download the gate's artifact",
    '  pull-requests: write   # the sticky comment',
    '  statuses: write   # the perf-gate commit status',
    'jobs:',
    '  report:',
    "    if: github.event.workflow_run.event == 'pull_request' && github.event.workflow_run.conclusion != 'cancelled'",
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 10',
    '    steps:',
    '      - uses: actions/download-artifact@v4',
    '        with:',
    '          name: perf-gate-results',
    '          path: artifact',
    '          run-id: ${{ github.event.workflow_run.id }}',
    '          github-token: ${{ github.token }}',
    '      - id: pr',
    '        run: |',
    '          n="$(head -c 12 artifact/pr-number 2>/dev/null | tr -cd \'0-9\')"',
    '          echo "number=$n" >> "$GITHUB_OUTPUT"',
    `      - uses: ${answers.action}`,
    '        with:',
    '          mode: report',
    '          results: artifact/perf-gate-results.json',
    '          pr-number: ${{ steps.pr.outputs.number }}',
    '',
  ].join('\n');
}

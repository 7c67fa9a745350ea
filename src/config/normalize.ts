// Pure: turns a schema-valid raw config into the normalised Config, collecting every semantic problem
// (phase shapes, unique names, threshold units) as `path: message` lines. What a scenario loads is its
// protocol's to read (src/protocols/<kind>/); phases, thresholds and names are shared
// (../config-parts/phases.ts, ../config-parts/thresholds.ts).
import { readDistributed } from './distributed.js';
import { duplicates } from '../config-parts/phases.js';
import { RESOURCE_METRICS } from '../config-parts/schema-parts.js';
import type { RawConfig } from './schema.js';
import { checkThresholds, mergeThresholds } from '../config-parts/thresholds.js';
import {
  type BusySettings,
  type Checked,
  type Config,
  DEFAULT_AB_PAIRS,
  DEFAULT_CONFIRM_MAX_TIME_MS,
  DEFAULT_BUSY_OTHERS_PCT,
  DEFAULT_CONFIRM_MAX_TRIALS,
  DEFAULT_EARLY_LOOK,
  DEFAULT_RUN_ALPHA,
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_SHIFTS,
  DEFAULT_RUNNER_IMAGE,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_TRIALS,
  DEFAULT_WARMUP_MS,
  type Scenario,
  type ScenarioTarget,
  type ShiftSettings,
  type SutProfile,
} from '../config-parts/types.js';
import type { Phase } from '../runner-kit/plan.js';
import { PROTOCOLS, protocolKeysGiven, protocolKeysLine, protocolOf, rawKind, urlKeyOf } from '../protocols/index.js';
import { normalizeSetup } from './setup.js';
import { parseDurationMs, parsePercent } from '../common/units.js';

/** Resolves a path from the config; returns an absolute path or throws an Error with a message. */
export type PathResolver = (relative: string) => string;

export interface NormalizeResult {
  config?: Config;
  problems: string[];
  /** with problems: the setup steps and the scenarios that could be read, so that checks of their texts
   * (the placeholder story) are said in the same pass */
  partial?: Checked;
}

export function normalizeConfig(raw: RawConfig, file: string, dir: string, resolvePath: PathResolver): NormalizeResult {
  const problems: string[] = [];
  const resolveAt = (path: string, relative: string): string | undefined => {
    try {
      return resolvePath(relative);
    } catch (err) {
      problems.push(`${path}: ${(err as Error).message}`);
      return undefined;
    }
  };

  const sut = raw.sut;
  if (sut && raw.target !== undefined)
    problems.push('target: give sut (a compose SUT perf-gate boots) or target (a service already running), not both');
  if (!sut && raw.target === undefined)
    problems.push('sut: is required (the compose SUT to boot), or give target: the URL of a service already running');
  if (raw.target !== undefined && /[?#]/.test(raw.target))
    problems.push('target: a base URL without a query or fragment (request paths are joined to it)');
  if (raw.runner?.network !== undefined && raw.target === undefined)
    problems.push("runner.network: only with target (with sut the runner joins the compose project's networks)");
  if (raw.target !== undefined && raw.gate?.against === 'base-ref')
    problems.push(
      'gate.against: base-ref boots the base commit from compose; a target is one running service: gate against baselines',
    );
  (sut?.ready ?? []).forEach((r, i) => {
    const loopback = loopbackOf(r.url);
    if (loopback) problems.push(`sut.ready[${i}].url: ${loopbackLine(loopback)}`);
  });
  const composeList = sut?.compose === undefined ? [] : Array.isArray(sut.compose) ? sut.compose : [sut.compose];
  const composeFiles =
    sut && sut.compose === undefined
      ? defaultComposeFiles(resolvePath, problems)
      : composeList
          .map((p, i) => resolveAt(Array.isArray(sut?.compose) ? `sut.compose[${i}]` : 'sut.compose', p))
          .filter((p): p is string => p !== undefined);
  /** a request URL that is a path is under the target's base URL */
  const resolveUrl = (url: string, at: string): string => {
    if (!url.startsWith('/')) return url;
    if (raw.target === undefined) {
      problems.push(
        `${at}: a path needs target (a running service’s base URL); with sut, give the whole URL (http://service:port${url})`,
      );
      return url;
    }
    return raw.target.replace(/\/+$/, '') + url;
  };

  const setup = raw.setup
    ? normalizeSetup(raw.setup, { problems, resolveAt, resolveUrl }, (url) => {
        const host = raw.target === undefined ? loopbackOf(url) : undefined;
        return host ? loopbackLine(host) : undefined;
      })
    : undefined;
  checkThresholds(raw.defaults?.thresholds, 'defaults.thresholds', problems);
  const defaultWarmup = raw.defaults?.warmup !== undefined ? parseDurationMs(raw.defaults.warmup) : undefined;
  const scenarios: Scenario[] = [];
  /** where each scenario read stands in the file (one that could not be read is left out) */
  const at: number[] = [];
  raw.scenarios.forEach((s, si) => {
    const path = `scenarios[${si}]`;
    // the protocol key given reads the phases, even when the scenario gives several (a problem below);
    // a scenario that gives none is refused below, its phases unread
    const kind = rawKind(s);
    const protocol = kind ? PROTOCOLS[kind] : undefined;
    const phases: Phase[] = [];
    s.phases.forEach((p, pi) => {
      const phase = protocol?.normalizePhase(p, `${path}.phases[${pi}]`, problems);
      if (phase) phases.push(phase);
    });
    for (const dup of duplicates(phases.map((p) => p.name))) {
      problems.push(`${path}.phases: phase name "${dup}" is used twice (give each phase a unique name)`);
    }
    // bounded by the schema (1ms to 10m); a gRPC call's deadline defaults to it
    const requestTimeoutMs =
      parseDurationMs(s['request-timeout'] ?? raw.defaults?.['request-timeout'] ?? '') ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const given = protocolKeysGiven(s);
    let target: ScenarioTarget | undefined;
    if (given !== 1 || !protocol) {
      problems.push(`${path}: give exactly one of ${protocolKeysLine()}`);
    } else {
      target = protocol.normalize(s, path, { problems, resolveAt, resolveUrl, requestTimeoutMs, phases });
    }
    if (!target || !protocol) return;
    if (s.data && target.kind !== 'http')
      problems.push(`${path}.data: HTTP scenarios only (a WebSocket or gRPC scenario takes no data file yet)`);
    if (s.hook !== undefined && target.kind === 'grpc')
      problems.push(`${path}.hook: HTTP and WebSocket scenarios only for now (a gRPC scenario takes no hook yet)`);
    if (raw.target === undefined) {
      // with a compose SUT the runner is a container of its own: localhost is the runner, never the SUT
      const loopback = loopbackOf(protocol.url(target as never));
      if (loopback) problems.push(`${path}.${urlKeyOf(target)}: ${loopbackLine(loopback)}`);
    }
    const scenario: Scenario = {
      name: s.name,
      target,
      phases,
      warmupMs: (s.warmup !== undefined ? parseDurationMs(s.warmup) : defaultWarmup) ?? DEFAULT_WARMUP_MS,
      trials: s.trials ?? raw.defaults?.trials ?? DEFAULT_TRIALS,
      requestTimeoutMs,
      // safe by default: later trials warm up for what the first showed it needs, unless `full`
      ...((s['warmup-later'] ?? raw.defaults?.['warmup-later']) === 'full' ? {} : { warmupLater: 'settled' as const }),
      ...((s['accept-failing'] ?? raw.defaults?.['accept-failing']) === true ? { acceptFailing: true as const } : {}),
      thresholds: mergeThresholds(raw.defaults?.thresholds, s.thresholds, `${path}.thresholds`, problems),
    };
    const noDelivery = scenario.thresholds.delivery ? protocolOf(target).noDelivery(target) : undefined;
    if (noDelivery) {
      const from = s.thresholds?.delivery ? '' : ' (given in defaults.thresholds)';
      problems.push(`${path}.thresholds.delivery: ${noDelivery}${from}`);
    }
    // a target is nobody's container: SUT resources cannot be sampled
    for (const m of raw.target !== undefined ? RESOURCE_METRICS.filter((x) => scenario.thresholds[x]) : []) {
      const from =
        (s.thresholds as Record<string, unknown> | undefined)?.[m] !== undefined
          ? ''
          : ' (given in defaults.thresholds)';
      problems.push(
        `${path}.thresholds.${m}: ${m} is sampled from the compose SUT's containers; a target has none${from}`,
      );
    }
    if (s.sweep) {
      const { connections, rate } = s.sweep;
      if (protocol.noSweep !== undefined) problems.push(`${path}.sweep: ${protocol.noSweep}`);
      else if ((connections === undefined) === (rate === undefined)) {
        problems.push(`${path}.sweep: give exactly one ladder, connections or rate`);
      } else {
        scenario.sweep = {
          kind: connections ? 'closed' : 'open',
          levels: (connections ?? rate) as number[],
          durationMs: parseDurationMs(s.sweep.duration) as number,
          warmupMs: s.sweep.warmup !== undefined ? (parseDurationMs(s.sweep.warmup) as number) : scenario.warmupMs,
        };
      }
    }
    scenarios.push(scenario);
    at.push(si);
  });
  for (const dup of duplicates(raw.scenarios.map((s) => s.name))) {
    problems.push(`scenarios: scenario name "${dup}" is used twice (it names the baseline file)`);
  }

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(sut?.env ?? {})) env[k] = String(v);

  // bounded by the schema: 1s to 24h (0 would keep a change from ever being confirmed)
  const maxTime = raw.gate?.confirm?.['max-time'];
  const maxTimeMs = maxTime !== undefined ? (parseDurationMs(maxTime) as number) : DEFAULT_CONFIRM_MAX_TIME_MS;
  const { orchestrator, ...distributed } = readDistributed(raw, scenarios, problems);
  // a profile is fetched by the one runner beside the SUT it boots
  if (sut?.profile && Object.keys(sut.profile).length > 0 && (orchestrator === 'swarm' || distributed.replicas > 1)) {
    problems.push(
      `sut.profile: not taken on a swarm or with runner.replicas above 1 (yet): profile with one runner on compose, or leave it out`,
    );
  }
  const profile = sutProfiles(sut, problems);
  if (problems.length > 0) return { problems, partial: { ...(setup ? { setup } : {}), scenarios, at } };
  const runner: Config['runner'] = {
    image: raw.runner?.image ?? DEFAULT_RUNNER_IMAGE,
    workers: raw.runner?.workers ?? 1,
    ...distributed,
  };
  if (raw.runner?.cpus !== undefined) runner.cpus = raw.runner.cpus;
  return {
    problems,
    config: {
      file,
      dir,
      ...(raw.target !== undefined ? { target: { url: raw.target, network: raw.runner?.network ?? 'host' } } : {}),
      sut: {
        composeFiles,
        services: sut?.services ?? [],
        build: sut?.build ?? false,
        env,
        ready: (sut?.ready ?? []).map((r) => ({
          url: r.url,
          timeoutMs: r.timeout !== undefined ? (parseDurationMs(r.timeout) as number) : DEFAULT_READY_TIMEOUT_MS,
        })),
        orchestrator,
        profile,
      },
      runner,
      ...(setup ? { setup } : {}),
      gate: {
        against: raw.gate?.against ?? 'baselines',
        bands: raw.gate?.bands ?? 'judge',
        confirm: {
          maxTrials: raw.gate?.confirm?.['max-trials'] ?? DEFAULT_CONFIRM_MAX_TRIALS,
          maxTimeMs,
          // not given: the cap grows where the run's budget needs it (compare/reach.ts)
          ...(raw.gate?.confirm?.['max-trials'] === undefined ? { grows: true } : {}),
        },
        // safe by default (issue 47): the run's budget unless the config turns it off
        ...(raw.gate?.['run-alpha'] === 'off' ? {} : { runAlpha: raw.gate?.['run-alpha'] ?? DEFAULT_RUN_ALPHA }),
        // on by default: a phase whose rows are clearly inside their bands stops at its early look
        ...(raw.gate?.['early-look'] === 'off' ? {} : { earlyLook: raw.gate?.['early-look'] ?? DEFAULT_EARLY_LOOK }),
        // safe by default (issue 47): the busy sentinel acts wherever the machine can be read
        ...(raw.gate?.busy === 'off' ? {} : { busy: busySettings(raw.gate?.busy, raw.target !== undefined) }),
      },
      ab: { pairs: raw.ab?.pairs ?? DEFAULT_AB_PAIRS },
      history: shiftSettings(raw.history),
      scenarios,
    },
  };
}

/** The names compose looks for when no file is named, and its override files, in its order (compose-go's
 * DefaultFileNames and DefaultOverrideFileNames). */
export const COMPOSE_DEFAULT_NAMES = ['compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.yaml'];
export const COMPOSE_OVERRIDE_NAMES = [
  'compose.override.yml',
  'compose.override.yaml',
  'docker-compose.override.yml',
  'docker-compose.override.yaml',
];

/** sut.profile as the run takes it: a pprof endpoint, or perf in a helper container of sut.perf-image
 * (with `target` there is no sut: nothing booted to join). */
function sutProfiles(sut: RawConfig['sut'], problems: string[]): SutProfile[] {
  const image = sut?.['perf-image'];
  const perf = Object.entries(sut?.profile ?? {}).filter(([, v]) => v === 'perf');
  if (perf.length > 0 && image === undefined)
    problems.push(
      `sut.perf-image: needed by sut.profile.${perf.map(([s]) => s).join(', sut.profile.')}: perf: an image with Linux perf and a shell (docs/profiling.md)`,
    );
  if (perf.length === 0 && image !== undefined)
    problems.push(`sut.perf-image: no service of sut.profile is profiled with perf: leave it out, or set one to perf`);
  return Object.entries(sut?.profile ?? {}).map(([service, v]) =>
    v === 'perf' ? { service, perf: { image: image ?? '' } } : { service, url: v },
  );
}

/** `sut.compose` not given: the files `docker compose` loads by default in the config's directory (the
 * first default name found, then the first override found), as `-f` paths. */
function defaultComposeFiles(resolvePath: (relative: string) => string, problems: string[]): string[] {
  const first = (names: string[]) => {
    for (const name of names) {
      try {
        return resolvePath(name);
      } catch (err) {
        // not here: the next name; there but not readable (outside the workspace, a folder): said
        const message = (err as Error).message;
        if (!/^file not found/.test(message)) {
          problems.push(`sut.compose: not given, and compose's default ${name} cannot be used: ${message}`);
          return null;
        }
      }
    }
    return undefined;
  };
  const main = first(COMPOSE_DEFAULT_NAMES);
  if (main === null) return [];
  if (main === undefined) {
    problems.push(
      `sut.compose: not given, and no compose file beside the config (${COMPOSE_DEFAULT_NAMES.join(', ')}); name one`,
    );
    return [];
  }
  const override = first(COMPOSE_OVERRIDE_NAMES);
  return override ? [main, override] : [main];
}

/** The host a URL of any scheme names, lowercased, or undefined when it does not parse. Read as http:
 * a special scheme, so 127.1 and 2130706433 become 127.0.0.1 for grpc:// and tcp:// too. */
export function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url.replace(/^[a-z][a-z0-9+.-]*:/i, 'http:')).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The loopback host a URL names (localhost, 127.x, ::1, 0.0.0.0), or undefined. */
export function loopbackOf(url: string): string | undefined {
  const host = hostnameOf(url);
  if (host === undefined) return undefined;
  const loopback =
    /^(localhost|localhost\.localdomain)\.?$|^127(\.\d{1,3}){3}$|^\[::1\]$|^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$|^0\.0\.0\.0$/;
  return loopback.test(host) ? host : undefined;
}

/** Why a loopback host cannot reach a compose SUT. */
export function loopbackLine(host: string): string {
  return `${host} is the runner's own container, not the SUT: the runner joins the compose project's network, so name the service (http://api:8080/…), or give target: for a service running on this host`;
}

/** `history:` as given (checked by its schema), the defaults filled in. */
export function shiftSettings(raw: RawConfig['history']): ShiftSettings {
  const minShift = raw?.['min-shift'] !== undefined ? parsePercent(raw['min-shift']) : undefined;
  return { minShift: minShift ?? DEFAULT_SHIFTS.minShift, alpha: raw?.alpha ?? DEFAULT_SHIFTS.alpha };
}

/** gate.busy, on (absent, `on`, or tuned as `{ others, repeats }`): the noise sentinel's settings. */
function busySettings(given: NonNullable<RawConfig['gate']>['busy'], target: boolean): BusySettings {
  const tuned = typeof given === 'object' ? given : {};
  return {
    othersPct: tuned.others ?? DEFAULT_BUSY_OTHERS_PCT,
    // a target's service is not a container the run starts: its CPU reads as others'
    ...(target ? { stealOnly: true as const } : {}),
    ...(tuned.repeats !== undefined ? { repeats: tuned.repeats } : {}),
  };
}

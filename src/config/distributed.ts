// Pure: the distributed runner's keys (runner.replicas, runner.placement, sut.orchestrator) read and
// checked against the rest of the config. Runners run as a replicated job on a Docker Swarm when the
// SUT is a stack (sut.orchestrator: swarm) or several replicas share the load on a target.
import { openLoopLimits } from '../runner-kit/plan.js';
import { protocolOf } from '../protocols/index.js';
import { RESOURCE_METRICS } from '../config-parts/schema-parts.js';
import type { RawConfig } from './schema.js';
import type { Config, Scenario } from '../config-parts/types.js';
import { parseDurationMs } from '../common/units.js';

/**
 * How far ahead of a trial's creation its replicas' common start lies by default: for the swarm to
 * schedule and start them and for their ready probes. 8 s was too little on the nested test swarm
 * (a replica ready 20 s after the start once, in the 28th trial of a bench).
 */
export const DEFAULT_START_LEAD_MS = 15_000;

/** Whether the runners of this config run as a swarm job (else: one container beside compose). */
export function onSwarm(config: Pick<Config, 'sut' | 'runner'>): boolean {
  return config.sut.orchestrator === 'swarm' || config.runner.replicas > 1;
}

/** The distributed keys as the normalised config keeps them; problems pushed as `path: message`. */
export function readDistributed(
  raw: RawConfig,
  scenarios: readonly Scenario[],
  problems: string[],
): {
  replicas: number;
  placement?: { constraints: string[]; maxPerNode?: number };
  startLeadMs: number;
  orchestrator: 'compose' | 'swarm';
} {
  const replicas = raw.runner?.replicas ?? 1;
  const orchestrator = raw.sut?.orchestrator ?? 'compose';
  const swarm = orchestrator === 'swarm' || replicas > 1;
  if (replicas > 1 && raw.target === undefined && raw.sut && orchestrator !== 'swarm') {
    problems.push(
      'runner.replicas: replicas run on a Docker Swarm, beside the SUT deployed as a stack: set sut.orchestrator: swarm (or give target and an overlay runner.network)',
    );
  }
  if (replicas > 1 && raw.target !== undefined && (raw.runner?.network ?? 'host') === 'host') {
    problems.push(
      'runner.network: replicas on a swarm join an overlay network the target is reachable on; the host network is one machine’s',
    );
  }
  if (orchestrator === 'swarm' && raw.sut?.build) {
    problems.push(
      'sut.build: a swarm stack does not build images: build them first (docker compose build) and push or load them on every node',
    );
  }
  const placement = raw.runner?.placement;
  if (raw.runner?.['start-lead'] !== undefined && !swarm) {
    problems.push(
      'runner.start-lead: the common start of runner replicas on a swarm: only with runner.replicas > 1 or sut.orchestrator: swarm',
    );
  }
  if (placement && !swarm) {
    problems.push(
      'runner.placement: places runner replicas on a swarm: only with runner.replicas > 1 or sut.orchestrator: swarm',
    );
  }
  if (replicas > 1) {
    scenarios.forEach((s, si) => checkShares(s, `scenarios[${si}]`, replicas, problems));
  }
  // a stack's containers are on other nodes: the engine cannot stream their stats (a target's are no one's: normalize says so)
  if (orchestrator === 'swarm') {
    scenarios.forEach((s, si) => {
      for (const m of RESOURCE_METRICS.filter((x) => s.thresholds[x])) {
        problems.push(
          `scenarios[${si}].thresholds.${m}: ${m} is sampled from compose containers on this engine; a swarm stack's run on its nodes`,
        );
      }
    });
  }
  const lead = raw.runner?.['start-lead'];
  return {
    replicas,
    orchestrator,
    startLeadMs: lead !== undefined ? (parseDurationMs(lead) as number) : DEFAULT_START_LEAD_MS,
    ...(placement
      ? {
          placement: {
            constraints: placement.constraints ?? [],
            ...(placement['max-per-node'] !== undefined ? { maxPerNode: placement['max-per-node'] } : {}),
          },
        }
      : {}),
  };
}

/** Every replica must get some of each phase: connections, requests and in-flight of at least `replicas`. */
function checkShares(s: Scenario, path: string, replicas: number, problems: string[]): void {
  const alone = protocolOf(s.target).noReplicas;
  if (alone) {
    problems.push(`${path}.${alone.key}: ${alone.why}; runner.replicas must be 1`);
    return;
  }
  const few = (what: string, n: number) =>
    `${what} ${n} cannot be shared by ${replicas} runner replicas (each needs at least 1): raise it or lower runner.replicas`;
  s.phases.forEach((p, pi) => {
    const at = `${path}.phases[${pi}]`;
    if (p.kind === 'closed') {
      if (p.connections < replicas) problems.push(`${at}.connections: ${few('connections', p.connections)}`);
      if (p.requests !== undefined && p.requests < replicas)
        problems.push(`${at}.requests: ${few('requests', p.requests)}`);
    } else if (p.kind === 'open') {
      const { inFlight } = openLoopLimits(p);
      if (inFlight < replicas) problems.push(`${at}.max-in-flight: ${few('requests in flight', inFlight)}`);
    }
  });
  for (const level of s.sweep?.kind === 'closed' ? s.sweep.levels : []) {
    if (level < replicas) {
      problems.push(`${path}.sweep.connections: ${few('connections', level)}`);
      break;
    }
  }
}

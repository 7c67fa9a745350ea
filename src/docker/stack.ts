// The SUT as a swarm stack (sut.orchestrator: swarm): the same compose files, checked by `docker
// compose config`, deployed with `docker stack deploy` (never resolving images against a registry:
// they must be on the nodes) plus an override that labels the services and networks with the run;
// converged when every service runs its desired tasks; `docker stack rm` and a wait for its networks
// to go on the way down. Service state comes from the engine API.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { stringify } from 'yaml';
import { environmentError } from '../common/errors.js';
import { lastLine, type Exec } from '../common/exec.js';
import type { ComposeClient } from './clients.js';
import { composeEnv, type ComposeModel, type ComposeOptions } from './compose.js';

export const STACK_LABEL = 'com.docker.stack.namespace';

export interface StackService {
  name: string;
  running: number;
  desired: number;
  /** the latest task error, if any (no suitable node, non-zero exit) */
  error?: string;
}

export interface StackClient extends ComposeClient {
  /** the stack's services and their tasks running against desired */
  services(): Promise<StackService[]>;
  /** the stack's overlay networks (the runner replicas join them) */
  networks(): Promise<string[]>;
}

/** Pure: the override that labels every service (its swarm service) and every network the stack creates. */
export function stackOverride(model: ComposeModel, labels: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    version: '3.8',
    services: Object.fromEntries(Object.keys(model.services).map((s) => [s, { deploy: { labels } }])),
  };
  const nets = Object.entries(model.networks ?? {}).filter(([, n]) => !n?.external);
  if (nets.length > 0) out.networks = Object.fromEntries(nets.map(([n]) => [n, { labels }]));
  return out;
}

/** Pure: "no service converged" lines for the services not yet running all their tasks. */
export function unconverged(services: readonly StackService[]): string[] {
  return services
    .filter((s) => s.running < s.desired || s.desired === 0)
    .map((s) => `service ${s.name}: ${s.running}/${s.desired} tasks running${s.error ? ` (${s.error})` : ''}`);
}

export function stackClient(
  exec: Exec,
  docker: Docker,
  opts: ComposeOptions,
  own: NodeJS.ProcessEnv,
  pollMs = 1000,
): StackClient {
  const tmp = mkdtempSync(join(tmpdir(), 'perf-gate-stack-'));
  const override = join(tmp, 'perf-gate.stack.yml');
  const env = composeEnv(own, opts.env, opts.project);
  const files = opts.files.flatMap((f) => ['-f', f]);
  const filters = { label: [`${STACK_LABEL}=${opts.project}`] };

  const services = async (): Promise<StackService[]> => {
    const list = (await docker.listServices({
      filters,
      status: true,
    } as Docker.ServiceListOptions)) as unknown as Array<{
      ID: string;
      Spec?: { Name?: string };
      ServiceStatus?: { RunningTasks?: number; DesiredTasks?: number };
    }>;
    const out: StackService[] = [];
    for (const s of list) {
      const service: StackService = {
        name: (s.Spec?.Name ?? s.ID).replace(`${opts.project}_`, ''),
        running: s.ServiceStatus?.RunningTasks ?? 0,
        desired: s.ServiceStatus?.DesiredTasks ?? 0,
      };
      if (service.running < service.desired) {
        const tasks = (await docker.listTasks({ filters: { service: [s.ID] } })) as unknown as Array<{
          Status?: { Err?: string; Timestamp?: string };
        }>;
        const err = tasks
          .filter((t) => t.Status?.Err)
          .sort((a, b) => String(b.Status?.Timestamp).localeCompare(String(a.Status?.Timestamp)))[0]?.Status?.Err;
        if (err) service.error = err;
      }
      out.push(service);
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  };

  return {
    project: opts.project,
    async prepare() {
      const res = await exec('docker', ['compose', '-p', opts.project, ...files, 'config', '--format', 'json'], {
        cwd: opts.cwd,
        env,
      });
      if (res.code !== 0) {
        throw environmentError(
          `compose file ${opts.files.join(', ')} rejected by docker compose: ${lastLine(res.stderr)}`,
        );
      }
      const model = JSON.parse(res.stdout) as ComposeModel;
      writeFileSync(override, stringify(stackOverride(model, opts.labels)));
      return model;
    },
    async up(_services, _build, waitTimeoutS) {
      const stackFiles = [...opts.files, override].flatMap((f) => ['-c', f]);
      const res = await exec('docker', ['stack', 'deploy', '--resolve-image', 'never', ...stackFiles, opts.project], {
        cwd: opts.cwd,
        env,
        timeoutMs: 300_000,
      });
      if (res.code !== 0) return res.stderr || res.stdout || `docker stack deploy exited with ${res.code}`;
      const until = Date.now() + waitTimeoutS * 1000;
      for (;;) {
        const now = await services().catch((err: Error) => err);
        if (now instanceof Error) return `docker: listing the stack's services: ${now.message.split('\n')[0]}`;
        const waiting = unconverged(now);
        if (now.length > 0 && waiting.length === 0) return undefined;
        if (Date.now() > until) {
          return `the stack did not converge within ${waitTimeoutS}s: ${waiting.join('; ') || 'no services'}`;
        }
        await new Promise((r) => setTimeout(r, pollMs));
      }
    },
    async logs(tail) {
      const out: string[] = [];
      for (const s of await services().catch(() => [])) {
        const res = await exec(
          'docker',
          ['service', 'logs', '--no-task-ids', '--tail', String(tail), `${opts.project}_${s.name}`],
          { env, timeoutMs: 30_000 },
        );
        out.push(...(res.stdout + res.stderr).split(/\r?\n/).filter((l) => l.trim() !== ''));
      }
      return out;
    },
    async down() {
      await exec('docker', ['stack', 'rm', opts.project], { env, timeoutMs: 120_000 });
      // stack rm returns before the tasks and networks are gone: wait (bounded) for the networks
      const until = Date.now() + 60_000;
      while (Date.now() < until) {
        const left = await docker.listNetworks({ filters }).catch(() => []);
        const svcs = await docker.listServices({ filters }).catch(() => []);
        if (left.length === 0 && svcs.length === 0) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      rmSync(tmp, { recursive: true, force: true });
    },
    services,
    async networks() {
      const nets = await docker.listNetworks({ filters });
      return nets.filter((n) => n.Driver === 'overlay').map((n) => n.Name);
    },
  };
}

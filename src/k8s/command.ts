// `perf-gate render k8s`: the config's first trial of one phase, as the Kubernetes manifests that
// would run it on runner replicas (./render.ts), in YAML, to review or apply. Secrets in requests stay
// `${NAME}`: perf-gate fills them in when it creates the objects itself, and a rendered file must not
// hold them.
import { stringify } from 'yaml';
import { loadConfig } from '../config/load.js';
import type { ReadFs } from '../common/read-fs.js';
import { usageError } from '../common/errors.js';
import { unfilledPlan } from '../config/env.js';
import { buildPlan } from '../run/runner-plan.js';
import { bodiesReader } from '../run/plan.js';
import { trialDeadlineMs } from '../session/sut-session.js';
import { protocolOf } from '../protocols/index.js';
import { nodeExpression, renderK8s } from './render.js';

/** How far ahead of rendering the trial's common start lies (perf-gate sets it when it creates the Job). */
export const RENDER_LEAD_MS = 120_000;

export interface RenderK8sOptions {
  configFile: string;
  scenario?: string;
  phase?: string;
  namespace: string;
  runId: string;
  now: number;
  script: string;
  /** the config's workspace, and what reading it goes through */
  workspace: string;
  fs: ReadFs;
}

export function renderK8sCommand(o: RenderK8sOptions): string {
  const config = loadConfig(o.configFile, o.workspace, o.fs);
  const scenario = o.scenario ? config.scenarios.find((s) => s.name === o.scenario) : config.scenarios[0];
  if (!scenario) {
    throw usageError(
      `--scenario ${o.scenario}: no such scenario (known: ${config.scenarios.map((s) => s.name).join(', ')})`,
    );
  }
  const phase = o.phase ? scenario.phases.find((p) => p.name === o.phase) : scenario.phases[0];
  if (!phase) {
    throw usageError(
      `--phase ${o.phase}: no such phase of ${scenario.name} (known: ${scenario.phases.map((p) => p.name).join(', ')})`,
    );
  }
  const alone = protocolOf(scenario.target).noReplicas;
  if (alone && config.runner.replicas > 1) throw usageError(`${scenario.name}: ${alone.scenarios} run on one runner`);
  (config.runner.placement?.constraints ?? []).forEach((c, i) => {
    try {
      nodeExpression(c);
    } catch (err) {
      throw usageError(`runner.placement.constraints[${i}]: ${(err as Error).message}`);
    }
  });
  // its placeholders stay for whoever applies it; with a setup, in the form the runner reads
  const plan = unfilledPlan(
    buildPlan([scenario], config.sut.ready, bodiesReader(o.fs), config.runner.workers, config.setup),
  );
  const trial = { scenario: scenario.name, phase: phase.name, trial: 1, trials: scenario.trials };
  const deadlineMs = trialDeadlineMs(plan, trial) ?? 3_600_000;
  const docs = renderK8s({
    runId: o.runId,
    namespace: o.namespace,
    image: config.runner.image,
    replicas: config.runner.replicas,
    ...(config.runner.cpus !== undefined ? { cpus: config.runner.cpus } : {}),
    ...(config.runner.placement ? { placement: config.runner.placement } : {}),
    plan,
    trial,
    startAtEpochMs: o.now + RENDER_LEAD_MS,
    deadlineS: (deadlineMs + RENDER_LEAD_MS) / 1000,
    script: o.script,
  });
  const head = [
    `# perf-gate render k8s: trial 1 of ${scenario.name}/${phase.name} on ${config.runner.replicas} runner replica${config.runner.replicas === 1 ? '' : 's'} (an Indexed Job), namespace ${o.namespace}, run ${o.runId}.`,
    `# Its common start is ${new Date(o.now + RENDER_LEAD_MS).toISOString()} (two minutes after rendering): apply before then.`,
    '# Each pod writes its trial to its log; merge them as docs/distributed.md says. The SUT is not rendered:',
    '# the requests must reach it from the pods. Secrets in requests are left as ${NAME}.',
  ].join('\n');
  return `${head}\n${docs.map((d) => `---\n${stringify(d, { lineWidth: 0 })}`).join('')}`;
}

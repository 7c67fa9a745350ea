// `perf-gate init --probe`: boots the project once (as `run` would: labelled, torn down on every path,
// signals included), starts one runner on its network that asks each address what it speaks
// (runner/src/survey.ts), and returns the answers by `service:port`. Docker, compose and the runner's
// script come in through `ProbeDeps`.
import type { ComposeClient, DockerClient } from '../docker/clients.js';
import type { ComposeOptions } from '../docker/compose.js';
import { projectName, runLabels } from '../docker/labels.js';
import type { RunnerPlan, SurveyAddress, SurveyFinding } from '../runner-kit/plan.js';
import { withSessions } from '../session/with-sessions.js';

export interface ProbeDeps {
  docker: DockerClient;
  compose: (opts: ComposeOptions) => ComposeClient;
  runnerScript: () => string;
  onSignal: (teardown: () => Promise<void>) => () => void;
  log: (line: string) => void;
}

export interface ProbeRequest {
  runId: string;
  files: string[];
  cwd: string;
  /** the repository the project is in (bind mounts inside it are the project's own) */
  root: string;
  build: boolean;
  image: string;
  addresses: SurveyAddress[];
  healthTimeoutS?: number;
}

/** The plan of a runner that only surveys: no probes, no scenarios. */
export function surveyPlan(addresses: SurveyAddress[]): RunnerPlan {
  return {
    version: 1,
    progressIntervalMs: 1000,
    requestTimeoutMs: 10_000,
    ready: [],
    scenarios: [],
    survey: addresses,
  };
}

export async function probeProject(req: ProbeRequest, deps: ProbeDeps): Promise<Map<string, SurveyFinding>> {
  await deps.docker.ensureImage(req.image);
  const labels = runLabels(req.runId);
  const compose = deps.compose({
    project: `${projectName(req.runId)}-probe`,
    files: req.files,
    cwd: req.cwd,
    env: {},
    labels,
    // a stack the user runs already (docker compose up in another terminal) keeps its ports and names:
    // the probe's copy is kept apart from it as A/B's second copy is, and boots even where A/B could not
    sideBySide: { root: req.root, lenient: true },
  });
  const findings = new Map<string, SurveyFinding>();
  deps.log(`run ${req.runId}: booting the project to probe it (compose project ${compose.project})`);
  await withSessions(
    req.runId,
    [
      {
        opts: { runId: req.runId, labels, services: [], build: req.build, healthTimeoutS: req.healthTimeoutS ?? 300 },
        compose,
        sample: () => {},
      },
    ],
    { docker: deps.docker, onSignal: deps.onSignal, log: deps.log },
    async ([session]) => {
      const runner = await (session as NonNullable<typeof session>).startRunner(
        { image: req.image, cpus: undefined, script: deps.runnerScript(), plan: surveyPlan(req.addresses) },
        (e) => {
          if (e.t === 'survey') findings.set(`${e.finding.host}:${e.finding.port}`, e.finding);
        },
      );
      await runner.end();
    },
  );
  return findings;
}

// Opens one SUT session (gate, update, sweep) or two (A/B), hands them to `body`, and tears all of
// them down afterwards whatever happened: on success, on failure, on SIGINT/SIGTERM. The label sweep
// at the end removes anything of the run a session did not (a runner left by a killed launch, ...).
import type { ComposeClient, DockerClient } from '../docker/clients.js';
import type { StatsSample } from '../stats/resources.js';
import { SutSession, type SutSessionOptions } from './sut-session.js';

export interface SessionSpec {
  opts: SutSessionOptions;
  compose: ComposeClient;
  sample: (key: string, s: StatsSample) => void;
}

export interface LifecycleDeps {
  docker: DockerClient;
  /** registers teardown for SIGINT/SIGTERM; returns an unregister function */
  onSignal: (teardown: () => Promise<void>) => () => void;
  log: (line: string) => void;
}

export async function withSessions<T>(
  runId: string,
  specs: SessionSpec[],
  deps: LifecycleDeps,
  body: (sessions: SutSession[]) => Promise<T>,
): Promise<T> {
  const opened: SutSession[] = [];
  // projects whose boot began, and those whose boot ended (opened, or failed and cleaned up by itself)
  const started = new Set<string>();
  const settled = new Set<string>();
  let tornDown: Promise<void> | undefined;
  const teardown = (): Promise<void> => {
    tornDown ??= (async () => {
      await Promise.all(opened.map((s) => s.close()));
      // a project still booting when a signal came: take it down here (its own cleanup never ran);
      // one that never started, or that cleaned up after its failed boot, needs nothing more
      for (const spec of specs) {
        const project = spec.compose.project;
        if (started.has(project) && !settled.has(project)) await spec.compose.down().catch(() => {});
      }
      await deps.docker.sweep(runId);
    })();
    return tornDown;
  };
  const unregister = deps.onSignal(teardown);
  try {
    for (const spec of specs) {
      started.add(spec.compose.project);
      try {
        opened.push(
          await SutSession.open(spec.opts, {
            docker: deps.docker,
            compose: spec.compose,
            sample: spec.sample,
            log: deps.log,
          }),
        );
      } finally {
        settled.add(spec.compose.project);
      }
    }
    return await body(opened);
  } finally {
    await teardown();
    unregister();
  }
}

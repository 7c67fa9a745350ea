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
  // the project whose boot is under way: a failed boot cleans up after itself, so only a boot cut short
  // by a signal leaves a project for the teardown to take down
  let booting: ComposeClient | undefined;
  let tornDown: Promise<void> | undefined;
  const teardown = (): Promise<void> => {
    tornDown ??= (async () => {
      await Promise.all(opened.map((s) => s.close()));
      await booting?.down().catch(() => {});
      await deps.docker.sweep(runId);
    })();
    return tornDown;
  };
  const unregister = deps.onSignal(teardown);
  try {
    for (const spec of specs) {
      booting = spec.compose;
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
        booting = undefined;
      }
    }
    return await body(opened);
  } finally {
    await teardown();
    unregister();
  }
}

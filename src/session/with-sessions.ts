// Opens one SUT session (gate, update, sweep) or two (A/B, booted at once), hands them to `body`, and
// tears all of them down afterwards whatever happened: on success, on failure, on SIGINT/SIGTERM. The label sweep
// at the end removes anything of the run a session did not (a runner left by a killed launch, ...).
import type { ComposeClient, DockerClient, ImageDigests } from '../docker/clients.js';
import type { RunnerEvent } from '../runner-kit/plan.js';
import type { StatsSample } from '../stats/resources.js';
import { type RunnerHandle, type RunnerSpec, SutSession, type SutSessionOptions } from './sut-session.js';

/** One side's SUT, booted: a compose project (./sut-session.ts) or a swarm stack or target (./swarm-session.ts). */
export interface Session {
  startRunner(spec: RunnerSpec, onEvent: (e: RunnerEvent) => void): Promise<RunnerHandle>;
  imageDigests(): Promise<ImageDigests>;
  /** a compose service's running container here (sut.profile's perf), if it has one */
  containerOf(service: string): string | undefined;
  close(): Promise<void>;
}

export interface SessionSpec {
  opts: SutSessionOptions;
  /** the SUT's project: compose, or the swarm stack (its `down` is what a signal during the boot calls) */
  compose: ComposeClient;
  sample: (key: string, s: StatsSample, container?: string) => void;
  /** opens this side on a swarm instead of compose (it cleans up after its own failed open) */
  open?: () => Promise<Session>;
}

export interface LifecycleDeps {
  docker: DockerClient;
  /** registers teardown for SIGINT/SIGTERM; returns an unregister function */
  onSignal: (teardown: () => Promise<void>) => () => void;
  log: (line: string) => void;
  /** removes the swarm services and configs labelled with the run id (a swarm run); never throws */
  sweepSwarm?: (runId: string) => Promise<unknown>;
}

export async function withSessions<T>(
  runId: string,
  specs: SessionSpec[],
  deps: LifecycleDeps,
  body: (sessions: Session[]) => Promise<T>,
): Promise<T> {
  // by spec: the body gets the sessions in the order of the specs (A/B: base, head)
  const opened: Array<Session | undefined> = specs.map(() => undefined);
  // the projects whose boot is under way: a failed boot cleans up after itself, so only a boot cut
  // short by a signal leaves a project for the teardown to take down
  const booting = new Set<ComposeClient>();
  let tornDown: Promise<void> | undefined;
  const teardown = (): Promise<void> => {
    tornDown ??= (async () => {
      await Promise.all(opened.map((s) => s?.close()));
      await Promise.all([...booting].map((c) => c.down().catch(() => {})));
      await deps.sweepSwarm?.(runId);
      await deps.docker.sweep(runId);
    })();
    return tornDown;
  };
  const unregister = deps.onSignal(teardown);
  try {
    // every side boots at once: an A/B run waits for the slower of its two boots, not their sum
    const boots = await Promise.allSettled(
      specs.map(async (spec, i) => {
        booting.add(spec.compose);
        try {
          opened[i] = spec.open
            ? await spec.open()
            : await SutSession.open(spec.opts, {
                docker: deps.docker,
                compose: spec.compose,
                sample: spec.sample,
                log: deps.log,
              });
        } finally {
          booting.delete(spec.compose);
        }
      }),
    );
    // the first side's failure is the one reported (A/B: base before head)
    const failed = boots.find((b): b is PromiseRejectedResult => b.status === 'rejected');
    if (failed) throw failed.reason;
    return await body(opened as Session[]);
  } finally {
    await teardown();
    unregister();
  }
}

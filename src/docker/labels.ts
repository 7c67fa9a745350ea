// Labels perf-gate puts on everything it creates, so that teardown can find it all (SPEC §8).
export const LABEL_MANAGED = 'dev.perf-gate.managed';
export const LABEL_RUN_ID = 'dev.perf-gate.run-id';

export function runLabels(runId: string): Record<string, string> {
  return { [LABEL_MANAGED]: 'true', [LABEL_RUN_ID]: runId };
}

export function projectName(runId: string): string {
  return `perfgate-${runId}`;
}

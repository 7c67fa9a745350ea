import { EVENT_MARKER, type RunnerEvent } from '../../src/runner-kit/plan.js';

export function emit(event: RunnerEvent): void {
  process.stdout.write(`${EVENT_MARKER}${JSON.stringify(event)}\n`);
}

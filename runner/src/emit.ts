import { EVENT_MARKER, type RunnerEvent } from '../../src/runner-kit/plan.js';
import { maskEvent, maskForms } from './mask.js';

/** What every event's free text, and every other line written, has masked (./mask.ts). */
let masked: readonly string[] = [];

/** From now on, these values (and no others) are masked in every event; the forms looked for, for
 * maskStreams. */
export function maskValues(values: Iterable<string>): readonly string[] {
  masked = maskForms(values);
  return masked;
}

export function emit(event: RunnerEvent): void {
  process.stdout.write(`${EVENT_MARKER}${JSON.stringify(maskEvent(event, masked))}\n`);
}

import { EVENT_MARKER, type RunnerEvent } from '../../src/runner-kit/plan.js';

/** Values no event may carry (a setup's extracted values): each is written `***` in any text. */
let masked: readonly string[] = [];

/** The shortest value masked: a shorter one (an id `42`) would blot out numbers and words at random. */
export const MASK_MIN_CHARS = 4;

/** From now on, every event's texts have these values (and no others) masked (the runner's own messages, a URL in an
 * error, a hook's). Like the Action's log masking, a value cut in two by a bounded message is not. */
export function maskValues(values: Iterable<string>): void {
  masked = [...new Set(values)]
    .filter((v) => v.length >= MASK_MIN_CHARS)
    // the longest first: a value that holds another is masked whole
    .sort((a, b) => b.length - a.length);
}

/** `value` with every masked value's texts replaced, walked through arrays and objects. Pure. */
export function maskIn<T>(value: T, values: readonly string[]): T {
  if (typeof value === 'string') {
    let text: string = value;
    for (const v of values) if (text.includes(v)) text = text.replaceAll(v, '***');
    return text as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => maskIn(v, values)) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskIn(v, values)])) as T;
  return value;
}

export function emit(event: RunnerEvent): void {
  const shown = masked.length > 0 ? maskIn(event, masked) : event;
  process.stdout.write(`${EVENT_MARKER}${JSON.stringify(shown)}\n`);
}

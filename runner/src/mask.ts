// The values a run's `setup` extracted, kept out of everything the runner says: each is written `***`
// in the free text of its events (messages, URLs, errors) and in any other line it writes to stdout
// or stderr (a hook's console.log, Node's own report of an uncaught error). Names, kinds and encoded
// data (histograms) are never touched: the host keys results on them. Like the Action's log
// masking, a value cut in two by a bounded message is not masked.
import { EVENT_MARKER, type RunnerEvent } from '../../src/runner-kit/plan.js';

/** The shortest value masked: a shorter one (an id `42`) would blot out numbers and words at random. */
export const MASK_MIN_CHARS = 4;

/** What to look for: each value as it is, percent-encoded (in a URL) and JSON-escaped (in a body
 * preview), the longest first, so a value that holds another is masked whole. */
export function maskForms(values: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const v of values) {
    if (v.length < MASK_MIN_CHARS) continue;
    forms.add(v);
    forms.add(encodeURIComponent(v));
    forms.add(JSON.stringify(v).slice(1, -1));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every form replaced by `***`. Pure. */
export function maskText(text: string, forms: readonly string[]): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.replaceAll(f, '***');
  return out;
}

/** The event with its free text masked: a message, a URL, an error. Pure. */
export function maskEvent(event: RunnerEvent, forms: readonly string[]): RunnerEvent {
  if (forms.length === 0) return event;
  const m = (text: string) => maskText(text, forms);
  switch (event.t) {
    case 'fatal':
    case 'warning':
    case 'setup-failed':
      return { ...event, message: m(event.message) };
    case 'not-ready':
      return { ...event, url: m(event.url), error: m(event.error) };
    case 'probe':
      return { ...event, url: m(event.url), ...(event.error !== undefined ? { error: m(event.error) } : {}) };
    case 'profile':
      return event.error !== undefined ? { ...event, error: m(event.error) } : event;
    default:
      return event;
  }
}

type Write = typeof process.stdout.write;

/** From now on every line the process writes that is not an event (emit's own, masked by maskEvent)
 * has `forms` masked, worker threads' output included (piped through this thread's streams). */
export function maskStreams(
  forms: readonly string[],
  streams: Array<{ write: Write }> = [process.stdout, process.stderr],
): void {
  if (forms.length === 0) return;
  for (const stream of streams) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
      if (text === undefined || text.startsWith(EVENT_MARKER)) return write(chunk, ...rest);
      return write(maskText(text, forms), ...rest);
    }) as Write;
  }
}

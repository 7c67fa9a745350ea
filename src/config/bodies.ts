// Pure: a `bodies` file's text as the requests it rotates through (run's plan and validate's placeholder
// check read it alike).
import { parseJsonl } from '../common/jsonl.js';

/** Each non-empty JSONL line is one body: a JSON string is sent as its text, anything else as JSON. */
export function parseBodiesJsonl(text: string, file: string): string[] {
  const bodies = parseJsonl(text, (n) => `${file}:${n}`).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (bodies.length === 0) throw new Error(`${file}: no bodies (one JSON value per line expected)`);
  return bodies;
}

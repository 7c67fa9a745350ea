// Pure: Linux perf's samples, as `perf script` prints them from a `perf record -g` of the service's
// processes, read into the same summary as a pprof profile (./stacks.ts), so the diff and the flame
// graph do not care which profiler took them. Each sample is a header line (the command, its thread,
// the sample's period and event, as perf prints them) and then its call chain, innermost first, one
// frame a line, indented: `ADDRESS SYMBOL+OFFSET (DSO)`; a blank line ends it. The text names the
// service's code and comes from a helper container: untrusted, so its size, its lines and every name
// are bounded, and what cannot be read is a ProfileError, never a crash.
import { frameKey, ProfileError, type ProfileSummary, pushFrame, stackAccumulator } from './stacks.js';

/** The most text a `perf script` output may have (a minute of 99 Hz samples on two cores, 64-frame
 * chains, is about 15 MB). */
export const PERF_SCRIPT_MAX_BYTES = 64 * 1024 * 1024;
/** The most a frame's name or its file may keep (a C++ or Rust symbol can be kilobytes). */
export const PERF_NAME_MAX_CHARS = 512;

/** A frame line: its address, then the symbol (perf's `[unknown]` where it has none) and the DSO in
 * brackets at the end (`(/app/sut)`, `(/app/sut (deleted))`). The symbol may hold spaces and
 * brackets of its own (C++). */
const FRAME = /^\s+[0-9a-fA-F]+\s+/;
/** A header's period and event: a number, then the event's name ending in a colon (`cpu-clock:`,
 * `cycles:P:`, `cpu-clock:pppH:`). */
const PERIOD_EVENT = /\s(\d+)\s+([A-Za-z][\w.-]*)(?::[A-Za-z]*)*:/;

/** A frame's symbol and DSO: the DSO is the bracketed text that ends the line (brackets inside it
 * balanced); a line without one is all symbol. */
function symbolAndDso(rest: string): [string, string] {
  if (!rest.endsWith(')')) return [rest, ''];
  let depth = 0;
  for (let i = rest.length - 1; i >= 0; i--) {
    if (rest[i] === ')') depth++;
    else if (rest[i] === '(' && --depth === 0) return [rest.slice(0, i).trimEnd(), rest.slice(i + 1, -1)];
  }
  return [rest, ''];
}

/** A symbol without perf's `+0xOFFSET` (a function is one, wherever in it a sample fell). */
function functionName(symbol: string): string {
  const plain = symbol.replace(/\+0x[0-9a-fA-F]+$/, '');
  return bounded(plain === '' ? '[unknown]' : plain);
}

function bounded(text: string): string {
  return text.length > PERF_NAME_MAX_CHARS ? `${text.slice(0, PERF_NAME_MAX_CHARS)}…` : text;
}

/** The unit of an event's period: software clocks count nanoseconds, every other event its own. */
function unitOf(event: string): string {
  return event === 'cpu-clock' || event === 'task-clock' ? 'nanoseconds' : 'events';
}

/**
 * `perf script`'s samples summed: each sample's value is its period (the time or events it stands
 * for; 1 where the header gives none), its stack the frames under it. The event is the first
 * sample's; samples of another event are refused (their periods do not add up).
 */
export function readPerfScript(text: string): ProfileSummary {
  if (text.length > PERF_SCRIPT_MAX_BYTES)
    throw new ProfileError(`perf script: larger than ${PERF_SCRIPT_MAX_BYTES} bytes`);
  const stacks = stackAccumulator();
  // the first sample's event: none until a sample is read
  let event: string | undefined;
  let frames: string[] | undefined;
  let value = 0;
  const end = () => {
    if (frames) stacks.add(frames, value);
    frames = undefined;
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (line.trim() === '') {
      end();
      continue;
    }
    if (/^\s/.test(line)) {
      if (!frames) throw new ProfileError(`perf script: line ${i + 1}: a frame before any sample`);
      const m = FRAME.exec(line);
      if (!m) throw new ProfileError(`perf script: line ${i + 1}: not a frame (ADDRESS SYMBOL (DSO))`);
      // (the rest sliced off, not matched: a pattern over the whole line would backtrack on a long one)
      const [symbol, dso] = symbolAndDso(line.slice(m[0].length).trimEnd());
      pushFrame(frames, frameKey(functionName(symbol), bounded(dso)));
      continue;
    }
    // a header: the sample before it ends (perf separates them with a blank line; one is not needed)
    end();
    const m = PERIOD_EVENT.exec(line);
    const name = m?.[2] ?? 'samples';
    if (event === undefined) event = name;
    else if (name !== event)
      throw new ProfileError(`perf script: line ${i + 1}: samples of two events (${bounded(event)}, ${bounded(name)})`);
    value = m ? Number(m[1]) : 1;
    frames = [];
  }
  end();
  if (event === undefined) throw new ProfileError('perf script: no samples');
  const sampleType = bounded(event);
  return stacks.summary(sampleType, unitOf(sampleType));
}

// A scenario's script hook as the host reads it (runner/src/hook.ts runs it): the module's source read
// onto the target for the plan and the hash, and what can be seen wrong without running it. Its code
// runs in the runner only, never here.
import type { ResolveIo } from './protocol.js';

/** The most source a hook may have (it travels in the runner's plan). */
export const MAX_HOOK_BYTES = 256 * 1024;

/** A hook's source read onto the target, or what is wrong with it. Its code runs in the runner only. */
export function readHook(
  hook: { file: string; source?: string },
  io: ResolveIo,
  exports: readonly string[],
): string | undefined {
  let source: string;
  try {
    source = io.readText(hook.file);
  } catch (err) {
    return (err as Error).message;
  }
  if (Buffer.byteLength(source) > MAX_HOOK_BYTES)
    return `${Buffer.byteLength(source)} bytes; a hook is one file of at most ${MAX_HOOK_BYTES / 1024} KiB`;
  if (!new RegExp(`\\bexport\\b[^;]*\\b(${exports.join('|')})\\b`).test(source))
    return `exports none of ${exports.join(', ')} (export function ${exports[0]}(…) { … })`;
  // a single file: it imports Node's built-ins (node:crypto) and nothing else
  const relative = /\b(?:import|from)\s*\(?\s*['"](\.{1,2}\/[^'"]*)['"]/.exec(source);
  if (relative) return `imports ${relative[1]}: a hook is a single file (it may import Node's built-ins, node:crypto)`;
  hook.source = source;
  return undefined;
}

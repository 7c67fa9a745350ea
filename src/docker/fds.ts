// Open file descriptors of a container's processes, read from /proc on the engine's host. Possible
// only where the engine is local and its processes are readable by this user (root, or the user the
// SUT runs as); elsewhere undefined, and the gate says the metric was not sampled.
import { readdirSync, readFileSync } from 'node:fs';

/** The container's main process is visible here: its cgroup names the container. */
export function isLocalProcess(pid: number, containerId: string, proc = '/proc'): boolean {
  if (!(pid > 0)) return false;
  try {
    return readFileSync(`${proc}/${pid}/cgroup`, 'utf8').includes(containerId);
  } catch {
    return false;
  }
}

/** Open descriptors of `pid` and its descendants; undefined when `pid`'s are not readable. */
export function openFds(pid: number, proc = '/proc'): number | undefined {
  let total: number;
  try {
    total = readdirSync(`${proc}/${pid}/fd`).length;
  } catch {
    return undefined;
  }
  const seen = new Set([pid]);
  const stack = children(pid, proc);
  // bounded: a container does not have more processes than this worth walking each second
  while (stack.length > 0 && seen.size < 10_000) {
    const p = stack.pop() as number;
    if (seen.has(p)) continue;
    seen.add(p);
    try {
      total += readdirSync(`${proc}/${p}/fd`).length;
    } catch {
      // exited, or not ours to read: skipped
    }
    stack.push(...children(p, proc));
  }
  return total;
}

function children(pid: number, proc: string): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`${proc}/${pid}/task`)) {
      const text = readFileSync(`${proc}/${pid}/task/${task}/children`, 'utf8').trim();
      for (const c of text.split(/\s+/)) if (c) out.push(Number(c));
    }
  } catch {
    // no children file (old kernels) or the process exited
  }
  return out;
}

// Pure: the helper container that samples a compose service's processes with Linux perf
// (`sut.profile.<service>: perf`, not wired into a run yet): what it is created with, the shell
// script it runs, and the one line a refusal reads as. It shares the service's PID namespace
// (`container:<id>`), so `/proc` lists the service's processes and perf finds their binaries through
// `/proc/<pid>/root`; it has no network, a read-only root and a /tmp tmpfs. perf_event_open needs
// CAP_SYS_ADMIN here: Docker 20.10 does not know CAP_PERFMON (refused at create, "unknown
// capability"), and Docker's default seccomp profile lets perf_event_open through only with
// CAP_SYS_ADMIN; attaching to a process of another user needs CAP_SYS_PTRACE. Both measured on this
// project's test VM (Docker 20.10.24, kernel.perf_event_paranoid 2): without them "No permission to
// enable cycles:u event"; with them a Go service's stacks, symbols read from its own image.

import { PROFILE_GRACE_MS } from '../runner-kit/profile.js';

/** The helper's sampling frequency, Hz (perf's `-F`): an odd rate, off any timer's beat. */
export const PERF_HELPER_HZ = 99;

/** The capabilities the helper is created with (and no others beyond Docker's defaults). */
export const PERF_HELPER_CAPS = ['SYS_ADMIN', 'SYS_PTRACE'] as const;

export interface PerfHelperOptions {
  /** an image with `perf` and a POSIX shell on its PATH (sut.profile's perf image) */
  image: string;
  /** the profiled service's container: the helper joins its PID namespace */
  containerId: string;
  /** how long to sample, ms (whole seconds, at least 1) */
  windowMs: number;
  labels: Record<string, string>;
  name?: string;
}

/**
 * The script the helper runs, once a line on its stdin says the window began (it is started ahead of
 * it, so it is up when it begins; EOF instead: exit 4, nothing sampled): every process of the
 * namespace but its own shell and zombies, listed by the shell
 * itself (a command substitution would fork a process that is gone before perf attaches), sampled
 * for the window with their call chains, then printed as `perf script` prints samples
 * (src/profiles/perf-script.ts reads them). `cpu-clock` always: a VM often has no hardware counters,
 * and one event on every machine keeps base and head comparable.
 */
export function perfHelperScript(windowMs: number, hz = PERF_HELPER_HZ): string {
  const seconds = Math.max(1, Math.round(windowMs / 1000));
  return [
    // started ahead of the window, up when it begins: one line on stdin says go (EOF: no window)
    'read -r _ || { echo "perf-gate: stopped before its window" >&2; exit 4; }',
    'pids=',
    // a zombie (a health check's process its parent has not reaped) cannot be attached to: its state,
    // the field after the command's closing bracket in /proc/PID/stat, is Z
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$$" ] && continue; st=; read -r st 2>/dev/null < "$d/stat"; st=${st##*) }; [ "${st%% *}" = Z ] || [ -z "$st" ] || pids="${pids:+$pids,}$p"; done',
    '[ -n "$pids" ] || { echo "perf-gate: no process to sample" >&2; exit 3; }',
    `perf record -q -e cpu-clock -F ${hz} -g -p "$pids" -o /tmp/perf.data -- sleep ${seconds} >&2 || exit $?`,
    'exec perf script -i /tmp/perf.data',
  ].join('\n');
}

/** The helper's create options (Docker's API, as dockerode takes them). */
export function perfHelperCreate(o: PerfHelperOptions): {
  Image: string;
  Entrypoint: string[];
  Cmd: string[];
  Labels: Record<string, string>;
  name?: string;
  HostConfig: {
    PidMode: string;
    CapAdd: string[];
    NetworkMode: string;
    ReadonlyRootfs: boolean;
    Tmpfs: Record<string, string>;
    AutoRemove: boolean;
  };
} {
  return {
    Image: o.image,
    Entrypoint: ['sh', '-c'],
    Cmd: [perfHelperScript(o.windowMs)],
    Labels: o.labels,
    ...(o.name ? { name: o.name } : {}),
    HostConfig: {
      PidMode: `container:${o.containerId}`,
      CapAdd: [...PERF_HELPER_CAPS],
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': 'rw,size=256m' },
      AutoRemove: false,
    },
  };
}

/** The most of the helper's stderr a refusal quotes, and of the engine's line a failure does. */
const QUOTED_MAX_CHARS = 200;
const ENGINE_MAX_CHARS = 300;

/** Text that is the image's, the kernel's or the engine's, as one bounded line. */
function quote(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/**
 * What a helper that exited `code` with `stderr` says to the user, one line naming the service (its
 * stderr is the image's and the kernel's text: bounded, one line). Exit 0 is no refusal.
 */
export function perfHelperRefusal(service: string, code: number, stderr: string): string | undefined {
  if (code === 0) return undefined;
  const key = `sut.profile.${service}: perf`;
  const text = quote(stderr, Infinity);
  if (/no permission to enable|perf_event_paranoid|operation not permitted|permission denied/i.test(text))
    return `${key}: the kernel refused perf_event_open in the helper container (it has CAP_SYS_ADMIN and CAP_SYS_PTRACE; check kernel.perf_event_paranoid and the engine's seccomp and AppArmor settings), or use a pprof endpoint`;
  if (code === 127 || /perf: (command )?not found|no such file or directory/i.test(text))
    return `${key}: the helper image has no \`perf\` (or no \`sh\`) on its PATH: build one with Linux perf in it (docs/profiling.md)`;
  // a PID namespace's processes are all killed when its first one exits: the helper's too
  if (code === 137)
    return `${key}: the helper was killed (exit 137): the service's container stopped while it sampled, or the engine stopped the helper`;
  if (code === 3 && /no process to sample/.test(text))
    return `${key}: the service's container has no process left to sample`;
  const quoted = quote(text, QUOTED_MAX_CHARS);
  return `${key}: the helper exited ${code}${quoted ? `: ${quoted}` : ''}`;
}

/**
 * What the helper's end gives the profile: `perf script`'s text, or one line saying why there is none
 * (a refusal, or output past the bound: the profile would not be whole).
 */
export function perfHelperOutcome(
  service: string,
  exit: { code: number; stdout: Uint8Array; stderr: string; truncated: boolean; timedOut?: boolean; cut?: boolean },
  maxBytes: number,
  timeoutMs: number,
): { data: Uint8Array } | { error: string } {
  const key = `sut.profile.${service}: perf`;
  if (exit.truncated)
    return {
      error: `${key}: its samples passed ${maxBytes} bytes and were left out: a shorter phase, or fewer processes in the service`,
    };
  if (exit.timedOut)
    return {
      error: `${key}: the helper ran past ${Math.round(timeoutMs / 1000)} s (the window and ${PROFILE_GRACE_MS / 1000} s) and was stopped`,
    };
  if (exit.cut) return { error: `${key}: the helper's output did not arrive whole after it ended: left out` };
  const refused = perfHelperRefusal(service, exit.code, exit.stderr);
  return refused !== undefined ? { error: refused } : { data: exit.stdout };
}

/** An engine's failure to run the helper (an image not here and not pulled, a refused option), as the
 * profile's one line: its first line, bounded. */
export function perfEngineFailure(service: string, message: string): string {
  return `sut.profile.${service}: perf: ${quote(message.split('\n')[0] ?? '', ENGINE_MAX_CHARS)}`;
}

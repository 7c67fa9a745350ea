// Pure: the profiles a run's profiling trials took (sut.profile), made into what the run keeps: a file
// per profile beside the results, a record of each (or why there is none), and each service's diff with
// its differential flame graph as a file: in A/B head against base, in a gate run against the profile
// its baseline kept (an update run keeps one per phase and service beside the baselines). The bytes are
// the service's (pprof's format from an endpoint, or `perf script`'s text from Linux perf): read
// through their readers' bounds, and a profile that cannot be read is said, never a failed run. Two
// profiles of different formats are not diffed (their names and samples are not each other's).
import { profileDiff } from './diff.js';
import { diffFlameGraph } from './flame.js';
import { readPerfScript } from './perf-script.js';
import { readPprof } from './pprof.js';
import { ProfileError, type ProfileSummary } from './stacks.js';

/** What a profile's bytes are: pprof's format (an endpoint's answer), or `perf script`'s text (Linux
 * perf in a helper container, `sut.profile.<service>: perf`). */
export type ProfileFormat = 'pprof' | 'perf';

/** One service's profile as a profiling trial took it: its bytes as served, or why there are none. */
export interface TakenProfile {
  scenario: string;
  phase: string;
  service: string;
  /** absent: pprof */
  format?: ProfileFormat;
  data?: Uint8Array;
  error?: string;
}

/** A profile in the results file: where its file is (relative to the results' directory), or why none. */
export interface ProfileRecord {
  scenario: string;
  phase: string;
  service: string;
  /** A/B: the side it was taken on; `baseline`: the profile a gate run's baseline kept (its file is
   * then where the baseline keeps it); absent: the run's one side */
  side?: 'base' | 'head' | 'baseline';
  file?: string;
  /** its size, bytes, as served */
  bytes?: number;
  error?: string;
}

/** One service's functions whose share of the profile rose most (./diff.ts): base to head in A/B, the
 * baseline's to this run's in a gate run. */
export interface ProfileDiffRecord {
  scenario: string;
  phase: string;
  service: string;
  /** what the profile was diffed against: base's side (absent) or the baseline's profile */
  against?: 'baseline';
  /** what the samples count (`cpu`, `nanoseconds` for Go's CPU profile) */
  sampleType: string;
  unit: string;
  /** its differential flame graph (an SVG), relative to the results' directory */
  flame?: string;
  functions: Array<{
    name: string;
    file: string;
    flat: { base: number; head: number };
    cum: { base: number; head: number };
  }>;
}

/** A baseline's profile, as its file lists it: where beside the baselines (BASELINE_PROFILE_FILE). */
export interface BaselineProfile {
  phase: string;
  service: string;
  /** relative to the baselines' directory: `profiles/SCENARIO.PHASE.SERVICE.pb[.gz]` */
  file: string;
}

/** What a baseline's profile file may be named (a baseline is committed text: anyone's in a fork): one
 * file in `profiles/` of the baselines' directory, nothing that leaves it. */
export const BASELINE_PROFILE_FILE = /^profiles\/[A-Za-z0-9_][A-Za-z0-9_.-]{0,299}$/;

/** A profile a gate run's baseline kept, read for the diff: the file as said (beside the baselines),
 * its bytes or why there are none. */
export interface KeptProfile extends TakenProfile {
  file: string;
}

/** The folder beside the results the profiles are written to. */
export const PROFILES_DIR = 'perf-gate-profiles';
/** The functions a diff keeps. */
export const DIFF_TOP = 5;
/** The longest function or file name kept (a profile's names are the service's text). */
const NAME_MAX = 200;

const GZIP = [0x1f, 0x8b];
/** A perf recording's file ends so (a baseline's kept profile is told apart by its name). */
const PERF_SUFFIX = '.perf.txt';

/** A profile's bytes read into the summary the diff takes, by its format. */
function readTaken(format: ProfileFormat | undefined, data: Uint8Array): ProfileSummary {
  return format === 'perf' ? readPerfScript(new TextDecoder().decode(data)) : readPprof(data);
}

/** A profile file's format, from its name: a baseline's kept profile, or one a results file lists. */
export function formatOfFile(file: string): ProfileFormat {
  return file.endsWith(PERF_SUFFIX) ? 'perf' : 'pprof';
}

/** A file name's part from a config's name: what a file system takes anywhere, bounded; never starting
 * with `.` or `-` (a hidden file, an option; and what BASELINE_PROFILE_FILE refuses). */
function part(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .replace(/^[.-]+/, '_')
      .slice(0, 80) || '_'
  );
}

/** The file a diff's flame graph is written to, relative to the results' directory. */
export function flameFile(p: Pick<ProfileRecord, 'scenario' | 'phase' | 'service'>): string {
  return `${PROFILES_DIR}/diff.${part(p.scenario)}.${part(p.phase)}.${part(p.service)}.svg`;
}

/** The file a baseline keeps a profile in, relative to the baselines' directory. */
export function baselineProfileFile(
  p: Pick<ProfileRecord, 'scenario' | 'phase' | 'service'>,
  data: Uint8Array,
  format?: ProfileFormat,
): string {
  return profileFile(p, data, format).replace(`${PROFILES_DIR}/`, 'profiles/');
}

/** The file a profile is written to, relative to the results' directory. */
export function profileFile(
  p: Pick<ProfileRecord, 'scenario' | 'phase' | 'service' | 'side'>,
  data: Uint8Array,
  format?: ProfileFormat,
): string {
  const gz = format === 'perf' ? PERF_SUFFIX : data[0] === GZIP[0] && data[1] === GZIP[1] ? '.pb.gz' : '.pb';
  const side = p.side ? `${p.side}.` : '';
  return `${PROFILES_DIR}/${side}${part(p.scenario)}.${part(p.phase)}.${part(p.service)}${gz}`;
}

const clip = (s: string) => (s.length > NAME_MAX ? `${s.slice(0, NAME_MAX)}…` : s);

/**
 * Every side's profiles as records and files; in A/B (a base side and a head side), each service's diff
 * where both sides' profiles read; in a gate run (one side), each against the profile its baseline kept
 * (`kept`), where both read. Two profiles of one file name (names that differ only in what a file name
 * cannot hold) keep the first's file; the second is said to be left out.
 */
export function profileRecords(
  sides: ReadonlyArray<{ side?: 'base' | 'head'; profiles: readonly TakenProfile[] }>,
  kept: readonly KeptProfile[] = [],
): {
  records: ProfileRecord[];
  files: Array<{ file: string; data: Uint8Array }>;
  diffs: ProfileDiffRecord[];
} {
  const records: ProfileRecord[] = [];
  const files: Array<{ file: string; data: Uint8Array }> = [];
  const read = new Map<string, ProfileSummary>();
  const key = (side: string, p: TakenProfile) => `${side}\u0000${p.scenario}\u0000${p.phase}\u0000${p.service}`;
  for (const { side, profiles } of sides) {
    for (const p of profiles) {
      const where = { scenario: p.scenario, phase: p.phase, service: p.service, ...(side ? { side } : {}) };
      if (!p.data) {
        records.push({ ...where, error: p.error ?? 'no profile' });
        continue;
      }
      const file = profileFile(where, p.data, p.format);
      if (files.some((f) => f.file === file)) {
        records.push({ ...where, error: `left out: another profile has its file name (${file})` });
        continue;
      }
      files.push({ file, data: p.data });
      try {
        read.set(key(side ?? '', p), readTaken(p.format, p.data));
        records.push({ ...where, file, bytes: p.data.length });
      } catch (err) {
        if (!(err instanceof ProfileError)) throw err;
        records.push({ ...where, file, bytes: p.data.length, error: `not read: ${err.message}` });
      }
    }
  }
  // the baseline's profiles of the run's phases and services (those of others are not said)
  const one = sides.length === 1 && sides[0]?.side === undefined ? sides[0] : undefined;
  for (const k of kept) {
    if (!one?.profiles.some((x) => x.scenario === k.scenario && x.phase === k.phase && x.service === k.service))
      continue;
    const where = { scenario: k.scenario, phase: k.phase, service: k.service, side: 'baseline' as const, file: k.file };
    if (!k.data) {
      records.push({ ...where, error: k.error ?? 'no profile' });
      continue;
    }
    try {
      read.set(key('baseline', k), readTaken(formatOfFile(k.file), k.data));
      records.push({ ...where, bytes: k.data.length });
    } catch (err) {
      if (!(err instanceof ProfileError)) throw err;
      records.push({ ...where, bytes: k.data.length, error: `not read: ${err.message}` });
    }
  }
  const diffs: ProfileDiffRecord[] = [];
  const base = one ? { side: 'baseline', profiles: kept } : sides.find((s) => s.side === 'base');
  const head = one ? { side: '', profiles: one.profiles } : sides.find((s) => s.side === 'head');
  for (const h of head?.profiles ?? []) {
    const after = read.get(key(head?.side ?? 'head', h));
    const b = base?.profiles.find((x) => x.scenario === h.scenario && x.phase === h.phase && x.service === h.service);
    const before = b && read.get(key(base?.side ?? 'base', b));
    if (!after || !before) continue;
    // a baseline's kept profile says its format by its file's name
    const baseFormat = one ? formatOfFile((b as KeptProfile).file) : (b.format ?? 'pprof');
    if (baseFormat !== (h.format ?? 'pprof')) continue;
    const functions = profileDiff(before, after, { top: DIFF_TOP }).map((f) => ({
      name: clip(f.name),
      file: clip(f.file),
      flat: f.flat,
      cum: f.cum,
    }));
    const where = { scenario: h.scenario, phase: h.phase, service: h.service };
    const flame = flameFile(where);
    const drawn = !files.some((f) => f.file === flame);
    if (drawn) files.push({ file: flame, data: new TextEncoder().encode(diffFlameGraph(before, after, where)) });
    diffs.push({
      ...where,
      ...(one ? { against: 'baseline' as const } : {}),
      sampleType: clip(after.sampleType),
      unit: clip(after.unit),
      ...(drawn ? { flame } : {}),
      functions,
    });
  }
  return { records, files, diffs };
}

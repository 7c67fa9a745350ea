// A gate run's baselines' profiles (sut.profile), read from beside the baselines through the run's
// files: only those of the phases and services the run profiled, each once, bounded, and only regular
// files in the baselines' own profiles/ folder.
import { dirname, join, resolve } from 'node:path';
import type { KeptProfile, TakenProfile } from '../profiles/record.js';
import type { BaselineFile } from '../results/types.js';
import { PROFILE_MAX_BYTES } from '../runner-kit/profile.js';
import type { RunFiles } from './contract.js';

/** A gate run's baselines' profiles (sut.profile) of the phases and services this run profiled
 * (`taken`), read from beside them, each once: its bytes, bounded, or why there are none (missing,
 * too large, not a regular file in the baselines' own `profiles/`: a baseline is anyone's text in a
 * fork, and a link could point anywhere). Its file is said as the baselines' directory was given. */
export function keptProfiles(
  baselines: ReadonlyMap<string, BaselineFile | undefined>,
  dir: string,
  files: RunFiles,
  taken: readonly TakenProfile[],
): KeptProfile[] {
  const out: KeptProfile[] = [];
  const wanted = new Set(taken.map((t) => `${t.scenario}\u0000${t.phase}\u0000${t.service}`));
  const seen = new Set<string>();
  // the baselines' own profiles/, as the file system has it (once, not for every profile listed)
  const folder = resolve(dir, 'profiles');
  const home = files.exists(folder) ? files.realpath(folder) : undefined;
  for (const [scenario, b] of baselines) {
    for (const k of b?.profiles ?? []) {
      const id = `${scenario}\u0000${k.phase}\u0000${k.service}`;
      if (!wanted.has(id) || seen.has(id)) continue;
      seen.add(id);
      const file = join(dir, k.file);
      const where = { scenario, phase: k.phase, service: k.service, file };
      try {
        const path = resolve(dir, k.file);
        if (!files.exists(path)) {
          out.push({ ...where, error: 'its file is missing' });
          continue;
        }
        // the file itself in the baselines' profiles/ (no folder of it a link to elsewhere)
        if (home === undefined || dirname(files.realpath(path)) !== home)
          throw new Error('not a file in the baselines directory');
        const data = files.readBytes(path, PROFILE_MAX_BYTES);
        out.push(data ? { ...where, data } : { ...where, error: 'its file is missing' });
      } catch (err) {
        out.push({ ...where, error: `not read: ${(err as Error).message.split('\n')[0]}` });
      }
    }
  }
  return out;
}

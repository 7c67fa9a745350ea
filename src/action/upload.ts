// Input `upload-report` (default on): the run's page, its results file, its Markdown report and the
// profiles it took, zipped into one artifact of the workflow run, and the line that links it from the
// PR comment and the job summary (output `report-url` for a refresh pull request's body). A job that
// cannot upload says why in one line and goes on: the verdict never depends on it.
import { isAbsolute, relative, resolve } from 'node:path';
import type { RunOutcome } from '../run/contract.js';
import {
  type ArtifactHttp,
  artifactName,
  artifactService,
  artifactUrl,
  type UploadedArtifact,
  uploadArtifact,
} from './artifact.js';
import { zipFiles } from './zip.js';

export interface UploadDeps {
  env: NodeJS.ProcessEnv;
  http: ArtifactHttp;
  readBytes: (path: string) => Uint8Array;
  sleep: (ms: number) => Promise<void>;
  now: () => Date;
  io: { info(message: string): void; warning(message: string): void };
  /** a secret the log must mask (core.setSecret) */
  mask?: (secret: string) => void;
}

/** A file of the run and its name in the archive. */
export interface RunFile {
  name: string;
  path: string;
}

/** The files the artifact holds: the page, the results, the report, and the profiles and flame graphs
 * written beside them (not a baseline's kept profile: the repository has it). Names are relative to
 * the working directory; a file outside it keeps its base name. */
export function runFiles(outcome: RunOutcome, cwd: string): RunFile[] {
  const named = (path: string): RunFile => {
    const rel = relative(cwd, path);
    const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    return { name: (inside ? rel : (path.split(/[\\/]/).pop() ?? path)).replace(/\\/g, '/'), path };
  };
  const beside = (file: string | undefined): RunFile[] =>
    file && !isAbsolute(file) && !file.split(/[\\/]/).includes('..') ? [named(resolve(cwd, file))] : [];
  const results = outcome.results;
  const out = [
    named(outcome.htmlPath),
    named(outcome.resultsPath),
    named(outcome.reportPath),
    ...(results.profiles ?? []).filter((p) => p.side !== 'baseline').flatMap((p) => beside(p.file)),
    ...(results.profileDiffs ?? []).flatMap((d) => beside(d.flame)),
  ];
  return out.filter((f, i) => out.findIndex((g) => g.name === f.name) === i);
}

/** Uploads the files as one artifact; its id, name and page, or undefined (said in one line) where the
 * job has no artifact service or the upload failed. */
export async function uploadRunFiles(
  deps: UploadDeps,
  files: readonly RunFile[],
  reportId: string,
): Promise<UploadedArtifact | undefined> {
  const service = artifactService(deps.env);
  if (typeof service === 'string') {
    deps.io.info(`perf-gate: the run's page is not uploaded: ${service}`);
    return undefined;
  }
  try {
    // a file the run did not write (a profile that failed) is left out, said; the rest go up
    const entries = files.flatMap((f) => {
      try {
        return [{ name: f.name, bytes: deps.readBytes(f.path) }];
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        deps.io.info(`perf-gate: ${f.name} is not there; uploaded without it`);
        return [];
      }
    });
    const zip = zipFiles(entries, deps.now());
    const { id, name } = await uploadArtifact(
      deps.http,
      service,
      (attempt) => artifactName(deps.env.GITHUB_JOB, reportId, attempt),
      zip,
      { sleep: deps.sleep, now: () => deps.now().getTime(), ...(deps.mask ? { mask: deps.mask } : {}) },
    );
    const url = artifactUrl(deps.env, id);
    deps.io.info(`perf-gate: uploaded artifact ${name} (${entries.length} files, ${zip.byteLength} bytes)`);
    return url ? { id, name, url } : undefined;
  } catch (err) {
    deps.io.warning(
      `perf-gate: the run's page could not be uploaded (${withoutUrls((err as Error).message)}); upload perf-gate-report.html with actions/upload-artifact instead`,
    );
    return undefined;
  }
}

/** The line the comment and the job summary link the artifact with. */
export function artifactLine(a: UploadedArtifact): string {
  return `📄 [The run's page](${a.url}) (latency over time, distributions, errors, resources; \`perf-gate-report.html\` in the artifact \`${a.name}\`, with the results file)`;
}

/** A message without the URLs in it (a signed upload URL carries a credential). */
function withoutUrls(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/https?:\/\/\S+/g, '<url>').slice(0, 300);
}

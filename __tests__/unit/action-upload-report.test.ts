// The Action's input upload-report: the run's page uploaded as an artifact and linked from the comment,
// against the artifact stand-in.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchArtifactHttp } from '../../src/action/artifact.js';
import { type ArtifactStandin, startArtifactStandin } from './artifact-standin.js';
import { run } from '../../src/action/main.js';
import { reportMarker } from '../../src/report/markdown.js';
import { REPO, outcome, harness, warnings } from './action-harness.js';

describe("input upload-report: the run's page uploaded and linked", () => {
  const runFilesThere = {
    '/w/perf-gate-results.json': '{"verdict":"regression"}',
    '/w/perf-gate-report.md': 'report',
    '/w/perf-gate-report.html': '<p>page</p>',
  };
  let standin: ArtifactStandin;
  beforeEach(async () => {
    standin = await startArtifactStandin();
  });
  afterEach(async () => {
    await standin.close();
  });
  const serviceEnv = () => ({
    ACTIONS_RUNTIME_TOKEN: standin.token,
    ACTIONS_RESULTS_URL: standin.url,
    GITHUB_RUN_ID: '901',
    GITHUB_JOB: 'perf',
  });
  const LINK = `📄 [The run's page](https://github.com/${REPO}/actions/runs/901/artifacts/4001)`;

  it('by default: the artifact uploaded, the comment and the summary link it, output report-url; the verdict as it was', async () => {
    const h = harness({
      env: serviceEnv(),
      files: runFilesThere,
      perfGate: async () => outcome('regression'),
      artifactHttp: fetchArtifactHttp(10_000),
    });
    await run(h.deps);
    expect(standin.artifacts.map((a) => a.name)).toEqual(['perf-gate-perf']);
    // the signed URL's signature masked in the log from then on
    expect(h.calls).toContain('mask standin');
    expect(h.outputs['report-url']).toBe(`https://github.com/${REPO}/actions/runs/901/artifacts/4001`);
    expect(h.api.comments[0]?.body).toContain(`\n\n${LINK}`);
    expect(h.api.comments[0]?.body.startsWith(reportMarker(''))).toBe(true);
    expect(h.summary[0]).toContain(LINK);
    // the report file as well (a refresh pull request's body-path)
    expect(h.files['/w/perf-gate-report.md']).toContain(`\n\n${LINK}`);
    expect(h.failed).toEqual(['perf-gate: 1 regression']);
  });

  it("upload-report: 'false': nothing uploaded, no link", async () => {
    const h = harness({
      env: { ...serviceEnv(), 'INPUT_UPLOAD-REPORT': 'false' },
      files: runFilesThere,
      artifactHttp: fetchArtifactHttp(10_000),
    });
    await run(h.deps);
    expect(standin.requests).toEqual([]);
    expect(h.outputs['report-url']).toBe('');
    expect(h.api.comments[0]?.body).not.toContain("The run's page");
    expect(h.files['/w/perf-gate-report.md']).toBe('report');
  });

  it('a job without the artifact service: one info line, no link, the run as it was', async () => {
    const h = harness({ files: runFilesThere });
    await run(h.deps);
    expect(h.calls).toContain(
      "info perf-gate: the run's page is not uploaded: the job has no artifact service (ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL unset)",
    );
    expect(h.outputs['report-url']).toBe('');
    expect(warnings(h)).toEqual([]);
  });

  it('a failing service: tried again, then one warning; the comment is posted without the link and the gate still fails', async () => {
    standin.failNext('CreateArtifact', 502, 3);
    const h = harness({
      env: serviceEnv(),
      files: runFilesThere,
      perfGate: async () => outcome('regression'),
      artifactHttp: fetchArtifactHttp(10_000),
    });
    await run(h.deps);
    expect(h.calls.filter((c) => c.startsWith('sleep'))).toEqual(['sleep 1000', 'sleep 3000']);
    expect(warnings(h)).toEqual([
      "perf-gate: the run's page could not be uploaded (CreateArtifact: 502 the stand-in was told to fail); upload perf-gate-report.html with actions/upload-artifact instead",
    ]);
    expect(h.api.comments[0]?.body).not.toContain("The run's page");
    expect(h.failed).toEqual(['perf-gate: 1 regression']);
  });
});

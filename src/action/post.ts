// The Action's post step: removes whatever a run with this job's run id left behind.
import { connectDocker, sweepRun } from '../docker/engine.js';

const runId = process.env.STATE_run_id;
if (runId) {
  const removed = await sweepRun(connectDocker(), runId);
  for (const r of removed) process.stdout.write(`perf-gate post: removed ${r}\n`);
}

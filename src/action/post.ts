// The Action's post step: removes whatever the main step's run left behind (it may have been
// cancelled or killed before its own teardown finished).
import { connectDocker, sweepRun } from '../docker/engine.js';
import { STATE } from './constants.js';

// @actions/core's saveState is read back as STATE_<name>
const runId = process.env[`STATE_${STATE.runId}`];
if (runId && /^[0-9a-f]{8}$/.test(runId)) {
  const removed = await sweepRun(connectDocker(), runId);
  for (const r of removed) process.stdout.write(`perf-gate post: removed ${r}\n`);
  process.stdout.write(`perf-gate post: run ${runId} cleaned up\n`);
}
